"""`grade --cluster`: the batch on a Dask cluster, one task a submission, results written here."""
import csv
import json
import os
import subprocess
import sys

import nbformat
import pytest

from autograder.course import lessons
from autograder.judging.reference import solution_path
from tests.conftest import GRADE_FLAGS, LIMITS, _lay_out, release_path

distributed = pytest.importorskip("distributed")

ASSIGNMENT = "02_rebuild_vs_feed"
FULL = lessons.load(ASSIGNMENT).max_score


def grade(*args):
    return subprocess.run([sys.executable, "-m", "autograder", "grade", *GRADE_FLAGS, *map(str, args)],
                          capture_output=True, text=True, timeout=900)


@pytest.fixture
def one_submission(tmp_path, monkeypatch):
    """A class of one (the untouched release), with no reference to compute."""
    import autograder.frontends.batch
    from autograder.judging.submissions import discover

    monkeypatch.setattr(autograder.frontends.batch, "reference_observations", lambda lesson: {})
    _lay_out(tmp_path / "submitted", "erin", ASSIGNMENT, nbformat.read(release_path(ASSIGNMENT), as_version=4))
    return discover([tmp_path / "submitted"])


def assert_crashed(record, words):
    assert record["status"] == "crashed" and all(w in record["reason"] for w in words), record["reason"]
    assert record["score"] == 0 and len(record["exercises"]) == len(lessons.load(ASSIGNMENT).exercises)


def test_a_task_that_raises_becomes_a_crashed_record(tmp_path, monkeypatch, one_submission):
    import autograder.frontends.cluster
    from autograder.frontends.batch import grade_all

    def broken_task(task):
        raise RuntimeError("worker lost its lessons")

    monkeypatch.setattr(autograder.frontends.cluster, "grade_task", broken_task)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        [record] = grade_all(one_submission, tmp_path / "out", limits=LIMITS,
                             runner=autograder.frontends.cluster.ClusterRunner(cluster.scheduler_address))
    assert_crashed(record, ["RuntimeError", "worker lost its lessons"])
    assert json.loads((tmp_path / "out" / "erin" / f"{ASSIGNMENT}.json").read_text()) == record
    assert f"erin,02_rebuild_vs_feed,0,{FULL},crashed" in (tmp_path / "out" / "grades.csv").read_text()


@pytest.mark.slow
def test_a_worker_that_dies_becomes_a_crashed_record(tmp_path, monkeypatch, one_submission):
    import dask

    import autograder.frontends.cluster
    from autograder.frontends.batch import grade_all

    # The task is os._exit(1): the worker process dies under it.
    monkeypatch.setattr(autograder.frontends.cluster, "task_of", lambda submission, batch: 1)
    monkeypatch.setattr(autograder.frontends.cluster, "grade_task", os._exit)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     dashboard_address=None) as cluster:
        [record] = grade_all(one_submission, tmp_path / "out", limits=LIMITS,
                             runner=autograder.frontends.cluster.ClusterRunner(cluster.scheduler_address))
    assert_crashed(record, ["KilledWorker"])


def test_an_unreachable_scheduler_is_an_error(tmp_path):
    (tmp_path / "submitted" / "dave" / ASSIGNMENT).mkdir(parents=True)
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    run = subprocess.run([sys.executable, "-m", "autograder", "grade", str(tmp_path / "submitted"),
                          "--out", str(tmp_path / "out"), "--cluster", "tcp://127.0.0.1:9"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 2 and "cannot reach the Dask scheduler" in run.stderr, run.stderr
    assert not (tmp_path / "out").exists()


def test_grading_locally_never_imports_dask():
    code = ("import sys, autograder.frontends.cli, autograder.frontends.batch; autograder.frontends.cli.parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


@pytest.mark.slow
def test_grade_on_a_local_cluster(tmp_path):
    root, out = tmp_path / "submitted", tmp_path / "out"
    _lay_out(root, "solution", ASSIGNMENT, nbformat.read(solution_path(lessons.load(ASSIGNMENT)), as_version=4))
    _lay_out(root, "release", ASSIGNMENT, nbformat.read(release_path(ASSIGNMENT), as_version=4))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        run = grade(root, "--out", out, "--cluster", cluster.scheduler_address)
        assert run.returncode == 0, run.stderr
        assert "2/2 | failures 0" in run.stderr, run.stderr
        again = grade(root, "--out", out, "--cluster", cluster.scheduler_address)
        assert again.returncode == 0 and "skipping 2 submission(s)" in again.stderr, again.stderr

    records = {s: json.loads((out / s / f"{ASSIGNMENT}.json").read_text()) for s in ("solution", "release")}
    for record in records.values():
        assert record["status"] == "graded", record["reason"]
    assert records["solution"]["score"] == records["solution"]["max_score"] == FULL
    assert records["release"]["score"] == 0
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert {s: (r["score"], r["status"]) for s, r in rows.items()} == {"solution": (str(FULL), "graded"),
                                                                       "release": ("0", "graded")}
