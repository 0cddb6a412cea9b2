"""Mutants of lesson 2: each is a misconception the lesson names."""
from tests.mutants import Mutant, edited_solution

edited = edited_solution(__name__)

# Lines of the solution that several mutants change.
_THRESHOLD = 'self.threshold = tf1.placeholder(tf.float32, [], name="threshold")'
_JUDGE = 'return self.sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})'
_NEW_THRESHOLD = 'self.new_threshold = tf1.placeholder(tf.float32, [], name="new_threshold")'
_GRAPH_RULE = """    if "graph" in api.used_in[name]:
        api.network.build()"""

MUTANTS = [
    edited("judge_bakes_threshold", "threshold_judge", "baked-constant",
           (_THRESHOLD, None),
           ("tf.greater_equal(self.x, self.threshold,", 'tf.greater_equal(self.x, self.options["threshold"],'),
           (', self.threshold: self.options["threshold"]}', "}")),
    edited("judge_rebuilds_each_call", "threshold_judge", "graph-growth",
           (_THRESHOLD, None), ("self.output = tf.greater_equal(", None),
           (_JUDGE, """output = tf.greater_equal(self.x, self.options["threshold"])
        return self.sess.run(output, {self.x: x})""")),
    edited("judge_strict_comparison", "threshold_judge", "wrong-comparison", ("tf.greater_equal(", "tf.greater(")),
    edited("graph_plain_placeholder", "threshold_graph", "plain-placeholder",
           ("tf1.placeholder_with_default(tf.constant(default, tf.float32), []", "tf1.placeholder(tf.float32, []")),
    edited("graph_const_threshold", "threshold_graph", "not-an-input",
           ('tf1.placeholder_with_default(tf.constant(default, tf.float32), [], name="threshold")',
            'tf.constant(default, tf.float32, name="threshold")')),
    edited("graph_hardcoded_default", "threshold_graph", "ignored-default",
           ("tf.constant(default, tf.float32)", "tf.constant(0.5, tf.float32)")),
    edited("variable_assign_per_call", "variable_judge", "assign-per-call",
           (_NEW_THRESHOLD, None), ("self.assign = self.threshold.assign(self.new_threshold)", None),
           ("self.sess.run(self.assign, {self.new_threshold: value})", "self.sess.run(self.threshold.assign(value))")),
    edited("variable_compares_python_value", "variable_judge", "stale-variable",
           ("tf.greater_equal(self.x, self.threshold)", "tf.greater_equal(self.x, threshold)")),
    edited("variable_trainable", "variable_judge", "trainable-hyperparameter", ("trainable=False, ", "")),
    Mutant("retune_rebinds", "retune", "rebound-dict", "retune_solution", '''
        def retune(options, threshold):
            options = dict(options, threshold=threshold)
        '''),
    Mutant("retune_clears", "retune", "dropped-options", "retune_solution", '''
        def retune(options, threshold):
            options.clear()
            options["threshold"] = threshold
        '''),
    edited("rule_replaces_network", "set_hyperparameter", "replaced-network",
           ("api.network.build()", "api.network = type(api.network)(api.options)")),
    edited("rule_rebuilds_everything", "set_hyperparameter", "needless-rebuild",
           (_GRAPH_RULE, "    api.network.build()"), ('if "python" in api.used_in[name]:\n        ', "")),
    edited("rule_one_layer_each", "set_hyperparameter", "one-layer-only",
           ('if "graph" in api.used_in[name]:', 'if api.used_in[name] == {"graph"}:'),
           ('if "python" in api.used_in[name]:', "else:")),
    edited("rule_rebinds_options", "set_hyperparameter", "rebound-options",
           ("api.options[name] = value", "api.options = dict(api.options, **{name: value})")),
    edited("rule_never_resets_model", "set_hyperparameter", "model-not-reset",
           (_GRAPH_RULE, "    api.network.build()"), ('if "python" in api.used_in[name]:', None), ("api.model.reset()", None)),
    edited("scale_python_float", "scale_all", "retrace-per-float", ("scaled(x, tf.constant(s, tf.float32))", "scaled(x, float(s))")),
    edited("scale_captured_value", "scale_all", "captured-python-value",
           ("    @tf.function", '    current = {"scale": scales[0]}\n\n    @tf.function'),
           ("def scaled(x, scale):\n        return x * scale", 'def scaled(x):\n        return x * current["scale"]'),
           ("results = [scaled(x, tf.constant(s, tf.float32)).numpy() for s in scales]", """results = []
    for s in scales:
        current["scale"] = s
        results.append(scaled(x).numpy())""")),
    # Hostile answers: each passed the grader before issue 12.
    edited("judge_numpy_compare", "threshold_judge", "numpy-answer",
           ("self.x = tf1.placeholder(", None), (_THRESHOLD, None), ("self.output = tf.greater_equal(", None),
           (_JUDGE, 'return np.asarray(x, np.float32) >= np.float32(self.options["threshold"])')),
    # Issue 23: the graph runs on every call, for show; the answer is NumPy's.
    edited("judge_numpy_beside_a_run", "threshold_judge", "numpy-answer",
           (_JUDGE, 'self.sess.run(self.threshold, {self.threshold: self.options["threshold"]})\n        '
                    'return np.asarray(x, np.float32) >= np.float32(self.options["threshold"])')),
    edited("judge_copies_threshold", "threshold_judge", "copied-threshold",
           ("self.options = options\n        self.x", 'self.current = options["threshold"]\n        self.x'),
           ("self.options = options", 'self.current = options["threshold"]'),
           ('self.threshold: self.options["threshold"]', "self.threshold: self.current")),
    edited("judge_session_per_call", "threshold_judge", "session-per-call",
           ("return self.sess.run(self.output,", "with tf1.Session() as sess:\n            return sess.run(self.output,")),
    edited("judge_float64", "threshold_judge", "float64-threshold",
           ("tf1.placeholder(tf.float32, [None]", "tf1.placeholder(tf.float64, [None]"),
           ("tf1.placeholder(tf.float32, []", "tf1.placeholder(tf.float64, []")),
    edited("graph_strict_comparison", "threshold_graph", "strict-comparison", ("tf.greater_equal(", "tf.greater(")),
    edited("graph_float64", "threshold_graph", "float64-threshold",
           ("tf1.placeholder(tf.float32", "tf1.placeholder(tf.float64"),
           ("tf.constant(default, tf.float32)", "tf.constant(default, tf.float64)")),
    edited("graph_output_ignores_feed", "threshold_graph", "fed-value-ignored",
           ("tf.greater_equal(x, threshold,", "tf.greater_equal(x, default,")),
    Mutant("variable_python_threshold", "variable_judge", "python-threshold", "variable_judge_solution", '''
        class VariableThresholdJudge:
            def __init__(self, threshold):
                self.value = threshold
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.Variable(threshold, dtype=tf.float32, trainable=False)
                self.fed = tf1.placeholder(tf.float32, [])
                self.assign = self.threshold.assign(self.fed)
                self.output = self.x >= self.fed
                self.sess = tf1.Session()
                self.sess.run(self.threshold.initializer)

            def set_threshold(self, value):
                self.value = value
                self.sess.run(self.assign, {self.fed: value})

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x, self.fed: self.value})
        '''),
    edited("variable_float64", "variable_judge", "float64-threshold",
           ("Variable(threshold, dtype=tf.float32", "Variable(threshold, dtype=tf.float64"),
           (_NEW_THRESHOLD, _NEW_THRESHOLD.replace("tf.float32", "tf.float64")),
           ("tf.greater_equal(self.x,", "tf.greater_equal(tf.cast(self.x, tf.float64),")),
    edited("variable_session_per_call", "variable_judge", "session-per-call",
           ("self.sess = tf1.Session()\n        self.sess.run(self.threshold.initializer)", "self.current = threshold"),
           ("self.sess.run(self.assign, {self.new_threshold: value})", "self.current = value"),
           ("return self.sess.run(self.output, {self.x: x})", """with tf1.Session() as sess:
            sess.run(self.assign, {self.new_threshold: self.current})
            return sess.run(self.output, {self.x: x})""")),
    Mutant("retune_names_the_keys", "retune", "dropped-options", "retune_solution", '''
        def retune(options, threshold):
            clip = options.get("clip")
            options.clear()
            options.update(threshold=threshold, clip=clip)
        '''),
    Mutant("retune_rounds", "retune", "wrong-threshold", "retune_solution", '''
        def retune(options, threshold):
            options["threshold"] = round(threshold, 2)
        '''),
    edited("rule_replaces_model", "set_hyperparameter", "replaced-model",
           ("api.model.reset()", "api.model = type(api.model)(api.network, api.options)")),
    edited("rule_by_name", "set_hyperparameter", "graph-not-rebuilt",
           ("def set_hyperparameter", '''IN_GRAPH = {"keep_prob", "scale", "bias", "mask"}
IN_PYTHON = {"threshold", "clip", "mask"}

def set_hyperparameter'''),
           ('"graph" in api.used_in[name]', "name in IN_GRAPH"), ('"python" in api.used_in[name]', "name in IN_PYTHON")),
    Mutant("scale_function_per_scale", "scale_all", "function-per-scale", "scale_all_solution", '''
        def scale_all(x, scales):
            x = tf.constant(x, tf.float32)
            results, fn = [], None
            for s in scales:
                fn = tf.function(lambda x, s=s: x * s)
                results.append(fn(x).numpy())
            return results, fn
        '''),
    edited("scale_float64", "scale_all", "float64-results",
           ("tf.constant(x, tf.float32)", "tf.constant(x, tf.float64)"),
           ("tf.constant(s, tf.float32)", "tf.constant(s, tf.float64)")),
    edited("rule_rebuilds_before_setting", "set_hyperparameter", "stale-answer",
           ("api.options[name] = value", None),
           ("        api.model.reset()", "        api.model.reset()\n    api.options[name] = value")),
]

