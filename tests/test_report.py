"""The class report: its numbers come from the results, its page stands alone, its input is escaped."""
import subprocess
import sys

from autograder.frontends.report import class_stats, failed_gradings, report_html
from tests.synthetic_class import FAILED, synthetic_records, write_synthetic_class


def test_stats_count_scores_passes_and_misconceptions_of_graded_submissions_only():
    records = synthetic_records()
    stats = class_stats(records)
    for name, a in stats.items():
        mine = [r for r in records if r["assignment"] == name]
        assert sorted(a.scores) == sorted(r["score"] for r in mine)
        for e in a.exercises.values():
            results = [x for r in mine for x in r["exercises"] if x["id"] == e.id]
            assert (e.passed, e.submissions) == (sum(x["passed"] for x in results), len(results))
            for m in e.misconceptions.values():
                assert m.students == sum(m.check in x["failed_checks"] for r in mine if r["status"] == "graded"
                                         for x in r["exercises"] if x["id"] == e.id)
    assert "not-observed" not in {c for a in stats.values() for e in a.exercises.values() for c in e.misconceptions}
    assert sorted(r["student"] for r in failed_gradings(records)) == sorted(FAILED)


def test_page_is_self_contained_and_escapes_what_students_named():
    records = synthetic_records()
    evil = dict(records[0], student="<script>alert(1)</script>", status="invalid", reason="<img src=x onerror=alert(1)>")
    page = report_html([*records, evil])
    assert page.count("data:image/png;base64,") == 4  # a histogram and a bar chart per assignment
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x" in page
    assert "http://" not in page and "https://" not in page and "<script" not in page and "<img src=x" not in page
    for status in ("crashed", "timeout", "invalid", "tampered"):
        assert f'data-status="{status}"' in page


