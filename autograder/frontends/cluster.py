"""Grade a batch on a Dask distributed cluster: each submission one task, sandboxed on its worker.

The client (`python -m autograder grade --cluster ADDRESS`) prepares the batch as it does locally,
references included: they are computed here, once, and shipped to the tasks as data, never into a
student's kernel. Each task carries the notebook's bytes, so workers need not share a filesystem
with the client; the worker writes them into a private temporary folder, grades them exactly as
`grading.grade` does locally (bubblewrap where it works, the same limits) and returns the result
record. The client writes results, progress and the class CSV (see `batch`), so resuming, skipping
finished results and atomic writes are the same as locally. A task that fails outside the kernel
(an exception, a worker that died) becomes a `crashed` record.

Every worker machine needs the same course checkout and virtual environment (this package
importable, with its lessons) and bubblewrap. A worker grades one submission at a time on one
device: its first visible GPU, else the CPU (`DeviceSlots(1)`). Giving each worker its own GPU,
by starting one worker per GPU with `CUDA_VISIBLE_DEVICES` set for it, is the worker's own
business (see docs/cluster.md). `dask[distributed]` is imported only here, only for `--cluster`.
"""
from __future__ import annotations

import contextlib
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from autograder.course import lessons
from autograder.engine.devices import DeviceSlots
from autograder.engine.limits import Limits
from autograder.frontends.batch import Batch, Submit
from autograder.judging.grading import grade
from autograder.judging.reference import Observations, cache_dir
from autograder.judging.submissions import Submission


@dataclass(frozen=True)
class Task:
    """One submission as shipped to a worker: data only, no path on the client needed."""

    student: str
    assignment: str
    notebook: str
    content: bytes | None  # None: nothing readable was handed in (graded as `invalid`)
    reference: Observations
    limits: Limits
    hidden: tuple[Path, ...]  # the client's hidden paths: they matter where the filesystem is shared


def task_of(submission: Submission, batch: Batch) -> Task:
    """Read the submission here and pack it with its lesson's reference."""
    try:
        content: bytes | None = submission.path.read_bytes()
    except OSError:
        content = None
    return Task(submission.student, submission.assignment, submission.path.name, content,
                batch.reference_of[submission.assignment], batch.limits, batch.hidden)


_slots: DeviceSlots | None = None
_slots_lock = threading.Lock()


def worker_slots() -> DeviceSlots:
    """This worker process's single device slot, made on first use."""
    global _slots
    with _slots_lock:
        if _slots is None:
            _slots = DeviceSlots(1)
        return _slots


def grade_task(task: Task) -> dict[str, Any]:
    """Run on a worker: grade the shipped notebook in a private temporary folder; return its record.

    The kernel is hidden the client's hidden paths, this worker's reference cache, and the parent
    of the temporary folder (so other submissions graded on this machine too).
    """
    lesson = lessons.load(task.assignment)
    with tempfile.TemporaryDirectory(prefix="tfcourse-submission-") as base:
        path = Path(base, task.notebook)
        if task.content is not None:
            path.write_bytes(task.content)
        submission = Submission(task.student, task.assignment, path)
        hidden = (*task.hidden, Path(base).parent, cache_dir())
        with worker_slots().slot() as device_env:
            return grade(submission, lesson, task.reference, task.limits, hidden, device_env)


class ClusterRunner:
    """A `batch.Runner` that submits one `grade_task` per submission to the scheduler at `address`.

    Connects on construction, so that an unreachable scheduler fails before references are
    computed (an `OSError`, after dask's `distributed.comm.timeouts.connect`); closes the
    connection when the batch is done.
    """

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError as exc:
            raise ImportError("--cluster needs dask's distributed scheduler: pip install 'dask[distributed]'") from exc
        try:
            self.client = Client(address, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise OSError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc

    @contextlib.contextmanager
    def __call__(self, batch: Batch) -> Iterator[Submit]:
        executor = self.client.get_executor(pure=False)
        try:
            yield lambda s: executor.submit(grade_task, task_of(s, batch))
        finally:
            executor.shutdown(wait=False)  # all done, or the batch was interrupted: cancel the rest
            self.client.close()
