"""Mutants of lesson 1: each is a misconception the lesson names."""
from tests.mutants import Mutant

MUTANTS = [
    Mutant("count_default_graph", "count_ops", "default-graph", "count_ops_solution", '''
        def count_ops_by_type(graph):
            """Return {op type: number of ops of that type} for every op in `graph`."""
            counts = {}
            for op in tf1.get_default_graph().get_operations():
                counts[op.type] = counts.get(op.type, 0) + 1
            return counts
        '''),
    Mutant("count_tensors", "count_ops", "counted-tensors", "count_ops_solution", '''
        def count_ops_by_type(graph):
            """Return {op type: number of ops of that type} for every op in `graph`."""
            counts = {}
            for op in graph.get_operations():
                for tensor in op.outputs:
                    counts[tensor.op.type] = counts.get(tensor.op.type, 0) + 1
            return counts
        '''),
    Mutant("inputs_default_graph", "input_names", "default-graph", "input_names_solution", '''
        def input_op_names(graph, name):
            """Return the names of the ops whose outputs feed op `name` of `graph`, in input order."""
            op = tf1.get_default_graph().get_operation_by_name(name)
            return [tensor.op.name for tensor in op.inputs]
        '''),
    Mutant("inputs_tensor_names", "input_names", "tensor-names", "input_names_solution", '''
        def input_op_names(graph, name):
            """Return the names of the ops whose outputs feed op `name` of `graph`, in input order."""
            return [tensor.name for tensor in graph.get_operation_by_name(name).inputs]
        '''),
    Mutant("inputs_as_set", "input_names", "input-order", "input_names_solution", '''
        def input_op_names(graph, name):
            """Return the names of the ops whose outputs feed op `name` of `graph`, in input order."""
            return sorted({tensor.op.name for tensor in graph.get_operation_by_name(name).inputs})
        '''),
    Mutant("evaluate_with_eval", "evaluate", "eval-needs-default", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list), computed in one run, like Tensor.eval()."""
            return [t.eval() for t in tensors]
        '''),
    Mutant("evaluate_new_session", "evaluate", "default-session-ignored", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list), computed in one run, like Tensor.eval()."""
            if session is None:
                session = tf1.Session()
            return session.run(list(tensors))
        '''),
    Mutant("evaluate_invents_session", "evaluate", "invented-session", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list), computed in one run, like Tensor.eval()."""
            session = session or tf1.get_default_session() or tf1.Session()
            return session.run(list(tensors))
        '''),
    Mutant("split_two_evals", "one_run", "separate-runs", "one_run_solution", '''
        def kept_and_dropped(x, keep, seed):
            """Split x with one random mask; return (kept, dropped) as NumPy arrays from one run."""
            x = tf.constant(x, tf.float32)
            mask = tf.random.uniform(tf.shape(x), seed=seed) < keep
            kept = tf.where(mask, x, tf.zeros_like(x))
            dropped = tf.where(mask, tf.zeros_like(x), x)
            sess = tf1.Session()
            with sess.as_default():
                return kept.eval(), dropped.eval()
        '''),
    Mutant("split_two_masks", "one_run", "two-random-ops", "one_run_solution", '''
        def kept_and_dropped(x, keep, seed):
            """Split x with one random mask; return (kept, dropped) as NumPy arrays from one run."""
            x = tf.constant(x, tf.float32)

            def keep_mask():
                return tf.cast(tf.random.uniform(tf.shape(x), seed=seed) < keep, tf.float32)

            kept = x * keep_mask()
            dropped = x * (1.0 - keep_mask())
            with tf1.Session() as sess:
                return tuple(sess.run([kept, dropped]))
        '''),
    Mutant("total_assign_per_call", "running_total", "ops-in-loop", "running_total_solution", '''
        class RunningTotal:
            """Keeps a running total in a float32 variable; add(value) returns the new total."""

            def __init__(self):
                self.total = tf1.Variable(0.0, dtype=tf.float32, name="total")
                self.sess = tf1.Session()
                self.sess.run(self.total.initializer)

            def add(self, value):
                return self.sess.run(self.total.assign_add(value))
        '''),
    Mutant("total_session_per_call", "running_total", "session-per-step", "running_total_solution", '''
        class RunningTotal:
            """Keeps a running total in a float32 variable; add(value) returns the new total."""

            def __init__(self):
                self.total = tf1.Variable(0.0, dtype=tf.float32, name="total")
                self.value = tf1.placeholder(tf.float32, [], name="value")
                self.add_op = self.total.assign_add(self.value)
                self.init = tf1.global_variables_initializer()

            def add(self, value):
                with tf1.Session() as sess:
                    sess.run(self.init)
                    return sess.run(self.add_op, {self.value: value})
        '''),
    # Hostile answers: each passed the grader before issue 12.
    Mutant("count_skips_ops_without_outputs", "count_ops", "wrong-counts", "count_ops_solution", '''
        def count_ops_by_type(graph):
            """Return {op type: number of ops of that type} for every op in `graph`."""
            return dict(Counter(op.type for op in graph.get_operations() if op.outputs))
        '''),
    Mutant("inputs_with_control", "input_names", "control-inputs", "input_names_solution", '''
        def input_op_names(graph, name):
            """Return the names of the ops whose outputs feed op `name` of `graph`, in input order."""
            op = graph.get_operation_by_name(name)
            return [t.op.name for t in op.inputs] + [c.name for c in op.control_inputs]
        '''),
    Mutant("inputs_by_prefix", "input_names", "wrong-op", "input_names_solution", '''
        def input_op_names(graph, name):
            """Return the names of the ops whose outputs feed op `name` of `graph`, in input order."""
            op = next(op for op in graph.get_operations() if op.name.startswith(name))
            return [t.op.name for t in op.inputs]
        '''),
    Mutant("evaluate_default_first", "evaluate", "default-over-given", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list), computed in one run, like Tensor.eval()."""
            session = tf1.get_default_session() or session
            if session is None:
                raise ValueError("no session")
            return session.run(list(tensors))
        '''),
    Mutant("evaluate_run_per_tensor", "evaluate", "separate-runs", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list), computed in one run, like Tensor.eval()."""
            session = session or tf1.get_default_session()
            if session is None:
                raise ValueError("no session")
            return [session.run(t) for t in tensors]
        '''),
    Mutant("split_two_sessions", "one_run", "separate-runs", "one_run_solution", '''
        def kept_and_dropped(x, keep, seed):
            """Split x with one random mask; return (kept, dropped) as NumPy arrays from one run."""
            x = tf.constant(x, tf.float32)
            mask = tf.random.uniform(tf.shape(x), seed=seed) < keep
            kept = tf.where(mask, x, tf.zeros_like(x))
            dropped = tf.where(mask, tf.zeros_like(x), x)
            with tf1.Session() as sess:       # a fresh session repeats the seeded draw...
                kept_value = sess.run(kept)
            with tf1.Session() as sess:       # ...so two sessions agree, by accident of the seed
                dropped_value = sess.run(dropped)
            return kept_value, dropped_value
        '''),
    Mutant("split_numpy_mask", "one_run", "wrong-mask", "one_run_solution", '''
        def kept_and_dropped(x, keep, seed):
            """Split x with one random mask; return (kept, dropped) as NumPy arrays from one run."""
            x = np.asarray(x, np.float32)
            mask = np.random.RandomState(seed).uniform(size=x.shape) < keep
            with tf1.Session():
                pass
            return np.where(mask, x, 0.0), np.where(mask, 0.0, x)
        '''),
    Mutant("total_in_python", "running_total", "python-total", "running_total_solution", '''
        class RunningTotal:
            """Keeps a running total in a float32 variable; add(value) returns the new total."""

            def __init__(self):
                self.total = tf1.Variable(0.0, dtype=tf.float32, name="total")
                self.new_total = tf1.placeholder(tf.float32, [])
                self.set_total = self.total.assign(self.new_total)
                self.running = 0.0
                self.sess = tf1.Session()
                self.sess.run(self.total.initializer)

            def add(self, value):
                self.running += value
                return float(self.sess.run(self.set_total, {self.new_total: self.running}))
        '''),
    Mutant("total_float64", "running_total", "float64-total", "running_total_solution", '''
        class RunningTotal:
            """Keeps a running total in a float32 variable; add(value) returns the new total."""

            def __init__(self):
                self.total = tf1.Variable(0.0, dtype=tf.float64, name="total")
                self.value = tf1.placeholder(tf.float64, [])
                self.add_op = self.total.assign_add(self.value)
                self.sess = tf1.Session()
                self.sess.run(self.total.initializer)

            def add(self, value):
                return float(self.sess.run(self.add_op, {self.value: value}))
        '''),
    Mutant("split_float64", "one_run", "float64-arrays", "one_run_solution", '''
        def kept_and_dropped(x, keep, seed):
            """Split x with one random mask; return (kept, dropped) as NumPy arrays from one run."""
            x = tf.constant(x, tf.float64)
            mask = tf.random.uniform(tf.shape(x), seed=seed) < keep
            kept = tf.where(mask, x, tf.zeros_like(x))
            dropped = tf.where(mask, tf.zeros_like(x), x)
            with tf1.Session() as sess:
                return tuple(sess.run([kept, dropped]))
        '''),
]
