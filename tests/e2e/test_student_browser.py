"""The student path in a real browser: open the lesson in JupyterLab, run it, read the checks, fix one.

Catches what kernel-level tests cannot: a kernel that is not the venv's (no autograder, no
TensorFlow), a check cell that shows a raw `<Report object at 0x...>` instead of its HTML, and a
fix typed into the notebook that the check does not pick up. Screenshots go to tests/e2e/artifacts/.
"""
from __future__ import annotations

import json
import re
import sys
import urllib.request

import psutil
import pytest

NOTEBOOK = "02_rebuild_vs_feed/rebuild_vs_feed.ipynb"
CHECKS = ["threshold_judge", "threshold_graph", "variable_judge", "retune", "scale_all"]
RETUNE_FIX = "def retune(options, threshold):\n    options.update(threshold=threshold)"
RUN_TIMEOUT = 240_000  # ms for one run through the notebook; ~20-40 s on an idle 2-core machine
RAW_REPR = re.compile(r"<autograder\.[\w.]+ object at 0x")

pytestmark = pytest.mark.e2e
expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

# JS: true once `index`'s prompt shows a number, no cell is queued or running ([*]) and the kernel is idle.
SETTLED = """([index]) => {
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .map(p => p.textContent.trim());
  const status = document.querySelector('.jp-Notebook-ExecutionIndicator');
  return /\\[\\d+\\]/.test(prompts[index] || '') && !prompts.some(p => p.includes('*'))
    && (!status || status.getAttribute('data-status') === 'idle');
}"""


def code_cells(page):
    return page.locator(".jp-Notebook .jp-CodeCell")


def source_of(cell) -> str:
    return "\n".join(cell.locator(".cm-content .cm-line").all_text_contents())


def cell_with_source(page, text: str):
    """The one code cell whose source contains `text`, pinned by its place among the code cells:
    CodeMirror draws only the lines near the view, so once a tall cell runs and scrolls, the line
    that found it may no longer be in the page."""
    cell = code_cells(page).filter(has=page.locator(".cm-content", has_text=text))
    assert cell.count() == 1, f"expected one code cell containing {text!r}, found {cell.count()}"
    found = code_cells(page).evaluate_all(
        "(cells, text) => cells.map(c => (c.querySelector('.cm-content') || {}).textContent || '')"
        ".findIndex(source => source.includes(text))", text)
    assert found >= 0, f"no code cell's drawn source contains {text!r}"
    return code_cells(page).nth(found)


def check_cell(page, exercise: str):
    return cell_with_source(page, f'check("{exercise}")')


def output_text(cell) -> str:
    return "\n".join(cell.locator(".jp-OutputArea-output").all_text_contents())


def prompt_number(cell) -> int | None:
    m = re.search(r"\[(\d+)\]", cell.locator(".jp-InputPrompt").text_content() or "")
    return int(m.group(1)) if m else None


def menu(page, top: str, item: str) -> None:
    """Click a main-menu entry, e.g. menu(page, "Run", "Run All Cells")."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(top)}$")).click()
    page.locator(".lm-Menu-content .lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel",
                 has_text=re.compile(f"^{re.escape(item)}")).first.click()


def fail_on_dialog(page) -> None:
    dialog = page.locator(".jp-Dialog")
    if dialog.count():
        pytest.fail(f"unexpected JupyterLab dialog: {dialog.first.inner_text()!r}")


def wait_settled(page, index: int) -> None:
    page.wait_for_function(SETTLED, arg=[index], timeout=RUN_TIMEOUT, polling=250)


def run_through(page) -> None:
    """Run All, and see it reach the last cell: a failing check raises CheckFailed (nbgrader's record
    of a failed test), but check cells are tagged `raises-exception`, so the run goes on past them."""
    menu(page, "Run", "Run All Cells")
    cells = code_cells(page)
    wait_settled(page, cells.count() - 1)
    fail_on_dialog(page)
    assert prompt_number(cells.last) is not None, "Run All stopped before the last cell"


def assert_report(cell, exercise: str, passed: bool) -> str:
    """The check's output is the rendered HTML report, saying what the check found."""
    html = cell.locator('.jp-OutputArea-output[data-mime-type="text/html"]')
    assert html.count() == 1, f"check({exercise!r}) shows no HTML report; its output:\n{output_text(cell)}"
    report = html.text_content()  # not inner_text: JupyterLab skips rendering offscreen cells
    score = re.search(rf"{exercise}: (\d+)/(\d+)", report)
    assert score, f"no '{exercise}: points/max' line in the report:\n{report!r}\n{html.inner_html()[:2000]}"
    text = output_text(cell)
    assert not RAW_REPR.search(text), f"raw repr instead of the report:\n{text}"
    if passed:
        assert score[1] == score[2] != "0", report
        assert "\u2718" not in report and "CheckFailed" not in text, text
    else:
        assert score[1] == "0", report
        assert "\u2718" in report, report  # the red cross of a failed check
        assert "not-implemented" in report and "still raises NotImplementedError" in report, report
        assert f"CheckFailed: {exercise} is not right yet" in text, text
    return report


