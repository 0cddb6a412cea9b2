"""Lesson 05's TensorBoard, inline in the students' JupyterLab: the cells that write two runs and
call `%tensorboard` show TensorBoard's page in the output, its scalars dashboard lists both runs
and the `summaries/loss` tag, and the notebook's own clean-up cell stops the server it started.

Only the six cells the TensorBoard section needs run (not Run All): the lesson's other cells are
covered by the grading tests, and each full run costs a minute of a 2-core machine.
"""
from __future__ import annotations

import re

import psutil
import pytest

from tests.e2e.test_student_browser import cell_with_source, code_cells, fail_on_dialog, output_text

NOTEBOOK = "05_checkpoints_and_summaries/checkpoints_and_summaries.ipynb"
# The cells to run, in order, each named by a line of its source: section 7's run, then the optional
# section's two runs beside it, then the server (started last, so that its first page lists all three).
CELLS = ["from autograder.check import Checker",              # imports, WORK, new_dir
         "def build_regression(",                             # the model and X_DATA
         'LOG_ROOT = new_dir("logs")',                        # section 7's run, and LOG_ROOT
         "for learning_rate in (0.002, 0.02):",               # two runs, one folder each
         "%tensorboard --logdir",                             # the server and its iframe
         "tensorboard_manager.get_all()"]                     # stop the server
RUNS = ("lr_0.002", "lr_0.02")
CELL_TIMEOUT = 180_000  # ms; TensorBoard's server imports TensorFlow before it answers (5-20 s here)

pytestmark = pytest.mark.e2e
expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def tensorboards_of(lab) -> list[psutil.Process]:
    """TensorBoard servers started under this lab's server (by its kernel)."""
    found = []
    for p in psutil.Process(lab.process.pid).children(recursive=True):
        try:
            if any(part.endswith("tensorboard") for part in p.cmdline()[:2]):
                found.append(p)
        except psutil.NoSuchProcess:
            pass
    return found


def is_zombie(p: psutil.Process) -> bool:
    try:
        return p.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True  # gone altogether


def run_cell(page, text: str):
    """Run the one code cell containing `text` (Ctrl+Enter) and wait for its execution count."""
    cell = cell_with_source(page, text)
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+Enter")
    expect(cell.locator(".jp-InputPrompt")).to_have_text(re.compile(r"\[\d+\]"), timeout=CELL_TIMEOUT)
    fail_on_dialog(page)
    assert "Traceback" not in output_text(cell), output_text(cell)
    return cell


def test_tensorboard_shows_both_runs_inline(lesson05_lab, page, artifacts):
    page.goto(lesson05_lab.tree(NOTEBOOK), wait_until="domcontentloaded")
    code_cells(page).first.locator(".cm-content").wait_for(timeout=120_000)
    expect(page.locator(".jp-Toolbar-kernelName").first).to_have_text(re.compile("Python 3"), timeout=120_000)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(timeout=120_000)
    servers = []
    try:
        for text in CELLS[:4]:
            run_cell(page, text)
        runs = output_text(cell_with_source(page, CELLS[3]))
        assert all(run in runs for run in RUNS), runs

        board = run_cell(page, CELLS[4])
        assert "ERROR" not in output_text(board), output_text(board)
        servers = tensorboards_of(lesson05_lab)
        assert servers, "no TensorBoard server under the lab's kernel"
        frame = board.frame_locator("iframe[id^='tensorboard-frame']")
        frame.get_by_text("Scalars", exact=True).first.click(timeout=CELL_TIMEOUT)  # show scalar cards only
        for run in RUNS:  # the runs selector of the scalars dashboard
            expect(frame.get_by_text(run, exact=True).first).to_be_visible(timeout=CELL_TIMEOUT)
        expect(frame.get_by_text("summaries/loss", exact=True).first).to_be_visible(timeout=CELL_TIMEOUT)  # its card
        board.scroll_into_view_if_needed()
        board.screenshot(path=str(artifacts / "tensorboard_inline.png"))

        stop = run_cell(page, CELLS[5])
        assert "stopped the TensorBoard server" in output_text(stop), output_text(stop)
        gone, alive = psutil.wait_procs(servers, timeout=30)
        # Stopped, it stays a zombie until the kernel that started it (and never waits for it) exits.
        running = [p.pid for p in alive if not is_zombie(p)]
        assert not running, f"the clean-up cell left TensorBoard running: pids {running}"
    finally:
        for p in {*servers, *tensorboards_of(lesson05_lab)}:  # whatever failed, no server outlives the test
            if p.is_running() and not is_zombie(p):
                p.kill()
