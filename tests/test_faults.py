"""Faults outside the kernel: a full disk under --out, a second run on the same --out."""
import contextlib
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import nbformat
import pytest

from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.frontends import batch
from autograder.judging.submissions import discover

ASSIGNMENT = "01_graphs_and_sessions"
NOTEBOOK = lessons.load(ASSIGNMENT).notebook


def full_disk(full, script: str, size: str = "8k") -> subprocess.CompletedProcess:
    """Run `script` (sh) with the folder `full` a tmpfs of `size`, in a mount namespace of its own."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to mount a small tmpfs")
    full.mkdir()
    run = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size={size} tmpfs {full} && {script}"],
                         capture_output=True, text=True, timeout=600)
    if "mount:" in run.stderr or "unshare:" in run.stderr:
        pytest.skip(f"cannot mount a small tmpfs here: {run.stderr.strip()[:200]}")
    return run


def test_a_write_on_a_full_disk_names_the_path_and_leaves_no_temporary_file(tmp_path):
    full = tmp_path / "full"
    run = full_disk(full, f"{sys.executable} -c \"\n"
                    "import os\nfrom pathlib import Path\nfrom autograder.judging.results import atomic_write\n"
                    f"try:\n    atomic_write(Path('{full}/alice/x.json'), 'x' * 100_000)\n"
                    "except OSError as exc:\n    print('raised', exc)\n"
                    f"print('left', os.listdir('{full}/alice'))\n\"")
    assert f"raised [Errno 28] No space left on device: '{full}/alice/x.json'" in run.stdout, run.stderr
    assert "left []" in run.stdout


def test_grade_on_a_full_disk_stops_names_the_path_and_cleans_up(tmp_path):
    for student in ("alice", "bob", "carol"):
        (tmp_path / "submitted" / student / ASSIGNMENT).mkdir(parents=True)  # no notebook: invalid, no kernel
    full = tmp_path / "full"
    run = full_disk(full, f"cd {tmp_path / 'submitted'} && {sys.executable} -m autograder grade . --no-sandbox "
                    f"--out {full}/out; echo rc=$?; find {full} -name '*.tmp'", size="4k")
    assert "rc=2" in run.stdout, run.stderr[-2000:]
    assert f"No space left on device: '{full}/out/" in run.stderr, run.stderr[-2000:]
    assert ".tmp" not in run.stdout


def test_a_write_error_cancels_what_has_not_started(tmp_path, monkeypatch):
    """The batch stops at the first result it cannot write, not after grading everyone (46 s of
    grading thrown away, in the issue's disk-full run)."""
    for student in "abcdefgh":
        folder = tmp_path / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nbformat.v4.new_notebook(), folder / NOTEBOOK)
    started = []

    def slow_grade(s):
        started.append(s.student)
        time.sleep(0.5)
        return {"student": s.student}

    @contextlib.contextmanager
    def runner(b):
        with ThreadPoolExecutor(max_workers=1) as pool:
            yield lambda s: pool.submit(slow_grade, s)

    def disk_full(out, record):
        raise OSError(28, "No space left on device", str(out / record["student"]))

    monkeypatch.setattr(batch, "prepare", lambda todo, out, limits: batch.Batch({}, {}, limits, ()))
    monkeypatch.setattr(batch, "costliest_first", lambda todo, lesson_of: list(todo))
    monkeypatch.setattr(batch, "write_result", disk_full)
    with pytest.raises(OSError, match="No space left"):
        batch.grade_all(discover([tmp_path / "submitted"]), tmp_path / "out", limits=Limits(sandbox=False),
                        runner=runner)
    assert len(started) <= 2, started


def test_a_second_grade_run_on_the_same_out_waits_and_says_so(tmp_path):
    """Two runs on one --out graded everything twice, side by side; now the second waits for the
    first, saying so, then keeps what the first graded."""
    from autograder.judging.results import results_lock

    (tmp_path / "submitted" / "alice" / ASSIGNMENT).mkdir(parents=True)  # no notebook: invalid, no kernel
    out = tmp_path / "out"
    with results_lock(out):
        second = subprocess.Popen([sys.executable, "-m", "autograder", "grade", "submitted", "--no-sandbox",
                                   "--out", str(out)], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
        first_line = ""
        while not first_line.startswith("waiting") and second.poll() is None:
            first_line = second.stderr.readline()
        assert first_line.startswith(f"waiting: another grade run (pid {__import__('os').getpid()}) is writing to {out}")
        time.sleep(1)
        assert second.poll() is None, "it went on while the folder was held"
    second.stderr.read()
    assert second.wait(timeout=300) == 0
    assert (out / "alice" / f"{ASSIGNMENT}.json").exists()
