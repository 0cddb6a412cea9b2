"""Lesson 7's probes (learning-rate decay, with plots): what runs in the student's kernel.

Each probe builds its inputs in a fresh graph, calls the student's function and returns plain
values; the checks that judge them are in `autograder.course.lessons.l07_learning_rate_decay`.
"""
from __future__ import annotations

import numpy as np

from autograder.inkernel.probing import FinalizedGraphGuard

RTOL, ATOL = 1e-4, 1e-7  # TensorFlow computes in float32; NumPy answers are usually float64


def _numpy_only(fn, *args, **kwargs):
    """Call a student's NumPy schedule inside a finalized graph: building any TF op raises."""
    import tensorflow as tf

    with tf.Graph().as_default() as graph:
        graph.finalize()
        with FinalizedGraphGuard() as guard:
            out = fn(*args, **kwargs)
        if guard.tripped:
            raise RuntimeError("your function built TensorFlow ops; compute the schedule with NumPy only")
    return np.asarray(out, dtype=np.float64)


def _raised(fn, *args, **kwargs):
    """The name of the exception `_numpy_only(fn, ...)` raises, or None when it returns."""
    try:
        _numpy_only(fn, *args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - which exception is the observation
        return type(exc).__name__
    return None


def _sig(values, digits=7):
    """Round to `digits` significant digits, so reports read 0.05, not 0.05000000074505806."""
    a = np.asarray(values, dtype=np.float64)
    return np.array([float(f"{v:.{digits}g}") for v in a.ravel()]).reshape(a.shape)


NO_DIFFERENCE = "no difference"


def first_difference(steps, mine, theirs, label=""):
    """Where the student's values first leave TensorFlow's, in words (NO_DIFFERENCE when they never do:
    shown beside a difference as its expected value, it reads "expected no difference")."""
    mine, theirs = np.asarray(mine, np.float64), np.asarray(theirs, np.float64)
    if mine.shape != theirs.shape:
        return f"{label}your function returned shape {mine.shape} for {len(theirs)} steps"
    bad = ~np.isclose(mine, theirs, rtol=RTOL, atol=ATOL)
    if not bad.any():
        return NO_DIFFERENCE
    i = int(np.argmax(bad))
    return f"{label}step {int(steps[i])}: yours {mine[i]:.6g}, TensorFlow {theirs[i]:.6g}"


def _annotate(obs, key, steps, labels=None):
    """Round `key` and `tf_<key>`, and add `<key>_first_difference` (per label for per-power lists)."""
    if labels is None:
        obs[key], obs["tf_" + key] = _sig(obs[key]), _sig(obs["tf_" + key])
        obs[key + "_first_difference"] = first_difference(steps, obs[key], obs["tf_" + key])
        return
    obs[key] = [_sig(v) for v in obs[key]]
    obs["tf_" + key] = [_sig(v) for v in obs["tf_" + key]]
    found = [first_difference(steps, m, t, label) for m, t, label in zip(obs[key], obs["tf_" + key], labels)]
    obs[key + "_first_difference"] = next((f for f in found if f != NO_DIFFERENCE), NO_DIFFERENCE)


def _tf_run(build, steps):
    """Evaluate `build(global_step)` (a dict of tensors) at every step in one session run."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        step = tf.constant(np.asarray(steps, np.int64), name="global_step")
        fetches = build(step)
        with tf1.Session() as sess:
            return sess.run(fetches)


# ---------------------------------------------------------------- exponential family
FAMILY = ("exponential", "natural_exp", "inverse_time")


def probe_exponential_family(fn, learning_rate, decay_steps, decay_rate, steps):
    """Every kind, smooth and staircase, from the student and from tf.compat.v1.train."""
    import tensorflow as tf

    train = tf.compat.v1.train
    twins = {"exponential": train.exponential_decay, "natural_exp": train.natural_exp_decay,
             "inverse_time": train.inverse_time_decay}
    keys = [(kind, stair, kind + ("_staircase" if stair else "")) for kind in FAMILY for stair in (False, True)]
    tf_values = _tf_run(lambda step: {key: twins[kind](learning_rate, step, decay_steps, decay_rate,
                                                       staircase=stair)
                                      for kind, stair, key in keys}, steps)
    obs = {"steps": list(steps)}
    array = np.asarray(steps, np.int64)
    for kind, stair, key in keys:
        obs[key] = _numpy_only(fn, kind, learning_rate, array, decay_steps, decay_rate, staircase=stair)
        obs["tf_" + key] = tf_values[key]
        _annotate(obs, key, steps)
    # staircase left at its default: each kind's smooth curve
    obs["defaults"] = [_numpy_only(fn, kind, learning_rate, array, decay_steps, decay_rate) for kind in FAMILY]
    obs["tf_defaults"] = [tf_values[kind] for kind in FAMILY]
    _annotate(obs, "defaults", steps, [f"{kind}, staircase left out, " for kind in FAMILY])
    obs["unknown_kind_error"] = _raised(fn, "linear", learning_rate, array, decay_steps, decay_rate)
    return obs


# ---------------------------------------------------------------- piecewise constant
def probe_piecewise(fn, boundaries, values, steps):
    """Values at steps on a boundary and between, and what a values list one too short does."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    steps = np.asarray(steps, np.int64)
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.int64, [], name="global_step")
        rate = tf1.train.piecewise_constant(x, list(boundaries), list(values))  # tf.case: scalar steps only
        try:
            tf1.train.piecewise_constant(x, list(boundaries), list(values)[:-1])
            tf_error = None
        except Exception as exc:  # noqa: BLE001 - we record which exception TensorFlow raises
            tf_error = type(exc).__name__
        with tf1.Session() as sess:
            tf_values = np.array([sess.run(rate, {x: s}) for s in steps], np.float64)
        try:
            tf1.train.piecewise_constant(x, list(boundaries), list(values) + [values[-1]])
            tf_long_error = None
        except Exception as exc:  # noqa: BLE001
            tf_long_error = type(exc).__name__
    mine = _numpy_only(fn, steps, list(boundaries), list(values))
    error = _raised(fn, steps, list(boundaries), list(values)[:-1])
    long_error = _raised(fn, steps, list(boundaries), list(values) + [values[-1]])
    if mine.shape != steps.shape:
        raise ValueError(f"your function returned shape {mine.shape} for {len(steps)} steps")
    backwards = _numpy_only(fn, steps[::-1].copy(), list(boundaries), list(values))
    on = np.isin(steps, np.asarray(boundaries))
    obs = {"steps_on_boundaries": steps[on], "on_boundaries": mine[on], "tf_on_boundaries": tf_values[on],
           "steps_between": steps[~on], "between": mine[~on], "tf_between": tf_values[~on],
           "short_values_error": error, "tf_short_values_error": tf_error,
           "long_values_error": long_error, "tf_long_values_error": tf_long_error,
           "forwards": mine, "backwards": backwards}  # compared outside the kernel
    _annotate(obs, "on_boundaries", steps[on])
    _annotate(obs, "between", steps[~on])
    return obs


