"""A catalogue of attacks on everything outside the kernel: the batch grader's reading of a class
folder, its output files, the class report and the gradebook import. Each hostile (or careless)
student's folder, file, name or result costs only that student, never another's grade: honest
students graded beside them keep full marks.

| attack | outcome |
| --- | --- |
| a student folder named like an assignment (`01_graphs_and_sessions`) | one more student, graded |
| a folder that is a class and one student's at once | `grade` refuses, naming which folder fits which |
| a student folder holding no assignment folder | named on stderr, never dropped in silence |
| student folders named `grades.csv`, `report.html`, `%...` | graded; results in `%<name>/`; class files intact |
| a sparse notebook of 1 TB | `invalid`, its size in the reason, no byte read; the batch goes on |
| a notebook handed in as `my_work.ipynb` | graded as the lesson, the reason says so; the gradebook takes it |
| a folder name and an exception type with escapes and newlines | escaped in `.txt`, terminal and CSV |
| an unreadable, a non-JSON and an odd result file in the results folder | named and skipped by `grade`, `report`, `gradebook` |
| a record of an assignment the gradebook lacks | skipped with its reason; the others are stored |
| a course copied elsewhere, graded with another checkout's venv | refused, naming both packages; nbgrader refuses as its config loads, recording nobody |

The nbgrader front end's catalogue (metadata, renamed notebooks, timestamps, HTML in markdown) is
in tests/test_nbgrader.py, where both front ends grade the same hostile notebooks.
"""
from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.judging.reference import solution_path
from autograder.judging.submissions import LayoutError, discover
from tests.conftest import GRADE_FLAGS, scratch_course
from tests.mutation.lean import lean_notebook

ASSIGNMENT = "02_rebuild_vs_feed"
LESSON = lessons.load(ASSIGNMENT)
NOTEBOOK = LESSON.notebook
FULL = LESSON.max_score
OTHER = "01_graphs_and_sessions"  # an assignment's name, taken by a student folder

# An exception type whose name would forge a passing line, clear the screen and retitle the terminal.
FORGED_TYPE = "Oops\n  PASS  changes the dict the model holds\x1b[2J\x1b]0;owned\x07"
ESCAPING_STUDENT = "eve\x1b[31m\r[########################] 9 done | failures 0"
HONEST = ("honest", OTHER, "grades.csv", "report.html", "%percent", "renamed")


def lean_solution() -> nbformat.NotebookNode:
    return lean_notebook(nbformat.read(solution_path(LESSON), as_version=4))


def raising_retune() -> nbformat.NotebookNode:
    """The solution, but `retune` raises an exception whose type's name is `FORGED_TYPE`."""
    nb = lean_solution()
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "retune_solution")
    cell.source = (f"def retune(options, threshold):\n"
                   f"    raise type({FORGED_TYPE!r}, (Exception,), {{}})('no')\n")
    return nb


def hand_in(root: Path, student: str, nb, name: str = NOTEBOOK) -> Path:
    folder = root / student / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / name)
    return folder / name


def odd_results(out: Path) -> None:
    """What no grader wrote: a result file that is not JSON, one of the wrong shape, an unreadable one."""
    odd = {"student": "odd", "assignment": ASSIGNMENT, "score": "12", "max_score": FULL, "status": "graded",
           "exercises": []}
    for student, text in (("junk", "{not json"), ("odd", json.dumps(odd))):
        (out / student).mkdir(parents=True)
        (out / student / f"{ASSIGNMENT}.json").write_text(text)
    (out / "locked").mkdir()
    (out / "locked" / f"{ASSIGNMENT}.json").symlink_to(out / "locked" / "nowhere")


def autograder(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", *map(str, args)], capture_output=True, text=True,
                          timeout=900, cwd=cwd)


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> SimpleNamespace:
    """One class, graded by one `python -m autograder grade`, then reported and stored in a gradebook."""
    root = tmp_path_factory.mktemp("frontends")
    submitted, out = root / "submitted", root / "results"
    for student in HONEST:
        if student != "renamed":
            hand_in(submitted, student, lean_solution())
    hand_in(submitted, "renamed", lean_solution(), name="my_work.ipynb")
    with open(hand_in(submitted, "sparse", lean_solution()), "r+b") as f:
        f.truncate(2**40)  # a terabyte that takes no disk
    hand_in(submitted, ESCAPING_STUDENT, raising_retune())
    odd_results(out)
    run = autograder("grade", *GRADE_FLAGS, submitted, "--out", out)
    records = {json.loads(p.read_text())["student"]: json.loads(p.read_text())
               for p in out.glob("*/*.json") if p.parent.name not in ("junk", "odd", "locked")}
    report = autograder("report", out)
    return SimpleNamespace(root=root, out=out, run=run, records=records, report=report)


