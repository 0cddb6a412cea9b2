"""Known-wrong submissions ("mutants"), each built from a misconception a lesson teaches.

A mutant replaces one solution cell (found by its nbgrader grade_id) of the solution notebook. The
suite grades every mutant and requires that it loses its exercise's points and that the feedback
names `misconception`, the id of the check that should catch it. Mutants of different exercises
share a notebook (`tests.swaps.one_per_cell`), which is sound because each exercise has a cell of its
own and a mutant calls no other exercise (`tests/test_grading.py` checks both), and every exercise
left unmutated in that notebook must keep its full marks.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

import nbformat

from tests.swaps import swap_cells, swaps_of


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
