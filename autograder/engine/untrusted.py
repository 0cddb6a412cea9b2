"""Read what a graded kernel could have written, without trusting it.

A kernel can replace a file it can reach with a symlink to a host file, a FIFO that blocks for
ever, or something huge. So: never follow a symlink, accept only a regular file, never block, and
never read more than asked.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path


def read_tail(path: Path, max_bytes: int = 4096, end: int | None = None) -> str | None:
    """At most the last `max_bytes` before offset `end` (default: the end) of the regular file at
    `path`, decoded leniently; None when it is missing, a symlink, or not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        stop = info.st_size if end is None else min(end, info.st_size)
        start = max(0, stop - max_bytes)
        return os.pread(fd, stop - start, start).decode("utf-8", "replace")
    finally:
        os.close(fd)


def size_of(path: Path) -> int:
    """The size of the regular file at `path` (0 when it is missing or anything else)."""
    try:
        info = os.lstat(path)
    except OSError:
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) else 0
