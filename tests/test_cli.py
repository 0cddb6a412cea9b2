"""The command line's contract: files written, exit codes, bad input as results with reasons."""
import json
import subprocess
import sys

import pytest

from autograder import lessons

ASSIGNMENT = lessons.assignments()[0]
NOTEBOOK = lessons.load(ASSIGNMENT).notebook


def grade(*args):
    return subprocess.run([sys.executable, "-m", "autograder", "grade", *map(str, args)],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("content,reason", [
    ("this is not json", "not a readable notebook"),
    ('{"cells": [], "metadata": {}, "nbformat": 4', "not a readable notebook"),
    (None, "no notebook at"),
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


def test_missing_path_is_an_error(tmp_path):
    run = grade(tmp_path / "nope", "--out", tmp_path / "out")
    assert run.returncode == 2 and "no such notebook" in run.stderr
