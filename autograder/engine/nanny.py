"""Stand between the grader and an unsandboxed kernel: `python -m autograder.engine.nanny KERNEL-ARGV...`.

Without bubblewrap, a kernel started by the grader would be the grading process's child, and one
`os.kill(os.getppid(), SIGKILL)` in a submission would end the whole batch. The nanny starts the
kernel as its own child instead and ties the kernel's life to its own (`PR_SET_PDEATHSIG`): a
kernel that kills its parent kills the nanny, which takes that kernel down with it, and nothing else.

Nothing of the kernel outlives it, even without cgroups: the nanny dies with the grader (its own
`PR_SET_PDEATHSIG`), is the subreaper of everything the kernel starts (a double-forked daemon
becomes the nanny's child, not init's), and kills all of it when the kernel exits. The grader
kills the nanny's descendants (`kill_descendants`) before it stops the nanny itself, and then
every process still carrying the kernel's tag in its environment (`kill_tagged`): what a kernel
that killed its nanny had left, orphaned to init.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

import psutil

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
KILL_ROUNDS = 50


TAG = "TFCOURSE_KERNEL_TAG"
"""The environment variable that marks every process of one unsandboxed kernel (inherited by what it forks)."""


def kill_tagged(tag: str) -> None:
    """SIGKILL every process whose environment carries `TAG` = `tag`, again while any is left."""
    for _ in range(KILL_ROUNDS):
        tagged = []
        for process in psutil.process_iter():
            with contextlib.suppress(psutil.Error):
                if process.environ().get(TAG) == tag and process.status() != psutil.STATUS_ZOMBIE:
                    tagged.append(process)
        if not tagged:
            return
        for process in tagged:
            with contextlib.suppress(psutil.Error):
                process.kill()
        psutil.wait_procs(tagged, timeout=0.5)


def kill_descendants(process: psutil.Process) -> None:
    """SIGKILL every live descendant of `process`, again while new ones appear (a daemon that
    re-forks), at most `KILL_ROUNDS` times."""
    for _ in range(KILL_ROUNDS):
        try:
            tree = [p for p in process.children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
        except psutil.Error:
            return
        if not tree:
            return
        for child in reversed(tree):
            with contextlib.suppress(psutil.Error):
                child.kill()
        psutil.wait_procs(tree, timeout=0.5)


def start_kernel(argv: list[str]) -> int:
    """Fork; the child becomes the kernel, set to die with the nanny. Returns the child's pid."""
    nanny = os.getpid()
    pid = os.fork()
    if pid == 0:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != nanny:  # the nanny died before the line above took effect
            os._exit(1)
        os.environ.pop("JPY_PARENT_PID", None)  # ipykernel would watch the grader, not its real parent
        os.execv(argv[0], argv)
    return pid


def main(argv: list[str]) -> int:
    """Run the kernel, pass on SIGTERM and SIGINT, and exit as it exits, killing whatever it left."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the grader died before the line above took effect
        return 1
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    pid = start_kernel(argv)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda received, _frame: os.kill(pid, received))
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    kill_descendants(psutil.Process())
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:  # reap what was killed
            pass
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
