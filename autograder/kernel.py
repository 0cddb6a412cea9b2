"""Execute a notebook in a fresh, sandboxed kernel, then observe its exercises there.

The notebook's own cells run first (check cells skipped: they only report), each under a time
limit; then one probe cell per exercise asks `autograder.probe` to call the exercise on the
requested cases and display the observations. The whole run has a time limit, the kernel's
process tree a memory limit, and each cell an output budget.
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Coroutine, Iterable, Mapping, Sequence

import nbformat
import psutil
from jupyter_client import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError

from .probe import MIMETYPE, encode_request
from .quiet import KERNEL_ENV
from .forkserver import Zygote, kill_all, zygote_kernel_manager
from .sandbox import kernel_manager
from .spec import Case

CELL_TIMEOUT_NAME = "CellTimeout"
MEMORY_POLL_S = 0.2
# How a timed-out cell shows up: the kernel reports the interrupt, or nbclient its own timeout error.
INTERRUPTED = (f"a notebook cell: {CELL_TIMEOUT_NAME}", "a notebook cell: KeyboardInterrupt")


@dataclass(frozen=True)
class Limits:
    """Limits on one submission: seconds per cell and per notebook, memory, output per cell."""

    cell_timeout: float = 60.0
    notebook_timeout: float = 600.0
    memory_mb: int = 4096
    output_bytes: int = 200_000
    sandbox: bool = True


@dataclass
class Execution:
    """What running a notebook and its probes produced. `status` is `graded`, `timeout` or `crashed`."""

    status: str = "graded"
    reason: str = ""
    device: str = "unknown"
    observations: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    stderr: str = ""
    cell_errors: list[str] = field(default_factory=list)


def is_check_cell(cell: Mapping[str, Any]) -> bool:
    """nbgrader's autograder-test cells: graded, not a solution. They report; they define nothing."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) and not meta.get("solution")


def runnable_notebook(nb: nbformat.NotebookNode, assignment: str,
                      cases_by_exercise: Mapping[str, Sequence[Case]], nonce: str) -> nbformat.NotebookNode:
    """The notebook's code cells minus check cells, plus one probe cell per exercise."""
    cells = [nbformat.v4.new_code_cell(c.source) for c in nb.cells
             if c.cell_type == "code" and not is_check_cell(c)]
    for ex_id, cases in cases_by_exercise.items():
        request = encode_request({ex_id: cases})
        cells.append(nbformat.v4.new_code_cell(
            "import autograder.probe as _autograder_probe\n"
            f"_autograder_probe.emit(globals(), {assignment!r}, {request!r}, {nonce!r})",
            metadata={"autograder_probe": ex_id}))
    return nbformat.v4.new_notebook(cells=cells, metadata=nb.get("metadata", {}))


def kernel_env(device_env: Mapping[str, str] = {}) -> dict[str, str]:
    """The environment a graded kernel starts with: ours, the quiet-TensorFlow settings, its device."""
    env = dict(os.environ)
    env.update({k: env.get(k, v) for k, v in KERNEL_ENV.items()})
    env.update(device_env)
    return env


class KernelStuck(Exception):
    """Two cells in a row ran over their limit: the kernel ignores interrupts."""


class CappedClient(NotebookClient):
    """A notebook client that keeps at most `output_bytes` of output per cell (observations exempt)
    and counts the cells that ran over their time limit."""

    def __init__(self, nb: nbformat.NotebookNode, output_bytes: int, **kwargs: Any):
        super().__init__(nb, **kwargs)
        self.output_bytes = output_bytes
        self.spent: dict[int, int] = {}
        self.timeouts = 0

    async def _async_handle_timeout(self, timeout, cell=None):  # noqa: D102 (nbclient's hook)
        self.timeouts += 1
        return await super()._async_handle_timeout(timeout, cell)

    def output(self, outs, msg, display_id, cell_index):  # noqa: D102 (nbclient's hook)
        content = msg.get("content", {})
        size = len(json.dumps(content, default=str))
        if MIMETYPE not in content.get("data", {}):
            self.spent[cell_index] = self.spent.get(cell_index, 0) + size
            if self.spent[cell_index] > self.output_bytes:
                if not any(o.get("name") == "truncated" for o in outs):
                    outs.append(nbformat.v4.new_output("stream", name="truncated",
                                                       text=f"[output over {self.output_bytes} bytes dropped]"))
                return None
        return super().output(outs, msg, display_id, cell_index)


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
    runnable = runnable_notebook(nb, assignment, cases_by_exercise, nonce)
    execution = Execution()
    with tempfile.TemporaryDirectory(prefix="tfcourse-") as base:
        km, log_path = _kernel_manager(Path(base), hidden, limits, zygote)
        client = CappedClient(
            runnable, limits.output_bytes, km=km, timeout=limits.cell_timeout, allow_errors=True,
            interrupt_on_timeout=True, shutdown_kernel="immediate",
            error_on_timeout={"ename": CELL_TIMEOUT_NAME, "evalue": f"a cell ran over {limits.cell_timeout:g} s",
                              "traceback": []},
            resources={"metadata": {"path": base}})
        run_coroutine(_run(client, runnable, limits, execution, kernel_env(device_env), log_path, base))
    _collect(runnable, nonce, execution)
    return execution


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


