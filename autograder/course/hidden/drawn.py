"""Hidden cases drawn by a property-based generator (Hypothesis) from strategies that state what a
docstring promises: steps in any order and on boundaries, other lengths, slow and fast decays.

`draw(strategy, n)` returns n examples, the same ones on every machine, in every run and under any
PYTHONHASHSEED: Hypothesis is derandomized (its seed is a digest of the collecting function, which
never changes), keeps no example database, only generates (no shrinking, no replay of failures) and
has no deadline, so neither the machine's speed nor a previous run can change what is drawn. The
Hypothesis version is pinned in requirements.txt: another version may draw other examples; the
references are then recomputed from the solution, and verdicts stay right, if not identical.

The drawn cases stand beside the hand-written ones, which name the situations they were written for.
"""
from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st


def draw(strategy: st.SearchStrategy, n: int) -> list[Any]:
    """The first `n` distinct examples a derandomized Hypothesis run draws from `strategy`."""
    examples: list[Any] = []

    @settings(derandomize=True, database=None, max_examples=4 * n, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example):
        if len(examples) < n and example not in examples:
            examples.append(example)

    collect()
    return examples


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
