"""Mutants of lesson 7: each is a misconception the lesson names."""
from tests.mutants import Mutant

# The reference np_cosine_family with one of its parts swapped for a misconception.
_COS = '''
def np_cosine_family(kind, learning_rate, steps, decay_steps, alpha=0.0, t_mul=T_MUL, m_mul=1.0,
                     num_periods=0.5, beta=0.001):
    step = np.asarray(steps, dtype=np.float64)
    if kind == "restarts":
        p = step / decay_steps
        RESTARTS
        return learning_rate * ((1 - alpha) * cosine + alpha)
    if kind == "linear_cosine":
        step = np.minimum(step, decay_steps)
        linear = (decay_steps - step) / decay_steps
        cosine = 0.5 * (1 + np.cos(np.pi * 2 * num_periods * step / decay_steps))
        return learning_rate * ((alpha + linear) * cosine + beta)
    COSINE
'''
_RESTARTS = '''if t_mul == 1.0:
            i = np.floor(p)
            fraction = p - i
        else:
            i = np.floor(np.log(1 - p * (1 - t_mul)) / np.log(t_mul))
            fraction = (p - (1 - t_mul ** i) / (1 - t_mul)) / t_mul ** i
        cosine = 0.5 * m_mul ** i * (1 + np.cos(np.pi * fraction))'''
_COSINE = '''if kind == "cosine":
        cosine = 0.5 * (1 + np.cos(np.pi * np.minimum(step, decay_steps) / decay_steps))
        return learning_rate * ((1 - alpha) * cosine + alpha)
    raise ValueError(kind)'''


def _cos(t_mul="2.0", restarts=_RESTARTS, cosine=_COSINE):
    return _COS.replace("T_MUL", t_mul).replace("RESTARTS", restarts).replace("COSINE", cosine)


