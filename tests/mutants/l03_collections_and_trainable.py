"""Mutants of lesson 3: each is a misconception the lesson names."""
from tests.mutants import Mutant, edited_solution

edited = edited_solution(__name__)

# train_excluding's edit of the collection, which some mutants move or drop.
_EXCLUDE = """    live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)
    for name in excluded:
        live.remove(variables[name])
"""

MUTANTS = [
    edited("bookkeeping_local_left_trainable", "bookkeeping", "trainable-by-default",
           ('tf1.get_local_variable("examples_seen", initializer=0.0)',
            'tf1.Variable(0.0, collections=[GK.LOCAL_VARIABLES], name="examples_seen")')),
    edited("bookkeeping_model_only", "bookkeeping", "model-variables-not-global",
           ("model_keys = [GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES]", "model_keys = [GK.MODEL_VARIABLES]")),
    # Issue 35: b global and trainable but not a model variable; it was named model-variables-not-global.
    edited("bookkeeping_bias_not_model", "bookkeeping", "not-model-variables",
           ('b = tf1.get_variable("b", initializer=b0, collections=model_keys)', 'b = tf1.get_variable("b", initializer=b0)')),
    edited("bookkeeping_tf2_summary", "bookkeeping", "summary-not-collected", ("tf1.summary.scalar(", "tf.summary.scalar(")),
    # Issue 35: the summary taken before the bias; the public b0 averaged to 0 and hid it.
    edited("bookkeeping_summary_before_bias", "bookkeeping", "summary-value",
           ('tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))',
            'tf1.summary.scalar("mean_logit", tf.reduce_mean(tf.matmul(x, w)))')),
    # Issue 35: only the first excluded name removed; it was named edited-copy.
    edited("excluding_first_only", "train_excluding", "some-excluded-kept",
           ("    for name in excluded:\n        live.remove(variables[name])\n",
            "    if excluded:\n        live.remove(variables[excluded[0]])\n")),
    edited("excluding_edits_copy", "train_excluding", "edited-copy", ("get_collection_ref(", "get_collection(")),
    edited("excluding_after_minimize", "train_excluding", "edit-after-minimize",
           (_EXCLUDE, ""), ("    with tf1.Session() as sess:", _EXCLUDE + "    with tf1.Session() as sess:")),
    edited("decay_appends_to_copy", "dense_decay", "term-not-collected",
           ('tf1.add_to_collection("losses", decay * tf.nn.l2_loss(w))',
            'tf1.get_collection("losses").append(decay * tf.nn.l2_loss(w))')),
    edited("decay_includes_bias", "dense_decay", "decay-value",
           ("decay * tf.nn.l2_loss(w)", "decay * (tf.nn.l2_loss(w) + tf.nn.l2_loss(b))")),
    Mutant("freezer_apply_per_step", "freezer", "ops-in-loop", "freezer_solution", '''
        class Freezer:
            def __init__(self, loss, var_list, optimizer):
                self.optimizer = optimizer
                self.grads_and_vars = optimizer.compute_gradients(loss, var_list=list(var_list))

            def step(self, sess, frozen):
                names = {v.op.name for v in frozen}
                kept = [(g, v) for g, v in self.grads_and_vars if v.op.name not in names]
                sess.run(self.optimizer.apply_gradients(kept))
        '''),
    Mutant("freezer_zero_gradient", "freezer", "zero-gradient-not-freeze", "freezer_solution", '''
        class Freezer:
            def __init__(self, loss, var_list, optimizer):
                grads_and_vars = optimizer.compute_gradients(loss, var_list=list(var_list))
                self.masks = {v.op.name: tf1.placeholder(tf.float32, []) for v in var_list}
                self.train_op = optimizer.apply_gradients(
                    [(g * self.masks[v.op.name], v) for g, v in grads_and_vars])

            def step(self, sess, frozen):
                names = {v.op.name for v in frozen}
                sess.run(self.train_op, {mask: 0.0 if name in names else 1.0
                                         for name, mask in self.masks.items()})
        '''),
    Mutant("freezer_edits_collection", "freezer", "collection-after-minimize", "freezer_solution", '''
        class Freezer:
            def __init__(self, loss, var_list, optimizer):
                self.train_op = optimizer.minimize(loss)

            def step(self, sess, frozen):
                live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)
                removed = [v for v in live if any(v is f for f in frozen)]
                for v in removed:
                    live.remove(v)
                sess.run(self.train_op)
                live.extend(removed)
        '''),
    edited("layers_stale_list", "train_layers", "stale-variable-list",
           ("        variables = model.trainable_variables", None),
           ("    optimizer.build(model.trainable_variables)",
            "    variables = model.trainable_variables\n    optimizer.build(variables)")),
    Mutant("layers_zero_gradient", "train_layers", "zero-gradient-not-freeze", "train_layers_solution", '''
        def train_layers(model, x, y, frozen_per_step, lr):
            optimizer = tf.keras.optimizers.Adam(lr)
            variables = model.trainable_variables
            optimizer.build(variables)
            losses = []
            for frozen in frozen_per_step:
                frozen_ids = {id(v) for layer in model.layers if layer.name in frozen for v in layer.weights}
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, variables)
                grads = [tf.zeros_like(g) if id(v) in frozen_ids else g for g, v in zip(grads, variables)]
                optimizer.apply_gradients(zip(grads, variables))
                losses.append(float(loss))
            return losses
        '''),
    # Hostile answers (issue 12): each passed the grader before its probe, case or check existed.
    edited("bookkeeping_int_counter", "bookkeeping", "counter-not-float32", ("initializer=0.0)", "initializer=0)")),
    edited("bookkeeping_int32_step", "bookkeeping", "step-not-int64",
           ("tf1.train.get_or_create_global_step()", 'tf1.Variable(0, name="global_step", trainable=False)')),
    edited("bookkeeping_ema_num_updates", "bookkeeping", "ema-decay",
           ("    tf1.train.get_or_create_global_step()", "    step = tf1.train.get_or_create_global_step()"),
           ("decay=0.99)", "decay=0.99, num_updates=step)")),
    edited("bookkeeping_summary_of_sum", "bookkeeping", "summary-value",
           ("tf.reduce_mean(logits)", "tf.reduce_mean(tf.reduce_sum(logits, axis=1))")),
    edited("excluding_by_prefix", "train_excluding", "removed-too-many",
           ("""    for name in excluded:
        live.remove(variables[name])""", """    for v in list(live):
        if any(v.op.name.startswith(name) for name in excluded):
            live.remove(v)""")),
    edited("excluding_float64", "train_excluding", "not-float32", ("np.float32(value)", "np.float64(value)")),
    # An expert reviewer's answer: the excluded variables made untrainable, the collection never edited.
    edited("excluding_created_untrainable", "train_excluding", "created-untrainable",
           ("initializer=np.float32(value))", "initializer=np.float32(value), trainable=name not in excluded)"),
           ("live.remove(variables[name])", "pass")),
    edited("excluding_var_list", "train_excluding", "edited-copy",
           (_EXCLUDE, ""), (".minimize(loss)", ".minimize(loss, var_list=[v for n, v in variables.items() if n not in excluded])")),
    edited("decay_elementwise_term", "dense_decay", "term-not-scalar", ("decay * tf.nn.l2_loss(w)", "decay * tf.square(w) / 2.0")),
    edited("freezer_all_trainables", "freezer", "trains-outside-var-list",
           ("compute_gradients(loss, var_list=self.var_list)", "compute_gradients(loss)")),
    edited("freezer_runs_twice", "freezer", "not-one-step",
           ("        sess.run(self.ops[frozenset(v.op.name for v in frozen)])",
            "        op = self.ops[frozenset(v.op.name for v in frozen)]\n        sess.run(op)\n        sess.run(op)")),
]