def assert_no_breakage(page) -> None:
    everything = "\n".join(page.locator(".jp-Notebook .jp-OutputArea-output").all_text_contents())
    for bad in ("No module named", "ModuleNotFoundError", "ImportError"):
        assert bad not in everything, f"{bad!r} in the notebook's outputs:\n{everything[:3000]}"
    assert not RAW_REPR.search(everything), everything[:3000]


def saved_notebook(page, lab, notebook: str = NOTEBOOK) -> dict:
    """Save the open notebook and read it back: JupyterLab renders stderr streams and errors (a
    failing check raises) alike, the file tells them apart."""
    menu(page, "File", "Save Notebook")
    page.wait_for_function("() => !document.querySelector('.lm-TabBar-tab.jp-mod-dirty')", timeout=60_000)
    return json.loads((lab.root / notebook).read_text())


def assert_no_stderr(page, lab, notebook: str = NOTEBOOK) -> dict:
    """A Run All on CPU writes nothing to stderr: no TensorFlow start-up lines on red."""
    nb = saved_notebook(page, lab, notebook)
    stderr = [o["text"] for c in nb["cells"] for o in c.get("outputs", [])
              if o["output_type"] == "stream" and o["name"] == "stderr"]
    assert not stderr, f"stderr in {notebook}:\n" + "".join("".join(t) for t in stderr)[:3000]
    return nb


def assert_student_workspace(page) -> None:
    """No nbgrader instructor UI (its menu, its Create Assignment sidebar), and the notebook is not
    marked modified by merely opening it."""
    menus = page.locator(".lm-MenuBar-itemLabel").all_text_contents()
    assert "Nbgrader" not in menus, menus
    panels = [t.get_attribute("title") or "" for t in page.locator(".jp-SideBar .lm-TabBar-tab").all()]
    assert not [t for t in panels if "assignment" in t.lower() or "nbgrader" in t.lower()], panels
    assert page.locator(".lm-TabBar-tab.jp-mod-dirty").count() == 0, "the notebook shows as modified on opening"


def assert_kernel_is_the_venvs(lab) -> None:
    """The notebook's kernel runs on the interpreter of the venv that runs the tests and JupyterLab."""
    children = psutil.Process(lab.process.pid).children(recursive=True)
    kernels = [p.cmdline() for p in children if "ipykernel_launcher" in p.cmdline()]
    assert len(kernels) == 1, f"expected one kernel under the server: {[p.cmdline() for p in children]}"
    assert kernels[0][0] == sys.executable, f"the kernel is not the venv's python: {kernels[0]}"


def screenshot(cell, path) -> None:
    cell.scroll_into_view_if_needed()
    cell.screenshot(path=str(path))


