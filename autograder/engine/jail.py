"""The last step before a graded kernel runs: private scratch space and an unprivileged uid.

Both ways a kernel starts go through `confine`: a kernel forked from a warm zygote (`zygote`),
and a kernel started in a fresh sandbox (`python -I -m autograder.engine.jail UID TMP_BYTES FILE_BYTES
-- KERNEL-ARGV...`, run by bubblewrap with the capabilities it needs and nothing else). After it:

- `SCRATCH` (its working folder, HOME and TMPDIR) and `/dev/shm` are new tmpfs mounts, private
  to this kernel's mount namespace and limited in size; they vanish with its last process. (Not
  `/tmp` itself: the course checkout may live under /tmp, and must stay visible. The sandbox's
  /tmp belongs to root, so a kernel cannot write there);
- System V IPC is private (its own IPC namespace);
- the kernel runs as `uid` (unique per kernel, owning nothing outside its own tmpfs), with no
  capabilities and `no_new_privs`, so it can neither change nor signal the zygote, the grader,
  or another kernel;
- no file it writes can grow past `file_bytes` (RLIMIT_FSIZE), and it cannot dump core.
"""
from __future__ import annotations

import ctypes
import os
import resource
import sys

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
MS_NOSUID, MS_NODEV, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x4000, 0x40000
PR_SET_NO_NEW_PRIVS = 38
SCRATCH = "/tmp/kernel"  # created by the sandbox (see `sandbox.bwrap_argv`)
WORKDIR = f"{SCRATCH}/work"
HOME = f"{SCRATCH}/home"
TMP = f"{SCRATCH}/tmp"
MAX_PROCESSES = 1024  # per uid; the cgroup's pids.max is the real limit where there is one

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _tmpfs(target: str, size: int, uid: int) -> None:
    options = f"size={size},mode=0700,uid={uid},gid={uid}".encode()
    _check(_libc.mount(b"tmpfs", target.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options), f"mount {target}")


def confine(uid: int, tmp_bytes: int, file_bytes: int) -> None:
    """Enter private namespaces with fresh tmpfs scratch, then become `uid` for good (see module doc)."""
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWIPC), "unshare")
    _check(_libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "make mounts private")
    _tmpfs(SCRATCH, tmp_bytes, uid)
    _tmpfs("/dev/shm", tmp_bytes, uid)
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (MAX_PROCESSES, MAX_PROCESSES))
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    for folder in (WORKDIR, HOME, TMP):
        os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chdir(WORKDIR)


def confined_environment(env: dict[str, str]) -> dict[str, str]:
    """`env` plus what every confined kernel needs to find its home and scratch."""
    return {**env, "HOME": HOME, "MPLCONFIGDIR": f"{HOME}/.matplotlib", "USER": "student",
            "LOGNAME": "student", "TMPDIR": TMP}


def main(argv: list[str]) -> None:
    """`UID TMP_BYTES FILE_BYTES -- KERNEL-ARGV...`: confine this process, then exec the kernel."""
    uid, tmp_bytes, file_bytes = (int(a) for a in argv[:3])
    command = argv[argv.index("--") + 1:]
    confine(uid, tmp_bytes, file_bytes)
    env = confined_environment(dict(os.environ))
    env.pop("JPY_PARENT_PID", None)  # the sandbox's init is this kernel's parent, not the grader
    os.execve(command[0], command, env)


if __name__ == "__main__":
    main(sys.argv[1:])
