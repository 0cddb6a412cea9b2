"""`make mutants`'s machinery, without grading: its operators, lean notebooks, and that the committed
list of equivalent mutants still matches the solutions."""
import nbformat
import pytest

from autograder.course import lessons
from autograder.judging.reference import solution_path
from tests.mutation.equivalent import FOLDER, equivalents_of
from tests.mutation.generate import generated_mutants, mutants_of_exercise
from tests.mutation.lean import lean_notebook

CELL = '''def judge(x, threshold):
    """Return x > threshold, as float32."""
    ### BEGIN SOLUTION
    values = tf.constant(x, tf.float32)
    above = tf.greater(values, threshold)
    return tf.cast(above, tf.float32)
    ### END SOLUTION


class Counter:
    def __init__(self):
        ### BEGIN SOLUTION
        self.total = tf1.Variable(0.0)
        self.sess = tf1.Session()
        ### END SOLUTION

    def add(self, value):
        ### BEGIN SOLUTION
        if value < 0:
            return self.sess.run(self.total)
        return self.sess.run(self.total.assign_add(value))
        ### END SOLUTION
'''


@pytest.fixture(scope="module")
def made():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        CELL, metadata={"nbgrader": {"grade_id": "judge_solution", "solution": True}})])
    return mutants_of_exercise("00_demo", "judge", nb)


def test_every_kind_of_mutation_the_course_asks_for_is_made(made):
    kinds = {m.operator for m in made}
    assert {"dtype", "swap_arguments", "drop_statement", "swap_statements", "swap_op", "number",
            "session_per_call", "variable_to_constant"} <= kinds
    flipped = [m for m in made if "if value <= 0:" in m.source]
    assert flipped, "a flipped comparison"


def test_only_solution_code_is_mutated_never_the_docstring_or_signature(made):
    for mutant in made:
        assert '"""Return x > threshold, as float32."""' in mutant.source
        assert "def judge(x, threshold):" in mutant.source and "def add(self, value):" in mutant.source


def test_mutants_are_distinct_and_ids_stable(made):
    assert len({m.source for m in made}) == len(made) == len({m.id for m in made})
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        CELL, metadata={"nbgrader": {"grade_id": "judge_solution", "solution": True}})])
    assert [m.id for m in mutants_of_exercise("00_demo", "judge", nb)] == [m.id for m in made]


@pytest.mark.parametrize("assignment", lessons.assignments())
def test_every_exercise_has_mutants_and_a_lean_notebook(assignment):
    lesson = lessons.load(assignment)
    solution = nbformat.read(solution_path(lesson), as_version=4)
    found = {m.exercise for m in generated_mutants(assignment)}
    for exercise in lesson.exercises:
        assert exercise.id in found, f"{assignment}/{exercise.id}: no mutant generated"
        lean = lean_notebook(solution, f"{exercise.id}_solution")
        ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in lean.cells]
        assert ids[0] == "setup" and ids[-1] == f"{exercise.id}_solution"


@pytest.mark.parametrize("assignment", lessons.assignments())
def test_listed_equivalent_mutants_still_exist_and_say_why(assignment):
    listed = equivalents_of(assignment)
    generated = {m.id: m for m in generated_mutants(assignment)}
    stale = sorted(set(listed) - set(generated))
    assert not stale, (f"tests/mutation/equivalent/l{assignment}.toml lists mutants the solutions no longer "
                       f"produce (a solution changed: rerun `make mutants` and triage again): {stale}")
    for entry in listed.values():
        assert entry.reason.strip() and "\n" not in entry.reason, entry.id
        assert entry.mutant == generated[entry.id].description, entry.id


def test_equivalence_files_name_known_lessons():
    known = {f"l{a}.toml" for a in lessons.assignments()}
    assert {p.name for p in FOLDER.glob("*.toml")} <= known
