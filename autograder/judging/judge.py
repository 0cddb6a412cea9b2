"""Judge observations against reference observations and say, per check, what went wrong and why."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from autograder.course.spec import Case, Check, Exercise, Observation
from autograder.engine.untrusted import capped, exception_name
from autograder.inkernel.probe import MISSING, TOO_LARGE

MAX_SHOWN_CHARS = 2000
MAX_TYPE_CHARS = 80

# Pseudo-checks for calls that raised instead of answering, keyed by the exception type.
ERROR_CHECKS = {
    "NotImplementedError": ("not-implemented", "is implemented",
                            "This exercise still raises NotImplementedError: replace the placeholder "
                            "`raise NotImplementedError()` with your solution."),
    MISSING: ("missing-definition", "is defined under its expected name",
                  "The grader looks the exercise up by name. Keep the given name and signature, "
                  "and run the cell that defines it."),
    TOO_LARGE: ("answer-too-large", "answers in a few MB at most",
                "Your function's answer on this case was too large to send to the grader (megabytes "
                "of JSON): return what the exercise asks for, not a whole dataset."),
    # The grader's own name for an artifact it would not re-run outside the kernel (`engine.replay`).
    "NotReplayable": ("not-replayable", "hands out a graph the grader can re-run",
                      "The grader re-runs the graph your function built, outside your notebook, on inputs of "
                      "its own, and could not: the reason is below. Build the graph from TensorFlow's ops "
                      "(placeholders, math, comparisons) and return the tensors the exercise asks for."),
}
RAISED = ("raised", "runs without raising",
          "Calling your code raised an exception on this case. Read the message: it usually names the "
          "op or line at fault.")
# "{public}" says the public case answered, when the cases judged include it (a hidden-only judging,
# `Checker.hidden`, cannot know).
RAISED_HIDDEN = ("Calling your code raised an exception on a hidden case{public}. "
                 "Its type and message stay hidden, because they came while hidden inputs were in play. "
                 "The situation below says which kind of input it was: look for inputs your code does not "
                 "expect there.")


@dataclass
class Outcome:
    """The verdict of one check over all cases; a failure records the first case that broke it.

    A check after a failed one is not judged (`judged` false): what it would find is most often a
    knock-on of the same mistake, and one mistake should name one misconception.
    """

    id: str
    title: str
    passed: bool
    message: str = ""
    case: str = ""
    public: bool = True
    shown: dict[str, Any] = field(default_factory=dict)
    situation: str = ""
    judged: bool = True


@dataclass
class ExerciseResult:
    """One exercise's score and the outcomes behind it. All-or-nothing: every check must pass."""

    id: str
    max_points: int
    outcomes: list[Outcome]

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)

    @property
    def points(self) -> int:
        return self.max_points if self.passed else 0

    @property
    def failed_checks(self) -> list[str]:
        return [o.id for o in self.outcomes if o.judged and not o.passed]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ExerciseResult":
        """Rebuild a result from `to_json`'s output."""
        return cls(data["id"], data["max_points"], [Outcome(**o) for o in data["outcomes"]])


def failed_exercise(exercise: Exercise, check_id: str, title: str, message: str) -> ExerciseResult:
    """A zero for the whole exercise, for a reason outside the checks (timeout, crash, bad notebook)."""
    return ExerciseResult(exercise.id, exercise.points,
                          [Outcome(check_id, title, False, message, case="", public=False)])


def judge_exercise(exercise: Exercise, cases: Sequence[Case], got: Sequence[Observation],
                   expected: Sequence[Observation]) -> ExerciseResult:
    """Compare the student's observations with the reference's, case by case, check by check.

    Checks run in the exercise's order, most specific misconception first; the first that fails is
    the verdict, and the checks after it are listed as not judged.

    A call that raised on a public case is the verdict before any check: the student sees that case.
    One that raised only on a hidden case comes after the checks, judged on the cases that answered:
    a misconception they already show names the mistake better than "raised" on an input the student
    never sees (and a hidden case added later does not take an older mistake's name away). With every
    check passing, the hidden case that raised is the verdict, named by its situation and error type.
    """
    got = list(got) + [{"error": {"type": "Missing", "message": "no observation"}}] * (len(cases) - len(got))
    errors = _error_outcomes(cases, got)
    answered = [i for i, obs in enumerate(got[:len(cases)]) if "error" not in obs]
    if not answered:  # with no answer at all, the error outcome says everything there is to say
        return ExerciseResult(exercise.id, exercise.points, errors)
    outcomes = [e for e in errors if e.public]
    failed = bool(outcomes)
    for check in exercise.checks:
        if failed:
            outcomes.append(Outcome(check.id, check.title, False, judged=False))
            continue
        outcomes.append(_check_outcome(check, cases, got, expected, answered))
        failed = not outcomes[-1].passed
    hidden_errors = [e for e in errors if not e.public]
    if hidden_errors and failed:
        hidden_errors[0].judged = False
    outcomes = hidden_errors + outcomes if hidden_errors and not failed else outcomes + hidden_errors
    return ExerciseResult(exercise.id, exercise.points, outcomes)


def _error_outcomes(cases: Sequence[Case], got: Sequence[Observation]) -> list[Outcome]:
    public_answered = any(case.public and "error" not in obs for case, obs in zip(cases, got))
    for case, obs in zip(cases, got):
        if "error" in obs:
            error = obs["error"] if isinstance(obs["error"], dict) else {}
            kind = capped(error.get("type"), MAX_TYPE_CHARS)
            check_id, title, message = ERROR_CHECKS.get(kind, RAISED)
            if case.public:
                shown = {"raised": f"{kind}: {error_summary(str(error.get('message')))}"}
            else:  # the exception's type only, and only a type the grader knows: the rest is kernel text
                shown = {"raised": exception_name(kind, (*ERROR_CHECKS, "Missing"))}
                if check_id == "raised":
                    message = RAISED_HIDDEN.format(public=", though not on the public one" if public_answered else "")
            return [Outcome(check_id, title, False, message, case.label, case.public, shown, case.situation)]
    return []


def error_summary(message: str, limit: int = 400) -> str:
    """An exception's message on one line, informative lines only: TensorFlow's runtime errors
    open with "Graph execution error:" and put the reason further down."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    useful = [line for line in lines if not line.startswith(("Graph execution error", "Detected at node",
                                                               "File ", "Traceback", "Stack trace"))]
    text = " | ".join(useful or lines)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _check_outcome(check: Check, cases: Sequence[Case], got: Sequence[Observation],
                   expected: Sequence[Observation], answered: Sequence[int]) -> Outcome:
    for i in answered:
        if not check.compare(got[i], expected[i]):
            case = cases[i]
            shown = _shown(check, got[i], expected[i]) if case.public else {}
            return Outcome(check.id, check.title, False, check.misconception, case.label, case.public, shown,
                           case.situation)
    return Outcome(check.id, check.title, True)


def _shown(check: Check, got: Observation, expected: Observation) -> dict[str, Any]:
    return {key: {"got": _capped(got.get(key, "(missing)")), "expected": _capped(expected.get(key))}
            for key in check.shows}


def _capped(value: Any) -> Any:
    """`value`, or its JSON cut to `MAX_SHOWN_CHARS` when longer: a result record stays small."""
    text = json.dumps(value, default=str)
    return value if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS] + " ... (cut)"
