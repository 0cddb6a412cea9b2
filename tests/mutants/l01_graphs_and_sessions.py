"""Mutants of lesson 1: each is a misconception the lesson names."""
from tests.mutants import Mutant, edited_solution

edited = edited_solution(__name__)

# Lines of the solutions that several mutants change.
_INPUTS = "return [tensor.op.name for tensor in op.inputs]"
_NO_SESSION = 'raise ValueError("evaluate() needs a session: pass one, or call it inside `with sess.as_default():`")'

MUTANTS = [
    edited("count_default_graph", "count_ops", "default-graph",
           ("graph.get_operations()", "tf1.get_default_graph().get_operations()")),
    Mutant("count_tensors", "count_ops", "counted-tensors", "count_ops_solution", '''
        def count_ops_by_type(graph):
            """Return {op type: number of ops of that type} for every op in `graph`."""
            counts = {}
            for op in graph.get_operations():
                for tensor in op.outputs:
                    counts[tensor.op.type] = counts.get(tensor.op.type, 0) + 1
            return counts
        '''),
    edited("inputs_default_graph", "input_names", "default-graph",
           ("graph.get_operation_by_name", "tf1.get_default_graph().get_operation_by_name")),
    edited("inputs_tensor_names", "input_names", "tensor-names", ("tensor.op.name for", "tensor.name for")),
    edited("inputs_as_set", "input_names", "input-order", (_INPUTS, "return sorted({tensor.op.name for tensor in op.inputs})")),
    Mutant("evaluate_with_eval", "evaluate", "eval-needs-default", "evaluate_solution", '''
        def evaluate(tensors, session=None):
            """Return the values of `tensors` (a list), computed in one run, like Tensor.eval()."""
            return [t.eval() for t in tensors]
        '''),
    edited("evaluate_new_session", "evaluate", "default-session-ignored",
           ("session = tf1.get_default_session()", "session = tf1.Session()"),
           ("if session is None:\n        " + _NO_SESSION, None)),
    edited("evaluate_invents_session", "evaluate", "invented-session", (_NO_SESSION, "session = tf1.Session()")),
    edited("split_two_evals", "one_run", "separate-runs",
           ("""    with tf1.Session() as sess:
        kept_value, dropped_value = sess.run([kept, dropped])
    return kept_value, dropped_value""", """    sess = tf1.Session()
    with sess.as_default():
        return kept.eval(), dropped.eval()""")),
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
    edited("total_assign_per_call", "running_total", "ops-in-loop",
           ("self.value = tf1.placeholder(", None), ("self.add_op = ", None),
           ("return float(self.sess.run(self.add_op, {self.value: value}))", "return self.sess.run(self.total.assign_add(value))")),
    edited("total_session_per_call", "running_total", "session-per-step",
           ("self.sess = tf1.Session()\n        self.sess.run(self.total.initializer)",
            "self.init = tf1.global_variables_initializer()"),
           ("return float(self.sess.run(self.add_op, {self.value: value}))", """with tf1.Session() as sess:
            sess.run(self.init)
            return sess.run(self.add_op, {self.value: value})""")),
    # Hostile answers: each passed the grader before issue 12.
    edited("count_skips_ops_without_outputs", "count_ops", "wrong-counts",
           ("for op in graph.get_operations())", "for op in graph.get_operations() if op.outputs)")),
    edited("inputs_with_control", "input_names", "control-inputs",
           (_INPUTS, "return [t.op.name for t in op.inputs] + [c.name for c in op.control_inputs]")),
    edited("inputs_by_prefix", "input_names", "wrong-op",
           ("op = graph.get_operation_by_name(name)", "op = next(op for op in graph.get_operations() if op.name.startswith(name))")),
    edited("evaluate_default_first", "evaluate", "default-over-given",
           ("    if session is None:\n        session = tf1.get_default_session()", "    session = tf1.get_default_session() or session")),
    edited("evaluate_run_per_tensor", "evaluate", "separate-runs",
           ("return session.run(list(tensors))", "return [session.run(t) for t in tensors]")),
    edited("split_two_sessions", "one_run", "separate-runs",
           ("kept_value, dropped_value = sess.run([kept, dropped])",
            """kept_value = sess.run(kept)  # a fresh session repeats the seeded draw...
    with tf1.Session() as sess:      # ...so two sessions agree, by accident of the seed
        dropped_value = sess.run(dropped)""")),
    Mutant("split_numpy_mask", "one_run", "numpy-mask", "one_run_solution", '''
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
    edited("total_float64", "running_total", "float64-total",
           ("Variable(0.0, dtype=tf.float32", "Variable(0.0, dtype=tf.float64"), ("placeholder(tf.float32", "placeholder(tf.float64")),
    edited("split_float64", "one_run", "float64-arrays", ("tf.constant(x, tf.float32", "tf.constant(x, tf.float64")),
]

# Issue 25: answers that fit the public case and break in a situation the notebook's text covers.
MUTANTS += [
    edited("count_walks_back_from_last_op", "count_ops", "wrong-counts",
           ("return dict(Counter(op.type for op in graph.get_operations()))",
            """ops = graph.get_operations()
    reached, todo = set(), ops[-1:]  # "the graph" taken as what its last op depends on
    while todo:
        op = todo.pop()
        if op not in reached:
            reached.add(op)
            todo.extend(t.op for t in op.inputs)
    return dict(Counter(op.type for op in reached))""")),
    edited("inputs_rstrip_index", "input_names", "tensor-names",
           (_INPUTS, 'return [tensor.name.rstrip(":0123456789") for tensor in op.inputs]')),
    edited("evaluate_closes_callers_session", "evaluate", "closed-callers-session",
           ("    return session.run(list(tensors))", "    with session:\n        return session.run(list(tensors))")),
    edited("split_in_own_graph", "one_run", "own-graph",  # the demos' `with tf.Graph().as_default():`, moved inside
           ('    x = tf.constant(x, tf.float32, name="x")',
            '    with tf.Graph().as_default():\n        x = tf.constant(x, tf.float32, name="x")'),
           ("    mask = ", "        mask = "), ("    zeros = ", "        zeros = "), ("    kept = ", "        kept = "),
           ("    dropped = ", "        dropped = "),
           ("    with tf1.Session() as sess:\n        kept_value", "        with tf1.Session() as sess:\n            kept_value")),
    edited("total_session_closed_by_with", "running_total", "session-closed",
           ("self.sess = tf1.Session()\n        self.sess.run(self.total.initializer)",
            "with tf1.Session() as self.sess:\n            self.sess.run(self.total.initializer)")),
]

# Issue 34: an op looked up by a suffix of its name ('my_out' and 'block/out' end like 'out').
MUTANTS += [
    edited("inputs_by_suffix", "input_names", "wrong-op",
           ("op = graph.get_operation_by_name(name)",
            "op = [o for o in graph.get_operations() if o.name.endswith(name)][0]")),
]

# Mutants the public case itself must catch: a check cell that says PASS to them would be taken back.
# Review revA: a mask shaped by len(x) fits every vector; the public matrix makes tf.where raise.
MUTANTS += [
    edited("split_mask_shaped_by_len", "one_run", "raised",
           ("tf.random.uniform(tf.shape(x), seed=seed)", "tf.random.uniform([len(x)], seed=seed)")),
]

PUBLIC = {"inputs_by_suffix", "count_skips_ops_without_outputs", "inputs_with_control", "inputs_rstrip_index",
          "split_mask_shaped_by_len"}
