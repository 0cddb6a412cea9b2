"""The honest corpus (issue 33): correct notebooks of lesson 2 written the way students write, with
magics, `__main__` guards, `warnings`, `operator`, environment variables, `getattr`/`setattr` with
variables, metaclasses, dataclasses, print debugging, comments in every kind of cell and extra
cells. Every one keeps full marks, status `graded`, no finding that zeroes, through both front ends
(tests/test_forgery.py grades them in its batch, tests/test_nbgrader.py under nbgrader autograde)."""
from __future__ import annotations

import copy
from typing import Callable

import nbformat

from autograder.course import lessons
from autograder.judging.reference import solution_path

ASSIGNMENT = "02_rebuild_vs_feed"
LESSON = lessons.load(ASSIGNMENT)

EXTRA_IDIOMS = '''import warnings, operator, os
warnings.filterwarnings("ignore", category=DeprecationWarning)
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
if __name__ == "__main__":
    print("running as a notebook:", operator.add(1, 2))
if "sess" in globals():
    sess.close()
for _i in range(2):
    vars = [_i]
'''
CLASS_IDIOMS = '''

import abc
from dataclasses import dataclass


class Configurable(metaclass=abc.ABCMeta):
    """A student's own base class: keyword options become attributes."""

    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)
        self.__dict__.update(kwargs)
        self._cache = {}

    def describe(self, attribute):
        return getattr(self, attribute)

    def share_cache(self, other):
        other._cache = self._cache


@dataclass
class Options:
    threshold: float = 0.5


print(f"{Options()=}", Configurable(a=1).describe("a"))
'''
TIMING = "%timeit -n1 -r1 sum(range(10))"


def _cells(nb: nbformat.NotebookNode, role: str | None = None) -> list:
    code = [c for c in nb.cells if c.cell_type == "code"]
    if role == "solution":
        return [c for c in code if c.metadata.get("nbgrader", {}).get("solution")]
    if role == "demo":
        return [c for c in code if not c.metadata.get("nbgrader")]
    return code


def with_magics(nb: nbformat.NotebookNode) -> None:
    """`%%time` opens every solution cell, and an extra cell times something with `%timeit`."""
    for cell in _cells(nb, "solution"):
        cell.source = "%%time\n" + cell.source
    nb.cells.insert(2, nbformat.v4.new_code_cell(TIMING))


def with_idioms(nb: nbformat.NotebookNode) -> None:
    """An extra cell of everyday idioms after the setup cell; class idioms after each solution."""
    nb.cells.insert(2, nbformat.v4.new_code_cell(EXTRA_IDIOMS))
    for cell in _cells(nb, "solution"):
        cell.source += CLASS_IDIOMS


def with_comments(nb: nbformat.NotebookNode) -> None:
    """A comment, blank lines and a trailing newline in every code cell, the course's own included."""
    for cell in _cells(nb):
        cell.source = "# my notes\n" + cell.source.replace("\n\n", "\n\n\n") + "\n"


def with_print_debugging(nb: nbformat.NotebookNode) -> None:
    """print() calls in the solutions and an extra cell that inspects ops by a variable attribute."""
    for cell in _cells(nb, "solution"):
        cell.source = 'print("debug: defining")\n' + cell.source
    nb.cells.insert(2, nbformat.v4.new_code_cell(
        "with tf.Graph().as_default() as g:\n    tf.constant(1.0, name='c')\n"
        "for attribute in ('name', 'type'):\n    print([getattr(op, attribute) for op in g.get_operations()])"))


HONEST: dict[str, Callable[[nbformat.NotebookNode], None]] = {
    "honest-magics": with_magics, "honest-idioms": with_idioms,
    "honest-comments": with_comments, "honest-print-debugging": with_print_debugging,
}


def honest_notebook(name: str) -> nbformat.NotebookNode:
    """The solution of lesson 2, written the way `HONEST[name]` says."""
    nb = copy.deepcopy(nbformat.read(solution_path(LESSON), as_version=4))
    HONEST[name](nb)
    return nb
