"""Ready-made comparisons for `Check.compare`: `got` is the student's observation, `expected` the reference's."""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .spec import Compare, Observation


def values_match(got: Any, expected: Any, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """True when two JSON-decoded values agree: numbers within tolerance, everything else exactly."""
    if isinstance(expected, dict):
        return (isinstance(got, dict) and got.keys() == expected.keys()
                and all(values_match(got[k], expected[k], rtol, atol) for k in expected))
    if isinstance(expected, str) or expected is None:
        return got == expected
    try:
        g, e = np.asarray(got), np.asarray(expected)
    except (ValueError, TypeError):
        return got == expected
    if g.shape != e.shape:
        return False
    if g.dtype == bool or e.dtype == bool:
        return g.dtype == e.dtype and bool(np.array_equal(g, e))
    if g.dtype.kind in "fiu" and e.dtype.kind in "fiu":
        return bool(np.allclose(g, e, rtol=rtol, atol=atol, equal_nan=True))
    return bool(np.array_equal(g, e))


def same(*keys: str, rtol: float = 1e-5, atol: float = 1e-6) -> Compare:
    """The observations agree on every one of `keys` (a key the student's lacks is a failure)."""
    def compare(got: Observation, expected: Observation) -> bool:
        return all(k in got and values_match(got[k], expected[k], rtol, atol) for k in keys)
    return compare


def holds(predicate: Callable[[Observation], bool]) -> Compare:
    """The student's observation satisfies `predicate` on its own, whatever the reference says."""
    def compare(got: Observation, expected: Observation) -> bool:
        try:
            return bool(predicate(got))
        except (KeyError, TypeError, ValueError):
            return False
    return compare
