"""Re-run a graph a kernel handed out, in a process of the grader's, on inputs the kernel never saw.

A probe can export the GraphDef of what the student's function built (`probing.export_graph`). The grader
then runs that artifact itself: a check such as "the threshold is an input of the graph" is judged
by feeding thresholds the kernel never saw and reading what the graph computes, not by what a run
inside the kernel said it returned. Whatever the student's code patched in its own process, the
graph it handed over either computes the answers or does not.

A GraphDef is data, but some ops touch the world (read and write files, call back into Python,
load libraries): `SAFE_OPS` lists the pure ones a course answer builds, and a graph holding any
other op, or a function library, is refused before anything is imported (`NotReplayable`). The
grader's worker is a subprocess (`python -m autograder.engine.replay`) with an address-space limit
and a time limit per request; it imports TensorFlow once and serves every request of a grading
run, each in a fresh `tf.Graph` and session, so nothing of one graph outlives its request. Inside a
student's own kernel (the public check cell) the same requests run in-process (`run_here`).

A request: `{"graph": <base64 GraphDef>, "describe": [tensor names], "ops": true, "gradients": [[y, [x
names]]], "races": [[fetch names]], "read_races": [[fetch names]], "substitute": [[marker, value]],
"runs": [{"feeds": {name: value}, "fetch": name or "fetches": [names]}]}`. The answer: `{"described":
{name: {"op", "dtype", "index"}}, "gradients": [[whether y has a gradient with respect to each x] or
None], "races": [whether one run of those fetches races a write against a read, or None],
"read_races": [the same for a read inside what the run computes] (when asked), "results": [{"value":
...} or {"error": first line}]}` (and with `ops`, `"ops"`: the type of every op of the graph, in
creation order), or
`{"refused": reason}` (with `ops` still listed: a graph the worker will not run can still be read);
`fetches` answers a list of values. `index` in a description is where the op was created among the
graph's ops. `"random_sources": [tensor names]` answers `"random_sources"`: per name, the random ops
with a seed pair (an op with `seed` and `seed2` attributes) it is computed from, walking its inputs
back through the GraphDef, as `[op name, seed, seed2]` in creation order (None for a name the graph
does not hold); like `ops`, it is read, never run, so a refused graph answers it too.

`substitute` swaps markers for the values they stand for. A probe calls the student's code on marker
values (numbers chosen to be found again), never on the hidden inputs; the grader then re-runs the
runs the code made with each marker replaced by its hidden value wherever it went: in a feed, or in a
Const the code built from it. What the code computed in Python from a marker is no marker any more,
so it stays what it was on the marker, and the replayed answer shows it.

The `files` and `collections` requests, and the parsing every request shares, are in
`engine.artifacts`: what a kernel handed out read as data, never run.
"""
from __future__ import annotations

import atexit
import json
import os
import resource
import subprocess
import sys
import threading
from typing import Any, Mapping

from autograder.engine.artifacts import (
    NotReplayable,
    first_line,
    parsed_graph_def,
    plain,
    random_sources,
    read_collections,
    read_files,
)

MEMORY_BYTES = 4 * 2**30  # address space: TensorFlow itself maps about 2 GB
REQUEST_TIMEOUT_S = 20  # a course graph re-runs in milliseconds
START_TIMEOUT_S = 300  # importing TensorFlow, on a loaded machine
READY = "ready"
SAFE_OPS = frozenset({
    # inputs, constants, plumbing
    "Const", "Placeholder", "PlaceholderWithDefault", "Identity", "IdentityN", "NoOp", "StopGradient", "Snapshot",
    "Cast", "Bitcast", "EnsureShape", "CheckNumerics", "PreventGradient", "Shape", "ShapeN", "Size", "Rank",
    "Reshape", "ExpandDims", "Squeeze", "Pack", "Unpack",
    "ConcatV2", "Concat", "Slice", "StridedSlice", "GatherV2", "Gather", "Transpose", "BroadcastTo", "Fill",
    "ZerosLike", "OnesLike", "Tile", "Range", "Reverse", "ReverseV2", "Split", "SplitV", "Pad", "PadV2",
    # tf.cond and tf.case as built in a v1 graph with control flow v1 (lesson 7's probe builds them so)
    "Switch", "Merge",
    # arithmetic and comparisons
    "Add", "AddV2", "AddN", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "FloorDiv", "FloorMod", "Mod", "TruncateDiv",
    "Maximum", "Minimum", "Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Reciprocal", "Exp", "Expm1", "Log",
    "Log1p", "Pow", "Floor", "Ceil", "Round", "Rint", "Tanh", "Sigmoid", "Relu", "Softplus", "Sin", "Cos",
    "SquaredDifference", "ClipByValue", "MatMul", "BatchMatMulV2", "BiasAdd", "Greater", "GreaterEqual", "Less", "LessEqual",
    "Equal", "NotEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Select", "SelectV2", "IsNan", "IsFinite",
    "Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "ArgMax", "ArgMin", "Cumsum", "Cumprod",
    # printing and asserting: honest debugging (the worker's output goes nowhere)
    "PrintV2", "Print", "StringFormat", "Assert", "AsString", "StringJoin",
    # gradients and gradient descent's updates (a trainer's history): pure math on the request's variables
    "BroadcastGradientArgs", "TanhGrad", "SigmoidGrad", "ReluGrad", "SoftplusGrad", "SqrtGrad", "RsqrtGrad",
    "ReciprocalGrad", "InvertPermutation", "ApplyGradientDescent", "ResourceApplyGradientDescent",
    # resource and reference variables: state lives in the request's own session
    "VarHandleOp", "ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
    "VarIsInitializedOp", "VariableV2", "Assign", "AssignAdd", "AssignSub",
    # seeded random ops: their state lives in the request's own session, and the seeds in the GraphDef
    "RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt",
    # stateless random ops: pure functions of the seed tensor they are given
    "StatelessRandomGetKeyCounter", "StatelessRandomGetAlg", "StatelessRandomUniformV2", "StatelessRandomNormalV2",
    "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2", "StatelessRandomUniform", "StatelessRandomNormal",
    "StatelessTruncatedNormal",
    # the v1 optimizers' updates of a variable (and of their slots), in the request's own session
    "ApplyMomentum", "ResourceApplyMomentum", "ApplyAdam", "ResourceApplyAdam",
})


