"""Shared fixtures: one batch grades every lesson's solution, release and mutants, once per session."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import nbformat
import pytest

from autograder import COURSE_ROOT, lessons
from autograder.limits import Limits
from autograder.reference import solution_path
from autograder.sandbox import bwrap_works
from tests.alternatives import groups_of
from tests.mutants import mutants_of
from tests.mutation.lean import lean_notebook
from tests.swaps import swap_cells

# TFCOURSE_TEST_LESSONS="02_rebuild_vs_feed 07_learning_rate_decay" narrows the graded lessons while
# working on them; `make test` grades every lesson.
ASSIGNMENTS = os.environ.get("TFCOURSE_TEST_LESSONS", "").split() or lessons.assignments()
MUTANTS = [(a, m) for a in ASSIGNMENTS for m in mutants_of(a)]
# (assignment, the student whose notebook holds it, alternative)
ALTERNATIVES = [(a, f"alternatives-{k}", alt) for a in ASSIGNMENTS
                for k, group in enumerate(groups_of(a), 1) for alt in group]

# Grading refuses to run without a sandbox unless told. Where bubblewrap cannot build one, the tests
# choose the fallback deliberately (and the tests that need the sandbox itself skip, saying why).
SANDBOX = bwrap_works()
LIMITS = Limits(sandbox=SANDBOX)
GRADE_FLAGS = () if SANDBOX else ("--no-sandbox",)
NO_SANDBOX_REASON = "bubblewrap cannot build a sandbox here (install the Debian package `bubblewrap`)"
needs_sandbox = pytest.mark.skipif(not SANDBOX, reason=NO_SANDBOX_REASON)


def release_path(assignment: str) -> Path:
    """The committed student version of an assignment's notebook."""
    return COURSE_ROOT / "notebooks" / assignment / lessons.load(assignment).notebook


def _lay_out(root: Path, student: str, assignment: str, nb: nbformat.NotebookNode) -> None:
    folder = root / student / assignment
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / lessons.load(assignment).notebook)


@pytest.fixture(scope="session")
def graded(tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Result records keyed by (student, assignment): students `solution`, `release`, `mutant-<name>`
    and `alternatives-<k>` (the k-th group of a lesson's alternatives).

    Solutions and releases are graded whole. Mutants and alternatives are graded lean (every
    exercise, none of the demos: `tests.mutation.lean`), which is what keeps the suite fast;
    `lean-solution`, the solution cut the same way, must keep full marks for that to be sound."""
    from autograder.batch import grade_all
    from autograder.submissions import discover

    root = tmp_path_factory.mktemp("class") / "submitted"
    for assignment in ASSIGNMENTS:
        solution = nbformat.read(solution_path(lessons.load(assignment)), as_version=4)
        _lay_out(root, "solution", assignment, solution)
        _lay_out(root, "release", assignment, nbformat.read(release_path(assignment), as_version=4))
        _lay_out(root, "lean-solution", assignment, lean_notebook(solution))
        for mutant in mutants_of(assignment):
            _lay_out(root, f"mutant-{mutant.name}", assignment, lean_notebook(mutant.apply(solution)))
        for k, group in enumerate(groups_of(assignment), 1):
            _lay_out(root, f"alternatives-{k}", assignment, lean_notebook(swap_cells(solution, group)))
    out = root.parent / "results"
    records = grade_all(discover([root]), out, jobs=2, limits=LIMITS)
    return {(r["student"], r["assignment"]): r for r in records}


@pytest.fixture
def copy_of_course(tmp_path) -> Path:
    """A scratch course root: the config, and solutions/ linked from this checkout."""
    shutil.copy(COURSE_ROOT / "nbgrader_config.py", tmp_path)
    (tmp_path / "solutions").symlink_to(COURSE_ROOT / "solutions")
    return tmp_path


@pytest.fixture
def course(copy_of_course) -> Path:
    """A scratch course with the course's config; without bubblewrap, deliberately unsandboxed."""
    if not SANDBOX:
        with open(copy_of_course / "nbgrader_config.py", "a") as config:
            config.write("\nc.Engine.sandbox = False\n")
    return copy_of_course