def test_make_report_writes_the_page(tmp_path):
    write_synthetic_class(tmp_path / "results")
    run = subprocess.run([sys.executable, "-m", "autograder", "report", str(tmp_path / "results")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "results" / "report.html").read_text().startswith("<!DOCTYPE html>")
    empty = subprocess.run([sys.executable, "-m", "autograder", "report", str(tmp_path)],
                           capture_output=True, text=True, timeout=300)
    assert empty.returncode == 2 and "no results" in empty.stderr


# ---- the integrity view on a class with known copies (tests/integrity_class.py) ------------------

import csv  # noqa: E402
import json  # noqa: E402

import pytest  # noqa: E402

from autograder.frontends.report_settings import Report  # noqa: E402
from autograder.frontends.similarity import SOLUTION, class_similarity  # noqa: E402
from autograder.judging.results import write_result  # noqa: E402
from tests.integrity_class import COPIES, KINDS, LEAKER, LESSONS, scores, write_integrity_class  # noqa: E402


@pytest.fixture(scope="module")
def known_class(tmp_path_factory):
    root = tmp_path_factory.mktemp("known")
    records = write_integrity_class(root / "submitted")
    return root, records, class_similarity(records, root / "submitted")


def _listed(found) -> set[tuple[str, str, str]]:
    return {(s.assignment, p.a.student, p.b.student) for s in found for p in s.pairs}


def test_every_kind_of_copy_is_listed_and_few_honest_pairs(known_class):
    _, _, found = known_class
    precision, recall, missed, false = scores(_listed(found))
    assert precision >= 0.9 and recall >= 0.9, (missed, false)
    leaks = [p for s in found for p in s.pairs if p.kind == "solution"]
    assert [(p.assignment, p.a.student, p.b.student) for p in leaks] == [(LESSONS[0], LEAKER, SOLUTION)]


def test_a_one_exercise_copy_is_listed_for_that_exercise(known_class):
    _, _, found = known_class
    original, copier = COPIES[LESSONS[0]]["one exercise"]
    (pair,) = [p for p in found[0].pairs if {p.a.student, p.b.student} == {original, copier}]
    assert "one_run" in pair.exercises or "one_run" in pair.observed  # kept_and_dropped is exercise one_run
    assert min(pair.matches["one_run"].shares) > 0.9


def test_a_stricter_cut_off_lists_fewer_pairs(known_class):
    root, records, found = known_class
    stricter = class_similarity(records, root / "submitted", Report(threshold=1.01, exercise_threshold=1.01,
                                                                    much=1e9, leak_threshold=1.01))
    kept = [p for s in stricter for p in s.pairs]
    assert _listed(stricter) < _listed(found) and all(p.listed_for == ["observations"] for p in kept)


def test_report_cli_takes_cut_offs_and_writes_the_pairs_as_csv_and_json(known_class, tmp_path):
    root, records, found = known_class
    for r in records:
        write_result(tmp_path / "results", r)
    run = subprocess.run([sys.executable, "-m", "autograder", "report", str(tmp_path / "results"), "--submissions",
                          str(root / "submitted"), "--exercise-threshold", "0.9", "--config", str(tmp_path / "none.py")],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "similarity.csv" in run.stdout and "similarity.json" in run.stdout
    rows = list(csv.DictReader((tmp_path / "results" / "similarity.csv").open()))
    data = json.loads((tmp_path / "results" / "similarity.json").read_text())
    assert len(rows) == len(data["pairs"]) == sum(len(s.pairs) for s in found)
    exact = COPIES[LESSONS[0]]["exact"]
    (row,) = [r for r in rows if (r["assignment"], r["student_a"], r["student_b"]) == (LESSONS[0], *exact)]
    assert row["identical"] == "True" and float(row["score"]) == 1.0 and "notebook" in row["listed_for"]
    assert {"one_run", "notebook"} <= set(next(p for p in data["pairs"] if p["student_b"] == exact[1])["units"])
    page = (tmp_path / "results" / "report.html").read_text()
    assert page.count("identical files") >= 1 and "close to the solution" in page
    assert len(KINDS) == len(COPIES[LESSONS[1]])


def test_not_implemented_is_no_misconception_and_ties_are_named():
    records = synthetic_records()
    exercise = records[0]["exercises"][0]
    undone = {**exercise, "passed": False, "outcomes": [{"id": "not-implemented", "title": "is implemented",
                                                          "message": "", "passed": False}]}
    tied = [{**exercise, "passed": False, "outcomes": [{"id": f"check-{i}", "title": "t", "message": "m", "passed": False}]}
            for i in range(5)]
    mine = [{**records[0], "student": f"t{i}", "status": "graded", "exercises": [e]} for i, e in enumerate([undone, *tied])]
    stats = class_stats(mine)[records[0]["assignment"]].exercises[exercise["id"]]
    assert "not-implemented" not in stats.misconceptions
    assert len(stats.top()) == 3 and [m.check for m in stats.tied_beyond()] == ["check-3", "check-4"]
    assert "+2 more with 1 student(s) each" in report_html(mine)


def test_grade_files_follow_the_umask_and_grades_csv_has_a_column_per_exercise(tmp_path):
    import os
    import stat

    from autograder.judging.results import exercise_column, write_class_csv
    from tests.synthetic_class import write_synthetic_class

    old = os.umask(0o007)
    try:
        records = write_synthetic_class(tmp_path / "out")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "out" / "grades.csv").stat().st_mode)
    assert mode == 0o660, oct(mode)
    feedback = next((tmp_path / "out").glob("*/*.txt"))
    assert stat.S_IMODE(feedback.stat().st_mode) == 0o660
    from autograder.judging.feedback import record_html, record_text

    lean = {**records[0], "not_run": "21 of 28 code cells (the grade does not depend on them); --run-all runs them"}
    assert "--run-all" not in record_text(lean) + record_html(lean)  # the instructor's, in the JSON
    rows = list(csv.DictReader(write_class_csv(tmp_path / "out", records).open()))
    for row, r in zip(rows, records):
        for e in r["exercises"]:
            assert float(row[exercise_column(r["assignment"], e["id"])]) == e["points"]
    others = [c for c in rows[0] if "/" in c and not c.startswith(rows[0]["assignment"] + "/")]
    assert others and all(rows[0][c] == "" for c in others)  # blank on another assignment's row


def test_against_an_earlier_year_lists_this_years_copy_of_it(known_class, tmp_path):
    import shutil

    root, records, _ = known_class
    original, copier = COPIES[LESSONS[0]]["renamed"]
    shutil.copytree(root / "submitted" / original / LESSONS[0], tmp_path / "earlier" / "alumna" / LESSONS[0])
    this_year = [r for r in records if r["assignment"] == LESSONS[0] and r["student"] != original]
    (result,) = class_similarity(this_year, root / "submitted", against=tmp_path / "earlier")
    earlier = [(p.a.student, p.b.student) for p in result.pairs if p.kind == "earlier"]
    assert earlier == [(copier, "alumna (earlier)")]


def test_flagged_code_cites_cells_from_one_as_the_pairs_do():
    from autograder.frontends.integrity import flagged

    record = {**synthetic_records()[0], "flags": [{"cell": 3, "line": 2, "code": "import random", "reason": "r"}]}
    assert [(f["cell"], f["line"]) for f in flagged([record])] == [("cell 4", "2")]