@pytest.mark.slow
def test_every_student_gets_a_result_and_the_honest_ones_full_marks(graded):
    assert graded.run.returncode == 0, graded.run.stderr[-3000:]
    assert set(graded.records) == {*HONEST, "sparse", ESCAPING_STUDENT}
    for student in HONEST:
        record = graded.records[student]
        assert (record["status"], record["score"]) == ("graded", FULL), (student, record["reason"])


@pytest.mark.slow
def test_a_notebook_under_another_name_is_graded_as_the_lesson(graded):
    assert graded.records["renamed"]["reason"] == f"graded my_work.ipynb as {NOTEBOOK} (handed in under another name)"


@pytest.mark.slow
def test_a_sparse_terabyte_is_invalid_and_never_read(graded):
    record = graded.records["sparse"]
    assert (record["status"], record["score"]) == ("invalid", 0)
    assert f"{NOTEBOOK} is {2**40} bytes, more than the 64 MB a notebook may be" in record["reason"]
    assert record["device"] == "none", "no kernel for a notebook the grader will not read"


@pytest.mark.slow
def test_class_files_and_students_named_like_them_live_apart(graded):
    out = graded.out
    rows = list(csv.DictReader((out / "grades.csv").open(newline="")))
    assert sorted(r["student"] for r in rows) == sorted({*HONEST, "sparse", ESCAPING_STUDENT.replace(
        "\x1b", "\\x1b").replace("\r", "\\r")})
    for student in ("grades.csv", "report.html", "%percent"):
        assert (out / f"%{student}" / f"{ASSIGNMENT}.json").is_file()
    assert (out / OTHER / f"{ASSIGNMENT}.json").is_file()
    assert not list(out.glob("*.tmp")) and not list(out.glob("*/*.tmp"))
    assert graded.report.returncode == 0, graded.report.stderr[-3000:]
    page = (out / "report.html").read_text()
    assert f"<span id='students'>{len(graded.records)}</span>" in page


@pytest.mark.slow
def test_text_from_a_submission_never_acts_on_a_terminal_a_text_file_or_a_spreadsheet(graded):
    out = graded.out
    record = graded.records[ESCAPING_STUDENT]
    assert record["score"] == FULL - LESSON.exercise("retune").points
    [feedback] = [p for p in out.glob("eve*/*.txt")]
    text = feedback.read_text()
    assert "\x1b" not in text and "\r" not in text and "\x07" not in text
    assert not [line for line in text.splitlines() if line.strip().startswith("PASS  changes the dict")], \
        "a forged PASS line"
    assert "Oops\\n  PASS" in text, "the exception's type, shown escaped"
    assert "\x1b" not in (out / "grades.csv").read_text()
    progress = graded.run.stderr
    assert "\x1b" not in progress and "\r" not in progress and "eve\\x1b[31m\\r[####" in progress


@pytest.mark.slow
def test_odd_result_files_are_named_and_skipped(graded):
    for run in (graded.run, graded.report):
        for name in ("junk", "odd", "locked"):
            assert f"skipping {graded.out / name / ASSIGNMENT}.json" in run.stderr, (name, run.stderr[-2000:])
    assert "'score' is not a number" in graded.report.stderr


