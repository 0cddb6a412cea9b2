"""`nbgrader autograde` through the course's engine: sandboxed, judged outside the kernel, warm.

`nbgrader_config.py` puts two steps of this module in place of nbgrader's own:

- `GradeInSandbox` replaces `Execute`. It grades the (sanitized) submission exactly as the batch
  grader does: a fresh kernel in the bubblewrap sandbox, forked from a warm zygote that lives as
  long as the nbgrader process; the exercises observed on their public and hidden cases; the
  observations judged here, against references computed from `solutions/`. The student's kernel
  never runs a check cell. This step then writes each check cell's outputs itself: the exercise's
  report and, when the exercise failed, an error. nbgrader's `SaveAutoGrades` turns that into the
  batch grader's points (full points for a test cell without an error output, else 0).
- `RestoreHiddenTests` replaces `OverwriteCells`, minus a false alarm: nbgrader stores a check
  cell's checksum *with* its hidden tests, but releases it without them, so stock `OverwriteCells`
  warns "Attribute 'checksum' ... has changed!" for every check cell of an untouched submission
  (jupyter/nbgrader#1961). This step compares a submitted cell with the cell as it was released;
  a cell the student did change still gets nbgrader's warning, and is restored either way.
"""
from __future__ import annotations

import atexit
import copy
import sys
import threading
import time
from pathlib import Path

from nbconvert.exporters.exporter import ResourcesDict
from nbformat import NotebookNode
from nbformat.v4 import new_output
from nbgrader import utils
from nbgrader.api import MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor, OverwriteCells

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.course.spec import Lesson
from autograder.engine.devices import DeviceSlots
from autograder.engine.forkserver import Zygotes
from autograder.engine.kernel import is_check_cell
from autograder.engine.leftovers import remove_leftovers, say_removed
from autograder.engine.sandbox import require_sandbox, warn_unsandboxed
from autograder.frontends.gradebook import check_cell
from autograder.frontends.settings import Engine
from autograder.judging.feedback import sectioned_html, sectioned_text
from autograder.judging.grading import Execute, Grading, Judge, Lean, Screen, result_record
from autograder.judging.judge import ExerciseResult, judge_exercise
from autograder.judging.reference import Observations, cache_dir, reference_observations
from autograder.judging.submissions import Submission

# One pool of warm zygotes per set of hidden paths, for the life of the nbgrader process.
_POOLS: dict[tuple[tuple[Path, ...], bool], Zygotes] = {}
_REFERENCES: dict[str, Observations] = {}
_LOCK = threading.Lock()


def _pool(hidden: tuple[Path, ...], sandbox: bool) -> Zygotes:
    with _LOCK:
        key = (hidden, sandbox)
        if key not in _POOLS:
            if not _POOLS:
                atexit.register(close_pools)
                say_removed(remove_leftovers())
            _POOLS[key] = Zygotes(hidden, enabled=sandbox)
        return _POOLS[key]


def close_pools() -> None:
    """Stop every warm zygote this process started (run at exit)."""
    with _LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close()


def _reference(lesson: Lesson) -> Observations:
    if lesson.assignment not in _REFERENCES:
        _REFERENCES[lesson.assignment] = reference_observations(lesson)
    return _REFERENCES[lesson.assignment]


def hidden_paths(root: Path) -> tuple[Path, ...]:
    """What a graded kernel must not see: the nbgrader course (gradebook, submissions, autograded
    notebooks, feedback, source) and the reference cache. The course checkout is hidden anyway."""
    root, venv = root.resolve(), Path(sys.prefix).resolve()
    if root == COURSE_ROOT:
        course = []  # the sandbox hides it always, and shows the venv and the public package again
    elif root in venv.parents:
        # The venv lives inside this course root: hide its folders, not the venv the kernel runs on.
        course = [p for p in root.iterdir() if p.is_dir() and p.resolve() != venv and p.resolve() not in venv.parents]
    else:
        course = [root]
    return tuple(sorted({*course, cache_dir().resolve()}))


