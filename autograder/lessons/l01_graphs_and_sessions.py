"""Lesson 1: graphs and sessions (seed 004, first half).

Probes build every exercise in a fresh `tf.Graph()`, so no grade depends on what other cells left.
Where an exercise must read "the graph it is given", the probe calls it while a different graph
(a decoy) is the default one, so reading `tf1.get_default_graph()` shows up as a wrong answer.
"""
from __future__ import annotations

import numpy as np

from ..compare import holds, same, values_match
from ..probing import close_session, FinalizedGraphGuard
from ..spec import Case, Check, Exercise, Lesson


def _network(features, layers, parts):
    """A small graph to inspect: x -> `layers` x (matmul, add, relu) -> split into `parts` -> add_n."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    x = tf1.placeholder(tf.float32, [None, features], name="x")
    h = x
    for i in range(layers):
        w = tf.constant(np.full((features, features), 0.1, np.float32), name=f"w{i}")
        b = tf.constant(np.zeros(features, np.float32), name=f"b{i}")
        h = tf.nn.relu(tf.matmul(h, w) + b, name=f"h{i}")
    pieces = tf.split(h, parts, axis=1, name="parts")
    return tf.add_n(pieces, name="out")


def probe_count_ops(count_ops_by_type, features, layers, parts):
    """Build a network in one graph, then count its ops while another graph is the default."""
    import tensorflow as tf

    with tf.Graph().as_default() as given:
        _network(features, layers, parts)
    with tf.Graph().as_default():  # the decoy: what tf1.get_default_graph() returns during the call
        tf.fill([2], 1.0, name="decoy")
        tf.no_op(name="decoy_noop")
        counts = dict(count_ops_by_type(given))
    counts = {str(k): int(v) for k, v in sorted(counts.items())}
    return {"counts": counts, "types": sorted(counts), "total": sum(counts.values())}


def probe_input_names(input_op_names, name):
    """Ask for the input ops of `name` in a small graph, while a decoy graph with an op of that name is default."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as given:
        x = tf1.placeholder(tf.float32, [None, 4], name="x")
        square = tf.multiply(x, x, name="square")
        parts = tf.split(square, 2, axis=1, name="parts")
        tf.add_n([parts[1], parts[0], parts[1]], name="out")
        tf.reduce_sum(tf.concat([parts[0], x[:, :2]], axis=1, name="joined"), name="total")
    with tf.Graph().as_default():
        tf.identity(tf.constant(0.0, name="decoy"), name=name)
        names = input_op_names(given, name)
    return {"inputs": [n if isinstance(n, str) else str(n) for n in names]}


def _attempt(call):
    """The values `call` returns, or the type and first line of what it raised (not NotImplementedError)."""
    try:
        return {"values": [np.asarray(v) for v in call()]}
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - which error was raised is the observation
        message = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
        return {"raised": type(exc).__name__, "message": message}


def probe_evaluate(evaluate, init, new):
    """A variable set to `new` in one session; evaluate with that session, as the default, and with none."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        state = tf1.Variable(np.asarray(init, np.float32), name="state")
        tensors = [state * 2.0, tf.reduce_sum(state)]
        sess = tf1.Session()
        sess.run(state.initializer)
        sess.run(state.assign(np.asarray(new, np.float32)))
        explicit = _attempt(lambda: evaluate(tensors, session=sess))
        with sess.as_default():
            default = _attempt(lambda: evaluate(tensors))
        nothing = _attempt(lambda: evaluate(tensors))
        sess.close()
    return {"explicit": explicit, "default": default, "none": nothing}


def probe_one_run(kept_and_dropped, x, keep, seed):
    """Split x with the student's mask; check kept + dropped rebuilds x and count random ops."""
    import tensorflow as tf

    x = np.asarray(x, np.float32)
    with tf.Graph().as_default() as graph:
        kept, dropped = kept_and_dropped(x, keep, seed)
        random_ops = sorted(op.type for op in graph.get_operations() if "Random" in op.type)
    kept, dropped = np.asarray(kept, np.float32), np.asarray(dropped, np.float32)
    consistent = (kept.shape == x.shape == dropped.shape and bool(np.allclose(kept + dropped, x))
                  and bool(np.all((kept == 0) | (dropped == 0))))
    return {"kept": kept, "dropped": dropped, "consistent": consistent, "random_ops": random_ops}


def probe_running_total(cls, values):
    """Build the accumulator, finalize the graph, then add each value and record the totals."""
    import tensorflow as tf

    with tf.Graph().as_default() as graph:
        total = cls()
        graph.finalize()
        totals, guard = [], FinalizedGraphGuard()
        with guard:
            for value in values:
                totals.append(float(np.asarray(total.add(value))))
        close_session(total)
    return {"totals": totals, "modified_finalized_graph": guard.tripped}


def _bad_names(got) -> bool:
    names = got["inputs"]
    return any(n.split(":")[0].lstrip("^") == "decoy" or ":" in n or n.startswith("^") for n in names)


DEFAULT_GRAPH = ("This function was handed a graph but read another one. tf1.get_default_graph() is "
                 "whatever graph is current when the function is called, not the one you were given: "
                 "inspect the argument (graph.get_operations(), graph.get_operation_by_name(...)).")

