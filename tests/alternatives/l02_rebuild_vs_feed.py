"""Valid answers to lesson 2 written another way: each must keep its exercise's full marks."""
from tests.alternatives import Alternative

ALTERNATIVES = [
    Alternative("judge_default_placeholder_session_attr", "threshold_judge", "threshold_judge_solution", '''
        class ThresholdJudge:
            """Answers `x >= options["threshold"]`, always with the threshold currently in the options."""

            def __init__(self, options):
                self.opts = options
                self.inputs = tf1.placeholder(dtype=tf.float32, shape=(None,))
                self.cut = tf1.placeholder_with_default(tf.constant(0.0), shape=[])
                self.answer = tf.math.greater_equal(self.inputs, self.cut)
                self.session = tf1.Session(graph=tf1.get_default_graph())

            def update_options(self, options):
                self.opts = options

            def judge(self, x):
                feed = {self.inputs: x, self.cut: self.opts["threshold"]}
                return self.session.run(self.answer, feed_dict=feed)
        '''),
    Alternative("judge_not_less_than", "threshold_judge", "threshold_judge_solution", '''
        class ThresholdJudge:
            """Answers `x >= options["threshold"]`, always with the threshold currently in the options."""

            def __init__(self, options):
                self.update_options(options)
                self._x = tf1.placeholder(tf.float32, [None], name="values")
                self._t = tf1.placeholder(tf.float32, [], name="cut")
                self._out = tf.logical_not(tf.less(self._x, self._t))
                self.sess = tf1.Session()

            def update_options(self, options):
                self._options = options

            def judge(self, x):
                threshold = self._options["threshold"]
                return self.sess.run(self._out, {self._x: x, self._t: threshold}).astype(bool)
        '''),
    Alternative("graph_numpy_default_math_api", "threshold_graph", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            """Return (x, threshold, output) with threshold = placeholder_with_default(default)."""
            x = tf1.placeholder(tf.float32, shape=[None])
            threshold = tf1.placeholder_with_default(np.float32(default), shape=())
            output = tf.math.greater_equal(x, threshold)
            return x, threshold, output
        '''),
    Alternative("graph_cast_not_less", "threshold_graph", "threshold_graph_solution", '''
        def build_threshold_graph(default):
            """Return (x, threshold, output) with threshold = placeholder_with_default(default)."""
            inputs = tf1.placeholder(tf.float32, [None], name="inputs")
            cut = tf1.placeholder_with_default(tf.cast(default, tf.float32), [], name="cut")
            return inputs, cut, tf.logical_not(inputs < cut)
        '''),
    Alternative("variable_get_variable_tf1_assign", "variable_judge", "variable_judge_solution", '''
        class VariableThresholdJudge:
            """Answers `x >= threshold` with the threshold held in a non-trainable variable."""

            def __init__(self, threshold):
                self.t = tf1.get_variable("cut", shape=[], dtype=tf.float32, trainable=False,
                                          initializer=tf1.constant_initializer(threshold))
                self.value = tf1.placeholder(tf.float32, shape=[])
                self.set_op = tf1.assign(self.t, self.value)
                self.x = tf1.placeholder(tf.float32, shape=[None])
                self.result = tf.greater_equal(self.x, self.t)
                self.session = tf1.Session()
                self.session.run(tf1.global_variables_initializer())

            def set_threshold(self, value):
                self.session.run(self.set_op, feed_dict={self.value: value})

            def judge(self, x):
                return self.session.run(self.result, feed_dict={self.x: x})
        '''),
    Alternative("variable_local_collection", "variable_judge", "variable_judge_solution", '''
        class VariableThresholdJudge:
            """Answers `x >= threshold` with the threshold held in a non-trainable variable."""

            def __init__(self, threshold):
                self._threshold = tf1.Variable(float(threshold), trainable=False, dtype=tf.float32,
                                               collections=[tf1.GraphKeys.LOCAL_VARIABLES])
                self._new = tf1.placeholder(tf.float32, [])
                self._update = self._threshold.assign(self._new)
                self._x = tf1.placeholder(tf.float32, [None])
                self._verdict = self._x >= self._threshold.read_value()
                self._sess = tf1.Session()
                self._sess.run(tf1.local_variables_initializer())

            def set_threshold(self, value):
                self._sess.run(self._update, {self._new: value})

            def judge(self, x):
                return self._sess.run(self._verdict, {self._x: x})
        '''),
    Alternative("retune_item_assignment", "retune", "retune_solution", '''
        def retune(options, threshold):
            """Set options["threshold"] in place, so every holder of this dict sees it; keep other keys."""
            options["threshold"] = threshold
        '''),
    Alternative("retune_in_place_union", "retune", "retune_solution", '''
        def retune(options, threshold):
            """Set options["threshold"] in place, so every holder of this dict sees it; keep other keys."""
            options |= {"threshold": threshold}
            return None
        '''),
    Alternative("rule_always_resets_model", "set_hyperparameter", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            """Set api.options[name] = value in the shared dict, then redo only what uses it, in place."""
            api.network.options[name] = value      # the same dict object as api.options
            if "graph" in api.used_in[name]:
                api.network.build()
            api.model.reset()                       # cheap: re-reading Python options never hurts
        '''),
    Alternative("rule_set_operations", "set_hyperparameter", "set_hyperparameter_solution", '''
        def set_hyperparameter(api, name, value):
            """Set api.options[name] = value in the shared dict, then redo only what uses it, in place."""
            where = set(api.used_in[name])
            api.options.update({name: value})
            if where & {"graph"}:
                api.network.build()
            if where & {"python"}:
                api.model.reset()
        '''),
    Alternative("scale_input_signature", "scale_all", "scale_all_solution", '''
        def scale_all(x, scales):
            """Return ([x * s for s in scales] as NumPy arrays, the tf.function used), with one trace."""
            @tf.function(input_signature=[tf.TensorSpec(None, tf.float32), tf.TensorSpec([], tf.float32)])
            def multiply(values, factor):
                return values * factor

            results = []
            for s in scales:
                results.append(multiply(x, s).numpy())
            return results, multiply
        '''),
    # A module-level tf.function, tried out on another shape first: the docstring's "one trace serving
    # every scale" holds for this call, so it keeps full marks (issue 26: the grader counts the traces
    # made or used during the call, not the function's whole history).
    Alternative("scale_module_level_function", "scale_all", "scale_all_solution", '''
        @tf.function
        def scaled_by(values, factor):
            return values * factor

        scaled_by(tf.ones([2, 2]), tf.constant(2.0))   # tried out first, on another shape

        def scale_all(x, scales):
            """Return ([x * s for s in scales] as NumPy arrays, the tf.function used), with one trace."""
            x = tf.constant(x, tf.float32)
            return [scaled_by(x, tf.constant(s, tf.float32)).numpy() for s in scales], scaled_by
        '''),
    Alternative("scale_variable_read", "scale_all", "scale_all_solution", '''
        def scale_all(x, scales):
            """Return ([x * s for s in scales] as NumPy arrays, the tf.function used), with one trace."""
            factor = tf.Variable(1.0, dtype=tf.float32, trainable=False)
            values = tf.convert_to_tensor(x, tf.float32)

            @tf.function
            def scaled():
                return values * factor

            out = []
            for s in scales:
                factor.assign(s)
                out.append(scaled().numpy())
            return out, scaled
        '''),
]
