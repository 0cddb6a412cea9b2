"""Notebooks made from the solution by swapping one solution cell's source: mutants and alternatives.

A swap names the solution cell it replaces by its nbgrader grade_id; its source is dedented first, so
the swaps' files can indent it like any other code. Swaps of different cells can share a notebook
(`one_per_cell`): every exercise has a cell of its own, so a lesson costs as many gradings as it has
swaps of its busiest cell.
"""
from __future__ import annotations

import ast
import copy
import functools
import importlib
import io
import pkgutil
import textwrap
import tokenize
from pathlib import Path
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


# --- Swaps made as the solution plus a named edit ---------------------------------------------------------------
#
# A swap that differs from the solution in a line or two is written as the solution's own code with
# named edits, never as a copy of it: a copy drifts from the solution it claims to be, and a reader
# has to diff it by eye to see what the misconception is.

COURSE_ROOT = Path(__file__).resolve().parents[1]


def lesson_of(module_name: str) -> str:
    """`tests.mutants.l05_checkpoints_and_summaries` -> `05_checkpoints_and_summaries`."""
    return module_name.rsplit(".", 1)[1][1:]


@functools.cache
def solution_cells(assignment: str) -> dict[str, str]:
    """The sources of the solution notebook's cells, by nbgrader grade_id."""
    [path] = (COURSE_ROOT / "solutions" / assignment).glob("*.ipynb")
    nb = nbformat.read(path, as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in nb.cells if "grade_id" in c.metadata.get("nbgrader", {})}


def _docstring_lines(tree: ast.AST) -> set[int]:
    """The 1-based line numbers of every module, class and function docstring in `tree`."""
    numbers = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                numbers.update(range(first.lineno, first.end_lineno + 1))
    return numbers


def _statement_indents(tree: ast.AST) -> dict[int, int]:
    """For each 1-based line a statement covers, the indentation of the innermost statement covering it."""
    indents: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            for number in range(node.lineno, node.end_lineno + 1):
                indents[number] = max(indents.get(number, -1), node.col_offset)
    return indents


def _comment_cut(source: str) -> list[str]:
    """`source`'s lines with every comment cut off (the solution markers are comments too), right-stripped."""
    lines = source.split("\n")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col]
    return [line.rstrip() for line in lines]


def solution_code(source: str) -> str:
    """A solution cell's code as a swap starts from it: no docstrings, no comments (so no solution
    markers), and a blank line only where the source has one that ends a block (between methods,
    after a nested function)."""
    tree = ast.parse(source)
    docstrings, indents = _docstring_lines(tree), _statement_indents(tree)
    code = [(number, line) for number, (line, raw) in enumerate(zip(_comment_cut(source), source.split("\n")), 1)
            if number not in docstrings and (line or not raw.strip())]
    kept: list[str] = []
    last = None  # the line number of the last code line kept
    for i, (number, line) in enumerate(code):
        if line:
            kept.append(line)
            last = number
            continue
        later = next((n for n, text in code[i + 1:] if text), None)
        if last is not None and later is not None and kept[-1] and indents.get(later, 0) < indents.get(last, 0):
            kept.append("")
    return "\n".join(kept)


def edit(source: str, *edits: tuple[str, str | None]) -> str:
    """`source` with each edit `(old, new)` made in turn: `old` must stand in it exactly once; it is
    replaced by `new`, or with `new` None the whole line(s) holding it are deleted."""
    for old, new in edits:
        assert source.count(old) == 1, f"edit {old!r}: found {source.count(old)} times, not once, in\n{source}"
        if new is not None:
            source = source.replace(old, new)
            continue
        start = source.rfind("\n", 0, source.index(old)) + 1
        end = source.find("\n", source.index(old) + len(old))
        source = source[:start] + (source[end + 1:] if end >= 0 else "")
    return source


class Solution:
    """One lesson's solution code, from which its swaps are made as named edits.

    `Solution(__name__)` in a swaps module (`tests.mutants.edited_solution` makes one): `.code("best_keeper")`
    is the code of the cell `best_keeper_solution`, `.edit("best_keeper", (old, new), ...)` that code
    edited (`tests.swaps.edit`)."""

    def __init__(self, module_name: str):
        self.assignment = lesson_of(module_name)

    def code(self, exercise: str) -> str:
        return solution_code(solution_cells(self.assignment)[f"{exercise}_solution"])

    def edit(self, exercise: str, *edits: tuple[str, str | None]) -> str:
        return edit(self.code(exercise), *edits)
