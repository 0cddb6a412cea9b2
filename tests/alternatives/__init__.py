"""Valid alternative answers: each must keep its exercise's full marks.

Each is written the way a student who read only the released notebook might answer: another API,
another order, another structure, names the docstring does not fix. An alternative replaces one
solution cell (by nbgrader grade_id). Alternatives of different exercises share a notebook
(`tests.swaps.one_per_cell`); one may call the student's other exercises, since those are right too.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from tests.swaps import swaps_of


@dataclass(frozen=True)
class Alternative:
    name: str
    exercise: str
    cell: str
    source: str


def alternatives_of(assignment: str) -> list[Alternative]:
    """The alternatives in `tests/alternatives/l<assignment>.py` (its `ALTERNATIVES` list)."""
    return swaps_of(sys.modules[__name__], assignment, "ALTERNATIVES")
