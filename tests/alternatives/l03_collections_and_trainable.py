"""Alternative correct answers for lesson 3, written from the released notebook alone."""
from tests.alternatives import Alternative

ALTERNATIVES = [
    Alternative("bookkeeping_named_ema_and_add_to_collection", "bookkeeping", "bookkeeping_solution", '''
        def build_bookkeeping(x, w0, b0):
            # default collections (global + trainable), then MODEL_VARIABLES added by hand;
            # the EMA has a name of its own, so its shadows are w/ema and b/ema
            w = tf1.get_variable("w", initializer=w0)
            b = tf1.get_variable("b", initializer=b0)
            for v in (w, b):
                tf1.add_to_collection(tf1.GraphKeys.MODEL_VARIABLES, v)
            tf1.train.create_global_step()
            tf1.Variable(0.0, trainable=False, collections=[tf1.GraphKeys.LOCAL_VARIABLES],
                         name="examples_seen", dtype=tf.float32)
            logits = tf.add(tf.matmul(x, w), b)
            tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))
            ema = tf1.train.ExponentialMovingAverage(0.99, name="ema")
            return logits, ema.apply(var_list=[w, b])
        '''),
    Alternative("bookkeeping_model_variable_helper", "bookkeeping", "bookkeeping_solution", '''
        def build_bookkeeping(x, w0, b0):
            keys = [tf1.GraphKeys.MODEL_VARIABLES, tf1.GraphKeys.GLOBAL_VARIABLES,
                    tf1.GraphKeys.TRAINABLE_VARIABLES]
            w = tf1.get_variable("w", initializer=tf.constant(w0), collections=keys)
            b = tf1.get_variable("b", initializer=tf.constant(b0), collections=keys)
            global_step = tf1.train.get_or_create_global_step()
            seen = tf1.get_variable("examples_seen", shape=[], dtype=tf.float32,
                                    initializer=tf1.zeros_initializer(), trainable=False,
                                    collections=[tf1.GraphKeys.LOCAL_VARIABLES])
            logits = x @ w + b
            mean_logit = tf.reduce_mean(logits)
            tf1.summary.scalar(name="mean_logit", tensor=mean_logit)
            averages = tf1.train.ExponentialMovingAverage(decay=0.99, zero_debias=False)
            ema_op = averages.apply([w, b])
            return logits, ema_op
        '''),
    Alternative("excluding_filtered_live_list", "train_excluding", "train_excluding_solution", '''
        def train_excluding(values, excluded, steps, lr):
            created = []
            for name in values:
                created.append(tf1.get_variable(name, initializer=tf.constant(values[name], tf.float32)))
            live = tf1.get_collection_ref(tf1.GraphKeys.TRAINABLE_VARIABLES)
            live[:] = [v for v in live if v.op.name not in set(excluded)]
            loss = sum((v - 1.0) ** 2 for v in created)
            step = tf1.train.GradientDescentOptimizer(learning_rate=lr).minimize(loss)
            sess = tf1.Session()
            try:
                sess.run(tf1.global_variables_initializer())
                for _ in range(steps):
                    sess.run(step)
                finals = sess.run(created)
            finally:
                sess.close()
            return {v.op.name: float(value) for v, value in zip(created, finals)}
        '''),
    Alternative("excluding_python_floats_and_remove_by_name", "train_excluding", "train_excluding_solution", '''
        def train_excluding(values, excluded, steps, lr):
            variables = {}
            for name, value in values.items():
                variables[name] = tf1.get_variable(name, initializer=float(value))
            trainable = tf1.get_collection_ref(tf1.GraphKeys.TRAINABLE_VARIABLES)
            for v in list(trainable):
                if v.op.name in excluded:
                    trainable.remove(v)
            loss = tf.add_n([tf.square(v - 1) for v in variables.values()])
            train = tf1.train.GradientDescentOptimizer(lr).minimize(loss)
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                for _ in range(steps):
                    sess.run(train)
                result = {}
                for name, v in variables.items():
                    result[name] = sess.run(v).item()
            return result
        '''),
    Alternative("decay_losses_add_loss", "dense_decay", "dense_decay_solution", '''
        def dense_with_decay(x, w0, b0, name, decay):
            with tf1.variable_scope(name):
                weights = tf1.get_variable("w", initializer=tf.constant(w0))
                bias = tf1.get_variable("b", initializer=tf.constant(b0))
                out = tf.nn.bias_add(tf.matmul(x, weights), bias)
            tf1.losses.add_loss(tf.multiply(decay, tf.nn.l2_loss(weights)))  # GraphKeys.LOSSES is "losses"
            return out
        '''),
    Alternative("decay_reduce_sum_half", "dense_decay", "dense_decay_solution", '''
        def dense_with_decay(x, w0, b0, name, decay):
            with tf1.variable_scope(name, reuse=tf1.AUTO_REUSE):
                w = tf1.get_variable("w", initializer=w0)
                b = tf1.get_variable("b", initializer=b0)
            tf1.get_collection_ref("losses").append(decay * 0.5 * tf.reduce_sum(w * w))
            return x @ w + b
        '''),
    Alternative("freezer_minimize_per_subset_by_ref", "freezer", "freezer_solution", '''
        class Freezer:
            def __init__(self, loss, var_list, optimizer):
                self.variables = list(var_list)
                self.train_ops = {}
                n = len(self.variables)
                for mask in range(2 ** n - 1):  # bit i set: variable i frozen; never all of them
                    frozen = frozenset(self.variables[i].ref() for i in range(n) if mask >> i & 1)
                    kept = [v for v in self.variables if v.ref() not in frozen]
                    self.train_ops[frozen] = optimizer.minimize(loss, var_list=kept)

            def step(self, sess, frozen):
                sess.run(self.train_ops[frozenset(v.ref() for v in frozen)])
        '''),
    Alternative("freezer_names_tuple_keys", "freezer", "freezer_solution", '''
        class Freezer:
            def __init__(self, loss, var_list, optimizer):
                var_list = list(var_list)
                gradients = tf.gradients(loss, var_list)
                self.ops = {}
                for size in range(1, len(var_list) + 1):  # size = how many variables train
                    for chosen in itertools.combinations(range(len(var_list)), size):
                        names = tuple(sorted(var_list[i].op.name for i in chosen))
                        self.ops[names] = optimizer.apply_gradients([(gradients[i], var_list[i]) for i in chosen])
                self.names = [v.op.name for v in var_list]

            def step(self, sess, frozen):
                frozen_names = {v.op.name for v in frozen}
                sess.run(self.ops[tuple(sorted(n for n in self.names if n not in frozen_names))])
        '''),
    Alternative("layers_trainable_weights_and_apply", "train_layers", "train_layers_solution", '''
        def train_layers(model, x, y, frozen_per_step, lr):
            opt = tf.keras.optimizers.Adam(learning_rate=lr)
            opt.build(model.trainable_weights)
            history = []
            for names in frozen_per_step:
                for layer in model.layers:
                    layer.trainable = not (layer.name in names)
                with tf.GradientTape() as tape:
                    prediction = model(x, training=True)
                    loss = tf.reduce_mean((prediction - y) ** 2)
                train_vars = model.trainable_weights
                grads = tape.gradient(loss, train_vars)
                opt.apply(grads, train_vars)
                history.append(loss.numpy().item())
            return history
        '''),
    Alternative("layers_get_layer_and_squared_difference", "train_layers", "train_layers_solution", '''
        def train_layers(model, x, y, frozen_per_step, lr):
            optimizer = tf.keras.optimizers.Adam(lr)
            optimizer.build(model.variables)
            losses = []
            for frozen in frozen_per_step:
                for layer in model.layers:
                    layer.trainable = True
                for name in frozen:
                    model.get_layer(name).trainable = False
                trainable = [v for v in model.trainable_variables]
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.math.squared_difference(model(x), y))
                losses.append(float(loss.numpy()))
                optimizer.apply_gradients(list(zip(tape.gradient(loss, trainable), trainable)))
            return losses
        '''),
]

# Issue 34: one rule for summary tags in lessons 3 and 5: a scope before the name is fine.
ALTERNATIVES += [
    Alternative("bookkeeping_summary_in_a_name_scope", "bookkeeping", "bookkeeping_solution", '''
        def build_bookkeeping(x, w0, b0):
            w = tf1.get_variable("w", initializer=w0, collections=[GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES])
            b = tf1.get_variable("b", initializer=b0, collections=[GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES])
            tf1.train.get_or_create_global_step()
            tf1.get_local_variable("examples_seen", initializer=0.0)
            logits = tf.matmul(x, w) + b
            with tf.name_scope("stats"):
                tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))
            return logits, tf1.train.ExponentialMovingAverage(decay=0.99).apply([w, b])
        '''),
]
