"""The command line's contract: files written, exit codes, bad input as results with reasons."""
import json
import os
import subprocess
import sys

import pytest

from autograder.course import lessons
from tests.conftest import GRADE_FLAGS

ASSIGNMENT = lessons.assignments()[0]
NOTEBOOK = lessons.load(ASSIGNMENT).notebook


def grade(*args):
    return subprocess.run([sys.executable, "-m", "autograder", "grade", *GRADE_FLAGS, *map(str, args)],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("content,reason", [
    ("this is not json", "not a readable notebook"),
    ('{"cells": [], "metadata": {}, "nbformat": 4', "not a readable notebook"),
    (None, f"no notebook named {NOTEBOOK} in {ASSIGNMENT}/: found an empty folder"),
])
def test_broken_notebooks_are_invalid_results_not_crashes(tmp_path, content, reason):
    folder = tmp_path / "submitted" / "dave" / ASSIGNMENT
    folder.mkdir(parents=True)
    if content is not None:
        (folder / NOTEBOOK).write_text(content)
    run = grade(tmp_path / "submitted", "--out", tmp_path / "out")
    assert run.returncode == 0, run.stderr
    record = json.loads((tmp_path / "out" / "dave" / f"{ASSIGNMENT}.json").read_text())
    assert record["status"] == "invalid" and reason in record["reason"]
    assert record["score"] == 0 and len(record["exercises"]) == len(lessons.load(ASSIGNMENT).exercises)
    assert "dave" in (tmp_path / "out" / "grades.csv").read_text()


def test_no_submissions_is_an_error(tmp_path):
    run = grade(tmp_path, "--out", tmp_path / "out")
    assert run.returncode == 2 and "no submissions" in run.stderr
    assert "<student>/<assignment>/<notebook>.ipynb" in run.stderr and ASSIGNMENT in run.stderr, run.stderr


def test_missing_path_is_an_error(tmp_path):
    run = grade(tmp_path / "nope", "--out", tmp_path / "out")
    assert run.returncode == 2 and "no such notebook" in run.stderr


def test_grading_refuses_without_a_sandbox_unless_told(tmp_path):
    """A `bwrap` that cannot build a sandbox: `grade` names the package, `--no-sandbox` warns once and grades."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\nexit 1\n")
    (fake / "bwrap").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    folder = tmp_path / "submitted" / "dave" / ASSIGNMENT
    folder.mkdir(parents=True)
    (folder / NOTEBOOK).write_text("not a notebook")
    command = [sys.executable, "-m", "autograder", "grade", str(tmp_path / "submitted"), "--out", str(tmp_path / "out")]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert refused.returncode == 2 and "bubblewrap" in refused.stderr and "--no-sandbox" in refused.stderr
    assert not (tmp_path / "out").exists()
    allowed = subprocess.run([*command, "--no-sandbox"], capture_output=True, text=True, timeout=600, env=env)
    assert allowed.returncode == 0, allowed.stderr
    assert allowed.stderr.count("without a sandbox") == 1
    assert json.loads((tmp_path / "out" / "dave" / f"{ASSIGNMENT}.json").read_text())["status"] == "invalid"


def test_the_judge_stays_light():
    """`check.hidden` starts one judge per exercise in an instructor's Run All: it needs the lesson,
    the reference and the comparison, not the kernel machinery, nbformat or TensorFlow."""
    code = ("import runpy, sys\n"
            "sys.argv = ['autograder', 'judge', %r, %r]\n"
            "try:\n    runpy.run_module('autograder', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'nbformat', 'nbclient', 'tensorflow', 'jsonschema'}),"
            " file=sys.stderr)") % (ASSIGNMENT, lessons.load(ASSIGNMENT).exercises[0].id)
    run = subprocess.run([sys.executable, "-c", code], input="[]", capture_output=True, text=True, timeout=120)
    assert run.stderr.strip().splitlines()[-1] == "[]", run.stderr[-2000:]
