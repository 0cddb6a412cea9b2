"""nbgrader's own commands with the course's config: generate_assignment, autograde, generate_feedback.

`nbgrader autograde` grades through the course's engine (`autograder.frontends.nbgrader`), so its
scores must equal the batch grader's on every submission, hostile ones included.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from autograder.course import lessons
from autograder.judging.reference import solution_path
from tests.conftest import ASSIGNMENTS, GRADE_FLAGS, LIMITS, gradable, make_socket, release_path, scratch_course
from tests.forgeries import BY_LESSON
from tests.mutants import mutants_of
from tests.swaps import one_per_cell, swap_cells

BIN = Path(sys.executable).parent
# Every mutant through nbgrader takes minutes: by default the first mutant of each exercise, so that
# every check cell fails once through nbgrader. TFCOURSE_ALL_MUTANTS=1: every mutant.
ALL_MUTANTS = os.environ.get("TFCOURSE_ALL_MUTANTS") == "1"


def mutant_notebooks(assignment: str) -> list[list]:
    """The mutants to submit, as the groups each notebook holds. A group mutates every other exercise
    of the lesson (`tests.swaps.one_per_cell`, halved), so each check cell fails in one notebook and
    passes in another."""
    mutants = mutants_of(assignment)
    if not ALL_MUTANTS:
        first: dict[str, object] = {}
        for mutant in mutants:
            first.setdefault(mutant.exercise, mutant)
        mutants = list(first.values())
    return [half for group in one_per_cell(mutants) for half in (group[0::2], group[1::2]) if half]


TAMPERING = "has changed!"


def nbgrader(course: Path, *args: str, env: dict | None = None, timeout: float | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    return subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True,
                          timeout=timeout)


def submit(course: Path, student: str, assignment: str, notebook: Path | nbformat.NotebookNode,
           name: str | None = None) -> None:
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True)
    target = folder / (name or lessons.load(assignment).notebook)
    if isinstance(notebook, Path):
        shutil.copy(notebook, target)
    else:
        nbformat.write(notebook, target)


def scores(course: Path, assignment: str) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        return {s.student.id: s.score for s in gradebook.assignment_submissions(assignment)}


def autograde(course: Path, assignment: str, **kwargs) -> subprocess.CompletedProcess:
    run = nbgrader(course, "autograde", assignment, "--force", **kwargs)
    assert run.returncode == 0, run.stderr[-3000:]
    return run


# The lesson whose solution is handed in as each hostile notebook of the agreement test.
HOSTILE_LESSON = "02_rebuild_vs_feed" if "02_rebuild_vs_feed" in ASSIGNMENTS else ASSIGNMENTS[0]
XSS = "<script>window.pwned = 1</script>\n\n<img src=x onerror=\"window.pwned = 2\">"


def _nbgrader_meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def _check_cells(nb) -> list:
    return [c for c in nb.cells if _nbgrader_meta(c).get("grade") and not _nbgrader_meta(c).get("solution")]


def _with(nb, change) -> nbformat.NotebookNode:
    nb = copy.deepcopy(nb)
    change(nb)
    return nb


def _duplicate_first_check(nb) -> None:
    first = _check_cells(nb)[0]
    twin = copy.deepcopy(first)
    twin.id = f"{first.id}-twin"
    nb.cells.insert(nb.cells.index(first) + 1, twin)


def _reflag_checks(nb) -> None:
    for k, cell in enumerate(_check_cells(nb)):
        if k % 2:
            cell.metadata["nbgrader"]["grade"] = False
        else:
            cell.metadata["nbgrader"]["solution"] = True


HOSTILE = {  # student: what the notebook does (each on the lesson's solution: the verdict is full marks)
    "added-grade-cell": lambda nb: nb.cells.append(nbformat.v4.new_code_cell("print('mine')", metadata={"nbgrader": {
        "grade": True, "grade_id": "my_bonus", "points": 100, "solution": False, "locked": False,
        "schema_version": 3}})),
    "deleted-check-cell": lambda nb: nb.cells.remove(_check_cells(nb)[0]),
    "duplicated-check-cell": _duplicate_first_check,
    "odd-schema-version": lambda nb: _check_cells(nb)[0].metadata["nbgrader"].update(schema_version=99),
    "reflagged-check-cells": _reflag_checks,
    "script-in-markdown": lambda nb: nb.cells.insert(1, nbformat.v4.new_markdown_cell(XSS)),
    "renamed-notebook": lambda nb: None,  # handed in as my_work.ipynb
    "garbage-timestamp": lambda nb: None,  # beside a timestamp.txt that is not a time
}


def submit_hostile(course: Path) -> dict[str, int]:
    """Hand in every `HOSTILE` notebook; return each one's expected score."""
    lesson = lessons.load(HOSTILE_LESSON)
    solution = nbformat.read(solution_path(lesson), as_version=4)
    for student, change in HOSTILE.items():
        name = "my_work.ipynb" if student == "renamed-notebook" else None
        submit(course, student, HOSTILE_LESSON, _with(solution, change), name=name)
    (course / "submitted" / "garbage-timestamp" / HOSTILE_LESSON / "timestamp.txt").write_text("the day after\x1b[2J")
    return dict.fromkeys(HOSTILE, lesson.max_score)


