"""Valid answers to lesson 7 written another way: each must keep its exercise's full marks."""
from tests.alternatives import Alternative

ALTERNATIVES = [
    # A table of formulas; staircase by integer division of the integer steps; float32 results.
    Alternative("exponential_table_of_lambdas", "exponential_family", "exponential_family_solution", '''
        def np_exponential_family(kind, learning_rate, steps, decay_steps, decay_rate, staircase=False):
            formulas = {
                "exponential": lambda p: learning_rate * np.power(decay_rate, p),
                "natural_exp": lambda p: learning_rate * np.exp(-decay_rate * p),
                "inverse_time": lambda p: learning_rate / (1 + decay_rate * p),
            }
            if kind not in formulas:
                raise ValueError("kind must be one of " + ", ".join(formulas))
            steps = np.asarray(steps)
            p = steps // decay_steps if staircase else steps / decay_steps
            return formulas[kind](p.astype(np.float32)).astype(np.float32)
        '''),
    # One step at a time with the math module.
    Alternative("exponential_loop_with_math", "exponential_family", "exponential_family_solution", '''
        import math

        def np_exponential_family(kind, learning_rate, steps, decay_steps, decay_rate, staircase=False):
            if kind not in ("exponential", "natural_exp", "inverse_time"):
                raise ValueError(kind)
            rates = []
            for step in steps:
                p = step / decay_steps
                if staircase:
                    p = math.floor(p)
                if kind == "exponential":
                    rates.append(learning_rate * decay_rate ** p)
                elif kind == "natural_exp":
                    rates.append(learning_rate * math.exp(-decay_rate * p))
                else:
                    rates.append(learning_rate / (1 + decay_rate * p))
            return np.array(rates)
        '''),
    Alternative("piecewise_digitize", "piecewise", "piecewise_solution", '''
        def np_piecewise_constant(steps, boundaries, values):
            if len(values) - len(boundaries) != 1:
                raise ValueError(f"{len(boundaries)} boundaries need {len(boundaries) + 1} values")
            return np.array(values)[np.digitize(steps, boundaries, right=True)]
        '''),
    Alternative("piecewise_loop_over_intervals", "piecewise", "piecewise_solution", '''
        def np_piecewise_constant(steps, boundaries, values):
            if len(values) != len(boundaries) + 1:
                raise ValueError("need len(values) == len(boundaries) + 1")
            out = []
            for step in steps:
                rate = values[-1]
                for boundary, value in zip(boundaries, values):
                    if step <= boundary:
                        rate = value
                        break
                out.append(rate)
            return np.array(out, dtype=float)
        '''),
    Alternative("piecewise_select", "piecewise", "piecewise_solution", '''
        def np_piecewise_constant(steps, boundaries, values):
            if len(values) != len(boundaries) + 1:
                raise ValueError("values must have exactly one more element than boundaries")
            steps = np.asarray(steps)
            lower = [-np.inf] + list(boundaries)
            conditions = [(steps > lo) & (steps <= hi) for lo, hi in zip(lower, list(boundaries) + [np.inf])]
            return np.select(conditions, values)
        '''),
    Alternative("polynomial_clip_and_maximum", "polynomial", "polynomial_solution", '''
        def np_polynomial_decay(learning_rate, steps, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
            steps = np.asarray(steps, dtype=float)
            if cycle:
                decay_steps = decay_steps * np.maximum(1.0, np.ceil(steps / decay_steps))
            else:
                steps = np.clip(steps, 0, decay_steps)
            fraction_left = 1.0 - steps / decay_steps
            return end_learning_rate + (learning_rate - end_learning_rate) * np.power(fraction_left, power)
        '''),
    Alternative("polynomial_integer_ceil_loop", "polynomial", "polynomial_solution", '''
        def np_polynomial_decay(learning_rate, steps, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
            rates = []
            for step in steps:
                step = int(step)
                if cycle:
                    horizon = decay_steps * max(1, -(-step // decay_steps))
                else:
                    step, horizon = min(step, decay_steps), decay_steps
                rates.append((learning_rate - end_learning_rate) * (1 - step / horizon) ** power
                             + end_learning_rate)
            return np.array(rates)
        '''),
    # Restarts found by walking the periods one by one instead of the closed-form logarithm.
    Alternative("cosine_walks_the_periods", "cosine_family", "cosine_family_solution", '''
        def np_cosine_family(kind, learning_rate, steps, decay_steps, alpha=0.0, t_mul=2.0, m_mul=1.0,
                             num_periods=0.5, beta=0.001):
            def one(step):
                if kind == "cosine":
                    s = min(step, decay_steps)
                    return learning_rate * ((1 - alpha) * 0.5 * (1 + np.cos(np.pi * s / decay_steps)) + alpha)
                if kind == "restarts":
                    start, length, height = 0.0, float(decay_steps), 1.0
                    while step >= start + length:
                        start += length
                        length *= t_mul
                        height *= m_mul
                    cosine = 0.5 * height * (1 + np.cos(np.pi * (step - start) / length))
                    return learning_rate * ((1 - alpha) * cosine + alpha)
                if kind == "linear_cosine":
                    s = min(step, decay_steps)
                    linear = (decay_steps - s) / decay_steps
                    cosine = 0.5 * (1 + np.cos(2 * np.pi * num_periods * s / decay_steps))
                    return learning_rate * ((alpha + linear) * cosine + beta)
                raise ValueError("unknown kind: " + str(kind))
            if kind not in ("cosine", "restarts", "linear_cosine"):
                raise ValueError("unknown kind: " + str(kind))
            return np.array([one(float(step)) for step in steps])
        '''),
    Alternative("cosine_vectorised_with_where", "cosine_family", "cosine_family_solution", '''
        def np_cosine_family(kind, learning_rate, steps, decay_steps, alpha=0.0, t_mul=2.0, m_mul=1.0,
                             num_periods=0.5, beta=0.001):
            t = np.asarray(steps, dtype=np.float64)
            if kind == "linear_cosine":
                t = np.clip(t, 0, decay_steps)
                ramp = 1 - t / decay_steps
                wave = (1 + np.cos(2 * np.pi * num_periods * t / decay_steps)) / 2
                return learning_rate * (wave * (ramp + alpha) + beta)
            elif kind == "cosine":
                wave = (1 + np.cos(np.pi * np.clip(t, 0, decay_steps) / decay_steps)) / 2
                return learning_rate * (alpha + (1 - alpha) * wave)
            elif kind == "restarts":
                p = t / decay_steps
                if np.isclose(t_mul, 1.0):
                    n = np.floor(p)
                    done = p - n
                else:
                    n = np.floor(np.log1p(p * (t_mul - 1)) / np.log(t_mul))
                    done = (p - (t_mul ** n - 1) / (t_mul - 1)) / t_mul ** n
                wave = m_mul ** n * (1 + np.cos(np.pi * done)) / 2
                return learning_rate * (alpha + (1 - alpha) * wave)
            else:
                raise ValueError(f"unknown kind {kind}")
        '''),
    # tf.cond branches, an int64 counter, assigns chained by control dependencies; the rate read after.
    Alternative("auto_cond_and_control_dependencies", "auto_decay", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                with tf1.variable_scope(None, default_name="auto_decay"):
                    self.learning_rate = tf1.get_variable("rate", initializer=tf.constant(initial_rate, tf.float32),
                                                          trainable=False)
                    best = tf1.get_variable("best", initializer=tf.constant(np.inf, tf.float32), trainable=False)
                    wait = tf1.get_variable("wait", initializer=tf.constant(0, tf.int64), trainable=False)
                    self.loss = tf1.placeholder(tf.float32, shape=(), name="loss")
                    old_best, old_wait, old_rate = tf.identity(best), tf.identity(wait), tf.identity(self.learning_rate)
                    better = tf.less(self.loss, old_best)
                    new_wait = tf.cond(better, lambda: tf.constant(0, tf.int64), lambda: old_wait + 1)
                    patience_over = tf.greater_equal(new_wait, patience)
                    new_rate = tf.cond(patience_over, lambda: old_rate * factor, lambda: old_rate)
                    with tf.control_dependencies([new_rate, new_wait]):
                        self.step = tf.group(
                            tf1.assign(self.learning_rate, new_rate),
                            tf1.assign(best, tf.minimum(old_best, self.loss)),
                            tf1.assign(wait, tf.where(patience_over, tf.constant(0, tf.int64), new_wait)))

            def update(self, sess, val_loss):
                sess.run(self.step, feed_dict={self.loss: val_loss})
                return float(sess.run(self.learning_rate))
        '''),
    # One fetch: the new rate as an identity that waits for the assigns; the counter as a float.
    Alternative("auto_identity_after_assigns", "auto_decay", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                self.learning_rate = tf.Variable(float(initial_rate), dtype=tf.float32, trainable=False)
                self._best = tf.Variable(float("inf"), trainable=False)
                self._count = tf.Variable(0.0, trainable=False)
                self._loss = tf1.placeholder(tf.float32, [])
                rate, best, count = (tf.identity(v) for v in (self.learning_rate, self._best, self._count))
                count = tf.where(self._loss < best, 0.0, count + 1.0)
                reduce = count >= float(patience)
                rate = tf.where(reduce, factor * rate, rate)
                assigns = [self.learning_rate.assign(rate), self._best.assign(tf.minimum(best, self._loss)),
                           self._count.assign(tf.where(reduce, 0.0, count))]
                with tf.control_dependencies(assigns):
                    self._new_rate = tf.identity(rate)

            def update(self, sess, val_loss):
                return float(sess.run(self._new_rate, {self._loss: float(val_loss)}))
        '''),
    # tf1.get_variable with fixed names, as lesson 4 builds variables; the grader builds several
    # AutoDecay objects, each in a variable scope of its own.
    Alternative("auto_get_variable_fixed_names", "auto_decay", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                self.learning_rate = tf1.get_variable("auto_lr", dtype=tf.float32, initializer=float(initial_rate),
                                                      trainable=False)
                self.best_loss = tf1.get_variable("auto_best", dtype=tf.float32, initializer=np.inf, trainable=False)
                self.waited = tf1.get_variable("auto_waited", dtype=tf.int32, initializer=0, trainable=False)
                self.val_loss = tf1.placeholder(tf.float32, shape=[])
                lr, best, waited = self.learning_rate.read_value(), self.best_loss.read_value(), self.waited.read_value()
                waited = tf.where(self.val_loss < best, 0, waited + 1)
                cut = waited >= patience
                self.new_lr = tf.where(cut, lr * factor, lr)
                self.train = tf.group(tf1.assign(self.learning_rate, self.new_lr),
                                      tf1.assign(self.best_loss, tf.minimum(best, self.val_loss)),
                                      tf1.assign(self.waited, tf.where(cut, 0, waited)))

            def update(self, sess, val_loss):
                lr, _ = sess.run([self.new_lr, self.train], feed_dict={self.val_loss: val_loss})
                return float(lr)
        '''),
]
