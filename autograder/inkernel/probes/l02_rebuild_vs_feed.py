"""Lesson 2's probes (rebuilding the graph vs feeding a placeholder): what runs in the student's kernel.

Each probe builds its inputs in a fresh graph, calls the student's function and returns plain
values; the checks that judge them are in `autograder.course.lessons.l02_rebuild_vs_feed`.
"""
from __future__ import annotations

import numpy as np

from autograder.inkernel.probing import (
    CallCounter,
    FinalizedGraphGuard,
    RunsRecorded,
    after_reset,
    close_session,
    dtype_name,
    export_graph,
    graph_variables,
    sessions_made,
    sessions_opened,
)


def _placeholder_dtypes(graph):
    return sorted({op.get_attr("dtype").name for op in graph.get_operations()
                   if op.type in ("Placeholder", "PlaceholderWithDefault")})


def probe_threshold_judge(cls, x, first, second, third=None, calls=3):
    """Judge with one threshold, replace the options, judge `calls` more times, then change the new
    dict in place to `third` and judge again. The kernel is given markers, not the case's values
    (`autograder.course.markers`): every run the judge made, from __init__ on, is handed out
    (`history`) with where each answer came from (`answered_by`) and which runs each judge() made
    (`judge_runs`), and the grader re-runs them on the hidden values. Also counts ops added and
    sessions opened from the first judge() on (a session opened on first use is one per call too)
    and runs per call."""
    import tensorflow as tf

    x = np.asarray(x, np.float32)
    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        judge = cls({"threshold": first})
        # Watched from the first call on: a session or an op made lazily on first use counts.
        ops_before, first_call = len(graph.get_operations()), len(runs.calls)
        options = {"threshold": second}

        def judged():
            runs.answered(lambda: judge.judge(x), fed=x)

        with sessions_made() as sessions:
            judged()
            judge.update_options(options)
            for _ in range(calls):
                judged()
            options["threshold"] = second if third is None else third   # an in-place retune
            judged()
        growth = len(graph.get_operations()) - ops_before + _growth_elsewhere(runs.calls[first_call:], graph)
        dtypes = _placeholder_dtypes(graph)
        placeholders = sum(op.type in ("Placeholder", "PlaceholderWithDefault") for op in graph.get_operations())
        close_session(judge)
    return {"op_growth": growth, "sessions": sessions.count,
            "runs_per_call": [end - start for start, end in runs.call_runs],
            "from_graph": [where is not None for where in runs.answered_by], "answered_by": runs.answered_by,
            "judge_runs": runs.call_runs,
            "placeholder_dtypes": dtypes, "placeholders": placeholders, "history": runs.history()}


def _growth_elsewhere(runs, default_graph):
    """The ops the judge's runs saw added to graphs other than the default one, between its calls."""
    first, last = {}, {}
    for run in runs:
        if run.graph is not None and run.graph is not default_graph:
            first.setdefault(id(run.graph), run.ops)
            last[id(run.graph)] = run.ops
    return sum(last[g] - first[g] for g in last)


