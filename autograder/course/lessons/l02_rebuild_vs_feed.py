"""Lesson 2: rebuilding the graph vs feeding a placeholder (seed 000).

Probes build every exercise in a fresh `tf.Graph()`, so no grade depends on what other cells left.
"""
from __future__ import annotations

import numpy as np

from autograder.course.compare import holds, same
from autograder.course.history import created_at, replayed_calls
from autograder.course.markers import mark
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probes.l02_rebuild_vs_feed import (
    probe_retune,
    probe_scale_all,
    probe_set_hyperparameter,
    probe_threshold_graph,
    probe_threshold_judge,
    probe_variable_judge,
)

X = [0.05, 0.25, 0.45, 0.65, 0.85]


def _redone(got, kind, builds=False, resets=False) -> bool:
    """Every change of `kind` rebuilt the graph (with `builds`) and reset the model (with `resets`)."""
    return all((not builds or b >= 1) and (not resets or r >= 1)
               for k, b, r in zip(got["kinds"], got["graph_builds"], got["model_resets"]) if k == kind)


def replay_threshold_graph(observation, inputs, run):
    """What the graph `build_threshold_graph` handed out computes, run by the grader outside the
    kernel: unfed, fed each of `feeds`, fed the default, and fed thresholds below and above every
    input; the op type and dtype of the returned tensors, read from the GraphDef. `int_threshold`:
    the placeholders of an integer dtype, from the kernel when building raised (`probe_threshold_graph`),
    else the returned threshold if its dtype is an integer one. A threshold that is a variable (or its
    value) is no input to feed: only its op type is handed on, for the check that names it."""
    if "int_placeholders" in observation:
        return {"int_threshold": list(observation["int_placeholders"]), "raised": observation.get("raised")}
    x_name, threshold_name, output_name = observation["tensors"]
    x = inputs["x"]
    thresholds = [*inputs["feeds"], inputs["default"], -1e9, 1e9]
    answer = run({"graph": observation["graph"], "describe": [x_name, threshold_name],
                  "runs": [{"feeds": {x_name: x}, "fetch": output_name},
                           *({"feeds": {x_name: x, threshold_name: t}, "fetch": output_name} for t in thresholds)]})
    if "refused" in answer:
        return {"error": {"type": "NotReplayable", "message": answer["refused"]}}
    described = answer["described"]
    threshold_op = (described.get(threshold_name) or {}).get("op")
    if threshold_op in VARIABLE_OPS:  # feeding a variable's handle fails here, in the grader: no error of theirs
        return {"threshold_op": threshold_op}
    unfed, *fed = answer["results"]
    failed = next((r for r in fed if "error" in r), None)
    if failed is not None:
        kind, _, message = failed["error"].partition(": ")
        return {"error": {"type": kind, "message": message}}
    values = [r["value"] for r in fed]
    return {"unfed": unfed.get("value"), "unfed_error": unfed["error"].partition(": ")[2] if "error" in unfed else None,
            "fed": values[:-3], "at_default": values[-3], "threshold_op": threshold_op,
            "follows_feed": bool(np.all(values[-2]) and not np.any(values[-1])),
            "dtypes": [(described.get(n) or {}).get("dtype") for n in (x_name, threshold_name)],
            "int_threshold": [threshold_name] if _is_integer(str((described.get(threshold_name) or {}).get("dtype"))) else []}


# A variable's ops: the op of the tensor a tf1.Variable stands for (resource or reference), and the read of it.
VARIABLE_OPS = ("VarHandleOp", "VariableV2", "ReadVariableOp")

THRESHOLD_JUDGE_MARKED = {"x": "array", "first": "number", "second": "number", "third": "number"}


