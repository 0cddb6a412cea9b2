"""Valid alternative answers: each must keep its exercise's full marks.

Each is written the way a student who read only the released notebook might answer: another API,
another order, another structure, names the docstring does not fix. An alternative replaces one
solution cell (by nbgrader grade_id). Alternatives of different exercises share a notebook
(`tests.swaps.one_per_cell`); one may call the student's other exercises, since those are right too.

An alternative that differs from the solution in a line or two is written as the solution's code plus
named edits (`edited_solution`), never as a copy of the solution: `tests/test_swaps.py` fails when an
alternatives module repeats six lines of a solution cell.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

from tests.swaps import Solution, swaps_of


@dataclass(frozen=True)
class Alternative:
    name: str
    exercise: str
    cell: str
    source: str


def alternatives_of(assignment: str) -> list[Alternative]:
    """The alternatives in `tests/alternatives/l<assignment>.py` (its `ALTERNATIVES` list)."""
    return swaps_of(sys.modules[__name__], assignment, "ALTERNATIVES")


def edited_solution(module_name: str):
    """The maker of a lesson's alternatives as its solution plus edits: `edited = edited_solution(__name__)`,
    then `edited(name, exercise, (old, new), ...)` (see `tests.mutants.edited_solution`)."""
    solution = Solution(module_name)

    def edited(name: str, exercise: str, *edits) -> Alternative:
        return Alternative(name, exercise, f"{exercise}_solution", solution.edit(exercise, *edits))

    return edited
