"""Killing the grader mid-batch loses and doubles nothing: a rerun completes the class."""
from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from autograder.course import lessons
from autograder.judging.reference import reference_observations, solution_path
from tests.conftest import GRADE_FLAGS, release_path

ASSIGNMENT = "02_rebuild_vs_feed"
STUDENTS = [f"student{i}" for i in range(4)]


def grader(root, out) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "autograder", "grade", *GRADE_FLAGS, str(root), "--out", str(out), "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.slow
def test_a_killed_batch_resumes_to_one_result_per_submission(tmp_path):
    lesson = lessons.load(ASSIGNMENT)
    reference_observations(lesson)  # computed before, so the first run gets to grading at once
    root, out = tmp_path / "submitted", tmp_path / "results"
    for student in STUDENTS:
        (root / student / ASSIGNMENT).mkdir(parents=True)
        shutil.copy(solution_path(lesson), root / student / ASSIGNMENT / lesson.notebook)

    first = grader(root, out)
    deadline = time.monotonic() + 300
    while not list(out.glob("*/*.json")) and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)  # the grader and everything it started, mid-batch
    first.wait()
    finished = len(list(out.glob("*/*.json")))
    assert 1 <= finished < len(STUDENTS), "the kill should land between the first and the last result"

    second = grader(root, out)
    _, stderr = second.communicate(timeout=600)
    assert second.returncode == 0, stderr[-2000:]
    assert f"skipping {finished} submission(s) unchanged since graded" in stderr
    assert sorted(p.parent.name for p in out.glob("*/*.json")) == STUDENTS
    assert all(json.loads(p.read_text())["exercises"] for p in out.glob("*/*.json")), "a result is incomplete"
    rows = list(csv.DictReader((out / "grades.csv").open()))
    assert sorted(r["student"] for r in rows) == STUDENTS
    assert all((r["score"], r["status"]) == (str(lesson.max_score), "graded") for r in rows), rows


@pytest.mark.slow
def test_a_resubmission_is_regraded_by_a_plain_second_run(tmp_path):
    """Graded once as handed out (0 points), then fixed and handed in again: the plain rerun
    regrades it, and keeps the unchanged one; the messages count what each run did."""
    lesson = lessons.load(ASSIGNMENT)
    reference_observations(lesson)
    root, out = tmp_path / "submitted", tmp_path / "results"
    for student in ("fixer", "steady"):
        (root / student / ASSIGNMENT).mkdir(parents=True)
        shutil.copy(release_path(ASSIGNMENT), root / student / ASSIGNMENT / lesson.notebook)

    first = grader(root, out)
    stdout, stderr = first.communicate(timeout=600)
    assert first.returncode == 0, stderr[-2000:]
    assert "graded 2 submission(s):" in stdout, stdout
    shutil.copy(solution_path(lesson), root / "fixer" / ASSIGNMENT / lesson.notebook)

    second = grader(root, out)
    stdout, stderr = second.communicate(timeout=600)
    assert second.returncode == 0, stderr[-2000:]
    assert "skipping 1 submission(s) unchanged since graded" in stderr, stderr
    assert "graded 1 submission(s), kept 1 unchanged:" in stdout, stdout
    scores = {r["student"]: r["score"] for r in csv.DictReader((out / "grades.csv").open())}
    assert scores == {"fixer": str(lesson.max_score), "steady": "0"}
