"""After a SIGKILL, the next run removes the cgroups and run folders of the grader that is gone,
and nothing of a grader still running (issue 36)."""
import subprocess
import sys

import pytest

from autograder.engine.cgroups import KernelCgroup
from autograder.engine.leftovers import remove_leftovers
from autograder.engine.owner import owner_gone, owner_tag


def gone_tag() -> str:
    """The owner tag of a process that has ended."""
    child = subprocess.run([sys.executable, "-c", "from autograder.engine.owner import owner_tag; print(owner_tag())"],
                           capture_output=True, text=True, check=True)
    return child.stdout.strip()


def test_only_folders_of_a_grader_that_is_gone_are_removed(tmp_path):
    gone, alive = gone_tag(), owner_tag()
    names = {f"tfcourse-run-{gone}-ab12": False, f"tfcourse-logs-{gone}-cd34": False, f"tfcourse-{gone}-ef56": False,
             f"tfcourse-run-{alive}-gh78": True,  # a grader running beside this run
             "tfcourse-run-ij90": True,  # no owner in the name: made before names carried one
             "tfcourse-kaquly98": True, "other": True}
    for name in names:
        (tmp_path / name / "sub").mkdir(parents=True)
    removed = remove_leftovers(cgroup_root=tmp_path / "no-cgroups", folders=(tmp_path,))
    assert sorted(p.name for p in removed) == sorted(n for n, kept in names.items() if not kept)
    assert {p.name for p in tmp_path.iterdir()} == {n for n, kept in names.items() if kept}


def test_a_pid_taken_by_another_process_is_not_the_owner():
    pid, started = owner_tag().split(".")
    assert not owner_gone(f"tfcourse-{pid}.{started}-x")
    assert owner_gone(f"tfcourse-{pid}.{int(started) - 1}-x"), "same pid, another start: a reused pid"


def test_a_stale_cgroup_is_emptied_and_removed():
    """A real cgroup (as root, on this machine's cgroup v1 or v2), named as a dead grader's, holding
    a process that outlived it."""
    gone = gone_tag()
    group = KernelCgroup.create(64 * 2**20, 16)
    if group is None:
        pytest.skip("this machine does not let the grader make cgroups")
    renamed = {}
    for controller, directory in group.dirs.items():
        target = directory.with_name(f"tfcourse-{gone}-{directory.name[-16:]}")
        directory.rename(target)
        renamed[controller] = target
    stale = KernelCgroup(renamed, group.version)
    orphan = subprocess.Popen(["sleep", "600"], preexec_fn=lambda: stale.add(__import__("os").getpid()))
    try:
        removed = remove_leftovers(folders=())
        assert set(renamed.values()) <= set(removed)
        assert orphan.wait(timeout=30) == -9
    finally:
        orphan.kill()
        stale.kill_all()
        stale.remove()


def test_grade_removes_a_killed_graders_run_folders_and_says_so(tmp_path):
    from autograder.engine.sandbox import RUN_BASE

    leftover = RUN_BASE / f"tfcourse-run-{gone_tag()}-test"
    leftover.mkdir(parents=True)
    (tmp_path / "submitted" / "alice" / "01_graphs_and_sessions").mkdir(parents=True)  # invalid: no kernel
    run = subprocess.run([sys.executable, "-m", "autograder", "grade", "submitted", "--no-sandbox", "--out", "out"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert not leftover.exists() and "leftover(s) of a grader that was killed" in run.stderr
