"""Stand between the grader and an unsandboxed kernel: `python -m autograder.engine.nanny KERNEL-ARGV...`.

Without bubblewrap, a kernel started by the grader would be the grading process's child, and one
`os.kill(os.getppid(), SIGKILL)` in a submission would end the whole batch. The nanny starts the
kernel as its own child instead and ties the kernel's life to its own (`PR_SET_PDEATHSIG`): a
kernel that kills its parent kills the nanny, which takes that kernel down with it, and nothing else.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


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
    """Run the kernel, pass on SIGTERM and SIGINT, and exit as it exits."""
    pid = start_kernel(argv)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda received, _frame: os.kill(pid, received))
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status)
        except InterruptedError:
            continue


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