@pytest.fixture(scope="module")
def autograded(tmp_path_factory) -> SimpleNamespace:
    """One course for every lesson, graded by one `nbgrader autograde`: per lesson the solution, the
    untouched release and the mutant notebooks (`mutant_notebooks`), with each one's expected score.
    Each is whole: the grader runs only the cells a grade depends on (`autograder.judging.lean`).
    Beside them, the `HOSTILE` notebooks, also graded by the batch grader: both front ends must
    agree on them."""
    course = gradable(scratch_course(tmp_path_factory.mktemp("nbgrader")))
    assert nbgrader(course, "generate_assignment", "*", "--force").returncode == 0
    expected: dict[str, dict[str, int]] = {}
    for assignment in ASSIGNMENTS:
        lesson = lessons.load(assignment)
        solution = nbformat.read(solution_path(lesson), as_version=4)
        submit(course, "solution", assignment, solution_path(lesson))
        submit(course, "release", assignment, release_path(assignment))
        expected[assignment] = {"solution": lesson.max_score, "release": 0}
        for k, group in enumerate(mutant_notebooks(assignment), 1):
            submit(course, f"mutants-{k}", assignment, swap_cells(solution, group))
            expected[assignment][f"mutants-{k}"] = (lesson.max_score
                                                    - sum(lesson.exercise(m.exercise).points for m in group))
    expected[HOSTILE_LESSON].update(submit_hostile(course))
    run = autograde(course, "*")
    feedback = nbgrader(course, "generate_feedback", "*", "--force")
    batch = subprocess.run([sys.executable, "-m", "autograder", "grade", *GRADE_FLAGS,
                            *(f"submitted/{student}" for student in HOSTILE), "--out", "batch"],
                           cwd=course, capture_output=True, text=True)
    assert batch.returncode == 0, batch.stderr[-3000:]
    return SimpleNamespace(course=course, expected=expected, run=run, feedback=feedback)


@pytest.mark.slow
@pytest.mark.parametrize("student", sorted(HOSTILE))
def test_both_front_ends_give_a_hostile_notebook_the_same_verdict(autograded, student):
    """Full marks through nbgrader, as through the batch grader: what the notebook does to its cell
    metadata, file name or timestamp neither costs nor earns a point, and fails no other student."""
    course = autograded.course
    record = json.loads((course / "batch" / student / f"{HOSTILE_LESSON}.json").read_text())
    assert (record["status"], record["score"]) == ("graded", autograded.expected[HOSTILE_LESSON][student])
    assert scores(course, HOSTILE_LESSON)[student] == record["score"], autograded.run.stderr[-3000:]


@pytest.mark.slow
def test_what_the_hostile_notebooks_did_is_logged(autograded):
    log = autograded.run.stderr
    assert f"graded my_work.ipynb as {lessons.load(HOSTILE_LESSON).notebook} (handed in under another name)" in log
    assert "timestamp.txt: not a timestamp: the day after\\x1b[2J" in log
    assert "was deleted: restored as released" in log
    assert "ignoring the nbgrader metadata of a graded cell the release does not have (grade_id 'my_bonus')" in log
    assert "ignoring the nbgrader metadata of a second cell with this grade_id" in log


