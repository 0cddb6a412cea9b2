"""The part of the grader that runs inside the student's kernel.

It calls each exercise's probe on the requested cases and turns what comes back into plain JSON.
It never sees expected values: judging happens wherever those live.
"""
from __future__ import annotations

import base64
import contextlib
import json
import math
import warnings
from typing import Any, Mapping, Sequence

import numpy as np

from autograder.course import lessons
from autograder.course.spec import Case, Exercise, Observation
from autograder.inkernel.quiet import captured_stderr

MIMETYPE = "application/vnd.tfgraph-course.observations+json"
MAX_MESSAGE = 600
MISSING = "MissingDefinition"  # the exercise's name is not defined (a NameError raised inside it is not this)
TOO_LARGE = "AnswerTooLarge"  # an answer over its share of `MAX_OBSERVATIONS_CHARS`, as JSON
# One probe cell's observations, as JSON: real ones are a few kB. Below the grader's limit on them
# (`engine.limits.MAX_OBSERVATION_BYTES`), so a huge answer costs its case, never the cell's message.
MAX_OBSERVATIONS_CHARS = 3_000_000


def jsonable(value: Any) -> Any:
    """Convert numpy values, tuples and nested containers into JSON-ready Python values.

    Non-finite floats become the strings "nan", "inf" and "-inf".
    """
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        return jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # JSON has no NaN or inf, and Jupyter's messages refuse them
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def error_observation(kind: str, message: str) -> Observation:
    """The observation of a call that raised instead of answering."""
    return {"error": {"type": kind, "message": message[:MAX_MESSAGE]}}


def observe_case(exercise: Exercise, namespace: Mapping[str, Any], case: Case) -> Observation:
    """Run `exercise.probe` on one case against what `namespace` defines; errors become observations."""
    target = namespace.get(exercise.symbol)
    if target is None:
        return error_observation(MISSING, f"the notebook defines no `{exercise.symbol}`")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return jsonable(exercise.probe(target, **exercise.kernel_case(case).inputs))
    except BaseException as exc:  # SystemExit, GeneratorExit, a student's own BaseException: all answers
        if type(exc) is KeyboardInterrupt:  # the grader's interrupt of a cell over its time limit
            raise
        return error_observation(type(exc).__name__, _message(exc))


def _message(exc: BaseException) -> str:
    """`str(exc)`, or "" when the exception's own `__str__` fails."""
    try:
        return str(exc)
    except BaseException:  # noqa: BLE001 - the student's __str__ may raise anything
        return ""


def observe(exercise: Exercise, namespace: Mapping[str, Any],
            cases: Sequence[Case]) -> tuple[list[Observation], str]:
    """Observe `exercise` on every case; also return what was written to stderr meanwhile."""
    room = MAX_OBSERVATIONS_CHARS // max(1, len(cases))
    with captured_stderr() as stderr, graphs_as_built():
        observations = [within(observe_case(exercise, namespace, case), room) for case in cases]
    return observations, stderr[0]


def within(observation: Observation, room: int) -> Observation:
    """`observation`, or an error saying it is over `room` characters as JSON."""
    if len(json.dumps(observation, default=str)) <= room:
        return observation
    return error_observation(TOO_LARGE, f"the answer is over {room} characters as JSON")


@contextlib.contextmanager
def graphs_as_built():
    """Sessions and functions made meanwhile run their graphs as built, without Grappler's rewrites.

    Grappler optimises a graph again for every new set of fetches and feeds, about a millisecond
    each time; probes make thousands of one-off runs on tiny graphs, so it cost a fifth of all
    probing. Without it a value can differ in its last bit, which every check's tolerance absorbs;
    references, public expected values and check cells all probe this way.
    """
    import tensorflow as tf

    before = tf.config.optimizer.get_experimental_options().get("disable_meta_optimizer", False)
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    try:
        yield
    finally:
        tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": before})


def device_name() -> str:
    """The device TensorFlow computes on in this kernel: the first GPU if there is one, else CPU."""
    import tensorflow as tf

    gpus = tf.config.list_physical_devices("GPU")
    return gpus[0].name.replace("/physical_device:", "") if gpus else "CPU"


def encode_request(cases_by_exercise: Mapping[str, Sequence[Case]]) -> str:
    """Pack the cases to observe into one base64 string that is safe to paste into a code cell."""
    plain = {ex_id: [{"label": c.label, "inputs": dict(c.inputs), "public": c.public} for c in cases]
             for ex_id, cases in cases_by_exercise.items()}
    return base64.b64encode(json.dumps(plain).encode()).decode()


def decode_request(request: str) -> dict[str, list[Case]]:
    """Inverse of `encode_request`."""
    plain = json.loads(base64.b64decode(request))
    return {ex_id: [Case(**c) for c in cases] for ex_id, cases in plain.items()}


def emit(namespace: Mapping[str, Any], assignment: str, request: str, nonce: str, verify: bool = True) -> None:
    """Observe the requested cases and display them as one atomic output of our own mimetype.

    This is what the batch grader's probe cell calls, once per exercise; `nonce` ties the output to
    the grader's request. With `verify`, it first checks that nothing the probes rely on was
    replaced (`integrity`); if something was, it reports that instead of observing.
    """
    from IPython.display import display

    from autograder.inkernel import integrity

    lesson = lessons.load(assignment)
    tampered = integrity.changed() if verify else []
    payload: dict[str, Any] = {"nonce": nonce, "device": device_name(), "exercises": {}, "stderr": "",
                               "tampered": tampered}
    if tampered:  # observing with patched tools proves nothing: say so instead
        display({MIMETYPE: payload}, raw=True)
        return
    for ex_id, cases in decode_request(request).items():
        observations, stderr = observe(lesson.exercise(ex_id), namespace, cases)
        payload["exercises"][ex_id] = observations
        payload["stderr"] += stderr
    display({MIMETYPE: payload}, raw=True)