MUTANTS = [
    Mutant("cosine_no_clamp", "cosine_family", "cosine-clamp", "cosine_family_solution",
           _cos(cosine=_COSINE.replace("np.minimum(step, decay_steps)", "step"))),
    Mutant("restarts_ignore_t_mul", "cosine_family", "restart-period", "cosine_family_solution",
           _cos(restarts='''i = np.floor(p)
        cosine = 0.5 * m_mul ** i * (1 + np.cos(np.pi * (p - i)))''')),
    Mutant("restarts_ignore_m_mul", "cosine_family", "restart-height", "cosine_family_solution",
           _cos(restarts=_RESTARTS.replace("0.5 * m_mul ** i *", "0.5 *"))),
    Mutant("staircase_floors_the_step", "exponential_family", "staircase-floor", "exponential_family_solution", '''
        def np_exponential_family(kind, learning_rate, steps, decay_steps, decay_rate, staircase=False):
            step = np.asarray(steps, dtype=np.float64)
            if staircase:
                step = np.floor(step)
            p = step / decay_steps
            if kind == "exponential":
                return learning_rate * decay_rate ** p
            if kind == "natural_exp":
                return learning_rate * np.exp(-decay_rate * p)
            if kind == "inverse_time":
                return learning_rate / (1.0 + decay_rate * p)
            raise ValueError(kind)
        '''),
    Mutant("natural_exp_as_exponential", "exponential_family", "natural-exp-base", "exponential_family_solution", '''
        def np_exponential_family(kind, learning_rate, steps, decay_steps, decay_rate, staircase=False):
            p = np.asarray(steps, dtype=np.float64) / decay_steps
            if staircase:
                p = np.floor(p)
            if kind in ("exponential", "natural_exp"):
                return learning_rate * decay_rate ** p
            if kind == "inverse_time":
                return learning_rate / (1.0 + decay_rate * p)
            raise ValueError(kind)
        '''),
    Mutant("inverse_time_geometric", "exponential_family", "inverse-time", "exponential_family_solution", '''
        def np_exponential_family(kind, learning_rate, steps, decay_steps, decay_rate, staircase=False):
            p = np.asarray(steps, dtype=np.float64) / decay_steps
            if staircase:
                p = np.floor(p)
            if kind == "exponential":
                return learning_rate * decay_rate ** p
            if kind == "natural_exp":
                return learning_rate * np.exp(-decay_rate * p)
            if kind == "inverse_time":
                return learning_rate / (1.0 + decay_rate) ** p
            raise ValueError(kind)
        '''),
    Mutant("piecewise_boundary_starts_new_value", "piecewise", "boundary-inclusive", "piecewise_solution", '''
        def np_piecewise_constant(steps, boundaries, values):
            if len(values) != len(boundaries) + 1:
                raise ValueError("values needs one more entry than boundaries")
            interval = np.searchsorted(np.asarray(boundaries), np.asarray(steps), side="right")
            return np.asarray(values, dtype=np.float64)[interval]
        '''),
    Mutant("piecewise_no_length_check", "piecewise", "length-check", "piecewise_solution", '''
        def np_piecewise_constant(steps, boundaries, values):
            interval = np.searchsorted(np.asarray(boundaries), np.asarray(steps), side="left")
            return np.asarray(values, dtype=np.float64)[interval]
        '''),
    Mutant("polynomial_power_inside", "polynomial", "power-curve", "polynomial_solution", '''
        def np_polynomial_decay(learning_rate, steps, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
            step = np.asarray(steps, dtype=np.float64)
            if cycle:
                horizon = decay_steps * np.where(step == 0, 1.0, np.ceil(step / decay_steps))
            else:
                step = np.minimum(step, decay_steps)
                horizon = decay_steps
            return (learning_rate - end_learning_rate) * (1 - (step / horizon) ** power) + end_learning_rate
        '''),
    Mutant("polynomial_no_clamp", "polynomial", "clamp-at-end", "polynomial_solution", '''
        def np_polynomial_decay(learning_rate, steps, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
            step = np.asarray(steps, dtype=np.float64)
            horizon = decay_steps
            if cycle:
                horizon = decay_steps * np.where(step == 0, 1.0, np.ceil(step / decay_steps))
            return (learning_rate - end_learning_rate) * (1 - step / horizon) ** power + end_learning_rate
        '''),
    Mutant("polynomial_cycle_modulo", "polynomial", "cycle-ceil", "polynomial_solution", '''
        def np_polynomial_decay(learning_rate, steps, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False):
            step = np.asarray(steps, dtype=np.float64)
            if cycle:
                step = step % decay_steps
            else:
                step = np.minimum(step, decay_steps)
            return (learning_rate - end_learning_rate) * (1 - step / decay_steps) ** power + end_learning_rate
        '''),
    Mutant("auto_compares_with_last_loss", "auto_decay", "best-not-last", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False)
                self.last = tf1.Variable(np.inf, dtype=tf.float32, trainable=False)
                self.bad = tf1.Variable(0, dtype=tf.int32, trainable=False)
                self.val_loss = tf1.placeholder(tf.float32, [])
                rate, last, bad = self.learning_rate.read_value(), self.last.read_value(), self.bad.read_value()
                bad = tf.where(self.val_loss < last, 0, bad + 1)
                cut = bad >= patience
                self.new_rate = tf.where(cut, rate * factor, rate)
                with tf.control_dependencies([self.new_rate, bad]):
                    self.update_op = tf.group(self.learning_rate.assign(self.new_rate),
                                              self.last.assign(self.val_loss),
                                              self.bad.assign(tf.where(cut, 0, bad)))

            def update(self, sess, val_loss):
                new_rate, _ = sess.run([self.new_rate, self.update_op], {self.val_loss: val_loss})
                return float(new_rate)
        '''),
    Mutant("auto_keeps_counting_after_cut", "auto_decay", "patience-reset", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False)
                self.best = tf1.Variable(np.inf, dtype=tf.float32, trainable=False)
                self.bad = tf1.Variable(0, dtype=tf.int32, trainable=False)
                self.val_loss = tf1.placeholder(tf.float32, [])
                rate, best, bad = self.learning_rate.read_value(), self.best.read_value(), self.bad.read_value()
                bad = tf.where(self.val_loss < best, 0, bad + 1)
                self.new_rate = tf.where(bad >= patience, rate * factor, rate)
                self.update_op = tf.group(self.learning_rate.assign(self.new_rate),
                                          self.best.assign(tf.minimum(best, self.val_loss)),
                                          self.bad.assign(bad))

            def update(self, sess, val_loss):
                new_rate, _ = sess.run([self.new_rate, self.update_op], {self.val_loss: val_loss})
                return float(new_rate)
        '''),
    Mutant("auto_assigns_in_update", "auto_decay", "ops-in-loop", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False)
                self.factor, self.patience = factor, patience
                self.best, self.bad = np.inf, 0

            def update(self, sess, val_loss):
                if val_loss < self.best:
                    self.best, self.bad = val_loss, 0
                else:
                    self.bad += 1
                if self.bad >= self.patience:
                    sess.run(self.learning_rate.assign(self.learning_rate * self.factor))
                    self.bad = 0
                return float(sess.run(self.learning_rate))
        '''),
]

# The reference AutoDecay, with one piece swapped for a misconception (hostile answers that used to pass).
_AUTO = '''
class AutoDecay:
    def __init__(self, initial_rate, factor, patience):
        self.learning_rate = tf1.Variable(initial_rate, dtype=RATE_DTYPE, trainable=False)
        self.best = tf1.Variable(np.inf, dtype=tf.float32, trainable=False)
        self.bad = tf1.Variable(0, dtype=tf.int32, trainable=False)
        self.val_loss = tf1.placeholder(tf.float32, [])
        rate, best, bad = self.learning_rate.read_value(), self.best.read_value(), self.bad.read_value()
        bad = tf.where(IMPROVED, 0, bad + 1)
        cut = CUT
        self.new_rate = tf.where(cut, rate * FACTOR, rate)
        self.update_op = tf.group(self.learning_rate.assign(self.new_rate),
                                  self.best.assign(tf.minimum(best, self.val_loss)),
                                  self.bad.assign(tf.where(cut, 0, bad)))

    def update(self, sess, val_loss):
