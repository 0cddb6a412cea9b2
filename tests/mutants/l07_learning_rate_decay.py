"""Mutants of lesson 7: each is a misconception the lesson names."""
from tests.mutants import Mutant, edited_solution

edited = edited_solution(__name__)

_RESTARTS_PERIOD = """if t_mul == 1.0:
            i = np.floor(p)
            fraction = p - i
        else:
            i = np.floor(np.log(1 - p * (1 - t_mul)) / np.log(t_mul))
            fraction = (p - (1 - t_mul ** i) / (1 - t_mul)) / t_mul ** i"""
_UPDATE = "new_rate, _ = sess.run([self.new_rate, self.update_op], {self.val_loss: val_loss})"

MUTANTS = [
    edited("cosine_no_clamp", "cosine_family", "cosine-clamp",
           ("fraction = np.minimum(step, decay_steps) / decay_steps", "fraction = step / decay_steps")),
    edited("restarts_ignore_t_mul", "cosine_family", "restart-period",
           (_RESTARTS_PERIOD, "i = np.floor(p)\n        fraction = p - i")),
    edited("restarts_ignore_m_mul", "cosine_family", "restart-height", ("0.5 * m_mul ** i *", "0.5 *")),
    edited("staircase_floors_the_step", "exponential_family", "staircase-floor",
           ("""p = np.asarray(steps, dtype=np.float64) / decay_steps
    if staircase:
        p = np.floor(p)""", """step = np.asarray(steps, dtype=np.float64)
    if staircase:
        step = np.floor(step)
    p = step / decay_steps""")),
    edited("natural_exp_as_exponential", "exponential_family", "natural-exp-base",
           ('if kind == "exponential":', 'if kind in ("exponential", "natural_exp"):'),
           ('if kind == "natural_exp":', None), ("return learning_rate * np.exp(-decay_rate * p)", None)),
    edited("inverse_time_geometric", "exponential_family", "inverse-time",
           ("/ (1.0 + decay_rate * p)", "/ (1.0 + decay_rate) ** p")),
    edited("piecewise_boundary_starts_new_value", "piecewise", "boundary-inclusive", ('side="left"', 'side="right"')),
    edited("piecewise_no_length_check", "piecewise", "length-check",
           ("if len(values) != len(boundaries) + 1:", None), ("raise ValueError(", None)),
    edited("polynomial_power_inside", "polynomial", "power-curve",
           ("(1 - step / horizon) ** power", "(1 - (step / horizon) ** power)")),
    edited("polynomial_no_clamp", "polynomial", "clamp-at-end", ("step = np.minimum(step, decay_steps)", None)),
    edited("polynomial_cycle_modulo", "polynomial", "cycle-ceil",
           ("""multiplier = np.where(step == 0, 1.0, np.ceil(step / decay_steps))
        horizon = decay_steps * multiplier""", """step = step % decay_steps
        horizon = decay_steps""")),
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
    edited("auto_keeps_counting_after_cut", "auto_decay", "patience-reset",
           ("self.bad.assign(tf.where(cut, 0, bad))", "self.bad.assign(bad)")),
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

# AutoDecay with one piece swapped for a misconception (hostile answers that used to pass).
MUTANTS += [
    edited("auto_tie_counts_as_improvement", "auto_decay", "tie-not-improvement",
           ("self.val_loss < best", "self.val_loss <= best")),
    edited("auto_patience_off_by_one", "auto_decay", "patience-count", ("bad >= patience", "bad > patience")),
    edited("auto_cuts_by_one_minus_factor", "auto_decay", "cut-by-factor", ("rate * factor", "rate * (1 - factor)")),
    edited("auto_float64_rate", "auto_decay", "rate-float32-variable",
           ("Variable(initial_rate, dtype=tf.float32", "Variable(initial_rate, dtype=tf.float64")),
    edited("auto_runs_on_default_session", "auto_decay", "default-session",
           (_UPDATE, """new_rate = self.new_rate.eval({self.val_loss: val_loss})
        tf1.get_default_session().run(self.update_op, {self.val_loss: val_loss})""")),
    edited("auto_returns_rate_before_update", "auto_decay", "rate-not-in-graph",
           (_UPDATE + "\n        return float(new_rate)", """rate = sess.run(self.learning_rate)
        sess.run(self.update_op, {self.val_loss: val_loss})
        return float(rate)""")),
    edited("auto_returns_numpy_float32", "auto_decay", "returns-python-float", ("return float(new_rate)", "return new_rate")),
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
    # The rule in Python, the rate written with Variable.load (a run of the initializer fed the new
    # rate), and the Python rate returned: an expert reviewer's answer that was named rate-not-in-graph.
    Mutant("auto_rule_in_python_loaded", "auto_decay", "state-in-python", "auto_decay_solution", '''
        class AutoDecay:
            def __init__(self, initial_rate, factor, patience):
                self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False)
                self.rate, self.factor, self.patience, self.best, self.bad = initial_rate, factor, patience, np.inf, 0

            def update(self, sess, val_loss):
                if val_loss < self.best:
                    self.best, self.bad = val_loss, 0
                else:
                    self.bad += 1
                    if self.bad >= self.patience:
                        self.rate *= self.factor
                        self.bad = 0
                        self.learning_rate.load(self.rate, sess)
                return float(self.rate)
        '''),
    # Its own session, initialised in __init__: right rates, but the caller's variables never move.
    edited("auto_opens_its_own_session", "auto_decay", "own-session",
           ("self.bad.assign(tf.where(cut, 0, bad)))", """self.bad.assign(tf.where(cut, 0, bad)))
        self.sess = tf1.Session()
        self.sess.run(tf1.variables_initializer([self.learning_rate, self.best, self.bad]))"""),
           ("new_rate, _ = sess.run(", "new_rate, _ = self.sess.run(")),
]

MUTANTS += [
    edited("exponential_unknown_kind_returns_none", "exponential_family", "unknown-kind",
           ('raise ValueError(f"unknown kind {kind!r}")', "return None")),
    edited("exponential_staircase_on_by_default", "exponential_family", "default-arguments",
           ("staircase=False", "staircase=True")),
    edited("piecewise_refuses_only_short_values", "piecewise", "length-check", ("len(values) != len", "len(values) < len")),
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
    edited("polynomial_default_end_zero", "polynomial", "default-arguments",
           ("end_learning_rate=0.0001", "end_learning_rate=0.0")),
    # The cosine formula for every kind but the two others: an unknown kind is taken for "cosine".
    edited("cosine_unknown_kind_is_cosine", "cosine_family", "unknown-kind",
           ('if kind == "cosine":', 'if kind not in ("restarts", "linear_cosine"):')),
    edited("cosine_default_t_mul_one", "cosine_family", "default-arguments", ("t_mul=2.0", "t_mul=1.0")),
]

# Issue 25: answers that fit the public case and break in a situation the notebook's text covers.
MUTANTS += [
    edited("exponential_staircase_rounds", "exponential_family", "staircase-floor", ("p = np.floor(p)", "p = np.round(p)")),
    edited("piecewise_last_value_unreachable", "piecewise", "interval-values",
           ('interval = np.searchsorted(np.asarray(boundaries), np.asarray(steps), side="left")',
            'interval = np.minimum(np.searchsorted(np.asarray(boundaries), np.asarray(steps), side="left"),\n'
            '                          len(boundaries) - 1)')),
    edited("polynomial_cycle_at_step_zero", "polynomial", "cycle-step-zero",
           ("multiplier = np.where(step == 0, 1.0, np.ceil(step / decay_steps))", "multiplier = np.ceil(step / decay_steps)")),
    edited("linear_cosine_no_clamp", "cosine_family", "linear-cosine", ("        step = np.minimum(step, decay_steps)\n", "")),
    edited("auto_count_never_reset_on_improvement", "auto_decay", "count-kept-after-improvement",
           ("bad = tf.where(improved, 0, bad + 1)", "bad = tf.where(improved, bad, bad + 1)")),
    edited("auto_reads_rate_in_the_update_run", "auto_decay", "unordered-run",
           (_UPDATE, "new_rate, _ = sess.run([self.learning_rate, self.update_op], {self.val_loss: val_loss})")),
]

# Issue 34: an index off by one on the restart steps alone (the end of the old period, not the start of
# the new one) passed every restart check, whose tolerance took either side of every restart.
MUTANTS += [
    Mutant("restarts_walk_ends_the_old_period", "cosine_family", "restart-period", "cosine_family_solution", '''
        def np_cosine_family(kind, learning_rate, steps, decay_steps, alpha=0.0, t_mul=2.0, m_mul=1.0,
                             num_periods=0.5, beta=0.001):
            step = np.asarray(steps, dtype=np.float64)
            if kind == "cosine":
                cosine = 0.5 * (1 + np.cos(np.pi * np.minimum(step, decay_steps) / decay_steps))
                return learning_rate * ((1 - alpha) * cosine + alpha)
            if kind == "restarts":
                rates = []
                for s in step:
                    start, length, height = 0.0, float(decay_steps), 1.0
                    while s > start + length:   # a step on a restart stays in the old period
                        start, length, height = start + length, length * t_mul, height * m_mul
                    rates.append(0.5 * height * (1 + np.cos(np.pi * (s - start) / length)))
                return learning_rate * ((1 - alpha) * np.array(rates) + alpha)
            if kind == "linear_cosine":
                s = np.minimum(step, decay_steps)
                cosine = 0.5 * (1 + np.cos(np.pi * 2 * num_periods * s / decay_steps))
                return learning_rate * ((alpha + (decay_steps - s) / decay_steps) * cosine + beta)
            raise ValueError(kind)
        '''),
]

# Review of lesson 7: a variable used directly in several ops is read several times, and the reads that
# do not feed its assign race it (the comparison may meet the new best loss); restarts with the
# logarithm alone divide by log(1) = 0 when t_mul == 1.
MUTANTS += [
    edited("auto_reads_each_variable_several_times", "auto_decay", "unordered-reads",
           ("rate, best, bad = self.learning_rate.read_value(), self.best.read_value(), self.bad.read_value()",
            "rate, best, bad = self.learning_rate, self.best, self.bad")),
    edited("restarts_forget_t_mul_one", "cosine_family", "restart-t-mul-one",
           (_RESTARTS_PERIOD, """i = np.floor(np.log(1 - p * (1 - t_mul)) / np.log(t_mul))
        fraction = (p - (1 - t_mul ** i) / (1 - t_mul)) / t_mul ** i""")),
]

# The public case sees both: the race is in the graph's structure, and it runs t_mul == 1.
PUBLIC = {"auto_reads_each_variable_several_times", "restarts_forget_t_mul_one"}

# Review revG (issue 35): answers the old public case (decay_rate, factor, m_mul 0.5; t_mul 2; patience 2)
# could not tell from the right one, and a cut that does not compound, which every decrease hid.
MUTANTS += [
    edited("exponential_one_minus_decay_rate", "exponential_family", "exponential-formula",
           ("return learning_rate * decay_rate ** p", "return learning_rate * (1 - decay_rate) ** p")),
    edited("restarts_assume_t_mul_two", "cosine_family", "restart-period",
           (_RESTARTS_PERIOD, "i = np.floor(np.log2(1 + p))\n        fraction = (p - (2 ** i - 1)) / 2 ** i")),
    edited("restarts_one_minus_m_mul", "cosine_family", "restart-height", ("0.5 * m_mul ** i *", "0.5 * (1 - m_mul) ** i *")),
    edited("auto_patience_two", "auto_decay", "patience-count", ("bad >= patience", "bad >= 2")),
    edited("auto_cuts_to_initial_times_factor", "auto_decay", "cut-by-factor", ("rate * factor", "initial_rate * factor")),
]
PUBLIC |= {"exponential_one_minus_decay_rate", "restarts_assume_t_mul_two", "restarts_one_minus_m_mul",
           "auto_patience_two", "auto_cuts_to_initial_times_factor", "auto_cuts_by_one_minus_factor"}

PUBLIC |= {"restarts_walk_ends_the_old_period"}

# Review revJ (issue 35): a cut that also sets the best loss to the loss at the cut passed every public script,
# whose losses after a cut never dipped below it without a new best.
MUTANTS += [
    edited("auto_best_reset_at_cut", "auto_decay", "best-reset-at-cut",
           ("self.best.assign(tf.minimum(best, self.val_loss))",
            "self.best.assign(tf.where(cut, self.val_loss, tf.minimum(best, self.val_loss)))")),
]
PUBLIC |= {"auto_best_reset_at_cut"}

# Review revJ (issue 35), feedback that named another mistake: natural_exp floored even with staircase=False
# was told about the exponent's base; one cut per plateau (the count never reset, a cut only when it equals
# patience) was named cut-by-factor on the hidden cases, patience-reset in public.
MUTANTS += [
    edited("natural_exp_always_staircased", "exponential_family", "staircase-when-asked",
           ("return learning_rate * np.exp(-decay_rate * p)", "return learning_rate * np.exp(-decay_rate * np.floor(p))")),
    edited("auto_one_cut_per_plateau", "auto_decay", "patience-reset",
           ("cut = bad >= patience", "cut = tf.equal(bad, patience)"),
           ("self.bad.assign(tf.where(cut, 0, bad))", "self.bad.assign(bad)")),
]
PUBLIC |= {"natural_exp_always_staircased", "auto_one_cut_per_plateau", "polynomial_cycle_at_step_zero"}
