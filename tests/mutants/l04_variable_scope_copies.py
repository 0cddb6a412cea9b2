"""Mutants of lesson 4: each is a misconception the lesson names."""
from tests.mutants import Mutant, edited_solution

edited = edited_solution(__name__)

# Lines of the solutions that several mutants change.
_GETTER = """    def stop_gradient_getter(getter, name, *args, **kwargs):
        kwargs["trainable"] = False
        return tf.stop_gradient(getter(name, *args, **kwargs))

"""
_STEP = """        current, past = self.sess.run([self.current, self.past], {self.x: x})
        self.sess.run(self.sync)
        self.sess.run(self.train, {self.x: x, self.y: y})
"""

MUTANTS = [
    Mutant("sync_by_position", "sync_op", "matched-by-order", "sync_op_solution", '''
        def make_sync_op(src_scope, dst_scope):
            sources = tf1.trainable_variables(src_scope + "/")
            destinations = tf1.global_variables(dst_scope + "/")
            if len(sources) > len(destinations):
                raise KeyError(f"{sources[len(destinations)].op.name} has no partner in {dst_scope}")
            assigns = []
            for src, dst in zip(sources, destinations):
                if src.shape != dst.shape:
                    raise ValueError(f"shapes of {src.op.name} and {dst.op.name} differ")
                assigns.append(dst.assign(src))
            return tf.group(*assigns)
        '''),
    Mutant("sync_by_full_name", "sync_op", "full-name-match", "sync_op_solution", '''
        def make_sync_op(src_scope, dst_scope):
            destinations = {v.name: v for v in tf1.global_variables(dst_scope + "/")}
            assigns = []
            for src in tf1.trainable_variables(src_scope + "/"):
                if src.name in destinations:
                    dst = destinations[src.name]
                    if src.shape != dst.shape:
                        raise ValueError(f"shapes of {src.op.name} and {dst.op.name} differ")
                    assigns.append(dst.assign(src))
            return tf.group(*assigns)
        '''),
    edited("sync_backwards", "sync_op", "copied-backwards", ("dst.assign(src)", "src.assign(dst)")),
    Mutant("sync_skips_missing", "sync_op", "silent-missing-partner", "sync_op_solution", '''
        def make_sync_op(src_scope, dst_scope):
            assigns = []
            for src in tf1.trainable_variables(src_scope + "/"):
                for dst in tf1.global_variables(dst_scope + "/"):
                    if src.op.name[len(src_scope) + 1:] == dst.op.name[len(dst_scope) + 1:]:
                        if src.shape != dst.shape:
                            raise ValueError(f"shapes of {src.op.name} and {dst.op.name} differ")
                        assigns.append(dst.assign(src))
            return tf.group(*assigns)
        '''),
    edited("sync_asserts_shape", "sync_op", "unclear-shape-error",
           ("""if src.shape != dst.shape:
            raise ValueError(f"cannot sync {src.op.name} {src.shape} into {dst.op.name} {dst.shape}: "
                             f"the shapes differ")""", "assert dst.shape == src.shape")),
    edited("copy_without_stop_gradient", "current_and_past", "gradient-reaches-copy",
           (_GETTER, ""), ('"past", custom_getter=stop_gradient_getter', '"past"')),
    edited("copy_stops_output", "current_and_past", "output-stopped",
           (_GETTER, ""), ('"past", custom_getter=stop_gradient_getter', '"past"'),
           ("past = net_fn(x)", "past = tf.stop_gradient(net_fn(x))")),
    edited("copy_reuses_current", "current_and_past", "shared-not-copied",
           ('kwargs["trainable"] = False', None),
           ('variable_scope("past", custom_getter', 'variable_scope("current", reuse=True, custom_getter')),
    edited("copy_getter_on_both", "current_and_past", "current-frozen",
           ('kwargs["trainable"] = False', None),
           ("""    with tf1.variable_scope("current"):
        current = net_fn(x)
    with tf1.variable_scope("past", custom_getter=stop_gradient_getter):
        past = net_fn(x)
    return current, past""", """    outputs = []
    for scope in ("current", "past"):
        with tf1.variable_scope(scope, custom_getter=stop_gradient_getter):
            outputs.append(net_fn(x))
    return outputs[0], outputs[1]""")),
    Mutant("trainer_sync_in_step", "lagged_trainer", "op-per-step", "lagged_trainer_solution", '''
        class LaggedTrainer:
            def __init__(self, net_fn, n_in, n_out, learning_rate):
                def stop_gradient_getter(getter, name, *args, **kwargs):
                    return tf.stop_gradient(getter(name, *args, **kwargs))

                self.x = tf1.placeholder(tf.float32, [None, n_in])
                self.y = tf1.placeholder(tf.float32, [None, n_out])
                with tf1.variable_scope("current"):
                    self.current = net_fn(self.x)
                with tf1.variable_scope("past", custom_getter=stop_gradient_getter):
                    self.past = net_fn(self.x)
                self.current_vars = tf1.trainable_variables("current/")
                self.past_vars = {v.op.name[5:]: v for v in tf1.global_variables("past/")}
                loss = tf.reduce_mean(tf.square(self.current - self.y))
                self.train = tf1.train.GradientDescentOptimizer(learning_rate).minimize(
                    loss, var_list=self.current_vars)
                self.sess = tf1.Session()
                self.sess.run(tf1.global_variables_initializer())

            def sync(self):
                self.sess.run([self.past_vars[v.op.name[8:]].assign(v) for v in self.current_vars])

            def step(self, x, y):
                current, past = self.sess.run([self.current, self.past], {self.x: x})
                self.sync()
                self.sess.run(self.train, {self.x: x, self.y: y})
                return current, past
        '''),
    edited("trainer_syncs_after_update", "lagged_trainer", "lagged-copy",
           (_STEP, """        self.sess.run(self.train, {self.x: x, self.y: y})
        self.sess.run(self.sync)
        current, past = self.sess.run([self.current, self.past], {self.x: x})
""")),
    # Issue 35: sync first, then evaluate: the past output equals the current one (review revB, 04-5).
    edited("trainer_syncs_before_evaluating", "lagged_trainer", "lagged-copy",
           (_STEP, """        self.sess.run(self.sync)
        current, past = self.sess.run([self.current, self.past], {self.x: x})
        self.sess.run(self.train, {self.x: x, self.y: y})
""")),
    Mutant("trainer_reuses_current", "lagged_trainer", "shared-not-copied", "lagged_trainer_solution", '''
        class LaggedTrainer:
            def __init__(self, net_fn, n_in, n_out, learning_rate):
                def stop_gradient_getter(getter, name, *args, **kwargs):
                    return tf.stop_gradient(getter(name, *args, **kwargs))

                self.x = tf1.placeholder(tf.float32, [None, n_in])
                self.y = tf1.placeholder(tf.float32, [None, n_out])
                with tf1.variable_scope("current"):
                    self.current = net_fn(self.x)
                with tf1.variable_scope("current", reuse=True, custom_getter=stop_gradient_getter):
                    self.past = net_fn(self.x)
                loss = tf.reduce_mean(tf.square(self.current - self.y))
                self.train = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss)
                self.sess = tf1.Session()
                self.sess.run(tf1.global_variables_initializer())

            def step(self, x, y):
                current, past = self.sess.run([self.current, self.past], {self.x: x})
                self.sess.run(self.train, {self.x: x, self.y: y})
                return current, past
        '''),
    edited("soft_tau_reversed", "soft_update", "tau-reversed",
           ("tau * source + (1.0 - tau) * target", "(1.0 - tau) * source + tau * target")),
    edited("soft_assign_add", "soft_update", "no-decay",
           ("target.assign(tau * source + (1.0 - tau) * target)", "target.assign_add(tau * source)")),
    Mutant("polyak_map_structure", "polyak_update", "computed-not-assigned", "polyak_update_solution", '''
        def polyak_update(target, source, tau):
            tf.nest.assert_same_structure(target, source)
            target = tf.nest.map_structure(lambda t, s: tau * s + (1.0 - tau) * t, target, source)
        '''),
    edited("polyak_plain_zip", "polyak_update", "silent-zip", ("tf.nest.assert_same_structure(target, source)", None)),
    # Hostile answers (issue 12): each passed the grader before its probe, case or check existed.
    edited("sync_global_sources", "sync_op", "non-trainable-source",
           ('tf1.trainable_variables(re.escape(src_scope) + "/")', 'tf1.global_variables(re.escape(src_scope) + "/")')),
    edited("sync_scope_without_slash", "sync_op", "prefix-scope",
           ("v.op.name[len(scope) + 1:]", 'v.op.name.split("/", 1)[1]'),
           ('re.escape(src_scope) + "/"', "re.escape(src_scope)"), ('re.escape(dst_scope) + "/"', "re.escape(dst_scope)")),
    edited("copy_returns_current_twice", "current_and_past", "wrong-outputs",
           ('kwargs["trainable"] = False', None),
           ("        past = net_fn(x)\n    return current, past", "        net_fn(x)\n    return current, current")),
    edited("copy_getter_fixes_trainable", "current_and_past", "raised",
           ("""kwargs["trainable"] = False
        return tf.stop_gradient(getter(name, *args, **kwargs))""",
            "return tf.stop_gradient(getter(name, *args, trainable=False, **kwargs))")),
    Mutant("soft_returns_list", "soft_update", "not-one-op", "soft_update_solution", '''
        def make_soft_update_op(pairs, tau):
            return [target.assign(tau * source + (1.0 - tau) * target) for source, target in pairs]
        '''),
    edited("polyak_strict_zip", "polyak_update", "changed-before-error",
           ("tf.nest.assert_same_structure(target, source)", None),
           ("tf.nest.flatten(source))", "tf.nest.flatten(source), strict=True)")),
    Mutant("polyak_counts_leaves", "polyak_update", "silent-zip", "polyak_update_solution", '''
        def polyak_update(target, source, tau):
            targets, sources = tf.nest.flatten(target), tf.nest.flatten(source)
            if len(targets) != len(sources):
                raise ValueError(f"{len(targets)} targets but {len(sources)} sources")
            for t, s in zip(targets, sources):
                t.assign(tau * s + (1.0 - tau) * t)
        '''),
    Mutant("polyak_new_variables", "polyak_update", "replaced-not-assigned", "polyak_update_solution", '''
        def polyak_update(target, source, tau):
            tf.nest.assert_same_structure(target, source)
            keys = list(target) if isinstance(target, dict) else range(len(target))
            for k in keys:
                target[k] = tf.Variable(tau * source[k] + (1.0 - tau) * target[k])
        '''),
    edited("trainer_no_initial_sync", "lagged_trainer", "no-initial-sync", ("        self.sess.run(self.sync)\n\n", "\n")),
    edited("trainer_feeds_past_from_python", "lagged_trainer", "past-not-in-variables",
           ("            return tf.stop_gradient(getter(name, *args, **kwargs))",
            "            read = tf.stop_gradient(getter(name, *args, **kwargs))\n"
            "            self.reads[name[len(\"past/\"):]] = read  # fed from Python in step()\n"
            "            return read"),
           ("        self.x = tf1.placeholder", "        self.reads = {}\n        self.x = tf1.placeholder"),
           ("        self.sess.run(self.sync)\n\n", "        self.current_vars = {v.op.name[8:]: v for v in current_vars}\n"
            "        self.previous = self.sess.run(self.current_vars)\n\n"),
           ("        current, past = self.sess.run([self.current, self.past], {self.x: x})\n        self.sess.run(self.sync)\n",
            "        feed = {self.x: x, **{self.reads[n]: v for n, v in self.previous.items()}}\n"
            "        current, past = self.sess.run([self.current, self.past], feed)\n"
            "        self.previous = self.sess.run(self.current_vars)\n")),
    edited("trainer_session_per_step", "lagged_trainer", "session-per-step",
           ("        self.sess.run(self.sync)\n\n", "        self.sess.run(self.sync)\n"
            "        self.variables = tf1.global_variables()\n"
            "        self.values = self.sess.run(self.variables)\n\n"),
           (_STEP, """        with tf1.Session() as sess:  # a fresh session per step, fed the values kept in Python
            for variable, value in zip(self.variables, self.values):
                variable.load(value, sess)
            current, past = sess.run([self.current, self.past], {self.x: x})
            sess.run(self.sync)
            sess.run(self.train, {self.x: x, self.y: y})
            self.values = sess.run(self.variables)
""")),
]

