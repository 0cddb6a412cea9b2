"""Execute a notebook in a fresh, sandboxed kernel, then observe its exercises there.

The notebook's own cells run first (check cells skipped: they only report), each under a time
limit; then probe cells ask `autograder.inkernel.probe` to call each exercise on the requested cases
and display the observations: first one cell per exercise with its public cases, then one per exercise
with its hidden ones. So no hidden input is in the kernel until every public observation is made, and
nothing shown of a public case (a value, an error message) can carry one. The whole run has a time limit, the kernel's
process tree a memory limit, and each cell an output budget.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Coroutine, Iterable, Mapping, Sequence

import nbformat
import psutil
import zmq
from nbclient import NotebookClient

from autograder import COURSE_ROOT
from autograder.course.spec import Case
from autograder.engine.cgroups import KernelCgroup
from autograder.engine.cgroups import join as join_cgroup
from autograder.engine.forkserver import Zygote, kill_all, zygote_kernel_manager
from autograder.engine.jail import MAX_PROCESSES
from autograder.engine.limits import MAX_MESSAGE_BYTES, MAX_OBSERVATION_BYTES, Limits
from autograder.engine.nanny import TAG, kill_descendants, kill_tagged
from autograder.engine.owner import owner_tag
from autograder.engine.sandbox import (
    Confinement,
    SandboxedKernelManager,
    kernel_environment,
    kernel_manager,
    lock_rundir,
    make_rundir,
    new_kernel_uid,
)
from autograder.engine.untrusted import capped, exception_name, read_tail, size_of
from autograder.inkernel.output import NOTICE_START
from autograder.inkernel.probe import MIMETYPE, MISSING, encode_request

CELL_TIMEOUT_NAME = "CellTimeout"
MEMORY_POLL_S = 0.2
DEATH_GRACE_S = 1.0  # after a dropped connection, how long a kernel that died takes to look dead
# How a timed-out cell shows up: the kernel reports the interrupt, or nbclient its own timeout error.
INTERRUPTED = (f"a notebook cell: {CELL_TIMEOUT_NAME}", "a notebook cell: KeyboardInterrupt")
DEVICE = re.compile(r"(CPU|GPU:\d{1,3})")  # what `probe.device_name` answers
MAX_STDERR_CHARS = 64_000
# The grader's words for a probe cell that showed more than one observation: only a submission
# that rewrites or adds to the probe's output does that.
SECOND_OBSERVATION = "a probe cell showed more than one set of observations"


@dataclass
class Execution:
    """What running a notebook and its probes produced. `status` is `graded`, `timeout` or `crashed`."""

    status: str = "graded"
    reason: str = ""
    device: str = "unknown"
    observations: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    stderr: str = ""
    cell_errors: list[str] = field(default_factory=list)
    tampered: list[str] = field(default_factory=list)  # the grader's words for what was tampered with
    kernel_s: float = 0.0  # the kernel's time on the notebook's cells and probes, by its own clock: for benches


def is_check_cell(cell: Mapping[str, Any]) -> bool:
    """nbgrader's autograder-test cells: graded, not a solution. They report; they define nothing."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) and not meta.get("solution")


def probe_requests(cases_by_exercise: Mapping[str, Sequence[Case]]) -> list[tuple[str, str, list[Case]]]:
    """`(exercise id, "public" or "hidden", cases)` per probe cell: every exercise's public cases
    first, then every exercise's hidden ones."""
    return [(ex_id, phase, picked) for phase in ("public", "hidden")
            for ex_id, cases in cases_by_exercise.items()
            if (picked := [c for c in cases if c.public == (phase == "public")])]