# Issue 25: answers that fit the public case and break in a situation the notebook's text covers.
MUTANTS += [
    edited("judge_feeds_a_const", "threshold_judge", "const-fed",
           (_THRESHOLD, 'self.threshold = tf.constant(options["threshold"], tf.float32, name="threshold")')),
    edited("graph_threshold_named_by_identity", "threshold_graph", "not-an-input",
           ('threshold = tf1.placeholder_with_default(tf.constant(default, tf.float32), [], name="threshold")',
            'threshold = tf.identity(tf1.placeholder_with_default(tf.constant(default, tf.float32), []), name="threshold")')),
    edited("variable_dtype_from_the_value", "variable_judge", "int-threshold",
           ("tf1.Variable(threshold, dtype=tf.float32, trainable=False", "tf1.Variable(threshold, trainable=False")),
    edited("retune_only_an_existing_key", "retune", "wrong-threshold",
           ("    options.update(threshold=threshold)",
            '    if "threshold" in options:\n        options["threshold"] = threshold')),
    edited("rule_python_first_elif", "set_hyperparameter", "one-layer-only",
           (_GRAPH_RULE + "\n", ""), ('    if "python" in api.used_in[name]:\n        api.model.reset()',
                                      '    if "python" in api.used_in[name]:\n        api.model.reset()\n'
                                      '    elif "graph" in api.used_in[name]:\n        api.network.build()')),
    edited("scale_dtype_from_the_value", "scale_all", "int-scale",
           ("scaled(x, tf.constant(s, tf.float32))", "scaled(x, tf.constant(s))")),
]

