"""Fixtures of the browser tests: a JupyterLab on a scratch copy of notebooks/, and headless chromium.

Both skip (never fail) when the machine lacks the playwright package or Debian's chromium.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
SERVER_START_TIMEOUT = 120  # seconds; a busy 2-core machine takes 10-30 s to import JupyterLab


@dataclass
class Lab:
    url: str
    token: str
    root: Path
    process: subprocess.Popen
    log: Path

    def tree(self, path: str) -> str:
        return f"{self.url}/lab/tree/{path}?token={self.token}"

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _jupyter() -> Path:
    """The jupyter of the interpreter running the tests (the venv's), so its python3 kernel is the venv's."""
    exe = Path(sys.executable).parent / "jupyter"
    if not exe.exists():
        pytest.skip(f"no jupyter next to {sys.executable}: run the tests with the venv's python")
    return exe


# Module scope, not session: sync Playwright keeps an asyncio loop running in this thread while it
# is open, and the grading tests that run after this module need the thread free for asyncio.run.
@pytest.fixture(scope="module")
def sync_playwright():
    try:
        from playwright.sync_api import sync_playwright as start
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install playwright; never `playwright install`)")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium, or set E2E_CHROMIUM)")
    return start


@pytest.fixture(scope="module")
def browser(sync_playwright):
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def page(browser, request):
    """A fresh browser page; on a failed test, its last state is saved to artifacts/failure-<test>.png."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    pg = context.new_page()
    try:
        yield pg
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            try:
                pg.screenshot(path=str(ARTIFACTS / f"failure-{request.node.name}.png"), full_page=True)
            except Exception as exc:  # a screenshot must not hide the real failure
                print(f"no failure screenshot: {exc}")
        context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def lesson_lab(tmp_path: Path, assignment: str):
    """JupyterLab (a context manager) on a scratch copy of notebooks/<assignment>."""
    root = tmp_path / "notebooks"
    shutil.copytree(REPO / "notebooks" / assignment, root / assignment)
    return running_lab(tmp_path, root)


@pytest.fixture
def lab(tmp_path, sync_playwright):
    """JupyterLab on a scratch copy of notebooks/02_rebuild_vs_feed."""
    with lesson_lab(tmp_path, "02_rebuild_vs_feed") as server:
        yield server


@pytest.fixture
def solutions_lab(tmp_path, sync_playwright):
    """JupyterLab on every lesson as a student who answered all of it has it: the solution notebooks
    without their hidden-test blocks (which only nbgrader's autograde runs)."""
    import nbformat

    root = tmp_path / "solved"
    for source in sorted((REPO / "solutions").glob("*/*.ipynb")):
        nb = nbformat.read(source, as_version=4)
        for cell in nb.cells:
            cell.source = re.sub(r"### BEGIN HIDDEN TESTS\n.*?### END HIDDEN TESTS\n?", "", cell.source, flags=re.S)
        (root / source.parent.name).mkdir(parents=True)
        nbformat.write(nb, root / source.parent.name / source.name)
    with running_lab(tmp_path, root) as server:
        yield server


@contextlib.contextmanager
def running_lab(tmp_path: Path, root: Path):
    """JupyterLab on `root`, with the course's lab settings (jupyter/, as `make lab` uses them) and
    its own config, data and workspace dirs; its kernels show their fd 2 in cells, as for students."""
    home = tmp_path / "jupyter"
    config = home / "config"
    (config / "labconfig").mkdir(parents=True)
    # No "get Jupyter news?" toast over the cells, no update check going out to the network.
    (config / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
    # Render every cell: with JupyterLab's default windowing, cells far off screen may have no
    # output DOM yet, which made reading a check's report flaky.
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    # The course's own lab settings, as `make lab` and the student bundle use them (jupyter/).
    env = dict(os.environ, JUPYTER_CONFIG_PATH=str(REPO / "jupyter"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTER_CONFIG_DIR=str(config), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
               JUPYTER_PLATFORM_DIRS="0")
    env.pop("PYTEST_CURRENT_TEST", None)  # ipykernel relays no fd 2 when it sees it
    port, token = _free_port(), secrets.token_hex(16)
    log = tmp_path / "jupyter-lab.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(_jupyter()), "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
             f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}"]
            + (["--allow-root"] if os.geteuid() == 0 else []),  # CI and containers run as root
            cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True)  # its own process group: kernels are stopped with it
    server = Lab(f"http://127.0.0.1:{port}", token, root, process, log)
    try:
        _wait_up(server)
        yield server
    finally:
        _stop(process)


def _wait_up(server: Lab) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"jupyter lab exited with {server.process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{server.url}/api/status?token={server.token}", timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"jupyter lab not up after {SERVER_START_TIMEOUT}s:\n{server.log_tail()}")


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM lets the server shut its kernels down; then whatever is left of its group is killed."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=30)


@pytest.fixture
def lesson05_lab(tmp_path, sync_playwright):
    """JupyterLab on a scratch copy of notebooks/05_checkpoints_and_summaries (the TensorBoard lesson)."""
    with lesson_lab(tmp_path, "05_checkpoints_and_summaries") as server:
        yield server
