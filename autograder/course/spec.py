"""The vocabulary of a graded lesson: exercises, the cases they run on, and the checks that judge them.

One definition serves three front ends: the student's check cell, nbgrader's hidden-test cells and
the batch grader. A probe runs in the student's kernel and turns what an exercise does into a
JSON-able observation; checks compare observations in whichever process holds the expected ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from autograder.course.markers import mark

Observation = dict[str, Any]
Compare = Callable[[Observation, Observation], bool]


@dataclass(frozen=True)
class Case:
    """One set of keyword inputs an exercise's probe is called with.

    A hidden case names its `situation` (for example "an input of another length", "a tie"): the
    feedback on a failure says which kind of input broke the answer, never the input itself.
    """

    label: str
    inputs: Mapping[str, Any]
    public: bool = True
    situation: str = ""


@dataclass(frozen=True)
class Check:
    """One property the student's observation must share with the reference.

    `id` names the misconception a failure reveals (it shows up in results as `failed_checks`),
    `misconception` teaches it, and `shows` lists the observation keys worth printing as
    got-vs-expected when the failing case is public.
    """

    id: str
    title: str
    misconception: str
    compare: Compare
    shows: Sequence[str] = ()


@dataclass(frozen=True)
class Exercise:
    """A graded function or class the notebook must define under `symbol`.

    `probe(target, **case.inputs)` runs in the student's kernel, calls `target` in fresh graphs and
    returns an observation (`outside` inputs left out). `cases` are the public cases; hidden ones live
    in `autograder.course.hidden`.
    """

    id: str
    symbol: str
    points: int
    probe: Callable[..., Observation]
    checks: Sequence[Check]
    cases: Sequence[Case]
    # Inputs the kernel never sees: the probe hands out an artifact (a GraphDef), and `replay`
    # completes the observation outside the kernel, `replay(observation, inputs, run)`, where `run`
    # answers a request of `autograder.engine.replay` (the artifact re-run on these inputs).
    outside: tuple[str, ...] = ()
    replay: Callable[[Observation, Mapping[str, Any], Callable[[dict], dict]], Observation] | None = None
    # Inputs the kernel is given as markers (`autograder.course.markers`: (key, kind) pairs), which
    # `replay` swaps back for the hidden values when it re-runs the runs the student's code made.
    marked: tuple[tuple[str, str], ...] = ()

    def kernel_case(self, case: Case) -> Case:
        """`case` as the kernel may see it: without the inputs kept `outside`, markers for the `marked` ones."""
        if not self.outside and not self.marked:
            return case
        inputs = {k: v for k, v in case.inputs.items() if k not in self.outside}
        if self.marked:
            inputs = mark(inputs, dict(self.marked))[0]
        return replace(case, inputs=inputs)


@dataclass(frozen=True)
class Lesson:
    """One nbgrader assignment: its folder name, its notebook and its graded exercises."""

    assignment: str
    notebook: str
    exercises: Sequence[Exercise] = field(default_factory=tuple)

    def exercise(self, exercise_id: str) -> Exercise:
        """The exercise called `exercise_id`, or a KeyError that lists the known ones."""
        for exercise in self.exercises:
            if exercise.id == exercise_id:
                return exercise
        known = ", ".join(e.id for e in self.exercises)
        raise KeyError(f"{self.assignment} has no exercise {exercise_id!r}; it has: {known}")

    @property
    def max_score(self) -> int:
        """Points available in the whole lesson."""
        return sum(e.points for e in self.exercises)