# Issue 34: near misses. A session or the ops made on the first judge() (lazily) escaped the probe,
# which started counting after it; a strict comparison passed every public check; an int default.
MUTANTS += [
    edited("judge_lazy_session", "threshold_judge", "session-per-call",
           ("self.sess = tf1.Session()", "self.sess = None"),
           (_JUDGE, "if self.sess is None:\n            self.sess = tf1.Session()\n        " + _JUDGE)),
    edited("judge_lazy_ops", "threshold_judge", "graph-growth",
           ('self.output = tf.greater_equal(self.x, self.threshold, name="judge")', "self.output = None"),
           (_JUDGE, 'if self.output is None:\n            self.output = tf.greater_equal(self.x, self.threshold)\n'
                    "        " + _JUDGE)),
    edited("graph_int_default", "threshold_graph", "int-threshold",
           ("tf1.placeholder_with_default(tf.constant(default, tf.float32), []",
            "tf1.placeholder_with_default(default, []"),
           ("tf.greater_equal(x, threshold,", "tf.greater_equal(x, tf.cast(threshold, tf.float32),")),
    # Uncast, x >= threshold raises in the kernel while the graph is built (float32 against int32).
    edited("graph_int_default_uncast", "threshold_graph", "int-threshold",
           ("tf1.placeholder_with_default(tf.constant(default, tf.float32), []",
            "tf1.placeholder_with_default(default, []")),
    edited("variable_strict_comparison", "variable_judge", "stale-variable",
           ("tf.greater_equal(self.x, self.threshold)", "tf.greater(self.x, self.threshold)")),
]