def probe_threshold_graph(build, default):
    """Build the graph and hand it out: its GraphDef and the names of the three tensors returned.
    The grader runs it outside the kernel (`replay_threshold_graph`) on inputs and thresholds this
    kernel never sees.

    A build that raised a TypeError or ValueError after making a placeholder of an integer dtype
    (placeholder_with_default(1, []) is int32, and x >= it mixes dtypes) is handed out as the names
    of those placeholders (`int_placeholders`), so a check can name that mistake; any other raise
    stays a raise."""
    import tensorflow as tf

    with tf.Graph().as_default() as graph:
        try:
            x_t, threshold_t, output_t = build(default)
        except (TypeError, ValueError) as error:
            ints = [op.name for op in graph.get_operations()
                    if op.type in ("Placeholder", "PlaceholderWithDefault") and op.outputs[0].dtype.is_integer]
            if not ints:
                raise
            return {"int_placeholders": ints, "raised": f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"}
        names = [t.name for t in (x_t, threshold_t, output_t)]
    return {"graph": export_graph(graph), "tensors": names}


def probe_variable_judge(cls, x, first, seconds):
    """Build the judge, finalize the graph, then change the threshold and judge after each change.

    Then the variable is set back to `first` by running its initializer in the session the judge
    opened: a judge that reads the variable answers with `first` again; one that kept the threshold
    in Python (and feeds it) does not. The kernel is given markers (`autograder.course.markers`):
    every run, from __init__ on, is handed out (`history`) with where each answer came from
    (`answered_by`), which runs judge() made (`judge_runs`) and how many ops the graph held when
    finalized, for the grader to re-run and read outside the kernel.

    An __init__ that raised a TypeError or ValueError after making a variable of an integer dtype
    (tf1.Variable(1) is int32, and x >= it mixes dtypes) is handed out as the dtypes of the graph's
    variables and the error (`raised`), so a check can name that mistake; any other raise stays a raise.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1
    x = np.asarray(x, np.float32)
    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        with sessions_opened() as opened:
            try:
                judge = cls(first)
            except (TypeError, ValueError) as error:
                made = graph_variables(graph)
                if not any(v.dtype.base_dtype.is_integer for v in made):
                    raise
                return {"variables": [v.dtype.base_dtype.name for v in made],
                        "raised": f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"}
        trainable = [v.op.name for v in tf1.trainable_variables()]
        variables = graph_variables(graph)
        graph.finalize()
        finalized_ops, later = len(graph.get_operations()), len(runs.calls)

        def judged():
            runs.answered(lambda: judge.judge(x), fed=x)
            return "judged"

        guard = FinalizedGraphGuard()
        with guard, sessions_made() as sessions:
            judged()
            for value in seconds:
                judge.set_threshold(value)
                judged()
        reset = None if guard.tripped else after_reset(opened.instances, variables, judged)
        close_session(judge)
        for session in opened.instances:
            session.close()
    return {"modified_finalized_graph": guard.tripped, "trainable": trainable, "sessions": sessions.count,
            "variables": [v.dtype.base_dtype.name for v in variables], "reset": reset,
            "answered_by": runs.answered_by, "judge_runs": runs.call_runs, "later_runs": [later, len(runs.calls)],
            "finalized_ops": finalized_ops, "history": runs.history()}


def probe_retune(retune, options, threshold):
    """Give retune a dict this probe holds too (as a model would), and see what the holder sees: the
    probe reads the very dict it handed over, so nothing retune rebinds can stand in for it."""
    shared = dict(options)
    retune(shared, threshold)
    return {"holder_threshold": shared.get("threshold"), "holder_options": dict(shared),
            "untouched": shared == dict(options), "had_threshold": "threshold" in options}


def probe_scale_all(scale_all, x, scales):
    """Call the student's helper; count the tf.functions it made, and the traces of the returned one
    made or used during the call (a tf.function defined at module level and traced before for other
    shapes is fine: what counts is that one trace served every scale of this call). Also the integer
    dtypes of the tensors passed to a tf.function (`int_arguments`: tf.constant(2) is int32); a call
    that raised a TypeError or ValueError after one was passed is handed out as those and the error
    (`raised`), so a check can name that mistake; any other raise stays a raise."""
    import tensorflow as tf
    from tensorflow.python.eager.polymorphic_function import concrete_function, polymorphic_function

    first_seen, used = {}, set()   # id(tf.function) -> its tracing count before its first call here
    arguments = set()
    call, call_flat = polymorphic_function.Function.__call__, concrete_function.ConcreteFunction._call_flat

    def counted_call(self, *args, **kwargs):
        first_seen.setdefault(id(self), self.experimental_get_tracing_count())
        arguments.update(dtype_name(a) for a in (*args, *kwargs.values()) if isinstance(a, tf.Tensor))
        return call(self, *args, **kwargs)

    def recorded_call_flat(self, *args, **kwargs):
        used.add(id(self))
        return call_flat(self, *args, **kwargs)

    polymorphic_function.Function.__call__ = counted_call
    concrete_function.ConcreteFunction._call_flat = recorded_call_flat
    try:  # every tf.function made, however `tf.function` was reached (`from tensorflow import function`)
        with CallCounter(polymorphic_function.Function, "__init__") as functions:
            try:
                results, fn = scale_all(np.asarray(x, np.float32), list(scales))
            except (TypeError, ValueError) as error:
                if not _integers(arguments):
                    raise
                return {"int_arguments": _integers(arguments),
                        "raised": f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"}
    finally:
        polymorphic_function.Function.__call__ = call
        concrete_function.ConcreteFunction._call_flat = call_flat
    traces = None
    if type(fn) is polymorphic_function.Function:  # a real one, asked through its class, not its own say-so
        made = polymorphic_function.Function.experimental_get_tracing_count(fn) - first_seen.get(id(fn), 0)
        served = len(used & {id(c) for c in polymorphic_function.Function._list_all_concrete_functions(fn)})
        traces = max(made, served)
    return {"results": [np.asarray(r) for r in results], "traces": traces, "functions": functions.count,
            "dtypes": sorted({dtype_name(r) for r in results}), "int_arguments": _integers(arguments)}


def _integers(dtypes):
    return sorted(d for d in dtypes if d.startswith(("int", "uint")))


def _layers(tf, names):
    """Fresh Network / Model / Api classes for one probe call, with counters the probe reads.

    The same interface as the lesson's demo layers: `api.options` (one dict every layer holds),
    `api.used_in` (name -> a set of "graph" / "python"), `api.network.build()` (rebuild the graph from
    the options, in place) and `api.model.reset()` (re-read the Python-side options, in place).
    In the graph: scale, bias and mask (masked entries zeroed, kept ones scaled by 1 / mean(mask)), baked
    in as Consts. In Python: clip, threshold, and mask again (masked entries reported as -1). `names`
    maps each of these roles to the option key that holds it, so a case can rename the options.
    """
    key = {role: names.get(role, role) for role in ("scale", "bias", "mask", "clip", "threshold")}
    tf1 = tf.compat.v1
    tally = {"graphs": 0, "resets": 0}

    class Network:
        def __init__(self, options):
            self.options, self.sess = options, None
            self.build()

        def build(self):
            if self.sess is not None:
                self.sess.close()
            self.graph = tf.Graph()
            with self.graph.as_default():
                self.x = tf1.placeholder(tf.float32, [None])
                scaled = self.x * tf.constant(self.options[key["scale"]], tf.float32) + tf.constant(
                    self.options[key["bias"]], tf.float32)
                mask = tf.constant(self.options[key["mask"]], tf.float32)
                self.output = scaled * mask / tf.reduce_mean(mask)   # kept entries scaled up, as dropout does
            self.graph.finalize()
            self.sess = tf1.Session(graph=self.graph)
            tally["graphs"] += 1

        def run(self, x):
            return self.sess.run(self.output, {self.x: x})

    class Model:
        def __init__(self, network, options):
            self.network, self.options = network, options
            self.reset()

        def reset(self):
            self.clip = float(self.options[key["clip"]])
            self.threshold = float(self.options[key["threshold"]])
            self.mask = np.asarray(self.options[key["mask"]]) > 0
            tally["resets"] += 1

        def predict(self, x):
            scores = np.minimum(self.network.run(x), self.clip)
            return np.where(self.mask, np.where(scores >= self.threshold, scores, 0.0), -1.0)

    class Api:
        def __init__(self, options, used_in):
            self.options, self.used_in = options, used_in
            self.network = Network(options)
            self.model = Model(self.network, options)

        def predict(self, x):
            return self.model.predict(x)

    return Api, tally


def probe_set_hyperparameter(set_hyperparameter, x, options, used_in, changes, names=None):
    """Build a three-layer Api, apply each change through the student's function, and watch the layers:
    answers after each kind of change, graphs built, who holds which network, model and dict."""
    import tensorflow as tf

    Api, tally = _layers(tf, names or {})
    api = Api(dict(options), {name: set(where) for name, where in used_in.items()})
    model = api.model
    x = np.asarray(x, np.float32)
    seen = {"graph_answers": [], "python_answers": [], "both_answers": [], "graph_builds": [],
            "model_holds_network": [], "options_shared": [], "model_kept": [], "kinds": [], "model_resets": []}
    network = api.network
    for name, value in changes:
        graphs, resets = tally["graphs"], tally["resets"]
        # What a rebuild or a reset replaces, read from the objects too, not only from the tally.
        graph, session, mask = api.network.graph, api.network.sess, api.model.mask
        set_hyperparameter(api, name, value)
        kind = {frozenset({"graph"}): "graph", frozenset({"python"}): "python"}.get(
            frozenset(used_in[name]), "both")
        seen[f"{kind}_answers"].append(np.asarray(api.predict(x)))
        seen["graph_builds"].append(max(tally["graphs"] - graphs,
                                        int(api.network.graph is not graph or api.network.sess is not session)))
        seen["model_resets"].append(max(tally["resets"] - resets, int(api.model.mask is not mask)))
        seen["kinds"].append(kind)
        seen["model_holds_network"].append(api.model.network is api.network and api.network is network)
        seen["model_kept"].append(api.model is model)
        seen["options_shared"].append(api.network.options is api.options and api.model.options is api.options)
    for network in {id(api.network): api.network, id(api.model.network): api.model.network}.values():
        network.sess.close()
    return seen