# Issue 25: answers that fit the public case and break in a situation the notebook's text covers.
MUTANTS += [
    edited("bookkeeping_summary_of_a_vector", "bookkeeping", "run-raised",
           ('tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))',
            'tf1.summary.scalar("mean_logit", tf.reduce_mean(logits, axis=0))')),
    edited("excluding_names_by_rstrip", "train_excluding", "removed-too-many",
           ("    for name in excluded:\n        live.remove(variables[name])",
            '    for v in list(live):\n        if v.name.rstrip(":0") in excluded:\n            live.remove(v)')),
    edited("freezer_keys_in_given_order", "freezer", "frozen-order",
           ("key = frozenset(v.op.name for v in frozen)", "key = tuple(v.op.name for v in frozen)"),
           ("sess.run(self.ops[frozenset(v.op.name for v in frozen)])", "sess.run(self.ops[tuple(v.op.name for v in frozen)])")),
    edited("layers_frozen_by_prefix", "train_layers", "unfrozen-stuck",
           ("layer.trainable = layer.name not in frozen",
            "layer.trainable = not any(layer.name.startswith(name) for name in frozen)")),
    edited("bookkeeping_counter_also_global", "bookkeeping", "local-variable",
           ('tf1.get_local_variable("examples_seen", initializer=0.0)',
            'tf1.get_variable("examples_seen", initializer=0.0, trainable=False,\n'
            '                     collections=[GK.LOCAL_VARIABLES, GK.GLOBAL_VARIABLES])')),
]
MUTANTS += [
    edited("decay_term_of_every_weight_so_far", "dense_decay", "decay-value",
           ('tf1.add_to_collection("losses", decay * tf.nn.l2_loss(w))',
            'tf1.add_to_collection("losses", decay * tf.add_n(\n'
            '        [tf.nn.l2_loss(v) for v in tf1.trainable_variables() if v.op.name.endswith("/w")]))')),
]

