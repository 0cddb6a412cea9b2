"""The grader tells right from wrong: solutions get full marks, releases zero, mutants lose their exercise."""
import pytest

from tests.conftest import ALTERNATIVES, ASSIGNMENTS, LIMITS, MUTANT_GROUPS, MUTANTS


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_solution_gets_full_marks(graded, assignment):
    record = graded[("solution", assignment)]
    assert record["status"] == "graded", record["reason"]
    assert record["score"] == record["max_score"], [e["feedback"] for e in record["exercises"] if not e["passed"]]
    assert record["cell_errors"] == []


@pytest.mark.slow
def test_lean_and_whole_grading_give_the_same_verdicts(graded, graded_whole):
    """Every notebook the suite grades (solutions, releases, every mutant and alternative, in their
    whole notebooks) gets the same status, score, and points and failed checks per exercise whether
    only the cells its grade depends on run (the default) or every cell does (`--run-all`)."""
    from autograder.judging.results import verdict

    assert graded.keys() == graded_whole.keys()
    differ = {key: (verdict(graded[key]), verdict(graded_whole[key]))
              for key in graded if verdict(graded[key]) != verdict(graded_whole[key])}
    assert not differ, differ
    assert all(r["not_run"] for r in graded.values()), "the default grading ran every cell somewhere"
    assert not any(r["not_run"] for r in graded_whole.values())


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_untouched_release_gets_zero(graded, assignment):
    record = graded[("release", assignment)]
    assert record["status"] == "graded", record["reason"]
    assert record["score"] == 0
    assert all("not-implemented" in e["failed_checks"] for e in record["exercises"])


@pytest.mark.slow
@pytest.mark.parametrize("assignment,student,mutant", MUTANTS, ids=[m.name for _, _, m in MUTANTS])
def test_mutant_loses_its_exercise_and_is_named(graded, assignment, student, mutant):
    """The verdict, the first check that fails, is the mutant's own misconception: not merely named
    somewhere, and not a symptom another check reports first. The notebook holds at most one mutant
    per exercise: the exercises it leaves alone keep full marks."""
    record = graded[(student, assignment)]
    by_id = {e["id"]: e for e in record["exercises"]}
    target = by_id[mutant.exercise]
    assert target["points"] == 0, target["feedback"]
    assert target["failed_checks"][:1] == [mutant.misconception], target["feedback"]
    assert f"[{mutant.misconception}]" in target["feedback"]
    mutated = {m.exercise for m in MUTANT_GROUPS[(student, assignment)]}
    others = [e for e in record["exercises"] if e["id"] not in mutated]
    assert all(e["points"] == e["max_points"] for e in others), [e["feedback"] for e in others if not e["passed"]]


def _named(assignment: str, attribute: str) -> set[str]:
    """The mutant names in `tests/mutants/l<assignment>.py`'s `attribute` (`PUBLIC`: mutants its public
    case must catch, first and by name)."""
    import tests.mutants
    from tests.swaps import swaps_of

    try:
        return set(swaps_of(tests.mutants, assignment, attribute))
    except AttributeError:
        return set()


PUBLIC_MUTANTS = [(a, s, m) for a, s, m in MUTANTS if m.name in _named(a, "PUBLIC")]


@pytest.mark.slow
@pytest.mark.parametrize("assignment,student,mutant", PUBLIC_MUTANTS, ids=[m.name for _, _, m in PUBLIC_MUTANTS])
def test_public_check_catches_what_the_hidden_cases_grade(graded, assignment, student, mutant):
    """A check cell never says PASS for what the hidden cases take back: the mutant's own check
    fails on the public case, which the student sees in the lab."""
    record = graded[(student, assignment)]
    target = {e["id"]: e for e in record["exercises"]}[mutant.exercise]
    first = next(o for o in target["outcomes"] if o["judged"] and not o["passed"])
    assert first["id"] == mutant.misconception and first["public"], first


@pytest.mark.slow
@pytest.mark.parametrize("assignment,student,mutant", MUTANTS, ids=[m.name for _, _, m in MUTANTS])
def test_no_public_pass_is_taken_back(graded, assignment, student, mutant):
    """DESIGN: a public check never says PASS for what the hidden cases take back. Every mutant's
    exercise fails on a public case (issue 35 cleared the last 15 that only hidden cases caught)."""
    target = {e["id"]: e for e in graded[(student, assignment)]["exercises"]}[mutant.exercise]
    public_fail = [o["id"] for o in target["outcomes"] if o["judged"] and not o["passed"] and o["public"]]
    assert public_fail, f"the public check says PASS to {mutant.name}, which the hidden cases fail: " \
                        f"{target['failed_checks']}"


def _not_claimed(assignment: str) -> dict[str, tuple[str, ...]]:
    """`tests/mutants/l<assignment>.py`'s `NOT_CLAIMED`: mutant name -> phrases that would be false of it."""
    import tests.mutants
    from tests.swaps import swaps_of

    try:
        return dict(swaps_of(tests.mutants, assignment, "NOT_CLAIMED"))
    except AttributeError:
        return {}


