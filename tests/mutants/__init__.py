"""Known-wrong submissions ("mutants"), each built from a misconception a lesson teaches.

A mutant replaces one solution cell (found by its nbgrader grade_id) of the solution notebook. The
suite grades every mutant and requires that it loses exactly its exercise's points and that the
feedback names `misconception`, the id of the check that should catch it.
"""
from __future__ import annotations

import copy
import importlib
import pkgutil
import textwrap
from dataclasses import dataclass

import nbformat


@dataclass(frozen=True)
class Mutant:
    name: str
    exercise: str
    misconception: str
    cell: str
    source: str

    def apply(self, solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
        """A copy of the solution notebook with this mutant's cell source swapped in."""
        nb = copy.deepcopy(solution)
        cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == self.cell]
        assert len(cells) == 1, f"{self.name}: no unique cell with grade_id {self.cell!r}"
        cells[0].source = textwrap.dedent(self.source).strip("\n")
        return nb


def mutants_of(assignment: str) -> list[Mutant]:
    """The mutants in `tests/mutants/l<assignment>.py` (its `MUTANTS` list); none if there is no file."""
    names = {m.name for m in pkgutil.iter_modules(__path__)}
    if f"l{assignment}" not in names:
        return []
    return importlib.import_module(f"{__name__}.l{assignment}").MUTANTS
