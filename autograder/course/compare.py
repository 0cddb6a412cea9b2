"""Ready-made comparisons for `Check.compare`: `got` is the student's observation, `expected` the reference's.

Floats computed by the same code differ in their last digits between machines and thread counts,
so every number is compared with a tolerance, at every depth of an observation; strings, booleans,
None, lengths and keys must agree exactly.
"""
from __future__ import annotations

import math
from numbers import Real
from typing import Any, Callable

import numpy as np

from autograder.course.spec import Compare, Observation

RTOL = 1e-5
ATOL = 1e-6


def values_match(got: Any, expected: Any, rtol: float = RTOL, atol: float = ATOL) -> bool:
    """True when two JSON-like values agree: numbers within `atol + rtol * |expected|`, anywhere in
    nested dicts and lists; everything else (strings, booleans, None, keys, lengths) exactly."""
    got, expected = _plain(got), _plain(expected)
    if isinstance(expected, dict):
        return (isinstance(got, dict) and got.keys() == expected.keys()
                and all(values_match(got[k], expected[k], rtol, atol) for k in expected))
    if isinstance(expected, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(expected)
                and all(values_match(g, e, rtol, atol) for g, e in zip(got, expected)))
    if _is_number(expected) and _is_number(got):
        return _close(float(got), float(expected), rtol, atol)
    return type(got) is type(expected) and got == expected


def _plain(value: Any) -> Any:
    """NumPy arrays and scalars as the Python values JSON would give."""
    return value.tolist() if isinstance(value, (np.ndarray, np.generic)) else value


def _is_number(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def _close(got: float, expected: float, rtol: float, atol: float) -> bool:
    if math.isnan(got) or math.isnan(expected):
        return math.isnan(got) and math.isnan(expected)
    if math.isinf(got) or math.isinf(expected):
        return got == expected
    return abs(got - expected) <= atol + rtol * abs(expected)


def round_floats(value: Any, digits: int = 6) -> Any:
    """`value` with every float rounded to `digits` significant digits, at every depth.

    The shipped expected values are published this way, so that a release made on another machine
    (whose floats differ in the last digits) writes the same file.
    """
    value = _plain(value)
    if isinstance(value, dict):
        return {k: round_floats(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [round_floats(v, digits) for v in value]
    if isinstance(value, float) and math.isfinite(value):
        return float(f"{value:.{digits}g}")
    return value


def same(*keys: str, rtol: float = RTOL, atol: float = ATOL) -> Compare:
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
