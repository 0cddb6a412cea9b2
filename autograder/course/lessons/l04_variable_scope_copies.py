"""Lesson 4: variable-scope copies and sync ops (seed 002).

Every graph probe builds in a fresh `tf.Graph()`; the TF2 probe runs eagerly. Variable values come
from fixed NumPy arrays, never from TensorFlow's random ops, so observations are the same in every
process.
"""
from __future__ import annotations

import functools

import numpy as np

from autograder.course.compare import holds, same, values_match
from autograder.course.history import created_at, races, replay_history, replayed_calls
from autograder.course.markers import mark
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probes.l04_variable_scope_copies import (
    DECOY_FILL,
    FILL,
    probe_current_and_past,
    probe_lagged_trainer,
    probe_polyak_update,
    probe_soft_update,
    probe_sync_op,
)

ERROR_TYPES = ("KeyError", "ValueError")


def _replayed(observation, swaps, run):
    """What each run of the observation's `history` returns outside the kernel with `swaps` made
    (`history.replay_history`); a ValueError when the worker refused the graph or a run failed there,
    which makes the observation NotReplayable."""
    values, refused = replay_history(observation["history"], swaps, run)
    if refused is not None or any(value is None for value in values):
        raise ValueError(refused or "a run failed when re-run")
    return values


VARIABLE_OPS = ("VarHandleOp", "VariableV2")


def replay_current_and_past(observation, inputs, run):
    """The graph `build_current_and_past` handed out, run by the grader outside the kernel: both
    outputs on the case's x (never sent to the kernel), and whether `tf.gradients` of the past output
    reaches each past variable and the input, and that of the current output each current variable.
    A variable the kernel listed counts only if the graph holds it as a variable."""
    tensors = observation["tensors"]
    scopes = {scope: [f"{scope}/{name}" for name in observation[f"{scope}_variables"]] for scope in ("current", "past")}
    answer = run({"graph": observation["graph"], "describe": scopes["current"] + scopes["past"],
                  "gradients": [[tensors["past"], [n + ":0" for n in scopes["past"]] + [tensors["inputs"]]],
                                [tensors["current"], [n + ":0" for n in scopes["current"]]]],
                  "runs": [{"fetch": tensors["init"]},
                           {"feeds": {tensors["inputs"]: inputs["x"]}, "fetches": [tensors["current"], tensors["past"]]}]})
    if "refused" in answer:
        return {"error": {"type": "NotReplayable", "message": answer["refused"]}}
    failed = next((r for r in answer["results"] if "error" in r), None)
    if failed is not None or None in answer["gradients"]:
        kind, _, message = (failed or {"error": "NotReplayable: tf.gradients failed on the graph"})["error"].partition(": ")
        return {"error": {"type": kind, "message": message}}
    (*past, from_input), current = answer["gradients"]
    held = {scope: [name.split("/", 1)[1] for name in names
                    if (answer["described"].get(name) or {}).get("op") in VARIABLE_OPS] for scope, names in scopes.items()}
    return {"current_variables": held["current"], "past_variables": held["past"],
            "past_gradients_blocked": [not reached for reached in past], "input_gradient_flows": from_input,
            "current_gradients_flow": current, "outputs": answer["results"][1]["value"]}


def replay_sync_op(observation, inputs, run):
    """What the sync wrote, read outside the kernel: the probe's session (initialise, sync, read)
    re-run by the grader. Written where it must not be: the partner of a non-trainable source
    (`frozen_partner_written`), a destination scope sharing the name's prefix or a destination holding
    the decoy source scope's values (`decoy_written`); `untouched`: the destinations still as filled."""
    if observation.get("decoy_raised"):
        return {"decoy_written": True, "decoy_raised": observation["decoy_raised"]}
    if observation.get("trainable_destinations"):  # the build raised only while the copy was non-trainable
        return {"decoy_written": False, "decoy_raised": None, "trainable_destinations": True}
    values, reads = _replayed(observation, [], run), observation["reads"]
    read = {kind: dict(zip(names, values[at])) for kind, (at, names) in reads.items()}
    synced, frozen = read["destinations"], inputs.get("src_frozen")
    frozen_partner_written = bool(frozen) and not np.all(np.asarray(synced.pop(frozen)) == FILL)
    decoy_written = any(not np.all(np.asarray(v) == FILL) for v in read.get("decoys", {}).values()) or (
        bool(inputs.get("decoy")) and any(np.all(np.asarray(v) == DECOY_FILL) for v in synced.values()))
    return {"synced": synced, "untouched": sorted(name for name, value in synced.items() if np.all(np.asarray(value) == FILL)),
            "sources": read["sources"], "frozen_partner_written": frozen_partner_written,
            "decoy_written": decoy_written, "decoy_raised": None, "trainable_destinations": False,
            "missing_partner": observation["missing_partner"], "shape_mismatch": observation["shape_mismatch"]}


