"""Execute a notebook in a fresh kernel, then observe its exercises there.

The notebook's own cells run first (check cells skipped: they only report), each under a time
limit; then one probe cell per exercise asks `autograder.probe` to call the exercise on the
requested cases and print the observations. The whole run has a time limit of its own.
"""
from __future__ import annotations

import asyncio
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError

from .probe import MIMETYPE, encode_request
from .quiet import KERNEL_ENV
from .spec import Case

CELL_TIMEOUT_NAME = "CellTimeout"


@dataclass(frozen=True)
class Limits:
    """Time limits, in seconds, for one cell and for the whole notebook."""

    cell_timeout: float = 60.0
    notebook_timeout: float = 600.0


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


def kernel_env() -> dict[str, str]:
    """The environment a graded kernel starts with: ours plus the quiet-TensorFlow settings."""
    env = dict(os.environ)
    env.update({k: env.get(k, v) for k, v in KERNEL_ENV.items()})
    return env


def execute_and_observe(nb: nbformat.NotebookNode, assignment: str,
                        cases_by_exercise: Mapping[str, Sequence[Case]], workdir: Path,
                        limits: Limits = Limits()) -> Execution:
    """Run `nb` in a fresh kernel in `workdir`, then observe every exercise on its cases."""
    nonce = secrets.token_hex(16)
    runnable = runnable_notebook(nb, assignment, cases_by_exercise, nonce)
    client = NotebookClient(
        runnable, timeout=limits.cell_timeout, allow_errors=True, interrupt_on_timeout=True,
        error_on_timeout={"ename": CELL_TIMEOUT_NAME, "evalue": f"a cell ran over {limits.cell_timeout:g} s",
                          "traceback": []},
        kernel_name="python3", resources={"metadata": {"path": str(workdir)}})
    execution = Execution()
    try:
        asyncio.run(asyncio.wait_for(_run_cells(client, runnable), limits.notebook_timeout))
    except (asyncio.TimeoutError, TimeoutError):
        execution.status, execution.reason = "timeout", f"the notebook ran over {limits.notebook_timeout:g} s"
    except DeadKernelError:
        execution.status, execution.reason = "crashed", "the kernel died (it exited, or ran out of memory)"
    _collect(runnable, nonce, execution)
    return execution


async def _run_cells(client: NotebookClient, nb: nbformat.NotebookNode) -> None:
    async with client.async_setup_kernel(env=kernel_env()):
        for index, cell in enumerate(nb.cells):
            await client.async_execute_cell(cell, index)


def _collect(nb: nbformat.NotebookNode, nonce: str, execution: Execution) -> None:
    """Read observations from the probe cells' output, and errors from the others'."""
    for cell in nb.cells:
        ex_id = cell.metadata.get("autograder_probe")
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                execution.cell_errors.append(_error_line(output, ex_id))
            elif ex_id and MIMETYPE in output.get("data", {}):
                _read_probe_output(output.data[MIMETYPE], nonce, execution)


def _error_line(output: Mapping[str, Any], ex_id: str | None) -> str:
    where = f"probe of {ex_id}" if ex_id else "a notebook cell"
    return f"{where}: {output.get('ename')}: {str(output.get('evalue'))[:300]}"


def _read_probe_output(payload: Mapping[str, Any], nonce: str, execution: Execution) -> None:
    if payload.get("nonce") != nonce:
        return
    execution.device = payload["device"]
    execution.stderr += payload["stderr"]
    execution.observations.update(payload["exercises"])
