"""Lesson 4's probes (variable-scope copies and sync ops): what runs in the student's kernel.

Each probe builds its inputs in a fresh graph, calls the student's function and returns plain
values; the checks that judge them are in `autograder.course.lessons.l04_variable_scope_copies`.
"""
from __future__ import annotations

import numpy as np

from autograder.inkernel.probing import (
    FinalizedGraphGuard,
    RacingRuns,
    RunsRecorded,
    close_session,
    export_graph,
    sessions_made,
)


def _ramp(shape, start):
    """Distinct, deterministic values: start, start + 0.5, start + 1, ... in the given shape."""
    size = int(np.prod(shape)) if len(shape) else 1
    return (start + 0.5 * np.arange(size)).astype(np.float32).reshape(shape)


def _uniform(shape, seed, scale=0.5):
    return np.random.RandomState(seed).uniform(-scale, scale, size=shape).astype(np.float32)


def _relative(variable, scope):
    return variable.op.name[len(scope) + 1:]


def _make_variables(scope, shapes, order, trainable, fill=None):
    """Create `order` (names relative to `scope`) with get_variable; ramps unless `fill` is given.
    Returns them as (relative name, variable) pairs, in that order."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    names = sorted(shapes)
    made = []
    with tf1.variable_scope(scope):
        for name in order:
            shape = list(shapes[name])
            value = (np.full(shape, fill, np.float32) if fill is not None
                     else _ramp(shape, 10.0 * (names.index(name) + 1)))
            made.append((name, tf1.get_variable(name, initializer=value, trainable=trainable)))
    return made


def _raised(call, name):
    """What `call()` raised: the exception's type, and whether its message names `name`."""
    try:
        call()
    except Exception as exc:  # the probe records any exception; the checks judge its type
        return {"type": type(exc).__name__, "names_variable": name in str(exc)}
    return {"type": None, "names_variable": False}


FILL, DECOY_FILL = -1.0, 7.0  # what destinations and the decoy scope's variables hold before the sync


