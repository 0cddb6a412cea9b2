"""Valid answers to lesson 1 written another way: each must keep its exercise's full marks."""
from tests.alternatives import Alternative

ALTERNATIVES = [
    Alternative("count_graphdef_nodes", "count_ops", "count_ops_solution", '''
        from collections import defaultdict

        def count_ops_by_type(graph):
            """Return {op type: number of ops of that type} for every op in `graph` (a tf.Graph)."""
            counts = defaultdict(int)
            for node in graph.as_graph_def().node:
                counts[node.op] += 1
            return dict(counts)
        '''),
    Alternative("count_inside_as_default", "count_ops", "count_ops_solution", '''
        def count_ops_by_type(graph):
            """Return {op type: number of ops of that type} for every op in `graph` (a tf.Graph)."""
            with graph.as_default():
                ops = tf1.get_default_graph().get_operations()
            result = {}
            for op in ops:
                result[op.type] = result.get(op.type, 0) + 1
            return result
        '''),
    Alternative("inputs_from_graphdef", "input_names", "input_names_solution", '''
        def input_op_names(graph, name):
            """Return the names of the ops whose outputs feed the op `name` of `graph`, in input order."""
            node = next(n for n in graph.as_graph_def().node if n.name == name)
            return [i.split(":")[0] for i in node.input if not i.startswith("^")]
        '''),
    Alternative("inputs_loop_as_default", "input_names", "input_names_solution", '''
        def input_op_names(graph, name):
            """Return the names of the ops whose outputs feed the op `name` of `graph`, in input order."""
            with graph.as_default():
                op = tf1.get_default_graph().get_operation_by_name(name)
            names = []
            for i in range(len(op.inputs)):
                names.append(op.inputs[i].op.name)
            return names
        '''),
    Alternative("evaluate_conditional_expression", "evaluate", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list of tensors) as a list, computed in ONE run."""
            sess = session if session is not None else tf1.get_default_session()
            if not sess:
                raise ValueError("No session: pass one or make one the default.")
            return list(sess.run(tensors))
        '''),
    Alternative("evaluate_dict_fetch_as_default", "evaluate", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list of tensors) as a list, computed in ONE run."""
            if session is None and tf1.get_default_session() is None:
                raise ValueError("Cannot evaluate tensors without a session")
            if session is None:
                session = tf1.get_default_session()
            with session.as_default():
                fetched = tf1.get_default_session().run({i: t for i, t in enumerate(tensors)})
            return [fetched[i] for i in range(len(tensors))]
        '''),
    Alternative("split_multiply_cast_mask", "one_run", "one_run_solution", '''
        def kept_and_dropped(x, keep, seed):
            """Split the array x with ONE random mask; return (kept, dropped) as NumPy arrays from one run."""
            values = tf.convert_to_tensor(x, dtype=tf.float32)
            keep_mask = tf.cast(tf.random.uniform(tf.shape(values), seed=seed) < keep, tf.float32)
            fetches = {"kept": values * keep_mask, "dropped": values * (1.0 - keep_mask)}
            with tf1.Session() as sess:
                out = sess.run(fetches)
            return out["kept"], out["dropped"]
        '''),
    Alternative("split_subtract_try_finally", "one_run", "one_run_solution", '''
        def kept_and_dropped(x, keep, seed):
            """Split the array x with ONE random mask; return (kept, dropped) as NumPy arrays from one run."""
            data = tf.constant(x, dtype=tf.float32)
            u = tf.random.uniform(shape=tf.shape(data), seed=seed)
            kept = tf.where(u < keep, data, tf.zeros_like(data))
            dropped = data - kept
            sess = tf1.Session()
            try:
                k, d = sess.run((kept, dropped))
            finally:
                sess.close()
            return k, d
        '''),
    Alternative("total_get_variable_tf1_assign_add", "running_total", "running_total_solution", '''
        class RunningTotal:
            """A running total held in a float32 variable (starting at 0) in the default graph."""

            def __init__(self):
                self.var = tf1.get_variable("running_total", shape=[], dtype=tf.float32,
                                            initializer=tf1.zeros_initializer())
                self.amount = tf1.placeholder(tf.float32, shape=None, name="amount")
                self.update = tf1.assign_add(self.var, self.amount)
                self.session = tf1.Session()
                self.session.run(tf1.global_variables_initializer())

            def add(self, value):
                return self.session.run(self.update, feed_dict={self.amount: value}).item()
        '''),
    Alternative("total_ref_variable", "running_total", "running_total_solution", '''
        class RunningTotal:
            """A running total held in a float32 variable (starting at 0) in the default graph."""

            def __init__(self):
                self._total = tf1.Variable(tf.zeros([]), use_resource=False)
                self._x = tf1.placeholder(tf.float32, [])
                self._step = self._total.assign_add(self._x)
                init = tf1.variables_initializer([self._total])
                self._sess = tf1.Session()
                self._sess.run(init)

            def add(self, value):
                new_total = self._sess.run(self._step, {self._x: value})
                return float(new_total)
        '''),
]
