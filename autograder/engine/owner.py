"""Whose a grader's temporary things are: each cgroup and run folder it makes is named with its
owner, the grader process's pid and start time, so that a later run can prove a leftover is of a
grader that is gone (`leftovers`), and never takes one of a grader still running beside it."""
from __future__ import annotations

import os
import re

import psutil

OWNED = re.compile(r"tfcourse-(?:run-|logs-)?(\d+)\.(\d+)-")
"""A name made with `owner_tag`: `tfcourse-[run-|logs-]<pid>.<start>-...`."""


def _started(pid: int) -> int | None:
    """When process `pid` started, in centiseconds since the epoch; None if there is no such process."""
    try:
        return int(psutil.Process(pid).create_time() * 100)
    except psutil.Error:
        return None


def owner_tag() -> str:
    """`<pid>.<start>` of this process, for the names of what it makes."""
    pid = os.getpid()
    return f"{pid}.{_started(pid)}"


def owner_gone(name: str) -> bool:
    """True when `name` was made by a process that no longer runs (its pid is free, or taken by a
    process started at another time); False for a live owner, and for a name with no owner in it."""
    match = OWNED.match(name)
    return bool(match) and _started(int(match[1])) != int(match[2])