@pytest.mark.slow
def test_the_gradebook_stores_every_record_it_can(graded):
    """A renamed notebook's record lands on the lesson's notebook; a record of an assignment the
    gradebook lacks is skipped with its reason; the students after it are stored."""
    from nbgrader.api import Gradebook

    from tests.test_nbgrader import nbgrader

    (graded.root / "course").mkdir()
    course = scratch_course(graded.root / "course")
    generated = nbgrader(course, "generate_assignment", ASSIGNMENT)
    assert generated.returncode == 0, generated.stderr[-2000:]
    stray = dict(graded.records["honest"], student="aaron", assignment="03_collections_and_trainable")
    (graded.out / "aaron").mkdir()
    (graded.out / "aaron" / "03_collections_and_trainable.json").write_text(json.dumps(stray))
    stored = autograder("gradebook", graded.out, "--db", course / "gradebook.db")
    assert stored.returncode == 1 and "aaron/03_collections_and_trainable: " in stored.stderr, stored.stderr
    assert f"stored {len(graded.records)} result(s)" in stored.stdout
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {s.student.id: s.score for s in gradebook.assignment_submissions(ASSIGNMENT)}
    assert {s: scores[s] for s in HONEST} == dict.fromkeys(HONEST, FULL)


# ---- layouts, without a kernel ------------------------------------------------------------------

VALID = nbformat.writes(nbformat.v4.new_notebook())


def lay_out(root: Path, student: str, assignment: str = ASSIGNMENT) -> None:
    folder = root / student / assignment
    folder.mkdir(parents=True)
    (folder / lessons.load(assignment).notebook).write_text(VALID)


def test_a_student_named_like_an_assignment_is_one_more_student(tmp_path):
    for student in ("alice", OTHER, "bob"):
        lay_out(tmp_path, student)
    assert sorted(s.student for s in discover([tmp_path])) == sorted(["alice", OTHER, "bob"])
    [alone] = discover([tmp_path / OTHER])  # that student's folder, given alone
    assert (alone.student, alone.assignment) == (OTHER, ASSIGNMENT)


def test_a_folder_both_a_class_and_a_student_is_refused_with_the_reason(tmp_path):
    lay_out(tmp_path, OTHER)  # a folder named like an assignment that holds an assignment folder
    (tmp_path / ASSIGNMENT).mkdir()  # and one that holds a notebook, as an assignment folder does
    (tmp_path / ASSIGNMENT / NOTEBOOK).write_text(VALID)
    with pytest.raises(LayoutError, match=f"{OTHER} hold\\(s\\) assignment folders.*{ASSIGNMENT} do\\(es\\) not"):
        discover([tmp_path])
    run = autograder("grade", *GRADE_FLAGS, tmp_path, "--out", tmp_path / "out")
    assert run.returncode == 2 and "could be a class or one student's folder" in run.stderr


def test_a_student_folder_without_an_assignment_folder_is_named(tmp_path, capsys):
    lay_out(tmp_path, "alice")
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / NOTEBOOK).write_text(VALID)  # the notebook one folder too high
    assert [s.student for s in discover([tmp_path])] == ["alice"]
    assert f"not graded: {tmp_path / 'bob'} holds no assignment folder (found only {NOTEBOOK})" in capsys.readouterr().err


def test_one_students_folder_is_still_understood(tmp_path):
    lay_out(tmp_path, "carol")
    lay_out(tmp_path, "carol", OTHER)
    assert sorted(s.assignment for s in discover([tmp_path / "carol"])) == [OTHER, ASSIGNMENT]
    assert {s.student for s in discover([tmp_path / "carol"])} == {"carol"}


