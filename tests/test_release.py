"""notebooks/ and the public expected values are exactly what `make release` makes from solutions/."""
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from autograder import COURSE_ROOT
from autograder.course import lessons, public_expected_path
from autograder.course.compare import values_match
from autograder.judging.reference import public_part, reference_observations, solution_path
from tests.conftest import ASSIGNMENTS, scratch_course

NBGRADER = str(Path(sys.executable).with_name("nbgrader"))


def committed_notebooks():
    out = subprocess.run(["git", "ls-files", "*.ipynb"], cwd=COURSE_ROOT, capture_output=True, text=True)
    return [COURSE_ROOT / p for p in out.stdout.split()]


def generate(course: Path) -> Path:
    """Run `nbgrader generate_assignment` on every lesson of `course`; return its notebooks/ folder."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run([NBGRADER, "generate_assignment", "*", "--force", "--log-level=ERROR"],
                   cwd=course, env=env, check=True, capture_output=True)
    return course / "notebooks"


@pytest.fixture(scope="module")
def fresh_release(tmp_path_factory) -> Path:
    return generate(scratch_course(tmp_path_factory.mktemp("release")))


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_matches_a_fresh_generate_assignment(fresh_release, assignment):
    notebook = lessons.load(assignment).notebook
    fresh = (fresh_release / assignment / notebook).read_text()
    committed = (COURSE_ROOT / "notebooks" / assignment / notebook).read_text()
    assert fresh == committed, f"notebooks/{assignment} drifted from solutions/: run `make release`"


def test_release_is_deterministic(fresh_release, tmp_path):
    """A second run, in another folder, writes the same bytes."""
    again = generate(scratch_course(tmp_path))
    for assignment in lessons.assignments():
        notebook = Path(assignment) / lessons.load(assignment).notebook
        assert (again / notebook).read_bytes() == (fresh_release / notebook).read_bytes(), assignment


def test_committed_notebooks_carry_no_outputs():
    notebooks = committed_notebooks()
    assert notebooks, "git knows no notebooks"
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        dirty = [i for i, c in enumerate(nb.cells)
                 if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
        assert not dirty, f"{path.relative_to(COURSE_ROOT)}: cells {dirty} carry outputs"


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_public_expected_values_match_the_solution(assignment):
    lesson = lessons.load(assignment)
    shipped = json.loads(public_expected_path(assignment).read_text())
    fresh = public_part(lesson, reference_observations(lesson))
    assert shipped.keys() == fresh.keys()
    for ex_id, observations in fresh.items():
        assert values_match(shipped[ex_id], observations), f"{assignment}/{ex_id}: run `make release`"


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_release_holds_no_solution_or_hidden_test(assignment):
    text = (COURSE_ROOT / "notebooks" / assignment / lessons.load(assignment).notebook).read_text()
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", ".hidden("):
        assert marker not in text


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_notebook_cells_agree_with_the_lesson(assignment):
    """Each exercise has one solution cell and one check cell worth the lesson's points, and nothing else is graded."""
    lesson = lessons.load(assignment)
    cells = {c.metadata["nbgrader"]["grade_id"]: c
             for c in nbformat.read(solution_path(lesson), as_version=4).cells if "nbgrader" in c.metadata}
    graded = {gid: c.metadata["nbgrader"].get("points") for gid, c in cells.items() if c.metadata["nbgrader"]["grade"]}
    assert graded == {f"check_{e.id}": e.points for e in lesson.exercises}, "points differ between notebook and lesson"
    for exercise in lesson.exercises:
        assert f"{exercise.id}_solution" in cells, f"no solution cell for {exercise.id}"
        source = cells[f"check_{exercise.id}"].source
        assert f'check("{exercise.id}")' in source and f'check.hidden("{exercise.id}")' in source
        # A failing check raises (nbgrader's record of a failed test); the tag lets Run All go on.
        assert "raises-exception" in cells[f"check_{exercise.id}"].metadata.get("tags", [])