@pytest.mark.slow
def test_a_students_html_never_runs_in_the_feedback_page(autograded):
    page = (autograded.course / "feedback" / "script-in-markdown" / HOSTILE_LESSON /
            Path(lessons.load(HOSTILE_LESSON).notebook).with_suffix(".html")).read_text()
    assert "window.pwned" not in page and "onerror" not in page
    autograded_nb = (autograded.course / "autograded" / "script-in-markdown" / HOSTILE_LESSON /
                     lessons.load(HOSTILE_LESSON).notebook).read_text()
    assert "window.pwned" not in autograded_nb, "formgrader shows the autograded notebook"


@pytest.mark.slow
def test_untouched_check_cells_raise_no_tampering_warning(autograded):
    stderr = autograded.run.stderr
    assert TAMPERING not in stderr, [line for line in stderr.splitlines() if TAMPERING in line]


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_nbgrader_scores_equal_the_batch_graders(autograded, assignment):
    """Solution, untouched release and mutants: nbgrader's score is the batch grader's (full marks,
    zero, and each mutant's exercises lost, which tests/test_grading.py proves of the batch grader),
    and the feedback has one labelled report per exercise."""
    lesson = lessons.load(assignment)
    course = autograded.course
    assert scores(course, assignment) == autograded.expected[assignment], autograded.run.stderr[-3000:]

    assert autograded.feedback.returncode == 0, autograded.feedback.stderr[-3000:]
    page = (course / "feedback" / "release" / assignment / Path(lesson.notebook).with_suffix(".html")).read_text()
    assert "not-implemented" in page, "the feedback page lacks the check cells' reports"
    for exercise in lesson.exercises:
        assert page.count(f"{exercise.id}: 0/{exercise.points}") == 1, "one report per exercise"
    assert "public checks" in page and "hidden checks" in page


def hostile_release(assignment: str, source: str) -> nbformat.NotebookNode:
    """The untouched release with `source` in a cell right after the setup cell (which makes `check`)."""
    nb = nbformat.read(release_path(assignment), as_version=4)
    setup = next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("grade_id") == "setup")
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(source))
    return nb


PATCHES = {
    # The two lines of issue 15: every check, public and hidden, does nothing.
    "patches-checker-type": "type(check).__call__ = lambda *a: None\ntype(check).hidden = lambda *a: None",
    # The hidden judge's subprocess answers "passed", and so does the public judge.
    "patches-subprocess-and-judge": '''
import json, subprocess, autograder.frontends.check
from autograder.judging.judge import ExerciseResult

class _Passed:
    returncode, stderr = 0, ""
    def __init__(self, *args, input="", **kwargs):
        self.stdout = json.dumps({"id": args[0][-1], "max_points": 1, "outcomes": []})

subprocess.run = _Passed
autograder.frontends.check.judge_exercise = lambda exercise, *a: ExerciseResult(exercise.id, exercise.points, [])
''',
    # Failed checks raise; with showtraceback silenced, no error output would record it.
    "silences-showtraceback": "get_ipython().showtraceback = lambda *a, **k: None",
}


@pytest.mark.slow
def test_hostile_patches_earn_nothing_under_nbgrader_autograde(course):
    assignment = "02_rebuild_vs_feed"
    lesson = lessons.load(assignment)
    assert nbgrader(course, "generate_assignment", assignment, "--force").returncode == 0
    submit(course, "honest", assignment, solution_path(lesson))
    for name, source in PATCHES.items():
        submit(course, name, assignment, hostile_release(assignment, source))
    run = autograde(course, assignment)
    assert scores(course, assignment) == {"honest": lesson.max_score, **{name: 0 for name in PATCHES}}, \
        run.stderr[-3000:]