# Issue 33's red team: wrong answers that a probe believed without anything being patched, because
# it counted what the student's own objects said, or counted only where a lookup went.
MUTANTS += [
    edited("judge_session_from_a_captured_init", "threshold_judge", "session-per-call",
           ("    def __init__(self, options):",
            "    _open_session = tf1.Session.__bases__[0].__init__  # captured before any probe counts\n\n"
            "    def __init__(self, options):"),
           ("self.sess = tf1.Session()", "self.sess = None"),
           (_JUDGE, "sess = tf1.Session.__new__(tf1.Session)\n"
                    "        type(self)._open_session(sess)\n"
                    "        try:\n"
                    '            return sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})\n'
                    "        finally:\n"
                    "            sess.close()")),
    Mutant("judge_launders_numpy_through_a_run", "threshold_judge", "numpy-answer", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.x = tf1.placeholder(tf.float32, [None], name="x")
                self.threshold = tf1.placeholder(tf.float32, [None], name="threshold")
                self.output = tf.equal(self.threshold, 0.0)
                self.sess = tf1.Session()

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                answer = np.asarray(x, np.float32) >= np.float32(self.options["threshold"])
                return self.sess.run(self.output, {self.x: x, self.threshold: (~answer).astype(np.float32)})
        '''),
    Mutant("judge_rebuilds_in_a_private_graph", "threshold_judge", "graph-growth", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.x = tf1.placeholder(tf.float32, [None], name="x")
                self.threshold = tf1.placeholder(tf.float32, [], name="threshold")
                self.graph = tf.Graph()
                with self.graph.as_default():
                    self.own_x = tf1.placeholder(tf.float32, [None])
                self.sess = tf1.Session(graph=self.graph)

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                with self.graph.as_default():
                    output = tf.greater_equal(self.own_x, self.options["threshold"])
                return self.sess.run(output, {self.own_x: x})
        '''),
    Mutant("scale_returns_a_lookalike", "scale_all", "retrace-per-float", "scale_all_solution", '''
        class Traced:
            def __init__(self, fn):
                self.fn = fn

            def __call__(self, *args):
                return self.fn(*args)

            def experimental_get_tracing_count(self):
                return 1

            def _list_all_concrete_functions(self):
                return []

        def scale_all(x, scales):
            @tf.function
            def scaled(x, scale):
                return x * scale
            x = tf.constant(x, tf.float32)
            return [scaled(x, float(s)).numpy() for s in scales], Traced(scaled)
        '''),
    Mutant("scale_function_per_scale_by_alias", "scale_all", "function-per-scale", "scale_all_solution", '''
        from tensorflow import function as make_function

        def scale_all(x, scales):
            x = tf.constant(x, tf.float32)
            results, fn = [], None
            for s in scales:
                fn = make_function(lambda x, s=s: x * tf.constant(s, tf.float32))
                results.append(fn(x).numpy())
            return results, fn
        '''),
]

# The outside review: feedback that blamed the wrong mistake. A threshold read once in __init__ and
# fed from Python was told it had been baked in as a Const; a variable as the threshold was told that
# the student's code raised, when the grader's own replay had failed to feed it.
MUTANTS += [
    edited("judge_caches_threshold_in_init", "threshold_judge", "cached-threshold",
           ("self.options = options\n        self.x", 'self.options = options\n        self.current = options["threshold"]\n'
                                                    "        self.x"),
           ('self.threshold: self.options["threshold"]', "self.threshold: self.current")),
    edited("graph_variable_threshold", "threshold_graph", "variable-threshold",
           ('tf1.placeholder_with_default(tf.constant(default, tf.float32), [], name="threshold")',
            'tf1.Variable(default, dtype=tf.float32, name="threshold")')),
]

# Review revA: a placeholder shaped like the public x answers right there and fails on any other length.
MUTANTS += [
    edited("judge_fixed_length", "threshold_judge", "fixed-length",
           ('self.x = tf1.placeholder(tf.float32, [None], name="x")', 'self.x = tf1.placeholder(tf.float32, [5], name="x")')),
]

# Mutants the public case itself must catch: a check cell that says PASS to them would be taken back.
PUBLIC = {"judge_strict_comparison", "graph_strict_comparison", "variable_strict_comparison", "graph_int_default",
          "graph_int_default_uncast", "judge_caches_threshold_in_init", "graph_variable_threshold",
          # Review revA: a whole-number first threshold or scale, copied from a cell that gave no dtype.
          "variable_dtype_from_the_value", "scale_dtype_from_the_value",
          "judge_fixed_length",
          # Issue 35: the public retune keeps an lr, which no answer naming the keys it expects keeps.
          "retune_names_the_keys",
          # and sets a threshold of three decimals, which rounding to two changes.
          "retune_rounds",
          # A second public retune starts from a dict that holds no threshold yet.
          "retune_only_an_existing_key",
          # The public set_hyperparameter case names its scale "factor" (a name no hidden case uses).
          "rule_by_name"}
