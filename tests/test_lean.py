"""The lean cut (`autograder.judging.lean`): which cells a grade depends on, read from their syntax.

That lean and whole grading give the same verdicts is proven on graded notebooks elsewhere: on
everything the suite grades (`test_grading.py`) and on the hostile catalogue (`test_hostile.py`).
"""
from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.frontends.cli import parser
from autograder.frontends.settings import engine, load_config
from autograder.judging import lean
from autograder.judging.lean import RUN_TAG, Release, lean_cut, lesson_cut, needed_cells
from autograder.judging.reference import release_path, solution_path

SETUP = new_code_cell("import numpy as np\nSCALE = 2", metadata={"nbgrader": {"grade_id": "setup", "locked": True}})
STUB = "def double(x):\n    raise NotImplementedError()"
SOLVED = "def double(x):\n    return x * SCALE"
CHECK = new_code_cell('check("double")', metadata={"nbgrader": {"grade_id": "check_double", "grade": True,
                                                              "solution": False}})


def exercise(source: str) -> nbformat.NotebookNode:
    return new_code_cell(source, metadata={"nbgrader": {"grade_id": "double_solution", "solution": True}})


def release_of(*cells: nbformat.NotebookNode) -> Release:
    return lean.release_of(cells)


def kept(nb_cells, release_cells) -> list[str]:
    cut = lean_cut(new_notebook(cells=nb_cells), release_of(*release_cells), ["double"])
    return [c.source for c in cut.notebook.cells]


def test_unchanged_demos_nothing_graded_reads_are_skipped():
    demo = new_code_cell("import time\nfor n in range(3):\n    time.sleep(1)\n    print(double(n))")
    released = [SETUP, new_markdown_cell("# Doubling"), exercise(STUB), CHECK, demo]
    assert kept([SETUP, exercise(SOLVED), CHECK, demo], released) == [SETUP.source, SOLVED]
    assert kept(released, released) == [SETUP.source, STUB]  # an untouched release runs its stubs


def test_changed_and_new_cells_always_run():
    demo = new_code_cell("print(double(3))")
    released = [SETUP, exercise(STUB), demo]
    assert kept([SETUP, exercise(SOLVED), new_code_cell("print(double(4))"),
                 new_code_cell("x = 1")], released) == [SETUP.source, SOLVED, "print(double(4))", "x = 1"]


def test_a_comment_or_blank_line_does_not_change_a_cell():
    """The course's cells are known by their tokens: a student's note on a demo is not their code."""
    demo = new_code_cell("print(double(3))")
    released = [SETUP, exercise(STUB), demo]
    noted = new_code_cell("# what does this print?\nprint(double(3))   # six\n\n")
    assert kept([SETUP, exercise(SOLVED), noted], released) == [SETUP.source, SOLVED]


def test_a_cell_that_binds_what_a_graded_cell_reads_runs_even_if_later():
    """A function reads its globals when called, and the probes call it after the whole notebook."""
    helper = new_code_cell("def scale():\n    return FACTOR")
    early, late = new_code_cell("FACTOR = 2"), new_code_cell("FACTOR = 3")
    unrelated = new_code_cell("OTHER = 4")
    solved = "def double(x):\n    return x * scale()"
    released = [SETUP, early, helper, exercise(STUB), late, unrelated]
    assert kept([SETUP, early, helper, exercise(solved), late, unrelated], released) == [
        SETUP.source, early.source, helper.source, solved, late.source]


def test_a_top_level_read_needs_only_earlier_cells():
    before, after = new_code_cell("N = 2"), new_code_cell("N = 5")
    mine = new_code_cell("print(N)\nN = N + 1")  # N read before the cell binds it
    released = [SETUP, before, exercise(STUB), after]
    assert kept([SETUP, before, exercise(SOLVED), mine, after], released) == [
        SETUP.source, before.source, SOLVED, mine.source]