def replay_threshold_judge(observation, inputs, run):
    """The judge's answers on the hidden inputs: every run it made in the kernel, on markers, re-run
    outside with the hidden x and thresholds in their place. An answer computed in NumPy, or from a
    threshold kept in Python, stays what it was on the markers. `graph_answers`: re-run again on other
    x (reversed, rescaled, longer), each answer is x >= t for one same t, so it was computed from x.
    `fixed_length`: every answer came from a run, and so did every re-run on an x of the same length,
    but a re-run on the longer x failed: the x placeholder has a fixed shape.
    `fed_first_after_update`: a run of judge() between update_options and the in-place change was fed
    the first threshold (its marker), so the judge kept the number it read in __init__."""
    kernel, swaps = mark(inputs, THRESHOLD_JUDGE_MARKED)
    done, answers = replayed_calls(observation, swaps, run)
    if "error" in done:
        return done
    runs = observation["history"]["runs"]
    fed_first = any(np.asarray(value).size == 1 and np.asarray(value).reshape(()) == kernel["first"]
                    for start, end in observation["judge_runs"][1:-1] for i in range(start, end)
                    for _, value in runs[i]["feeds"])
    x = np.asarray(inputs["x"], np.float32)
    others = [x[::-1], x * 2 - 0.5, np.concatenate([x, [x.min() - 1, x.max() + 1]]).astype(np.float32)]
    again = [replayed_calls(observation, [(m, other.tolist() if isinstance(m, list) else v) for m, v in swaps],
                              run)[1] for other in others]
    follows = all(_one_threshold(others, [None if len(a) <= i or a[i] is None else np.asarray(a[i]) for a in again])
                  for i in range(len(answers)))
    answered = all(a is not None for a in answers)
    fixed_length = answered and all(a is not None for a in again[0]) and any(a is None for a in again[-1])
    return {**done, "before": answers[0], "after": answers[-2], "in_place": answers[-1],
            "graph_answers": follows and answered, "fed_first_after_update": fed_first, "fixed_length": fixed_length}


VARIABLE_JUDGE_MARKED = {"x": "array", "first": "number", "seconds": "numbers"}


def replay_variable_judge(observation, inputs, run):
    """The judge's answers on the hidden inputs (every run re-run outside, markers swapped back):
    after each change (`answers`) and after the probe set the variable back (`after_reset`: the
    answer, or what the reset gave instead). Read from the runs themselves: whether a run judge()
    made was fed a threshold (`fed_threshold`: it lives in Python), and whether a run after the
    graph was finalized ran an op created after it (`ran_new_op`). An __init__ that raised after
    making an integer variable answered nothing: only the variables' dtypes are handed on."""
    if "raised" in observation:  # __init__ raised after making an integer variable (`probe_variable_judge`)
        variables = [str(d) for d in observation.get("variables", [])]
        if not any(_is_integer(d) for d in variables):
            kind, _, message = str(observation["raised"]).partition(": ")
            return {"error": {"type": kind, "message": message}}
        return {"variables": variables, "raised": observation["raised"]}
    swaps = mark(inputs, VARIABLE_JUDGE_MARKED)[1]
    done, answers = replayed_calls(observation, swaps, run)
    if "error" in done:
        return done
    history, reset = observation["history"], observation["reset"]
    judged = len(inputs["seconds"]) + 1
    numbers = [np.asarray(m) for m, _ in swaps if not isinstance(m, list)]
    fed = [np.asarray(value) for start, end in observation["judge_runs"] for i in range(start, end)
           for _, value in history["runs"][i]["feeds"]]
    start, end = observation["later_runs"]
    created = created_at(history, range(start, end), run)
    return {**{k: v for k, v in done.items() if k not in ("reset", "later_runs")},
            "answers": answers[:judged], "after_reset": answers[judged] if reset == "judged" else reset,
            "fed_threshold": any(v.size == 1 and v.dtype.kind in "fiu" and v.reshape(()) == m for v in fed
                                 for m in numbers),
            "ran_new_op": any(i is not None and i >= observation["finalized_ops"] for i in created)}


def _is_integer(dtype: str) -> bool:
    return dtype.startswith(("int", "uint"))


def _one_threshold(inputs, outputs) -> bool:
    """Whether every output is `x >= t` of its input for one same t (an interval no pair empties)."""
    low, high = -np.inf, np.inf
    for x, out in zip(inputs, outputs):
        if out is None or out.shape != x.shape or out.dtype != bool:
            return False
        if out.any():
            high = min(high, x[out].min())
        if (~out).any():
            low = max(low, x[~out].max())
    return bool(low < high)


def _in_the_variable(got, expected) -> bool:
    """No run of judge() was fed the threshold, and after the reset it answered as the reference did."""
    return not got["fed_threshold"] and same("after_reset")(got, expected)