def _kernel_manager(base: Path, hidden: Iterable[Path], limits: Limits,
                    zygote: Zygote | None) -> tuple[AsyncKernelManager, Path]:
    """The kernel's manager and the file its output goes to."""
    if zygote is not None:
        return zygote_kernel_manager(zygote), zygote.rundir / "kernel.log"
    rundir = base / "run"
    rundir.mkdir(mode=0o700)
    return kernel_manager(rundir, hidden, sandbox=limits.sandbox), rundir / "kernel.log"


async def _run(client: NotebookClient, nb: nbformat.NotebookNode, limits: Limits,
               execution: Execution, env: dict[str, str], log_path: Path, cwd: str) -> None:
    """Start the kernel, run every cell under the limits, and always kill the kernel at the end."""
    km = client.km
    with open(log_path, "wb") as log:
        try:
            async with client.async_setup_kernel(env=env, cwd=cwd,
                                                 stdout=log, stderr=log):
                watchdog = asyncio.ensure_future(_watch_memory(km, limits.memory_mb, execution))
                try:
                    await asyncio.wait_for(_run_cells(client, nb), limits.notebook_timeout)
                finally:
                    watchdog.cancel()
        except (asyncio.TimeoutError, TimeoutError):
            execution.status, execution.reason = "timeout", f"the notebook ran over {limits.notebook_timeout:g} s"
        except KernelStuck:
            execution.status = "timeout"
            execution.reason = (f"cells ran over {limits.cell_timeout:g} s and the kernel ignored the interrupt, "
                                "so it was stopped")
        except (DeadKernelError, RuntimeError):  # RuntimeError: "Kernel died before replying"
            if execution.status == "graded":
                execution.status, execution.reason = "crashed", "the kernel died: " + _tail(log_path)
        finally:
            if km.has_kernel:
                await km.shutdown_kernel(now=True)
            await _cleanup_client(client)


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


async def _watch_memory(km, limit_mb: int, execution: Execution) -> None:
    """Kill the kernel's whole process tree once it holds more than `limit_mb` of memory."""
    while True:
        await asyncio.sleep(MEMORY_POLL_S)
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
            execution.status = "crashed"
            execution.reason = f"the kernel went over the memory limit of {limit_mb} MB and was stopped"
            kill_all(reversed(tree))
            return


def _tail(path: Path, chars: int = 300) -> str:
    try:
        text = path.read_text(errors="replace").strip()
    except OSError:
        return "(no kernel log)"
    lines = [line for line in text.splitlines() if not line.startswith(("I0000", "W0000", "WARNING: All log"))]
    return ("..." + "\n".join(lines)[-chars:]) if lines else "(the kernel printed nothing)"


def _collect(nb: nbformat.NotebookNode, nonce: str, execution: Execution) -> None:
    """Read observations from the probe cells' output, and errors from the others'."""
    for cell in nb.cells:
        ex_id = cell.metadata.get("autograder_probe")
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                execution.cell_errors.append(_error_line(output, ex_id))
            elif ex_id and MIMETYPE in output.get("data", {}):
                _read_probe_output(output.data[MIMETYPE], nonce, execution)
    if execution.status == "graded" and any(e.startswith(INTERRUPTED) for e in execution.cell_errors):
        execution.reason = "a notebook cell ran over its time limit and was interrupted"


def _error_line(output: Mapping[str, Any], ex_id: str | None) -> str:
    where = f"probe of {ex_id}" if ex_id else "a notebook cell"
    return f"{where}: {output.get('ename')}: {str(output.get('evalue'))[:300]}"


def _read_probe_output(payload: Mapping[str, Any], nonce: str, execution: Execution) -> None:
    if payload.get("nonce") != nonce:
        return
    execution.device = payload["device"]
    execution.stderr += payload["stderr"]
    execution.observations.update(payload["exercises"])
