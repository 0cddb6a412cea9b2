"""Drawn hidden cases are a fixed set: the same on every call, in another process and under another hash seed."""
import json
import os
import subprocess
import sys

from autograder import COURSE_ROOT

DUMP = ("import json; from autograder.course.lessons import hidden_cases; "
        "print(json.dumps({k: [[c.situation, c.inputs] for c in v]"
        " for k, v in hidden_cases('07_learning_rate_decay').items()}, sort_keys=True))")


def test_drawn_cases_do_not_depend_on_the_run_or_the_hash_seed():
    runs = [subprocess.run([sys.executable, "-c", DUMP], cwd=COURSE_ROOT, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("0", "12345")]
    assert runs[0] == runs[1]
    drawn = [c for cases in json.loads(runs[0]).values() for situation, c in cases if situation.startswith("drawn:")]
    assert len(drawn) == 7


def test_draw_gives_distinct_examples_of_its_strategy():
    from hypothesis import strategies as st

    from autograder.course.hidden.drawn import decimals, draw, steps_around

    examples = draw(st.tuples(decimals(0.0, 1.0), st.integers(1, 9).flatmap(lambda b: steps_around([b]))), 5)
    assert len(examples) == 5 and all(e not in examples[:i] for i, e in enumerate(examples))
    assert examples == draw(st.tuples(decimals(0.0, 1.0), st.integers(1, 9).flatmap(lambda b: steps_around([b]))), 5)
    assert all(0.0 <= value <= 1.0 and 0 in steps for value, steps in examples)
