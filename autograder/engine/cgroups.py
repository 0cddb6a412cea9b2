"""Kernel-enforced limits for one graded kernel: a cgroup of its own, where the machine allows it.

A cgroup counts what a polling watchdog cannot: tmpfs pages (a full `/tmp`), page cache, and
processes that double-forked away from the kernel's tree. Everything the kernel starts stays in
it, so one call kills them all. cgroup v2 is used where its `memory` and `pids` controllers are
available, else cgroup v1's `memory`, `pids` and `freezer` hierarchies (this course's machines).
Where neither can be written (no root, a read-only /sys/fs/cgroup), `KernelCgroup.create` returns
None and the grader falls back to its watchdog (`kernel._watch_memory`).
"""
from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from pathlib import Path

from autograder.engine.owner import owner_tag

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "freezer")
PREFIX = "tfcourse-"
KILL_ROUNDS = 5
EMPTY_WAIT_S = 3.0


def _v2_root() -> Path | None:
    """The cgroup v2 mount, if its memory and pids controllers can be given to a child group."""
    for mount in (ROOT, ROOT / "unified"):
        controllers = mount / "cgroup.controllers"
        with contextlib.suppress(OSError):
            if {"memory", "pids"} <= set(controllers.read_text().split()):
                return mount
    return None


def _write(path: Path, value: str) -> None:
    path.write_text(value)


class KernelCgroup:
    """One kernel's cgroup (or the v1 triple of them): a memory limit, a process limit, one kill."""

    def __init__(self, dirs: dict[str, Path], version: int):
        self.dirs, self.version = dirs, version

    @classmethod
    def create(cls, memory_bytes: int, max_processes: int) -> "KernelCgroup | None":
        """A fresh cgroup with these limits, or None where this machine does not let us make one."""
        name = f"{PREFIX}{owner_tag()}-{uuid.uuid4().hex[:16]}"  # a later run can tell it is a leftover
        v2 = _v2_root()
        group = cls({"all": v2 / name}, 2) if v2 else cls({c: ROOT / c / name for c in V1_CONTROLLERS}, 1)
        try:
            group._make(memory_bytes, max_processes)
        except OSError:
            group.remove()
            return None
        return group

    def _make(self, memory_bytes: int, max_processes: int) -> None:
        for directory in self.dirs.values():
            directory.mkdir()
        if self.version == 2:
            _write(self.dirs["all"] / "memory.max", str(memory_bytes))
            swap = self.dirs["all"] / "memory.swap.max"
            if swap.exists():
                _write(swap, "0")
            _write(self.dirs["all"] / "pids.max", str(max_processes))
        else:
            _write(self.dirs["memory"] / "memory.limit_in_bytes", str(memory_bytes))
            _write(self.dirs["pids"] / "pids.max", str(max_processes))

    def add(self, pid: int) -> None:
        """Move process `pid` (and so everything it starts from now on) into the group."""
        for directory in self.dirs.values():
            _write(directory / "cgroup.procs", str(pid))

    def pids(self) -> list[int]:
        """Every process in the group now."""
        directory = self.dirs.get("all") or self.dirs["pids"]
        try:
            return [int(p) for p in (directory / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def memory_exceeded(self) -> bool:
        """True once the kernel's OOM killer has killed a process of this group at its memory limit."""
        try:
            if self.version == 2:
                events = (self.dirs["all"] / "memory.events").read_text()
                return any(line.split()[0] == "oom_kill" and int(line.split()[1]) > 0
                           for line in events.splitlines())
            control = (self.dirs["memory"] / "memory.oom_control").read_text()
            return any(line.split()[0] == "oom_kill" and int(line.split()[1]) > 0 for line in control.splitlines())
        except (OSError, ValueError, IndexError):
            return False

    def kill_all(self) -> bool:
        """SIGKILL every process in the group; True when the group is then verifiably empty.

        v2 has `cgroup.kill`. v1 freezes the group first, so that nothing in it can fork while it
        is listed and killed, then thaws it so the killed tasks can die.
        """
        for _ in range(KILL_ROUNDS):
            if not self.pids():
                return True
            if self.version == 2:
                with contextlib.suppress(OSError):
                    _write(self.dirs["all"] / "cgroup.kill", "1")
            else:
                self._freeze_and_kill()
            self._wait_empty(EMPTY_WAIT_S)
        return not self.pids()

    def _freeze_and_kill(self) -> None:
        state = self.dirs["freezer"] / "freezer.state"
        with contextlib.suppress(OSError):
            _write(state, "FROZEN")
            deadline = time.monotonic() + EMPTY_WAIT_S
            while state.read_text().strip() != "FROZEN" and time.monotonic() < deadline:
                time.sleep(0.01)
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            _write(state, "THAWED")

    def _wait_empty(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.pids() and time.monotonic() < deadline:
            time.sleep(0.02)

    def remove(self) -> None:
        """Delete the group (it must be empty: call `kill_all` first)."""
        for directory in self.dirs.values():
            with contextlib.suppress(OSError):
                directory.rmdir()


def join(group: KernelCgroup | None):
    """A `preexec_fn` for Popen that puts the child into `group` before it runs anything."""
    if group is None:
        return None
    return lambda: group.add(os.getpid())
