"""Fast tests of the grader's pieces, with no kernel and no TensorFlow."""
import json

import pytest

from autograder.course.compare import holds, round_floats, same, values_match
from autograder.course.spec import Case, Check, Exercise
from autograder.judging.feedback import Report, exercise_json
from autograder.judging.judge import ExerciseResult, judge_exercise
from autograder.judging.results import read_results, write_class_csv, write_result
from autograder.judging.submissions import discover

EXERCISE = Exercise(
    id="double", symbol="double", points=2, probe=lambda fn, x: {"y": fn(x)},
    checks=(Check("halved", "doubles its input", "Multiply by two, not divide.", same("y"), shows=("y",)),
            Check("negative", "never returns a negative", "Doubling keeps the sign.", holds(lambda g: g["y"] >= 0))),
    cases=(Case("x=3", {"x": 3}),))
HIDDEN = Case("hidden 1", {"x": 5}, public=False, situation="an odd input")


@pytest.mark.parametrize("got,expected,match", [
    ([1.0, 2.0], [1.0, 2.0 + 1e-9], True), ([1.0, 2.0], [1.0, 2.1], False), ([True], [1], False),
    ([[1, 2]], [1, 2], False), ({"a": 1}, {"a": 1, "b": 2}, False), ("Const", "Const", True), (None, 0, False),
])
def test_values_match(got, expected, match):
    assert values_match(got, expected) is match


# An observation as lesson 5 records it: a list of dicts holding lists of floats, strings and flags.
DEEP = [{"losses": [2.2274329662, 0.5], "kept": ["model-6"], "saved": [True, False], "step": 6}]


def deep_with(**change):
    return [{**DEEP[0], **change}]


@pytest.mark.parametrize("got,match", [
    (deep_with(losses=[2.2274327278, 0.5]), True),           # last-digit noise from another CPU
    (deep_with(losses=[2.2274327278, 0.5000001]), True),
    (deep_with(losses=[2.23, 0.5]), False),                  # a real difference at the same place
    (deep_with(losses=[2.2274329662]), False),               # a shorter list
    (deep_with(kept=["model-5"]), False),                    # strings stay exact
    (deep_with(saved=[1, 0]), False),                        # booleans are not numbers
    (deep_with(saved=[True, True]), False),
    (deep_with(step=6.0000001), True),
    ([{**DEEP[0], "extra": 1}], False),                      # keys must agree
    ([tuple(DEEP)][0], True),                                # tuples and lists are one structure
])
def test_values_match_tolerates_rounding_at_every_depth_and_nothing_else(got, match):
    assert values_match(got, DEEP) is match


@pytest.mark.parametrize("got,expected,match", [
    ("nan", "nan", True), (float("nan"), float("nan"), True), (float("inf"), 1e308, False),
    (0.0, 5e-7, True), (0.0, 5e-6, False), (1e6, 1e6 + 5, True), (1e6, 1e6 + 50, False),
])
def test_values_match_on_edge_numbers(got, expected, match):
    assert values_match(got, expected) is match


def test_round_floats_publishes_six_significant_digits_at_every_depth():
    assert round_floats({"a": [[2.2274329662, "x", True, 3]], "b": 1.0000004}) == \
        {"a": [[2.22743, "x", True, 3]], "b": 1.0}
    assert round_floats([2.2274329662]) == round_floats([2.2274327278])


def test_all_checks_pass_gives_full_points():
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0]], [{"y": 6}], [{"y": 6}])
    assert (result.passed, result.points, result.failed_checks) == (True, 2, [])


def test_a_failed_check_names_its_misconception_and_shows_public_values():
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0]], [{"y": 1.5}], [{"y": 6}])
    assert result.points == 0 and result.failed_checks == ["halved"]
    text = exercise_json(result)["feedback"]
    assert "[halved]" in text and "Multiply by two" in text and "got 1.5, expected 6" in text


