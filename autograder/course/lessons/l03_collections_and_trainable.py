"""Lesson 3: graph collections and dynamic trainable (seed 001).

Probes build every v1 exercise in a fresh `tf.Graph()`; the TF2 exercise runs eagerly on fresh
Keras models. No grade depends on what other cells left behind.
"""
from __future__ import annotations

import numpy as np

from autograder.course.compare import holds, same
from autograder.course.history import created_at, replay_history
from autograder.course.markers import mark
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probes.l03_collections_and_trainable import (
    BOOKKEEPING_KEYS,
    DENSE_KEYS,
    LAYER_VARIABLES,
    TRAIN_EXCLUDING_KEYS,
    freeze_report,
    probe_bookkeeping,
    probe_dense,
    probe_freezer,
    probe_train_excluding,
    probe_train_layers,
    unscoped,
)


def _moving_averages(got, expected):
    """The averaged variables, and per variable one non-trainable shadow (whatever its name)."""
    return same("moving_average", "shadows")(got, expected)


def _no_extra_trainable(got, expected):
    """Fails when some variable the reference left out of TRAINABLE_VARIABLES is still in it."""
    return not set(got["trainable"]) - set(expected["trainable"])


def _some_excluded_kept(got, expected):
    """Fails when some excluded variables left TRAINABLE_VARIABLES and others stayed in it."""
    excluded = set(expected["global"]) - set(expected["trainable"])
    kept = set(got["trainable"]) & excluded
    return not kept or kept == excluded


def _model_vars_global(got, expected):
    return set(got["model"]) <= set(got["global"])


def _collections_outside(observation, keys, run) -> tuple[dict, dict, dict]:
    """The collections `keys` (op names, in order), every variable op's dtype, and the trainable flag
    each listed variable records, read by the grader's worker from the MetaGraphDef the probe handed
    out (`engine.meta_graph`), never in the kernel."""
    answer = run({"collections": list(keys), "meta_graph": observation["meta_graph"]})
    if "refused" in answer:
        raise ValueError(answer["refused"])
    return answer["collections"], answer["dtypes"], answer["flags"]


BOOKKEEPING_SHOWN = {"global": "variables", "trainable": "trainable_variables", "local": "local_variables",
                     "model": "model_variables", "moving_average": "moving_average_variables"}


def replay_bookkeeping(observation, inputs, run):
    """The collections, the shadow variables, and the counter's and the global step's dtypes, read
    outside the kernel from the MetaGraphDef; and per model variable whether `tf.gradients` of the
    logits reaches it (`logits_reach`), asked outside the kernel of the graph handed out."""
    listed, dtypes, _ = _collections_outside(observation, BOOKKEEPING_KEYS, run)
    answer = run({"graph": observation["graph"], "runs": [],
                  "gradients": [[observation["logits_name"], [name + ":0" for name in LAYER_VARIABLES]]]})
    if "refused" in answer:
        return {"error": {"type": "NotReplayable", "message": answer["refused"]}}
    reached = answer["gradients"][0] or [False] * len(LAYER_VARIABLES)  # None: a variable the graph lacks
    done = {k: v for k, v in observation.items() if k not in ("meta_graph", "graph", "logits_name")}
    done["logits_reach"] = dict(zip(LAYER_VARIABLES, reached))
    done.update({key: sorted(listed[name]) for key, name in BOOKKEEPING_SHOWN.items()})
    # A summary is judged without its scopes, as in lesson 5: a v1 summary made inside a name or
    # variable scope takes the scope as a prefix of its name and tag, and is still "mean_logit".
    done["summaries"] = sorted(unscoped(name) for name in listed["summaries"])
    steps = listed["global_step"] or [name for name in listed["variables"] if name == "global_step"]
    done["global_step_dtype"] = dtypes.get(steps[0]) if steps else None
    shadows = {name: [v for v in listed["variables"] if v.startswith(name + "/")]
               for name in sorted(LAYER_VARIABLES) if name in listed["variables"]}
    done["shadows"] = {name: [len(found), any(v in listed["trainable_variables"] for v in found)]
                       for name, found in shadows.items()}
    counter = observation["counter"]
    if counter is not None:
        done["counter"] = {"dtype": dtypes.get(counter["op"]), "shape": counter["shape"], "value": counter["value"]}
    return done