@pytest.mark.slow
def test_without_bubblewrap_nbgrader_autograde_refuses(course):
    """Like the batch grader: no sandbox, no grading, unless the config says so."""
    assignment = ASSIGNMENTS[0]
    assert nbgrader(course, "generate_assignment", assignment, "--force").returncode == 0
    submit(course, "solution", assignment, solution_path(lessons.load(assignment)))
    with open(course / "nbgrader_config.py", "a") as config:
        config.write("\nc.Engine.sandbox = True\n")
    run = nbgrader(course, "autograde", assignment, "--force", env={"PATH": str(BIN)})  # no bwrap on PATH
    assert run.returncode != 0 and "bubblewrap" in run.stderr, run.stderr[-3000:]
    assert not scores(course, assignment).get("solution")


@pytest.mark.slow
def test_either_order_gives_the_same_gradebook(course):
    """`autograder gradebook` then `nbgrader autograde`, or the other way round: the same scores."""
    assignment = ASSIGNMENTS[0]
    lesson = lessons.load(assignment)
    solution = nbformat.read(solution_path(lesson), as_version=4)
    assert nbgrader(course, "generate_assignment", assignment, "--force").returncode == 0
    submit(course, "solved", assignment, solution_path(lesson))
    submit(course, "untouched", assignment, release_path(assignment))
    mutant = mutants_of(assignment)[0]
    submit(course, "mutant", assignment, mutant.apply(solution))
    expected = {"solved": lesson.max_score, "untouched": 0,
                "mutant": lesson.max_score - lesson.exercise(mutant.exercise).points}

    out = course / "results"
    run = lambda *args: subprocess.run([sys.executable, "-m", "autograder", *args], cwd=course,
                                       capture_output=True, text=True)
    assert run("grade", *GRADE_FLAGS, "submitted", "--out", str(out)).returncode == 0
    stored = run("gradebook", str(out), "--db", "gradebook.db")
    assert stored.returncode == 0, stored.stderr
    assert scores(course, assignment) == expected
    autograde(course, assignment)
    assert scores(course, assignment) == expected
    assert run("gradebook", str(out), "--db", "gradebook.db").returncode == 0
    assert scores(course, assignment) == expected


@pytest.mark.slow
def test_forgeries_and_leaks_get_the_batch_graders_verdict_under_nbgrader_autograde(course):
    """Every forgery of tests/test_forgery.py (the red team's of tests/forgeries.py too) gets the
    batch grader's verdict: zeroed when built from a construct with no honest use, else 0 for its
    exercise at run time; the honest corpus keeps full marks, and the leaks of issue 23 show no hidden
    input in the check cells' reports, which are nbgrader's feedback: the batch grader's verdicts,
    through nbgrader (issue 33)."""
    from autograder.engine.untrusted import UNNAMED_EXCEPTION
    from tests.honest import HONEST, honest_notebook
    from tests.test_forgery import FORGERIES, LEAKS, RED_TEAM, SECRETS, notebook

    assignment = "02_rebuild_vs_feed"
    lesson = lessons.load(assignment)
    red_team = [f for f in RED_TEAM if f.assignment == assignment]
    assert nbgrader(course, "generate_assignment", assignment, "--force").returncode == 0
    submit(course, "honest", assignment, solution_path(lesson))
    for forgery in [*FORGERIES, *LEAKS, *red_team]:
        submit(course, forgery.name, assignment, notebook(forgery, checks=True))
    for name in HONEST:
        submit(course, name, assignment, honest_notebook(name))
    run = autograde(course, assignment)
    got = scores(course, assignment)
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    batch = {r["student"]: r["score"] for r in grade_all(discover([course / "submitted"]), course / "batch", jobs=2,
                                                          limits=LIMITS)}
    assert got == batch, run.stderr[-3000:]  # the same verdicts through both front ends
    assert {s: got[s] for s in ("honest", *HONEST)} == dict.fromkeys(("honest", *HONEST), lesson.max_score)
    assert all(got[f.name] == 0 for f in FORGERIES if f.zeroed)
    assert all(got[f.name] <= lesson.max_score - lesson.exercise(f.exercise).points
               for f in [*FORGERIES, *LEAKS, *red_team])
    for leak in LEAKS:
        graded = (course / "autograded" / leak.name / assignment / lesson.notebook).read_text()
        assert UNNAMED_EXCEPTION in graded
        assert not any(secret in graded for secret in SECRETS)


