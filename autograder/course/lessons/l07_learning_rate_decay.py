"""Lesson 7: learning-rate decay, with plots (seed 004, second half).

The NumPy exercises are probed twice at the same steps: the student's function, called inside a
finalized empty graph (so it cannot lean on TensorFlow ops), and the real `tf.compat.v1.train`
function, run in a graph of its own. A check passes when the student's values agree with both
TensorFlow's and the reference solution's. The auto-decay exercise is graded on scripted losses that
the kernel sees as markers: its verdicts rest on the runs it made, re-run outside the kernel on the
hidden losses (`replay_auto_decay`), with what the kernel counted as a first alarm.
"""
from __future__ import annotations

import numpy as np

from autograder.course.compare import holds, same, values_match
from autograder.course.history import created_at, races, replay_history
from autograder.course.markers import mark
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probes.l07_learning_rate_decay import (
    ATOL,
    FAMILY,
    RTOL,
    either_side_of_restarts,
    first_difference,
    probe_auto_decay,
    probe_cosine_family,
    probe_exponential_family,
    probe_piecewise,
    probe_polynomial,
    restart_kinds,
)


def _safe(compare):
    """A malformed observation (wrong lengths, missing keys) fails the check instead of crashing the judge."""
    def guarded(got, expected):
        try:
            return bool(compare(got, expected))
        except (KeyError, IndexError, TypeError, ValueError):
            return False
    return guarded


def _agrees(*keys: str):
    """Each key: the student's values match TensorFlow's (`tf_<key>`, same probe) and the reference's."""
    def compare(got, expected):
        return all(k in got and values_match(got[k], got.get("tf_" + k), RTOL, ATOL)
                   and values_match(got[k], expected[k], RTOL, ATOL) for k in keys)
    return _safe(compare)


def _close(got, expected, key, index=None):
    """The student's values for `key` (item `index` of a per-power list) match TensorFlow's and the reference's."""
    def pick(obs, k):
        value = obs.get(k)
        return value if index is None or value is None else value[index]
    mine = pick(got, key)
    return (mine is not None and values_match(mine, pick(got, "tf_" + key), RTOL, ATOL)
            and values_match(mine, pick(expected, key), RTOL, ATOL))


@_safe
def _staircase_agrees(got, expected):
    """Each kind's staircase values are right wherever its smooth values are (a wrong formula is its own check)."""
    return all(_close(got, expected, kind + "_staircase") for kind in FAMILY if _close(got, expected, kind))


@_safe
def _smooth_unless_staircase(got, expected):
    """No kind's values with staircase=False are its staircase values where those differ from its smooth
    ones (a wrong formula is its own check)."""
    return not any(values_match(got[k], got["tf_" + k + "_staircase"], RTOL, ATOL)
                   and not values_match(got[k], got["tf_" + k], RTOL, ATOL) for k in FAMILY)


@_safe
def _cycle_agrees(got, expected):
    """Cycled values are right for every power whose plain curve is right (a wrong curve is its own check)."""
    return all(_close(got, expected, "cycle", i) for i in range(len(expected["powers"]))
               if _close(got, expected, "within", i))


def _finite(key):
    """Every value the student returned for `key` is a finite number (a malformed observation is left to
    the checks of the values themselves)."""
    def compare(got, expected):
        try:
            values = np.asarray(got[key], dtype=np.float64)
        except (KeyError, TypeError, ValueError):
            return True
        return bool(np.all(np.isfinite(values)))
    return compare


def _finite_at_step_zero(key):
    """Every value the student returned for `key` at step 0 is a finite number (per power for a per-power
    list; a malformed observation is left to the checks of the values themselves)."""
    def compare(got, expected):
        try:
            values = np.asarray(got[key], dtype=np.float64)
            return bool(np.all(np.isfinite(values[..., np.asarray(got["steps"]) == 0])))
        except (KeyError, IndexError, TypeError, ValueError):
            return True
    return compare


def judge_backwards(observation, inputs, run):
    """Whether the rates of the steps given in reverse order are the same rates reversed
    (`same_values_backwards`), judged outside the kernel from the two lists the probe handed out."""
    forwards = np.asarray(observation["forwards"], dtype=np.float64)
    backwards = np.asarray(observation["backwards"], dtype=np.float64)
    return {**{k: v for k, v in observation.items() if k not in ("forwards", "backwards")},
            "same_values_backwards": bool(backwards.shape == forwards.shape
                                          and np.allclose(backwards[::-1], forwards, rtol=RTOL, atol=ATOL))}


