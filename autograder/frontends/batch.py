"""Grade many submissions in parallel; every one ends as a result record, whatever it does.

Results are written one by one, atomically, as they finish: a batch killed half-way keeps every
finished result, and a rerun skips those whose notebook is unchanged since (each result records
the notebook's hash), so nothing is lost or graded twice, and a resubmission is graded again.

Where the kernels run is a runner's business: `threads(jobs)` here (the default), or
`cluster.ClusterRunner` on a Dask cluster. A runner turns submissions into futures of result
records; preparing the batch, writing results, the progress bar and the class CSV are shared.
"""
from __future__ import annotations

import contextlib
import functools
import json
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterator, Sequence

from autograder.course import lessons
from autograder.course.spec import Lesson
from autograder.engine.devices import DeviceSlots
from autograder.engine.forkserver import Zygotes
from autograder.engine.leftovers import remove_leftovers, say_removed
from autograder.engine.limits import Limits
from autograder.engine.sandbox import require_sandbox, warn_unsandboxed
from autograder.engine.untrusted import one_line
from autograder.judging.grading import Grading, Judge, grade, notebook_hash, result_record
from autograder.judging.reference import Observations, cache_dir, reference_observations, reference_seconds
from autograder.judging.results import read_results, result_path, results_lock, write_class_csv, write_result
from autograder.judging.submissions import NotPlain, Submission, plain_notebook_bytes

BAR_WIDTH = 24


@dataclass(frozen=True)
class Batch:
    """What grading any submission of a run needs, prepared once, here: lessons, references
    (computed on this machine, never in a student's kernel), limits, and the paths kernels must not see."""

    lesson_of: dict[str, Lesson]
    reference_of: dict[str, Observations]
    limits: Limits
    hidden: tuple[Path, ...]


Submit = Callable[[Submission], "Future[dict[str, Any]]"]
"""Start grading one submission; the future holds its result record."""
Runner = Callable[[Batch], ContextManager[Submit]]
"""Opens a way to submit gradings for one batch, and closes it (waiting or cancelling) on exit."""


def threads(jobs: int) -> Runner:
    """Grade on this machine, `jobs` kernels at once, each holding a device slot while it runs, and
    each forked from a warm zygote where that is safe (`forkserver`)."""

    @contextlib.contextmanager
    def run(batch: Batch) -> Iterator[Submit]:
        slots = DeviceSlots(jobs)
        zygotes = Zygotes(batch.hidden, enabled=batch.limits.sandbox)

        def grade_on_a_slot(s: Submission) -> dict[str, Any]:
            with slots.slot() as device_env, zygotes.lease(device_env) as zygote:
                return grade(s, batch.lesson_of[s.assignment], batch.reference_of[s.assignment], batch.limits,
                             batch.hidden, device_env, zygote)

        try:
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                yield functools.partial(pool.submit, grade_on_a_slot)
        finally:
            zygotes.close()

    return run


def finished_result(out: Path, submission: Submission) -> dict[str, Any] | None:
    """The stored result of `submission` from an earlier run, if there is a complete one."""
    path = result_path(out, submission.student, submission.assignment)
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("status") and "exercises" in record else None


def current_hash(submission: Submission) -> str:
    """The hash of the notebook as the grader would read it now; "" when it would not read it."""
    try:
        return notebook_hash(plain_notebook_bytes(submission))
    except (OSError, NotPlain):
        return ""


def unchanged_result(out: Path, submission: Submission) -> dict[str, Any] | None:
    """The stored result of `submission` if it graded the very notebook that is there now (same
    file name, same bytes); None when there is none, or the student handed in again since."""
    record = finished_result(out, submission)
    if record is None or "notebook_sha256" not in record:  # older results carry no hash: regrade
        return None
    same = (record["notebook"], record["notebook_sha256"]) == (submission.path.name, current_hash(submission))
    return record if same else None


class Records(list):
    """Result records of a batch; `graded` of them were graded in this run, `kept` were unchanged."""

    graded: int = 0
    kept: int = 0


def grade_all(submissions: Sequence[Submission], out: Path, jobs: int = 1, limits: Limits = Limits(),
              force: bool = False, runner: Runner | None = None) -> Records:
    """Grade `submissions` with `runner` (default: `jobs` kernels at once here); write each result,
    then the class CSV.

    Submissions whose result in `out` graded the notebook that is there now are skipped unless
    `force`; their stored records are returned with the rest (`Records.kept` counts them). One run
    at a time holds `out`: a second one waits, saying so (`results_lock`).

    Raises `sandbox.SandboxUnavailable` before it touches `out` when `limits` ask for a sandbox that
    cannot be built here; says once that there is none when they do not. Removes what a grader
    killed before left behind (`leftovers`), saying so.
    """
    require_sandbox() if limits.sandbox else warn_unsandboxed()
    say_removed(remove_leftovers())
    with results_lock(out):
        return _grade_all(submissions, out, jobs, limits, force, runner)


