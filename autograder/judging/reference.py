"""Reference observations, computed by running the solution notebook through the same probes.

Nothing expected is written by hand: the solution in `solutions/` is executed and observed exactly
as a submission is, lean (`judging.lean`: its demo cells, unchanged from the release, do not run). Results are cached, keyed by everything they depend on.
"""
from __future__ import annotations

import hashlib
import json
import os
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

from autograder import COURSE_ROOT
from autograder.course import lessons, public_expected_path
from autograder.course.compare import round_floats
from autograder.course.hidden.drawn import drawn_path
from autograder.course.spec import Lesson
from autograder.judging.results import atomic_write

Observations = dict[str, list[dict]]


class SolutionError(RuntimeError):
    """The solution notebook could not produce a reference: the course itself is broken."""


def solution_path(lesson: Lesson) -> Path:
    """Where the lesson's solution notebook lives in the course checkout."""
    return COURSE_ROOT / "solutions" / lesson.assignment / lesson.notebook


def release_path(lesson: Lesson) -> Path:
    """Where the lesson's released (student) notebook lives in the course checkout."""
    return COURSE_ROOT / "notebooks" / lesson.assignment / lesson.notebook


def cache_dir() -> Path:
    """`$TFCOURSE_CACHE`, else `~/.cache/tfgraph-course`; instructor-side only."""
    return Path(os.environ.get("TFCOURSE_CACHE", Path.home() / ".cache" / "tfgraph-course"))


def _fingerprint(lesson: Lesson) -> str:
    digest = hashlib.sha256(solution_path(lesson).read_bytes())
    digest.update(release_path(lesson).read_bytes())  # the lean cut compares the solution with it
    digest.update(metadata.version("tensorflow").encode())
    drawn = drawn_path(lesson.assignment)
    digest.update(drawn.read_bytes() if drawn.exists() else b"")
    for module in (f"autograder.course.lessons.l{lesson.assignment}", f"autograder.course.hidden.l{lesson.assignment}",
                   f"autograder.inkernel.probes.l{lesson.assignment}", "autograder.inkernel.probe",
                   "autograder.inkernel.probing", "autograder.engine.kernel", "autograder.judging.lean",
                   "autograder.judging.reference", "autograder.judging.replaying", "autograder.engine.replay",
                   "autograder.engine.meta_graph", "autograder.course.history", "autograder.course.markers"):
        # The file, not the imported module: importing the kernel module costs the judge 2 s.
        digest.update(Path(find_spec(module).origin).read_bytes())
    return digest.hexdigest()[:20]


def _cached(lesson: Lesson) -> Path:
    return cache_dir() / f"{lesson.assignment}-{_fingerprint(lesson)}.json"


def reference_observations(lesson: Lesson) -> Observations:
    """Observations of the solution on every case, public then hidden, from cache or freshly made."""
    cached = _cached(lesson)
    if cached.exists():
        return json.loads(cached.read_text())
    observations, seconds = _compute(lesson)
    if _cached(lesson) == cached:  # else a file it depends on was edited meanwhile: cache nothing mixed
        atomic_write(cached.with_suffix(".seconds"), f"{seconds:.3f}\n")
        atomic_write(cached, json.dumps(observations))
    return observations


def reference_seconds(lesson: Lesson) -> float:
    """The kernel time the solution took on its cells and probes when its reference was made (what a
    right submission of this lesson costs to grade, here), or 0.0 when that is not known."""
    try:
        return float(_cached(lesson).with_suffix(".seconds").read_text())
    except (OSError, ValueError):
        return 0.0


# The reference kernel computes without oneDNN and each op on one thread (TensorFlow's intra-op
# pool, OpenMP), so `make release` writes the same expected values byte for byte. With oneDNN,
# lesson 5's differed in the 6th digit between releases (0.00278565 on the machine that made the
# committed file, 0.00278559 here under load, every time); without it they are 0.00278565 again,
# run after run beside busy processes. One thread per op also keeps a sum's order from following
# the number of cores. Ops still run side by side (a queue's blocking dequeue needs another thread
# to fill it). Submissions keep oneDNN and every thread: the checks' tolerance absorbs the last digits.
DETERMINISTIC_OPS = {"TF_ENABLE_ONEDNN_OPTS": "0", "TF_NUM_INTRAOP_THREADS": "1", "OMP_NUM_THREADS": "1"}


def _compute(lesson: Lesson) -> tuple[Observations, float]:
    # Imported here: `python -m autograder judge`, which every hidden-test cell starts, only reads
    # the cache, and nbformat with the engine would cost it over a second.
    import nbformat

    from autograder.engine.limits import Limits
    from autograder.engine.sandbox import bwrap_works
    from autograder.judging.lean import lesson_cut
    from autograder.judging.replaying import observe_notebook

    nb = lesson_cut(nbformat.read(solution_path(lesson), as_version=4), lesson, release_path(lesson)).notebook
    cases = lessons.all_cases(lesson)
    # The solution is trusted: where bubblewrap cannot run, it runs behind the nanny instead.
    limits = Limits(cell_timeout=120, notebook_timeout=900, sandbox=bwrap_works())
    execution = observe_notebook(nb, lesson, cases, limits, device_env=DETERMINISTIC_OPS)
    problems = list(execution.cell_errors)
    if execution.status != "graded":
        problems.append(execution.reason)
    for ex_id, ex_cases in cases.items():
        got = execution.observations.get(ex_id, [])
        problems += [f"{ex_id} / {c.label}: {o['error']}" for c, o in zip(ex_cases, got) if "error" in o]
        if len(got) != len(ex_cases):
            problems.append(f"{ex_id}: {len(got)} observations for {len(ex_cases)} cases")
    if problems:
        raise SolutionError(f"the solution of {lesson.assignment} did not run cleanly:\n  "
                              + "\n  ".join(problems))
    return execution.observations, execution.kernel_s


def public_part(lesson: Lesson, observations: Observations) -> Observations:
    """Only the observations of public cases: what may ship to students."""
    return {e.id: observations[e.id][:len(e.cases)] for e in lesson.exercises}


PUBLISHED_DIGITS = 6


def publish(lesson: Lesson) -> Path:
    """Write the public expected observations that the students' check cells compare against.

    Floats are published at `PUBLISHED_DIGITS` significant digits: another machine's last-digit
    noise then rewrites nothing, and the checks compare within `compare.RTOL`, far above the rounding.
    """
    path = public_expected_path(lesson.assignment)
    public = round_floats(public_part(lesson, reference_observations(lesson)), PUBLISHED_DIGITS)
    path.write_text(json.dumps(public, indent=1, sort_keys=True) + "\n")
    return path
