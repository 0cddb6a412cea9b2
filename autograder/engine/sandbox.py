"""Each graded kernel in its own bubblewrap sandbox, or, when the instructor asks, behind a nanny process.

Inside the sandbox the kernel sees the system read-only, a scratch working folder, and of the
course only the virtual environment and the public part of `autograder`: no solutions, no hidden
inputs, no reference cache, no results, no other submission, no network, no view of other
processes. It talks to the grader over Unix sockets in a private runtime folder.
"""
from __future__ import annotations

import contextlib
import functools
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from queue import Empty
from typing import Iterable, Mapping

import psutil
import zmq
import zmq.asyncio
from jupyter_client import AsyncKernelClient, AsyncKernelManager
from jupyter_client.kernelspec import KernelSpec
from traitlets import Integer, List, Unicode, default

from autograder import COURSE_ROOT
from autograder.engine.jail import SCRATCH
from autograder.engine.limits import MAX_MESSAGE_BYTES
from autograder.engine.owner import owner_tag
from autograder.inkernel.quiet import KERNEL_ENV

# --cap-drop ALL: bubblewrap run as root keeps root's capabilities inside, and with them a
# submission could unmount what hides the course. Only the zygote and the jail (trusted code,
# before any student code runs) keep the three they need to confine a kernel; the kernel then runs
# as an unprivileged uid with none (see `jail`).
JAIL_CAPS = ["--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
SANDBOX_FLAGS = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--cap-drop", "ALL", *JAIL_CAPS,
                 "--die-with-parent", "--new-session", "--dev", "/dev", "--proc", "/proc"]
# What of the host a kernel sees, read-only: the system's programs and libraries, and the few
# files of /etc that libraries read. Not /root, /home, /work, /var, /opt, /run or /etc/shadow.
SYSTEM_DIRS = ("/usr", "/sys")
MERGED_USR = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "nsswitch.conf", "passwd", "group", "hosts",
             "localtime", "timezone", "ssl", "ca-certificates", "alternatives", "fonts", "mime.types",
             "os-release", "debian_version", "matplotlibrc")
# Where a kernel's run folder (connection file, sockets) lives on the host: outside the kernel's
# own scratch (`jail.SCRATCH`), at the same path inside the sandbox and out.
RUN_BASE = Path(os.environ.get("TFCOURSE_RUNDIR", "/var/tmp"))


@functools.lru_cache(maxsize=1)
def bwrap_works() -> bool:
    """True when bubblewrap is installed and can build the grader's sandbox here (it needs root)."""
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


class OtherPackage(SandboxUnavailable):
    """The Python that kernels start with would import another copy of `autograder` than the grader
    did (a course copied elsewhere, graded with the venv of another checkout)."""


@functools.lru_cache(maxsize=1)
def kernels_package() -> Path | None:
    """The `autograder` package a kernel imports: what `sys.executable -I` finds (None if none)."""
    run = subprocess.run([sys.executable, "-I", "-c", "import autograder, sys; sys.stdout.write(autograder.__file__)"],
                         capture_output=True, text=True)
    return Path(run.stdout).resolve().parent if run.returncode == 0 and run.stdout else None


def require_own_package() -> None:
    """Raise `OtherPackage`, naming both, unless kernels run the very package this process imported."""
    mine = COURSE_ROOT / "autograder"
    theirs = kernels_package()
    if theirs != mine:
        raise OtherPackage(
            f"this grader imported the course's package from {mine}, but the kernels it starts with "
            f"{sys.executable} would import {theirs or 'no autograder package'}: grade with the virtual "
            f"environment of {COURSE_ROOT} (make setup there), or run from the checkout that environment was made for.")


def require_sandbox() -> None:
    """Raise `SandboxUnavailable`, with what to do about it, unless bubblewrap works here and kernels
    run the package this process imported."""
    require_own_package()
    if not bwrap_works():
        raise SandboxUnavailable(NO_SANDBOX)


@functools.lru_cache(maxsize=1)
def warn_unsandboxed() -> None:
    """Say once per process that kernels run with process isolation only; raise `OtherPackage`
    unless they run the package this process imported."""
    require_own_package()
    print("warning: grading without a sandbox (--no-sandbox): kernels run with process isolation only, "
          "and a submission can read and change files the grader can.", file=sys.stderr, flush=True)


