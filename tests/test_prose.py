"""Every sentence of a lesson that states a fact is checked, cited or marked as opinion (issue 35), what
it cites exists in TensorFlow 2.21, and each lesson's core fits one sitting.

The heuristic that finds the sentences and what backs them is tests/prose.py; its docstring gives the
conventions a lesson writer uses (a `claim` next to the text, `(TensorFlow: `path`)`,
`(docs: `tf.name`)`, `(Python: `topic`)`, "In this course's view", a summary that repeats only
what the lesson checked).
"""
from __future__ import annotations

import importlib
import re

import nbformat
import pydoc_data.topics
import pytest

from autograder.course import lessons
from autograder.judging.reference import solution_path
from tests.conftest import ASSIGNMENTS
from tests.prose import (EXERCISE, PROSE, RECAP, backing, citations, is_material, lesson_units, split_sentences,
                         tensorflow_root, units_of)

# One sitting (issue 35): a lesson's core, every cell before its first "## Optional" section, holds
# at most this many cells and this many words of prose (markdown, fenced code left out).
CORE_CELLS_AT_MOST = 40
CORE_WORDS_AT_MOST = 3_000


def path_of(assignment: str):
    return solution_path(lessons.load(assignment))


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_material_sentence_is_claimed_cited_or_marked_as_opinion(assignment):
    unbacked = [f"[{unit.cell}] {unit.text}" for unit in lesson_units(path_of(assignment))
                if unit.material and unit.backing is None]
    assert not unbacked, "sentences that state a fact with no claim next to them, no citation and no " \
                         "opinion mark (see tests/prose.py):\n" + "\n".join(unbacked)


def resolves(name: str) -> bool:
    """Whether a dotted public name (`tf.compat.v1.train.Saver`, `np.spacing`) exists."""
    modules = {"tf": "tensorflow", "np": "numpy", "keras": "keras"}
    head, _, rest = name.partition(".")
    if head not in modules:
        return False
    target = importlib.import_module(modules[head])
    for part in rest.split(".") if rest else []:
        if not hasattr(target, part):
            return False
        target = getattr(target, part)
    return True


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_what_a_lesson_cites_exists_in_the_installed_tensorflow(assignment):
    root = tensorflow_root()
    missing = []
    for kind, target in citations(lesson_units(path_of(assignment))):
        if kind in ("TensorFlow", "Keras") and not (root / target).is_file():
            missing.append(f"no file {target} in {root}")
        elif kind == "docs" and not resolves(target):
            missing.append(f"no public name {target}")
        elif kind == "Python" and target not in pydoc_data.topics.topics:
            missing.append(f"no Python reference topic {target!r} (help({target!r}))")
    assert not missing, missing


def core_of(assignment: str) -> list:
    cells = nbformat.read(path_of(assignment), as_version=4).cells
    first_optional = next(i for i, c in enumerate(cells)
                          if c.cell_type == "markdown" and c.source.lstrip().startswith("## Optional"))
    return cells[:first_optional]


def prose_words(markdown: str) -> int:
    return len(re.sub(r"```.*?```", "", markdown, flags=re.S).split())


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_a_lessons_core_fits_one_sitting_and_ends_with_its_tf2_bridge_and_summary(assignment):
    core = core_of(assignment)
    words = sum(prose_words(c.source) for c in core if c.cell_type == "markdown")
    assert len(core) <= CORE_CELLS_AT_MOST, f"{len(core)} cells before the optional sections"
    assert words <= CORE_WORDS_AT_MOST, f"{words} words of prose before the optional sections"
    sections = [line for c in core if c.cell_type == "markdown" for line in c.source.splitlines()
                if line.startswith("## ")]
    assert sections[-1] == "## Summary" and core[-1].source.startswith("## Summary"), sections[-2:]
    assert "TF2" in sections[-2], f"the section before the summary is {sections[-2]!r}, not the TF2 bridge"


def test_the_heuristic_on_sentences_of_each_kind():
    assert is_material("`t.eval()` is `tf1.get_default_session().run(t)`.")
    assert is_material("The rebuilt loop costs more than the fed one.")
    assert is_material("Ops that no fetch needs never run.")
    assert is_material("The graph holds 17 ops.")
    assert not is_material("Write `count_ops_by_type(graph)`: return a dict.")      # an instruction
    assert not is_material("1. Run the cell, then run the check cell.")
    assert not is_material("Why does `eval()` refuse?")                             # a question
    assert not is_material("Lesson 6 comes back to seeds, in section 2.")         # references only
    assert not is_material("This lesson shows the trap and builds three fixes.")  # the course itself
    assert not is_material("Define-by-run is flexible.")                          # no verb of its own
    assert split_sentences("It runs, e.g. in `tf.compat.v1`. Then `x` is 2.21 wide! Done") == \
        ["It runs, e.g. in `tf.compat.v1`.", "Then `x` is 2.21 wide!", "Done"]
    units = units_of("## 1. A\n\nOne `x`. Two.\n\n* item `a`\n* item b\n\n| a | b |\n| --- | --- |\n"
                     "| `x` | y |\n\n**You will be able to**\n1. run `x`;\n\n**How to work here.** Run it.\n\n"
                     "### Exercise 1 · `f`\n\nIt returns 3.\n\n## Summary\n\n* `x` is 3.")
    assert units == [("One `x`.", PROSE), ("Two.", PROSE), ("* item `a`", PROSE), ("* item b", PROSE),
                     ("| a | b |", PROSE), ("| `x` | y |", PROSE), ("It returns 3.", EXERCISE),
                     ("* `x` is 3.", RECAP)]


def test_what_backs_a_sentence():
    assert backing("`eval()` raises.", PROSE, claimed=True) == "claim"
    assert backing("A `Saver` saves globals (TensorFlow: `tensorflow/python/training/saver.py`).",
                   PROSE, claimed=False) == "citation"
    assert backing("Schedules are ops (see the source; docs: `tf.compat.v1.train.exponential_decay`).",
                   PROSE, claimed=False) == "citation"
    assert backing("In this course's view, a copy that misses a variable is a bug.", PROSE, False) == "opinion"
    assert backing("It returns 3.", EXERCISE, claimed=False) == "exercise"
    assert backing("It returns 3 (docs say so).", PROSE, claimed=False) is None
    # a summary repeats what was checked elsewhere, never what merely sits next to a claim
    assert backing("* `eval()` raises without a session.", RECAP, True, {"t.eval()", "x"}) == "recap"
    assert backing("* `eval()` raises; `run` returns.", RECAP, True, {"eval()"}) is None
    assert backing("* A run executes what it needs.", RECAP, True, {"eval()"}) is None
    assert resolves("tf.compat.v1.train.Saver") and resolves("np.spacing")
    assert not resolves("tf.mul") and not resolves("os.path")
