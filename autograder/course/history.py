"""A kernel's session history, re-run by the grader outside the kernel on the hidden inputs.

A probe calls the student's code on markers (numbers chosen so that they can be found again) and
hands out every run the code made (`probing.RunsRecorded.history`): the GraphDef of each graph run,
and per run its session, fetches and feeds. The grader re-runs each session's runs in order, in one
session of its own worker per kernel session, with every marker swapped for the hidden value it
stands for, in the feeds and in the Consts the code built from it (`engine.replay`'s `substitute`).

So a value the student's graph computes follows the hidden inputs, and a value computed in Python
stays what it was on the markers: a verdict on the replayed answers rests on what the graph does,
not on what the kernel says it returned. The kernel never sees a hidden input.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

Run = Callable[[dict], dict]


def replay_history(history: Mapping[str, Any], swaps: Sequence[tuple[Any, Any]], run: Run) -> tuple[list, str | None]:
    """What each run of `history` returns outside the kernel with `swaps` (marker, value) made: per
    run, the list of its fetched values, or None when the run failed; and why the worker refused a
    graph (an op outside its pure list, say), or None."""
    graphs, runs = history["graphs"], history["runs"]
    values: list = [None] * len(runs)
    substitute = [[_plain(marker), _plain(value)] for marker, value in swaps]
    for session in sorted({r["session"] for r in runs}):
        mine = [i for i, r in enumerate(runs) if r["session"] == session]
        answer = run({"graph": graphs[runs[mine[0]]["graph"]], "substitute": substitute,  # a session runs one graph
                      "runs": [{"feeds": dict(runs[i]["feeds"]), "fetches": runs[i]["fetches"]} for i in mine]})
        if "refused" in answer:
            return values, answer["refused"]
        for i, result in zip(mine, answer.get("results", [])):
            values[i] = result.get("value")
    return values, None


def _plain(value: Any) -> Any:
    tolist = getattr(value, "tolist", None)
    return tolist() if callable(tolist) else value


def created_at(history: Mapping[str, Any], run_numbers: Sequence[int], run: Run) -> list[int | None]:
    """Where the op of each fetch of the runs `run_numbers` of `history` was created among its
    graph's ops (a GraphDef lists them in creation order), read outside the kernel; None for a fetch
    the graph does not hold."""
    runs = history["runs"]
    found: list[int | None] = []
    for graph in sorted({runs[i]["graph"] for i in run_numbers}):
        names = [name for i in run_numbers if runs[i]["graph"] == graph for name in runs[i]["fetches"]]
        described = run({"graph": history["graphs"][graph], "describe": names, "runs": []}).get("described", {})
        found += [(described.get(name) or {}).get("index") for name in names]
    return found


def races(history: Mapping[str, Any], run_numbers: Sequence[int], run: Run, reads: bool = False) -> list[bool | None]:
    """Per run of `run_numbers` of `history`, whether its fetches race a write against a read (with
    `reads`: whether what it computes holds a read racing a write), judged outside the kernel on the
    GraphDef handed out (`engine.replay`); None where the graph does not hold a fetch or was refused."""
    key = "read_races" if reads else "races"
    runs, found = history["runs"], {}
    for graph in sorted({runs[i]["graph"] for i in run_numbers}):
        mine = [i for i in run_numbers if runs[i]["graph"] == graph]
        answer = run({"graph": history["graphs"][graph], "runs": [], key: [runs[i]["fetches"] for i in mine]})
        found.update(zip(mine, answer.get(key) or [None] * len(mine)))
    return [found[i] for i in run_numbers]


def replayed_calls(observation: Mapping[str, Any], swaps: Sequence[tuple[Any, Any]], run: Run,
                   calls: str = "judge_runs") -> tuple[dict, list]:
    """For a probe's observation of calls made on markers (its `history`, `answered_by` and, under
    `calls`, the [start, end) runs of each call): the observation without them, plus `call_sessions`,
    how many sessions the calls' runs used (read from the runs handed out, a second witness beside the
    kernel's count of sessions made); and each answer as the runs compute it outside the kernel with
    `swaps` made, None where it came from no run. When the worker refuses the graphs, the first is an
    observation of that error and the answers are []."""
    history = observation["history"]
    done = {key: value for key, value in observation.items() if key not in ("history", "answered_by", calls)}
    done["call_sessions"] = len({history["runs"][i]["session"] for start, end in observation[calls]
                                 for i in range(start, end)})
    values, refused = replay_history(history, swaps, run)
    if refused is not None:
        return {"error": {"type": "NotReplayable", "message": refused}}, []
    answers = [None if where is None or values[where[0]] is None else values[where[0]][where[1]]
               for where in observation["answered_by"]]
    return done, answers