def probe_sync_op(make_sync_op, src_scope, dst_scope, shapes, src_order, dst_order,
                  missing, bad_shape, decoy=None, dst_extra=None, src_frozen=None, dst_decoy=None,
                  transposed=False):
    """Sync a trainable source scope into a non-trainable destination scope; then the two error cases.

    The destinations are non-trainable; a build that raises only while they are (and builds once
    they are trainable) is handed out as `trainable_destinations`. `decoy` is a third scope whose name starts with `src_scope` (it must be ignored); `dst_decoy` a
    scope whose name starts with `dst_scope` (it must stay as it was); `dst_extra` is a destination
    variable with no source (it must be left alone); `src_frozen` a non-trainable source variable
    that has a partner (not a source: its partner must be left alone); `missing` is a source
    variable with no partner; `bad_shape` a variable whose destination has another shape: one more
    in each dimension, or (`transposed`) its dimensions reversed, of the same size.

    The probe's session (initialise, sync, read the destinations, the sources and the decoy
    destinations, each in one run) is handed out (`history`, and the names each read returned in
    order) for the grader to re-run outside the kernel: what the sync wrote is read there.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1

    def build(extra=None, reshape=None, decoys=True, trainable_copy=False):
        src_shapes, dst_shapes = dict(shapes), dict(shapes)
        order = list(src_order)
        if extra:
            src_shapes[extra] = [2]
            order.append(extra)
        if reshape:
            dst_shapes[reshape] = (list(reversed(shapes[reshape])) if transposed
                                   else [d + 1 for d in shapes[reshape]])
        made = {"sources": _make_variables(src_scope, src_shapes, order, trainable=True), "decoys": []}
        if src_frozen:
            made["sources"] += _make_variables(src_scope, {src_frozen: [2]}, [src_frozen], trainable=False, fill=3.0)
            dst_shapes[src_frozen] = [2]
        if decoy and decoys:
            _make_variables(decoy, shapes, src_order, trainable=True, fill=DECOY_FILL)
        dst_order_all = list(dst_order) + ([dst_extra] if dst_extra else []) + ([src_frozen] if src_frozen else [])
        if dst_extra:
            dst_shapes[dst_extra] = [1]
        made["destinations"] = _make_variables(dst_scope, dst_shapes, dst_order_all, trainable=trainable_copy, fill=FILL)
        if dst_decoy and decoys:
            made["decoys"] = _make_variables(dst_decoy, shapes, dst_order, trainable=False, fill=FILL)
        return made

    with tf.Graph().as_default(), RunsRecorded() as runs:
        made = build()
        try:
            sync = make_sync_op(src_scope, dst_scope)
        except (KeyError, ValueError) as exc:
            # Raised only because a scope sharing the name's prefix is there: the decoy was read (a
            # prefix without '/' took its variables in), which is what the prefix-scope check names.
            if (decoy or dst_decoy) and _builds(lambda: build(decoys=False), make_sync_op, src_scope, dst_scope):
                return {"decoy_raised": type(exc).__name__}
            # Raised only because the copy is non-trainable: the destinations were taken from the
            # trainable variables, which is what the trainable-destinations check names.
            if _builds(lambda: build(trainable_copy=True), make_sync_op, src_scope, dst_scope):
                return {"decoy_raised": None, "trainable_destinations": True}
            raise
        reads = {}
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(sync)
            for kind, pairs in made.items():
                if pairs:
                    reads[kind] = [len(runs.calls), [name for name, _ in pairs]]
                    sess.run([variable for _, variable in pairs])

    with tf.Graph().as_default():
        build(extra=missing)
        missing_partner = _raised(lambda: make_sync_op(src_scope, dst_scope), missing)
    with tf.Graph().as_default():
        build(reshape=bad_shape)
        shape_mismatch = _raised(lambda: make_sync_op(src_scope, dst_scope), bad_shape)
    return {"decoy_raised": None, "trainable_destinations": False, "reads": reads, "history": runs.history(),
            "missing_partner": missing_partner, "shape_mismatch": shape_mismatch}


def _builds(build, make_sync_op, src_scope, dst_scope) -> bool:
    """Whether the sync builds without raising in a fresh graph set up by `build()` (the scopes that
    share a prefix left out, or the copy made trainable)."""
    import tensorflow as tf

    with tf.Graph().as_default():
        build()
        try:
            make_sync_op(src_scope, dst_scope)
        except Exception:   # noqa: BLE001 - any error here means the change was not the cause
            return False
    return True


def _net_fn(n_in, hidden, n_out, frozen_scale=False):
    """A two-layer network from get_variable + matmul, with fixed initial values.

    The copies start from different values (each scope its own offset), so an answer that returns
    or trains the wrong copy, or never syncs them, shows. With `frozen_scale` the network also has
    a non-trainable variable (`get_variable(..., trainable=False)`), as batch-norm statistics are.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1

    def net(x):
        offset = np.float32(0.0 if tf1.get_variable_scope().name.endswith("current") else 0.25)
        w1 = tf1.get_variable("layer1/w", initializer=_uniform([n_in, hidden], 1) + offset)
        b1 = tf1.get_variable("layer1/b", initializer=_uniform([hidden], 2, 0.1) - offset)
        w2 = tf1.get_variable("layer2/w", initializer=_uniform([hidden, n_out], 3) - offset)
        b2 = tf1.get_variable("layer2/b", initializer=_uniform([n_out], 4, 0.1) + offset)
        h = tf.tanh(tf.matmul(x, w1) + b1)
        if frozen_scale:
            h = h * tf1.get_variable("layer1/scale", initializer=np.full([hidden], 1.5, np.float32),
                                     trainable=False)
        return tf.matmul(h, w2) + b2

    return net


