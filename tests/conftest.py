"""Shared fixtures: one batch grades every lesson's solution, release and mutants, once per session."""
from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from pathlib import Path
from typing import Iterator

import nbformat
import pytest

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.engine.sandbox import bwrap_works
from autograder.judging import reference
from autograder.judging.reference import solution_path
from tests.alternatives import alternatives_of
from tests.mutants import mutants_of
from tests.swaps import one_per_cell, swap_cells

# TFCOURSE_TEST_LESSONS="02_rebuild_vs_feed 07_learning_rate_decay" narrows the graded lessons while
# working on them; `make test` grades every lesson.
ASSIGNMENTS = os.environ.get("TFCOURSE_TEST_LESSONS", "").split() or lessons.assignments()
# The swaps each graded notebook holds, keyed by (student, assignment): at most one per exercise.
MUTANT_GROUPS = {(f"mutants-{k}", a): group for a in ASSIGNMENTS
                 for k, group in enumerate(one_per_cell(mutants_of(a)), 1)}
ALTERNATIVE_GROUPS = {(f"alternatives-{k}", a): group for a in ASSIGNMENTS
                      for k, group in enumerate(one_per_cell(alternatives_of(a)), 1)}
# (assignment, the student whose notebook holds it, the swap)
MUTANTS = [(a, student, m) for (student, a), group in MUTANT_GROUPS.items() for m in group]
ALTERNATIVES = [(a, student, alt) for (student, a), group in ALTERNATIVE_GROUPS.items() for alt in group]

# Grading refuses to run without a sandbox unless told. Where bubblewrap cannot build one, the tests
# choose the fallback deliberately (and the tests that need the sandbox itself skip, saying why).
SANDBOX = bwrap_works()
LIMITS = Limits(sandbox=SANDBOX)
GRADE_FLAGS = () if SANDBOX else ("--no-sandbox",)
NO_SANDBOX_REASON = "bubblewrap cannot build a sandbox here (install the Debian package `bubblewrap`)"
needs_sandbox = pytest.mark.skipif(not SANDBOX, reason=NO_SANDBOX_REASON)


# The test files that take longest, longest first. `make test` hands whole files to its workers in
# collection order (`--no-loadscope-reorder`): long files first, so that no worker is left alone
# with one at the end. A file not listed comes after these; a stale list costs time, never a result.
SLOWEST_FILES = ("test_grading.py", "test_nbgrader.py", "test_quiet.py", "test_isolation.py", "test_hostile.py", "test_forgery.py",
                 "test_tensorboard_browser.py", "test_student_browser.py", "test_resume.py", "test_cli.py",
                 "test_cluster.py", "test_release.py", "test_forkserver.py")


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(SLOWEST_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_sessionstart(session):
    """Under pytest-xdist, fill the reference cache once, two lessons at a time, before the workers
    start: otherwise each worker computes the references its tests need, often the same ones side
    by side (a fresh clone's cache is empty)."""
    config = session.config
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("dsession"):
        return
    from concurrent.futures import ThreadPoolExecutor

    from autograder.judging.reference import reference_observations

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda a: reference_observations(lessons.load(a)), ASSIGNMENTS))


@contextlib.contextmanager
def without_screen() -> Iterator[None]:
    """Grade without the static screen (`grading.Screen`): for the suites that attack the sandbox and
    the run-time checks, whose attacks the screen would otherwise stop before they ever ran."""
    from autograder.judging import grading

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grading, "PIPELINE", tuple(s for s in grading.PIPELINE if not isinstance(s, grading.Screen)))
        yield


@contextlib.contextmanager
def without_audit_hook() -> Iterator[None]:
    """Grade without the run-time audit hook (`inkernel.audit`) in the grader's first cell: for the
    witnesses that show an attack the hook stops would otherwise earn its points."""
    from autograder.engine import kernel

    with pytest.MonkeyPatch.context() as patch:
        original = kernel.first_cell_source
        patch.setattr(kernel, "first_cell_source", lambda *args: original(*args).rsplit("\n", 1)[0])
        yield


def release_path(assignment: str) -> Path:
    """The committed student version of an assignment's notebook."""
    return reference.release_path(lessons.load(assignment))


def _lay_out(root: Path, student: str, assignment: str, nb: nbformat.NotebookNode) -> None:
    folder = root / student / assignment
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / lessons.load(assignment).notebook)


def lay_out_class(root: Path) -> Path:
    """Students `solution`, `release`, `mutants-<k>` and `alternatives-<k>` (the k-th group of a
    lesson's mutants or alternatives, swapped into its whole solution notebook), under `root`."""
    solutions = {a: nbformat.read(solution_path(lessons.load(a)), as_version=4) for a in ASSIGNMENTS}
    for assignment, solution in solutions.items():
        _lay_out(root, "solution", assignment, solution)
        _lay_out(root, "release", assignment, nbformat.read(release_path(assignment), as_version=4))
    for (student, assignment), group in {**MUTANT_GROUPS, **ALTERNATIVE_GROUPS}.items():
        _lay_out(root, student, assignment, swap_cells(solutions[assignment], group))
    return root


def _grade_class(tmp_path_factory, limits: Limits) -> dict[tuple[str, str], dict]:
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    root = lay_out_class(tmp_path_factory.mktemp("class") / "submitted")
    records = grade_all(discover([root]), root.parent / "results", jobs=2, limits=limits)
    return {(r["student"], r["assignment"]): r for r in records}


@pytest.fixture(scope="session")
def graded(tmp_path_factory) -> dict[tuple[str, str], dict]:
    """Result records of `lay_out_class`'s class, keyed by (student, assignment), graded as by
    default: only the cells each grade depends on run (`autograder.judging.lean`)."""
    return _grade_class(tmp_path_factory, LIMITS)


@pytest.fixture(scope="session")
def graded_whole(tmp_path_factory) -> dict[tuple[str, str], dict]:
    """The same class graded with every cell run (`--run-all`)."""
    return _grade_class(tmp_path_factory, dataclasses.replace(LIMITS, run_all=True))


def scratch_course(root: Path) -> Path:
    """A scratch course root in `root`: the config, and solutions/ linked from this checkout."""
    shutil.copy(COURSE_ROOT / "nbgrader_config.py", root)
    (root / "solutions").symlink_to(COURSE_ROOT / "solutions")
    return root


def gradable(course: Path) -> Path:
    """`course` made able to grade here: without bubblewrap, deliberately unsandboxed."""
    if not SANDBOX:
        with open(course / "nbgrader_config.py", "a") as config:
            config.write("\nc.Engine.sandbox = False\n")
    return course


@pytest.fixture
def course(tmp_path) -> Path:
    """A scratch course with the course's config; without bubblewrap, deliberately unsandboxed."""
    return gradable(scratch_course(tmp_path))


def make_socket(path: Path) -> None:
    """A Unix socket file at `path`, however long (a socket's address may hold only 108 bytes):
    bound in a short folder, then moved."""
    import socket
    import tempfile

    with tempfile.TemporaryDirectory(dir="/tmp") as short, socket.socket(socket.AF_UNIX) as s:
        s.bind(f"{short}/s")
        os.rename(f"{short}/s", path)
