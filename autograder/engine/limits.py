"""`Limits`: what one graded kernel may use. Its own module, free of heavy imports: the command
line's parser reads the defaults, and hidden-test cells start that command line to judge."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Limits on one submission: seconds per cell and per notebook, memory (its whole cgroup:
    processes, tmpfs, page cache), output per cell, its scratch tmpfs and any one file it writes;
    and which cells it runs: only those its grade depends on (`judging.lean`), or with `run_all`
    every cell."""

    cell_timeout: float = 60.0
    notebook_timeout: float = 600.0
    memory_mb: int = 4096
    output_bytes: int = 200_000
    sandbox: bool = True
    scratch_mb: int = 1024
    file_mb: int = 256
    run_all: bool = False


MAX_OBSERVATION_BYTES = 4_000_000
"""One probe cell's observations, as JSON; real ones are a few kB. The probe replaces an answer
that would take more with an error (`inkernel.probe.MAX_OBSERVATIONS_CHARS`, below this)."""

MAX_MESSAGE_BYTES = 2 * MAX_OBSERVATION_BYTES
"""The largest message the grader takes from a kernel (ZeroMQ's `MAXMSGSIZE` on the client's
sockets): the kernel caps each cell's output before sending it (`inkernel.output`), so only a
submission that undid that cap sends more, and ZeroMQ drops that connection without reading the
message (`engine.kernel` then stops the kernel, with a reason)."""

NOTEBOOK_MB = 64
"""The largest notebook the grader reads (its size is checked before a byte is read): a released
notebook is tens of kB and a student's with outputs a few MB, while a sparse file can claim a
terabyte. A larger one is `invalid`, with its size in the reason."""