def _no_extra_builds(got, expected):
    """No change built more graphs than the reference did (building fewer is caught by the answers)."""
    builds, reference = got["graph_builds"], expected["graph_builds"]
    return len(builds) == len(reference) and all(g <= e for g, e in zip(builds, reference))


BAKED = ("The threshold was written into the graph as a Const op when the graph was built, so "
         "changing the options afterwards changes nothing the session runs. Feed it through a "
         "placeholder, or hold it in a variable, instead of baking it in.")
GROWTH = ("Judging or updating the options built new ops. Rebuilding gives the right answer, but the "
          "graph grows by a copy per call, which costs memory and time without bound. Build once in "
          "__init__; feed the value.")
SESSION_PER_CALL = ("A session was opened after __init__. Open one session in __init__ and keep it: a "
                    "session per call costs a graph set-up each time, and any variable's value would "
                    "start over in every new session.")
FLOAT32 = ("The comparison is asked for in float32, and a placeholder here has another dtype. Use "
           "float32 placeholders: in float64, a threshold such as 0.7 is not the float32 number x holds "
           "(float32(0.7) < 0.7), so a tie would be judged the other way.")
LESSON = Lesson(
    assignment="02_rebuild_vs_feed",
    notebook="rebuild_vs_feed.ipynb",
    exercises=(
        Exercise(
            id="threshold_judge", symbol="ThresholdJudge", points=3, probe=probe_threshold_judge,
            marked=tuple(THRESHOLD_JUDGE_MARKED.items()), replay=replay_threshold_judge,
            checks=(
                Check("float64-threshold", "compares in float32", FLOAT32,
                      holds(lambda got: all(d == "float32" for d in got["placeholder_dtypes"])),
                      shows=("placeholder_dtypes",)),
                # Before numpy-answer: a graph that fails on a longer x fails its re-runs too.
                Check("fixed-length", "takes x of any length",
                      "The x placeholder has a fixed shape: your graph answered on this x, but failed when "
                      "the grader re-ran it on an x of another length. Give x the shape [None] "
                      "(tf1.placeholder(tf.float32, [None])): judge() must take x of any length.",
                      holds(lambda got: not got["fixed_length"]), shows=()),
                Check("numpy-answer", "answers by running the graph",
                      "judge() did not return what the graph computed from x: the comparison was made "
                      "in Python or NumPy (with or without a session run beside it). The exercise is the "
                      "graph: return what self.sess.run(...) of the comparison op gives, feeding x and "
                      "the threshold.",
                      holds(lambda got: all(n >= 1 for n in got["runs_per_call"]) and all(got["from_graph"])
                            and got["graph_answers"]),
                      shows=("runs_per_call", "from_graph")),
                Check("wrong-comparison", "answers x >= threshold before any change",
                      "The answer is wrong before any option changed: compare with >= against the "
                      "threshold in the options.", same("before"), shows=("before",)),
                # Before baked-constant: a threshold fed from a copy made in __init__ fails that one too.
                Check("cached-threshold", "feeds the threshold of the options it holds now",
                      "The threshold was read once, in __init__, and kept in Python: after "
                      "update_options, judge() still fed the first threshold to its placeholder. Feeding "
                      "is right; read self.options['threshold'] at every judge() call, so new options "
                      "(or a change made in place) reach the run.",
                      holds(lambda got: not got["fed_first_after_update"]), shows=("after",)),
                Check("baked-constant", "uses the new threshold after update_options",
                      BAKED, same("after"), shows=("after",)),
                Check("graph-growth", "adds no ops to the graph when judging or updating", GROWTH,
                      holds(lambda got: got["op_growth"] == 0), shows=("op_growth",)),
                Check("copied-threshold", "reads the threshold from the options at every call",
                      "The options dict was changed in place (options['threshold'] = ...), and the "
                      "judge kept answering with the old threshold: it copied the number (or the "
                      "dict) instead of holding the options it was given. Keep the dict and read "
                      "self.options['threshold'] in judge(), on every call.",
                      same("in_place"), shows=("in_place",)),
                Check("session-per-call", "opens its one session in __init__", SESSION_PER_CALL,
                      holds(lambda got: got["sessions"] == 0 and got["call_sessions"] <= 1), shows=("sessions",)),
                Check("const-fed", "feeds the threshold through a placeholder",
                      "The answers are right, but the threshold is not a placeholder: a Const (or a "
                      "variable's value) fed on every call. Feeding overrides any tensor, so it works, "
                      "but the graph says the threshold is fixed, and whoever runs it without your feed "
                      "gets the baked value. Make it what the text asks for: a float32 placeholder.",
                      holds(lambda got: got["placeholders"] >= 2), shows=()),
            ),
            # The first threshold ties with an input, so a strict comparison fails here, in public.
            cases=(Case("threshold 0.25 (a tie with an input), then 0.3, then 0.5 in place",
                        {"x": X, "first": 0.25, "second": 0.3, "third": 0.5}),),
        ),
        Exercise(
            id="threshold_graph", symbol="build_threshold_graph", points=2, probe=probe_threshold_graph,
            outside=("x", "feeds"), replay=replay_threshold_graph,
            checks=(
                # Before the others: building x >= threshold with an int32 threshold raises in the kernel.
                Check("int-threshold", "makes the threshold float32 even for a whole-number default",
                      "The threshold placeholder took the dtype of its default: "
                      "placeholder_with_default(1, []) is an int32 tensor, since 1 is a Python int, and "
                      "x >= threshold then compares float32 with int32, which TensorFlow refuses (or, "
                      "cast afterwards, a fed 0.25 is truncated to 0). Cast the default to float32 "
                      "before making the placeholder: tf.constant(default, tf.float32).",
                      holds(lambda got: not got.get("int_threshold")), shows=("int_threshold",)),
                # Before plain-placeholder: a variable fails every run, unfed (uninitialised) or fed.
                Check("variable-threshold", "makes the threshold a placeholder, not a variable",
                      "The threshold is a variable. A variable is no input of the graph (feeding its "
                      "handle fails) and it needs initialising before any run. Make the threshold a "
                      "placeholder with a default: tf.compat.v1.placeholder_with_default("
                      "tf.constant(default, tf.float32), []).",
                      holds(lambda got: got.get("threshold_op") not in VARIABLE_OPS), shows=("threshold_op",)),
                Check("plain-placeholder", "runs without feeding the threshold",
                      "A plain placeholder has no value of its own, so every run must feed it. "
                      "tf.compat.v1.placeholder_with_default runs with its default until you feed another.",
                      holds(lambda got: got["unfed_error"] is None), shows=("unfed_error",)),
                Check("not-an-input", "makes the threshold a graph input",
                      "The threshold must be a placeholder op. A Const can be fed too, but it stays a "
                      "constant in the GraphDef, and nothing tells a reader it is meant to change.",
                      holds(lambda got: got["threshold_op"] in ("PlaceholderWithDefault", "Placeholder")),
                      shows=("threshold_op",)),
                Check("float64-threshold", "makes x and the threshold float32",
                      "x and the threshold are asked for as float32 tensors; one has another dtype. "
                      "(In float64 a threshold such as 0.7 is not the float32 number an input holds.)",
                      holds(lambda got: got["dtypes"] == ["float32", "float32"]), shows=("dtypes",)),
                Check("fed-value-ignored", "uses each fed threshold",
                      "Feeding the returned threshold tensor must change the output: fed a threshold "
                      "below every input the output must be all True, above every input all False. "
                      "Compute the output from that very tensor.",
                      holds(lambda got: got["follows_feed"] is True), shows=("fed",)),
                Check("ignored-default", "uses the given default when nothing is fed",
                      "Unfed, the graph must use the `default` argument, not a value of its own: its "
                      "output differs from the output with `default` fed.",
                      # Compared with the graph's own run at the default, not with the reference, so
                      # that a strict comparison (an input equal to the default) is named for what it is.
                      holds(lambda got: got["unfed"] == got["at_default"]), shows=("unfed",)),
                Check("strict-comparison", "answers x >= threshold, ties included",
                      "The output differs from x >= threshold for some fed threshold: an input equal to "
                      "the threshold counts as True (tf.greater_equal, not tf.greater).",
                      same("fed"), shows=("fed",)),
            ),
            # A whole-number default (an int32 placeholder would truncate fed thresholds) and a tie, in public.
            cases=(Case("default 1 (a whole number), feeds 0.25 (a tie with an input) and 0.9",
                        {"x": X, "default": 1, "feeds": [0.25, 0.9]}),),
        ),
        Exercise(
            id="variable_judge", symbol="VariableThresholdJudge", points=3, probe=probe_variable_judge,
            marked=tuple(VARIABLE_JUDGE_MARKED.items()), replay=replay_variable_judge,
            checks=(
                # Before the others: x >= an int32 variable raises in the kernel while __init__ builds.
                Check("int-threshold", "holds the threshold in float32 even when it is a whole number",
                      "The threshold variable took the dtype of its first value: tf1.Variable(1) is an "
                      "int32 variable, since 1 is a Python int, and x >= threshold then mixes float32 with "
                      "int32, which TensorFlow refuses (a cast would truncate a later 1.5 to 1). Give the "
                      "dtype: tf1.Variable(threshold, dtype=tf.float32, trainable=False).",
                      holds(lambda got: not any(_is_integer(d) for d in got["variables"])), shows=("variables",)),
                Check("assign-per-call", "changes the threshold in a finalized graph",
                      "set_threshold created a new op after the graph was finalized. Build one assign "
                      "op, fed by a placeholder, in __init__, and only run it in set_threshold.",
                      holds(lambda got: not got["modified_finalized_graph"] and not got["ran_new_op"]),
                      shows=("modified_finalized_graph",)),
                Check("session-per-call", "keeps the one session opened in __init__", SESSION_PER_CALL,
                      holds(lambda got: got["sessions"] == 0 and got["call_sessions"] <= 1), shows=("sessions",)),
                Check("float64-threshold", "holds the threshold in a float32 variable",
                      "The threshold variable is asked for as float32; this one has another dtype. In "
                      "float64, 0.7 is not the float32 number x holds, so a tie is judged the other way.",
                      holds(lambda got: all(d == "float32" for d in got["variables"])),
                      shows=("variables",)),
                Check("stale-variable", "answers with the threshold last set",
                      "The answers must follow the variable: compare x with the variable's value, not "
                      "with a Python number captured when the graph was built.",
                      same("answers"), shows=("answers",)),
                Check("python-threshold", "keeps the threshold in the variable, not in Python",
                      "The threshold lives in Python, not in the graph: judge() fed it to its run, or, "
                      "once the variable was set back (by running its initializer in your session), "
                      "still answered with the value you kept. set_threshold must change the variable "
                      "(run the assign op), and judge must compare with the variable; make exactly one variable.",
                      _in_the_variable, shows=("variables", "after_reset")),
                Check("trainable-hyperparameter", "keeps the threshold out of the trainable set",
                      "A hyperparameter is not a weight: create its variable with trainable=False, so "
                      "no optimizer ever moves it.",
                      holds(lambda got: got["trainable"] == []), shows=("trainable",)),
            ),
            cases=(Case("1 (a whole number), then 0.3 and 0.45 (a tie with an input)",
                        {"x": X, "first": 1, "seconds": [0.3, 0.45]}),),
        ),
        Exercise(
            id="retune", symbol="retune", points=2, probe=probe_retune,
            checks=(
                Check("rebound-dict", "changes the dict the model holds",
                      "Assigning a new dict to the parameter only rebinds a local name; the model "
                      "still holds the old dict. Mutate the shared one: options.update(...) or "
                      "options[key] = value.", holds(lambda got: got["untouched"] is False or not got["had_threshold"]),
                      shows=("holder_threshold",)),
                Check("wrong-threshold", "sets the threshold to the value given",
                      "The dict the model holds has no threshold, or another one than the value passed "
                      "in: store `threshold` itself, unchanged (no rounding, no conversion), whether or "
                      "not the dict held a threshold before.",
                      same("holder_threshold"), shows=("holder_threshold",)),
                Check("dropped-options", "keeps every other option",
                      "update() changes only the keys it is given; clearing or replacing the dict "
                      "throws the other options away, and naming the keys you expect loses the others.",
                      same("holder_options"), shows=("holder_options",)),
            ),
            # An option named nowhere else (lr): an answer that names the keys it keeps drops it here; a
            # threshold of three decimals: one rounded to two is another value.
            # And a dict with no threshold yet: retune sets one there too.
            cases=(Case("threshold 0.7 to 0.325, lr kept", {"options": {"threshold": 0.7, "lr": 0.01},
                                                           "threshold": 0.325}),
                   Case("a dict with no threshold yet, set to 0.3, clip kept", {"options": {"clip": 5.0},
                                                                                "threshold": 0.3})),
        ),
        Exercise(
            id="set_hyperparameter", symbol="set_hyperparameter", points=2, probe=probe_set_hyperparameter,
            checks=(
                Check("replaced-network", "keeps one network object that every layer holds",
                      "The model still holds the old Network object. Storing a new Network in "
                      "api.network rebinds one name; every layer that holds the old object keeps "
                      "running the old graph. Rebuild the network in place with api.network.build(), "
                      "so every holder sees the new graph.",
                      holds(lambda got: all(got["model_holds_network"])), shows=("model_holds_network",)),
                Check("replaced-model", "re-initialises the model in place",
                      "api.model is a new Model object. Whoever held the old one (the Api is only one "
                      "holder in a real project) keeps the old settings: re-initialise the model the "
                      "layers already hold, api.model.reset().",
                      holds(lambda got: all(got["model_kept"])), shows=("model_kept",)),
                Check("rebound-options", "changes the options dict every layer holds",
                      "api.options is no longer the dict the network and the model read from. Set the "
                      "value in the shared dict (api.options[name] = value): a new dict leaves every "
                      "layer rebuilding from the old one.",
                      holds(lambda got: all(got["options_shared"])), shows=("options_shared",)),
                Check("graph-not-rebuilt", "rebuilds the graph for a hyperparameter used in it",
                      "A hyperparameter used inside the graph was written into it as a Const when the "
                      "graph was built: changing the options changes nothing the session runs until "
                      "the graph is rebuilt (api.network.build()). Read where it is used from "
                      "api.used_in[name], not from its name.",
                      holds(lambda got: _redone(got, "graph", builds=True)), shows=("graph_builds",)),
                Check("model-not-reset", "re-initialises the model for a hyperparameter used in Python",
                      "The model copied this hyperparameter when it was initialised, so rebuilding the "
                      "graph does not reach it: re-initialise the model (api.model.reset()). Read where "
                      "it is used from api.used_in[name], not from its name.",
                      holds(lambda got: _redone(got, "python", resets=True)), shows=("model_resets",)),
                Check("one-layer-only", "rebuilds both layers for a hyperparameter used in both",
                      "This hyperparameter is used both inside the graph and in the Python model: "
                      "rebuild the graph and re-initialise the model; either alone leaves one stale copy.",
                      holds(lambda got: _redone(got, "both", builds=True, resets=True)),
                      shows=("graph_builds", "model_resets")),
                Check("needless-rebuild", "rebuilds the graph only when the graph uses the hyperparameter",
                      "The graph was rebuilt for a hyperparameter it does not use. Each rebuild makes a "
                      "new graph and session, which costs time on every tuning step: rebuild only the "
                      "layers that use the hyperparameter.",
                      _no_extra_builds, shows=("graph_builds",)),
                Check("stale-answer", "answers like a freshly built Api after every change",
                      "The right layers were redone, but the answer still differs from a freshly built "
                      "Api's: put the new value into api.options BEFORE rebuilding or resetting, since "
                      "both read the options when they run.",
                      same("graph_answers", "python_answers", "both_answers"),
                      shows=("graph_answers", "python_answers", "both_answers")),
            ),
            # The scale under a name the text never gives it: an answer that reads the layers from the
            # names it knows rebuilds nothing for it.
            cases=(Case("threshold, then scale (under another name), then mask", {
                "x": X, "options": {"factor": 1.0, "bias": 0.0, "mask": [1, 1, 1, 1, 1], "clip": 10.0,
                                    "threshold": 0.5},
                "used_in": {"factor": ["graph"], "bias": ["graph"], "mask": ["graph", "python"],
                            "clip": ["python"], "threshold": ["python"]},
                "names": {"scale": "factor"},
                "changes": [["threshold", 0.2], ["factor", 2.0], ["mask", [1, 0, 1, 0, 1]]]}),),
        ),
        Exercise(
            id="scale_all", symbol="scale_all", points=2, probe=probe_scale_all,
            checks=(
                # Before the others: x * an int32 scale raises in the kernel, in the first call.
                Check("int-scale", "passes every scale as a float32 tensor, whole numbers too",
                      "A whole-number scale became an int32 tensor: tf.constant(2) takes its dtype from "
                      "the Python int 2, and x * scale then mixes float32 with int32, which TensorFlow "
                      "refuses. Give the dtype: tf.constant(s, tf.float32).",
                      holds(lambda got: "raised" not in got and not got["int_arguments"]),
                      shows=("int_arguments",)),
                Check("captured-python-value", "scales by each requested value",
                      "A Python value read inside a tf.function is frozen into the trace, just like a "
                      "Const in a v1 graph: pass the scale in as an argument.", same("results"),
                      shows=("results",)),
                Check("float64-results", "returns float32 results",
                      "The results are asked for in float32, like x; these have another dtype. Make "
                      "the scale a float32 tensor (tf.constant(s, tf.float32)).",
                      holds(lambda got: got["dtypes"] == ["float32"]), shows=("dtypes",)),
                Check("function-per-scale", "makes one tf.function for all the scales",
                      "More than one tf.function was made: each new tf.function traces its own graph, "
                      "so one per scale (or per call) rebuilds every time, like a v1 graph rebuilt on "
                      "every call. Decorate one function once and call it for every scale.",
                      holds(lambda got: got["functions"] <= 1), shows=("functions",)),
                Check("retrace-per-float", "traces the function once for all scales",
                      "Every new Python float is a new trace signature, so tf.function retraces (it "
                      "rebuilds the graph) for each one. Pass a tensor, e.g. tf.constant(scale), and one "
                      "trace serves them all.", holds(lambda got: got["traces"] == 1), shows=("traces",)),
            ),
            cases=(Case("x times 0.5, 2 and 3 (whole numbers)", {"x": [1.0, 2.0, 3.0], "scales": [0.5, 2, 3]}),),
        ),
    ),
)

