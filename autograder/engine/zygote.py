"""A warm kernel factory that runs as init of one grading sandbox: `python -I -m autograder.engine.zygote`.

Importing TensorFlow costs seconds of CPU in every kernel. The zygote imports it (and the rest of
a graded kernel's heavy modules) once, then forks a fresh IPython kernel per submission, so each
kernel starts with TensorFlow already loaded. Each forked kernel is confined by `jail` before it
runs: its own uid, its own fresh scratch tmpfs, /dev/shm and IPC, no capabilities. So a kernel shares no
writable place with the zygote or with the next kernel, and cannot signal either. Between
submissions the grader kills whatever a kernel left running (see `forkserver`); the zygote reaps it.

It reads one JSON command per line on stdin and answers one JSON line on stdout:
  {"spawn": {"connection_file", "env", "log", "uid", "scratch_bytes", "file_bytes"}}
                      -> {"pid": <pid in the sandbox>}
  {"reset": true}     -> {"ok": true}
"""
from __future__ import annotations

import ctypes
import gc
import importlib
import json
import os
import signal
import sys
import tempfile

from autograder.engine import jail

PR_SET_DUMPABLE = 4
# The course's own code that a graded kernel imports: its setup cell's check cells, the probe side
# and every lesson. Named here, not imported: the engine only warms it, and calls none of it.
KERNEL_MODULES = ("autograder.check", "autograder.inkernel.probe", "autograder.course.lessons")


def preload() -> None:
    """Import what every graded kernel imports, so forked kernels start with it, then take the
    integrity snapshot (`integrity`): forked kernels inherit it, recorded before any submission ran.

    None of this starts a thread or sets a trace hook: a fork keeps only the thread that forks."""
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # debugpy's import-time notice
    import sqlite3  # noqa: F401

    import ipykernel.debugger  # noqa: F401  (and with it debugpy)
    import ipykernel.kernelapp  # noqa: F401
    import IPython  # noqa: F401

    # What an IPython kernel imports only as it starts: a tenth of a second per kernel otherwise.
    import IPython.core.completerlib  # noqa: F401
    import IPython.extensions.storemagic  # noqa: F401
    import matplotlib  # noqa: F401
    import numpy  # noqa: F401
    import tensorflow  # noqa: F401

    from autograder.inkernel import integrity

    for name in KERNEL_MODULES:
        importlib.import_module(name)
    lessons = sys.modules["autograder.course.lessons"]
    for assignment in lessons.assignments():
        lessons.load(assignment)
    integrity.snapshot()
    # Out of the collector's sight: otherwise each forked kernel's first full collection walks,
    # and so copies, every page of this heap (a third of a second per kernel).
    gc.collect()
    gc.freeze()


def forbid_tracing() -> None:
    """Make this process non-dumpable: a kernel it forks cannot ptrace it or read its memory."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def become_kernel(request: dict, replies: int) -> None:
    """In the forked child: detach, confine, point stdio at the log, and run an IPython kernel."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.close(replies)  # a kernel must not be able to answer for the zygote
    # Opened while still root, in a folder the confined kernel cannot enter: it can write to its
    # log, never replace it.
    out = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
    jail.confine(request["uid"], request["scratch_bytes"], request["file_bytes"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.environ.clear()
    os.environ.update(jail.confined_environment(request["env"]))
    os.environ.pop("JPY_PARENT_PID", None)  # the zygote, not the grader, is this kernel's parent
    tempfile.tempdir = None  # the zygote's imports cached /tmp, which the kernel cannot write to
    sys.argv = ["ipykernel_launcher", "-f", request["connection_file"]]
    from ipykernel.kernelapp import IPKernelApp

    try:
        IPKernelApp.launch_instance()
    finally:
        os._exit(0)


def spawn(request: dict, replies: int) -> dict:
    """Fork a kernel for one submission; the parent answers with its pid."""
    pid = os.fork()
    if pid == 0:
        try:
            become_kernel(request, replies)
        finally:
            os._exit(1)  # confinement failed: never run a kernel unconfined
    return {"pid": pid}


def reset() -> dict:
    """Reap every finished child (the grader has killed whatever the last kernel left)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass
    return {"ok": True}


def serve(replies: int) -> None:
    """Answer commands until stdin closes."""
    with os.fdopen(replies, "w") as reply:
        print(json.dumps({"ready": True}), file=reply, flush=True)
        for line in sys.stdin:
            command = json.loads(line)
            answer = spawn(command["spawn"], replies) if "spawn" in command else reset()
            print(json.dumps(answer), file=reply, flush=True)


if __name__ == "__main__":
    replies = os.dup(1)
    os.dup2(2, 1)  # whatever the imports print goes to the log, never into the reply channel
    os.chdir("/")
    # The zygote is the sandbox's init: signals without a handler cannot reach it from inside.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    preload()
    forbid_tracing()
    serve(replies)