# ---------------------------------------------------------------- polynomial
def probe_polynomial(fn, learning_rate, decay_steps, end_learning_rate, powers, steps):
    """Each power without cycle (split at decay_steps) and with cycle."""
    import tensorflow as tf

    train = tf.compat.v1.train
    steps = np.asarray(steps, np.int64)
    tf_values = _tf_run(lambda step: {**{(p, c): train.polynomial_decay(learning_rate, step, decay_steps,
                                                                         end_learning_rate, power=p, cycle=c)
                                         for p in powers for c in (False, True)},
                                      "defaults": train.polynomial_decay(learning_rate, step, decay_steps)},
                        steps)
    within = steps <= decay_steps
    labels = [f"power {p:g}, " for p in powers]
    plain = [_numpy_only(fn, learning_rate, steps, decay_steps, end_learning_rate, power=p, cycle=False)
             for p in powers]
    cycled = [_numpy_only(fn, learning_rate, steps, decay_steps, end_learning_rate, power=p, cycle=True)
              for p in powers]
    if any(v.shape != steps.shape for v in plain + cycled):
        raise ValueError(f"your function must return one rate per step ({len(steps)} steps)")
    obs = {"powers": list(powers), "steps": steps,
           "within": [v[within] for v in plain], "tf_within": [tf_values[(p, False)][within] for p in powers],
           "beyond": [v[~within] for v in plain], "tf_beyond": [tf_values[(p, False)][~within] for p in powers],
           "cycle": cycled, "tf_cycle": [tf_values[(p, True)] for p in powers]}
    _annotate(obs, "within", steps[within], labels)
    _annotate(obs, "beyond", steps[~within], labels)
    _annotate(obs, "cycle", steps, labels)
    # end_learning_rate, power and cycle left at their defaults
    obs["defaults"] = _numpy_only(fn, learning_rate, steps, decay_steps)
    obs["tf_defaults"] = tf_values["defaults"]
    _annotate(obs, "defaults", steps)
    return obs


