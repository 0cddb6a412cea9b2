"""Lesson 3's probes (graph collections and dynamic trainable): what runs in the student's kernel.

Each probe builds its inputs in a fresh graph, calls the student's function and returns plain
values; the checks that judge them are in `autograder.course.lessons.l03_collections_and_trainable`.
"""
from __future__ import annotations

import contextlib

import numpy as np

from autograder.inkernel.probing import (
    CallCounter,
    FinalizedGraphGuard,
    RunsRecorded,
    export_collections,
    export_graph,
    op_count,
)

# The collections the grader reads, by their GraphKeys value, from the MetaGraphDef a probe hands out
BOOKKEEPING_KEYS = ("variables", "trainable_variables", "local_variables", "model_variables",
                    "moving_average_variables", "summaries", "global_step")
TRAIN_EXCLUDING_KEYS = ("variables", "trainable_variables")
DENSE_KEYS = ("trainable_variables", "losses", "regularization_losses")
# The variables the bookkeeping layer's logits must be computed from (by their op names)
LAYER_VARIABLES = ("w", "b")


def unscoped(name: str) -> str:
    """A summary's name or tag without the scopes it was made in: "layer/mean_logit" -> "mean_logit"."""
    return name.rsplit("/", 1)[-1]


def _collection(graph, key) -> list:
    """A collection of `graph`, asked of `tf.Graph` itself: an attribute set on the graph object is ignored."""
    from tensorflow.python.framework import ops

    return ops.Graph.get_collection(graph, key)


def _first_line(exc) -> str:
    """The error type and its first telling sentence (TensorFlow puts the reason after a preamble)."""
    message = getattr(exc, "message", None) or str(exc)
    skip = ("Graph execution error", "Detected at node", "File ", "Node:", "[[")
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    telling = [line for line in lines if not line.startswith(skip)] or lines or [""]
    return f"{type(exc).__name__}: {telling[0].split('. ')[0]}"


def probe_bookkeeping(build, x, w0, b0):
    """Build the student's layer in a fresh graph, hand out its collections (`meta_graph`: the
    grader reads them outside the kernel), and run it once.

    Also reads what the docstring fixes beyond names: the counter's shape and starting value, the
    value the "mean_logit" summary reports, and how far each moving average moves when its
    variable then grows by 1 (0.01 for decay 0.99). Shadow variables are found by the variable they
    average (their names start with "w/" or "b/"), whatever the EMA is called. Hands out the part
    of the graph that computes the logits and holds w and b (`graph`, with the logits' tensor
    name): the grader asks outside the kernel whether the logits depend on the variables.
    """
    import tensorflow as tf
    from tensorflow.python.framework import ops

    tf1 = tf.compat.v1
    x = np.asarray(x, np.float32)
    with tf.Graph().as_default() as graph:
        x_t = tf1.placeholder(tf.float32, [None, x.shape[1]], name="x")
        logits, ema_op = build(x_t, np.asarray(w0, np.float32), np.asarray(b0, np.float32))
        obs = {"meta_graph": export_collections(graph, BOOKKEEPING_KEYS), "logits_name": logits.name}
        held = {op.name: op for op in ops.Graph.get_operations(graph)}
        obs["graph"] = export_graph(graph, [logits.op] + [held[name] for name in LAYER_VARIABLES if name in held])
        global_variables = _collection(graph, tf1.GraphKeys.GLOBAL_VARIABLES)
        counters = [v for v in _collection(graph, tf1.GraphKeys.LOCAL_VARIABLES) + global_variables
                    if v.op.name == "examples_seen"]
        variables = {v.op.name: v for v in global_variables if v.op.name in LAYER_VARIABLES}
        shadows = {name: sorted((v for v in global_variables if v.op.name.startswith(name + "/")),
                                key=lambda v: v.op.name) for name in variables}
        grow = [v.assign_add(tf.ones_like(v)) for v in variables.values()]
        summaries = tf1.summary.merge_all()
        init = [tf1.global_variables_initializer(), tf1.local_variables_initializer()]
        obs["logits"], obs["run_error"], obs["summary_values"], obs["ema_moves"] = None, None, None, None
        obs["counter"] = None
        with tf1.Session() as sess:
            try:
                sess.run(init)
                if counters:
                    value = sess.run(counters[0])
                    obs["counter"] = {"op": counters[0].op.name, "shape": list(np.shape(value)),
                                      "value": float(np.sum(value))}
                obs["logits"] = sess.run(logits, {x_t: x})
                if summaries is not None:
                    summary = tf1.Summary.FromString(sess.run(summaries, {x_t: x}))
                    obs["summary_values"] = {unscoped(v.tag): float(v.simple_value) for v in summary.value}
                sess.run(ema_op, {x_t: x})
                before = sess.run(variables)
                sess.run(grow)
                sess.run(ema_op, {x_t: x})
                obs["ema_moves"] = {name: [float(np.max(np.abs(sess.run(v) - before[name]))) for v in found]
                                    for name, found in sorted(shadows.items())}
            except (tf.errors.FailedPreconditionError, tf.errors.InvalidArgumentError) as exc:
                obs["run_error"] = _first_line(exc)
    return obs