def test_a_failure_shows_only_the_values_that_differ():
    """A pair whose two sides read the same points at nothing wrong (review revA: "sessions: got 1,
    expected 1" under a failed separate-runs check): it is left out, the differing one stays."""
    from autograder.judging.judge import Outcome

    outcome = Outcome("separate-runs", "from one run", False, "One run.", "public", True,
                      {"sessions": {"got": 1, "expected": 1}, "kept": {"got": [1.0, 0.0], "expected": [0.0, 2.0]}})
    text = exercise_json(ExerciseResult("one_run", 3, [outcome]))["feedback"]
    assert "kept: got [1.0, 0.0], expected [0.0, 2.0]" in text and "sessions" not in text


def test_hidden_failures_never_show_values():
    result = judge_exercise(EXERCISE, [HIDDEN], [{"y": 2.5}], [{"y": 10}])
    text = exercise_json(result)["feedback"]
    assert "hidden case" in text and "10" not in text and "2.5" not in text
    assert result.outcomes[0].shown == {}


def test_a_hidden_failure_says_what_kind_of_input_broke_it():
    text = exercise_json(judge_exercise(EXERCISE, [HIDDEN], [{"y": 2.5}], [{"y": 10}]))["feedback"]
    assert "on a hidden case: an odd input (its inputs and expected values stay hidden)" in text


def test_every_hidden_case_names_its_situation():
    from autograder.course import lessons

    for assignment in lessons.assignments():
        for exercise_id, cases in lessons.hidden_cases(assignment).items():
            assert cases and all(c.situation.strip() for c in cases), (assignment, exercise_id)


def test_an_exercise_that_raises_is_reported_once():
    got = [{"error": {"type": "NotImplementedError", "message": ""}}]
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0]], got, [{"y": 6}])
    assert result.failed_checks == ["not-implemented"]


def test_a_hidden_case_that_raised_comes_after_the_checks_of_the_cases_that_answered():
    """A misconception the answered cases show is the verdict; only with every check passing is the
    hidden case that raised the verdict, named by its situation and error type."""
    raised = {"error": {"type": "KeyError", "message": "a hidden key"}}
    wrong = judge_exercise(EXERCISE, [EXERCISE.cases[0], HIDDEN], [{"y": 1.5}, raised], [{"y": 6}, {"y": 10}])
    assert wrong.failed_checks == ["halved"]
    right = judge_exercise(EXERCISE, [EXERCISE.cases[0], HIDDEN], [{"y": 6}, raised], [{"y": 6}, {"y": 10}])
    assert right.failed_checks == ["raised"]
    text = exercise_json(right)["feedback"]
    assert "an odd input" in text and "KeyError" not in text and "a hidden key" not in text


def test_a_hidden_case_that_raised_mentions_the_public_case_only_when_it_was_judged_and_answered():
    """`Checker.hidden` judges the hidden cases alone: it cannot know whether the public one raised
    (review revB, 03-5)."""
    raised = {"error": {"type": "KeyError", "message": "a hidden key"}}
    with_public = judge_exercise(EXERCISE, [EXERCISE.cases[0], HIDDEN], [{"y": 6}, raised], [{"y": 6}, {"y": 10}])
    hidden_only = judge_exercise(EXERCISE, [HIDDEN], [raised], [{"y": 10}])
    assert "though not on the public one" in exercise_json(with_public)["feedback"]
    assert "public" not in exercise_json(hidden_only)["feedback"]


def test_missing_observations_count_as_failures():
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0], HIDDEN], [{"y": 6}], [{"y": 6}, {"y": 10}])
    assert not result.passed and "raised" in result.failed_checks


def test_results_round_trip_through_json():
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0]], [{"y": 1}], [{"y": 6}])
    again = ExerciseResult.from_json(json.loads(json.dumps(exercise_json(result))))
    assert exercise_json(again) == exercise_json(result)


def test_report_renders_as_text_and_html():
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0]], [{"y": 1}], [{"y": 6}])
    report = Report([result], notes=["a <log> line"])
    assert "FAIL" in repr(report) and "Note: a <log> line" in repr(report)
    assert "&lt;log&gt;" in report._repr_html_() and "<b>doubles its input</b>" in report._repr_html_()