# ---------------------------------------------------------------- cosine family
def probe_cosine_family(fn, learning_rate, decay_steps, alpha, t_mul, m_mul, num_periods, beta, steps):
    """cosine; restarts with only t_mul, only m_mul, and both; linear_cosine."""
    import tensorflow as tf

    train = tf.compat.v1.train
    steps = np.asarray(steps, np.int64)
    restarts = restart_kinds(t_mul, m_mul)

    def build(step):
        out = {"cosine": train.cosine_decay(learning_rate, step, decay_steps, alpha=alpha),
               "linear_cosine": train.linear_cosine_decay(learning_rate, step, decay_steps,
                                                          num_periods=num_periods, alpha=alpha, beta=beta)}
        for key, (t, m) in restarts.items():
            out[key] = train.cosine_decay_restarts(learning_rate, step, decay_steps, t_mul=t, m_mul=m,
                                                   alpha=alpha)
        out["defaults"] = [train.cosine_decay(learning_rate, step, decay_steps),
                           train.cosine_decay_restarts(learning_rate, step, decay_steps),
                           train.linear_cosine_decay(learning_rate, step, decay_steps)]
        return out

    tf_values = _tf_run(build, steps)
    obs = {"steps": steps,
           "cosine": _numpy_only(fn, "cosine", learning_rate, steps, decay_steps, alpha=alpha),
           "linear_cosine": _numpy_only(fn, "linear_cosine", learning_rate, steps, decay_steps, alpha=alpha,
                                        num_periods=num_periods, beta=beta)}
    for key, (t, m) in restarts.items():  # either side of a restart is judged outside the kernel
        obs[key] = _numpy_only(fn, "restarts", learning_rate, steps, decay_steps, alpha=alpha, t_mul=t, m_mul=m)
    # alpha, t_mul, m_mul, num_periods and beta left at their defaults
    obs["defaults"] = [_numpy_only(fn, kind, learning_rate, steps, decay_steps) for kind in COSINES]
    obs.update({"tf_" + key: value for key, value in tf_values.items()})
    for key in tf_values:
        _annotate(obs, key, steps, [f"{kind}, defaults, " for kind in COSINES] if key == "defaults" else None)
    obs["unknown_kind_error"] = _raised(fn, "exponential", learning_rate, steps, decay_steps)
    return obs


COSINES = ("cosine", "restarts", "linear_cosine")


def restart_kinds(t_mul, m_mul):
    """The restarts the probe runs, by observation key: with only t_mul, only m_mul, and both."""
    return {"restarts_t": (t_mul, 1.0), "restarts_m": (1.0, m_mul), "restarts": (t_mul, m_mul)}