def probe_train_excluding(train, values, excluded, steps, lr):
    """Call the student's trainer in a fresh graph; read its result, and hand out the collections it
    left with the graph's variable ops (`meta_graph`): the grader reads both outside the kernel."""
    import tensorflow as tf

    with tf.Graph().as_default() as graph:
        final = train(dict(values), list(excluded), steps, lr)
        meta_graph = export_collections(graph, TRAIN_EXCLUDING_KEYS)
    return {"final": {str(k): float(v) for k, v in dict(final).items()}, "meta_graph": meta_graph}


def probe_dense(dense, x, layers, decay):
    """Stack the student's layer (ReLU between layers) in a fresh graph; run it and the terms of the
    "losses" collection, and hand out the collections (`meta_graph`, with REGULARIZATION_LOSSES, where
    get_variable(..., regularizer=) files its terms) for the grader to read outside the kernel."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        h = tf.constant(np.asarray(x, np.float32))
        for i, (w0, b0) in enumerate(layers):
            h = dense(h, np.asarray(w0, np.float32), np.asarray(b0, np.float32), f"layer{i}", decay)
            if i < len(layers) - 1:
                h = tf.nn.relu(h)
        terms = list(_collection(graph, "losses"))
        meta_graph = export_collections(graph, DENSE_KEYS)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            output, values = sess.run([h, terms])
    return {"output": output, "terms": [float(np.sum(v)) for v in values],
            "term_shapes": [list(np.shape(v)) for v in values], "meta_graph": meta_graph}


class StepsRecorded(CallCounter):
    """The weights of one model before and after each Keras optimizer step (`Optimizer.apply`, which
    `apply_gradients` and `minimize` call) made while `watching` it.

    One run of a whole schedule then shows the weights after every step, where a run for each
    prefix of the schedule costs the number of steps squared. `trajectory` uses them only where
    they tell what those runs would: one step per entry of the schedule, and nothing moved before,
    between or after the steps; else it returns None and the probe runs each prefix."""

    def __init__(self, read_weights):
        import tensorflow as tf

        owner = next(k for k in tf.keras.optimizers.Optimizer.__mro__ if "apply" in vars(k))
        super().__init__(owner, "apply")
        self.read_weights, self.model, self.steps = read_weights, None, []

    @contextlib.contextmanager
    def watching(self, model):
        self.model = model
        with self:
            yield

    def _wrap(self, original):
        def recorded(optimizer, *args, **kwargs):
            before = self._read()
            result = original(optimizer, *args, **kwargs)
            self.steps.append((before, self._read()))
            return result

        return recorded

    def _read(self):
        """The weights now; None inside a tf.function (a step traced, not run) or if they cannot be read."""
        import tensorflow as tf

        try:
            return self.read_weights(self.model) if tf.executing_eagerly() else None
        except Exception:  # noqa: BLE001 - whatever the student did to the model: fall back to the prefixes
            return None

    def trajectory(self, start, end, steps):
        """The weights at `start` and after each of `steps` steps, the last being `end`; None when
        the recorded steps do not account for every change (see the class)."""
        reads = [weights for step in self.steps for weights in step]
        if not steps or len(self.steps) != steps or any(w is None for w in reads):
            return None
        # start, before 1, after 1, before 2, ..., after n, end: each pair must be the same weights
        points = [start, *reads, end]
        if not all(_same_weights(p, q) for p, q in zip(points[0::2], points[1::2])):
            return None
        return [start] + [after for _, after in self.steps]


def _same_weights(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def freeze_report(trajectory, schedule, names):
    """Which variables moved while frozen (never trained before / trained before), which stood
    still, and which moved while frozen beside a frozen variable that had trained before and stood
    still (`partly`: a step that held only part of its frozen set), as [step, name] pairs, from the
    weights at the start and after each step of `schedule`."""
    fresh, trained, stuck, partly, seen = [], [], [], [], set()
    for i, frozen in enumerate(schedule):
        before, after = trajectory[i], trajectory[i + 1]
        moved = {name: not np.array_equal(before[name], after[name]) for name in names}
        for name in names:
            if name in frozen and moved[name]:
                (trained if name in seen else fresh).append([i, name])
            elif name not in frozen and not moved[name]:
                stuck.append([i, name])
        if any(name in seen and not moved[name] for name in frozen):
            partly.extend([i, name] for name in frozen if moved[name])
        seen |= set(names) - set(frozen)
    return fresh, trained, stuck, partly


def _freezer_loss(kind, variables):
    import tensorflow as tf

    v = list(variables.values())
    if kind == "abs_gap":  # the source's |x - y|
        return tf.abs(v[0] - v[1])
    return tf.add_n([tf.reduce_sum(tf.square(t - float(k + 1))) for k, t in enumerate(v)])  # "quadratic"


def _steps(freezer, sess, frozen) -> bool:
    """Whether `freezer.step(sess, frozen)` returns without raising."""
    try:
        freezer.step(sess, frozen)
    except Exception:  # noqa: BLE001 - any error: the step does not run with this order either
        return False
    return True


def probe_freezer(cls, values, loss, optimizer, lr, cycle, steps, bystander=None):
    """Build the Freezer, finalize the graph, then train `steps` steps freezing cycle[i % len(cycle)].

    `bystander` (an initial value) adds a trainable variable to the graph and the loss that is not in
    var_list: the Freezer must never move it. The kernel is given a marker for `lr`
    (`autograder.course.markers`). Every run of the session, from the initializer on, is handed out
    (`history`), with the numbers of the probe's own reads of the variables (`reads`: at the start
    and after each step, the bystander last) and of each step's runs (`step_runs`): the grader re-runs
    them outside the kernel with the hidden learning rate (`replay_freezer`), and judges the weights
    those runs compute, not what the kernel read. The op counts and the finalized error are an alarm
    kept in the kernel beside it.

    A step that raises on a frozen list out of var_list's order, and runs with the same variables in
    that order, ends the training there (`frozen_order`): the error is the order's.
    """
    import tensorflow as tf
    from tensorflow.python.client import session as tf_session

    tf1 = tf.compat.v1
    schedule = [list(cycle[i % len(cycle)]) for i in range(steps)]
    with tf.Graph().as_default() as graph:
        variables = {name: tf1.get_variable(name, initializer=np.asarray(value, np.float32))
                     for name, value in values.items()}
        opt = (tf1.train.AdamOptimizer(lr) if optimizer == "adam"
               else tf1.train.MomentumOptimizer(lr, momentum=0.9))
        total = _freezer_loss(loss, variables)
        watched = list(variables.values())
        if bystander is not None:
            outsider = tf1.get_variable("bystander", initializer=np.float32(bystander))
            total = total + tf.square(outsider - 2.0)
            watched.append(outsider)
        freezer = cls(total, list(variables.values()), opt)
        init = tf1.global_variables_initializer()
        graph.finalize()
        ops_at_start = op_count(graph)
        op_counts, guard, reads, step_runs, frozen_order = [], FinalizedGraphGuard(), [], [], None
        with tf1.Session() as sess, RunsRecorded() as runs:

            def read():
                """Read the variables through the session class's own run (never an attribute the
                student's code set on this session); note the run's number, None if none was recorded."""
                start = len(runs.calls)
                tf_session.BaseSession.run(sess, watched)
                reads.append(start if len(runs.calls) == start + 1 else None)

            tf_session.BaseSession.run(sess, init)
            read()
            with guard:
                for i, frozen in enumerate(schedule):
                    start = len(runs.calls)
                    try:
                        freezer.step(sess, [variables[n] for n in frozen])
                    except Exception:
                        in_order = [n for n in values if n in frozen]
                        if in_order == frozen or not _steps(freezer, sess, [variables[n] for n in in_order]):
                            raise
                        frozen_order = {"step": i, "frozen": frozen, "var_list_order": in_order}
                        break
                    step_runs.append([start, len(runs.calls)])
                    read()
                    op_counts.append(op_count(graph))
    return {"frozen_order": frozen_order, "modified_finalized_graph": guard.tripped, "steps_run": len(step_runs),
            "op_growth": (op_counts[-1] - ops_at_start) if op_counts else 0, "names": list(values),
            "bystander": bystander is not None, "reads": reads, "step_runs": step_runs, "history": runs.history()}


def probe_train_layers(train, x, y, layers, schedule, lr):
    """Run the student's eager loop on fresh Keras models: on no step, on the whole schedule (its
    losses), and, unless that run's optimizer steps account for every change (`StepsRecorded`), on
    each prefix of the schedule: the weights after each step."""
    import tensorflow as tf

    x = np.asarray(x, np.float32)
    y = np.asarray(y, np.float32)
    rng = np.random.RandomState(3)
    shapes, n_in = [], x.shape[1]
    for name, units in layers:
        shapes.append((name, units, rng.uniform(-1, 1, (n_in, units)).astype(np.float32),
                       rng.uniform(-0.5, 0.5, units).astype(np.float32)))
        n_in = units

    def fresh_model():
        model = tf.keras.Sequential(
            [tf.keras.Input((x.shape[1],))]
            + [tf.keras.layers.Dense(units, activation="tanh" if i < len(shapes) - 1 else None, name=name)
               for i, (name, units, _, _) in enumerate(shapes)])
        for (name, _, kernel, bias) in shapes:
            model.get_layer(name).set_weights([kernel, bias])
        return model

    def weights(model):
        return {name: np.concatenate([w.numpy().ravel() for w in model.get_layer(name).weights])
                for name, *_ in shapes}

    def run(steps, recorder=None):
        """Train a fresh model on the first `steps` entries of the schedule; its weights, and the result."""
        model = fresh_model()
        with recorder.watching(model) if recorder else contextlib.nullcontext():
            result = train(model, tf.constant(x), tf.constant(y), [list(s) for s in schedule[:steps]], lr)
        return weights(model), result

    names = [name for name, *_ in shapes]
    untrained, _ = run(0)
    recorder = StepsRecorded(weights)
    trained, result = run(len(schedule), recorder)
    losses = [float(v) for v in result]
    trajectory = recorder.trajectory(untrained, trained, len(schedule))
    if trajectory is None:  # the weights after step k: those of a run of k steps on a fresh model
        trajectory = [untrained] + [run(k)[0] for k in range(1, len(schedule))] + [trained]
    fresh, trained_moved, stuck, _ = freeze_report(trajectory, schedule, names)
    return {"losses": losses, "frozen_moved_fresh": fresh[:5], "frozen_moved_after_training": trained_moved[:5],
            "unfrozen_stuck": stuck[:5]}
