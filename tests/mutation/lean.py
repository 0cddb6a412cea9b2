"""Lean notebooks of chosen exercises: a mutant of one exercise is graded in about a second.

The grader already cuts every submission down to what its grade depends on (`autograder.judging.lean`);
`make mutants` cuts further, to one exercise: the setup cell, that exercise's solution cell (mutated
or not) and the cells it needs, by the same reading of each cell's syntax tree. The other exercises
then score 0 for a missing definition, which it ignores. Each exercise's lean, unmutated notebook is
graded alongside its mutants as a baseline: only where that baseline keeps full marks does a
mutant's lost point mean the tests caught it.
"""
from __future__ import annotations

import nbformat

from autograder.engine.kernel import is_check_cell
from autograder.judging.lean import SETUP, needed_cells


def lean_notebook(nb: nbformat.NotebookNode, *keep_grade_ids: str, checks: bool = False) -> nbformat.NotebookNode:
    """`nb` cut down to its setup cell, the cells `keep_grade_ids` (all solution cells when none are
    named) and the cells they need; with `checks`, also every check cell (the cells nbgrader scores)."""
    cells = nb.cells
    grade_id = lambda c: c.metadata.get("nbgrader", {}).get("grade_id")  # noqa: E731
    wanted = set(keep_grade_ids) or {grade_id(c) for c in cells if c.metadata.get("nbgrader", {}).get("solution")}
    sources = [c.source if c.cell_type == "code" and not is_check_cell(c) else None for c in cells]
    kept = needed_cells(sources, [i for i, c in enumerate(cells) if grade_id(c) in wanted | {SETUP}],
                        tools=[i for i, c in enumerate(cells) if grade_id(c) == SETUP])
    if checks:
        kept |= {i for i, c in enumerate(cells) if is_check_cell(c)}
    return nbformat.v4.new_notebook(cells=[cells[i] for i in sorted(kept)], metadata=nb.metadata)