def test_a_cell_that_changes_data_a_graded_function_reads_runs():
    """`rng.shuffle(...)` binds nothing, yet changes the generator the student's function draws from."""
    make, draw = new_code_cell("rng = np.random.default_rng(0)"), new_code_cell("rng.shuffle([1, 2, 3])")
    solved = "def double(x):\n    return x * 2 + 0 * rng.random()"
    released = [SETUP, make, draw, exercise(STUB)]
    assert kept([SETUP, make, draw, exercise(solved)], released) == [SETUP.source, make.source, draw.source, solved]


def test_the_exercise_bound_by_an_unchanged_demo_runs():
    """If the student deletes the exercise cell, the name the probes read comes from the demo."""
    demo = new_code_cell("def double(x):\n    return x + x")
    assert kept([SETUP, demo], [SETUP, demo, exercise(STUB)]) == [SETUP.source, demo.source]


def test_a_cell_the_lesson_tags_runs_and_a_students_tag_changes_nothing():
    seed = new_code_cell("np.random.seed(0)", metadata={"tags": [RUN_TAG]})
    plot = new_code_cell("print('a plot')")
    released = [SETUP, seed, plot, exercise(STUB)]
    untagged_seed = new_code_cell(seed.source)
    tagged_plot = new_code_cell(plot.source, metadata={"tags": [RUN_TAG]})
    assert kept([SETUP, untagged_seed, tagged_plot, exercise(SOLVED)], released) == [
        SETUP.source, seed.source, SOLVED]


def test_setup_known_by_its_source_and_cells_that_may_bind_anything_run():
    unmarked = new_code_cell(SETUP.source)
    sneaky = new_code_cell("exec('SCALE = 3')")
    released = [SETUP, sneaky, exercise(STUB)]
    assert kept([unmarked, sneaky, exercise(SOLVED)], released) == [SETUP.source, sneaky.source, SOLVED]


def test_no_setup_cell_runs_none():
    released = [SETUP, exercise(STUB)]
    assert kept([exercise(SOLVED)], released) == [SOLVED]


def test_the_note_is_one_line_saying_how_many_and_how_to_run_them():
    lesson = lessons.load("01_graphs_and_sessions")
    cut = lesson_cut(nbformat.read(solution_path(lesson), as_version=4), lesson, release_path(lesson))
    assert "\n" not in cut.note() and cut.note().startswith(f"{cut.skipped} of {cut.code_cells} code cells")
    assert "--run-all" in cut.note()
    assert lean_cut(new_notebook(cells=[SETUP]), release_of(SETUP), []).note() == ""


def test_every_solution_and_release_keeps_setup_and_exercises_and_drops_demos():
    for assignment in lessons.assignments():
        lesson = lessons.load(assignment)
        for path in (solution_path(lesson), release_path(lesson)):
            cut = lesson_cut(nbformat.read(path, as_version=4), lesson, release_path(lesson))
            ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in cut.notebook.cells]
            assert ids[0] == "setup"
            assert {f"{e.id}_solution" for e in lesson.exercises} <= set(ids), assignment
            assert cut.skipped > cut.code_cells / 2, (assignment, cut.skipped, cut.code_cells)


def test_needed_cells_ignores_cells_that_never_run():
    assert needed_cells(["A = 1", None, "print(A)"], [2]) == {0, 2}
    assert needed_cells(["A = 1", None], [1]) == set()


def test_run_all_from_the_flag_and_the_config(tmp_path):
    args = parser().parse_args(["grade", "x.ipynb", "--out", "o", "--run-all"])
    assert args.run_all
    assert not parser().parse_args(["grade", "x.ipynb", "--out", "o"]).run_all
    config = tmp_path / "nbgrader_config.py"
    config.write_text("c = get_config()\nc.Engine.run_all = True\n")
    assert engine(load_config(config)).limits() == Limits(run_all=True)
    assert engine(None, {"run_all": True}).limits().run_all