# What of the grader's environment a kernel gets: locale and the device's settings, nothing else
# (no tokens, no paths of results or caches).
PASSED_ON = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")
PASSED_PREFIXES = ("TF_", "CUDA_", "XLA_", "NVIDIA_")


def kernel_environment(device_env: Mapping[str, str] = {}) -> dict[str, str]:
    """The whole environment a graded kernel starts with: a minimal PATH and locale, the settings
    that keep TensorFlow quiet, its device, and `TFCOURSE_GRADING=1`, which lets a notebook skip
    what only a person looks at (lesson 05 starts no TensorBoard server)."""
    env = {"PATH": f"{Path(sys.prefix) / 'bin'}:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
           "TFCOURSE_GRADING": "1"}
    env.update({k: v for k, v in os.environ.items() if k in PASSED_ON or k.startswith(PASSED_PREFIXES)})
    env.update({k: env.get(k, v) for k, v in KERNEL_ENV.items()})
    env.update(device_env)
    return env


def _system_binds() -> list[str]:
    argv: list[str] = []
    for path in SYSTEM_DIRS:
        argv += ["--ro-bind-try", path, path]
    for path in MERGED_USR:  # symlinks into /usr on merged-/usr systems, real folders elsewhere
        argv += ["--symlink", os.readlink(path), path] if os.path.islink(path) else ["--ro-bind-try", path, path]
    for name in ETC_FILES:
        argv += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return argv


def _parents(paths: Iterable[Path]) -> list[str]:
    """Create the folders above each bind target traversable (bubblewrap would make them 0700)."""
    argv: list[str] = []
    for folder in sorted({parent for path in paths for parent in path.parents if parent != Path("/")},
                         key=lambda p: len(p.parts)):
        argv += ["--perms", "0755", "--dir", str(folder)]
    return argv


def _python_sources() -> list[Path]:
    """The interpreter, the virtual environment and the public package, as real paths."""
    package = COURSE_ROOT / "autograder"
    return [Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), package]


def bwrap_argv(rundir: Path, hidden: Iterable[Path] = (), as_pid_1: bool = False,
               logdir: Path | None = None) -> list[str]:
    """The bubblewrap command line that wraps a kernel (or a zygote, with `as_pid_1`).

    The sandbox holds only the binds above, `rundir` (connection file and sockets, shared with the
    grader) and, for a zygote, `logdir` (kernel logs, which kernels cannot reach once confined).
    `hidden` paths that fall inside a bound folder appear empty. With `as_pid_1` the command is
    the sandbox's init, which nothing inside can kill.
    """
    # /tmp first: binds below it (a checkout under /tmp, say) must land on it, not under it.
    argv = [shutil.which("bwrap") or "bwrap", *SANDBOX_FLAGS, *_system_binds(),
            "--perms", "0755", "--tmpfs", "/tmp", "--perms", "0755", "--dir", SCRATCH]
    sources = _python_sources()
    argv += _parents([*sources, rundir, *([logdir] if logdir else [])])
    for source in sources:
        argv += ["--ro-bind", str(source), str(source)]
    package = COURSE_ROOT / "autograder"
    masked = [package / "course" / "hidden", *(Path(h).resolve() for h in hidden)]
    for path in masked:
        if path.exists() and any(path == s or s in path.parents for s in sources):
            argv += ["--tmpfs", str(path)]
    argv += ["--bind", str(rundir), str(rundir)]
    if logdir is not None:
        argv += ["--bind", str(logdir), str(logdir)]
    argv += ["--remount-ro", "/", "--chdir", "/", "--unsetenv", "JPY_PARENT_PID"]
    return argv + (["--as-pid-1"] if as_pid_1 else []) + ["--"]


@dataclass(frozen=True)
class Confinement:
    """How one kernel is confined by `jail`: its uid, and the sizes of its scratch and of any file."""

    uid: int
    scratch_bytes: int
    file_bytes: int

    def argv(self) -> list[str]:
        """The command that confines a freshly started kernel before it runs."""
        return [sys.executable, "-I", "-m", "autograder.engine.jail", str(self.uid), str(self.scratch_bytes),
                str(self.file_bytes), "--"]


def new_kernel_uid() -> int:
    """A uid for one kernel: unprivileged, owning no file on the host, unlikely to repeat."""
    return secrets.randbelow(1_000_000) + 200_000


