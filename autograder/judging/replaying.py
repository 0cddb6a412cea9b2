"""Observations completed outside the kernel: the artifacts a probe handed out, re-run on inputs the
kernel never saw (`engine.replay`), for the exercises that keep inputs `outside`.

The kernel is sent each case without those inputs (`kernel_cases`); once it has run, `replayed`
hands each observation, the case's full inputs and a way to run requests to the exercise's
`replay`, which returns the observation the checks read. Reference, batch grader, nbgrader and the
check cell all go through here, so a submission's verdict and the reference rest on the same runs.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from autograder.course.spec import Case, Lesson, Observation

Run = Callable[[dict], dict]


def observe_notebook(nb: Any, lesson: Lesson, cases: Mapping[str, Sequence[Case]], *args: Any,
                     **kwargs: Any) -> Any:
    """Run `nb` and its probes in a kernel (`engine.kernel.execute_and_observe`, with its limits,
    hidden paths, device and zygote as further arguments) on the cases as the kernel may see them,
    then complete the observations outside it (`replayed`). Returns the `Execution`."""
    from autograder.engine.kernel import execute_and_observe  # not for the check cell's import

    execution = execute_and_observe(nb, lesson.assignment, kernel_cases(lesson, cases), *args, **kwargs)
    execution.observations = replayed(lesson, cases, execution.observations)
    return execution


def kernel_cases(lesson: Lesson, cases: Mapping[str, Sequence[Case]]) -> dict[str, list[Case]]:
    """`cases` as the kernel may see them (`Exercise.kernel_case`)."""
    return {ex_id: [lesson.exercise(ex_id).kernel_case(c) for c in ex_cases] for ex_id, ex_cases in cases.items()}


def replayed(lesson: Lesson, cases: Mapping[str, Sequence[Case]], observations: Mapping[str, list[Observation]],
             run: Run | None = None) -> dict[str, list[Observation]]:
    """`observations` with each replayed exercise's observations completed by its `replay` (an
    observation of a call that raised stays as it is). `run` defaults to the grader's worker."""
    done = dict(observations)
    for ex_id, observed in observations.items():
        replay = lesson.exercise(ex_id).replay
        if replay is None:
            continue
        if run is None:
            from autograder.engine.replay import shared_replayer

            run = shared_replayer().run
        done[ex_id] = [obs if "error" in obs else _completed(replay, obs, case, run)
                       for case, obs in zip(cases[ex_id], observed)]
    return done


def _completed(replay: Callable, observation: Observation, case: Case, run: Run) -> Observation:
    try:
        return replay(observation, case.inputs, run)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:  # an artifact not as asked for
        return {"error": {"type": "NotReplayable",
                          "message": f"the grader could not re-run what was handed out ({type(exc).__name__})"}}