LAGGED_TRAINER_MARKED = {"x": "array", "y": "array"}


def replay_lagged_trainer(observation, inputs, run):
    """The trainer on the hidden x and y: every run it made in the kernel from __init__ on, on
    markers, re-run outside with the hidden values in their place. The outputs of each step
    (`current_outputs`, `past_outputs`) and the past variables at the end (`past_values`) are what
    the graph computes there. Read from the runs themselves: how many sessions they used
    (`call_sessions`), whether a step's run was fed a value shaped like a weight that is no marker
    (`fed_weights`: weights kept in Python and fed back), whether a run after finalize() ran an op
    created after it (`modified_finalized_graph`), and how many step runs race a write against a read
    in the graph handed out (added to the kernel's `racing_runs`)."""
    if observation.get("mispaired") is not None:
        return observation
    swaps = mark(inputs, LAGGED_TRAINER_MARKED)[1]
    past_read, count = observation["past_read"], len(observation["past_variables"])
    reads = [] if past_read is None else [[past_read, i] for i in range(count)]
    done, answers = replayed_calls({**observation, "answered_by": observation["answered_by"] + reads}, swaps, run,
                                   calls="step_runs")
    if "error" in done:
        return done
    history, steps = observation["history"], observation["step_runs"]
    n_in, hidden, n_out = inputs["n_in"], inputs["hidden"], inputs["n_out"]
    weights = {(n_in, hidden), (hidden,), (hidden, n_out), (n_out,)}
    markers = [np.asarray(m, np.float32) for m, _ in swaps]
    fed = [np.asarray(value) for start, end in steps for i in range(start, end)
           for _, value in history["runs"][i]["feeds"]]
    created = created_at(history, range(steps[0][0] if steps else 0, len(history["runs"])), run)
    raced = races(history, [i for start, end in steps for i in range(start, end)], run)
    outputs = answers[:len(answers) - len(reads)]
    blocked = _past_gradients_blocked(observation, run)
    if blocked is None:
        return {"error": {"type": "NotReplayable", "message": "tf.gradients failed on the graph handed out"}}
    return {"mispaired": None, "past_variables": observation["past_variables"],
            "past_gradients_blocked": blocked, "past_trained": _past_trained(observation, swaps, run),
            "sessions_in_steps": observation["sessions_in_steps"],
            "racing_runs": observation["racing_runs"] + sum(r is not False for r in raced),
            "call_sessions": len({r["session"] for r in history["runs"]}),
            "current_outputs": outputs[0::2], "past_outputs": outputs[1::2],
            "past_values": (dict(zip(observation["past_variables"], answers[len(outputs):])) if reads else None),
            "fed_weights": any(v.shape in weights and not any(v.shape == m.shape and np.all(v == m) for m in markers)
                               for v in fed),
            "modified_finalized_graph": observation["modified_finalized_graph"] or any(
                i is not None and i >= observation["finalized_ops"] for i in created)}


