"""Known-wrong submissions ("mutants"), each built from a misconception a lesson teaches.

A mutant replaces one solution cell (found by its nbgrader grade_id) of the solution notebook. The
suite grades every mutant and requires that it loses its exercise's points and that the feedback
names `misconception`, the id of the check that should catch it. Mutants of different exercises
share a notebook (`tests.swaps.one_per_cell`), which is sound because each exercise has a cell of its
own and a mutant calls no other exercise (`tests/test_grading.py` checks both), and every exercise
left unmutated in that notebook must keep its full marks.

A mutant that is the solution with a line or two changed is written as the solution's code plus named
edits (`edited_solution`, `tests.swaps.edit`), never as a copy of the solution: `tests/test_swaps.py`
fails when a mutants module repeats six lines of a solution cell.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

import nbformat

from tests.swaps import Solution, swap_cells, swaps_of


@dataclass(frozen=True)
class Mutant:
    name: str
    exercise: str
    misconception: str
    cell: str
    source: str

    def apply(self, solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
        """A copy of the solution notebook with this mutant's cell source swapped in."""
        return swap_cells(solution, [self])


def mutants_of(assignment: str) -> list[Mutant]:
    """The mutants in `tests/mutants/l<assignment>.py` (its `MUTANTS` list); none if there is no file."""
    return swaps_of(sys.modules[__name__], assignment, "MUTANTS")


def edited_solution(module_name: str):
    """The maker of a lesson's mutants as its solution plus edits, for `tests/mutants/l<assignment>.py`:
    `edited = edited_solution(__name__)`, then `edited(name, exercise, misconception, (old, new), ...)`
    is the mutant whose source is the code of the cell `<exercise>_solution` with each edit made
    (`tests.swaps.edit`: `old` stands there once; `new` None deletes its line)."""
    solution = Solution(module_name)

    def edited(name: str, exercise: str, misconception: str, *edits) -> Mutant:
        return Mutant(name, exercise, misconception, f"{exercise}_solution", solution.edit(exercise, *edits))

    return edited