def _grade_all(submissions: Sequence[Submission], out: Path, jobs: int, limits: Limits, force: bool,
               runner: Runner | None) -> Records:
    kept = {} if force else {s: r for s in submissions if (r := unchanged_result(out, s)) is not None}
    todo = [s for s in submissions if s not in kept]
    if kept:
        print(f"skipping {len(kept)} submission(s) unchanged since graded (use --force to regrade them); "
              f"grading {len(todo)}", file=sys.stderr)
    records = Records(kept.values())
    if todo:
        records += _grade_in_parallel(todo, out, limits, runner or threads(jobs))
    records.graded, records.kept = len(todo), len(kept)
    write_class_csv(out, read_results(out))
    return records


def prepare(todo: Sequence[Submission], out: Path, limits: Limits) -> Batch:
    """Load the lessons of `todo` and compute their references; hide results, cache and submissions."""
    assignments = sorted({s.assignment for s in todo})
    lesson_of = {a: lessons.load(a) for a in assignments}
    reference_of = {a: reference_observations(lesson_of[a]) for a in assignments}
    # Each submissions folder, resolved (bubblewrap mounts real paths): the instructor named it, so
    # resolving it is safe, where resolving a student's folder could lead anywhere (a link to /).
    hidden = (out.resolve(), cache_dir(), *sorted({(s.root or s.path.parent.parent).resolve() for s in todo}))
    return Batch(lesson_of, reference_of, limits, hidden)


def costliest_first(todo: Sequence[Submission], lesson_of: dict[str, Lesson]) -> list[Submission]:
    """`todo`, the lessons whose solution took longest to grade first (in their order otherwise).

    Longest first, the workers finish together, instead of one starting the last long notebook
    while the others have nothing left to do."""
    cost = {a: reference_seconds(lesson) for a, lesson in lesson_of.items()}
    return sorted(todo, key=lambda s: -cost[s.assignment])


def _grade_in_parallel(todo: Sequence[Submission], out: Path, limits: Limits, runner: Runner) -> list[dict[str, Any]]:
    batch = prepare(todo, out, limits)
    todo = costliest_first(todo, batch.lesson_of)
    started, records = time.monotonic(), []

    def done(record: dict[str, Any]) -> None:
        write_result(out, record)
        records.append(record)
        _progress(records, len(todo), time.monotonic() - started)

    # A submission the grader would not read (missing, a symlink, outside its folder) is judged here,
    # with its reason, and takes no kernel: no runner, local or on a cluster, ever reads it.
    unreadable = [s for s in todo if current_hash(s) == ""]
    with runner(batch) as submit:
        futures = {submit(s): s for s in todo if s not in unreadable}
        try:
            for s in unreadable:
                done(grade(s, batch.lesson_of[s.assignment], {}, limits))
            for future in as_completed(futures):
                done(_record_of(future, futures[future], batch))
        except BaseException:
            # A result that cannot be written (a full disk) stops the batch now: what has not started
            # never starts, where the runner would otherwise grade every submission and then fail.
            for future in futures:
                future.cancel()
            raise
    return records


def _record_of(future: Future, submission: Submission, batch: Batch) -> dict[str, Any]:
    """The future's record; a grading that failed outside the kernel (a bug, a lost worker) is `crashed`."""
    try:
        return future.result()
    except Exception as exc:  # whatever the runner raises: the batch goes on
        reason = f"the grading task failed: {type(exc).__name__}: {str(exc)[:300]}".rstrip(": ")
        return crashed_record(submission, batch.lesson_of[submission.assignment], reason)


def crashed_record(submission: Submission, lesson: Lesson, reason: str) -> dict[str, Any]:
    """A result record with status `crashed`, every exercise at zero with `reason` as its feedback."""
    g = Grading(submission, lesson, reference={}, limits=Limits(), status="crashed", reason=reason)
    Judge().run(g)
    return result_record(g, 0.0)


def _progress(records: list[dict[str, Any]], total: int, elapsed: float) -> None:
    done, last = len(records), records[-1]
    failures = sum(r["status"] != "graded" for r in records)
    filled = BAR_WIDTH * done // max(total, 1)
    print(f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} | failures {failures} | "
          f"{done / max(elapsed, 1e-9) * 60:.1f}/min | {one_line(last['student'])}/{last['assignment']}: "
          f"{last['score']}/{last['max_score']} {last['status']} in {last['duration_s']:.1f} s",
          file=sys.stderr, flush=True)