def _past_gradients_blocked(observation, run):
    """Per past variable, whether `tf.gradients` of every tensor that returned a past output, asked
    outside the kernel on the graph handed out, is None with respect to it (its reads go through
    tf.stop_gradient); None when tf.gradients failed there. A past output that came from no run gives
    nothing to ask (the checks on the outputs judge it)."""
    history, names = observation["history"], observation["past_variables"]
    runs, blocked = history["runs"], dict.fromkeys(names, True)
    returned = {(runs[run_number]["graph"], runs[run_number]["fetches"][fetch])
                for run_number, fetch in filter(None, observation["answered_by"][1::2])}
    for graph in sorted({graph for graph, _ in returned}):
        asked = sorted(fetch for g, fetch in returned if g == graph)
        handles = [f"past/{name}:0" for name in names]
        reached = run({"graph": history["graphs"][graph], "runs": [],
                       "gradients": [[fetch, handles] for fetch in asked]}).get("gradients")
        if not reached or None in reached:
            return None
        for each in reached:
            blocked.update({name: blocked[name] and not r for name, r in zip(names, each)})
    return blocked


def _past_trained(observation, swaps, run):
    """How many runs from __init__ on left a past variable at a value that is neither its own nor its
    current partner's from before the run (a copy changes only by the sync), read outside the kernel:
    the history re-run with a read of both copies (the probe's last two runs) after each run of their
    graph, compared with the read after the session's run before. A read that failed (variables not
    yet initialised) is skipped: the checks on the outputs judge those runs."""
    history, past_read = observation["history"], observation["past_read"]
    runs = history["runs"]
    if past_read is None or past_read + 1 >= len(runs):
        return 0
    past_names, current_names = runs[past_read]["fetches"], runs[past_read + 1]["fetches"]
    graph, extended, pairs, last_read = runs[past_read]["graph"], [], [], {}
    for r in runs[:past_read]:
        extended.append(r)
        if r["graph"] == graph:
            extended.append({"session": r["session"], "graph": graph, "fetches": past_names + current_names,
                             "feeds": []})
            if r["session"] in last_read:
                pairs.append((last_read[r["session"]], len(extended) - 1))
            last_read[r["session"]] = len(extended) - 1
    values, _ = replay_history({"graphs": history["graphs"], "runs": extended}, swaps, run)
    count, trained = len(past_names), 0
    close = functools.partial(np.allclose, rtol=1e-6, atol=1e-7)
    for before, after in ((values[b], values[a]) for b, a in pairs):
        if before is not None and after is not None:
            trained += not all(close(new, old) or close(new, partner)
                               for new, old, partner in zip(after[:count], before[:count], before[count:]))
    return trained


SOFT_UPDATE_MARKED = {"source": "arrays", "target": "arrays"}


def replay_soft_update(observation, inputs, run):
    """The soft update on the hidden initial values: every run of the probe's session (made in the
    kernel on markers) re-run outside with the hidden values in their place. The targets after each
    update (`trajectory`, `first_step`) and the sources at the end are what the graph computes there;
    a value the op took from Python (a constant built from a source) stays what it was on the markers.
    `one_op` also needs every run of the op to have fetched one thing, read from the runs handed out."""
    values = _replayed(observation, mark(inputs, SOFT_UPDATE_MARKED)[1], run)
    runs = observation["history"]["runs"]
    names = [f"target_{i}" for i in range(len(inputs["target"]))]
    trajectory = {name: [values[r][i] for r in observation["target_reads"]] for i, name in enumerate(names)}
    return {"tau": inputs["tau"], "moves": inputs.get("moves", 0.0), "trajectory": trajectory,
            "first_step": {name: path[0] for name, path in trajectory.items()},
            "sources": {f"source_{i}": value for i, value in enumerate(values[observation["source_read"]])},
            "initial": {**{f"source_{i}": v for i, v in enumerate(inputs["source"])}, **dict(zip(names, inputs["target"]))},
            "one_op": observation["one_op"] is True and all(len(runs[r]["fetches"]) == 1 for r in observation["op_runs"])}


def _starts_equal(got):
    return values_match(got["past_outputs"][:1], got["current_outputs"][:1])


def _not_reversed(first_step, pairs):
    """A check, False only when the first update is tau * target + (1 - tau) * source (and that is neither
    also right nor the targets left as they were, as a reversed tau of 1 leaves them: a target that kept
    its value is computed-not-assigned's). `first_step(observation)` gives the targets after one update
    by name, `pairs(got)` tau and each name's initial (source, target)."""
    def check(got, expected):
        tau, initial = pairs(got)
        reversed_ = {name: (1 - tau) * np.asarray(s) + tau * np.asarray(t) for name, (s, t) in initial.items()}
        unchanged = {name: t for name, (_, t) in initial.items()}
        return not (values_match(first_step(got), reversed_) and not values_match(first_step(expected), reversed_)
                    and not values_match(reversed_, unchanged))
    return check


