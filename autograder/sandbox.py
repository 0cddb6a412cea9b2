"""Each graded kernel in its own bubblewrap sandbox, or, when the instructor asks, behind a nanny process.

Inside the sandbox the kernel sees the system read-only, a scratch working folder, and of the
course only the virtual environment and the public part of `autograder`: no solutions, no hidden
inputs, no reference cache, no results, no other submission, no network, no view of other
processes. It talks to the grader over Unix sockets in a private runtime folder.
"""
from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterable

from jupyter_client import AsyncKernelManager
from jupyter_client.kernelspec import KernelSpec
from traitlets import List, Unicode

from . import COURSE_ROOT

SCRATCH = Path("/tmp/work")  # the kernel's working folder, inside the sandbox's private /tmp
# --cap-drop ALL: bubblewrap run as root keeps root's capabilities inside, and with them a
# submission could simply unmount the empty folders that hide the solutions.
SANDBOX_FLAGS = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--cap-drop", "ALL",
                 "--die-with-parent", "--new-session", "--dev", "/dev", "--proc", "/proc"]


@functools.lru_cache(maxsize=1)
def bwrap_works() -> bool:
    """True when bubblewrap is installed and can build a sandbox here (it needs privileges)."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return False
    probe = subprocess.run([bwrap, "--ro-bind", "/", "/", *SANDBOX_FLAGS, "true"], capture_output=True)
    return probe.returncode == 0


class SandboxUnavailable(RuntimeError):
    """Grading for marks needs a sandbox, and bubblewrap cannot build one on this machine."""


NO_SANDBOX = ("bubblewrap cannot build a sandbox on this machine, and grading without one lets a "
              "submission read and change whatever the grader can. Install the Debian package "
              "`bubblewrap` (apt-get install bubblewrap), or pass --no-sandbox to grade with process "
              "isolation only.")


def require_sandbox() -> None:
    """Raise `SandboxUnavailable`, with what to do about it, unless bubblewrap works here."""
    if not bwrap_works():
        raise SandboxUnavailable(NO_SANDBOX)


@functools.lru_cache(maxsize=1)
def warn_unsandboxed() -> None:
    """Say once per process that kernels run with process isolation only."""
    print("warning: grading without a sandbox (--no-sandbox): kernels run with process isolation only, "
          "and a submission can read and change files the grader can.", file=sys.stderr, flush=True)


def _existing(paths: Iterable[Path]) -> list[Path]:
    return [p for p in (Path(q).resolve() for q in paths) if p.exists()]


def bwrap_argv(rundir: Path, hidden: Iterable[Path] = (), as_pid_1: bool = False) -> list[str]:
    """The bubblewrap command line that wraps a kernel; `hidden` paths appear empty inside.

    The kernel works in `SCRATCH`, inside the sandbox's private /tmp; `rundir` (connection file,
    sockets, log) is the one folder it shares with the grader. With `as_pid_1` the command is the
    sandbox's init, which nothing inside can kill.
    """
    argv = [shutil.which("bwrap") or "bwrap", "--ro-bind", "/", "/", *SANDBOX_FLAGS, "--tmpfs", "/tmp"]
    for path in _existing([COURSE_ROOT, *hidden]):
        argv += ["--tmpfs", str(path)]
    prefix = Path(sys.prefix).resolve()
    if COURSE_ROOT in prefix.parents:  # the venv lives in the course checkout: show it again
        argv += ["--ro-bind", str(prefix), str(prefix)]
    package = COURSE_ROOT / "autograder"
    argv += ["--ro-bind", str(package), str(package), "--tmpfs", str(package / "hidden")]
    argv += ["--dir", str(SCRATCH), "--bind", str(rundir), str(rundir),
             "--chdir", str(SCRATCH), "--setenv", "HOME", str(SCRATCH),
             # ipykernel exits when its parent looks like init, as bubblewrap does in its pid namespace;
             # --die-with-parent does that job instead.
             "--unsetenv", "JPY_PARENT_PID",
             "--setenv", "MPLCONFIGDIR", str(SCRATCH / ".matplotlib")]
    return argv + (["--as-pid-1"] if as_pid_1 else []) + ["--"]


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernel command runs behind `wrapper` (bubblewrap's argv, or the nanny)."""

    wrapper = List(Unicode())

    @property
    def kernel_spec(self) -> KernelSpec:
        argv = [*self.wrapper, sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        # Interrupt by message: a signal to bubblewrap would not reach the kernel in its own session.
        return KernelSpec(argv=argv, display_name="Python 3 (sandboxed)", language="python",
                          interrupt_mode="message")


NANNY = [sys.executable, "-I", "-m", "autograder.nanny"]


def kernel_manager(rundir: Path, hidden: Iterable[Path] = (), sandbox: bool = True) -> AsyncKernelManager:
    """A manager for one graded kernel, talking over Unix sockets in `rundir`.

    With `sandbox`, the kernel runs in bubblewrap (`SandboxUnavailable` where that cannot work);
    without, behind a nanny process (see `nanny`), so that its parent is never the grader.
    """
    if sandbox:
        require_sandbox()
    wrapper = bwrap_argv(rundir, hidden) if sandbox else NANNY
    return SandboxedKernelManager(wrapper=wrapper, transport="ipc", ip=str(rundir / "ipc"),
                                  connection_file=str(rundir / "kernel.json"))
