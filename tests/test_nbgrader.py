"""nbgrader's own path: generate_assignment, then autograde, with the same tests behind hidden cells."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import lessons
from autograder.reference import solution_path
from tests.conftest import ASSIGNMENTS, GRADE_FLAGS, release_path

BIN = Path(sys.executable).parent


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run([str(BIN / "nbgrader"), *args], cwd=course, env=env, capture_output=True, text=True)


def submit(course: Path, student: str, assignment: str, notebook: Path) -> None:
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True)
    shutil.copy(notebook, folder / notebook.name)


def scores(course: Path, assignment: str) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        return {s.student.id: s.score for s in gradebook.assignment_submissions(assignment)}


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_nbgrader_autograde_agrees_and_feeds_back(copy_of_course, assignment):
    lesson = lessons.load(assignment)
    assert nbgrader(copy_of_course, "generate_assignment", assignment, "--force").returncode == 0
    submit(copy_of_course, "solved", assignment, solution_path(lesson))
    submit(copy_of_course, "untouched", assignment, release_path(assignment))
    run = nbgrader(copy_of_course, "autograde", assignment, "--force")
    assert run.returncode == 0, run.stderr[-3000:]
    got = scores(copy_of_course, assignment)
    assert got == {"solved": lesson.max_score, "untouched": 0}, run.stderr[-3000:]
    feedback = nbgrader(copy_of_course, "generate_feedback", assignment, "--force")
    assert feedback.returncode == 0, feedback.stderr[-3000:]
    page = copy_of_course / "feedback" / "untouched" / assignment / Path(lesson.notebook).with_suffix(".html")
    assert "not-implemented" in page.read_text(), "the feedback page lacks the check cells' reports"


@pytest.mark.slow
def test_batch_scores_land_in_the_gradebook(copy_of_course):
    assignment = ASSIGNMENTS[0]
    lesson = lessons.load(assignment)
    assert nbgrader(copy_of_course, "generate_assignment", assignment, "--force").returncode == 0
    submit(copy_of_course, "solved", assignment, solution_path(lesson))
    submit(copy_of_course, "untouched", assignment, release_path(assignment))
    out = copy_of_course / "results"
    run = lambda *args: subprocess.run([sys.executable, "-m", "autograder", *args], cwd=copy_of_course,
                                       capture_output=True, text=True)
    assert run("grade", *GRADE_FLAGS, "submitted", "--out", str(out)).returncode == 0
    stored = run("gradebook", str(out), "--db", "gradebook.db")
    assert stored.returncode == 0, stored.stderr
    assert scores(copy_of_course, assignment) == {"solved": lesson.max_score, "untouched": 0}