def judge_restarts(observation, inputs, run):
    """The restart values with a step that lands exactly on a warm restart taken as right on either
    side of it (`either_side_of_restarts`), decided outside the kernel on the case's own inputs; and
    whether the restarts with only t_mul sit at the floor past the first period
    (`zero_height_past_first_period`)."""
    done, steps = dict(observation), np.asarray(inputs["steps"], dtype=np.int64)
    for key, (t_mul, m_mul) in restart_kinds(inputs["t_mul"], inputs["m_mul"]).items():
        done[key] = either_side_of_restarts(observation[key], observation["tf_" + key], steps,
                                            inputs["learning_rate"], inputs["decay_steps"], inputs["alpha"],
                                            t_mul, m_mul).tolist()
        done[key + "_first_difference"] = first_difference(steps, done[key], observation["tf_" + key])
    done["zero_height_past_first_period"] = _flat_past_first_period(observation["restarts_t"], steps, inputs)
    return done


def _flat_past_first_period(rates, steps, inputs):
    """Whether every rate past the first period is the floor, learning_rate * alpha (a height of zero)."""
    later = steps >= inputs["decay_steps"]
    try:
        return bool(later.any() and np.allclose(np.asarray(rates, dtype=np.float64)[later],
                                                inputs["learning_rate"] * inputs["alpha"], rtol=RTOL, atol=ATOL))
    except (IndexError, TypeError, ValueError):
        return False


@_safe
def _period_agrees(got, expected):
    """The restarts with only t_mul (m_mul = 1) are right, unless every restart after the first period
    is flat at the floor: a height of (1 - m_mul)**i = 0 is restart-height's mistake, not a period's."""
    return got["zero_height_past_first_period"] or _close(got, expected, "restarts_t")


# ---------------------------------------------------------------- auto decay
SCRIPTS = ("rise", "zigzag", "plateau", "ties")


def _cuts(rates, initial_rate):
    """The evaluations (0-based) after which the rate is lower than before."""
    previous = [initial_rate] + list(rates[:-1])
    return [i for i, (old, new) in enumerate(zip(previous, rates)) if new < old * (1 - 1e-6)]


def _same_cuts(name, until_first_cut=False):
    """The rate is cut after the same evaluations of script `name` as the reference cuts it; with
    `until_first_cut`, only up to the reference's first cut (what happens at a cut is other checks')."""
    @_safe
    def compare(got, expected):
        mine, reference = got["rates_" + name], expected["rates_" + name]
        end = len(reference)
        if until_first_cut and _cuts(reference, expected["initial_rate"]):
            end = _cuts(reference, expected["initial_rate"])[0] + 1
        return (len(mine) == len(reference)
                and _cuts(mine[:end], got["initial_rate"]) == _cuts(reference[:end], expected["initial_rate"]))
    return compare


@_safe
def _cuts_by_factor(got, expected):
    """Every cut multiplies the rate in force by `factor`, in every script: each decrease the student's
    rates show is by `factor`; and rates that never fall below `initial_rate * factor` (no cut ever
    compounds) stay put at none of the reference's cuts that they meet as the reference's own, after a
    cut: a second cut to `initial_rate * factor` leaves the rate where it was. A cut made or missed at
    another time is a timing check's."""
    factor, initial = got["factor"], got["initial_rate"]

    def by_factor(new, old):
        return abs(new - old * factor) <= 1e-5 * abs(old * factor) + 1e-9

    compounds = any(r < initial * factor * (1 - 1e-6) for name in SCRIPTS for r in got["rates_" + name])
    for name in SCRIPTS:
        rates, reference = got["rates_" + name], expected["rates_" + name]
        previous = [initial] + rates[:-1]
        if not all(by_factor(rates[i], previous[i]) for i in _cuts(rates, initial)):
            return False
        if not compounds and any(i < len(rates) and _cuts(reference[:i], initial)
                                 and values_match(rates[:i], reference[:i], 1e-6, 1e-9)
                                 and not by_factor(rates[i], previous[i])
                                 for i in _cuts(reference, initial)):
            return False
    return True


AUTO_DECAY_MARKED = {"scripts": "lists"}


def _rate_variables(observation, run) -> dict:
    """Read outside the kernel from the MetaGraphDef handed out: the trainable collection, whether
    every learning_rate is a variable op of the graph, and the dtypes those variables hold."""
    answer = run({"collections": ["trainable_variables"], "meta_graph": observation["meta_graph"]})
    if "refused" in answer:
        raise ValueError(answer["refused"])
    held = [answer["dtypes"].get(name) for name in observation["rate_ops"]]
    return {"trainable": answer["collections"]["trainable_variables"],
            "rate_is_variable": None not in held, "rate_dtype": sorted({d for d in held if d})}