# Issue 25: answers that fit the public case and break in a situation the notebook's text covers.
MUTANTS += [
    edited("trainer_reads_and_syncs_in_one_run", "lagged_trainer", "unordered-run",
           ("current, past = self.sess.run([self.current, self.past], {self.x: x})\n        self.sess.run(self.sync)",
            "current, past, _ = self.sess.run([self.current, self.past, self.sync], {self.x: x})")),
]
MUTANTS += [
    # It raises its own KeyError: replace() also cuts 'current/' out of 'current/recurrent/w' (the public
    # case: 'rew' has no partner) and the second 'net/' out of 'net/net/w'.
    edited("sync_scope_replaced_everywhere", "sync_op", "raised",
           ("return {v.op.name[len(scope) + 1:]: v for v in variables}",
            'return {v.op.name.replace(scope + "/", ""): v for v in variables}')),
    edited("copy_stops_matrices_only", "current_and_past", "gradient-reaches-copy",
           ("        return tf.stop_gradient(getter(name, *args, **kwargs))",
            "        variable = getter(name, *args, **kwargs)\n"
            "        return tf.stop_gradient(variable) if len(variable.shape) > 1 else variable")),
    edited("soft_mixes_with_initial_target", "soft_update", "no-decay",
           ("(1.0 - tau) * target)", "(1.0 - tau) * target.initial_value)")),
    # Issue 34: it was "raised" (on nested structures) until a hidden source dict listed its keys in
    # another order; pairing dict.values() by position is its mistake.
    edited("polyak_one_level", "polyak_update", "paired-by-position",
           ("zip(tf.nest.flatten(target), tf.nest.flatten(source))",
            "zip(target.values() if isinstance(target, dict) else target,\n"
            "                    source.values() if isinstance(source, dict) else source)")),
]

