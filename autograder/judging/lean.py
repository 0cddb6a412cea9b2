"""Lean grading: run only the cells a grade depends on.

A grade depends on the setup cell, on every cell the student wrote or changed, on the exercise
cells, and on the unchanged cells whose definitions those read, found by reading each cell's
syntax tree (`symtable`), transitively. The demo cells a student received and left alone (timing
sweeps, plots, TensorBoard servers) are the instructor's code: when nothing graded reads what they
define, they are not run. A cell is "unchanged" when its tokens are those of a code cell of the
released notebook (`notebooks/`): white space, blank lines and comments do not count (`code_key`),
as they do not for the screen. Changed cells always run, so
editing a demo cell to attack the grader gains nothing by it.

An unchanged cell whose side effect a grade depends on (a seed, a configuration) is declared by
the lesson: the cell carries the tag `RUN_TAG` in `solutions/`, hence in the release, and always
runs. The tag is read from the release, never from the submission.

The cut keeps notebook order. A name read at a cell's top level is bound by an earlier cell; a
name read inside a function can be bound by any cell, since the probes call the function after
the whole notebook has run; so both are kept. A name bound to data also keeps the cells that
merely use it (`rng.shuffle(x)` changes `rng`), except the names the released setup cell binds
(modules, their aliases, the checker). Cells that bind names by other means (`exec`, `globals()`,
star imports) count as binding every name.
"""
from __future__ import annotations

import ast
import functools
import symtable
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import nbformat

from autograder.course.spec import Lesson
from autograder.engine.kernel import is_check_cell
from autograder.judging.cells import code_key

# CPython 3.11 keeps the AST constructor's recursion depth in state that the threads of a process
# share, so two threads parsing at once can fail with "AST constructor recursion depth mismatch".
# The batch grader grades submissions in threads: the steps that parse a submission take turns.
PARSING = threading.Lock()

SETUP = "setup"
RUN_TAG = "autograder-runs"
ANY_NAME = "*"  # what a cell binds when it may bind anything
_BINDS_ANYTHING = {"exec", "eval", "globals"}


def _python(source: str) -> str:
    """The cell's source with IPython's magic and shell lines blanked out."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines())


def _parse(source: str) -> ast.Module:
    try:
        return ast.parse(_python(source))
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


@dataclass(frozen=True)
class CellNames:
    """How one cell uses the notebook's global names."""

    binds: frozenset[str]      # bound or deleted anywhere in it (in its functions too); ANY_NAME: maybe any
    assigns: frozenset[str]    # of those, bound to data (assignments, loop and with targets), not def/class/import
    mentions: frozenset[str]   # read anywhere in it: a method call or an item assignment can change them
    reads_now: frozenset[str]  # read at its top level before it binds them: bound by an earlier cell
    reads_later: frozenset[str]  # read as globals inside its functions and classes: bound by any cell


@functools.lru_cache(maxsize=1024)  # a lesson's unchanged cells are read again for every submission
def cell_names(source: str) -> CellNames:
    """Read `source` (a code cell) for the names it binds and reads."""
    tree = _parse(source)
    binds, assigns, mentions = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds.add(node.name)
        elif isinstance(node, ast.Name):
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                binds.add(node.id)
                assigns.add(node.id)
            else:
                mentions.add(node.id)
                if node.id in _BINDS_ANYTHING:
                    binds.add(ANY_NAME)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            binds |= {ANY_NAME if a.name == "*" else (a.asname or a.name).split(".")[0] for a in node.names}
    now, later = _reads(source, tree)
    return CellNames(frozenset(binds), frozenset(assigns), frozenset(mentions), frozenset(now), frozenset(later))


def _reads(source: str, tree: ast.Module) -> tuple[set[str], set[str]]:
    try:
        top = symtable.symtable(_python(source), "cell", "exec")
    except SyntaxError:
        return set(), set()
    referenced = {s.get_name() for s in top.get_symbols() if s.is_referenced()}
    assigned = {s.get_name() for s in top.get_symbols() if s.is_assigned()}
    now = (referenced - assigned) | _read_before_bound(tree, referenced & assigned)
    later: set[str] = set()
    tables = list(top.get_children())
    while tables:
        table = tables.pop()
        tables += table.get_children()
        later |= {s.get_name() for s in table.get_symbols() if s.is_referenced() and s.is_global()}
    return now, later


def _read_before_bound(tree: ast.Module, names: set[str]) -> set[str]:
    """Of `names` (both read and bound at the top level), those the first statement that mentions
    them reads (`x = x + 1`, `x += 1`): their value comes from an earlier cell."""
    pending, read = set(names), set()
    for statement in tree.body:
        mentions = [n for n in ast.walk(statement) if isinstance(n, ast.Name) and n.id in pending]
        updated = {n.target.id for n in ast.walk(statement)
                   if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}
        read |= {n.id for n in mentions if isinstance(n.ctx, ast.Load) or n.id in updated}
        pending -= {n.id for n in mentions}
    return read