UPDATE
'''
_RUN = '''        new_rate, _ = sess.run([self.new_rate, self.update_op], {self.val_loss: val_loss})
        return float(new_rate)'''


def _auto(improved="self.val_loss < best", cut="bad >= patience", factor="factor", rate_dtype="tf.float32",
          update=_RUN):
    return (_AUTO.replace("IMPROVED", improved).replace("CUT", cut).replace("FACTOR", factor)
            .replace("RATE_DTYPE", rate_dtype).replace("UPDATE", update))


MUTANTS += [
    Mutant("auto_tie_counts_as_improvement", "auto_decay", "tie-not-improvement", "auto_decay_solution",
           _auto(improved="self.val_loss <= best")),
    Mutant("auto_patience_off_by_one", "auto_decay", "patience-count", "auto_decay_solution",
           _auto(cut="bad > patience")),
    Mutant("auto_cuts_by_one_minus_factor", "auto_decay", "cut-by-factor", "auto_decay_solution",
           _auto(factor="(1 - factor)")),
    Mutant("auto_float64_rate", "auto_decay", "rate-float32-variable", "auto_decay_solution",
           _auto(rate_dtype="tf.float64")),
    Mutant("auto_runs_on_default_session", "auto_decay", "default-session", "auto_decay_solution",
           _auto(update='''        new_rate = self.new_rate.eval({self.val_loss: val_loss})
        tf1.get_default_session().run(self.update_op, {self.val_loss: val_loss})
        return float(new_rate)''')),
    Mutant("auto_returns_rate_before_update", "auto_decay", "rate-not-in-graph", "auto_decay_solution",
           _auto(update='''        rate = sess.run(self.learning_rate)
        sess.run(self.update_op, {self.val_loss: val_loss})
        return float(rate)''')),
    Mutant("auto_returns_numpy_float32", "auto_decay", "returns-python-float", "auto_decay_solution",
           _auto(update='''        new_rate, _ = sess.run([self.new_rate, self.update_op], {self.val_loss: val_loss})
        return new_rate''')),
    # The rule in Python, the rate pushed into the variable by an assign op built once: no op growth,
    # the variable holds the rate, but the best loss and the count survive a fresh session.
    Mutant("auto_best_loss_in_python", "auto_decay", "state-in-python", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False)
                self.new_rate = tf1.placeholder(tf.float32, [])
                self.set_rate = self.learning_rate.assign(self.new_rate)
                self.factor, self.patience = factor, patience
                self.best, self.bad = np.inf, 0

            def update(self, sess, val_loss):
                rate = float(sess.run(self.learning_rate))
                if val_loss < self.best:
                    self.best, self.bad = val_loss, 0
                else:
                    self.bad += 1
                if self.bad >= self.patience:
                    rate, self.bad = rate * self.factor, 0
                return float(sess.run(self.set_rate, {self.new_rate: rate}))
        '''),
    # Its own session, initialised in __init__: right rates, but the caller's variables never move.
    Mutant("auto_opens_its_own_session", "auto_decay", "own-session", "auto_decay_solution",
           _auto(update='''        new_rate, _ = self.sess.run([self.new_rate, self.update_op], {self.val_loss: val_loss})
        return float(new_rate)''').replace(
               "                                  self.bad.assign(tf.where(cut, 0, bad)))",
               "                                  self.bad.assign(tf.where(cut, 0, bad)))\n"
               "        self.sess = tf1.Session()\n"
               "        self.sess.run(tf1.variables_initializer([self.learning_rate, self.best, self.bad]))")),
]