class GradeInSandbox(NbGraderPreprocessor):
    """nbgrader's `Execute`, replaced by the course's engine (see the module docstring).

    Its settings are the `Engine` configurable's (`c.Engine.cell_timeout = ...`), the same ones
    `python -m autograder grade` uses.
    """

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        started = time.monotonic()
        limits = Engine(parent=self).limits()
        require_sandbox() if limits.sandbox else warn_unsandboxed()
        info = resources["nbgrader"]
        lesson = lessons.load(info["assignment"])
        hidden = hidden_paths(Path(CourseDirectory(parent=self).root))
        submission = Submission(info["student"], lesson.assignment, Path(f"{info['notebook']}.ipynb"))
        with DeviceSlots(1).slot() as device_env, _pool(hidden, limits.sandbox).lease(device_env) as zygote:
            g = Grading(submission, lesson, _reference(lesson), limits, hidden, device_env, zygote,
                        notebook=copy.deepcopy(nb))
            for step in (Screen(), Lean(), Execute()):
                if g.status == "graded":
                    step.run(g)
        Judge().run(g)
        record = result_record(g, time.monotonic() - started)
        self.log.info("%s/%s: %s/%s, %s in %.1f s%s%s", record["student"], record["assignment"], record["score"],
                      record["max_score"], record["status"], record["duration_s"],
                      f" ({record['reason']})" if record["reason"] else "",
                      f"; {record['not_run']}" if record["not_run"] else "")
        write_check_outputs(nb, lesson, g)
        return nb, resources


def write_check_outputs(nb: NotebookNode, lesson: Lesson, g: Grading) -> None:
    """Give each check cell the exercise's report and, if it failed, an error output; clear the rest."""
    results = {r.id: r for r in g.results}
    by_cell = {check_cell(e.id): e.id for e in lesson.exercises}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        if not is_check_cell(cell):
            continue
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        exercise_id = by_cell.get(grade_id)
        if exercise_id is None:
            cell.outputs = [_error(f"the grader knows no exercise for the test cell {grade_id!r}")]
            continue
        result = results[exercise_id]
        sections = report_sections(lesson, g, result)
        cell.outputs = [new_output("display_data", data={"text/plain": sectioned_text(result, sections),
                                                         "text/html": sectioned_html(result, sections)})]
        if not result.passed:
            failed = ", ".join(result.failed_checks)
            cell.outputs.append(_error(f"{result.id} is not right yet ({failed}): see the report above."))


def report_sections(lesson: Lesson, g: Grading, result: ExerciseResult) -> list[tuple[str, list]]:
    """The exercise's outcomes on its public cases and on its hidden ones, judged apart for the report
    (the score is `result`'s, judged on all cases at once, as the batch grader does)."""
    exercise = lesson.exercise(result.id)
    observed = g.execution.observations.get(exercise.id) if g.execution else None
    if observed is None:  # not observed at all: the reason says it for every case
        return [("public and hidden checks", result.outcomes)]
    cases = lessons.all_cases(lesson)[exercise.id]
    public = len(exercise.cases)
    expected = g.reference[exercise.id]
    sections = [("public checks", judge_exercise(exercise, cases[:public], observed[:public],
                                                  expected[:public]).outcomes)]
    if len(cases) > public:
        sections.append(("hidden checks", judge_exercise(exercise, cases[public:], observed[public:],
                                                         expected[public:]).outcomes))
    return sections


def _error(message: str) -> NotebookNode:
    return new_output("error", ename="CheckFailed", evalue=message, traceback=[f"CheckFailed: {message}"])


class RestoreHiddenTests(OverwriteCells):
    """nbgrader's `OverwriteCells`, comparing each locked cell with its released form (see the module
    docstring): an untouched check cell gets its hidden tests back without a tampering warning."""

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict,
                        cell_index: int) -> tuple[NotebookNode, ResourcesDict]:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None and utils.is_locked(cell):
            try:
                source = self.gradebook.find_source_cell(grade_id, self.notebook_id, self.assignment_id)
            except MissingEntry:
                source = None  # the parent class says so
            if source is not None and source.locked and cell.source == released_source(source.source):
                # Exactly as released: put back the hidden tests the release stripped, so the checksum
                # nbgrader stored (computed with them) is compared with the cell it was computed on.
                cell.source = source.source
        return super().preprocess_cell(cell, resources, cell_index)


def released_source(source: str) -> str:
    """A cell's source as `nbgrader generate_assignment` releases it: without its hidden tests."""
    cell = NotebookNode({"cell_type": "code", "source": source, "metadata": {}})
    ClearHiddenTests()._remove_hidden_test_region(cell)
    return cell.source
