"""Markers: the values a kernel is given in place of a case's hidden inputs.

An exercise that names inputs `marked` never sends them to the kernel. Its probe calls the student's
code on markers instead, numbers of the same kind and shape chosen so that they can be found again
(exact in float32, each unlike the others), and hands out the runs the code made
(`probing.RunsRecorded.history`). The grader then re-runs those runs with each marker swapped back
for the hidden value it stands for (`autograder.course.history`).

Kinds: "number" (an int or a float), "numbers" (a list of them, each its own marker), "lists" (a
dict of such lists, each number its own marker, in the dict's order), "array" (a list of floats, or
nested lists of them, one marker for the whole of it) and "arrays" (a list of such arrays, each its
own marker). Arrays' elements are all unlike each other, across arrays too. Marking is idempotent:
markers depend only on
the kinds, order and lengths of the inputs, so a case marked twice (by the grader, then by the probe
cell, which marks whatever case it is given) carries the same markers.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

FLOAT_NUMBERS = 0.3125  # then 0.3125 + 5/128 * i: a float32 holds each exactly
FLOAT_STEP = 5 / 128
INT_NUMBERS = 9001  # then 9001 + i
ARRAY_START = 1.53125  # element j of an array marker is 1.53125 + j / 8, past every number marker
ARRAY_STEP = 1 / 8


def mark(inputs: Mapping[str, Any], marked: Mapping[str, str]) -> tuple[dict, list[tuple[Any, Any]]]:
    """`inputs` with each `marked` one replaced by markers, and the (marker, hidden value) pairs."""
    kernel, swaps, count, elements = dict(inputs), [], 0, 0

    def number(value: Any) -> Any:
        nonlocal count
        if value is None:
            return None
        marker = INT_NUMBERS + count if isinstance(value, int) and not isinstance(value, bool) else \
            FLOAT_NUMBERS + FLOAT_STEP * count
        count += 1
        swaps.append((marker, value))
        return marker

    def array(value: Any) -> Any:
        nonlocal elements
        shape = np.shape(value)
        marker = (ARRAY_START + ARRAY_STEP * (elements + np.arange(int(np.prod(shape))))).reshape(shape).tolist()
        elements += int(np.prod(shape))
        swaps.append((marker, value))
        return marker

    for key, kind in marked.items():
        if key not in inputs:
            continue
        value = inputs[key]
        if kind == "number":
            kernel[key] = number(value)
        elif kind == "numbers":
            kernel[key] = [number(v) for v in value]
        elif kind == "lists":
            kernel[key] = {name: [number(v) for v in values] for name, values in value.items()}
        elif kind == "array":
            kernel[key] = array(value)
        elif kind == "arrays":
            kernel[key] = [array(v) for v in value]
        else:
            raise ValueError(f"unknown marker kind {kind!r} for {key!r}")
    return kernel, swaps
