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
