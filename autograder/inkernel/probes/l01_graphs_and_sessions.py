"""Lesson 1's probes (graphs and sessions): what runs in the student's kernel.

Each probe builds its inputs in a fresh graph, calls the student's function and returns plain
values; the checks that judge them are in `autograder.course.lessons.l01_graphs_and_sessions`.
"""
from __future__ import annotations

import numpy as np

from autograder.inkernel.probing import (
    FinalizedGraphGuard,
    RunsRecorded,
    after_reset,
    close_session,
    dtype_name,
    export_graph,
    graph_variables,
    session_runs,
    sessions_made,
    sessions_opened,
)


def _network(features, layers, parts, control=False):
    """A small graph to inspect: x -> `layers` x (matmul, add, relu) -> split into `parts` -> add_n.

    With `control`, a NoOp (an op with no outputs) runs after `out` through a control input. With no
    layers, the graph stays empty.
    """
    import tensorflow as tf

    if layers == 0:
        return None

    tf1 = tf.compat.v1
    x = tf1.placeholder(tf.float32, [None, features], name="x")
    h = x
    for i in range(layers):
        w = tf.constant(np.full((features, features), 0.1, np.float32), name=f"w{i}")
        b = tf.constant(np.zeros(features, np.float32), name=f"b{i}")
        h = tf.nn.relu(tf.matmul(h, w) + b, name=f"h{i}")
    pieces = tf.split(h, parts, axis=1, name="parts")
    out = tf.add_n(pieces, name="out")
    if control:
        with tf.control_dependencies([out]):
            tf.no_op(name="after_out")
    return out


def probe_count_ops(count_ops_by_type, features, layers, parts, control=False):
    """Build a network in one graph, then count its ops while another graph is the default.

    Also records what counting tensors (op outputs) instead of ops would give on the given graph, so
    a check can name that mistake; it is a fact about the input, not an expected answer, and the
    checks read the reference's (the solution's kernel), never the student's.
    """
    import tensorflow as tf

    with tf.Graph().as_default() as given:
        _network(features, layers, parts, control)
    with tf.Graph().as_default():  # the decoy: what tf1.get_default_graph() returns during the call
        tf.fill([2], 1.0, name="decoy")
        tf.no_op(name="decoy_noop")
        counts = dict(count_ops_by_type(given))
    counts = {str(k): int(v) for k, v in sorted(counts.items())}
    by_tensor: dict[str, int] = {}
    for op in given.get_operations():
        for tensor in op.outputs:
            by_tensor[tensor.op.type] = by_tensor.get(tensor.op.type, 0) + 1
    return {"counts": counts, "types": sorted(counts), "tensor_counts": dict(sorted(by_tensor.items()))}


def probe_input_names(input_op_names, name):
    """Ask for the input ops of `name` in a small graph, while a decoy graph with an op of that name is default.

    Also records the control inputs of `name` and the names of the graph's ops: facts about the input,
    which the checks read from the reference's observation (the solution's kernel), never the student's."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as given:
        x = tf1.placeholder(tf.float32, [None, 4], name="x")
        tf.identity(x, name="outer")            # made before "out", and its name starts with "out"
        tf.negative(x, name="my_out")           # made before "out", and its name ends with "out"
        square = tf.multiply(x, x, name="square")
        parts = tf.split(square, 2, axis=1, name="parts")
        tf.add_n([parts[1], parts[0], parts[1]], name="out")
        tf.abs(square, name="block/out")         # made after "out", and its name ends with "/out"
        tf.reduce_sum(tf.concat([parts[0], x[:, :2]], axis=1, name="joined"), name="total")
        with tf.control_dependencies([square]):  # a control input that is not a data input
            tf.add(parts[0], parts[1], name="gated")
        layer = tf.nn.relu(square, name="layer12")  # an op name that ends in digits, like its tensor's index
        tf.add(layer, square, name="mixed")
        with tf.control_dependencies([parts[0].op]):  # a control input, and a data input from "layer12"
            tf.subtract(layer, x, name="guarded")
    control = [c.name for c in given.get_operation_by_name(name).control_inputs]
    with tf.Graph().as_default():
        tf.identity(tf.constant(0.0, name="decoy"), name=name)
        names = input_op_names(given, name)
    names = [n if isinstance(n, str) else str(n) for n in names]
    return {"inputs": names, "control": control, "ops": sorted(op.name for op in given.get_operations())}


def _attempt(call):
    """The values `call` returns, or the type and first line of what it raised (not NotImplementedError)."""
    try:
        return {"values": [np.asarray(v) for v in call()]}
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - which error was raised is the observation
        message = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
        return {"raised": type(exc).__name__, "message": message}


def _counted_attempt(call, ticks):
    """`_attempt(call)`, plus the number of Session.run calls it made and sessions it opened; the
    values at the positions `ticks` are taken out of `values` into `ticks`."""
    with session_runs() as runs, sessions_made() as sessions:
        result = _attempt(call)
    if "values" in result:
        values = result["values"]
        result = {"values": [v for i, v in enumerate(values) if i not in ticks],
                  "ticks": [float(np.asarray(values[i]).reshape(-1)[0]) for i in ticks if i < len(values)]}
    return {**result, "runs": runs.count, "sessions": sessions.count}


# Where each session's run counter starts: a value it returns says which session ran (its hundreds)
# and how many runs that session made before (its units).
TICKS_FROM = (100.0, 200.0)


def probe_evaluate(evaluate, init, new):
    """A variable set to `new` in one session and left at `init` in another; evaluate with the first
    given, as the default, given while the other is the default, and with no session at all.

    Among the tensors, two read one counter that an op adds 1 to on every run of the session (from
    100 in the first session, 200 in the other): one run gives them one value, two runs two, and the
    values say which session ran and how many runs it had made. After the calls the probe runs the
    counter once in each session: a session a call closed raises instead."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        state = tf1.Variable(np.asarray(init, np.float32), name="state")
        counter = tf1.Variable(0.0, name="counter")
        tick = tf1.assign_add(counter, 1.0)
        tensors = [state * 2.0, tf.identity(tick, name="tick"), tf.reduce_sum(state), tf.add(tick, 0.0, name="tock")]
        ticks = (1, 3)
        sess, other = tf1.Session(), tf1.Session()
        for s, start in zip((sess, other), TICKS_FROM):
            s.run([state.initializer, counter.initializer])
            s.run(counter.assign(start))
        sess.run(state.assign(np.asarray(new, np.float32)))
        explicit = _counted_attempt(lambda: evaluate(tensors, session=sess), ticks)
        with sess.as_default():
            default = _counted_attempt(lambda: evaluate(tensors), ticks)
        with other.as_default():
            both = _counted_attempt(lambda: evaluate(tensors, session=sess), ticks)
        nothing = _counted_attempt(lambda: evaluate(tensors), ticks)
        closed = sess._closed or other._closed  # noqa: SLF001 - whether a call ended a caller's session
        after = [_ran_once(s, tick) for s in (sess, other)]
        sess.close()
        other.close()
    return {"explicit": explicit, "default": default, "both": both, "none": nothing, "closed_callers": closed,
            "after": after}