# Issue 34: the scope prefix without '/' of lesson 4's trap, where it raises (the decoy 'current_old/x' has
# no partner 'old/x'): its own check, not "raised".
MUTANTS += [
    edited("sync_prefix_raises", "sync_op", "prefix-scope", ('re.escape(src_scope) + "/"', "re.escape(src_scope)")),
]

# Issue 34: leaves paired by insertion order (a hand-made flatten over dict.values()), right whenever the
# target and the source list their keys in the same order.
MUTANTS += [
    Mutant("polyak_zips_dict_values", "polyak_update", "paired-by-position", "polyak_update_solution", '''
        def polyak_update(target, source, tau):
            tf.nest.assert_same_structure(target, source)

            def leaves(x):
                items = x.values() if isinstance(x, dict) else x
                return [leaf for item in items
                        for leaf in (leaves(item) if isinstance(item, (dict, list, tuple)) else [item])]

            for t, s in zip(leaves(target), leaves(source)):
                t.assign(tau * s + (1.0 - tau) * t)
        '''),
]

# Issue 34: shapes compared by their size, then reshaped: right whenever a bad shape also has another size.
MUTANTS += [
    edited("sync_reshapes_equal_sizes", "sync_op", "unclear-shape-error",
           ("if src.shape != dst.shape:", "if src.shape.num_elements() != dst.shape.num_elements():"),
           ("assigns.append(dst.assign(src))", "assigns.append(dst.assign(tf.reshape(src, dst.shape)))")),
]