def probe_current_and_past(build, n_in, hidden, n_out, frozen_scale=False):
    """Build both copies on an input placeholder and hand out the graph (`graph`), with the names of
    the input, the two outputs, an initializer of every variable and the variables under each scope,
    for the grader to run outside the kernel: the outputs on inputs the kernel never sees, and where
    `tf.gradients` of each output reaches."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        inputs = tf1.placeholder(tf.float32, [None, n_in], name="inputs")
        current, past = build(_net_fn(n_in, hidden, n_out, frozen_scale), inputs)
        init = tf1.global_variables_initializer()
        return {"current_variables": sorted(_relative(v, "current") for v in tf1.global_variables("current/")),
                "past_variables": sorted(_relative(v, "past") for v in tf1.global_variables("past/")),
                "tensors": {"inputs": inputs.name, "current": current.name, "past": past.name, "init": init.name},
                "graph": export_graph(graph)}


def _mispaired_assign(message):
    """The past variable an assign of another shape was built into, from the ValueError TensorFlow
    raises ("Cannot assign value to variable ' past/layer1/scale:0': Shape mismatch ..."), or None.

    In `_net_fn` every variable has the shape of its partner of the same relative name, so such an
    assign paired two variables of different names: lists zipped by position (sorted or not) that do
    not line up, as when the past copy's global variables include a non-trainable one.
    """
    import re

    found = re.search(r"variable '\s*(past/[^':]+)(?::\d+)?'", message)
    return found.group(1) if found and "incompatible" in message else None


def probe_lagged_trainer(cls, n_in, hidden, n_out, x, y, steps, learning_rate, frozen_scale=False):
    """Build the trainer, finalize the graph, take `steps` steps and record both outputs each time,
    the sessions opened during the steps, and what the past copy's variables hold at the end.

    The kernel is given markers for x and y (`autograder.course.markers`): every run from __init__
    on is handed out (`history`), with the run and fetch that returned each output (`answered_by`:
    current then past, per step), the runs of each step (`step_runs`), the run that read the past
    variables at the end (`past_read`) and the ops the graph held when finalized, for the grader to
    re-run on the hidden x and y outside the kernel. The run after `past_read` (when every past variable
    has a partner under "current/") reads those partners: the grader reads both copies between runs."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    x = np.asarray(x, np.float32)
    y = np.asarray(y, np.float32)
    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        try:
            trainer = cls(_net_fn(n_in, hidden, n_out, frozen_scale), n_in, n_out, learning_rate)
        except ValueError as exc:
            mispaired = _mispaired_assign(str(exc))
            if mispaired is None:
                raise
            return {"mispaired": mispaired}
        past_vars = sorted(tf1.global_variables("past/"), key=lambda v: v.op.name)
        current_vars = {v.op.name: v for v in tf1.global_variables("current/")}
        partners = [current_vars.get("current/" + _relative(v, "past")) for v in past_vars]
        graph.finalize()
        finalized_ops, guard = len(graph.get_operations()), FinalizedGraphGuard()
        with guard, sessions_made() as sessions, RacingRuns() as racing:
            for _ in range(steps):
                start = len(runs.calls)
                current, past = trainer.step(x, y)
                runs.call_runs.append([start, len(runs.calls)])
                runs.answered_by += [runs.located(np.asarray(output), None, since=start) for output in (current, past)]
        session, past_read = getattr(trainer, "sess", None), len(runs.calls)
        if hasattr(session, "run") and not guard.tripped and past_vars:
            session.run(past_vars)
            if None not in partners:
                session.run(partners)
        close_session(trainer)
    return {"mispaired": None, "past_variables": [_relative(v, "past") for v in past_vars],
            "sessions_in_steps": sessions.count, "modified_finalized_graph": guard.tripped,
            "racing_runs": racing.count, "answered_by": runs.answered_by, "step_runs": runs.call_runs,
            "past_read": past_read if past_read < len(runs.calls) else None, "finalized_ops": finalized_ops,
            "history": runs.history()}


