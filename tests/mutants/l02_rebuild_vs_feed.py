"""Mutants of lesson 2: each is a misconception the lesson names."""
from tests.mutants import Mutant

MUTANTS = [
    Mutant("judge_bakes_threshold", "threshold_judge", "baked-constant", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.x = tf1.placeholder(tf.float32, [None])
                self.output = tf.greater_equal(self.x, self.options["threshold"])
                self.sess = tf1.Session()

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x})
        '''),
    Mutant("judge_rebuilds_each_call", "threshold_judge", "graph-growth", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.x = tf1.placeholder(tf.float32, [None])
                self.sess = tf1.Session()

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                output = tf.greater_equal(self.x, self.options["threshold"])
                return self.sess.run(output, {self.x: x})
        '''),
    Mutant("judge_strict_comparison", "threshold_judge", "wrong-comparison", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.placeholder(tf.float32, [])
                self.output = tf.greater(self.x, self.threshold)
                self.sess = tf1.Session()

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})
        '''),
    Mutant("graph_plain_placeholder", "threshold_graph", "plain-placeholder", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            x = tf1.placeholder(tf.float32, [None])
            threshold = tf1.placeholder(tf.float32, [])
            return x, threshold, x >= threshold
        '''),
    Mutant("graph_const_threshold", "threshold_graph", "not-an-input", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            x = tf1.placeholder(tf.float32, [None])
            threshold = tf.constant(default, tf.float32)
            return x, threshold, x >= threshold
        '''),
    Mutant("graph_hardcoded_default", "threshold_graph", "ignored-default", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            x = tf1.placeholder(tf.float32, [None])
            threshold = tf1.placeholder_with_default(0.5, [])
            return x, threshold, x >= threshold
        '''),
    Mutant("variable_assign_per_call", "variable_judge", "assign-per-call", "variable_judge_solution", '''
        class VariableThresholdJudge:
            def __init__(self, threshold):
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.Variable(threshold, dtype=tf.float32, trainable=False)
                self.output = self.x >= self.threshold
                self.sess = tf1.Session()
                self.sess.run(self.threshold.initializer)

            def set_threshold(self, value):
                self.sess.run(self.threshold.assign(value))

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x})
        '''),
    Mutant("variable_compares_python_value", "variable_judge", "stale-variable", "variable_judge_solution", '''
        class VariableThresholdJudge:
            def __init__(self, threshold):
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.Variable(threshold, dtype=tf.float32, trainable=False)
                self.new_threshold = tf1.placeholder(tf.float32, [])
                self.assign = self.threshold.assign(self.new_threshold)
                self.output = self.x >= threshold
                self.sess = tf1.Session()
                self.sess.run(self.threshold.initializer)

            def set_threshold(self, value):
                self.sess.run(self.assign, {self.new_threshold: value})

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x})
        '''),
    Mutant("variable_trainable", "variable_judge", "trainable-hyperparameter", "variable_judge_solution", '''
        class VariableThresholdJudge:
            def __init__(self, threshold):
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.Variable(threshold, dtype=tf.float32)
                self.new_threshold = tf1.placeholder(tf.float32, [])
                self.assign = self.threshold.assign(self.new_threshold)
                self.output = self.x >= self.threshold
                self.sess = tf1.Session()
                self.sess.run(self.threshold.initializer)

            def set_threshold(self, value):
                self.sess.run(self.assign, {self.new_threshold: value})

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x})
        '''),
    Mutant("retune_rebinds", "retune", "rebound-dict", "retune_solution", '''
        def retune(options, threshold):
            options = dict(options, threshold=threshold)
        '''),
    Mutant("retune_clears", "retune", "dropped-options", "retune_solution", '''
        def retune(options, threshold):
            options.clear()
            options["threshold"] = threshold
        '''),
    Mutant("rule_replaces_network", "set_hyperparameter", "replaced-network", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            api.options[name] = value
            if "graph" in api.used_in[name]:
                api.network = type(api.network)(api.options)
            if "python" in api.used_in[name]:
                api.model.reset()
        '''),
    Mutant("rule_rebuilds_everything", "set_hyperparameter", "needless-rebuild", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            api.options[name] = value
            api.network.build()
            api.model.reset()
        '''),
    Mutant("rule_one_layer_each", "set_hyperparameter", "one-layer-only", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            api.options[name] = value
            if api.used_in[name] == {"graph"}:
                api.network.build()
            else:
                api.model.reset()
        '''),
    Mutant("rule_rebinds_options", "set_hyperparameter", "rebound-options", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            api.options = dict(api.options, **{name: value})
            if "graph" in api.used_in[name]:
                api.network.build()
            if "python" in api.used_in[name]:
                api.model.reset()
        '''),
    Mutant("rule_never_resets_model", "set_hyperparameter", "model-not-reset", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            api.options[name] = value
            api.network.build()
        '''),
    Mutant("scale_python_float", "scale_all", "retrace-per-float", "scale_all_solution", '''
        def scale_all(x, scales):
            @tf.function
            def scaled(x, scale):
                return x * scale

            x = tf.constant(x, tf.float32)
            return [scaled(x, float(s)).numpy() for s in scales], scaled
        '''),
    Mutant("scale_captured_value", "scale_all", "captured-python-value", "scale_all_solution", '''
        def scale_all(x, scales):
            current = {"scale": scales[0]}

            @tf.function
            def scaled(x):
                return x * current["scale"]

            x = tf.constant(x, tf.float32)
            results = []
            for s in scales:
                current["scale"] = s
                results.append(scaled(x).numpy())
            return results, scaled
        '''),
    # Hostile answers: each passed the grader before issue 12.
    Mutant("judge_numpy_compare", "threshold_judge", "numpy-answer", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.sess = tf1.Session()

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                return np.asarray(x, np.float32) >= np.float32(self.options["threshold"])
        '''),
    Mutant("judge_copies_threshold", "threshold_judge", "copied-threshold", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.current = options["threshold"]
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.placeholder(tf.float32, [])
                self.output = self.x >= self.threshold
                self.sess = tf1.Session()

            def update_options(self, options):
                self.current = options["threshold"]

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x, self.threshold: self.current})
        '''),
    Mutant("judge_session_per_call", "threshold_judge", "session-per-call", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.placeholder(tf.float32, [])
                self.output = self.x >= self.threshold
                self.sess = tf1.Session()

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                with tf1.Session() as sess:
                    return sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})
        '''),
    Mutant("judge_float64", "threshold_judge", "float64-threshold", "threshold_judge_solution", '''
        class ThresholdJudge:
            def __init__(self, options):
                self.options = options
                self.x = tf1.placeholder(tf.float64, [None])
                self.threshold = tf1.placeholder(tf.float64, [])
                self.output = self.x >= self.threshold
                self.sess = tf1.Session()

            def update_options(self, options):
                self.options = options

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})
        '''),
    Mutant("graph_strict_comparison", "threshold_graph", "strict-comparison", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            x = tf1.placeholder(tf.float32, [None])
            threshold = tf1.placeholder_with_default(tf.constant(default, tf.float32), [])
            return x, threshold, tf.greater(x, threshold)
        '''),
    Mutant("graph_float64", "threshold_graph", "float64-threshold", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            x = tf1.placeholder(tf.float64, [None])
            threshold = tf1.placeholder_with_default(tf.constant(default, tf.float64), [])
            return x, threshold, x >= threshold
        '''),
    Mutant("graph_output_ignores_feed", "threshold_graph", "fed-value-ignored", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            x = tf1.placeholder(tf.float32, [None])
            threshold = tf1.placeholder_with_default(tf.constant(default, tf.float32), [])
            return x, threshold, x >= default
        '''),
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
    Mutant("variable_float64", "variable_judge", "float64-threshold", "variable_judge_solution", '''
        class VariableThresholdJudge:
            def __init__(self, threshold):
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.Variable(threshold, dtype=tf.float64, trainable=False)
                self.new_threshold = tf1.placeholder(tf.float64, [])
                self.assign = self.threshold.assign(self.new_threshold)
                self.output = tf.cast(self.x, tf.float64) >= self.threshold
                self.sess = tf1.Session()
                self.sess.run(self.threshold.initializer)

            def set_threshold(self, value):
                self.sess.run(self.assign, {self.new_threshold: value})

            def judge(self, x):
                return self.sess.run(self.output, {self.x: x})
        '''),
    Mutant("variable_session_per_call", "variable_judge", "session-per-call", "variable_judge_solution", '''
        class VariableThresholdJudge:
            def __init__(self, threshold):
                self.x = tf1.placeholder(tf.float32, [None])
                self.threshold = tf1.Variable(threshold, dtype=tf.float32, trainable=False)
                self.new_threshold = tf1.placeholder(tf.float32, [])
                self.assign = self.threshold.assign(self.new_threshold)
                self.output = self.x >= self.threshold
                self.current = threshold

            def set_threshold(self, value):
                self.current = value

            def judge(self, x):
                with tf1.Session() as sess:
                    sess.run(self.assign, {self.new_threshold: self.current})
                    return sess.run(self.output, {self.x: x})
        '''),
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
    Mutant("rule_replaces_model", "set_hyperparameter", "replaced-model", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            api.options[name] = value
            if "graph" in api.used_in[name]:
                api.network.build()
            if "python" in api.used_in[name]:
                api.model = type(api.model)(api.network, api.options)
        '''),
    Mutant("rule_by_name", "set_hyperparameter", "graph-not-rebuilt", "set_hyperparameter_solution", '''
        IN_GRAPH = {"keep_prob", "scale", "bias", "mask"}
        IN_PYTHON = {"threshold", "clip", "mask"}

        def set_hyperparameter(api, name, value):
            api.options[name] = value
            if name in IN_GRAPH:
                api.network.build()
            if name in IN_PYTHON:
                api.model.reset()
        '''),
    Mutant("scale_function_per_scale", "scale_all", "function-per-scale", "scale_all_solution", '''
        def scale_all(x, scales):
            x = tf.constant(x, tf.float32)
            results, fn = [], None
            for s in scales:
                fn = tf.function(lambda x, s=s: x * s)
                results.append(fn(x).numpy())
            return results, fn
        '''),
    Mutant("scale_float64", "scale_all", "float64-results", "scale_all_solution", '''
        def scale_all(x, scales):
            @tf.function
            def scaled(x, scale):
                return x * scale

            x = tf.constant(x, tf.float64)
            return [scaled(x, tf.constant(s, tf.float64)).numpy() for s in scales], scaled
        '''),
    Mutant("rule_rebuilds_before_setting", "set_hyperparameter", "stale-answer", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            if "graph" in api.used_in[name]:
                api.network.build()
            if "python" in api.used_in[name]:
                api.model.reset()
            api.options[name] = value
        '''),
]