# Issue 34: the source as it was when the op was built; right whenever the sources never move during a probe.
MUTANTS += [
    edited("soft_mixes_with_initial_source", "soft_update", "stale-source",
           ("tau * source + (1.0 - tau) * target", "tau * source.initial_value + (1.0 - tau) * target")),
]

# Review of lesson 4: current and past lists sorted by name and zipped by position; right while both copies
# hold the same names, wrong (it raises while building) when the past copy also holds a non-trainable variable.
MUTANTS += [
    edited("trainer_pairs_sorted_lists", "lagged_trainer", "matched-by-order",
           ("        current_vars = tf1.trainable_variables(\"current/\")\n"
            "        past_vars = {v.op.name[len(\"past/\"):]: v for v in tf1.global_variables(\"past/\")}\n"
            "        self.sync = tf.group(*[past_vars[v.op.name[len(\"current/\"):]].assign(v) for v in current_vars])",
            "        current_vars = sorted(tf1.trainable_variables(\"current/\"), key=lambda v: v.op.name)\n"
            "        past_vars = sorted(tf1.global_variables(\"past/\"), key=lambda v: v.op.name)\n"
            "        self.sync = tf.group(*[p.assign(c) for c, p in zip(current_vars, past_vars)])")),
]

# Expert review: tau the wrong way round in the eager update; it was named paired-by-position.
MUTANTS += [
    edited("polyak_tau_reversed", "polyak_update", "tau-reversed",
           ("t.assign(tau * s + (1.0 - tau) * t)", "t.assign((1.0 - tau) * s + tau * t)")),
]