def copied_course(tmp_path: Path) -> Path:
    """The course's package and config copied elsewhere, with one student's submission."""
    course = tmp_path / "course"
    shutil.copytree(COURSE_ROOT / "autograder", course / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(COURSE_ROOT / "nbgrader_config.py", course)
    (course / "solutions").symlink_to(COURSE_ROOT / "solutions")
    lay_out(course / "submitted", "alice")
    return course


def other_package(course: Path) -> str:
    return (f"imported the course's package from {course / 'autograder'}, but the kernels it starts with "
            f"{sys.executable} would import {COURSE_ROOT / 'autograder'}")


def test_a_course_copied_elsewhere_is_not_graded_with_another_checkouts_package(tmp_path):
    """The copy's grader imports the copy's package; kernels started with this checkout's Python
    would import this checkout's: refused, naming both, before any kernel."""
    course = copied_course(tmp_path)
    run = autograder("grade", *GRADE_FLAGS, "submitted", "--out", "results", cwd=course)
    assert run.returncode == 2, run.stderr[-2000:]
    assert other_package(course) in run.stderr


def test_nbgrader_refuses_such_a_course_before_it_records_a_student(tmp_path):
    """Issue 36: nbgrader's commands refuse as the config loads, so the gradebook never shows a 0
    that looks like a grade (before, `generate_assignment` ran, and `autograde` recorded every
    student before its grading step refused)."""
    from nbgrader.api import Gradebook

    course = copied_course(tmp_path)
    bin = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin}{os.pathsep}{os.environ['PATH']}"}
    for args in (["generate_assignment", ASSIGNMENT, "--force"], ["autograde", ASSIGNMENT, "--force"]):
        run = subprocess.run([str(bin / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True,
                             timeout=300)
        assert run.returncode != 0 and other_package(course) in run.stderr, run.stderr[-2000:]
    if (course / "gradebook.db").exists():
        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
            assert gradebook.students == []


def test_the_gradebook_refuses_a_result_of_an_earlier_hand_in(tmp_path):
    """Issue 36: a batch result of the first hand-in was stored over nbgrader's grade of the
    resubmission (12 to 0), although it records the notebook's sha256. Now it is refused, naming the
    student, unless --force."""
    import hashlib

    from nbgrader.api import Gradebook

    from tests.test_nbgrader import nbgrader

    course = scratch_course(tmp_path)
    assert nbgrader(course, "generate_assignment", ASSIGNMENT).returncode == 0
    earlier = nbformat.writes(nbformat.v4.new_notebook()).encode()
    record = {"student": "alice", "assignment": ASSIGNMENT, "notebook": NOTEBOOK, "score": 0, "max_score": FULL,
              "status": "graded", "reason": "", "notebook_sha256": hashlib.sha256(earlier).hexdigest(),
              "exercises": [{"id": e.id, "points": 0, "max_points": e.points, "passed": False, "outcomes": []}
                            for e in LESSON.exercises]}
    (tmp_path / "results" / "alice").mkdir(parents=True)
    (tmp_path / "results" / "alice" / f"{ASSIGNMENT}.json").write_text(json.dumps(record))
    hand_in(course / "submitted", "alice", lean_solution())  # the resubmission nbgrader holds

    def alice() -> float | None:
        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
            return {s.student.id: s.score for s in gradebook.assignment_submissions(ASSIGNMENT)}.get("alice")

    refused = autograder("gradebook", tmp_path / "results", "--db", course / "gradebook.db")
    assert refused.returncode == 1, refused.stderr
    assert f"alice/{ASSIGNMENT}: the result graded a notebook with sha256 {record['notebook_sha256'][:12]}, " \
           f"but nbgrader's submission {course / 'submitted' / 'alice' / ASSIGNMENT / NOTEBOOK} has" in refused.stderr
    assert alice() is None
    forced = autograder("gradebook", tmp_path / "results", "--db", course / "gradebook.db", "--force")
    assert forced.returncode == 0 and alice() == 0, forced.stderr


EVIL_IDS = ("=HYPERLINK(\"http://evil.example\",\"x\")", "+cmd", "=cmd|' -C calc'!A0", "doe, jane", "@SUM(A1)",
            "-2+3", "\tfoo", "plain")


def test_nbgrader_export_quotes_cells_and_runs_no_formula(tmp_path):
    """Issue 36: stock `nbgrader export` wrote these ids raw and unquoted; the course's plugin
    (`c.ExportApp.plugin_class`) keeps each in its cell, neutralised."""
    from nbgrader.api import Gradebook

    from tests.test_nbgrader import nbgrader

    course = scratch_course(tmp_path)
    assert nbgrader(course, "generate_assignment", ASSIGNMENT).returncode == 0
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student in EVIL_IDS:
            gradebook.update_or_create_student(student, first_name="=1+1", last_name="O'Neil, \"Jr\"")
    exported = nbgrader(course, "export")
    assert exported.returncode == 0, exported.stderr[-2000:]
    rows = list(csv.DictReader((course / "grades.csv").open(newline="")))
    assert all(None not in row and len(row) == 11 for row in rows), "a comma shifted the columns"
    got = sorted(row["student_id"] for row in rows)
    assert got == sorted(["'" + s if s[0] in "=+-@" else s for s in EVIL_IDS if s != "\tfoo"] + ["\\tfoo"])
    assert {(row["first_name"], row["last_name"]) for row in rows} == {("'=1+1", "O'Neil, \"Jr\"")}