# What each exercise's docstring (and the text above it) promises, and the check that reads it.
REQUIREMENTS = {
    "threshold_judge": {
        "Answers `x >= options[\"threshold\"]`": ("numpy-answer", "wrong-comparison"),
        "always with the threshold currently in the options": ("baked-constant", "cached-threshold"),
        "builds the whole graph once in the default graph": "graph-growth",
        "float32 placeholders for x and the threshold": ("float64-threshold", "const-fed"),
        "opens the one session it uses": "session-per-call",
        "a change made in place to the options dict counts too": "copied-threshold",
        "judge(x) adds no ops to the graph": "graph-growth",
        "for x of any length": "fixed-length",
    },
    "threshold_graph": {
        "threshold = placeholder_with_default(default)": ("plain-placeholder", "not-an-input", "ignored-default", "int-threshold",
                                                         "variable-threshold"),
        "a fed threshold is used": "fed-value-ignored",
        "x >= threshold (float32)": ("float64-threshold", "strict-comparison"),
    },
    "variable_judge": {
        "one non-trainable float32 variable": ("int-threshold", "float64-threshold", "trainable-hyperparameter"),
        "builds every op (including one assign op)": "assign-per-call",
        "opens the one session it uses": "session-per-call",
        "No copy of the threshold is kept in Python": "python-threshold",
        "Answers `x >= threshold` with the threshold last set": "stale-variable",
    },
    "retune": {
        "Set options[\"threshold\"] in place, so every holder of this dict sees it": ("rebound-dict", "wrong-threshold"),
        "keep other keys": "dropped-options",
    },
    "set_hyperparameter": {
        "Set api.options[name] = value in the shared dict": ("rebound-options", "stale-answer"),
        "api.network.build() if \"graph\" is in api.used_in[name]": ("graph-not-rebuilt", "one-layer-only"),
        "api.model.reset() if \"python\" is": ("model-not-reset", "one-layer-only"),
        "redo only what uses it": "needless-rebuild",
        "in place": ("replaced-network", "replaced-model"),
    },
    "scale_all": {
        "[x * s for s in scales]": "captured-python-value",
        "as float32 NumPy arrays": "float64-results",
        "A scale may be a whole number": "int-scale",
        "one tf.function": "function-per-scale",
        "one trace of it serving every scale of the call": "retrace-per-float",
    },
}