def run_here(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer a request in this process (TensorFlow imported here): the worker's loop and the
    students' own kernels, for public cases, call this."""
    import numpy as np
    import tensorflow as tf

    if "files" in request:
        return read_files(request)
    if "collections" in request:
        return read_collections(request)
    try:
        graph_def = parsed_graph_def(request.get("graph"))
    except NotReplayable as exc:
        return {"refused": str(exc)}
    listed = {"ops": [node.op for node in graph_def.node]} if request.get("ops") else {}  # read, never run
    if "random_sources" in request:
        listed["random_sources"] = [random_sources(graph_def, name) for name in request["random_sources"]]
    try:
        _check_safe(graph_def)
    except NotReplayable as exc:
        return {"refused": str(exc), **listed}
    tf1 = tf.compat.v1
    swaps = [(np.asarray(marker), np.asarray(value)) for marker, value in request.get("substitute", [])]
    if swaps:
        _substitute_consts(graph_def, swaps)
    with tf.Graph().as_default() as graph:
        tf1.import_graph_def(graph_def, name="")
        positions = {node.name: i for i, node in enumerate(graph_def.node)}
        described = {name: _describe(graph, name, positions) for name in request.get("describe", [])}
        gradients = [_reaches(graph, y, xs) for y, xs in request.get("gradients", [])]
        races = [_races(graph, fetches) for fetches in request.get("races", [])]
        read_races = [_races(graph, fetches, reads=True) for fetches in request.get("read_races", [])]
        config = tf1.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)
        results = []
        with tf1.Session(graph=graph, config=config) as session:
            for run in request.get("runs", []):
                try:
                    feeds = {name: _swapped(np.asarray(v), swaps) for name, v in run.get("feeds", {}).items()}
                    if "fetches" in run:
                        values = session.run(list(run["fetches"]), feeds)
                        results.append({"value": [plain(v) for v in values]})
                    else:
                        results.append({"value": plain(session.run(run["fetch"], feeds))})
                except (tf.errors.OpError, ValueError, TypeError, KeyError) as exc:
                    results.append({"error": f"{type(exc).__name__}: {first_line(getattr(exc, 'message', str(exc)))}"})
    return {"described": described, "results": results, "gradients": gradients, "races": races,
            **({"read_races": read_races} if "read_races" in request else {}), **listed}


def _swapped(value: Any, swaps: list) -> Any:
    """`value`, or the value of the first marker it equals. A marker of one element stands for a
    number, found in any array of one element (kept in that array's shape); a longer marker is found
    in an array of its shape."""
    import numpy as np

    if value.dtype.kind not in "fiu":
        return value
    for marker, replacement in swaps:
        if marker.size == 1 and value.size == 1 and value.reshape(()) == marker.reshape(()):
            return replacement.reshape(value.shape).astype(value.dtype)
        if marker.size > 1 and value.shape == marker.shape and bool(np.all(value == marker)):
            return replacement.astype(value.dtype)
    return value


def _substitute_consts(graph_def: Any, swaps: list) -> None:
    """Replace, in place, every numeric Const of `graph_def` that holds a marker by its value."""
    from tensorflow.python.framework import tensor_util

    for node in graph_def.node:
        if node.op != "Const":
            continue
        value = tensor_util.MakeNdarray(node.attr["value"].tensor)
        swapped = _swapped(value, swaps)
        if swapped is not value:
            node.attr["value"].tensor.CopyFrom(tensor_util.make_tensor_proto(swapped))