LESSON = Lesson(
    assignment="01_graphs_and_sessions",
    notebook="graphs_and_sessions.ipynb",
    exercises=(
        Exercise(
            id="count_ops", symbol="count_ops_by_type", points=2, probe=probe_count_ops,
            checks=(
                Check("default-graph", "counts the ops of the graph it is given", DEFAULT_GRAPH,
                      same("types"), shows=("types",)),
                Check("counted-tensors", "counts each op once",
                      "An op is a node of the graph; the tensors are its outputs. Count the ops "
                      "(graph.get_operations(), or the GraphDef's nodes) once each: a Split op with "
                      "three outputs is still one op.",
                      lambda got, exp: got["types"] != exp["types"] or values_match(got["counts"], exp["counts"]),
                      shows=("counts",)),
            ),
            cases=(Case("2 layers, split in 2", {"features": 4, "layers": 2, "parts": 2}),),
        ),
        Exercise(
            id="input_names", symbol="input_op_names", points=2, probe=probe_input_names,
            checks=(
                Check("default-graph", "reads the op from the graph it is given", DEFAULT_GRAPH,
                      holds(lambda got: all(n.split(":")[0].lstrip("^") != "decoy" for n in got["inputs"])),
                      shows=("inputs",)),
                Check("tensor-names", "returns op names, not tensor names",
                      "op.inputs holds tensors, and a tensor's name is '<op name>:<output index>' "
                      "(x:0, parts:1). The op that made a tensor is tensor.op: return tensor.op.name. "
                      "(GraphDef input strings are different again: 'parts:1', and '^name' for a "
                      "control input.)",
                      holds(lambda got: all(":" not in n and not n.startswith("^") for n in got["inputs"])),
                      shows=("inputs",)),
                Check("input-order", "lists every input in order, repeats included",
                      "An op's inputs are an ordered list, and one op may feed another more than once "
                      "(x * x has the inputs [x, x]). Keep the order and the repeats: no set(), no sorted().",
                      lambda got, exp: _bad_names(got) or got["inputs"] == exp["inputs"], shows=("inputs",)),
            ),
            cases=(Case("the inputs of 'out'", {"name": "out"}),),
        ),
        Exercise(
            id="evaluate", symbol="evaluate", points=3, probe=probe_evaluate,
            checks=(
                Check("eval-needs-default", "uses the session it is given",
                      "With a session passed in (and no default session) the values must come from "
                      "that session. t.eval() looks only at the default session, since it is "
                      "tf1.get_default_session().run(t): run the tensors with the session you were "
                      "given, session.run(tensors) (or t.eval(session=session)).",
                      same("explicit"), shows=("explicit",)),
                Check("default-session-ignored", "falls back to the default session",
                      "With session=None, use tf1.get_default_session(), exactly like t.eval(). A new "
                      "tf1.Session() is no substitute: variable values live in a session, and a fresh "
                      "one holds none of them.",
                      same("default"), shows=("default",)),
                Check("invented-session", "raises ValueError when there is no session at all",
                      "With no session given and no default session, t.eval() raises ValueError, and so "
                      "must evaluate. Opening a new session instead would evaluate in a session that "
                      "holds none of the variables' values.",
                      holds(lambda got: got["none"].get("raised") == "ValueError"), shows=("none",)),
            ),
            cases=(Case("state [1, 2] set to [3, -1]", {"init": [1.0, 2.0], "new": [3.0, -1.0]}),),
        ),
        Exercise(
            id="one_run", symbol="kept_and_dropped", points=3, probe=probe_one_run,
            checks=(
                Check("separate-runs", "kept + dropped give back x, no element in both",
                      "kept and dropped were computed from different draws of the mask. Every run, and "
                      "every t.eval() (which is a run), executes the random op again. Fetch both in ONE "
                      "sess.run([kept, dropped]): ops they share are computed once per run.",
                      holds(lambda got: got["consistent"] is True), shows=("kept", "dropped")),
                Check("two-random-ops", "draws the mask with a single random op",
                      "The graph holds more than one random op. Each random op is a draw of its own: "
                      "build the mask once and use that one tensor for both outputs. (Two ops with the "
                      "same op seed repeat the same numbers, which hides the bug until a seed changes.)",
                      holds(lambda got: len(got["random_ops"]) == 1), shows=("random_ops",)),
                Check("wrong-mask", "keeps x exactly where uniform < keep",
                      "Keep x where tf.random.uniform(tf.shape(x), seed=seed) < keep and drop it "
                      "elsewhere; with that op and seed the mask is reproducible.",
                      lambda got, exp: (not got["consistent"] or len(got["random_ops"]) != 1
                                        or (values_match(got["kept"], exp["kept"])
                                            and values_match(got["dropped"], exp["dropped"]))),
                      shows=("kept", "dropped")),
            ),
            cases=(Case("x = 1..8, keep 0.5, seed 7",
                        {"x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], "keep": 0.5, "seed": 7}),),
        ),
        Exercise(
            id="running_total", symbol="RunningTotal", points=2, probe=probe_running_total,
            checks=(
                Check("ops-in-loop", "adds no ops after __init__",
                      "add() tried to create an op in a finalized graph. Build the placeholder and the "
                      "one assign_add op in __init__; add() must only run them.",
                      holds(lambda got: got["modified_finalized_graph"] is False),
                      shows=("modified_finalized_graph",)),
                Check("session-per-step", "returns the running total after each value",
                      "The total must carry over from call to call. A variable's value lives in the "
                      "session that initialized it: open one session in __init__ and keep it. A new "
                      "session, or running the initializer again, starts over from 0.",
                      lambda got, exp: got["modified_finalized_graph"] or values_match(got["totals"], exp["totals"]),
                      shows=("totals",)),
            ),
            cases=(Case("add 1, 2, 3.5", {"values": [1.0, 2.0, 3.5]}),),
        ),
    ),
)
