"""Kernels forked from a warm zygote, so a batch pays TensorFlow's import once per worker.

A `Zygote` is one long-lived sandbox (the same bubblewrap sandbox a kernel would get) running
`autograder.engine.zygote`, which has TensorFlow imported. For each submission it forks a fresh kernel;
afterwards the grader kills everything that kernel left behind, and the zygote empties its
scratch space, so no submission sees another's files or processes. A zygote that dies, killed
by a hostile kernel say, is replaced before the next submission.

Forking after CUDA has been initialised is unsafe, so zygotes are only used on CPU-only machines
with a working bubblewrap; elsewhere kernels start from scratch (`kernel.execute_and_observe`).
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Iterable, Iterator, Mapping

import psutil
from jupyter_client.provisioning import LocalProvisioner

from autograder.engine.devices import visible_gpus
from autograder.engine.jail import WORKDIR
from autograder.engine.owner import owner_tag
from autograder.engine.sandbox import (
    RUN_BASE,
    Confinement,
    SandboxedKernelManager,
    bwrap_argv,
    bwrap_works,
    kernel_environment,
    make_rundir,
)

START_TIMEOUT_S = 180.0
ZYGOTE_ARGV = [sys.executable, "-I", "-m", "autograder.engine.zygote"]
SWEEP_ROUNDS = 20


class ZygoteDied(RuntimeError):
    """The zygote stopped answering (a kernel killed it, or it crashed)."""


class ForkedKernel:
    """The `Popen` face of a forked kernel, which is not our child: poll, wait and kill by host pid."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit code (always 0: the zygote reaps it) once the kernel has ended, else None."""
        if self.returncode is None:
            try:
                if psutil.Process(self.pid).status() == psutil.STATUS_ZOMBIE:
                    self.returncode = 0
            except psutil.NoSuchProcess:
                self.returncode = 0
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Block until the kernel has ended."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout)
            time.sleep(0.05)
        return 0

    def send_signal(self, signum: int) -> None:
        """Signal the kernel and, for SIGKILL, everything it started."""
        if self.poll() is not None:
            return
        targets = [psutil.Process(self.pid)]
        if signum == signal.SIGKILL:
            with contextlib.suppress(psutil.Error):
                targets += targets[0].children(recursive=True)
        for process in targets:
            with contextlib.suppress(psutil.Error):
                process.send_signal(signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ZygoteProvisioner(LocalProvisioner):
    """Launches a kernel by asking a zygote to fork one, instead of starting a process."""

    async def launch_kernel(self, cmd: list[str], **kwargs):  # noqa: D102 (jupyter_client's hook)
        km = self.parent
        self.process = self.zygote.spawn(km.connection_file, kwargs.get("env") or {}, km.kernel_log, km.confinement)
        if km.cgroup is not None:
            km.cgroup.add(self.process.pid)  # before the kernel has run a line of the student's code
        # No process group: right after the fork the child may still share the zygote's.
        self.pid, self.pgid, self.cwd = self.process.pid, None, WORKDIR
        return self.connection_info


class Zygote:
    """One warm sandbox that forks kernels on request; see the module docstring."""

    def __init__(self, hidden: Iterable[Path], device_env: Mapping[str, str]):
        self.hidden = tuple(hidden)
        self.device_env = dict(device_env)
        # Kernels' run folders live in `rundir` (traversable, not listable); their logs in `logdir`,
        # which only root (the zygote, the grader) can enter.
        self.rundir = make_rundir(None)
        self.rundir.chmod(0o711)
        self.logdir = Path(tempfile.mkdtemp(prefix=f"tfcourse-logs-{owner_tag()}-", dir=RUN_BASE))
        self.process: subprocess.Popen | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the sandbox and wait until TensorFlow is imported in it."""
        env = kernel_environment(self.device_env)
        # As the sandbox's pid 1, the zygote outlives any kernel that tries to kill it.
        argv = [*bwrap_argv(self.rundir, self.hidden, as_pid_1=True, logdir=self.logdir), *ZYGOTE_ARGV]
        self._log = open(self.logdir / "zygote.log", "ab")
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                        env=env, text=True, start_new_session=True)
        self._ask(None, START_TIMEOUT_S)

    def kernel_paths(self, uid: int) -> tuple[Path, Path]:
        """A fresh run folder for a kernel that will run as `uid`, and the path of its log."""
        rundir = make_rundir(uid, parent=self.rundir)
        return rundir, self.logdir / f"{rundir.name}.log"

    def spawn(self, connection_file: str, env: Mapping[str, str], log: str, confinement: Confinement) -> ForkedKernel:
        """Fork a kernel, confined as `confinement` says, that reads `connection_file`; returns it by
        its pid on this host."""
        request = {"connection_file": connection_file, "env": {**env, **self.device_env}, "log": log,
                   "uid": confinement.uid, "scratch_bytes": confinement.scratch_bytes,
                   "file_bytes": confinement.file_bytes}
        inner_pid = self._ask({"spawn": request})["pid"]
        return ForkedKernel(self._host_pid(inner_pid))

    def reset(self) -> None:
        """Kill everything but the zygote in the sandbox, verify that nothing is left, and empty
        the log folder. Raises `ZygoteDied` (so the pool replaces this zygote) when it cannot verify."""
        if not self.alive():
            raise ZygoteDied("the zygote is not running")
        for _ in range(SWEEP_ROUNDS):
            self._ask({"reset": True})  # reap: a kernel that has ended stays a zombie until then
            leftovers = self._leftovers()
            if not leftovers:
                break
            kill_all(leftovers)
            time.sleep(0.05)
        else:
            raise ZygoteDied("processes a kernel left behind could not all be killed")
        for entry in self.logdir.iterdir():
            entry.unlink(missing_ok=True)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def close(self) -> None:
        """Stop the sandbox and everything in it."""
        if self.process is not None:
            with contextlib.suppress(psutil.Error):
                root = psutil.Process(self.process.pid)
                kill_all([*root.children(recursive=True), root])
            self.process.wait()
            self.process = None
            self._log.close()
        shutil.rmtree(self.rundir, ignore_errors=True)
        shutil.rmtree(self.logdir, ignore_errors=True)

    def _ask(self, command: dict | None, timeout: float = 30.0) -> dict:
        """Send `command` (None: just read the greeting) and return the zygote's one-line answer."""
        with self._lock:
            if not self.alive():
                raise ZygoteDied("the zygote is not running")
            if command is not None:
                try:
                    self.process.stdin.write(json.dumps(command) + "\n")
                    self.process.stdin.flush()
                except (BrokenPipeError, OSError) as exc:
                    raise ZygoteDied(f"the zygote stopped reading: {exc}") from None
            line = _readline(self.process, timeout)
        if not line:
            raise ZygoteDied("the zygote exited")
        return json.loads(line)

    def _zygote_process(self) -> psutil.Process:
        for process in psutil.Process(self.process.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if process.cmdline() == ZYGOTE_ARGV:  # not bubblewrap, whose argv ends with it
                    return process
        raise ZygoteDied("no zygote process in the sandbox")

    def _host_pid(self, inner_pid: int) -> int:
        """Translate a pid inside the sandbox's pid namespace into the pid this host knows."""
        for child in self._zygote_process().children():
            if _namespace_pid(child.pid) == inner_pid:
                return child.pid
        raise ZygoteDied(f"the forked kernel {inner_pid} is gone")

    def _leftovers(self) -> list[psutil.Process]:
        """Every process in the sandbox but its init and the zygote."""
        try:
            zygote = self._zygote_process()
        except (ZygoteDied, psutil.Error):
            return []
        keep = {zygote.pid, *(p.pid for p in zygote.parents())}
        return [p for p in psutil.Process(self.process.pid).children(recursive=True) if p.pid not in keep]


class Zygotes:
    """A pool of zygotes, one per device slot in use, each reused by one submission at a time."""

    def __init__(self, hidden: Iterable[Path], enabled: bool = True):
        self.hidden = tuple(hidden)
        self.enabled = enabled and bwrap_works() and not visible_gpus()
        self._idle: list[Zygote] = []
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def lease(self, device_env: Mapping[str, str]) -> Iterator[Zygote | None]:
        """A ready zygote for `device_env`, or None when zygotes are off or will not start."""
        zygote = self._take(device_env) if self.enabled else None
        try:
            yield zygote
        finally:
            if zygote is not None:
                self._give_back(zygote)

    def close(self) -> None:
        """Stop every idle zygote."""
        with self._lock:
            idle, self._idle = self._idle, []
        for zygote in idle:
            zygote.close()

    def _take(self, device_env: Mapping[str, str]) -> Zygote | None:
        with self._lock:
            for zygote in self._idle:
                if zygote.device_env == dict(device_env):
                    self._idle.remove(zygote)
                    return zygote
        zygote = Zygote(self.hidden, device_env)
        try:
            zygote.start()
        except (ZygoteDied, OSError, ValueError) as exc:
            zygote.close()
            self.enabled = False  # one failed start is enough: start kernels from scratch from now on
            warnings.warn(f"warm kernels are off, the zygote did not start ({exc})", RuntimeWarning, stacklevel=2)
            return None
        return zygote

    def _give_back(self, zygote: Zygote) -> None:
        try:
            zygote.reset()
        except Exception:  # noqa: BLE001  (whatever went wrong, this zygote is done; the result is not)
            zygote.close()
            return
        with self._lock:
            self._idle.append(zygote)


def kill_all(processes: Iterable[psutil.Process]) -> None:
    """SIGKILL each process; one that is already gone is no error."""
    for process in processes:
        with contextlib.suppress(psutil.Error):
            process.kill()


def _readline(process: subprocess.Popen, timeout: float) -> str:
    """One line from the process's stdout, or '' after `timeout` seconds (then the process is killed)."""
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        return process.stdout.readline()
    finally:
        timer.cancel()


def _namespace_pid(host_pid: int) -> int | None:
    """The innermost pid of a process (the last NSpid entry of /proc/<pid>/status)."""
    try:
        for line in Path(f"/proc/{host_pid}/status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return int(line.split()[-1])
    except (OSError, ValueError):
        return None
    return None


def zygote_kernel_manager(zygote: Zygote, rundir: Path, log: Path, confinement: Confinement,
                          cgroup=None) -> SandboxedKernelManager:
    """A kernel manager whose kernel the zygote forks, talking over Unix sockets in `rundir`."""
    km = SandboxedKernelManager(transport="ipc", ip=str(rundir / "ipc"), connection_file=str(rundir / "kernel.json"),
                                kernel_uid=confinement.uid)
    km.kernel_id = os.urandom(16).hex()
    km.kernel_log, km.confinement, km.cgroup = str(log), confinement, cgroup
    km.provisioner = ZygoteProvisioner(kernel_id=km.kernel_id, kernel_spec=km.kernel_spec, parent=km)
    km.provisioner.zygote = zygote
    return km
