"""Grade one submission: a pipeline of small steps, each of which may end the grading with a reason.

Modelled on nbgrader's preprocessors. Whatever happens, the result lists every exercise of the
lesson, so a class CSV is never missing a column or a student.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from autograder.course import lessons
from autograder.course.spec import Lesson
from autograder.engine.forkserver import Zygote
from autograder.engine.kernel import CELL_TIMEOUT_NAME, Execution, released_sources
from autograder.engine.limits import Limits
from autograder.judging import screening
from autograder.judging.feedback import exercise_json
from autograder.judging.judge import ExerciseResult, failed_exercise, judge_exercise
from autograder.judging.lean import lesson_cut
from autograder.judging.reference import Observations, release_path
from autograder.judging.replaying import observe_notebook
from autograder.judging.screening import Finding
from autograder.judging.submissions import NotPlain, Submission, found_in, other_notebooks, plain_notebook_bytes


@dataclass
class Grading:
    """The state one submission carries through the pipeline."""

    submission: Submission
    lesson: Lesson
    reference: Observations
    limits: Limits
    hidden: tuple[Path, ...] = ()
    device_env: dict[str, str] = field(default_factory=dict)
    zygote: Zygote | None = None
    status: str = "graded"
    reason: str = ""
    notebook: Any = None
    sha256: str = ""  # of the notebook's bytes as read: a rerun regrades only what changed
    not_run: str = ""  # which cells were not run, and why (one line)
    execution: Execution | None = None
    results: list[ExerciseResult] = field(default_factory=list)
    flags: list[Finding] = field(default_factory=list)  # what `Screen` saw


class Step:
    """One grading step. Steps after an `invalid` or `tampered` verdict are skipped unless `always` is set."""

    always = False

    def run(self, g: Grading) -> None:
        raise NotImplementedError


class ReadNotebook(Step):
    """Read the notebook as a plain file (no symlinks below the submissions folder), then parse and
    validate it. A missing, linked or broken notebook is `invalid`, with a reason that names what
    was found; a notebook handed in under another name is graded, and the reason says so."""

    def run(self, g: Grading) -> None:
        path, expected = g.submission.path, g.lesson.notebook
        try:
            data = plain_notebook_bytes(g.submission)
        except NotPlain as exc:
            g.status, g.reason = "invalid", f"not graded: {exc}"
            return
        except OSError:
            g.status, g.reason = "invalid", (f"no notebook named {expected} in {g.submission.assignment}/: "
                                             f"found {found_in(path.parent)}")
            return
        g.sha256 = notebook_hash(data)
        notes = [f"graded {path.name} as {expected} (handed in under another name)"] if path.name != expected else []
        if path.name == expected and (others := other_notebooks(path)):
            notes.append(f"also found {', '.join(others)}: not graded, {expected} is")
        try:
            original = nbformat.reads(data.decode("utf-8"), as_version=nbformat.NO_CONVERT)
            version = original.nbformat  # read first: convert() upgrades in place
            g.notebook = nbformat.convert(original, 4)
            nbformat.validate(g.notebook)
        except Exception as exc:  # nbformat raises many kinds: JSON, schema, encoding
            g.status, g.reason = "invalid", "; ".join(
                [*notes, f"not a readable notebook: {type(exc).__name__}: {str(exc)[:300]}"])
            return
        if version < 4:
            notes.append(f"converted from nbformat {version} to 4 before grading")
        g.reason = "; ".join(notes)


def notebook_hash(data: bytes) -> str:
    """The hash a result records of the notebook it graded (`notebook_sha256`)."""
    return hashlib.sha256(data).hexdigest()


class Screen(Step):
    """Read the code the student wrote or changed before any of it runs (`screening`): one of the few
    constructs with no honest use in the course (`screening.ZEROING`) makes the submission `tampered`,
    and it is never run; anything else the screen notices is only listed in `flags`."""

    def run(self, g: Grading) -> None:
        g.flags = screening.screen(g.notebook, released_sources(g.lesson.assignment))
        reason = screening.verdict(g.flags)
        if reason:
            g.status, g.reason = "tampered", "; ".join(r for r in (g.reason, reason) if r)


class Lean(Step):
    """Cut the notebook down to the cells its grade depends on (`judging.lean`), unless the limits
    say to run every cell."""

    def run(self, g: Grading) -> None:
        if not g.limits.run_all:
            cut = lesson_cut(g.notebook, g.lesson, release_path(g.lesson))
            g.notebook, g.not_run = cut.notebook, cut.note()


class Execute(Step):
    """Run the notebook and its probes in a fresh kernel in a scratch directory, then re-run outside
    it the artifacts of the exercises that keep inputs from the kernel (`replaying`)."""

    def run(self, g: Grading) -> None:
        cases = lessons.all_cases(g.lesson)
        g.execution = observe_notebook(g.notebook, g.lesson, cases, g.limits, g.hidden, g.device_env, g.zygote)
        g.status = g.execution.status
        g.reason = "; ".join(r for r in (g.reason, g.execution.reason) if r)
        if g.execution.tampered:  # the grader's own words (see `kernel.Execution.tampered`)
            g.status = "tampered"
            g.reason = "the submission tampered with the grader's tools: " + "; ".join(g.execution.tampered)


class Judge(Step):
    """Compare each exercise's observations with the reference, in this process."""

    always = True

    def run(self, g: Grading) -> None:
        cases = lessons.all_cases(g.lesson)
        observed = g.execution.observations if g.execution else {}
        if g.status == "tampered":
            g.results = [failed_exercise(e, "tampered", "leaves the grader's tools alone", TAMPERED)
                         for e in g.lesson.exercises]
            return
        g.results = [
            judge_exercise(e, cases[e.id], observed[e.id], g.reference[e.id]) if e.id in observed
            else failed_exercise(e, "not-observed", "was observed", _unobserved_reason(g, e.id))
            for e in g.lesson.exercises]