def needed_cells(sources: Sequence[str | None], seeds: Iterable[int], names: Iterable[str] = (),
                 tools: Iterable[int] = ()) -> set[int]:
    """Indices of the cells to run: `seeds`, and transitively every cell that may set a name a kept
    cell reads (earlier cells for top-level reads, any cell for reads inside functions), or one of
    `names` (read when the notebook has run). A cell may set a name when it binds it, or, for a
    name some cell binds to data (not a function, class or module), when it reads it at all: a
    method call or an item assignment can change the value; except the names the `tools` cells (the
    setup cell) bind: modules, their aliases and the checker, whose changes are side effects a lesson
    declares (`RUN_TAG`). `None` marks a cell that never runs."""
    cells = [cell_names(s) if s is not None else None for s in sources]
    data = set().union(*(c.assigns for c in cells if c is not None))
    data -= set().union(*(cells[i].binds for i in tools if cells[i] is not None))
    kept, todo = set(), list(seeds)
    wanted_anywhere = set(names)
    wanted_before: dict[str, int] = {}  # name -> the latest kept cell that reads it at its top level

    def may_set(cell: CellNames, wanted: set[str]) -> bool:
        return bool(wanted) and bool(cell.binds & wanted or ANY_NAME in cell.binds or cell.mentions & wanted & data)

    while True:
        for i in todo:
            if i in kept or cells[i] is None:
                continue
            kept.add(i)
            wanted_anywhere |= cells[i].reads_later
            for name in cells[i].reads_now:
                wanted_before[name] = max(wanted_before.get(name, -1), i)
        todo = [i for i, cell in enumerate(cells) if i not in kept and cell is not None and (
            may_set(cell, wanted_anywhere) or may_set(cell, {n for n, last in wanted_before.items() if i < last}))]
        if not todo:
            return kept


@dataclass(frozen=True)
class Release:
    """What the lean cut needs of a released notebook: its code cells' sources, by role."""

    code: frozenset[str]
    setup: frozenset[str]
    exercises: frozenset[str]
    runs: frozenset[str]  # tagged `RUN_TAG`: side effects a grade depends on




def _grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def _is_exercise(cell: nbformat.NotebookNode) -> bool:
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution"))


@functools.lru_cache(maxsize=None)
def release_at(path: Path) -> Release:
    """The released notebook at `path` (`reference.release_path`), read once per process."""
    return release_of(nbformat.read(path, as_version=4).cells)


def release_of(cells: Sequence[nbformat.NotebookNode]) -> Release:
    """What the lean cut needs of a released notebook's cells."""
    cells = [c for c in cells if c.cell_type == "code"]
    return Release(code=frozenset(code_key(c.source) for c in cells),
                   setup=frozenset(code_key(c.source) for c in cells if _grade_id(c) == SETUP),
                   exercises=frozenset(code_key(c.source) for c in cells if _is_exercise(c)),
                   runs=frozenset(code_key(c.source) for c in cells if RUN_TAG in c.get("metadata", {}).get("tags", [])))


@dataclass
class Cut:
    """A notebook cut down to what its grade depends on; `skipped` code cells were left out."""

    notebook: nbformat.NotebookNode
    code_cells: int
    skipped: int

    def note(self) -> str:
        """The one line a result carries about the cells that did not run ("" when all did)."""
        if not self.skipped:
            return ""
        return (f"{self.skipped} of {self.code_cells} code cells, unchanged from the release, that no "
                "graded cell reads (--run-all, or c.Engine.run_all = True, runs every cell)")


def lean_cut(nb: nbformat.NotebookNode, release: Release, symbols: Iterable[str]) -> Cut:
    """`nb` without the unchanged cells nothing graded reads (see the module docstring). `symbols`
    are the names the probes read once the notebook has run: the exercises' functions and classes."""
    cells = nb.cells
    runs = [c.cell_type == "code" and not is_check_cell(c) for c in cells]
    sources = [c.source if run else None for c, run in zip(cells, runs)]
    seeds = [i for i, c in enumerate(cells) if runs[i] and (
        _grade_id(c) == SETUP or _is_exercise(c) or code_key(c.source) not in release.code
        or code_key(c.source) in release.setup | release.exercises | release.runs)]
    tools = [i for i in seeds if code_key(cells[i].source) in release.setup]  # the setup cell as released
    kept = needed_cells(sources, seeds, symbols, tools=tools)
    lean = nbformat.v4.new_notebook(cells=[cells[i] for i in sorted(kept)], metadata=nb.get("metadata", {}))
    return Cut(lean, code_cells=sum(runs), skipped=sum(runs) - len(kept))


def lesson_cut(nb: nbformat.NotebookNode, lesson: Lesson, release: Path) -> Cut:
    """`lean_cut` of a notebook of `lesson`, against its released notebook at `release`."""
    with PARSING:
        return lean_cut(nb, release_at(release), [e.symbol for e in lesson.exercises])