CLAIMED_MUTANTS = [(a, s, m) for a, s, m in MUTANTS if m.name in _not_claimed(a)]


@pytest.mark.slow
@pytest.mark.parametrize("assignment,student,mutant", CLAIMED_MUTANTS, ids=[m.name for _, _, m in CLAIMED_MUTANTS])
def test_feedback_makes_no_claim_the_observation_does_not_show(graded, assignment, student, mutant):
    """A mutant's feedback states no cause that is another mistake's (e.g. "every point lands on step 0"
    for a loop counter used as the step): each phrase its mutants module lists as false of it is absent."""
    record = graded[(student, assignment)]
    feedback = {e["id"]: e for e in record["exercises"]}[mutant.exercise]["feedback"]
    assert not [p for p in _not_claimed(assignment)[mutant.name] if p.lower() in feedback.lower()], feedback


def test_public_mutants_are_mutants():
    from tests.mutants import mutants_of

    for assignment in ASSIGNMENTS:
        names = {m.name for m in mutants_of(assignment)}
        assert _named(assignment, "PUBLIC") <= names, assignment
        assert set(_not_claimed(assignment)) <= names, assignment


def test_mutants_can_share_a_notebook():
    """Each exercise has a solution cell of its own, and no mutant calls another exercise: so in a
    notebook of mutants, each exercise's verdict is its own mutant's."""
    import re

    from autograder.course import lessons
    from tests.mutants import mutants_of

    for assignment in ASSIGNMENTS:
        lesson = lessons.load(assignment)
        cells = {}
        for mutant in mutants_of(assignment):
            assert cells.setdefault(mutant.cell, mutant.exercise) == mutant.exercise, (assignment, mutant.cell)
            calls = [e.symbol for e in lesson.exercises
                     if e.id != mutant.exercise and re.search(rf"\b{e.symbol}\b", mutant.source)]
            assert not calls, f"{mutant.name} uses {calls}: it would judge another exercise's mutant too"


@pytest.mark.slow
@pytest.mark.parametrize("assignment,student,alternative", ALTERNATIVES, ids=[a.name for _, _, a in ALTERNATIVES])
def test_alternative_answer_keeps_full_marks(graded, assignment, student, alternative):
    record = graded[(student, assignment)]
    assert record["status"] == "graded", record["reason"]
    target = {e["id"]: e for e in record["exercises"]}[alternative.exercise]
    assert target["points"] == target["max_points"], target["feedback"]


def test_every_exercise_has_two_alternatives():
    from autograder.course import lessons
    from tests.alternatives import alternatives_of

    for assignment in ASSIGNMENTS:
        names = [a.name for a in alternatives_of(assignment)]
        assert len(names) == len(set(names)), f"{assignment}: two alternatives share a name"
        for exercise in lessons.load(assignment).exercises:
            count = sum(a.exercise == exercise.id for a in alternatives_of(assignment))
            assert count >= 2, f"{assignment}/{exercise.id} has {count} alternative answers, needs 2"


def test_every_exercise_has_two_mutants():
    from autograder.course import lessons
    from tests.mutants import mutants_of

    for assignment in ASSIGNMENTS:
        counts = {e.id: 0 for e in lessons.load(assignment).exercises}
        for mutant in mutants_of(assignment):
            counts[mutant.exercise] += 1
        assert all(n >= 2 for n in counts.values()), (assignment, counts)


def test_every_lesson_has_four_exercises_worth_ten_points():
    from autograder.course import lessons

    for assignment in ASSIGNMENTS:
        lesson = lessons.load(assignment)
        assert len(lesson.exercises) >= 4 and lesson.max_score >= 10, assignment


FLAKE_PRONE = ("01_graphs_and_sessions", "06_seeds_and_pipelines")  # session plumbing; seeds and randomness


def _small_class(root):
    """Per lesson in FLAKE_PRONE: the solution, the untouched release and the first mutant."""
    import nbformat

    from autograder.course import lessons
    from autograder.judging.reference import solution_path
    from tests.conftest import _lay_out, release_path
    from tests.mutants import mutants_of

    for assignment in FLAKE_PRONE:
        solution = nbformat.read(solution_path(lessons.load(assignment)), as_version=4)
        _lay_out(root, "solution", assignment, solution)
        _lay_out(root, "release", assignment, nbformat.read(release_path(assignment), as_version=4))
        _lay_out(root, "mutant", assignment, mutants_of(assignment)[0].apply(solution))
    return root


@pytest.mark.slow
def test_a_class_graded_three_times_gets_identical_records(tmp_path):
    """Two jobs at once, so the order in which students finish differs between the runs."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    root = _small_class(tmp_path / "submitted")
    runs = []
    for run in range(3):
        records = grade_all(discover([root]), tmp_path / f"run{run}", jobs=2, limits=LIMITS, force=True)
        for record in records:
            record.pop("duration_s")
        runs.append(sorted(records, key=lambda r: (r["student"], r["assignment"])))
    assert len(runs[0]) == 3 * len(FLAKE_PRONE)
    assert runs[0] == runs[1] == runs[2]
