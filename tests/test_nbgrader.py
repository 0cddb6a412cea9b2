"""nbgrader's own commands with the course's config: generate_assignment, autograde, generate_feedback.

`nbgrader autograde` grades through the course's engine (`autograder.frontends.nbgrader`), so its
scores must equal the batch grader's on every submission, hostile ones included.
"""
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
from tests.conftest import ASSIGNMENTS, GRADE_FLAGS, gradable, release_path, scratch_course
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


def nbgrader(course: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    return subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True)


def submit(course: Path, student: str, assignment: str, notebook: Path | nbformat.NotebookNode) -> None:
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True)
    target = folder / lessons.load(assignment).notebook
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


@pytest.fixture(scope="module")
def autograded(tmp_path_factory) -> SimpleNamespace:
    """One course for every lesson, graded by one `nbgrader autograde`: per lesson the solution, the
    untouched release and the mutant notebooks (`mutant_notebooks`), with each one's expected score.
    Each is whole: the grader runs only the cells a grade depends on (`autograder.judging.lean`)."""
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
    run = autograde(course, "*")
    feedback = nbgrader(course, "generate_feedback", "*", "--force")
    return SimpleNamespace(course=course, expected=expected, run=run, feedback=feedback)


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
