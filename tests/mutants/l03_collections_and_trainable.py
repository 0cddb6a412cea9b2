"""Mutants of lesson 3: each is a misconception the lesson names."""
from tests.mutants import Mutant

BOOKKEEPING = '''
def build_bookkeeping(x, w0, b0):
    model_keys = [GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES]
    w = tf1.get_variable("w", initializer=w0, collections=model_keys)
    b = tf1.get_variable("b", initializer=b0, collections=model_keys)
    tf1.train.get_or_create_global_step()
    tf1.get_local_variable("examples_seen", initializer=0.0)
    logits = tf.matmul(x, w) + b
    tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))
    ema_op = tf1.train.ExponentialMovingAverage(decay=0.99).apply([w, b])
    return logits, ema_op
'''
TRAIN_EXCLUDING = '''
def train_excluding(values, excluded, steps, lr):
    variables = {name: tf1.get_variable(name, initializer=np.float32(value))
                 for name, value in values.items()}
    live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)
    for name in excluded:
        live.remove(variables[name])
    loss = tf.add_n([tf.square(v - 1.0) for v in variables.values()])
    train_op = tf1.train.GradientDescentOptimizer(lr).minimize(loss)
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        for _ in range(steps):
            sess.run(train_op)
        return {name: float(value) for name, value in sess.run(variables).items()}
'''
FREEZER = '''
class Freezer:
    def __init__(self, loss, var_list, optimizer):
        grads_and_vars = optimizer.compute_gradients(loss, var_list=list(var_list))
        self.ops = {}
        for k in range(len(var_list)):
            for frozen in itertools.combinations(var_list, k):
                key = frozenset(v.op.name for v in frozen)
                kept = [(g, v) for g, v in grads_and_vars if v.op.name not in key]
                self.ops[key] = optimizer.apply_gradients(kept)

    def step(self, sess, frozen):
        sess.run(self.ops[frozenset(v.op.name for v in frozen)])
'''


def edited(source: str, old: str, new: str) -> str:
    """The reference answer `source` with one piece of text changed (it must be there)."""
    assert old in source, old
    return source.replace(old, new)


