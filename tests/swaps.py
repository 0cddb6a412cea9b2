"""Notebooks made from the solution by swapping one solution cell's source: mutants and alternatives.

A swap names the solution cell it replaces by its nbgrader grade_id; its source is dedented first, so
the swaps' files can indent it like any other code. Swaps of different cells can share a notebook
(`one_per_cell`): every exercise has a cell of its own, so a lesson costs as many gradings as it has
swaps of its busiest cell.
"""
from __future__ import annotations

import copy
import importlib
import pkgutil
import textwrap
from types import ModuleType
from typing import Iterable

import nbformat


def swap_cells(solution: nbformat.NotebookNode, swaps: Iterable) -> nbformat.NotebookNode:
    """A copy of `solution` with each swap's `source` in place of the cell whose grade_id is its `cell`."""
    nb = copy.deepcopy(solution)
    for swap in swaps:
        cells = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == swap.cell]
        assert len(cells) == 1, f"{swap.name}: no unique cell with grade_id {swap.cell!r}"
        cells[0].source = textwrap.dedent(swap.source).strip("\n")
    return nb


def one_per_cell(swaps: Iterable) -> list[list]:
    """`swaps` split into groups that touch each solution cell at most once (first fit, in order)."""
    groups: list[list] = []
    for swap in swaps:
        free = [g for g in groups if all(other.cell != swap.cell for other in g)]
        if free:
            free[0].append(swap)
        else:
            groups.append([swap])
    return groups


def swaps_of(package: ModuleType, assignment: str, attribute: str) -> list:
    """The list `attribute` of `<package>/l<assignment>.py`; empty when the lesson has no such file."""
    names = {m.name for m in pkgutil.iter_modules(package.__path__)}
    if f"l{assignment}" not in names:
        return []
    return getattr(importlib.import_module(f"{package.__name__}.l{assignment}"), attribute)