def _unobserved_reason(g: Grading, exercise_id: str) -> str:
    if g.status != "graded":
        return g.reason
    prefix = f"probe of {exercise_id}: "
    errors = [e[len(prefix):] for e in (g.execution.cell_errors if g.execution else []) if e.startswith(prefix)]
    if errors and errors[0].startswith((CELL_TIMEOUT_NAME, "KeyboardInterrupt")):
        return "Calling this exercise ran over the time limit of a cell: look for a loop that never ends."
    return "The grader got no observation of this exercise" + (f": {errors[0]}" if errors else ".")


TAMPERED = ("Your notebook reaches for the machinery the grader uses to watch your code (frames, hooks, "
            "patched functions of TensorFlow, NumPy, IPython or the course's checker), so nothing it saw can "
            "be trusted. Remove that code; the result's reason names what was found.")

PIPELINE = (ReadNotebook(), Screen(), Lean(), Execute(), Judge())


def grade(submission: Submission, lesson: Lesson, reference: Observations, limits: Limits,
          hidden: tuple[Path, ...] = (), device_env: dict[str, str] | None = None,
          zygote: Zygote | None = None) -> dict[str, Any]:
    """Grade one submission and return its result record (the contract's JSON).

    `hidden` lists paths the submission's kernel must not see (results, other submissions);
    `device_env` pins its device; a `zygote` forks its kernel warm (see `forkserver`).
    """
    started = time.monotonic()
    g = Grading(submission, lesson, reference, limits, hidden, dict(device_env or {}), zygote)
    for step in PIPELINE:
        if g.status not in ("invalid", "tampered") or step.always:
            step.run(g)
    return result_record(g, time.monotonic() - started)


def observation_digests(observations: dict[str, list[Any]]) -> dict[str, list[str]]:
    """Per exercise, a short hash of each case's observation (floats to 6 significant digits, so the
    last digits a machine varies in do not count): the class report compares students' wrong
    answers by it without the instructor's files holding a hidden case's value."""
    def rounded(value: Any) -> Any:
        if isinstance(value, float):
            return float(f"{value:.6g}")
        if isinstance(value, dict):
            return {str(k): rounded(v) for k, v in value.items()}
        return [rounded(v) for v in value] if isinstance(value, (list, tuple)) else value
    return {exercise: [hashlib.sha256(json.dumps(rounded(o), sort_keys=True, default=repr).encode()).hexdigest()[:12]
                       for o in cases] for exercise, cases in observations.items()}


def result_record(g: Grading, duration: float) -> dict[str, Any]:
    """The result JSON of DESIGN.md's contract, plus `reason`, `not_run`, `cell_errors`, `flags`
    and `observed` (`observation_digests`)."""
    return {
        "student": g.submission.student, "assignment": g.submission.assignment,
        "notebook": g.submission.path.name, "notebook_sha256": g.sha256,
        "score": sum(r.points for r in g.results), "max_score": g.lesson.max_score,
        "device": g.execution.device if g.execution else "none",
        "duration_s": round(duration, 2), "status": g.status, "reason": g.reason, "not_run": g.not_run,
        "cell_errors": g.execution.cell_errors if g.execution else [],
        "flags": [f.json() for f in g.flags],
        "observed": observation_digests(g.execution.observations if g.execution else {}),
        "exercises": [exercise_json(r) for r in g.results],
    }
