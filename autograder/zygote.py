"""A warm kernel factory that runs as init of one grading sandbox: `python -I -m autograder.zygote WORKDIR`.

Importing TensorFlow costs seconds of CPU in every kernel. The zygote imports it (and the rest of
a graded kernel's heavy modules) once, then forks a fresh IPython kernel per submission, so each
kernel starts with TensorFlow already loaded. Between submissions the grader kills whatever a
kernel left running (see `forkserver`), and the zygote reaps it and empties the scratch space.

It reads one JSON command per line on stdin and answers one JSON line on stdout:
  {"spawn": {"connection_file", "env", "log"}} -> {"pid": <pid in the sandbox>}
  {"reset": true}                              -> {"ok": true}
"""
from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import sys
from pathlib import Path

PR_SET_DUMPABLE = 4


def preload() -> None:
    """Import what every graded kernel imports, so forked kernels start with it."""
    import IPython  # noqa: F401
    import ipykernel.kernelapp  # noqa: F401
    import matplotlib  # noqa: F401  (not pyplot: the kernel picks its inline backend itself)
    import numpy  # noqa: F401
    import tensorflow  # noqa: F401

    import autograder.check  # noqa: F401
    import autograder.probe  # noqa: F401


def forbid_tracing() -> None:
    """Make this process non-dumpable: a kernel it forks cannot ptrace it or read its memory."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def become_kernel(workdir: Path, connection_file: str, env: dict[str, str], log: str, replies: int) -> None:
    """In the forked child: detach, point stdio at the log, and run an IPython kernel until it exits."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.close(replies)  # a kernel must not be able to answer for the zygote
    null = os.open(os.devnull, os.O_RDONLY)
    out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.environ.clear()
    os.environ.update(env)
    os.environ.update(HOME=str(workdir), MPLCONFIGDIR=str(workdir / ".matplotlib"))
    os.environ.pop("JPY_PARENT_PID", None)  # the zygote, not the grader, is this kernel's parent
    os.chdir(workdir)
    sys.argv = ["ipykernel_launcher", "-f", connection_file]
    from ipykernel.kernelapp import IPKernelApp

    try:
        IPKernelApp.launch_instance()
    finally:
        os._exit(0)


def spawn(workdir: Path, request: dict, replies: int) -> dict:
    """Fork a kernel for one submission; the parent answers with its pid."""
    pid = os.fork()
    if pid == 0:
        become_kernel(workdir, request["connection_file"], request["env"], request["log"], replies)
    return {"pid": pid}


def reset(workdir: Path) -> dict:
    """Reap every finished child and give the next kernel an empty scratch space."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass
    for entry in Path("/tmp").iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    workdir.mkdir(parents=True, exist_ok=True)
    return {"ok": True}


def serve(workdir: Path, replies: int) -> None:
    """Answer commands until stdin closes."""
    reset(workdir)
    with os.fdopen(replies, "w") as reply:
        print(json.dumps({"ready": True}), file=reply, flush=True)
        for line in sys.stdin:
            command = json.loads(line)
            answer = spawn(workdir, command["spawn"], replies) if "spawn" in command else reset(workdir)
            print(json.dumps(answer), file=reply, flush=True)


if __name__ == "__main__":
    replies = os.dup(1)
    os.dup2(2, 1)  # whatever the imports print goes to the log, never into the reply channel
    os.chdir("/")
    # The zygote is the sandbox's init: signals without a handler cannot reach it from inside.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    preload()
    forbid_tracing()
    serve(Path(sys.argv[1]), replies)