# Issue 35: one apply_gradients op per variable, the unfrozen ones run together: right under momentum
# and whenever exactly one variable trains, but Adam's shared beta powers then advance once per op.
MUTANTS += [
    Mutant("freezer_op_per_variable", "freezer", "not-one-step", "freezer_solution", '''
        class Freezer:
            def __init__(self, loss, var_list, optimizer):
                grads_and_vars = optimizer.compute_gradients(loss, var_list=list(var_list))
                self.ops = {v.op.name: optimizer.apply_gradients([(g, v)]) for g, v in grads_and_vars}

            def step(self, sess, frozen):
                names = {v.op.name for v in frozen}
                sess.run([op for name, op in self.ops.items() if name not in names])
        '''),
]

# get_variable(..., regularizer=) files its terms in REGULARIZATION_LOSSES, not in "losses".
MUTANTS += [
    edited("decay_regularizer", "dense_decay", "regularizer-collection",
           ('        w = tf1.get_variable("w", initializer=w0)',
            '        w = tf1.get_variable("w", initializer=w0,\n'
            '                             regularizer=lambda t: decay * tf.nn.l2_loss(t))'),
           ('    tf1.add_to_collection("losses", decay * tf.nn.l2_loss(w))\n', "")),
]

# Issue 35: logits from the constant initial values: right until training moves w or b.
MUTANTS += [
    edited("bookkeeping_logits_of_b0", "bookkeeping", "logits-not-from-variables",
           ("logits = tf.matmul(x, w) + b", "logits = tf.matmul(x, w) + b0")),
    edited("bookkeeping_logits_of_w0", "bookkeeping", "logits-not-from-variables",
           ("logits = tf.matmul(x, w) + b", "logits = tf.matmul(x, w0) + b")),
]

# Issue 35: ops for the empty set and each single variable, the first of `frozen` held: it was named
# zero-gradient-not-freeze (public) and collection-after-minimize (hidden).
MUTANTS += [
    Mutant("freezer_first_frozen_only", "freezer", "only-one-frozen-held", "freezer_solution", '''
        class Freezer:
            def __init__(self, loss, var_list, optimizer):
                grads_and_vars = optimizer.compute_gradients(loss, var_list=list(var_list))
                self.ops = {None: optimizer.apply_gradients(grads_and_vars)}
                for _, held in grads_and_vars:
                    self.ops[held.op.name] = optimizer.apply_gradients(
                        [(g, v) for g, v in grads_and_vars if v is not held])

            def step(self, sess, frozen):
                sess.run(self.ops[frozen[0].op.name if frozen else None])
        '''),
]

# Mutants the public case itself must catch: a check cell that says PASS to them would be taken back.
PUBLIC = {"freezer_op_per_variable", "freezer_all_trainables", "decay_regularizer",
          # Issue 35: each passed the public case before it held the situation (a name the start of
          # another, a frozen list out of var_list's order, Keras's dense and dense_1).
          "excluding_by_prefix", "excluding_names_by_rstrip", "freezer_keys_in_given_order",
          "layers_frozen_by_prefix", "bookkeeping_summary_before_bias", "excluding_first_only",
          "bookkeeping_logits_of_b0", "bookkeeping_logits_of_w0", "freezer_first_frozen_only"}