def test_student_runs_checks_and_fixes_retune(lab, page, artifacts):
    page.goto(lab.tree(NOTEBOOK), wait_until="domcontentloaded")
    code_cells(page).first.locator(".cm-content").wait_for(timeout=120_000)
    fail_on_dialog(page)
    # The notebook's kernelspec (python3) is found and started: no "Select Kernel" dialog, then idle.
    expect(page.locator(".jp-Toolbar-kernelName").first).to_have_text(re.compile("Python 3"), timeout=120_000)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(timeout=120_000)
    assert_student_workspace(page)
    screenshot(page.locator("#main"), artifacts / "student_lab.png")

    # 1. The released notebook, run as it is: every check fails, readably.
    run_through(page)
    setup = cell_with_source(page, "from autograder.check import Checker")
    assert "ModuleNotFoundError" not in output_text(setup), output_text(setup)
    assert_no_breakage(page)
    assert_no_stderr(page, lab)
    assert_kernel_is_the_venvs(lab)
    for exercise in CHECKS:
        assert_report(check_cell(page, exercise), exercise, passed=False)
    screenshot(check_cell(page, "threshold_judge"), artifacts / "check_failing.png")

    # 2. Paste a fix into the retune cell, restart, run again: retune passes, the rest still fail.
    editor = cell_with_source(page, "def retune(options, threshold):").locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(RETUNE_FIX)  # what a paste does: no auto-indent on top of ours
    assert source_of(cell_with_source(page, "def retune(options, threshold):")) == RETUNE_FIX
    page.keyboard.press("Escape")
    menu(page, "Kernel", "Restart Kernel and Clear Outputs of All Cells")
    page.locator(".jp-Dialog .jp-mod-accept").click()
    page.locator(".jp-Dialog").wait_for(state="detached")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]"
        ".every(p => !/\\d/.test(p.textContent))", timeout=RUN_TIMEOUT)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(timeout=120_000)

    run_through(page)
    assert_no_breakage(page)
    assert_no_stderr(page, lab)
    retune = check_cell(page, "retune")
    assert_report(retune, "retune", passed=True)
    for exercise in CHECKS:
        if exercise != "retune":
            assert_report(check_cell(page, exercise), exercise, passed=False)
    screenshot(retune, artifacts / "check_passing.png")


def shut_down_kernels(lab) -> None:
    """End every kernel session of the server (so the next lesson runs beside no other kernel)."""
    api = f"{lab.url}/api/sessions"
    headers = {"Authorization": f"token {lab.token}"}
    with urllib.request.urlopen(urllib.request.Request(api, headers=headers), timeout=30) as r:
        sessions = json.load(r)
    for session in sessions:
        request = urllib.request.Request(f"{api}/{session['id']}", headers=headers, method="DELETE")
        urllib.request.urlopen(request, timeout=60).close()


def test_a_correct_run_all_shows_no_stderr_in_the_lab(solutions_lab, page):
    """The first lesson (it imports TensorFlow first), answered, Run All in the students' lab: no
    stderr and no error, anywhere. Every lesson's Run All is checked for stderr outside the browser
    (`tests/test_quiet.py`), at a fraction of the cost."""
    from autograder.course import lessons

    for assignment in lessons.assignments()[:1]:
        notebook = f"{assignment}/{lessons.load(assignment).notebook}"
        page.goto(solutions_lab.tree(notebook), wait_until="domcontentloaded")
        code_cells(page).first.locator(".cm-content").wait_for(timeout=120_000)
        expect(page.locator(".jp-Toolbar-kernelName").first).to_have_text(re.compile("Python 3"), timeout=120_000)
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(timeout=120_000)
        fail_on_dialog(page)
        try:
            run_through(page)
        except Exception as exc:
            raise AssertionError(f"{notebook}: Run All did not finish: {exc}") from exc
        nb = assert_no_stderr(page, solutions_lab, notebook)
        errors = [f"{o['ename']}: {o['evalue']}" for c in nb["cells"] for o in c.get("outputs", [])
                  if o["output_type"] == "error"]
        assert not errors, f"{notebook}: {errors}"
        menu(page, "File", "Close All Tabs")  # saved: no dialog; the next lesson opens alone
        shut_down_kernels(solutions_lab)
