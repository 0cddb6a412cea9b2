"""Lean notebooks: only the cells some exercises need, so a mutant is graded in about a second.

A lean notebook keeps the setup cell, the chosen solution cells (mutated or not) and the earlier
code cells that define a name they use, transitively, found by reading each cell's syntax tree.
Demos, plots and timings are left out. `make mutants` keeps one exercise (the others then score 0
for a missing definition, which it ignores); the test suite keeps every exercise. Each exercise's lean, unmutated notebook is
graded alongside its mutants as a baseline: only where that baseline keeps full marks does a
mutant's lost point mean the tests caught it.
"""
from __future__ import annotations

import ast
import copy
import symtable

import nbformat

SETUP = "setup"


def _python(source: str) -> str:
    """The cell's source with IPython's magic and shell lines blanked out."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def _parse(source: str) -> ast.Module:
    try:
        return ast.parse(_python(source))
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def defined_names(source: str) -> set[str]:
    """Names a cell binds at its top level (assignments, defs, classes, imports, loop and with targets)."""
    names: set[str] = set()
    for node in ast.walk(_parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def used_names(source: str) -> set[str]:
    """The names a cell reads from the notebook's globals: read at its top level without being bound
    there, or read inside its functions and classes without being local to them."""
    try:
        top = symtable.symtable(_python(source), "cell", "exec")
    except SyntaxError:
        return set()
    names = {s.get_name() for s in top.get_symbols() if s.is_referenced() and not s.is_assigned()}
    tables = list(top.get_children())
    while tables:
        table = tables.pop()
        tables += table.get_children()
        names |= {s.get_name() for s in table.get_symbols() if s.is_referenced() and s.is_global()}
    return names


def lean_notebook(nb: nbformat.NotebookNode, *keep_grade_ids: str, checks: bool = False) -> nbformat.NotebookNode:
    """`nb` cut down to its setup cell, the cells `keep_grade_ids` (all solution cells when none are
    named) and the earlier code cells they need; with `checks`, also every check cell (the cells
    nbgrader scores)."""
    cells = nb.cells
    grade_id = lambda c: c.metadata.get("nbgrader", {}).get("grade_id")  # noqa: E731
    wanted = set(keep_grade_ids) or {grade_id(c) for c in cells if c.metadata.get("nbgrader", {}).get("solution")}
    if checks:
        wanted |= {grade_id(c) for c in cells if c.metadata.get("nbgrader", {}).get("grade")}
    kept, needed = set(), set()
    for i in range(len(cells) - 1, -1, -1):
        cell = cells[i]
        if grade_id(cell) in wanted:
            kept.add(i)
            needed |= used_names(cell.source)
        elif cell.cell_type == "code" and grade_id(cell) in (None, SETUP) and (
                grade_id(cell) == SETUP or defined_names(cell.source) & needed):
            kept.add(i)
            needed |= used_names(cell.source)
    lean = copy.deepcopy(nb)
    lean.cells = [copy.deepcopy(cells[i]) for i in sorted(kept)]
    return lean