def either_side_of_restarts(mine, theirs, steps, learning_rate, decay_steps, alpha, t_mul, m_mul):
    """`mine`, where a step lands exactly on a warm restart, taken as right if it is either side of it.
    The grader calls it outside the kernel, on the values the probe handed out (`theirs`: TensorFlow's).

    There floor(log(...) / log(t_mul)) sits exactly on an integer, so the period index depends on how
    the last bit rounds: log1p(p * (t_mul - 1)) where the text writes log(1 - p * (1 - t_mul)), float32
    against float64, or another libm. Either the end of the previous period (learning_rate * alpha) or
    the start of the next (learning_rate * ((1 - alpha) * m_mul**i + alpha)) is then accepted as
    TensorFlow's value; the steps beside each restart still tell a wrong period from a right one.
    The end of the previous period is accepted only where one of those ways of computing the index
    does round below it (`_restart_index_may_round_down`): elsewhere a step on a restart begins the
    new period, and an index off by one there is its own failure.
    """
    from fractions import Fraction

    mine = np.array(mine, dtype=np.float64)
    if mine.shape != np.shape(theirs):
        return mine
    # t_mul as written (1.3 is 13/10), not its binary value (a hair above 1.3): a restart the decimals put
    # on a whole step is one where float32 and float64 may land either side.
    ratio, start, length, i, starts = Fraction(str(t_mul)), Fraction(0), Fraction(str(decay_steps)), 0, {}
    last = int(np.max(steps)) if len(steps) else 0
    while start + length <= last and i < 64:
        start, length, i = start + length, length * ratio, i + 1
        starts[start] = i
    for k, step in enumerate(steps):
        i = starts.get(Fraction(int(step)))
        if i is None:
            continue
        sides = [learning_rate * ((1 - alpha) * m_mul ** i + alpha), theirs[k]]
        if _restart_index_may_round_down(step, decay_steps, t_mul, i):
            sides.append(learning_rate * alpha)   # the end of the previous period
        if any(np.isclose(mine[k], side, rtol=RTOL, atol=ATOL) for side in sides):
            mine[k] = theirs[k]
    return mine


def _restart_index_may_round_down(step, decay_steps, t_mul, i):
    """Whether an honest computation of the period index at the restart `step` gives i - 1: the text's
    log(1 - p * (1 - t_mul)) / log(t_mul) or log1p(p * (t_mul - 1)) / log(t_mul), with p, 1 - t_mul and
    the logarithms each in float64 or float32 (TensorFlow's, or NumPy's with a float32 step), or
    walking the periods (start += length; length *= t_mul) in float64 or float32."""
    if t_mul == 1:  # equal periods: no logarithm to round
        return False
    f32, f64 = np.float32, np.float64
    with np.errstate(all="ignore"):
        ps = (f64(step) / f64(decay_steps), f32(step) / f32(decay_steps))
        gaps = (f64(1 - t_mul), f32(1 - t_mul), f32(1) - f32(t_mul))       # 1 - t_mul
        logs_t = (np.log(f64(t_mul)), np.log(f32(t_mul)))
        for p in ps:
            for gap in gaps:
                inner = (p.dtype.type(1) - p * p.dtype.type(gap), np.log1p(-p * p.dtype.type(gap)))
                for value in (np.log(inner[0]), inner[1]):
                    if any(np.floor(value / log_t) < i for log_t in logs_t):
                        return True
        for dtype in (f64, f32):
            start, length = dtype(0), dtype(decay_steps)
            for _ in range(i):
                start, length = start + length, length * dtype(t_mul)
            if dtype(step) < start:
                return True
    return False


class _DefaultSessionUsed(Exception):
    """Raised by the decoy default session: update() ran something without the session it was given."""