def test_discover_reads_nbgrader_layout_and_keeps_missing_notebooks(tmp_path):
    (tmp_path / "alice" / "02_rebuild_vs_feed").mkdir(parents=True)
    (tmp_path / "alice" / "02_rebuild_vs_feed" / "rebuild_vs_feed.ipynb").write_text("{}")
    (tmp_path / "bob" / "02_rebuild_vs_feed").mkdir(parents=True)
    (tmp_path / "bob" / "not_a_lesson").mkdir(parents=True)
    found = discover([tmp_path])
    assert [(s.student, s.assignment) for s in found] == [("alice", "02_rebuild_vs_feed"), ("bob", "02_rebuild_vs_feed")]
    assert not found[1].path.exists()


def test_single_notebook_takes_student_and_assignment_from_its_path(tmp_path):
    path = tmp_path / "carol" / "02_rebuild_vs_feed" / "rebuild_vs_feed.ipynb"
    [submission] = discover([path])
    assert (submission.student, submission.assignment) == ("carol", "02_rebuild_vs_feed")


def test_results_and_class_csv(tmp_path):
    for student, score in (("bob", 3), ("alice", 12)):
        write_result(tmp_path, {"student": student, "assignment": "a", "score": score, "max_score": 12,
                                "status": "graded", "reason": "", "device": "CPU", "duration_s": 1.0,
                                "exercises": []})
    write_class_csv(tmp_path, read_results(tmp_path))
    lines = (tmp_path / "grades.csv").read_text().splitlines()
    assert lines[0].startswith("student,assignment,score") and lines[1].startswith("alice,a,12,12,graded")
    assert not list(tmp_path.rglob("*.tmp"))


def test_feedback_files_show_public_values_and_hide_hidden_ones(tmp_path):
    public = judge_exercise(EXERCISE, [EXERCISE.cases[0]], [{"y": 1.5}], [{"y": 6}])
    hidden = judge_exercise(EXERCISE, [HIDDEN], [{"y": 987.25}], [{"y": 1234.5}])
    hidden.id = "hidden_double"
    record = {"student": "erin", "assignment": "a", "score": 0, "max_score": 4, "status": "graded",
              "reason": "", "exercises": [exercise_json(public), exercise_json(hidden)]}
    write_result(tmp_path, record)
    for suffix in (".txt", ".html"):
        text = (tmp_path / "erin" / f"a{suffix}").read_text()
        assert "Multiply by two" in text and "expected 6" in text and "hidden case" in text
        assert "1234.5" not in text and "987.25" not in text


def test_coroutines_run_even_inside_a_running_event_loop():
    import asyncio

    from autograder.engine.kernel import run_coroutine

    ran = []

    async def work():
        ran.append(asyncio.get_running_loop())

    async def caller():  # as in a Jupyter kernel: a loop already runs in this thread
        run_coroutine(work())

    run_coroutine(work())
    asyncio.run(caller())
    assert len(ran) == 2


def test_shown_values_are_capped_so_records_stay_small():
    huge = list(range(100_000))
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0]], [{"y": huge}], [{"y": 6}])
    shown = result.outcomes[0].shown["y"]["got"]
    assert isinstance(shown, str) and len(shown) < 2100 and shown.endswith("(cut)")
    assert len(json.dumps(exercise_json(result))) < 10_000


def test_a_name_error_inside_the_function_is_not_a_missing_definition():
    from autograder.inkernel.probe import observe_case

    def double(x):
        return undefined_helper(x)  # noqa: F821  (the student's typo)

    inside = observe_case(EXERCISE, {"double": double}, EXERCISE.cases[0])
    missing = observe_case(EXERCISE, {}, EXERCISE.cases[0])
    judged = [judge_exercise(EXERCISE, [EXERCISE.cases[0]], [obs], [{"y": 6}]).failed_checks for obs in (inside, missing)]
    assert judged == [["raised"], ["missing-definition"]]


def test_a_tensorflow_error_is_summed_up_past_its_first_line():
    message = ("Graph execution error:\n\nDetected at node 'MatMul' defined at (most recent call last):\n"
               "  File \"x.py\", line 3\nMatrix size-incompatible: In[0]: [2,3], In[1]: [2,3]\n"
               "\t [[{{node MatMul}}]]")
    got = [{"error": {"type": "InvalidArgumentError", "message": message}}]
    text = exercise_json(judge_exercise(EXERCISE, [EXERCISE.cases[0]], got, [{"y": 6}]))["feedback"]
    assert "Matrix size-incompatible" in text


