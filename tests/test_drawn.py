"""Drawn hidden cases are data: what is committed is what the strategies draw, in this process (under
pytest, with its modules and plugins) and in a bare one under another hash seed alike."""
import json
import os
import subprocess
import sys

import pytest

from autograder import COURSE_ROOT
from autograder.course.hidden.drawn import drawn_path
from autograder.course.lessons import assignments, hidden_cases

DRAW = ("import json, sys; from autograder.course.hidden.strategies import draw_lesson; "
        "print(json.dumps({a: draw_lesson(a) for a in sys.argv[1:]}, sort_keys=True))")


def _committed(assignment: str):
    path = drawn_path(assignment)
    return json.loads(path.read_text()) if path.exists() else {}


@pytest.mark.parametrize("assignment", assignments())
def test_committed_draws_are_what_this_process_draws(assignment):
    from autograder.course.hidden.strategies import draw_lesson

    assert json.loads(json.dumps(draw_lesson(assignment))) == _committed(assignment), (
        "stale drawn cases: run `make release` (python -m autograder publish)")


def test_a_bare_process_under_another_hash_seed_draws_the_same():
    bare = subprocess.run([sys.executable, "-c", DRAW, *assignments()], cwd=COURSE_ROOT, capture_output=True,
                          text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "12345"}).stdout
    assert json.loads(bare) == {a: _committed(a) for a in assignments()}


def test_drawn_cases_follow_the_written_ones_and_grading_needs_no_hypothesis():
    code = ("import sys; from autograder.course.lessons import hidden_cases; hidden_cases('07_learning_rate_decay'); "
            "print('hypothesis' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=COURSE_ROOT, capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
    cases = hidden_cases("07_learning_rate_decay")["piecewise"]
    situations = [c.situation for c in cases]
    assert situations[-3:] == ["drawn: sorted boundaries, steps in any order on and around them"] * 3
    assert not any(s.startswith("drawn:") for s in situations[:-3])
    assert [c.label for c in cases] == [f"hidden {i}" for i in range(1, len(cases) + 1)]


def test_draw_gives_distinct_examples_of_its_strategy():
    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals, draw, steps_around

    strategy = st.tuples(decimals(0.0, 1.0), st.integers(1, 9).flatmap(lambda b: steps_around([b])))
    examples = draw(strategy, 5)
    assert len(examples) == 5 and all(e not in examples[:i] for i, e in enumerate(examples))
    assert examples == draw(strategy, 5)
    assert all(0.0 <= value <= 1.0 and 0 in steps for value, steps in examples)


@pytest.mark.parametrize("assignment", assignments())
def test_every_promise_has_a_dimension_that_a_hidden_case_reaches(assignment):
    """Each promise a lesson's REQUIREMENTS lists (a docstring sentence) maps, in its hidden module's
    DIMENSIONS, to what it ranges over (ties, lengths past a cap, keys in other orders, suffix names, ...)
    and the words of a hidden case's situation that reach it: a promise with none fails here."""
    import importlib

    requirements = importlib.import_module(f"autograder.course.lessons.l{assignment}").REQUIREMENTS
    dimensions = importlib.import_module(f"autograder.course.hidden.l{assignment}").DIMENSIONS
    cases = hidden_cases(assignment)
    assert set(dimensions) == set(requirements), "DIMENSIONS and REQUIREMENTS name other exercises"
    for exercise, promises in requirements.items():
        situations = [case.situation for case in cases.get(exercise, [])]
        assert set(promises) - set(dimensions[exercise]) == set(), f"{exercise}: promises with no dimension"
        assert set(dimensions[exercise]) - set(promises) == set(), f"{exercise}: dimensions of no promise"
        for promise, ranges in dimensions[exercise].items():
            assert ranges, (exercise, promise)
            for dimension, words in ranges.items():
                assert any(words in situation for situation in situations), (
                    f"{exercise}: {promise!r} ranges over {dimension}, but no hidden situation holds {words!r}")