_EXP = '''
def np_exponential_family(kind, learning_rate, steps, decay_steps, decay_rate, staircase=STAIRCASE):
    p = np.asarray(steps, dtype=np.float64) / decay_steps
    if staircase:
        p = np.floor(p)
    if kind == "exponential":
        return learning_rate * decay_rate ** p
    if kind == "natural_exp":
        return learning_rate * np.exp(-decay_rate * p)
    if kind == "inverse_time":
        return learning_rate / (1.0 + decay_rate * p)
    UNKNOWN
'''
MUTANTS += [
    Mutant("exponential_unknown_kind_returns_none", "exponential_family", "unknown-kind",
           "exponential_family_solution",
           _EXP.replace("STAIRCASE", "False").replace("UNKNOWN", "return None")),
    Mutant("exponential_staircase_on_by_default", "exponential_family", "default-arguments",
           "exponential_family_solution",
           _EXP.replace("STAIRCASE", "True").replace("UNKNOWN", "raise ValueError(kind)")),
    Mutant("piecewise_refuses_only_short_values", "piecewise", "length-check", "piecewise_solution", '''
        def np_piecewise_constant(steps, boundaries, values):
            if len(values) < len(boundaries) + 1:
                raise ValueError("values needs one more entry than boundaries")
            interval = np.searchsorted(np.asarray(boundaries), np.asarray(steps), side="left")
            return np.asarray(values, dtype=np.float64)[interval]
        '''),
    # Walks the boundaries once, as if the steps always came in increasing order.
    Mutant("piecewise_assumes_sorted_steps", "piecewise", "steps-any-order", "piecewise_solution", '''
        def np_piecewise_constant(steps, boundaries, values):
            if len(values) != len(boundaries) + 1:
                raise ValueError("values needs one more entry than boundaries")
            rates, i = [], 0
            for step in steps:
                while i < len(boundaries) and step > boundaries[i]:
                    i += 1
                rates.append(values[i])
            return np.array(rates, dtype=np.float64)
        '''),
    Mutant("polynomial_default_end_zero", "polynomial", "default-arguments", "polynomial_solution", '''
        def np_polynomial_decay(learning_rate, steps, decay_steps, end_learning_rate=0.0, power=1.0, cycle=False):
            step = np.asarray(steps, dtype=np.float64)
            if cycle:
                horizon = decay_steps * np.where(step == 0, 1.0, np.ceil(step / decay_steps))
            else:
                step = np.minimum(step, decay_steps)
                horizon = decay_steps
            return (learning_rate - end_learning_rate) * (1 - step / horizon) ** power + end_learning_rate
        '''),
    Mutant("cosine_unknown_kind_is_cosine", "cosine_family", "unknown-kind", "cosine_family_solution",
           _cos(cosine=_COSINE.replace('if kind == "cosine":', "if True:"))),
    Mutant("cosine_default_t_mul_one", "cosine_family", "default-arguments", "cosine_family_solution",
           _cos(t_mul="1.0")),
]