MUTANTS = [
    Mutant("bookkeeping_local_left_trainable", "bookkeeping", "trainable-by-default", "bookkeeping_solution", '''
        def build_bookkeeping(x, w0, b0):
            model_keys = [GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES]
            w = tf1.get_variable("w", initializer=w0, collections=model_keys)
            b = tf1.get_variable("b", initializer=b0, collections=model_keys)
            tf1.train.get_or_create_global_step()
            tf1.Variable(0.0, collections=[GK.LOCAL_VARIABLES], name="examples_seen")
            logits = tf.matmul(x, w) + b
            tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))
            ema_op = tf1.train.ExponentialMovingAverage(decay=0.99).apply([w, b])
            return logits, ema_op
        '''),
    Mutant("bookkeeping_model_only", "bookkeeping", "model-variables-not-global", "bookkeeping_solution", '''
        def build_bookkeeping(x, w0, b0):
            w = tf1.get_variable("w", initializer=w0, collections=[GK.MODEL_VARIABLES])
            b = tf1.get_variable("b", initializer=b0, collections=[GK.MODEL_VARIABLES])
            tf1.train.get_or_create_global_step()
            tf1.get_local_variable("examples_seen", initializer=0.0)
            logits = tf.matmul(x, w) + b
            tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))
            ema_op = tf1.train.ExponentialMovingAverage(decay=0.99).apply([w, b])
            return logits, ema_op
        '''),
    Mutant("bookkeeping_tf2_summary", "bookkeeping", "summary-not-collected", "bookkeeping_solution", '''
        def build_bookkeeping(x, w0, b0):
            model_keys = [GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES]
            w = tf1.get_variable("w", initializer=w0, collections=model_keys)
            b = tf1.get_variable("b", initializer=b0, collections=model_keys)
            tf1.train.get_or_create_global_step()
            tf1.get_local_variable("examples_seen", initializer=0.0)
            logits = tf.matmul(x, w) + b
            tf.summary.scalar("mean_logit", tf.reduce_mean(logits))
            ema_op = tf1.train.ExponentialMovingAverage(decay=0.99).apply([w, b])
            return logits, ema_op
        '''),
    Mutant("excluding_edits_copy", "train_excluding", "edited-copy", "train_excluding_solution",
           edited(TRAIN_EXCLUDING, "tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)", "tf1.get_collection(GK.TRAINABLE_VARIABLES)")),
    Mutant("excluding_after_minimize", "train_excluding", "edit-after-minimize", "train_excluding_solution",
           edited(edited(TRAIN_EXCLUDING, """    live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)
    for name in excluded:
        live.remove(variables[name])
""", ""), "    with tf1.Session() as sess:", """    live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)
    for name in excluded:
        live.remove(variables[name])
    with tf1.Session() as sess:""")),
    Mutant("decay_appends_to_copy", "dense_decay", "term-not-collected", "dense_decay_solution", '''
        def dense_with_decay(x, w0, b0, name, decay):
            with tf1.variable_scope(name):
                w = tf1.get_variable("w", initializer=w0)
                b = tf1.get_variable("b", initializer=b0)
            tf1.get_collection("losses").append(decay * tf.nn.l2_loss(w))
            return tf.matmul(x, w) + b
        '''),
    Mutant("decay_includes_bias", "dense_decay", "decay-value", "dense_decay_solution", '''
        def dense_with_decay(x, w0, b0, name, decay):
            with tf1.variable_scope(name):
                w = tf1.get_variable("w", initializer=w0)
                b = tf1.get_variable("b", initializer=b0)
            tf1.add_to_collection("losses", decay * (tf.nn.l2_loss(w) + tf.nn.l2_loss(b)))
            return tf.matmul(x, w) + b
        '''),
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
    Mutant("layers_stale_list", "train_layers", "stale-variable-list", "train_layers_solution", '''
        def train_layers(model, x, y, frozen_per_step, lr):
            optimizer = tf.keras.optimizers.Adam(lr)
            variables = model.trainable_variables
            optimizer.build(variables)
            losses = []
            for frozen in frozen_per_step:
                for layer in model.layers:
                    layer.trainable = layer.name not in frozen
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
                losses.append(float(loss))
            return losses
        '''),
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
    Mutant("bookkeeping_int_counter", "bookkeeping", "counter-not-float32", "bookkeeping_solution",
           edited(BOOKKEEPING, 'initializer=0.0)', 'initializer=0)')),
    Mutant("bookkeeping_int32_step", "bookkeeping", "step-not-int64", "bookkeeping_solution",
           edited(BOOKKEEPING, 'tf1.train.get_or_create_global_step()',
                  'tf1.Variable(0, name="global_step", trainable=False)')),
    Mutant("bookkeeping_ema_num_updates", "bookkeeping", "ema-decay", "bookkeeping_solution",
           edited(edited(BOOKKEEPING, '    tf1.train.get_or_create_global_step()', '    step = tf1.train.get_or_create_global_step()'),
                  'decay=0.99)', 'decay=0.99, num_updates=step)')),
    Mutant("bookkeeping_summary_of_sum", "bookkeeping", "summary-value", "bookkeeping_solution",
           edited(BOOKKEEPING, 'tf.reduce_mean(logits)', 'tf.reduce_mean(tf.reduce_sum(logits, axis=1))')),
    Mutant("excluding_by_prefix", "train_excluding", "removed-too-many", "train_excluding_solution",
           edited(TRAIN_EXCLUDING, """    for name in excluded:
        live.remove(variables[name])""", """    for v in list(live):
        if any(v.op.name.startswith(name) for name in excluded):
            live.remove(v)""")),
    Mutant("excluding_float64", "train_excluding", "not-float32", "train_excluding_solution",
           edited(TRAIN_EXCLUDING, 'np.float32(value)', 'np.float64(value)')),
    Mutant("excluding_var_list", "train_excluding", "edited-copy", "train_excluding_solution",
           edited(edited(TRAIN_EXCLUDING, """    live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)
    for name in excluded:
        live.remove(variables[name])
""", ""), ".minimize(loss)", ".minimize(loss, var_list=[v for n, v in variables.items() if n not in excluded])")),
    Mutant("decay_elementwise_term", "dense_decay", "term-not-scalar", "dense_decay_solution", '''
        def dense_with_decay(x, w0, b0, name, decay):
            with tf1.variable_scope(name):
                w = tf1.get_variable("w", initializer=w0)
                b = tf1.get_variable("b", initializer=b0)
            tf1.add_to_collection("losses", decay * tf.square(w) / 2.0)
            return tf.matmul(x, w) + b
        '''),
    Mutant("freezer_all_trainables", "freezer", "trains-outside-var-list", "freezer_solution",
           edited(FREEZER, "compute_gradients(loss, var_list=list(var_list))", "compute_gradients(loss)")),
    Mutant("freezer_runs_twice", "freezer", "not-one-step", "freezer_solution",
           edited(FREEZER, "        sess.run(self.ops[frozenset(v.op.name for v in frozen)])",
                  "        op = self.ops[frozenset(v.op.name for v in frozen)]\n        sess.run(op)\n        sess.run(op)")),
]