def replay_train_excluding(observation, inputs, run):
    """The trainable and global collections, the variables' dtypes, and the excluded variables made
    with trainable=False (`created_untrainable`: their VariableDefs record the flag), read outside
    the kernel."""
    listed, dtypes, flags = _collections_outside(observation, TRAIN_EXCLUDING_KEYS, run)
    return {"final": observation["final"], "trainable": sorted(listed["trainable_variables"]),
            "created_untrainable": sorted(name for name in inputs["excluded"] if flags.get(name) is False),
            "global": sorted(listed["variables"]),
            "dtypes": {name: dtypes.get(name) for name in sorted(listed["variables"])}}


def replay_dense(observation, inputs, run):
    """How many terms "losses" and REGULARIZATION_LOSSES hold, and the trainable variables' names,
    read outside the kernel."""
    listed, _, _ = _collections_outside(observation, DENSE_KEYS, run)
    return {**{k: v for k, v in observation.items() if k != "meta_graph"},
            "n_terms": len(listed["losses"]), "regularization_terms": len(listed["regularization_losses"]),
            "variables": sorted(listed["trainable_variables"])}


FREEZER_MARKED = {"lr": "number"}


def replay_freezer(observation, inputs, run):
    """The Freezer's training on the hidden learning rate: every run of the probe's session (the
    initializer, each step's runs, the probe's reads of the variables), made in the kernel on a
    marker, re-run outside with the hidden value in its place. The weights after each step are what
    those runs compute outside, not what the kernel read.

    First, from the GraphDef alone: run 0 is the probe's initializer, built right after the Freezer,
    so an op a step fetched that the GraphDef lists after it was built by step(), whatever the
    kernel's op counts said. Then only that verdict is observed: the checks after it wait for it."""
    history, names = observation["history"], observation["names"]
    step_runs = [i for start, end in observation["step_runs"] for i in range(start, end)]
    init_at, *created = created_at(history, [0, *step_runs], run)
    counted = {key: observation[key] for key in ("frozen_order", "modified_finalized_graph", "steps_run", "op_growth")}
    if counted["frozen_order"] is not None:  # the steps stopped there: the check of the order is the verdict
        return counted
    if counted["modified_finalized_graph"] or any(i is not None and (init_at is None or i > init_at) for i in created):
        return {**counted, "modified_finalized_graph": True}
    values, refused = replay_history(history, mark(inputs, FREEZER_MARKED)[1], run)
    reads = [None if i is None else values[i] for i in observation["reads"]]
    if refused is not None or any(r is None for r in reads):
        return {"error": {"type": "NotReplayable",
                          "message": refused or "the probe's reads of the variables did not re-run"}}
    trajectory = [{name: np.asarray(read[k]) for k, name in enumerate(names)} for read in reads]
    schedule = [list(inputs["cycle"][i % len(inputs["cycle"])]) for i in range(observation["steps_run"])]
    fresh, trained, stuck, partly = freeze_report(trajectory, schedule, names)
    return {**counted, "frozen_moved_fresh": fresh[:5], "frozen_moved_after_training": trained[:5],
            "unfrozen_stuck": stuck[:5], "frozen_moved_beside_held": partly[:5],
            "bystander_moved": observation["bystander"] and not np.array_equal(reads[0][-1], reads[-1][-1]),
            "final": {name: value.tolist() for name, value in trajectory[-1].items()}}


FRESH_MOVED = (
    "A variable changed on a step where it was frozen, and it had never been trained before, so no "
    "optimizer state can explain it: the op you ran still updates it. minimize() and apply_gradients() "
    "fix their variable list when they are built; removing a variable from TRAINABLE_VARIABLES "
    "afterwards changes nothing. Run an op that was built without the frozen variable.")