def _soft_pairs(got):
    initial = got["initial"]
    return got["tau"], {name: (initial["source" + name[6:]], value)
                        for name, value in initial.items() if name.startswith("target")}


def _polyak_first_step(got):
    return {key: values[0] for key, values in got["values"].items() if values}


def _read_current_sources(got, expected):
    """False only when the sources moved between updates and the targets followed their initial values
    (tau * source_0 + (1 - tau) * target at every update), and that is not also right."""
    if not got.get("moves"):
        return True
    tau, initial, stale = got["tau"], got["initial"], {}
    for name, values in got["trajectory"].items():
        source, target, path = np.asarray(initial["source" + name[6:]]), np.asarray(initial[name]), []
        for _ in values:
            target = tau * source + (1 - tau) * target
            path.append(target)
        stale[name] = path
    return not (values_match(got["trajectory"], stale) and not values_match(expected["trajectory"], stale))


def _clear_error(key, types=ERROR_TYPES):
    return holds(lambda got: got[key]["type"] in types and got[key]["names_variable"])


LESSON = Lesson(
    assignment="04_variable_scope_copies",
    notebook="variable_scope_copies.ipynb",
    exercises=(
        Exercise(
            id="sync_op", symbol="make_sync_op", points=3, probe=probe_sync_op, replay=replay_sync_op,
            checks=(
                Check("prefix-scope", "touches no scope that merely shares the name's prefix",
                      "A scope whose name only starts with the same letters (e.g. 'current_old' next to "
                      "'current') was read or written. get_collection(key, scope) treats the scope as a "
                      "regular expression matched at the start of each name (re.match), so 'current' also "
                      "matches 'current_old/...': pass re.escape(src_scope) + '/' and re.escape(dst_scope) "
                      "+ '/' so only variables inside the scope are selected. (A KeyError or ValueError "
                      "raised only while that other scope exists is this mistake too: its variables were "
                      "taken for sources or destinations.)",
                      same("decoy_written"), shows=("decoy_written", "decoy_raised")),
                Check("trainable-destinations", "finds its destinations among all the copy's variables",
                      "Building the sync raised while the copy's variables were non-trainable, and built "
                      "once they were trainable: the destinations were looked up among the trainable "
                      "variables. The destinations are all the *global* variables under dst_scope "
                      "(tf1.global_variables(re.escape(dst_scope) + '/')): a copy is often non-trainable (a target "
                      "network nobody trains), so trainable_variables(...) finds nothing there.",
                      holds(lambda got: got["trainable_destinations"] is False),
                      shows=("trainable_destinations",)),
                Check("non-trainable-source", "copies only the trainable variables of the source",
                      "The partner of a non-trainable source variable was overwritten. The sources are the "
                      "*trainable* variables under src_scope (tf1.trainable_variables(re.escape(src_scope) + '/')); "
                      "counters and statistics in the source scope are not copied.",
                      same("frozen_partner_written"), shows=("frozen_partner_written",)),
                Check("copied-backwards", "leaves the source variables as they were",
                      "The sync changed the source. `dst.assign(src)` writes into dst; "
                      "`src.assign(dst)` would overwrite the network you are copying from.",
                      same("sources"), shows=("sources",)),
                Check("full-name-match", "changes every destination that has a source partner",
                      "Destinations that have a partner were left untouched (or ones without a partner "
                      "were written). Full names never match across scopes ('current/w' vs 'past/w'): "
                      "strip the 'scope/' prefix first, then compare what is left.",
                      same("untouched"), shows=("untouched",)),
                Check("matched-by-order", "copies each source into the destination of the same relative name",
                      "Some destination received another variable's value. Pair variables by their name "
                      "relative to the scope ('layer1/w'), not by position: collections list variables in "
                      "creation order, and two copies built in a different order pair the wrong "
                      "variables without complaint when their shapes agree.",
                      same("synced"), shows=("synced",)),
                Check("silent-missing-partner", "raises a KeyError or ValueError naming a source with no partner",
                      "A source variable with no partner in the destination scope must stop the build with "
                      "a KeyError (or ValueError) whose message names it. Skipping it silently leaves a "
                      "copy that is only partly synced, and nothing tells you.",
                      _clear_error("missing_partner"), shows=("missing_partner",)),
                Check("unclear-shape-error", "raises a ValueError naming a variable whose shapes differ",
                      "When shapes differ, raise ValueError (or KeyError) with the variable's name in the "
                      "message. A bare `assert` gives an AssertionError with no message, and disappears "
                      "altogether under `python -O`.",
                      _clear_error("shape_mismatch"), shows=("shape_mismatch",)),
            ),
            cases=(Case("current -> past, built in another order, with a layer 'recurrent', a decoy scope 'current_old' "
                        "and a non-trainable source 'moving_mean' that has a partner; the kernel of the wrong shape "
                        "transposed", {
                "src_scope": "current", "dst_scope": "past",
                "shapes": {"scale": [3], "shift": [3], "recurrent/w": [3], "kernel": [2, 3]},
                "src_order": ["scale", "shift", "recurrent/w", "kernel"],
                "dst_order": ["shift", "scale", "recurrent/w", "kernel"],
                "decoy": "current_old", "src_frozen": "moving_mean", "missing": "extra_bias", "bad_shape": "kernel",
                "transposed": True}),),
        ),
        Exercise(
            id="current_and_past", symbol="build_current_and_past", points=3, probe=probe_current_and_past,
            outside=("x",), replay=replay_current_and_past,
            checks=(
                Check("shared-not-copied", "gives the past copy variables of its own",
                      "The 'past' scope has no variables of its own (or the wrong ones). Reopening a scope "
                      "with reuse=True shares the existing variables: both outputs then always agree. "
                      "Build net_fn under a new scope 'past' to get a copy.",
                      same("past_variables", "current_variables"),
                      shows=("past_variables", "current_variables")),
                Check("gradient-reaches-copy", "blocks every gradient into the past copy's variables",
                      "A loss on the past output still has a gradient with respect to the past variables. "
                      "Build the past copy under a variable_scope whose custom_getter returns "
                      "tf.stop_gradient(getter(name, *args, **kwargs)).",
                      holds(lambda got: bool(got["past_gradients_blocked"]) and all(got["past_gradients_blocked"])),
                      shows=("past_gradients_blocked",)),
                Check("output-stopped", "still lets gradients flow through the copy to its input",
                      "No gradient flows from the past output back to the input. Stopping the gradient on "
                      "the output cuts off everything upstream (the network that produced the input, as "
                      "in the source's network_A). Stop it on the variables, with the custom getter.",
                      holds(lambda got: got["input_gradient_flows"] is True), shows=("input_gradient_flows",)),
                Check("current-frozen", "keeps the current copy trainable by gradients",
                      "The current copy's variables get no gradient. Only the past copy needs the "
                      "stop_gradient getter: the current one is the network you train.",
                      holds(lambda got: bool(got["current_gradients_flow"]) and all(got["current_gradients_flow"])),
                      shows=("current_gradients_flow",)),
                Check("wrong-outputs", "returns (current_out, past_out), each net_fn(x)",
                      "The outputs differ from net_fn(x) under each scope. The two copies start from "
                      "different values here, so each output must come from its own copy: return the "
                      "tuple (current_out, past_out) in that order.",
                      same("outputs"), shows=("outputs",)),
            ),
            cases=(Case("3 inputs, 4 hidden, 2 outputs", {
                "n_in": 3, "hidden": 4, "n_out": 2,
                "x": [[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]]}),),
        ),
        Exercise(
            id="lagged_trainer", symbol="LaggedTrainer", points=3, probe=probe_lagged_trainer,
            marked=tuple(LAGGED_TRAINER_MARKED.items()), replay=replay_lagged_trainer,
            checks=(
                Check("matched-by-order", "pairs each current variable with the past one of the same relative name",
                      "Building the trainer raised: the sync assigned a current variable into a past variable "
                      "of another shape (shown below). In this network every variable has the shape of its "
                      "partner of the same relative name, so the two were paired by position. Two lists "
                      "zipped in order (sorted or not) line up only while both hold the same names: here the "
                      "past copy also holds a non-trainable variable, which global_variables('past/') lists "
                      "and trainable_variables('current/') does not. Pair by the name relative to the scope "
                      "('layer1/w'), as in Exercise 1.",
                      holds(lambda got: got.get("mispaired") is None), shows=("mispaired",)),
                Check("op-per-step", "takes every step in a finalized graph",
                      "step() added an op to the finalized graph, or tried to (a step ran an op created "
                      "after __init__, or raised on the finalized graph). Build the sync op (and the train "
                      "op) once in __init__; step() only runs them. An assign built per step grows the "
                      "graph without bound.",
                      holds(lambda got: got["modified_finalized_graph"] is False),
                      shows=("modified_finalized_graph",)),
                Check("shared-not-copied", "keeps a past copy with variables of its own",
                      "The 'past' scope must hold its own variables (a copy), not reuse the current ones.",
                      same("past_variables"), shows=("past_variables",)),
                Check("session-per-step", "runs every step in the one session __init__ opened",
                      "step() opened a new Session (the runs from __init__ on used more than one). A "
                      "session holds the variables' values: open self.sess once in __init__ and run every "
                      "step in it.",
                      holds(lambda got: got["sessions_in_steps"] == 0 and got["call_sessions"] <= 1),
                      shows=("sessions_in_steps", "call_sessions")),
                Check("trains-copy", "changes the past copy's variables only by copying the current ones",
                      "A run left the past copy's variables at values that neither they nor the current "
                      "copy held before it: the update trained the past copy too. A loss that includes "
                      "the past output, minimised over all trainable variables, sends gradients into the "
                      "copy. Read the past copy through tf.stop_gradient (the custom getter of Exercise 2) "
                      "and minimise the current output's loss over the current variables only: the past "
                      "copy changes only by the sync.",
                      holds(lambda got: got["past_trained"] == 0), shows=("past_trained",)),
                Check("gradient-reaches-copy", "reads the past copy's variables through tf.stop_gradient",
                      "The past output still has a gradient with respect to the past copy's variables: "
                      "the copy is not read through tf.stop_gradient. Build it under "
                      "variable_scope(\"past\", custom_getter=...) whose getter returns "
                      "tf.stop_gradient(getter(name, *args, **kwargs)), as in Exercise 2, so that no loss "
                      "can train it, whatever var_list an optimizer is given.",
                      holds(lambda got: all(got["past_gradients_blocked"].values())),
                      shows=("past_gradients_blocked",)),
                Check("unordered-run", "orders reading the outputs, the sync and the update",
                      "One sess.run fetched an op that writes variables together with a fetch that reads "
                      "them, nothing ordering the two: the sync with the past output (the sync writes the "
                      "past copy), or the sync with the update (the sync reads the current copy the update "
                      "writes). Nothing orders the ops of one run but their inputs and control "
                      "dependencies, so which happens first is the runtime's choice and may differ from run "
                      "to run. (The current output fetched with the update is ordered: it feeds the "
                      "gradient, so it is computed before the step.) Evaluate the outputs in one run, then "
                      "sync, then train, each in a run of its own.",
                      holds(lambda got: got["racing_runs"] == 0), shows=()),
                Check("no-initial-sync", "starts the past copy equal to the current one",
                      "On the first step the past output differs from the current one: the two copies are "
                      "initialised to different values, so __init__ must run the sync op once after "
                      "initialising, before any step.",
                      # Weights fed from Python make the past outputs wrong once re-run: past-not-in-variables names it.
                      holds(lambda got: got["fed_weights"] or _starts_equal(got)),
                      shows=("past_outputs",)),
                Check("lagged-copy", "returns a past output one training step behind the current one",
                      "The past output is not one step behind. In step(): evaluate both outputs, then sync "
                      "past <- current, then train. Syncing before you evaluate, or after the update, makes "
                      "the copy equal to the current network whenever you look at it.",
                      lambda got, expected: got["fed_weights"] or same("past_outputs")(got, expected),
                      shows=("past_outputs",)),
                Check("wrong-training", "trains the current copy as specified",
                      "The current outputs follow another trajectory: minimise the mean squared error "
                      "of the current output with GradientDescentOptimizer(learning_rate), over the "
                      "current variables only.",
                      same("current_outputs"), shows=("current_outputs",)),
                Check("past-not-in-variables", "keeps the past weights in the past copy's variables",
                      "The past copy's variables do not hold the weights of one step ago. Keep the past "
                      "weights in the graph, copied by the sync op, not in Python values fed back in: "
                      "anything that reads the past variables (a Saver, another op) sees stale values.",
                      lambda got, expected: not got["fed_weights"] and same("past_values", rtol=1e-4, atol=1e-5)(
                          got, expected), shows=()),
            ),
            cases=(Case("3 steps on 2 samples, learning rate 0.1, a network with a non-trainable variable", {
                "n_in": 2, "hidden": 3, "n_out": 1, "x": [[1.0, -1.0], [0.5, 2.0]], "y": [[1.0], [-1.0]],
                "steps": 3, "learning_rate": 0.1, "frozen_scale": True}),),
        ),
        Exercise(
            id="soft_update", symbol="make_soft_update_op", points=2, probe=probe_soft_update,
            marked=tuple(SOFT_UPDATE_MARKED.items()), replay=replay_soft_update,
            checks=(
                Check("not-one-op", "returns one op",
                      "make_soft_update_op must return one op (tf.group(*assigns)), not a list: a caller "
                      "passes it to sess.run, to control_dependencies or to another group as one thing.",
                      holds(lambda got: got["one_op"] is True), shows=("one_op",)),
                Check("copied-backwards", "leaves the sources as they were",
                      "The update changed a source variable: assign to the target only.",
                      same("sources"), shows=("sources",)),
                Check("tau-reversed", "moves each target a fraction tau of the way to its source",
                      "After one update the target must be tau * source + (1 - tau) * target. With tau "
                      "the wrong way round, a small tau copies almost everything at once.",
                      _not_reversed(lambda got: got["first_step"], _soft_pairs), shows=("first_step",)),
                Check("stale-source", "mixes in each source's value at the time the op runs",
                      "The sources moved between updates, and the targets followed their initial values: "
                      "the op mixes in a value fixed when it was built (source.initial_value, or a "
                      "constant). Use the source variable itself: tau * source + (1 - tau) * target.",
                      _read_current_sources, shows=("trajectory",)),
                Check("no-decay", "closes a fraction tau of the gap to the source at every update",
                      "Over several updates the target must close a fraction tau of the remaining gap each "
                      "time: target <- tau * source + (1 - tau) * target, the old target shrunk by (1 - tau), "
                      "not kept whole (assign_add).", same("trajectory"), shows=("trajectory",)),
            ),
            # The sources move by 1 after each update, as a trained network does between syncs.
            cases=(Case("two variables, tau 0.1, 3 updates, sources moving by 1 between them", {
                "source": [[1.0, 2.0, 3.0], [[4.0, -4.0]]], "target": [[0.0, 0.0, 0.0], [[0.0, 8.0]]],
                "tau": 0.1, "steps": 3, "moves": 1.0}),),
        ),
        Exercise(
            id="polyak_update", symbol="polyak_update", points=2, probe=probe_polyak_update,
            checks=(
                Check("copied-backwards", "leaves the sources as they were",
                      "The update changed a source variable: assign to the target only.",
                      same("sources"), shows=("sources",)),
                Check("tau-reversed", "moves each target a fraction tau of the way to its source",
                      "After one update each target must be tau * source + (1 - tau) * target. With tau "
                      "the wrong way round, a small tau copies almost everything at once.",
                      _not_reversed(_polyak_first_step, lambda got: (got["tau"], got["initial"])),
                      shows=("values",)),
                Check("computed-not-assigned", "changes the target variables in place",
                      "A target kept its old value. Computing tau * s + (1 - tau) * t (with "
                      "map_structure or in a loop) only makes new tensors; call t.assign(...) to change "
                      "the variable.", holds(lambda got: got["assigned"] is True), shows=("values",)),
                Check("paired-by-position", "mixes each target with the source of the same key",
                      "The targets changed, but not to tau * source + (1 - tau) * target of the same "
                      "key. Pair the leaves by key: tf.nest.flatten lists a dict's leaves in sorted key "
                      "order on both sides, while dict.values() lists them in insertion order, which the "
                      "target and the source need not share.", same("values"), shows=("values",)),
                Check("changed-before-error", "raises before changing any target",
                      "The call raised, but only after it had already assigned some targets, so a failed "
                      "update leaves the copy half-updated. zip(..., strict=True) raises only when it "
                      "reaches the end of the shorter list, after the loop body ran for every pair: "
                      "check the structures before the first assign.",
                      holds(lambda got: got["changed_before_error"] == []), shows=("changed_before_error",)),
                Check("silent-zip", "raises when the two structures differ, even with as many leaves",
                      "A source whose structure differs from the target's went through without an error "
                      "(one variable more, or as many variables under other keys or grouped otherwise). "
                      "zip() stops at the shorter list without a word, and flattening hides renamed keys: "
                      "check with tf.nest.assert_same_structure(target, source) first.",
                      holds(lambda got: all(t in ("ValueError", "TypeError") for t in got["mismatch_error"].values())),
                      shows=("mismatch_error",)),
                Check("replaced-not-assigned", "keeps the target's own variable objects",
                      "The target structure now holds new variables. Whoever else holds the old ones (an "
                      "optimizer, a checkpoint, a Keras model) never sees the update: change each "
                      "variable in place with t.assign(...).",
                      holds(lambda got: got["kept_variables"] is True), shows=("kept_variables",)),
            ),
            cases=(Case("a dict of two variables, the source listing its keys in another order, tau 0.2, 2 updates", {
                "target": {"kernel": [0.0, 0.0], "bias": [10.0, 10.0]}, "source": {"bias": [2.0, 2.0], "kernel": [1.0, -1.0]},
                "tau": 0.2, "steps": 2}),),
        ),
    ),
)

