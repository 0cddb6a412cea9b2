"""The strategies behind the drawn hidden cases (Hypothesis), and the drawing that stores them as data.

Strategies state what a docstring promises: steps in any order and on boundaries, other lengths, slow
and fast decays, options under other names. `draw(strategy, n)` returns n examples, the same in every
process: Hypothesis is derandomized (its seed is a digest of the collecting function, which never
changes), keeps no example database, only generates (no shrinking, no replay of failures), has no
deadline, and draws none of the "local constants" it would otherwise harvest from whatever modules the
process has imported (a process under pytest imports others than the batch grader, and drew other
cases: issue 25's reverted first merge). Only `python -m autograder publish` and the tests draw;
grading reads what `write` stored (`autograder.course.hidden.drawn`).
"""
from __future__ import annotations

import importlib
import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers

from autograder.course.hidden.drawn import drawn_path


@contextmanager
def _no_local_constants():
    # Hypothesis 6.131+ mixes literals from the process's own modules into what it draws. The
    # version is pinned, and test_drawn compares draws under pytest with draws in a bare process.
    harvested = providers._get_local_constants
    providers._get_local_constants = lambda: providers.Constants()
    providers.CONSTANTS_CACHE.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = harvested
        providers.CONSTANTS_CACHE.cache.clear()


def draw(strategy: st.SearchStrategy, n: int) -> list[Any]:
    """The first `n` distinct examples a derandomized Hypothesis run draws from `strategy`."""
    examples: list[Any] = []

    @settings(derandomize=True, database=None, max_examples=4 * n, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example):
        if len(examples) < n and example not in examples:
            examples.append(example)

    with _no_local_constants():
        collect()
    return examples


def draw_lesson(assignment: str) -> dict[str, list[tuple[str, Any]]]:
    """Each exercise's drawn `(situation, inputs)` pairs, from the hidden module's `strategies()`."""
    module = importlib.import_module(f"autograder.course.hidden.l{assignment}")
    promised = module.strategies() if hasattr(module, "strategies") else {}
    return {ex_id: [(situation, inputs) for situation, strategy, n in drawings for inputs in draw(strategy, n)]
            for ex_id, drawings in promised.items()}


def write(assignment: str) -> Path | None:
    """Draw the lesson's hidden cases and store them; None when the lesson draws none."""
    drawn = draw_lesson(assignment)
    path = drawn_path(assignment)
    if not drawn:
        path.unlink(missing_ok=True)
        return None
    path.write_text(json.dumps(drawn, indent=1, sort_keys=True) + "\n")
    return path


def decimals(low: float, high: float, places: int = 3) -> st.SearchStrategy:
    """Floats in [low, high] with at most `places` decimals: no subnormals or ulp-edge noise, which a
    docstring promises nothing about."""
    scale = 10 ** places
    return st.integers(int(round(low * scale)), int(round(high * scale))).map(lambda k: k / scale)


def steps_around(boundaries: list[int], extra: int = 4) -> st.SearchStrategy:
    """A shuffled list of steps: each boundary, its neighbours, step 0 and a few others, repeats allowed."""
    near = sorted({s for b in boundaries for s in (b - 1, b, b + 1) if s >= 0} | {0})
    top = max(boundaries, default=10) * 3 + 1
    return st.tuples(st.lists(st.integers(0, top), max_size=extra), st.randoms(use_true_random=False)).map(
        lambda pair: _shuffled(near + pair[0], pair[1]))


def _shuffled(items: list[int], rng) -> list[int]:
    items = list(items)
    rng.shuffle(items)
    return items