MOMENTUM_MOVED = (
    "A frozen variable kept moving after it had been trained. A zero gradient is not a freeze under "
    "Adam or momentum: the moments the optimizer accumulated keep pushing the variable. Run an update "
    "op that does not touch the frozen variable at all.")

LESSON = Lesson(
    assignment="03_collections_and_trainable",
    notebook="collections_and_trainable.ipynb",
    exercises=(
        Exercise(
            id="bookkeeping", symbol="build_bookkeeping", points=3, probe=probe_bookkeeping,
            replay=replay_bookkeeping,
            checks=(
                Check("trainable-by-default", "trains only w and b",
                      "trainable defaults to True, even for a variable you put in LOCAL_VARIABLES with "
                      "collections=[...]: the optimizer would update the counter. Create counters with "
                      "trainable=False (tf1.get_local_variable and get_or_create_global_step do it for you).",
                      same("trainable"), shows=("trainable",)),
                Check("local-variable", "keeps examples_seen in LOCAL_VARIABLES only",
                      "examples_seen must be a local variable: in LOCAL_VARIABLES, and neither global "
                      "(it is not saved) nor trainable.",
                      lambda got, exp: same("local")(got, exp) and "examples_seen" not in got["global"],
                      shows=("local", "global")),
                Check("counter-not-float32", "makes examples_seen a float32 scalar starting at 0",
                      "examples_seen must be a float32 scalar that starts at 0. An integer initial value "
                      "(0 rather than 0.0) makes an int32 variable, which cannot count fractional "
                      "weights or be added to float tensors without a cast.",
                      same("counter"), shows=("counter",)),
                Check("step-not-int64", "creates the int64 global step",
                      "The global step must be the int64 variable tf1.train.get_or_create_global_step() "
                      "makes (in the GLOBAL_STEP collection). A hand-made counter starting at the "
                      "Python int 0 is int32, and the step-based helpers (decay schedules, "
                      "MonitoredSession hooks) expect int64.",
                      same("global_step_dtype"), shows=("global_step_dtype",)),
                Check("not-model-variables", "puts w and b in MODEL_VARIABLES",
                      "MODEL_VARIABLES must list exactly w and b: get_variable adds a variable to it only "
                      "when its collections= names it, so pass collections=[GLOBAL_VARIABLES, "
                      "MODEL_VARIABLES] for each of the two (and for nothing else).",
                      same("model"), shows=("model",)),
                Check("model-variables-not-global", "keeps w and b in GLOBAL_VARIABLES too",
                      "collections=[MODEL_VARIABLES] replaces the default list, so the variable leaves "
                      "GLOBAL_VARIABLES: global_variables_initializer and Saver no longer see it. List "
                      "both keys.", _model_vars_global, shows=("model", "global", "run_error")),
                Check("run-raised", "runs: initializers, logits, summaries and ema_op",
                      "Running what you built raised (the error is shown below for the public case), so "
                      "nothing after it could be measured. A v1 summary.scalar needs a scalar (reduce "
                      "over every axis: tf.reduce_mean(logits)), and every variable must be initialized "
                      "by global_variables_initializer() or local_variables_initializer().",
                      holds(lambda got: got["run_error"] is None), shows=("run_error",)),
                Check("moving-average-collection", "averages w and b with ExponentialMovingAverage",
                      "ema.apply([w, b]) puts the averaged variables (not the shadows) in "
                      "MOVING_AVERAGE_VARIABLES and creates non-trainable shadow variables in "
                      "GLOBAL_VARIABLES.", _moving_averages, shows=("moving_average", "shadows")),
                Check("ema-decay", "averages with decay 0.99",
                      "The moving averages do not follow decay 0.99: when w grows by 1, one more run of "
                      "ema_op must move its average by 1 - 0.99 = 0.01. Build "
                      "ExponentialMovingAverage(decay=0.99) without num_updates (with the global step as "
                      "num_updates the decay starts near 0.1).",
                      same("ema_moves", rtol=1e-3, atol=1e-5), shows=("ema_moves",)),
                Check("summary-not-collected", "adds the mean_logit summary to SUMMARIES",
                      "The SUMMARIES collection does not hold exactly one summary \"mean_logit\" (scopes "
                      "before the name are fine), and merge_all() merges only what it holds. A v1 "
                      "tf.compat.v1.summary.scalar(\"mean_logit\", ...) adds itself to it; the TF2 "
                      "tf.summary.scalar adds nothing to it.", same("summaries"), shows=("summaries",)),
                Check("logits-not-from-variables", "computes the logits from the variables w and b",
                      "The logits do not depend on the variable w or b (shown: whether a gradient of the "
                      "logits reaches each). They were computed from the initial value w0 or b0, a "
                      "constant: the values agree before the first step, but training never moves what the "
                      "logits do not use. Compute them from the variables get_variable returned.",
                      holds(lambda got: all(got["logits_reach"].values())), shows=("logits_reach",)),
                Check("wrong-logits", "computes logits = x @ w + b",
                      "The logits must be x @ w + b, with w and b starting at w0 and b0.",
                      same("logits"), shows=("logits", "run_error")),
                Check("summary-value", "summarises the mean of the logits",
                      "The \"mean_logit\" summary reports another value: summarise tf.reduce_mean(logits), "
                      "the mean over the whole batch and every output.",
                      same("summary_values"), shows=("summary_values",)),
            ),
            cases=(Case("2 inputs, 3 outputs", {"x": [[1.0, 2.0], [-1.0, 0.5]],
                                                "w0": [[0.1, -0.2, 0.3], [0.4, 0.0, -0.1]],
                                                "b0": [0.1, 0.5, -0.3]}),),
        ),
        Exercise(
            id="train_excluding", symbol="train_excluding", points=2, probe=probe_train_excluding,
            replay=replay_train_excluding,
            checks=(
                Check("some-excluded-kept", "removes every excluded variable, not only some",
                      "Some excluded variables left TRAINABLE_VARIABLES and others are still in it: the "
                      "edit reached the live list, but not for every name. Remove each name in excluded "
                      "(a loop over all of them), not only the first.",
                      _some_excluded_kept, shows=("trainable",)),
                Check("edited-copy", "removes the excluded variables from TRAINABLE_VARIABLES",
                      "An excluded variable is still in TRAINABLE_VARIABLES. tf1.get_collection returns a "
                      "new list each call: removing from it changes nothing the graph keeps (and passing "
                      "var_list leaves the collection as it was). Edit the live list from "
                      "tf1.get_collection_ref.",
                      _no_extra_trainable, shows=("trainable",)),
                Check("created-untrainable", "creates every variable trainable, then edits the collection",
                      "An excluded variable was created with trainable=False, so no edit of the collection "
                      "was needed to keep it out. The exercise asks you to create every variable the same way "
                      "and remove the excluded ones from the live TRAINABLE_VARIABLES list "
                      "(tf1.get_collection_ref): the edit this lesson is about, which leaves the variable's own "
                      "trainable flag True.",
                      holds(lambda got: got["created_untrainable"] == []), shows=("created_untrainable",)),
                Check("removed-too-many", "keeps every variable that is not excluded trainable",
                      "A variable that was not excluded left TRAINABLE_VARIABLES. Match the excluded names "
                      "exactly (v.op.name == name): 'w1' is a prefix of 'w10', so a startswith() or "
                      "substring test removes both, and so does stripping \":0\" off 'w10:0' with "
                      "rstrip(\":0\"), which strips characters, not a suffix.",
                      same("trainable"), shows=("trainable",)),
                Check("edit-after-minimize", "leaves the excluded variables untrained",
                      "The final values are not those of training only the variables left trainable (the "
                      "got and expected values are shown): an excluded variable moved, or a trained one "
                      "did not move as it should. minimize() reads the trainable collection once, when it "
                      "is built: edit the collection before you build it, then train with it.",
                      same("final"), shows=("final",)),
                Check("global-collection", "keeps every variable in GLOBAL_VARIABLES",
                      "Only TRAINABLE_VARIABLES should change: an excluded variable is still a model "
                      "variable that must be initialised and saved.", same("global"), shows=("global",)),
                Check("not-float32", "creates float32 variables",
                      "The variables must be float32 scalars. A float64 initial value (np.float64, or a "
                      "NumPy array made without a dtype) makes a float64 variable: twice the memory, and "
                      "it will not mix with the float32 tensors of a model.",
                      same("dtypes"), shows=("dtypes",)),
            ),
            cases=(Case("w1 excluded, w10 (w1 is the start of its name) and y trained",
                        {"values": {"w1": 3.0, "w10": 13.0, "y": -2.0, "z": 0.5}, "excluded": ["w1", "z"],
                         "steps": 20, "lr": 0.1}),),
        ),
        Exercise(
            id="dense_decay", symbol="dense_with_decay", points=2, probe=probe_dense, replay=replay_dense,
            checks=(
                Check("regularizer-collection", "files its terms under \"losses\", not REGULARIZATION_LOSSES",
                      "The terms went to REGULARIZATION_LOSSES, the collection get_variable(..., "
                      "regularizer=...) fills: the exercise asks for the \"losses\" collection. Add the "
                      "term yourself with tf1.add_to_collection(\"losses\", decay * tf.nn.l2_loss(w)).",
                      lambda got, exp: got["n_terms"] == exp["n_terms"] or got["regularization_terms"] == 0,
                      shows=("n_terms", "regularization_terms")),
                Check("term-not-collected", "adds one term per layer to the live \"losses\" collection",
                      "Each call must add exactly one term with tf1.add_to_collection(\"losses\", ...). "
                      "Appending to the list tf1.get_collection returns edits a copy, and the term is lost.",
                      same("n_terms"), shows=("n_terms",)),
                Check("term-not-scalar", "adds a scalar term per layer",
                      "Each term must be one scalar, decay * tf.nn.l2_loss(w). decay * w**2 / 2 is a "
                      "matrix: tf.add_n of the collection then fails (or broadcasts) once layers differ "
                      "in shape.", same("term_shapes"), shows=("term_shapes",)),
                Check("decay-value", "adds decay * l2_loss(w), weights only",
                      "Each term is decay * tf.nn.l2_loss(w) = decay * sum(w**2) / 2, for the weight "
                      "matrix only: biases are not decayed.", same("terms"), shows=("terms",)),
                Check("layer-output", "returns x @ w + b", "The layer must return x @ w + b.",
                      same("output"), shows=("output",)),
                Check("variable-names", "creates <name>/w and <name>/b with get_variable",
                      "Create w and b with tf1.get_variable inside tf1.variable_scope(name), so the "
                      "variables are called <name>/w and <name>/b.", same("variables"), shows=("variables",)),
            ),
            cases=(Case("two layers, decay 0.1", {
                "x": [[1.0, -2.0], [0.5, 0.5]],
                "layers": [[[[0.5, -1.0, 0.2], [0.3, 0.8, -0.4]], [0.1, 0.0, -0.1]],
                           [[[1.0], [-0.5], [2.0]], [0.3]]],
                "decay": 0.1}),),
        ),
        Exercise(
            id="freezer", symbol="Freezer", points=3, probe=probe_freezer,
            marked=tuple(FREEZER_MARKED.items()), replay=replay_freezer,
            checks=(
                Check("frozen-order", "finds the op for a frozen set listed in any order",
                      "step() raised when `frozen` listed its variables in another order than var_list, and "
                      "ran when the same variables came in var_list's order (shown for the public case). "
                      "`frozen` may come in any order: key the ops by a frozenset of names, not a tuple "
                      "in the order given.",
                      holds(lambda got: got["frozen_order"] is None), shows=("frozen_order",)),
                Check("ops-in-loop", "adds no op while training (graph finalized)",
                      "step() built ops after the graph was finalized (or the graph grew). Build every "
                      "update op you will need in __init__; step() may only choose one and run it.",
                      holds(lambda got: not got["modified_finalized_graph"] and got["op_growth"] == 0),
                      shows=("modified_finalized_graph", "steps_run")),
                Check("only-one-frozen-held", "holds every variable of a frozen set, not only one",
                      "On a step that froze several variables, one that had trained before came out "
                      "bit-identical and another frozen variable moved (the steps and the variables that "
                      "moved are shown): step() ran the op that holds only one of them (the first of "
                      "`frozen`, say). Run the op built without all of them: build one for every possible "
                      "frozen set, not only the empty set and single variables, keyed by the frozenset of "
                      "their names.",
                      holds(lambda got: got["frozen_moved_beside_held"] == []), shows=("frozen_moved_beside_held",)),
                Check("collection-after-minimize", "leaves a never-trained frozen variable bit-identical",
                      FRESH_MOVED, holds(lambda got: got["frozen_moved_fresh"] == []),
                      shows=("frozen_moved_fresh",)),
                Check("zero-gradient-not-freeze", "leaves a frozen variable bit-identical after training",
                      MOMENTUM_MOVED, holds(lambda got: got["frozen_moved_after_training"] == []),
                      shows=("frozen_moved_after_training",)),
                Check("unfrozen-stuck", "moves every variable that is not frozen",
                      "A variable that was not frozen did not move: each step must update every "
                      "variable outside `frozen`.",
                      holds(lambda got: got["unfrozen_stuck"] == [] and got["steps_run"] > 0),
                      shows=("unfrozen_stuck",)),
                Check("trains-outside-var-list", "trains only the variables in var_list",
                      "A trainable variable that is not in var_list moved. compute_gradients(loss) and "
                      "minimize(loss) without var_list train every variable in TRAINABLE_VARIABLES: pass "
                      "var_list (minus the frozen ones) explicitly.",
                      holds(lambda got: got["bystander_moved"] is False), shows=("bystander_moved",)),
                Check("not-one-step", "takes exactly one optimizer step per call",
                      "The variables end up elsewhere than after one optimizer step per call of step(): "
                      "run one update op, once, per call (no second run, no extra update of the others). "
                      "Under Adam an apply op per variable is not one step either: every apply op of an "
                      "AdamOptimizer also advances its beta1_power and beta2_power, which all its "
                      "variables share, so k such ops in one call age them by k steps.",
                      same("final", rtol=1e-4, atol=1e-5), shows=("final",)),
            ),
            cases=(Case("the source: x=3, y=31, |x - y|, Adam, freeze x 5 steps then y 5 steps, 100 steps", {
                "values": {"x": 3.0, "y": 31.0}, "loss": "abs_gap", "optimizer": "adam", "lr": 0.01,
                "cycle": [["x"]] * 5 + [["y"]] * 5, "steps": 100}),
                   Case("three variables under Adam, none, one or two frozen (r, q: not in var_list's order), a trainable variable outside var_list, 15 steps", {
                "values": {"p": -1.0, "q": [-2.0, 0.5], "r": 4.0}, "loss": "quadratic", "optimizer": "adam",
                "lr": 0.05, "cycle": [[], ["p"], ["r", "q"], [], ["r"]], "steps": 15, "bystander": 1.0})),
        ),
        Exercise(
            id="train_layers", symbol="train_layers", points=2, probe=probe_train_layers,
            checks=(
                Check("stale-variable-list", "leaves a never-trained frozen layer unchanged",
                      "A frozen layer was trained. model.trainable_variables is computed when you ask "
                      "for it: read it again after changing layer.trainable, at every step. A list "
                      "kept from before the loop is the TF1 minimize() snapshot again.",
                      holds(lambda got: got["frozen_moved_fresh"] == []), shows=("frozen_moved_fresh",)),
                Check("zero-gradient-not-freeze", "leaves a frozen layer unchanged after it was trained",
                      MOMENTUM_MOVED.replace("Run an update op that does not touch",
                                             "Pass apply_gradients only the variables of")
                      .replace("the frozen variable at all.", "the layers that train."),
                      holds(lambda got: got["frozen_moved_after_training"] == []),
                      shows=("frozen_moved_after_training",)),
                Check("unfrozen-stuck", "trains every layer that is not frozen",
                      "A layer that was not frozen did not change: set trainable=True on every layer "
                      "not listed for the step. Match the names exactly (layer.name in frozen): Keras "
                      "names layers dense, dense_1, ..., and a startswith() test freezing dense freezes "
                      "dense_1 too.", holds(lambda got: got["unfrozen_stuck"] == []),
                      shows=("unfrozen_stuck",)),
                Check("wrong-loss", "returns the reference losses",
                      "The losses differ from the reference: use one Adam(lr) optimizer for the whole "
                      "run, built on all the model's variables before the loop, the loss "
                      "mean((model(x) - y)**2), and return each step's loss before its update.",
                      same("losses", rtol=1e-4, atol=1e-5), shows=("losses",)),
            ),
            cases=(Case("Keras's names dense, dense_1 and out, frozen in turns", {
                "x": [[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, -0.5]], "y": [[1.0], [0.0], [1.0], [0.5]],
                "layers": [["dense", 3], ["dense_1", 2], ["out", 1]],
                "schedule": [["dense"], ["dense"], [], ["dense_1"], ["out"], ["dense"]], "lr": 0.05}),),
        ),
    ),
)