@pytest.mark.slow
@pytest.mark.parametrize("assignment", sorted(set(BY_LESSON) - {"02_rebuild_vs_feed"}))
def test_each_lessons_red_team_gets_the_batch_graders_verdict_under_nbgrader_autograde(course, assignment):
    """The red team of every other lesson (lesson 2's is above): each forgery loses at least its
    exercise through nbgrader, with the batch grader's score, and the solution keeps full marks."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover
    from tests.test_forgery import RED_TEAM, notebook

    lesson = lessons.load(assignment)
    red_team = [f for f in RED_TEAM if f.assignment == assignment]
    assert nbgrader(course, "generate_assignment", assignment, "--force").returncode == 0
    submit(course, "honest", assignment, solution_path(lesson))
    for forgery in red_team:
        submit(course, forgery.name, assignment, notebook(forgery, checks=True))
    run = autograde(course, assignment)
    got = scores(course, assignment)
    batch = {r["student"]: r["score"] for r in grade_all(discover([course / "submitted"]), course / "batch", jobs=2,
                                                          limits=LIMITS)}
    assert got == batch, run.stderr[-3000:]
    assert got["honest"] == lesson.max_score
    assert all(got[f.name] <= lesson.max_score - lesson.exercise(f.exercise).points for f in red_team), got


SECRET = "INSTRUCTOR-ONLY-ANSWER-KEY"
SPECIAL = {  # student: how the notebook is handed in, and what the batch grader's reason says it is
    "linked": (lambda path, solution: path.symlink_to(solution), "is a symbolic link"),
    "fifo": (lambda path, solution: os.mkfifo(path), "is a named pipe (FIFO)"),
    "socket": (lambda path, solution: make_socket(path), "is a socket"),
}


@pytest.mark.slow
def test_nbgrader_reads_a_submission_as_the_batch_grader_does(course, tmp_path):
    """Issue 36: nbgrader's intake follows no link and blocks on nothing. A notebook linked to the
    solution, a FIFO (which blocked stock `autograde` for good) or a socket is that student's 0 with
    the reason logged, as the batch grader's `invalid`; a `notes.txt` linked to an instructor's file
    reaches neither autograded/ nor feedback/, which `release_feedback` hands to the student."""
    assignment = ASSIGNMENTS[0]
    lesson = lessons.load(assignment)
    assert nbgrader(course, "generate_assignment", assignment, "--force").returncode == 0
    secret = tmp_path / "instructor-only.txt"
    secret.write_text(SECRET)
    submit(course, "notes-link", assignment, release_path(assignment))
    (course / "submitted" / "notes-link" / assignment / "notes.txt").symlink_to(secret)
    for student, (hand_in, _) in SPECIAL.items():
        folder = course / "submitted" / student / assignment
        folder.mkdir(parents=True)
        hand_in(folder / lesson.notebook, solution_path(lesson))

    run = nbgrader(course, "autograde", assignment, "--force", timeout=600)
    feedback = nbgrader(course, "generate_feedback", assignment, "--force", timeout=600)
    assert feedback.returncode == 0, (run.stderr[-5000:], feedback.stderr[-3000:])
    for folder in ("autograded", "feedback"):
        for path in (course / folder).rglob("*"):
            assert path.is_dir() or SECRET not in path.read_text(errors="replace"), path
    assert "not copied: notes.txt is a symbolic link" in run.stderr, run.stderr[-3000:]
    assert scores(course, assignment)["notes-link"] == 0

    batch = subprocess.run([sys.executable, "-m", "autograder", "grade", *GRADE_FLAGS, "submitted", "--out", "batch"],
                           cwd=course, capture_output=True, text=True, timeout=600)
    assert batch.returncode == 0, batch.stderr[-3000:]
    nbgrader_scores = scores(course, assignment)
    for student, (_, said) in SPECIAL.items():
        record = json.loads((course / "batch" / student / f"{assignment}.json").read_text())
        assert (record["status"], record["score"]) == ("invalid", 0) and said in record["reason"]
        assert nbgrader_scores.get(student, 0) == 0, (student, run.stderr[-3000:])
        assert f"{lesson.notebook} {said}" in run.stderr or f"{student}/{assignment}/{lesson.notebook} {said}" \
            in run.stderr, (student, run.stderr[-3000:])
