"""Valid alternative answers: each must keep its exercise's full marks.

Each is written the way a student who read only the released notebook might answer: another API,
another order, another structure, names the docstring does not fix. An alternative replaces one
solution cell (by nbgrader grade_id). Alternatives of different exercises share a notebook
(`groups_of`), so a lesson's alternatives cost as many gradings as it has alternatives per exercise.
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


def groups_of(assignment: str) -> list[list[Alternative]]:
    """The lesson's alternatives split into groups that touch each solution cell at most once."""
    groups: list[list[Alternative]] = []
    for alternative in alternatives_of(assignment):
        free = [g for g in groups if all(a.cell != alternative.cell for a in g)]
        if free:
            free[0].append(alternative)
        else:
            groups.append([alternative])
    return groups