# What each exercise's docstring (and the text above it) promises, and the check that reads it.
REQUIREMENTS = {
    "bookkeeping": {
        "logits = x @ w + b": ("logits-not-from-variables", "wrong-logits"),
        "w, b: trainable model variables (GLOBAL, TRAINABLE, MODEL)": ("trainable-by-default", "not-model-variables",
                                                                         "model-variables-not-global"),
        "the global step": "step-not-int64",
        "examples_seen: a local, non-trainable": ("local-variable", "trainable-by-default"),
        "float32 counter": "counter-not-float32",
        "a v1 summary \"mean_logit\"": ("summary-not-collected", "summary-value"),
        "EMA(0.99) over [w, b]": ("moving-average-collection", "ema-decay"),
        "(everything it builds runs)": "run-raised",
    },
    "train_excluding": {
        "excluding variables through TRAINABLE_VARIABLES": ("some-excluded-kept", "edited-copy", "created-untrainable",
                                                            "edit-after-minimize"),
        "excluded variables keep their initial values; the others train": "removed-too-many",
        "(every variable stays global, float32)": ("global-collection", "not-float32"),
    },
    "dense_decay": {
        "Return x @ w + b": "layer-output",
        "with <name>/w and <name>/b from get_variable": "variable-names",
        "add ONE term to the \"losses\" collection": ("regularizer-collection", "term-not-collected", "term-not-scalar"),
        "decay * tf.nn.l2_loss(w)": "decay-value",
    },
    "freezer": {
        "Build every op the training will need (it is finalized next)": "ops-in-loop",
        "variables in `frozen` stay bit-identical": ("only-one-frozen-held", "collection-after-minimize",
                                                     "zero-gradient-not-freeze"),
        "all others are updated": "unfrozen-stuck",
        "Trains var_list": "trains-outside-var-list",
        "`frozen`: variables of var_list, in any order": "frozen-order",
        "Run one step": "not-one-step",
    },
    "train_layers": {
        "step i freezes the layers named in frozen_per_step[i]": ("stale-variable-list", "zero-gradient-not-freeze"),
        "and trains the others": "unfrozen-stuck",
        "one Adam(lr), built before the loop; mean((model(x) - y)**2); returns the losses": "wrong-loss",
    },
}