def _check_safe(graph_def: Any) -> None:
    """NotReplayable unless every op of `graph_def` is one the worker runs (`SAFE_OPS`), outside any function."""
    if graph_def.library.function:
        raise NotReplayable("the graph holds functions (tf.function or control flow), which the grader does not re-run")
    unsafe = sorted({node.op for node in graph_def.node} - SAFE_OPS)
    if unsafe:
        raise NotReplayable(f"the graph holds {', '.join(unsafe[:5])} ops, which the grader does not re-run: "
                            "build the answer from TensorFlow's math ops")


def _describe(graph: Any, name: str, positions: Mapping[str, int]) -> dict[str, Any] | None:
    """The op type and dtype of tensor `name` in `graph` (an op's name: its type alone, and the dtype
    of the value a variable's op holds), and where its op was created among the graph's ops (`index`:
    a GraphDef lists them in that order); None when there is no such tensor or op."""
    try:
        element = graph.as_graph_element(name)
    except (KeyError, ValueError, TypeError):
        return None
    op = getattr(element, "op", element)
    described = {"op": op.type, "index": positions.get(op.name)}
    if element is not op:
        described["dtype"] = element.dtype.base_dtype.name
    elif "dtype" in op.node_def.attr:  # a variable's op (VarHandleOp, VariableV2): the dtype it holds
        described["dtype"] = op.get_attr("dtype").base_dtype.name
    return described


def _reaches(graph: Any, y: str, xs: list) -> list | None:
    """Per tensor of `xs`, whether `tf.gradients` of `y` has a gradient with respect to it (a resource
    variable's handle stands for the variable); None when `tf.gradients` itself fails there."""
    import tensorflow as tf

    try:
        return [g is not None for g in tf.gradients(graph.as_graph_element(y), [graph.as_graph_element(x) for x in xs])]
    except (LookupError, ValueError, TypeError, KeyError):
        return None


def _races(graph: Any, fetches: list, reads: bool = False) -> bool | None:
    """Whether one run of `fetches` (names) would fetch an op that writes a variable together with one
    that reads it, nothing ordering the two (`probing.unordered_fetches`); with `reads`, whether what
    it computes holds a read that races a write (`probing.unordered_reads`). None for a name the graph
    does not hold."""
    from autograder.inkernel.probing import unordered_fetches, unordered_reads

    try:
        elements = [graph.as_graph_element(name) for name in fetches]
    except (KeyError, ValueError, TypeError):
        return None
    return unordered_reads(elements) if reads else unordered_fetches(elements)


class Replayer:
    """The grader's worker process: `replayer.run(request)` sends one request and waits for its
    answer; a worker that dies, is killed for time, or answers nonsense is replaced, and the request
    gets `{"refused": ...}` with the reason. Thread-safe: requests take turns."""

    def __init__(self, timeout_s: float = REQUEST_TIMEOUT_S):
        self.timeout_s = timeout_s
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None

    def run(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Answer `request` in the worker (started on first use)."""
        with self._lock:
            process = self._worker()
            if process is None:
                return {"refused": "the grader's replay worker could not start"}
            try:
                process.stdin.write(json.dumps(request) + "\n")
                process.stdin.flush()
            except OSError:
                self._stop()
                return {"refused": "the grader's replay worker stopped"}
            line = self._read_line(process, self.timeout_s)
            if not line:
                self._stop()
                return {"refused": "re-running the graph went over the grader's time or memory limit"}
            try:
                return json.loads(line)
            except ValueError:
                self._stop()
                return {"refused": "the grader's replay worker gave no answer"}

    def _worker(self) -> subprocess.Popen | None:
        """The running worker, started (and waited for until it has imported TensorFlow) if need be."""
        if self._process is None or self._process.poll() is not None:
            env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""}
            self._process = subprocess.Popen([sys.executable, "-m", "autograder.engine.replay"], env=env, text=True,
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.DEVNULL)
            if self._read_line(self._process, START_TIMEOUT_S).strip() != READY:
                self._stop()
        return self._process

    @staticmethod
    def _read_line(process: subprocess.Popen, timeout_s: float) -> str:
        """One line of the worker's output, or "" when none came within `timeout_s`."""
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout_s)
        return line[0] if line else ""

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def close(self) -> None:
        """Stop the worker (it also stops by itself when this process goes)."""
        with self._lock:
            self._stop()


_shared: Replayer | None = None
_shared_lock = threading.Lock()


def shared_replayer() -> Replayer:
    """The one worker of this grading process, started on first use and stopped at exit."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Replayer()
            atexit.register(_shared.close)
        return _shared


def main() -> None:
    """The worker's loop: one JSON request a line on stdin, one JSON answer a line on stdout."""
    from autograder.inkernel.quiet import quiet_environment

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))  # before TensorFlow maps anything
    quiet_environment()
    import tensorflow  # noqa: F401 - imported once, before the first request's time limit starts

    print(READY, flush=True)
    for line in sys.stdin:
        try:
            answer = run_here(json.loads(line))
        except Exception as exc:  # noqa: BLE001 - whatever a graph does, the worker answers and goes on
            answer = {"refused": f"the graph could not be re-run ({type(exc).__name__})"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