def replay_auto_decay(observation, inputs, run):
    """The rates on the hidden losses: every run the AutoDecay objects and the probe made in the kernel,
    on markers, re-run outside with the hidden losses in their place. Per script: the rates update()
    returned (`rates_<script>`), the learning_rate variable read after each (`variable_<script>`), and
    the rates of the second session (`replay_rates_<script>`). Read from the runs themselves: whether a
    run of update() was made in a session other than the one it was given (`foreign_session_runs`),
    was fed a number that is no loss (`fed_python_state`: the rule kept in Python, its result fed
    back), whether the calls made different runs (`uneven_calls`: the rule decided in Python which ops
    to run), or ran an op created after the graph was finalized (`ran_new_op`); and the dtype of the
    learning_rate variable's reads in the graph handed out (`read_dtypes`)."""
    swaps = mark(inputs, AUTO_DECAY_MARKED)[1]
    history = observation["history"]
    runs = history["runs"]
    values, refused = replay_history(history, swaps, run)
    if refused is not None:
        return {"error": {"type": "NotReplayable", "message": refused}}
    answers = iter(_scalar(None if where is None or values[where[0]] is None else values[where[0]][where[1]])
                   for where in observation["answered_by"])
    done = {"initial_rate": float(inputs["initial_rate"]), "factor": float(inputs["factor"])}
    for prefix in ("", "replay_"):
        for name in inputs["scripts"]:
            done[prefix + "rates_" + name] = [next(answers) for _ in range(observation[prefix + "updates_" + name])]
    reads = observation["variable_runs"]
    for name in inputs["scripts"]:
        done["variable_" + name] = [_scalar(None if values[i] is None else values[i][0]) for i in reads[name]]
    markers = [np.asarray(m) for m, _ in swaps]
    given = [runs[i]["session"] for i in observation["init_runs"]]
    updates = observation["update_runs"]
    first_pass = sum(observation["updates_" + name] for name in inputs["scripts"])
    update_sessions = [runs[i]["session"] for n, (start, end) in enumerate(updates) for i in range(start, end)
                       if runs[i]["session"] != given[0 if n < first_pass else -1]]
    fed = [np.asarray(value) for start, end in updates for i in range(start, end) for _, value in runs[i]["feeds"]]
    scripts = [name for prefix in ("", "replay_") for name in inputs["scripts"]
               for _ in range(observation[prefix + "updates_" + name])]
    made = {(script, tuple((tuple(runs[i]["fetches"]), tuple(sorted(name for name, _ in runs[i]["feeds"])))
                           for i in range(start, end))) for script, (start, end) in zip(scripts, updates)}
    read_runs = [i for name in inputs["scripts"] for i in reads[name]]
    described = [] if not read_runs else run({"graph": history["graphs"][runs[read_runs[0]]["graph"]],
                                              "describe": sorted({runs[i]["fetches"][0] for i in read_runs}),
                                              "runs": []}).get("described", {}).values()
    created = created_at(history, range(observation["later_runs"], len(runs)), run)
    updating = [i for start, end in updates for i in range(start, end)]
    kept = ("modified_finalized_graph", "used_default_session", "returned_types", "sessions_made", "op_growth")
    return {**{k: observation[k] for k in kept}, **done, **_rate_variables(observation, run),
            "racing_runs": observation["racing_runs"] + sum(r is not False for r in races(history, updating, run)),
            "racing_reads": observation["racing_reads"] + sum(
                r is not False for r in races(history, updating, run, reads=True)),
            "foreign_session_runs": len(update_sessions),
            "fed_python_state": any(v.size == 1 and v.dtype.kind in "fiub" and not any(v.reshape(()) == m
                                                                                       for m in markers)
                                    for v in fed),
            "uneven_calls": len(made) > len({script for script, _ in made}),
            "ran_new_op": any(i is not None and i >= observation["finalized_ops"] for i in created),
            "read_dtypes": sorted({(d or {}).get("dtype", "none") for d in described})}


def _scalar(value):
    """A replayed rate as a float rounded to 7 significant digits (float32's), or None."""
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return float(f"{float(array.reshape(-1)[0]):.7g}") if array.size == 1 else None


def _rate_in_variable(got):
    """After every update the learning_rate variable holds the rate update() returned."""
    return all(len(got["variable_" + n]) == len(got["rates_" + n]) and values_match(
        got["variable_" + n], got["rates_" + n], 1e-6, 1e-9) for n in SCRIPTS)


