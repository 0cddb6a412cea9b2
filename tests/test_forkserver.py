"""Warm kernels forked from one zygote stay as isolated from each other as kernels started afresh."""
from __future__ import annotations

import nbformat
import pytest

from autograder.course import lessons
from autograder.engine.forkserver import ForkedKernel, Zygotes
from autograder.judging.reference import solution_path
from tests.conftest import LIMITS, needs_sandbox, without_screen

ASSIGNMENT = "02_rebuild_vs_feed"
LESSON = lessons.load(ASSIGNMENT)

PLANT = '''
import os, subprocess
open("/tmp/planted", "w").write("left for the next student")
open(os.path.expanduser("~/planted"), "w").write("left for the next student")
subprocess.Popen(["sleep", "600"], start_new_session=True)
'''

# Full marks on retune only if nothing of the planter's is visible.
CHECK_CLEAN = '''
def retune(options, threshold):
    import os
    planted = os.path.exists("/tmp/planted") or os.path.exists(os.path.expanduser("~/planted"))
    sleepers = [p for p in os.listdir("/proc") if p.isdigit()
                and open(f"/proc/{p}/cmdline", "rb").read().startswith(b"sleep")]
    options.update(threshold=threshold if not (planted or sleepers) else -1.0)
'''


def submission(root, student, nb):
    folder = root / student / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / LESSON.notebook)


def with_retune(nb, source):
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "retune_solution":
            cell.source = source
    return nb


@pytest.mark.slow
@needs_sandbox
def test_a_kernel_leaves_nothing_for_the_next_one(tmp_path):
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    solution = nbformat.read(solution_path(LESSON), as_version=4)
    planter = nbformat.read(solution_path(LESSON), as_version=4)
    planter.cells.append(nbformat.v4.new_code_cell(PLANT))
    killer = nbformat.read(solution_path(LESSON), as_version=4)
    killer.cells.append(nbformat.v4.new_code_cell("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)"))
    root = tmp_path / "submitted"
    submission(root, "a-planter", planter)
    submission(root, "b-checker", with_retune(solution, CHECK_CLEAN))
    submission(root, "c-zygote-killer", killer)
    submission(root, "d-after-the-killer", nbformat.read(solution_path(LESSON), as_version=4))
    with without_screen():  # the zygote is what this attacks
        records = {r["student"]: r for r in grade_all(discover([root]), tmp_path / "out", jobs=1, limits=LIMITS)}
    full = LESSON.max_score
    assert records["a-planter"]["score"] == full
    assert records["b-checker"]["score"] == full, records["b-checker"]["exercises"]
    assert records["d-after-the-killer"]["score"] == full, records["d-after-the-killer"]["reason"]


def test_forked_kernel_reports_a_vanished_process_as_ended():
    kernel = ForkedKernel(2**22 + 12345)  # above the default pid_max: no such process
    assert kernel.poll() == 0 and kernel.wait(timeout=1) == 0
    kernel.kill()  # nothing to kill, and no error


def test_zygotes_can_be_turned_off():
    pool = Zygotes(hidden=(), enabled=False)
    with pool.lease({}) as zygote:
        assert zygote is None


@pytest.mark.slow
@needs_sandbox
def test_honest_kernels_share_one_warm_zygote(tmp_path, monkeypatch):
    """The reset after an honest kernel succeeds (its zombie is reaped first), so the zygote, and
    its imported TensorFlow, serves the next kernel instead of being replaced."""
    from autograder.engine import forkserver
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover
    from tests.conftest import release_path

    starts = []
    original = forkserver.Zygote.start
    monkeypatch.setattr(forkserver.Zygote, "start", lambda self: (starts.append(self), original(self))[1])
    root = tmp_path / "submitted"
    for student in ("a", "b", "c"):
        submission(root, student, nbformat.read(release_path(ASSIGNMENT), as_version=4))
    records = grade_all(discover([root]), tmp_path / "out", jobs=1, limits=LIMITS)
    assert [r["status"] for r in records] == ["graded"] * 3
    assert len(starts) == 1