def make_rundir(uid: int | None, parent: Path | None = None) -> Path:
    """A fresh run folder for one kernel, owned by its uid (it must create its sockets there)."""
    base = parent or RUN_BASE
    base.mkdir(parents=True, exist_ok=True)
    rundir = Path(tempfile.mkdtemp(prefix=f"tfcourse-run-{owner_tag()}-", dir=base))
    if uid is not None:
        os.chown(rundir, uid, uid)
    return rundir


def lock_rundir(rundir: Path) -> None:
    """Once the kernel's sockets exist: give the folder back to root, so it can add nothing more."""
    os.chown(rundir, 0, 0, follow_symlinks=False)
    os.chmod(rundir, 0o755, follow_symlinks=False)


class PromptClient(AsyncKernelClient):
    """jupyter_client's client, with a quicker wait for a new kernel.

    Its wait sends `kernel_info`, takes the reply, then waits 0.2 s for an IOPub message to show
    that IOPub is connected. A kernel forked from the zygote answers within milliseconds of starting,
    before the client's IOPub subscription has reached it, so that first status message is lost and
    the 0.2 s is spent on nearly every kernel (measured: 250 ms of a 360 ms kernel start and stop).
    This wait asks again every 10 ms until IOPub has delivered a message, as the original's second
    round would, and has its timeout and its check that the kernel is alive.

    Its sockets refuse any message over `MAX_MESSAGE_BYTES` before reading it.
    """

    @default("context")
    def _capped_context(self) -> zmq.asyncio.Context:
        self._created_context = True
        context = zmq.asyncio.Context()
        context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
        return context

    async def wait_for_ready(self, timeout: float | None = None) -> None:  # noqa: D102 (jupyter_client's)
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
                if reply["msg_type"] == "kernel_info_reply":
                    await self.iopub_channel.get_msg(timeout=0.01)
                    self._handle_kernel_info_reply(reply)
                    return
            except Empty:
                pass
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:g} seconds")


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernel command runs behind `wrapper` (bubblewrap's argv, or the nanny),
    and whose connection file its confined kernel (`kernel_uid`) can read."""

    wrapper = List(Unicode())
    kernel_uid = Integer(None, allow_none=True)
    launched: psutil.Process | None = None  # the process started (bwrap, or the nanny), kept after it stops

    @default("client_factory")
    def _prompt_client(self) -> type:
        return PromptClient

    async def _async_wait(self, pollinterval: float = 0.01) -> None:
        # jupyter_client polls a killed kernel every 0.1 s; one with TensorFlow's threads and heap
        # is rarely gone at the first poll, so nearly every notebook paid the whole 0.1 s.
        await super()._async_wait(pollinterval)

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw) -> None:  # noqa: D102 (jupyter_client's)
        await super()._async_launch_kernel(kernel_cmd, **kw)
        with contextlib.suppress(psutil.Error):
            self.launched = psutil.Process(self.provisioner.pid)

    @property
    def kernel_spec(self) -> KernelSpec:
        argv = [*self.wrapper, sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        # Interrupt by message: a signal to bubblewrap would not reach the kernel in its own session.
        return KernelSpec(argv=argv, display_name="Python 3 (sandboxed)", language="python",
                          interrupt_mode="message")

    def write_connection_file(self, **kwargs) -> tuple[str, dict]:  # noqa: D102 (jupyter_client's)
        written = super().write_connection_file(**kwargs)
        if self.kernel_uid is not None:
            os.chown(self.connection_file, self.kernel_uid, self.kernel_uid, follow_symlinks=False)
        return written


NANNY = [sys.executable, "-I", "-m", "autograder.engine.nanny"]


def kernel_manager(rundir: Path, hidden: Iterable[Path] = (), confinement: Confinement | None = None
                   ) -> SandboxedKernelManager:
    """A manager for one graded kernel, talking over Unix sockets in `rundir`.

    With a `confinement`, the kernel runs in bubblewrap, confined by `jail` (`SandboxUnavailable`
    where bubblewrap cannot work); without, behind a nanny process (see `nanny`), so that its
    parent is never the grader.
    """
    if confinement is not None:
        require_sandbox()
        wrapper = [*bwrap_argv(rundir, hidden), *confinement.argv()]
    else:
        wrapper = NANNY
    return SandboxedKernelManager(wrapper=wrapper, transport="ipc", ip=str(rundir / "ipc"),
                                  connection_file=str(rundir / "kernel.json"),
                                  kernel_uid=confinement.uid if confinement else None)