# What each exercise's docstring (and the text above it) promises, and the check that reads it.
REQUIREMENTS = {
    "sync_op": {
        "copies each trainable variable under `src_scope`": ("non-trainable-source", "prefix-scope", "copied-backwards"),
        "into its partner, the global variable under `dst_scope` with the same relative name": (
            "matched-by-order", "full-name-match", "trainable-destinations"),
        "Raises KeyError (a source has no partner)": "silent-missing-partner",
        "or ValueError (shapes differ), naming the variable": "unclear-shape-error",
    },
    "current_and_past": {
        "net_fn(x) under scope \"current\"": ("current-frozen", "wrong-outputs"),
        "and again under scope \"past\"": "shared-not-copied",
        "a custom_getter that reads every variable of the copy through tf.stop_gradient": ("gradient-reaches-copy", "output-stopped"),
    },
    "lagged_trainer": {
        "a \"past\" copy stays exactly one update behind": ("shared-not-copied", "lagged-copy", "past-not-in-variables",
                                                              "matched-by-order"),
        "opens self.sess, initializes every variable and syncs once": ("session-per-step", "no-initial-sync"),
        "returns (current_out, past_out) as evaluated before this step's sync and update": ("lagged-copy", "unordered-run"),
        "Trains a \"current\" copy of net_fn": ("wrong-training", "trains-copy"),
        "scope `\"past\"` (read through `stop_gradient`, as in Exercise 2)": "gradient-reaches-copy",
        "builds no ops": "op-per-step",
    },
    "soft_update": {
        "Return one op": "not-one-op",
        "target <- tau * source + (1 - tau) * target": ("tau-reversed", "stale-source", "no-decay", "copied-backwards"),
    },
    "polyak_update": {
        "In place: every target variable": ("computed-not-assigned", "replaced-not-assigned"),
        "<- tau * source + (1 - tau) * target": ("copied-backwards", "tau-reversed", "paired-by-position"),
        "Raises ValueError (or TypeError) when the two structures differ": "silent-zip",
        "before changing anything": "changed-before-error",
    },
}