def probe_auto_decay(cls, initial_rate, factor, patience, scripts):
    """One AutoDecay per scripted run of validation losses, all in one graph (each built in a variable
    scope of its own, so names given to tf1.get_variable do not collide), finalized after building.

    Each script is fed through update() with an explicit session while a decoy session (which refuses
    to run anything) is the default one; after each update the rate variable is read. Then a second
    session re-initialises the variables and replays every script. The losses are markers
    (`autograder.course.markers`): every run from __init__ on is handed out (`history`) with the run
    that returned each rate (`answered_by`), the runs of each update() (`update_runs`), the probe's
    own runs (`init_runs`, `variable_runs`) and the ops the graph held when finalized, for the grader
    to re-run on the hidden losses outside the kernel. What the kernel counts (ops added, sessions
    made, the default session used, racing fetches) stays as a first alarm.
    """
    import tensorflow as tf

    from autograder.inkernel.probing import RacingRuns, RunsRecorded, dtype_name, export_collections, sessions_made

    tf1 = tf.compat.v1

    from tensorflow.python.framework import stack

    class Decoy:
        """Stands as the default session; running anything in it is the mistake being looked for."""

        def __init__(self, graph):
            self.graph, self.graph_def, self.sess_str = graph, None, ""

        def run(self, *args, **kwargs):
            raise _DefaultSessionUsed()

        def as_default(self):
            return stack.default_session(self)

    obs = {"modified_finalized_graph": False, "used_default_session": False,
           "init_runs": [], "variable_runs": {name: [] for name in scripts}}
    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        with sessions_made() as made, _control_flow_v1():
            autos = {}
            for name in scripts:  # each in a variable scope of its own: tf1.get_variable("rate", ...) is fine
                with tf1.variable_scope(f"auto_decay_{name}"):
                    autos[name] = cls(initial_rate, factor, patience)
        rate_vars = {name: auto.learning_rate for name, auto in autos.items()}
        # read outside the kernel: the trainable collection, and whether each rate's op is a variable op
        obs["meta_graph"] = export_collections(graph, ["trainable_variables"])
        obs["rate_ops"] = [getattr(getattr(v, "op", None), "name", None) for v in rate_vars.values()]
        init = tf1.global_variables_initializer()
        graph.finalize()
        ops_before = len(graph.get_operations())
        obs["finalized_ops"], obs["later_runs"] = ops_before, len(runs.calls)
        sessions = [tf1.Session(graph=graph), tf1.Session(graph=graph)]
        decoy = Decoy(graph=graph)
        racing = RacingRuns(watch_reads=True)  # made inside the recorder's block: it wraps the recorder's run
        try:
            for run, sess in zip(("", "replay_"), sessions):
                obs["init_runs"].append(len(runs.calls))
                sess.run(init)
                for name, losses in scripts.items():
                    kinds, guard, answered = set(), FinalizedGraphGuard(), len(runs.answered_by)
                    with guard, decoy.as_default(), made, racing:
                        try:
                            for loss in losses:
                                returned = []
                                runs.answered(lambda: returned.append(autos[name].update(sess, loss)) or returned[0])
                                kinds.add("float" if isinstance(returned[0], float) else dtype_name(returned[0]))
                                if not run:  # the replay only compares the rates
                                    obs["variable_runs"][name].append(len(runs.calls))
                                    sess.run(rate_vars[name])
                        except _DefaultSessionUsed:
                            obs["used_default_session"] = True
                    obs["modified_finalized_graph"] |= guard.tripped
                    obs[run + "updates_" + name] = len(runs.answered_by) - answered
                    if not run:
                        obs.setdefault("returned_types", set()).update(kinds)
        finally:
            for sess in sessions:
                sess.close()
        obs["returned_types"] = sorted(obs.get("returned_types", ()))
        obs["sessions_made"] = made.count
        obs["racing_runs"] = racing.count
        obs["racing_reads"] = racing.reads
        obs["op_growth"] = len(graph.get_operations()) - ops_before
        obs["answered_by"], obs["update_runs"], obs["history"] = runs.answered_by, runs.call_runs, runs.history()
    return obs


class _control_flow_v1:
    """`with _control_flow_v1():` builds tf.cond and tf.case as Switch and Merge ops, not as functions in
    the graph's library, so that the grader's worker re-runs them (it runs no function library)."""

    def __enter__(self):
        import tensorflow as tf

        self._was = tf.compat.v1.control_flow_v2_enabled()
        tf.compat.v1.disable_control_flow_v2()
        return self

    def __exit__(self, *exc_info):
        import tensorflow as tf

        if self._was:
            tf.compat.v1.enable_control_flow_v2()
        return False