def _ran_once(session, tick):
    """The counter after one more run of `session`, or None when the session no longer runs."""
    try:
        return float(session.run(tick))
    except Exception:  # noqa: BLE001 - a closed session raises RuntimeError, or TensorFlow's own errors
        return None


def probe_one_run(kept_and_dropped, x, keep, seed):
    """Split x with the student's mask; check kept + dropped rebuilds x.

    Hands out the default graph the call was made in (`graph`, for the grader to read its random ops)
    and every run the call made (`history`), for the grader to re-run outside the kernel and find the
    run that returned kept and dropped."""
    import tensorflow as tf

    x = np.asarray(x, np.float32)
    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        with sessions_opened() as sessions:
            kept, dropped = kept_and_dropped(x, keep, seed)
    own_graph = any(s.graph is not graph for s in sessions.instances)
    dtypes = [dtype_name(kept), dtype_name(dropped)]
    kept, dropped = np.asarray(kept, np.float32), np.asarray(dropped, np.float32)
    consistent = (kept.shape == x.shape == dropped.shape and bool(np.allclose(kept + dropped, x))
                  and bool(np.all((kept == 0) | (dropped == 0))))
    return {"kept": kept, "dropped": dropped, "consistent": consistent, "sessions": sessions.count,
            "dtypes": dtypes, "own_graph": own_graph, "graph": export_graph(graph), "history": runs.history()}


def probe_running_total(cls, values):
    """Build the accumulator, finalize the graph, then add each value and record the totals.

    Then the variable is set back to 0 by running its initializer in the session the accumulator
    opened, and two more values are added: a total kept in the variable starts over, a total kept in
    Python (and fed back) does not. The kernel is given markers (`autograder.course.markers`): every
    run from __init__ on is handed out (`history`) with the run that returned each total
    (`answered_by`), the runs each add() made (`add_runs`) and the ops the graph held when finalized,
    for the grader to re-run on the hidden values outside the kernel.
    """
    import tensorflow as tf

    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        with sessions_opened() as opened:
            total = cls()
        if any(session._closed for session in opened.instances):  # noqa: SLF001
            return {"closed_in_init": True}  # every add() would raise: nothing more to observe
        variables = graph_variables(graph)
        graph.finalize()
        finalized_ops, later = len(graph.get_operations()), len(runs.calls)

        def added(value):
            runs.answered(lambda: total.add(value))

        guard = FinalizedGraphGuard()
        with guard, sessions_made() as per_add:
            for value in values:
                added(value)
        def two_more():
            for value in values[:2]:
                added(value)
            return "added"

        reset = None if guard.tripped else after_reset(opened.instances, variables, two_more)
        close_session(total)
        for session in opened.instances:
            session.close()
    return {"closed_in_init": False, "modified_finalized_graph": guard.tripped, "sessions_per_add": per_add.count,
            "variables": [v.dtype.base_dtype.name for v in variables], "reset": reset,
            "answered_by": runs.answered_by, "add_runs": runs.call_runs, "later_runs": [later, len(runs.calls)],
            "finalized_ops": finalized_ops, "history": runs.history()}