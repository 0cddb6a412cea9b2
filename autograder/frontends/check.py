"""The check cells of the notebooks: `check = Checker("02_rebuild_vs_feed")`, then `check("retune")`.

`check(exercise)` runs the public cases in the student's own kernel and compares with the public
expected values that ship with the course. `check.hidden(exercise)` sits in the hidden-test part of
each check cell. Under `nbgrader autograde` with the course's `nbgrader_config.py` it never runs:
the check cells are not executed in the student's kernel at all, the course's preprocessor
(`autograder.frontends.nbgrader`) grades the exercises outside it and writes the cells' outputs.
Should nbgrader's own `Execute` run a check cell anyway (a course config without that
preprocessor), `check.hidden` refuses to judge, so such a run gives zero rather than marks the
student's code could have forged; `TFCOURSE_JUDGE_IN_KERNEL=1` judges in a separate process as
before, for measuring nbgrader's own path (`make bench`), never for marks.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, Mapping

from autograder.course import lessons, public_expected_path
from autograder.course.spec import Exercise
from autograder.engine.replay import run_here
from autograder.inkernel.probe import observe
from autograder.inkernel.quiet import quiet_environment, quiet_python_logging
from autograder.judging.feedback import Report
from autograder.judging.judge import ExerciseResult, judge_exercise
from autograder.judging.replaying import replayed

# Importing this module before TensorFlow (the notebooks' first line) is what keeps TensorFlow's
# INFO and WARNING log lines out of the students' cells: it reads these variables when imported.
quiet_environment()

JUDGE_TIMEOUT = 900  # the first call may have to run the solution notebook to build the reference
JUDGE_IN_KERNEL = "TFCOURSE_JUDGE_IN_KERNEL"
NOT_HERE = ("hidden checks are not judged in the student's kernel under `nbgrader autograde`: grade with "
            "the course's nbgrader_config.py, whose GradeInSandbox step judges them outside the kernel")


class CheckFailed(AssertionError):
    """A failed check: IPython shows its one-line message instead of a traceback (see the report)."""

    def _render_traceback_(self) -> list[str]:
        return [f"CheckFailed: {self}"]


class Checker:
    """The checks of one assignment, callable from its notebook."""

    def __init__(self, assignment: str):
        quiet_python_logging()
        self.lesson = lessons.load(assignment)
        self._expected: dict[str, list[dict[str, Any]]] | None = None

    def __call__(self, exercise_id: str, answer: Any = None) -> None:
        """Check one exercise on its public cases and show what passed and what did not. `answer`, when
        given, is checked in place of what the notebook defines under the exercise's name, which stays
        as it was: a demo hands a wrong attempt in without replacing the student's answer."""
        exercise = self.lesson.exercise(exercise_id)
        _refuse_what_the_grader_zeroes()
        namespace = _caller_namespace(2) if answer is None else {exercise.symbol: answer}
        got, stderr = self._observe(exercise, exercise.cases, namespace)
        self._show(judge_exercise(exercise, exercise.cases, got, self.expected[exercise.id]), stderr)

    def hidden(self, exercise_id: str) -> None:
        """Grade one exercise on its hidden cases, judged outside this process (nbgrader autograde)."""
        if os.environ.get("NBGRADER_EXECUTION") == "autograde" and os.environ.get(JUDGE_IN_KERNEL) != "1":
            raise CheckFailed(NOT_HERE)
        exercise = self.lesson.exercise(exercise_id)
        cases = lessons.hidden_cases(self.lesson.assignment)[exercise.id]
        got, stderr = self._observe(exercise, cases, _caller_namespace(2))
        verdict = subprocess.run(
            [sys.executable, "-m", "autograder", "judge", self.lesson.assignment, exercise.id],
            input=json.dumps(got), capture_output=True, text=True, timeout=JUDGE_TIMEOUT)
        if verdict.returncode != 0:
            raise CheckFailed(f"the hidden tests of {exercise_id} could not be judged: {verdict.stderr[-500:]}")
        self._show(ExerciseResult.from_json(json.loads(verdict.stdout)), stderr)

    def _observe(self, exercise: Exercise, cases: list, namespace: Mapping[str, Any]) -> tuple[list, str]:
        """Observe `exercise` in this kernel on what `namespace` defines, then re-run what it handed out
        here too (`replaying`): the same observations the grader completes outside the kernel, on these
        cases' inputs."""
        got, stderr = observe(exercise, namespace, cases)
        return replayed(self.lesson, {exercise.id: cases}, {exercise.id: got}, run_here)[exercise.id], stderr

    @property
    def expected(self) -> dict[str, list[dict[str, Any]]]:
        """Expected observations of the public cases, shipped with the course."""
        if self._expected is None:
            self._expected = json.loads(public_expected_path(self.lesson.assignment).read_text())
        return self._expected

    @staticmethod
    def _show(result: ExerciseResult, stderr: str) -> None:
        notes = [f"your code wrote this to stderr:\n{stderr}"] if stderr.strip() else []
        _display(Report([result], notes))
        if not result.passed:
            failed = ", ".join(result.failed_checks)
            raise CheckFailed(f"{result.id} is not right yet ({failed}): see the report above.")


def _refuse_what_the_grader_zeroes() -> None:
    """Read the cells this kernel ran as the grader reads a submission (`judging.screening`), and
    refuse, in the grader's words, a construct that would zero it: the student hears of the rule
    here first, never from a grade. (Cells are numbered as this kernel ran them, `In[N]`.)"""
    from IPython import get_ipython

    from autograder.judging.screening import screen_sources, verdict

    shell = get_ipython()
    if shell is None:
        return
    reason = verdict(screen_sources(dict(enumerate(shell.history_manager.input_hist_raw))))
    if reason:
        raise CheckFailed(f"not checked: {reason.replace('so the notebook was not run', 'so the grader will not run it')}")


def _caller_namespace(depth: int) -> Mapping[str, Any]:
    """The globals of the notebook cell that called the checker (`depth` frames up)."""
    return sys._getframe(depth).f_globals


def _display(report: Report) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        print(report)
        return
    if get_ipython() is None:
        print(report)
    else:
        display(report)
