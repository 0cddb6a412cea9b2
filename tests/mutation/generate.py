"""Every machine-made mutant of every exercise's solution cell, with a stable id.

An id is `<assignment>/<exercise>/<10 hex digits>`, the digits a hash of the mutated cell: it
stays the same as long as the solution cell does, so the committed list of equivalent mutants
(`equivalent/l<assignment>.toml`) goes stale, and `make test` says so, when a solution changes.
"""
from __future__ import annotations

import ast
import difflib
import functools
import hashlib
from dataclasses import dataclass

import nbformat

from autograder.course import lessons
from autograder.judging.reference import solution_path
from tests.mutation.operators import node_mutants, session_per_call

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"


@dataclass(frozen=True)
class GeneratedMutant:
    id: str
    assignment: str
    exercise: str
    cell: str
    operator: str
    line: int
    source: str
    description: str
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.id)  # tests.swaps.swap_cells names what it swaps


def solution_cell(nb: nbformat.NotebookNode, exercise: str) -> nbformat.NotebookNode:
    """The solution cell of `exercise` (nbgrader grade_id `<exercise>_solution`)."""
    [cell] = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == f"{exercise}_solution"]
    return cell


def solution_lines(source: str) -> set[int]:
    """The 1-based numbers of the lines between each BEGIN and END SOLUTION marker pair."""
    inside, numbers = False, set()
    for number, line in enumerate(source.splitlines(), 1):
        inside = (inside or line.strip() == BEGIN) and line.strip() != END
        if inside:
            numbers.add(number)
    return numbers


def _description(operator: str, line: int, before: str, after: str) -> str:
    """`operator @line: old -> new`, the changed lines cut short; a swap shows the moved line."""
    diff = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    removed = [d[2:].strip() for d in diff if d.startswith("- ")]
    added = [d[2:].strip() for d in diff if d.startswith("+ ")]
    if operator == "swap_statements":
        return f"{operator} @{line}: moved `{(removed or added)[0][:80]}` past its neighbour"
    return f"{operator} @{line}: {' / '.join(removed)[:90]}  ->  {' / '.join(added)[:90]}"


def _same_program(a: str, b: str) -> bool:
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except SyntaxError:
        return True  # a mutant that does not parse is no mutant


def mutants_of_exercise(assignment: str, exercise: str, nb: nbformat.NotebookNode) -> list[GeneratedMutant]:
    """The distinct, parseable mutants of one exercise's solution code, in a stable order."""
    cell = solution_cell(nb, exercise)
    source = cell.source
    lines = solution_lines(source)
    found: dict[str, GeneratedMutant] = {}
    candidates = [*node_mutants(source, lines),
                  *(("session_per_call", min(lines), m) for m in session_per_call(source))]
    for operator, line, mutated in candidates:
        if mutated in found or _same_program(source, mutated):
            continue
        digest = hashlib.sha256(f"{assignment}\0{exercise}\0{mutated}".encode()).hexdigest()[:10]
        found[mutated] = GeneratedMutant(f"{assignment}/{exercise}/{digest}", assignment, exercise,
                                         cell.metadata["nbgrader"]["grade_id"], operator, line, mutated,
                                         _description(operator, line, source, mutated))
    return list(found.values())


@functools.cache
def generated_mutants(assignment: str) -> tuple[GeneratedMutant, ...]:
    """Every exercise's mutants, in the lesson's exercise order."""
    lesson = lessons.load(assignment)
    nb = nbformat.read(solution_path(lesson), as_version=4)
    return tuple(m for exercise in lesson.exercises for m in mutants_of_exercise(assignment, exercise.id, nb))