def test_an_error_on_a_hidden_case_shows_neither_its_type_nor_its_message():
    got = [{"y": 6}, {"error": {"type": "RuntimeError", "message": "leaked: [4, 2, 0.5]"}}]
    result = judge_exercise(EXERCISE, [EXERCISE.cases[0], HIDDEN], got, [{"y": 6}, {"y": 10}])
    text = exercise_json(result)["feedback"]
    assert "RuntimeError" not in text and "leaked" not in text and "0.5" not in text


def test_feedback_speaks_python_not_json():
    from autograder.judging.feedback import format_value

    assert format_value({"unfed": None, "ok": True, "xs": [1.5]}) == "{'unfed': None, 'ok': True, 'xs': [1.5]}"


def test_only_the_first_failing_check_is_named_the_rest_wait():
    both = Exercise("double", "double", 2, probe=None, cases=(Case("public", {"x": 3}),), checks=(
        Check("type", "returns a number", "Return a number.", lambda g, e: isinstance(g["y"], (int, float))),
        Check("halved", "doubles", "Multiply by two.", lambda g, e: g["y"] == e["y"])))
    result = judge_exercise(both, list(both.cases), [{"y": "6"}], [{"y": 6}])
    assert result.failed_checks == ["type"] and result.points == 0
    text = exercise_json(result)["feedback"]
    assert "[type]" in text and "[halved]" not in text and "doubles: judged once the failure above is fixed" in text
    assert ExerciseResult.from_json(json.loads(json.dumps(exercise_json(result)))).failed_checks == ["type"]


def test_a_batch_starts_with_the_lessons_whose_solution_took_longest(tmp_path, monkeypatch):
    """Longest first, by the kernel time each lesson's reference took; a lesson never timed keeps its place last."""
    from autograder.course import lessons
    from autograder.frontends import batch
    from autograder.judging.submissions import Submission

    seconds = {"01_graphs_and_sessions": 0.3, "03_collections_and_trainable": 3.8, "07_learning_rate_decay": 2.6}
    monkeypatch.setattr(batch, "reference_seconds", lambda lesson: seconds.get(lesson.assignment, 0.0))
    todo = [Submission(student, assignment, tmp_path / student / assignment / "n.ipynb")
            for student in ("a", "b") for assignment in [*seconds, "02_rebuild_vs_feed"]]
    order = batch.costliest_first(todo, {a: lessons.load(a) for a in {s.assignment for s in todo}})
    assert [(s.student, s.assignment[:2]) for s in order] == [
        ("a", "03"), ("b", "03"), ("a", "07"), ("b", "07"), ("a", "01"), ("b", "01"), ("a", "02"), ("b", "02")]


def test_a_reference_records_how_long_the_solution_took(tmp_path, monkeypatch):
    from autograder.course import lessons
    from autograder.judging import reference

    monkeypatch.setenv("TFCOURSE_CACHE", str(tmp_path))
    monkeypatch.setattr(reference, "_compute", lambda lesson: ({"x": []}, 2.5))
    lesson = lessons.load("01_graphs_and_sessions")
    assert reference.reference_seconds(lesson) == 0.0
    assert reference.reference_observations(lesson) == {"x": []}
    assert reference.reference_seconds(lesson) == 2.5


def test_a_cell_budget_sends_at_most_its_cap_and_counts_the_rest():
    """The kernel's output cap (`inkernel.output`), without a kernel: one cell's writes pass until
    the cap (less the room kept for the notice), the rest is counted and named in one line, and the
    next cell starts afresh."""
    from autograder.inkernel.output import NOTICE_ROOM, CellBudget

    sent: list[str] = []
    budget = CellBudget(NOTICE_ROOM + 10)
    budget.notice = sent.append
    budget.reset()
    write = budget.capped(sent.append)
    assert write("x" * 8) == 8 and write("y" * 1000) == 1000
    budget.report()
    assert sent[:2] == ["x" * 8, "yy"]
    assert "998 more were dropped" in sent[2] and len(sent) == 3
    budget.reset()
    budget.capped(sent.append)("z" * 5)
    budget.report()
    assert sent[3:] == ["z" * 5]
