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


# From the second red team (issue 33): correct answers that lost points at run time.
TRACEBACKS = {
    "retune_solution": '''import traceback


def retune(options, threshold):
    try:
        old = options["threshold"]
    except KeyError:
        traceback.print_exc()  # I want to see when a dict has no threshold yet
        print("no threshold yet:", traceback.format_exc().splitlines()[-1])
        old = None
    print(f"retune: {old} -> {threshold}")
    options.update(threshold=threshold)''',
    "threshold_judge_solution": '''import traceback


class ThresholdJudge:
    def __init__(self, options):
        traceback.print_stack(limit=2)  # print debugging: who builds my judge?
        self.options = options
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.placeholder(tf.float32, [], name="threshold")
        self.output = tf.greater_equal(self.x, self.threshold, name="judge")
        self.sess = tf1.Session()

    def update_options(self, options):
        self.options = options

    def judge(self, x):
        return self.sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})''',
    "set_hyperparameter_solution": '''import functools
import inspect


def checked(fn):
    """Check the call matches fn's signature before running it."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        signature.bind(*args, **kwargs)
        return fn(*args, **kwargs)

    return wrapper


@checked
def set_hyperparameter(api, name, value):
    api.options[name] = value
    if "graph" in api.used_in[name]:
        api.network.build()
    if "python" in api.used_in[name]:
        api.model.reset()''',
}
GRAPH_DEBUGGING = {
    "threshold_graph_solution": '''def build_threshold_graph(default):
    x = tf1.placeholder(tf.float32, [None], name="x")
    threshold = tf1.placeholder_with_default(tf.constant(default, tf.float32), [], name="threshold")
    checked_x = tf.ensure_shape(x, [None])  # defensive: x must be a vector
    show = tf.print("threshold used:", threshold)  # print debugging, the graph way
    with tf.control_dependencies([show]):
        output = tf.greater_equal(checked_x, threshold, name="output")
    return x, threshold, output''',
    "retune_solution": '''import my_helpers


def retune(options, threshold):
    my_helpers.set_key(options, "threshold", threshold)


help(retune)''',
}
HELPER_MODULE = '''%%writefile my_helpers.py
def set_key(mapping, key, value):
    """Set mapping[key] = value in place and return the old value (None if absent)."""
    old = mapping.get(key)
    mapping[key] = value
    return old'''


def replacing(sources: dict[str, str], extra: tuple[str, ...] = ()) -> Callable[[nbformat.NotebookNode], None]:
    """Each solution cell named in `sources` (by grade_id) holds that source; `extra` cells follow the setup."""
    def change(nb: nbformat.NotebookNode) -> None:
        for cell in _cells(nb, "solution"):
            cell.source = sources.get(cell.metadata["nbgrader"].get("grade_id"), cell.source)
        for offset, source in enumerate(extra):
            nb.cells.insert(2 + offset, nbformat.v4.new_code_cell(source))
    return change


HONEST: dict[str, Callable[[nbformat.NotebookNode], None]] = {
    "honest-tracebacks": replacing(TRACEBACKS), "honest-graph-debugging": replacing(GRAPH_DEBUGGING, (HELPER_MODULE,)),
    "honest-magics": with_magics, "honest-idioms": with_idioms,
    "honest-comments": with_comments, "honest-print-debugging": with_print_debugging,
}


def honest_notebook(name: str) -> nbformat.NotebookNode:
    """The solution of lesson 2, written the way `HONEST[name]` says."""
    nb = copy.deepcopy(nbformat.read(solution_path(LESSON), as_version=4))
    HONEST[name](nb)
    return nb