def _replays(got):
    """A fresh session, re-initialised, replays every script with the same rates."""
    return all(values_match(got["replay_rates_" + n], got["rates_" + n], 1e-6, 1e-9) for n in SCRIPTS)


STEPS_EXP = [0, 1, 5, 9, 10, 11, 19, 20, 25, 40, 63, 100]
STEPS_PIECE = [0, 5, 9, 10, 11, 20, 29, 30, 31, 50]
STEPS_POLY = [0, 1, 3, 5, 9, 10, 11, 15, 19, 20, 21, 29, 30, 35]
STEPS_COS = [0, 2, 5, 9, 10, 11, 15, 20, 29, 30, 31, 39, 40, 41, 45, 69, 70, 71, 100, 129, 130, 131]
# t_mul 3 puts every restart where some honest rounding gives the old period; with decay_steps 12 and
# t_mul 1.5 none gives it at step 57, the third restart, so an index off by one there fails in public.
STEPS_COS_57 = [0, 6, 11, 12, 13, 29, 30, 31, 45, 56, 57, 58, 80]

LESSON = Lesson(
    assignment="07_learning_rate_decay",
    notebook="learning_rate_decay.ipynb",
    exercises=(
        Exercise(
            id="exponential_family", symbol="np_exponential_family", points=3, probe=probe_exponential_family,
            checks=(
                Check("staircase-when-asked", "staircase=False gives each kind's smooth curve",
                      "With staircase=False your values of some kind are its staircase values: the exponent "
                      "p = step / decay_steps is floored even when staircase is False. Floor p only when "
                      "staircase is True; otherwise the rate falls a little at every step.",
                      _smooth_unless_staircase,
                      shows=("exponential_first_difference", "natural_exp_first_difference",
                             "inverse_time_first_difference")),
                Check("exponential-formula", "exponential: learning_rate * decay_rate ** (step / decay_steps)",
                      "exponential_decay multiplies the rate by decay_rate once every decay_steps steps: "
                      "learning_rate * decay_rate ** (step / decay_steps), with a fractional exponent between.",
                      _agrees("exponential"), shows=("exponential_first_difference",)),
                Check("staircase-floor", "staircase=True floors step / decay_steps",
                      "staircase=True floors the exponent p = step / decay_steps (np.floor of the ratio, not "
                      "of the step), so the rate stays flat for decay_steps steps and drops at each multiple. "
                      "It applies to all three kinds.",
                      _staircase_agrees,
                      shows=("exponential_staircase_first_difference", "natural_exp_staircase_first_difference",
                             "inverse_time_staircase_first_difference")),
                Check("natural-exp-base", "natural_exp: learning_rate * exp(-decay_rate * step / decay_steps)",
                      "natural_exp_decay is not exponential_decay: decay_rate is a rate in an exponent, "
                      "exp(-decay_rate * p), i.e. exponential decay with base exp(-decay_rate).",
                      _agrees("natural_exp"), shows=("natural_exp_first_difference",)),
                Check("inverse-time", "inverse_time: learning_rate / (1 + decay_rate * step / decay_steps)",
                      "inverse_time_decay divides by a line, 1 + decay_rate * p: the rate falls like 1/t, "
                      "not geometrically.", _agrees("inverse_time"), shows=("inverse_time_first_difference",)),
                Check("default-arguments", "staircase defaults to False",
                      "Called without staircase, each kind must give its smooth curve: keep the signature's "
                      "default, staircase=False.", _agrees("defaults"), shows=("defaults_first_difference",)),
                Check("unknown-kind", "raises ValueError for an unknown kind",
                      "A kind other than \"exponential\", \"natural_exp\" or \"inverse_time\" must raise "
                      "ValueError, not fall through and return None (or a curve of another kind).",
                      holds(lambda got: got["unknown_kind_error"] == "ValueError"), shows=("unknown_kind_error",)),
            ),
            cases=(Case("lr 0.1, decay_steps 10, decay_rate 0.6",
                        {"learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.6, "steps": STEPS_EXP}),),
        ),
        Exercise(
            id="piecewise", symbol="np_piecewise_constant", points=2, probe=probe_piecewise, replay=judge_backwards,
            checks=(
                Check("steps-any-order", "each step's rate depends on that step alone",
                      "The same steps given in reverse order must give the same rates, reversed: each "
                      "step's rate depends only on that step (look each one up, e.g. with np.searchsorted), "
                      "not on the steps before it in the array.",
                      holds(lambda got: got["same_values_backwards"]), shows=("same_values_backwards",)),
                Check("boundary-inclusive", "a step equal to a boundary keeps the earlier value",
                      "TensorFlow gives values[0] while step <= boundaries[0]: a boundary belongs to the "
                      "interval before it. The new value starts one step after the boundary.",
                      _agrees("on_boundaries"), shows=("on_boundaries_first_difference",)),
                Check("interval-values", "picks values[i] between boundaries, values[-1] after the last",
                      "Between boundaries[i-1] and boundaries[i] the rate is values[i]; after the last "
                      "boundary it is values[-1].", _agrees("between"), shows=("between_first_difference",)),
                Check("length-check", "raises ValueError when len(values) != len(boundaries) + 1",
                      "values needs exactly one more entry than boundaries (one value per interval). "
                      "TensorFlow refuses other lengths with a ValueError when the graph is built; do the "
                      "same instead of failing later (or silently) on some steps.",
                      holds(lambda got: got["short_values_error"] == got["tf_short_values_error"] == "ValueError"
                            and got["long_values_error"] == got["tf_long_values_error"] == "ValueError"),
                      shows=("short_values_error", "long_values_error")),
            ),
            cases=(Case("boundaries [10, 30], values [0.1, 0.05, 0.01]",
                        {"boundaries": [10, 30], "values": [0.1, 0.05, 0.01], "steps": STEPS_PIECE}),),
        ),
        Exercise(
            id="polynomial", symbol="np_polynomial_decay", points=3, probe=probe_polynomial,
            checks=(
                Check("power-curve", "(1 - step / decay_steps) ** power between the two rates",
                      "The power bends the whole remaining fraction: (learning_rate - end) * "
                      "(1 - step / decay_steps) ** power + end. 0.5 stays high longer, 2 drops early.",
                      _agrees("within"), shows=("within_first_difference",)),
                Check("clamp-at-end", "stays at end_learning_rate after decay_steps (cycle=False)",
                      "Without cycle the step is clamped first, min(step, decay_steps), so the rate rests at "
                      "end_learning_rate; unclamped, 1 - p turns negative (below end, or NaN for power 0.5).",
                      _agrees("beyond"), shows=("beyond_first_difference",)),
                Check("cycle-step-zero", "cycle=True: step 0 gives learning_rate, not NaN",
                      "With cycle=True your rate at step 0 is NaN (or inf): ceil(0 / decay_steps) is 0, so the "
                      "stretched decay_steps is 0 and step / decay_steps is 0 / 0. TensorFlow takes the "
                      "multiplier as 1 at step 0, where the rate is learning_rate.",
                      _finite_at_step_zero("cycle"), shows=("cycle_first_difference",)),
                Check("cycle-ceil", "cycle=True stretches decay_steps by ceil(step / decay_steps)",
                      "cycle=True does not restart from step % decay_steps: it multiplies decay_steps by "
                      "ceil(step / decay_steps) (1 at step 0), so each climb-back is lower and each descent "
                      "longer, and a step that is an exact multiple reaches end_learning_rate.",
                      _cycle_agrees, shows=("cycle_first_difference",)),
                Check("default-arguments", "end_learning_rate=0.0001, power=1.0, cycle=False by default",
                      "Called with only learning_rate, steps and decay_steps, the function must use "
                      "TensorFlow's defaults, which the signature gives: end_learning_rate=0.0001, "
                      "power=1.0, cycle=False.", _agrees("defaults"), shows=("defaults_first_difference",)),
            ),
            cases=(Case("lr 0.1 to 0.01 over 10 steps, powers 0.5, 1, 2",
                        {"learning_rate": 0.1, "decay_steps": 10, "end_learning_rate": 0.01,
                         "powers": [0.5, 1.0, 2.0], "steps": STEPS_POLY}),),
        ),
        Exercise(
            id="cosine_family", symbol="np_cosine_family", points=3, probe=probe_cosine_family,
            replay=judge_restarts,
            checks=(
                Check("cosine-clamp", "cosine: clamps the step and keeps alpha as a floor",
                      "cosine_decay clamps the step at decay_steps (the rate then stays at alpha * "
                      "learning_rate) and mixes as (1 - alpha) * cosine + alpha.",
                      _agrees("cosine"), shows=("cosine_first_difference",)),
                Check("restart-period", "restarts: each period is t_mul times longer",
                      "With t_mul != 1 the i-th period lasts first_decay_steps * t_mul**i steps; find the "
                      "period from the geometric sum, i = floor(log(1 - p * (1 - t_mul)) / log(t_mul)), "
                      "and the fraction inside it. Use floor(p) only when t_mul == 1. A step on a restart begins "
                      "the new period (fraction 0), not the end of the old one.",
                      _period_agrees, shows=("restarts_t_first_difference",)),
                Check("restart-t-mul-one", "restarts: t_mul == 1 gives equal periods, not NaN",
                      "With t_mul == 1 your restarts gave NaN (or inf): the period index divides by "
                      "log(t_mul), which is log(1) = 0, and (1 - t_mul**i) / (1 - t_mul) divides by zero too. "
                      "Handle t_mul == 1 on its own: every period then has the same length, i = floor(p) and "
                      "fraction = p - i.",
                      _finite("restarts_m"), shows=("restarts_m_first_difference",)),
                Check("restart-height", "restarts: the i-th restart starts at m_mul**i",
                      "Each warm restart begins m_mul times lower than the one before: the cosine part is "
                      "scaled by m_mul**i (alpha is not).", _agrees("restarts_m"),
                      shows=("restarts_m_first_difference",)),
                Check("restart-both", "restarts: t_mul and m_mul together",
                      "With both set, the i-th period is t_mul**i times longer and starts m_mul**i lower, "
                      "with the same i: take i from the geometric sum, then scale the cosine by m_mul**i.",
                      _agrees("restarts"), shows=("restarts_first_difference",)),
                Check("linear-cosine", "linear_cosine: (alpha + linear) * cosine + beta",
                      "linear_cosine_decay clamps the step, multiplies (alpha + (decay_steps - step) / "
                      "decay_steps) by 0.5 * (1 + cos(pi * 2 * num_periods * step / decay_steps)) and adds beta.",
                      _agrees("linear_cosine"), shows=("linear_cosine_first_difference",)),
                Check("default-arguments", "alpha, t_mul, m_mul, num_periods and beta keep TensorFlow's defaults",
                      "Called without the optional arguments, each kind must give TensorFlow's curve with "
                      "its defaults, which the signature gives: alpha=0.0, t_mul=2.0, m_mul=1.0, "
                      "num_periods=0.5, beta=0.001.", _agrees("defaults"), shows=("defaults_first_difference",)),
                Check("unknown-kind", "raises ValueError for an unknown kind",
                      "A kind other than \"cosine\", \"restarts\" or \"linear_cosine\" must raise ValueError, "
                      "not fall through and return None (or a curve of another kind).",
                      holds(lambda got: got["unknown_kind_error"] == "ValueError"), shows=("unknown_kind_error",)),
            ),
            cases=(Case("lr 0.1 over 10 steps, alpha 0.1, t_mul 3, m_mul 0.6",
                        {"learning_rate": 0.1, "decay_steps": 10, "alpha": 0.1, "t_mul": 3.0, "m_mul": 0.6,
                         "num_periods": 1.0, "beta": 0.001, "steps": STEPS_COS}),
                   Case("lr 0.1 over 12 steps, t_mul 1.5: a restart at step 57 that no rounding moves",
                        {"learning_rate": 0.1, "decay_steps": 12, "alpha": 0.1, "t_mul": 1.5, "m_mul": 0.6,
                         "num_periods": 1.0, "beta": 0.001, "steps": STEPS_COS_57})),
        ),
        Exercise(
            id="auto_decay", symbol="AutoDecay", points=3, probe=probe_auto_decay,
            marked=tuple(AUTO_DECAY_MARKED.items()), replay=replay_auto_decay,
            checks=(
                Check("ops-in-loop", "update() adds no ops to the finalized graph",
                      "update() built new ops (an assign, a constant) after the graph was finalized, or ran "
                      "ops the finalized graph did not hold. Build the whole rule once in __init__, fed by a "
                      "placeholder, and only run it in update().",
                      holds(lambda got: not got["modified_finalized_graph"] and got["op_growth"] == 0
                            and not got["ran_new_op"]),
                      shows=("modified_finalized_graph",)),
                Check("own-session", "opens no session of its own",
                      "AutoDecay opened a tf.Session (in __init__ or in update()), or update() ran its ops in "
                      "a session other than the one it was given. The caller owns the "
                      "session: __init__ only builds ops, and update() runs them in the `sess` it is given. "
                      "A session of your own holds its own copy of the variables, not the caller's.",
                      holds(lambda got: got["sessions_made"] == 0 and got["foreign_session_runs"] == 0),
                      shows=("sessions_made",)),
                Check("default-session", "update() runs in the session it is given",
                      "update() ran something in the default session (`.eval()`, `.run()` or "
                      "`tf1.get_default_session()`) instead of the `sess` argument. The caller's session "
                      "need not be the default one: run everything with `sess.run(...)`.",
                      holds(lambda got: not got["used_default_session"]), shows=("used_default_session",)),
                Check("unordered-reads", "each variable is read once, and that read feeds its assign",
                      "A run of update() reads a variable (the best loss, the count or the rate) that the "
                      "same run's assign writes, with nothing ordering them: the assign does not consume "
                      "that read, nor wait for it. Whether the read sees the value before or after this "
                      "update is the runtime's choice: a comparison can meet the new value, so the count "
                      "and the cuts go wrong at random. Read each variable once (`v.read_value()`) and "
                      "compute every new value from those reads; an assign whose new value does not use "
                      "the read must wait for it (`tf.control_dependencies`).",
                      holds(lambda got: got["racing_reads"] == 0), shows=()),
                Check("unordered-run", "update() fetches nothing that races its own update",
                      "One sess.run fetched the update op together with a read of a variable it writes "
                      "(the learning_rate variable itself, say). Nothing orders the ops of one run but "
                      "their inputs and control dependencies, so whether the read sees the old or the new "
                      "value is the runtime's choice. Fetch a tensor the update is computed from "
                      "(the new rate), or read the variable in a run of its own after the update.",
                      holds(lambda got: got["racing_runs"] == 0), shows=()),
                Check("rate-float32-variable", "learning_rate is a float32 tf.Variable",
                      "`self.learning_rate` must be the float32 tf.Variable holding the rate (optimizers "
                      "read float32 rates; a float64 one is cast in every step, or refused). Create it with "
                      "dtype=tf.float32 (a NumPy float64 initial value makes a float64 variable).",
                      holds(lambda got: got["rate_is_variable"] and got["rate_dtype"] == ["float32"]
                            and got["read_dtypes"] == ["float32"]),
                      shows=("rate_is_variable", "rate_dtype")),
                Check("trainable-hyperparameter", "creates no trainable variables",
                      "The rate, the best loss and the counter are bookkeeping, not weights: create them "
                      "with trainable=False so no optimizer ever moves them.",
                      holds(lambda got: got["trainable"] == []), shows=("trainable",)),
                Check("returns-python-float", "update() returns a Python float",
                      "update() must return the rate as a Python float: `float(...)` of what sess.run "
                      "gives (a NumPy float32 or an array is not one).",
                      holds(lambda got: got["returned_types"] == ["float"]), shows=("returned_types",)),
                Check("state-in-python", "the best loss and the count live in variables",
                      "Some state (the best loss, the count) lives in Python attributes, not in graph "
                      "variables: update() fed the graph a number it computed itself (a rate, a best loss, a "
                      "count), chose in Python which ops to run on each call, or a fresh session that runs "
                      "the initializer, replaying the same losses, gave other rates. Keep all of it in "
                      "non-trainable variables that update() assigns, let `tf.where` decide, and feed the "
                      "graph nothing but the loss: every call runs the same ops.",
                      holds(lambda got: not got["fed_python_state"] and not got["uneven_calls"] and _replays(got)),
                      shows=()),
                Check("rate-not-in-graph", "after each update() the learning_rate variable holds the rate it returned",
                      "The rate an optimizer reads is the `learning_rate` variable: after every update() it "
                      "must hold the rate update() returned, i.e. the rate now in force. Assign the new rate "
                      "to the variable in the graph, and return that new rate (not the value before the "
                      "assign: two fetches of one run have no fixed order).",
                      holds(_rate_in_variable), shows=("rates_plateau", "variable_plateau")),
                Check("cut-by-factor", "each cut multiplies the rate by factor",
                      "A cut multiplies the rate in force by `factor` (0.3 keeps 30% of it): not by 1 - factor, "
                      "not the initial rate times factor (a second cut must lower the rate again), and never "
                      "more than once per evaluation.",
                      _cuts_by_factor, shows=("rates_rise", "rates_plateau")),
                Check("patience-count", "the cut comes after exactly `patience` evaluations without a new best",
                      "With losses that only rise after their best, the rate must be cut at the `patience`-th "
                      "evaluation without a new best: the count goes up by one on each, and the cut happens "
                      "when it *reaches* patience (>=, not >). Keep the best loss and the count in variables "
                      "that every update() assigns.",
                      _same_cuts("rise"), shows=("rates_rise",)),
                Check("best-not-last", "an evaluation improves only when it beats the best loss so far",
                      "Compare each validation loss with the best one seen so far, not with the last one: "
                      "a loss that dips below the previous evaluation but not below the best is still no "
                      "progress, and must count against patience.",
                      _same_cuts("zigzag", until_first_cut=True), shows=("rates_zigzag",)),
                Check("count-kept-after-improvement", "a new best loss starts the patience count again",
                      "The count of evaluations without a new best must start again from zero at every new "
                      "best loss: `patience` bad evaluations in a row cut the rate, not `patience` bad ones "
                      "spread over a run that keeps improving in between.",
                      _same_cuts("recover"), shows=("rates_recover",)),
                Check("patience-reset", "after a cut the patience counter starts again from zero",
                      "After lowering the rate, reset the counter of bad evaluations to zero: the new rate "
                      "gets `patience` evaluations of its own before the next cut.",
                      _same_cuts("plateau"), shows=("rates_plateau",)),
                Check("best-reset-at-cut", "a cut keeps the best loss",
                      "A cut lowers the rate and restarts the count; the best loss stays the best seen so far. "
                      "A loss below the one that brought the cut, but above the best, is no new best: it "
                      "counts against patience. Do not set the best loss to the current loss at a cut.",
                      _same_cuts("dip"), shows=("rates_dip",)),
                Check("tie-not-improvement", "a loss equal to the best is not an improvement",
                      "An evaluation improves only when its loss is strictly below the best (`<`, not "
                      "`<=`): a loss that merely ties the best is a plateau, and counts against patience.",
                      _same_cuts("ties"), shows=("rates_ties",)),
                Check("rate-sequence", "the rates returned follow the rule from initial_rate",
                      "The rate starts at initial_rate and changes only by the cuts: compare your rates "
                      "with the expected ones evaluation by evaluation.",
                      same(*("rates_" + n for n in SCRIPTS)), shows=("rates_zigzag", "rates_plateau")),
            ),
            cases=(Case("lr 0.1, factor 0.3, patience 3",
                        {"initial_rate": 0.1, "factor": 0.3, "patience": 3, "scripts": {
                            "rise": [1.0, 0.9, 1.0, 1.1, 1.2, 0.8, 0.7],
                            "zigzag": [1.0, 0.9, 0.95, 0.92, 0.94, 0.85, 0.9, 0.87, 0.89, 0.8, 0.84, 0.82, 0.79],
                            "plateau": [1.0, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.79, 0.8, 0.8, 0.8],
                            "ties": [1.0, 1.0, 1.0, 1.0, 0.9, 0.9, 0.9, 0.9, 0.8, 0.8, 0.7],
                            "recover": [1.0, 1.1, 1.05, 0.9, 1.0, 0.95, 0.8, 0.85, 0.82, 0.7],
                            "dip": [1.0, 1.1, 1.2, 1.3, 1.05, 1.06, 1.07]}}),),
        ),
    ),
)

# What each exercise's docstring (and the text above it) promises, and the check that reads it.
REQUIREMENTS = {
    "exponential_family": {
        "exponential_decay": "exponential-formula",
        "natural_exp_decay": "natural-exp-base",
        "inverse_time_decay": "inverse-time",
        "staircase": ("staircase-when-asked", "staircase-floor", "default-arguments"),
        "(an unknown kind raises ValueError)": "unknown-kind",
    },
    "piecewise": {
        "values[i] for boundaries[i-1] < step <= boundaries[i]": ("boundary-inclusive", "interval-values", "steps-any-order"),
        "ValueError on a length mismatch": "length-check",
    },
    "polynomial": {
        "The rate at each step of tf1.train.polynomial_decay": ("power-curve", "clamp-at-end"),
        "cycle": ("cycle-step-zero", "cycle-ceil"),
        "end_learning_rate=0.0001, power=1.0, cycle=False": "default-arguments",
    },
    "cosine_family": {
        "cosine_decay": "cosine-clamp",
        "cosine_decay_restarts": ("restart-period", "restart-t-mul-one", "restart-height", "restart-both"),
        "linear_cosine_decay": "linear-cosine",
        "TensorFlow's default arguments": "default-arguments",
        "(an unknown kind raises ValueError)": "unknown-kind",
    },
    "auto_decay": {
        "A learning-rate variable": ("rate-float32-variable", "trainable-hyperparameter", "rate-not-in-graph"),
        "cut by `factor`": "cut-by-factor",
        "after `patience` evaluations without a new best loss": ("patience-count", "best-not-last", "count-kept-after-improvement", "patience-reset",
                                                                "best-reset-at-cut", "tie-not-improvement"),
        "Apply the rule to one validation loss; return the rate now in force": ("returns-python-float", "rate-sequence", "unordered-reads", "unordered-run", "state-in-python"),
        "(in the session it is given, building nothing)": ("ops-in-loop", "own-session", "default-session"),
    },
}