def probe_soft_update(make_soft_update_op, source, target, tau, steps, moves=0.0):
    """Pair source and target variables, build the op once, run it `steps` times. With `moves`, every
    source grows by that much after each update (as a trained network does between two syncs): the
    op must read each source's value when it runs, not a value fixed when it was built.

    The kernel is given markers for the initial values (`autograder.course.markers`): every run of the
    probe's session is handed out (`history`), with the runs that ran the op (`op_runs`), read the
    targets after each update (`target_reads`) and read the sources at the end (`source_read`), for
    the grader to re-run outside the kernel on the hidden initial values."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        src = [tf1.Variable(np.asarray(v, np.float32), name=f"source_{i}") for i, v in enumerate(source)]
        dst = [tf1.Variable(np.asarray(v, np.float32), trainable=False, name=f"target_{i}")
               for i, v in enumerate(target)]
        op = make_soft_update_op(list(zip(src, dst)), tau)
        move = tf.group(*[v.assign_add(tf.fill(tf.shape(v), np.float32(moves))) for v in src])
        init = tf1.global_variables_initializer()
        graph.finalize()
        op_runs, target_reads = [], []
        with tf1.Session() as sess:
            sess.run(init)
            for _ in range(steps):
                op_runs.append(len(runs.calls))
                sess.run(op)
                target_reads.append(len(runs.calls))
                sess.run(dst)
                if moves:
                    sess.run(move)
            source_read = len(runs.calls)
            sess.run(src)
    return {"tau": tau, "moves": moves, "one_op": isinstance(op, (tf.Operation, tf.Tensor)),
            "op_runs": op_runs, "target_reads": target_reads, "source_read": source_read,
            "history": runs.history()}


def probe_polyak_update(polyak_update, target, source, tau, steps, head=None):
    """Eager: update nested tf.Variables `steps` times, then call it with sources whose structure
    differs: one leaf too many (at the end), and (same number of leaves) a renamed key or regrouped
    list. Each must raise before any target changes. Hands out tau and each leaf's initial (source,
    target) by its position in tf.nest.flatten (`initial`). With `head` (target and source values of one
    more variable), both structures nest one level deeper: {"body": <the variables>, "head": [it]}."""
    import tensorflow as tf

    def variables(values):
        if isinstance(values, dict):
            return {k: tf.Variable(np.asarray(v, np.float32)) for k, v in values.items()}
        return [tf.Variable(np.asarray(v, np.float32)) for v in values]

    tgt, src = variables(target), variables(source)
    if head is not None:
        tgt, src = ({"body": body, "head": variables([value])} for body, value in zip((tgt, src), head))
    originals = tf.nest.flatten(tgt)
    initial = [v.numpy() for v in originals]
    pairs = {str(k): [s.numpy(), t] for k, (s, t) in enumerate(zip(tf.nest.flatten(src), initial))}
    history = {}
    for _ in range(steps):
        polyak_update(tgt, src, tau)
        for key, var in enumerate(tf.nest.flatten(tgt)):
            history.setdefault(str(key), []).append(np.asarray(var))
    # Whether the update reached every target at all (a value computed and never assigned leaves it).
    assigned = steps == 0 or tau == 0 or all(
        not np.array_equal(a, np.asarray(v)) or np.array_equal(a, np.asarray(s))
        for a, v, s in zip(initial, tf.nest.flatten(tgt), tf.nest.flatten(src)))
    kept = len(originals) == len(tf.nest.flatten(tgt)) and all(
        a is b for a, b in zip(originals, tf.nest.flatten(tgt)))
    sources = {str(k): v.numpy() for k, v in enumerate(tf.nest.flatten(src))}
    extra = tf.Variable(np.zeros([2], np.float32))
    if isinstance(src, dict):
        longer = dict(src, zz_unpaired=extra)
        keys = sorted(src)
        reshaped = {(k + "_renamed" if k == keys[0] else k): v for k, v in src.items()}
    else:
        longer = [*src, extra]
        reshaped = [*src[:-2], [src[-2], src[-1]]] if len(src) >= 2 else [[src[0]]]
    mismatch, changed = {}, []
    for kind, other in (("one more leaf", longer), ("same count, other structure", reshaped)):
        before = [v.numpy() for v in tf.nest.flatten(tgt)]
        mismatch[kind] = _raised(lambda: polyak_update(tgt, other, tau), "")["type"]
        after = [v.numpy() for v in tf.nest.flatten(tgt)]
        if mismatch[kind] is not None and any(not np.array_equal(b, a) for b, a in zip(before, after)):
            changed.append(kind)
    return {"tau": tau, "initial": pairs, "values": history, "assigned": assigned, "kept_variables": kept, "sources": sources,
            "mismatch_error": mismatch, "changed_before_error": changed}