# Expert review: destinations taken from the trainable variables, none of which a non-trainable copy holds;
# it was named only by its KeyError.
MUTANTS += [
    edited("sync_trainable_destinations", "sync_op", "trainable-destinations",
           ('tf1.global_variables(re.escape(dst_scope) + "/")', 'tf1.trainable_variables(re.escape(dst_scope) + "/")')),
]

# Issue 35 (review 04-2): the past copy built without the getter, read without stop_gradient; trained over
# the current variables only, its outputs are the solution's: only the gradient asked outside the kernel shows it.
MUTANTS += [
    edited("trainer_without_stop_gradient", "lagged_trainer", "gradient-reaches-copy",
           (_GETTER.replace("    def", "        def").replace("\n        ", "\n            "), ""),
           ('"past", custom_getter=stop_gradient_getter', '"past"')),
]

# Issue 35 (review 04-3): a loss that includes the past output, minimised over every trainable variable,
# trains the copy too; it was named lagged-copy (the order) before the check on the past variables existed.
MUTANTS += [
    edited("trainer_trains_past_output", "lagged_trainer", "trains-copy",
           (_GETTER.replace("    def", "        def").replace("\n        ", "\n            "), ""),
           ('"past", custom_getter=stop_gradient_getter', '"past"'),
           ("loss = tf.reduce_mean(tf.square(self.current - self.y))",
            "loss = tf.reduce_mean(tf.square(self.current - self.y)) + tf.reduce_mean(tf.square(self.past - self.y))"),
           ("optimizer.minimize(loss, var_list=current_vars)", "optimizer.minimize(loss)")),
]

# Mutants the public case itself must catch: a check cell that says PASS to them would be taken back.
PUBLIC = {"soft_mixes_with_initial_source", "sync_prefix_raises", "trainer_pairs_sorted_lists", "sync_global_sources",
          "sync_reshapes_equal_sizes", "sync_scope_replaced_everywhere", "polyak_one_level", "polyak_zips_dict_values"}
