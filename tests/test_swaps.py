"""Mutants and alternatives are written as swaps of solution cells: none repeats a solution's lines.

A swap that differs from the solution in a line or two is the solution's code plus named edits
(`tests.swaps.edit`), so that the solution stays the one copy of itself and a reader sees at once
what a mutant changes. These tests hold the swaps' modules to that, and pin down the edit helpers.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from tests.swaps import COURSE_ROOT, edit, solution_cells, solution_code

RUN = 6  # this many consecutive non-blank lines of a solution, repeated, make a copy
MODULES = sorted(p for kind in ("mutants", "alternatives")
                 for p in (COURSE_ROOT / "tests" / kind).glob("l[0-9][0-9]_*.py"))


def _lines(text: str) -> list[tuple[int, str]]:
    """(line number, the line without its trailing comment, stripped, its white space folded) of
    every line that holds code: blank lines and comment lines are passed over."""
    lines = []
    for number, line in enumerate(text.split("\n"), 1):
        line = " ".join(re.sub(r"\s+#\s.*$", "", line).split())
        if line and not line.startswith("#"):
            lines.append((number, line))
    return lines


def repeated_runs(module_text: str, solution_source: str, run: int = RUN) -> list[int]:
    """The line numbers of `module_text` at which `run` consecutive code lines of `solution_source`
    stand again, in the same order."""
    solution = [line for _, line in _lines(solution_code(solution_source))]
    runs = {tuple(solution[i:i + run]) for i in range(len(solution) - run + 1)}
    module = _lines(module_text)
    texts = [line for _, line in module]
    return [module[i][0] for i in range(len(texts) - run + 1) if tuple(texts[i:i + run]) in runs]


@pytest.mark.parametrize("module", MODULES, ids=[f"{p.parent.name}/{p.name}" for p in MODULES])
def test_no_swap_module_repeats_six_lines_of_a_solution(module: Path):
    text = module.read_text()
    copies = {cell: lines for cell, source in solution_cells(module.stem[1:]).items()
              if cell.endswith("_solution") and (lines := repeated_runs(text, source))}
    assert not copies, (f"{module.name} repeats {RUN} or more lines of the solution cells {copies} (cell: lines "
                        "where a run starts): write the swap as the solution plus named edits "
                        "(tests.swaps.Solution, edited_solution), or write it genuinely differently")


def test_every_lesson_with_swaps_has_a_solution_notebook():
    for module in MODULES:
        assert any(cell.endswith("_solution") for cell in solution_cells(module.stem[1:])), module


def test_the_check_finds_a_copy_and_passes_an_edit():
    source = textwrap.dedent('''\
        def f(a):
            """Docstring."""
            ### BEGIN SOLUTION
            b = a + 1
            c = b * 2  # a comment
            d = c - 3

            e = d / 4
            g = e ** 5
            return g
            ### END SOLUTION
        ''')
    copy = "x = 1\n" + solution_code(source).replace("c = b * 2", "c = b * 2  # noted") + "\n"
    assert repeated_runs(copy, source) == [2, 3]  # two runs of six in seven lines
    assert repeated_runs(copy.replace("e = d / 4", "e = d // 4"), source) == []


def test_solution_code_drops_docstrings_comments_and_markers():
    source = textwrap.dedent('''\
        class K:
            """Docstring
            on two lines."""

            def __init__(self, a,
                         b):
                ### BEGIN SOLUTION
                self.a = a  # kept, without its comment

                self.b = b
                ### END SOLUTION

            def get(self):
                """Docstring."""
                ### BEGIN SOLUTION
                return self.a
                ### END SOLUTION
        ''')
    assert solution_code(source) == textwrap.dedent('''\
        class K:
            def __init__(self, a,
                         b):
                self.a = a
                self.b = b

            def get(self):
                return self.a''')


def test_edit_replaces_or_deletes_text_that_stands_once():
    source = "a = 1\nb = a + 1\nreturn b"
    assert edit(source, ("a + 1", "a + 2")) == "a = 1\nb = a + 2\nreturn b"
    assert edit(source, ("b = a", None)) == "a = 1\nreturn b"
    assert edit(source, ("return b", None)) == "a = 1\nb = a + 1\n"
    assert edit(source, ("a = 1\nb", None)) == "return b"
    assert edit(source, ("a + 1", "a + 2"), ("a + 2", "a + 3")) == "a = 1\nb = a + 3\nreturn b"
    with pytest.raises(AssertionError, match="found 2 times"):
        edit(source, ("a", "z"))
    with pytest.raises(AssertionError, match="found 0 times"):
        edit(source, ("c", "z"))


def test_every_mutant_differs_from_its_solution():
    from tests.mutants import mutants_of

    for module in (COURSE_ROOT / "tests" / "mutants").glob("l[0-9][0-9]_*.py"):
        cells = solution_cells(module.stem[1:])
        for mutant in mutants_of(module.stem[1:]):
            assert textwrap.dedent(mutant.source).strip() != solution_code(cells[mutant.cell]).strip(), mutant.name


def test_edited_solution_makes_mutants_and_alternatives_of_the_lesson_it_is_called_in():
    from tests import alternatives, mutants

    step = ("tf1.train.get_or_create_global_step()", "tf1.train.create_global_step()")
    for package, fields in ((mutants, ("name", "global_step", "trainable-step")), (alternatives, ("name", "global_step"))):
        swap = package.edited_solution("tests.x.l05_checkpoints_and_summaries")(*fields, step)
        assert (swap.name, swap.exercise, swap.cell) == ("name", "global_step", "global_step_solution")
        assert "tf1.train.create_global_step()" in swap.source and "get_or_create" not in swap.source