@lru_cache(maxsize=None)
def released_sources(assignment: str) -> frozenset[str]:
    """The sources of the code cells of the released notebook(s) in `notebooks/<assignment>/`: the
    instructor's code (empty for an assignment without a release)."""
    return frozenset(cell.source for path in sorted((COURSE_ROOT / "notebooks" / assignment).glob("*.ipynb"))
                     for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code")


def cell_file_hashes(sources: Iterable[str]) -> list[int]:
    """What ipykernel names the file of a cell with each of `sources` (`<tmp>/ipykernel_<pid>/<hash>.py`):
    the audit hook lets the instructor's cells, known by these names, do what a demo needs."""
    from ipykernel.compiler import get_tmp_hash_seed, murmur2_x86

    return sorted(murmur2_x86(source, get_tmp_hash_seed()) for source in sources)


def first_cell_source(assignment: str, output_bytes: int) -> str:
    """The grader's first cell, before any submission code: the integrity snapshot, each cell's
    output capped at `output_bytes` where it is written (`output`), the working folder on the import
    path, and (last) the audit hook."""
    instructor = cell_file_hashes(released_sources(assignment))
    return (f"import autograder.inkernel.probe, autograder.course.lessons.l{assignment}, autograder.inkernel.integrity\n"
            "import autograder.inkernel.audit, autograder.inkernel.output\n"
            "autograder.inkernel.integrity.snapshot()\n"
            f"autograder.inkernel.output.cap_output({output_bytes!r})\n"
            # As in JupyterLab, a module the student writes in the working folder (%%writefile) imports:
            # the kernel runs under `python -I`, whose safe path leaves the folder out.
            "__import__('sys').path.insert(0, __import__('os').getcwd())\n"
            f"autograder.inkernel.audit.install({instructor!r})")


def runnable_notebook(nb: nbformat.NotebookNode, assignment: str, cases_by_exercise: Mapping[str, Sequence[Case]],
                      nonce: str, output_bytes: int) -> nbformat.NotebookNode:
    """The grader's first cell (`first_cell_source`), the notebook's code cells minus check cells,
    then the probe cells (`probe_requests`)."""
    snapshot = nbformat.v4.new_code_cell(first_cell_source(assignment, output_bytes),
                                         metadata={"autograder_snapshot": True})
    cells = [snapshot] + [nbformat.v4.new_code_cell(c.source) for c in nb.cells
                          if c.cell_type == "code" and not is_check_cell(c)]
    requests = probe_requests(cases_by_exercise)
    for index, (ex_id, phase, cases) in enumerate(requests):
        request = encode_request({ex_id: cases})
        verify = index in (0, len(requests) - 1)  # before the first observation, and after all but the last
        cells.append(nbformat.v4.new_code_cell(
            "import autograder.inkernel.probe as _autograder_probe\n"
            f"_autograder_probe.emit(globals(), {assignment!r}, {request!r}, {nonce!r}, verify={verify})",
            metadata={"autograder_probe": ex_id, "autograder_phase": phase}))
    return nbformat.v4.new_notebook(cells=cells, metadata=nb.get("metadata", {}))


class KernelStuck(Exception):
    """Two cells in a row ran over their limit: the kernel ignores interrupts."""


class CappedClient(NotebookClient):
    """A notebook client that keeps at most `output_bytes` of output per cell, notes the cells whose
    output was cut (`cut`: here, or by the kernel's own cap, `inkernel.output`), and counts the cells
    that ran over their time limit. Observations (our mimetype) are exempt only in the grader's own
    probe cells (from `first_probe_cell` on), and only up to `MAX_OBSERVATION_BYTES`."""

    def __init__(self, nb: nbformat.NotebookNode, output_bytes: int, **kwargs: Any):
        super().__init__(nb, **kwargs)
        self.output_bytes = output_bytes
        self.first_probe_cell = len(nb.cells)
        self.spent: dict[int, int] = {}
        self.cut: set[int] = set()
        self.timeouts = 0

    async def _async_handle_timeout(self, timeout, cell=None):  # noqa: D102 (nbclient's hook)
        self.timeouts += 1
        return await super()._async_handle_timeout(timeout, cell)

    def _update_display_id(self, display_id, msg):
        """Never rewrite an output already shown. nbclient would replace every earlier output with the
        same `display_id` (`update_display_data`, or a later display reusing the id): a hidden probe
        cell could then rewrite what a public one showed. Each cell keeps only its own messages."""

    def handle_comm_msg(self, outs, msg, cell_index):
        """Widgets' messages are not followed: an output widget would route a cell's output elsewhere."""

    def output(self, outs, msg, display_id, cell_index):  # noqa: D102 (nbclient's hook)
        content = msg.get("content", {})
        size = output_size(content)
        observation = MIMETYPE in content.get("data", {}) and cell_index >= self.first_probe_cell
        if NOTICE_START in str(content.get("text", "")):  # the kernel's own cap dropped some
            self.cut.add(cell_index)
        if not observation or size > MAX_OBSERVATION_BYTES:
            self.spent[cell_index] = self.spent.get(cell_index, 0) + size
            if self.spent[cell_index] > self.output_bytes or observation:
                self.cut.add(cell_index)
                if not any(o.get("name") == "truncated" for o in outs):
                    outs.append(nbformat.v4.new_output("stream", name="truncated",
                                                       text=f"[output over {self.output_bytes} bytes dropped]"))
                return None
        return super().output(outs, msg, display_id, cell_index)


def output_size(content: Mapping[str, Any]) -> int:
    """What one output message costs the cell's budget: a stream's text, as the kernel's own cap
    counts it, or any other message's JSON (at most `MAX_MESSAGE_BYTES` of it reaches here)."""
    text = content.get("text")
    if content.get("name") in ("stdout", "stderr") and isinstance(text, str):
        return len(text)
    return len(json.dumps(content, default=str))


@dataclass
class Launch:
    """One kernel about to start: its manager, its run folder, its log, its cgroup (or None)."""

    km: SandboxedKernelManager
    rundir: Path
    log: Path
    cgroup: KernelCgroup | None
    zygote: Zygote | None = None
    opens_log: bool = True  # False when the zygote opens the log itself
    startup_log_bytes: int | None = None  # how much of the log was written before any cell ran
    tag: str = field(default_factory=lambda: secrets.token_hex(16))  # in the environment of an unsandboxed kernel

    def stdio(self, log_file) -> dict[str, Any]:
        """What the kernel's process is started with: its log as stdout/stderr, and its cgroup."""
        kwargs: dict[str, Any] = {"stdout": log_file, "stderr": log_file} if self.opens_log else {}
        if self.cgroup is not None and self.zygote is None:
            kwargs["preexec_fn"] = join_cgroup(self.cgroup)
        return kwargs


def execute_and_observe(nb: nbformat.NotebookNode, assignment: str,
                        cases_by_exercise: Mapping[str, Sequence[Case]], limits: Limits = Limits(),
                        hidden: Iterable[Path] = (), device_env: Mapping[str, str] = {},
                        zygote: Zygote | None = None) -> Execution:
    """Run `nb` in a fresh sandboxed kernel, then observe every exercise on its cases.

    `hidden` names extra paths (results, other submissions) the kernel must not see; `device_env`
    pins the kernel's device (see `devices.DeviceSlots`). With a `zygote`, the kernel is forked
    from it (TensorFlow already imported) instead of started from scratch.
    """
    nonce = secrets.token_hex(16)
    runnable = runnable_notebook(nb, assignment, cases_by_exercise, nonce, limits.output_bytes)
    execution = Execution()
    with tempfile.TemporaryDirectory(prefix=f"tfcourse-{owner_tag()}-") as base:
        launch = _launch(Path(base), hidden, limits, zygote)
        client = CappedClient(
            runnable, limits.output_bytes, km=launch.km, timeout=limits.cell_timeout, allow_errors=True,
            interrupt_on_timeout=True, shutdown_kernel="immediate",
            error_on_timeout={"ename": CELL_TIMEOUT_NAME, "evalue": f"a cell ran over {limits.cell_timeout:g} s",
                              "traceback": []},
            resources={"metadata": {"path": base}})
        client.first_probe_cell = min(i for i, c in enumerate(runnable.cells) if "autograder_probe" in c.metadata)
        try:
            run_coroutine(_run(client, runnable, limits, execution, kernel_environment(device_env), launch, base))
        finally:
            _clean_up(launch)
    _collect(runnable, nonce, execution)
    _note_cut_output(client, execution)
    return execution


def _note_cut_output(client: CappedClient, execution: Execution) -> None:
    """One line in the reason when some cell's output went over its cap and the rest was dropped."""
    if client.cut:
        note = (f"output over {client.output_bytes} bytes was cut in {len(client.cut)} cell(s): "
                "the rest of it was dropped, unread")
        execution.reason = "; ".join(r for r in (execution.reason, note) if r)


def run_coroutine(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run `coroutine` to the end, in a thread of its own if this one already runs an event loop
    (a Jupyter kernel, or a test tool such as Playwright), where `asyncio.run` would refuse."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(coroutine)
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, coroutine).result()


def _launch(base: Path, hidden: Iterable[Path], limits: Limits, zygote: Zygote | None) -> Launch:
    """Everything one kernel needs before it starts: a cgroup, a run folder, a log, a manager.

    Sandboxed kernels run as a uid of their own (`jail`); the run folder is theirs until their
    sockets exist (`_run` then locks it). Logs live where no kernel can replace them.
    """
    cgroup = KernelCgroup.create(limits.memory_mb * 2**20, MAX_PROCESSES)
    if not limits.sandbox:
        rundir = make_rundir(None)
        return Launch(kernel_manager(rundir, hidden, None), rundir, base / "kernel.log", cgroup)
    confinement = Confinement(new_kernel_uid(), limits.scratch_mb * 2**20, limits.file_mb * 2**20)
    if zygote is not None:
        rundir, log = zygote.kernel_paths(confinement.uid)
        km = zygote_kernel_manager(zygote, rundir, log, confinement, cgroup)
        return Launch(km, rundir, log, cgroup, zygote, opens_log=False)
    rundir = make_rundir(confinement.uid)
    return Launch(kernel_manager(rundir, hidden, confinement), rundir, base / "kernel.log", cgroup)


def _clean_up(launch: Launch) -> None:
    """Kill whatever the kernel left, through its cgroup, and remove its run folder and log.

    A zygote whose kernel's leftovers cannot be shown gone is closed (the pool starts another).
    Without a cgroup, the process started (the nanny) and all it left are killed, however the kernel
    was stopped."""
    launched = launch.km.launched
    if launched is not None and launch.cgroup is None and launch.zygote is None:
        kill_descendants(launched)
        with contextlib.suppress(psutil.Error):
            launched.kill()
        kill_tagged(launch.tag)
    if launch.cgroup is not None:
        if not launch.cgroup.kill_all() and launch.zygote is not None:
            launch.zygote.close()
        launch.cgroup.remove()
    shutil.rmtree(launch.rundir, ignore_errors=True)
    if launch.zygote is not None:
        with contextlib.suppress(OSError):
            launch.log.unlink()


async def _run(client: NotebookClient, nb: nbformat.NotebookNode, limits: Limits,
               execution: Execution, env: dict[str, str], launch: Launch, cwd: str) -> None:
    """Start the kernel, run every cell under the limits, and always kill the kernel at the end."""
    km = client.km
    with open(launch.log, "wb") if launch.opens_log else contextlib.nullcontext() as log:
        try:
            tagged = env if limits.sandbox else {**env, TAG: launch.tag}
            async with client.async_setup_kernel(env=tagged, cwd=cwd, **launch.stdio(log)):
                launch.startup_log_bytes = size_of(launch.log)
                if km.kernel_uid is not None:
                    lock_rundir(launch.rundir)
                watchdog = asyncio.ensure_future(_watch_memory(km, limits.memory_mb, execution, launch.cgroup))
                try:
                    await _run_watched(_run_cells(client, nb), client, limits.notebook_timeout)
                finally:
                    watchdog.cancel()
        except (asyncio.TimeoutError, TimeoutError):
            execution.status, execution.reason = "timeout", f"the notebook ran over {limits.notebook_timeout:g} s"
        except OutputOverLimit:
            execution.status = "crashed"
            execution.reason = (f"the kernel sent one message over {MAX_MESSAGE_BYTES // 1_000_000} MB (output over "
                                "the limit), so its connection was dropped and it was stopped: nothing after that "
                                "point was observed")
        except KernelStuck:
            execution.status = "timeout"
            execution.reason = (f"cells ran over {limits.cell_timeout:g} s and the kernel ignored the interrupt, "
                                "so it was stopped")
        except Exception as exc:  # noqa: BLE001  (a dead kernel, or one that never started: a result, not a crash)
            if execution.status == "graded":
                execution.status, execution.reason = "crashed", _death_reason(launch, limits, exc)
        finally:
            if km.launched is not None and not limits.sandbox:
                kill_descendants(km.launched)  # before the nanny, whose orphans they would become
            if km.has_kernel:
                await km.shutdown_kernel(now=True)
            await _cleanup_client(client)


def _death_reason(launch: Launch, limits: Limits, exc: Exception) -> str:
    """Why the kernel is gone, in the grader's words. Only what the kernel printed while starting,
    before any of the submission's code ran, is quoted: later text could carry anything."""
    if launch.cgroup is not None and launch.cgroup.memory_exceeded():
        return f"the kernel went over the memory limit of {limits.memory_mb} MB and was stopped"
    if launch.startup_log_bytes is None:
        return f"the kernel did not start ({type(exc).__name__}); it said: " + _startup_words(launch.log, None)
    return ("the kernel died while running the notebook (it exited, was killed, or crashed in native "
            "code), so the exercises after that point were never observed")


class OutputOverLimit(Exception):
    """ZeroMQ dropped the kernel's IOPub connection while the kernel lived: it sent a message over
    `MAX_MESSAGE_BYTES`. ZeroMQ does not reconnect after that, so no later output could arrive."""


async def _watch_connection(client: NotebookClient) -> None:
    """Raise `OutputOverLimit` once the IOPub connection is dropped while the kernel is alive. A kernel
    that died drops it too: that is nbclient's to report, so this then waits until cancelled."""
    socket = client.kc.iopub_channel.socket
    monitor = socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
    try:
        await monitor.recv_multipart()
        await asyncio.sleep(DEATH_GRACE_S)
        if await client.km.is_alive():
            raise OutputOverLimit
        await asyncio.Event().wait()
    finally:
        socket.disable_monitor()
        monitor.close(linger=0)


async def _run_watched(work: Coroutine[Any, Any, None], client: NotebookClient, timeout: float) -> None:
    """Await `work` for at most `timeout` seconds (then `TimeoutError`), unless the kernel's
    connection is dropped first (`_watch_connection`: then `OutputOverLimit`). Either way, both
    are stopped before this returns."""
    task, connection = asyncio.ensure_future(work), asyncio.ensure_future(_watch_connection(client))
    try:
        done, _ = await asyncio.wait({task, connection}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            return task.result()
        if connection in done:
            connection.result()
        raise TimeoutError
    finally:
        for pending in (task, connection):
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pending


async def _run_cells(client: CappedClient, nb: nbformat.NotebookNode) -> None:
    streak = 0
    for index, cell in enumerate(nb.cells):
        before = client.timeouts
        await client.async_execute_cell(cell, index)
        streak = streak + 1 if client.timeouts > before else 0
        if streak == 2:
            raise KernelStuck


async def _cleanup_client(client: NotebookClient) -> None:
    if client.kc is not None:
        client.kc.stop_channels()
        client.kc = None


async def _watch_memory(km, limit_mb: int, execution: Execution, cgroup: KernelCgroup | None) -> None:
    """Stop the kernel once it is over `limit_mb`: its cgroup's OOM killer has acted, or (without a
    cgroup) the resident memory of its process tree is over the limit."""
    while True:
        await asyncio.sleep(MEMORY_POLL_S)
        if cgroup is not None:
            if cgroup.memory_exceeded():
                _over_memory(execution, limit_mb)
                cgroup.kill_all()
                return
            continue
        process = getattr(km.provisioner, "process", None) if km.provisioner else None
        if process is None:
            continue
        try:
            root = psutil.Process(process.pid)
            tree = [root, *root.children(recursive=True)]
            rss = sum(p.memory_info().rss for p in tree)
        except psutil.Error:
            continue
        if rss > limit_mb * 2**20:
            _over_memory(execution, limit_mb)
            kill_all(reversed(tree))
            return


def _over_memory(execution: Execution, limit_mb: int) -> None:
    execution.status = "crashed"
    execution.reason = f"the kernel went over the memory limit of {limit_mb} MB and was stopped"


def _startup_words(path: Path, end: int | None, chars: int = 600) -> str:
    text = read_tail(path, 64 * 1024, end)
    if text is None:
        return "(no kernel log)"
    noise = ("I0000", "W0000", "WARNING: All log", "To enable the following")
    lines = [line for line in text.strip().splitlines() if not line.startswith(noise)]
    return ("..." + "\n".join(lines)[-chars:]) if lines else "(the kernel printed nothing)"


def _collect(nb: nbformat.NotebookNode, nonce: str, execution: Execution) -> None:
    """Read observations from the probe cells' output, and errors from the others'. An exercise
    counts as observed only when each of its probe cells (public, hidden) gave its observations."""
    parts: dict[str, dict[str, list]] = {}
    expected: dict[str, set[str]] = {}
    for cell in nb.cells:
        if not cell.metadata.get("autograder_snapshot"):  # start-up: a warm zygote did it before forking
            execution.kernel_s += _cell_seconds(cell)
        ex_id, phase = cell.metadata.get("autograder_probe"), cell.metadata.get("autograder_phase")
        if ex_id:
            expected.setdefault(ex_id, set()).add(phase)
        payloads = []
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                execution.cell_errors.append(_error_line(output, ex_id))
            elif ex_id and MIMETYPE in output.get("data", {}) and _is_ours(output.data[MIMETYPE], nonce):
                payloads.append(output.data[MIMETYPE])
        if len(payloads) > 1:
            execution.tampered = sorted({*execution.tampered, SECOND_OBSERVATION})
        elif payloads:
            observed = _read_probe_output(payloads[0], ex_id, execution)
            if observed is not None:
                parts.setdefault(ex_id, {})[phase] = observed
    for ex_id, phases in expected.items():
        if set(parts.get(ex_id, {})) == phases:
            execution.observations[ex_id] = [o for phase in ("public", "hidden") for o in parts[ex_id].get(phase, [])]
    if execution.status == "graded" and any(e.startswith(INTERRUPTED) for e in execution.cell_errors):
        execution.reason = "a notebook cell ran over its time limit and was interrupted"


def _cell_seconds(cell: Mapping[str, Any]) -> float:
    """From the kernel's receipt of a cell to its reply (nbclient's timing metadata), 0 if unknown."""
    timing = cell.get("metadata", {}).get("execution", {})
    try:
        start, end = (datetime.fromisoformat(timing[k].replace("Z", "+00:00"))
                      for k in ("iopub.execute_input", "shell.execute_reply"))
    except (KeyError, TypeError, ValueError):
        return 0.0
    return max(0.0, (end - start).total_seconds())


def _error_line(output: Mapping[str, Any], ex_id: str | None) -> str:
    """One line per failed cell. A probe cell's error is text from the kernel, produced while hidden
    cases may have been running, so its type is named only when it is the grader's own doing (a time
    limit, the interrupt that enforces it, a missing definition: `exception_name`). A notebook cell's error comes before any case ran: its text, capped."""
    if ex_id:
        return f"probe of {ex_id}: {exception_name(output.get('ename'), (CELL_TIMEOUT_NAME, MISSING, 'KeyboardInterrupt'))}"
    return f"a notebook cell: {capped(output.get('ename'), 80)}: {capped(output.get('evalue'), 300)}"


def _is_ours(payload: Any, nonce: str) -> bool:
    return isinstance(payload, Mapping) and payload.get("nonce") == nonce


def _read_probe_output(payload: Mapping[str, Any], ex_id: str, execution: Execution) -> list | None:
    """The observations of `ex_id` in one probe cell's payload (None when it has none). Every field
    is checked for its type and capped: the payload comes from the kernel."""
    device = payload.get("device")
    if isinstance(device, str) and DEVICE.fullmatch(device):
        execution.device = device
    if isinstance(payload.get("stderr"), str):
        execution.stderr = capped(execution.stderr + payload["stderr"], MAX_STDERR_CHARS)
    if payload.get("tampered"):  # the in-kernel check's own names stay out: they are kernel text
        execution.tampered = sorted({*execution.tampered, "a function the grader relies on was replaced"})
    exercises = payload.get("exercises")
    observed = exercises.get(ex_id) if isinstance(exercises, Mapping) else None
    if isinstance(observed, list) and all(isinstance(o, Mapping) for o in observed):
        return observed
    return None
