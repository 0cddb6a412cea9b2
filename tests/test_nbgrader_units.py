"""The nbgrader front end's small parts, without running nbgrader."""
import sys
from pathlib import Path

import pytest

from autograder import COURSE_ROOT
from autograder.frontends.check import JUDGE_IN_KERNEL, Checker, CheckFailed
from autograder.frontends.nbgrader import hidden_paths, released_source
from autograder.judging.reference import cache_dir

CHECK_CELL = 'check("retune")\n### BEGIN HIDDEN TESTS\ncheck.hidden("retune")\n### END HIDDEN TESTS'


def test_released_source_is_what_generate_assignment_releases():
    assert released_source(CHECK_CELL) == 'check("retune")'
    assert released_source('check("retune")') == 'check("retune")'


def test_graded_kernels_see_neither_the_nbgrader_course_nor_the_references(tmp_path):
    assert set(hidden_paths(tmp_path)) == {tmp_path.resolve(), cache_dir().resolve()}
    assert hidden_paths(COURSE_ROOT) == (cache_dir().resolve(),)  # the sandbox hides the checkout itself
    around_the_venv = hidden_paths(Path(sys.prefix).resolve().parent)
    assert not any(p == Path(sys.prefix).resolve() or p in Path(sys.prefix).resolve().parents
                   for p in around_the_venv)


def test_check_hidden_refuses_to_judge_in_the_kernel_under_autograde(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.delenv(JUDGE_IN_KERNEL, raising=False)
    with pytest.raises(CheckFailed, match="not judged in the student's kernel"):
        Checker("02_rebuild_vs_feed").hidden("retune")
