"""Lesson 1: graphs and sessions (seed 004, first half).

Probes build every exercise in a fresh `tf.Graph()`, so no grade depends on what other cells left.
Where an exercise must read "the graph it is given", the probe calls it while a different graph
(a decoy) is the default one, so reading `tf1.get_default_graph()` shows up as a wrong answer.
"""
from __future__ import annotations

import numpy as np

from autograder.course.compare import holds, same, values_match
from autograder.course.history import created_at, replay_history, replayed_calls
from autograder.course.markers import mark
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probes.l01_graphs_and_sessions import (
    probe_count_ops,
    probe_evaluate,
    probe_input_names,
    probe_one_run,
    probe_running_total,
)

DECOY_TYPE = "Fill"  # the decoy graph's own op type: the given graphs never hold one
# Facts about a probe's own input graph (tensor_counts, control, ops) are read from the reference's
# observation, made in the solution's kernel: the student's kernel could say anything about them.


RUNNING_TOTAL_MARKED = {"values": "numbers"}


def replay_running_total(observation, inputs, run):
    """The totals on the hidden values: every run the accumulator made in the kernel, on markers,
    re-run outside with the hidden values in their place (`totals`, and after the probe set the
    variable back, `after_reset`: the two totals, or what the reset gave instead). Read from the runs
    themselves: whether an add() run was fed a number that is no marker (`fed_python_total`: a total
    kept in Python and fed back), and whether a run after finalize() ran an op created after it."""
    if observation.get("closed_in_init"):
        return observation
    swaps = mark(inputs, RUNNING_TOTAL_MARKED)[1]
    done, answers = replayed_calls(observation, swaps, run, calls="add_runs")
    if "error" in done:
        return done
    history, reset, n = observation["history"], observation["reset"], len(inputs["values"])
    markers = [np.asarray(m) for m, _ in swaps]
    fed = [np.asarray(value) for start, end in observation["add_runs"] for i in range(start, end)
           for _, value in history["runs"][i]["feeds"]]
    start, end = observation["later_runs"]
    totals = [None if a is None else float(np.asarray(a).reshape(-1)[0]) if np.asarray(a).size == 1 else a
              for a in answers]
    created = created_at(history, range(start, end), run)
    return {**{k: v for k, v in done.items() if k not in ("reset", "later_runs")},
            "totals": totals[:n], "after_reset": totals[n:] if reset == "added" else reset,
            "fed_python_total": any(v.size == 1 and v.dtype.kind in "fiu"
                                    and not any(v.reshape(()) == m for m in markers) for v in fed),
            "modified_finalized_graph": observation["modified_finalized_graph"] or any(
                i is not None and i >= observation["finalized_ops"] for i in created)}


def replay_one_run(observation, inputs, run):
    """What kept_and_dropped's runs show outside the kernel: every run the call made, re-run by the
    grader's worker, and whether one of them returned both kept and dropped (`from_one_run`), or
    any of them either (`from_runs`);
    how many sessions made those runs (`history_sessions`); the random ops of the default graph
    handed out (`random_ops`, read by the worker from its GraphDef); and whether the answering run
    ran ops that graph does not hold (`own_graph`, beside the kernel's own finding)."""
    history = observation["history"]
    values, refused = replay_history(history, [], run)
    default = run({"graph": observation["graph"], "ops": True, "runs": [],
                   "describe": sorted({name for r in history["runs"] for name in r["fetches"]})})
    if refused is not None or "refused" in default:
        return {"error": {"type": "NotReplayable", "message": refused or default["refused"]}}
    answers = [np.asarray(observation[k], np.float32) for k in ("kept", "dropped")]
    answering = [i for i, got in enumerate(values) if got is not None
                 and all(any(_same_array(v, a) for v in got) for a in answers)]
    returned = [i for i, got in enumerate(values) if got is not None
                and any(_same_array(v, a) for v in got for a in answers)]
    built_elsewhere = any((default["described"].get(name) is None) for i in answering
                          for name in history["runs"][i]["fetches"])
    return {**{k: v for k, v in observation.items() if k not in ("history", "graph")},
            "from_one_run": bool(answering), "from_runs": bool(returned), "history_sessions": len({r["session"] for r in history["runs"]}),
            "random_ops": sorted(op for op in default["ops"] if "Random" in op),
            "own_graph": observation["own_graph"] or built_elsewhere}


def _same_array(value, answer) -> bool:
    value = np.asarray(value)
    return value.shape == answer.shape and value.dtype.kind in "fiu" and bool(np.all(value.astype(np.float32) == answer))


def _one_run_split(got) -> bool:
    """kept + dropped gives back x in one session (the kernel's count, and the sessions of the runs
    handed out), and where a run of the call returned either, one run returned both (re-run outside
    the kernel). Answers that no run returned are wrong-mask's."""
    return (got["consistent"] is True and got["sessions"] == 1 and got["history_sessions"] <= 1
            and (got["from_one_run"] or not got["from_runs"]))


def _values(attempt):
    """An attempt's values and error, and which session ran it (the hundreds of its counter values),
    without its counts and counter values (they have checks of their own)."""
    return {**{k: v for k, v in attempt.items() if k not in ("runs", "sessions", "ticks")},
            "session": sorted({int(t // 100) for t in attempt.get("ticks", [])})}


def _same_values(key):
    return lambda got, exp: key in got and values_match(_values(got[key]), _values(exp[key]))


def _one_run_each(got, exp) -> bool:
    """Every call that answered made exactly one run: one Session.run call (the kernel's count), and
    the counter its tensors read, which an op adds 1 to on each run, shows one value per call and as
    many runs in each session as the reference made (the values themselves)."""
    calls = ("explicit", "default", "both")
    return (all(got[k]["runs"] == 1 for k in calls if "values" in got[k])
            and all(values_match(got[k].get("ticks"), exp[k].get("ticks")) for k in calls)
            and values_match(got["after"], exp["after"]))


def _op_name(name: str) -> str:
    return name.split(":")[0].lstrip("^")


def _same_names_other_list(got, exp) -> bool:
    """The right op names, but not the right list: order or repeats differ."""
    names = [_op_name(n) for n in got["inputs"]]
    return set(names) == set(exp["inputs"]) and names != exp["inputs"]


DEFAULT_GRAPH = ("This function was handed a graph but read another one. tf1.get_default_graph() is "
                 "whatever graph is current when the function is called, not the one you were given: "
                 "inspect the argument (graph.get_operations(), graph.get_operation_by_name(...)).")

LESSON = Lesson(
    assignment="01_graphs_and_sessions",
    notebook="graphs_and_sessions.ipynb",
    exercises=(
        Exercise(
            id="count_ops", symbol="count_ops_by_type", points=2, probe=probe_count_ops,
            checks=(
                Check("default-graph", "counts the ops of the graph it is given", DEFAULT_GRAPH,
                      holds(lambda got: DECOY_TYPE not in got["types"]), shows=("types",)),
                Check("counted-tensors", "counts each op once, not each output",
                      "These are the counts of the ops' outputs (tensors), not of the ops. An op is a "
                      "node of the graph; the tensors are its outputs. Count the ops "
                      "(graph.get_operations(), or the GraphDef's nodes) once each: a Split op with "
                      "three outputs is still one op, and a NoOp with no output is still one op.",
                      lambda got, exp: (values_match(got["counts"], exp["counts"])
                                        or not values_match(got["counts"], exp["tensor_counts"])),
                      shows=("counts",)),
                Check("wrong-counts", "counts every op of every type",
                      "Some op type is missing, extra or miscounted. Every op of the graph counts once, "
                      "whatever its type (Const, Placeholder and NoOp included); an empty graph gives {}.",
                      same("counts"), shows=("counts",)),
            ),
            cases=(Case("2 layers, split in 2, and a NoOp (no outputs) after them",
                        {"features": 4, "layers": 2, "parts": 2, "control": True}),),
        ),
        Exercise(
            id="input_names", symbol="input_op_names", points=2, probe=probe_input_names,
            checks=(
                Check("default-graph", "reads the op from the graph it is given", DEFAULT_GRAPH,
                      holds(lambda got: all(_op_name(n) != "decoy" for n in got["inputs"])),
                      shows=("inputs",)),
                Check("control-inputs", "leaves control inputs out",
                      "A control input (op.control_inputs, '^name' in the GraphDef) only orders the "
                      "ops; it passes no data. List the data inputs only: op.inputs.",
                      lambda got, exp: not any(_op_name(n) in exp["control"] for n in got["inputs"]),
                      shows=("inputs",)),
                Check("tensor-names", "returns op names, not tensor names",
                      "op.inputs holds tensors, and a tensor's name is '<op name>:<output index>' "
                      "(x:0, parts:1). The op that made a tensor is tensor.op: return tensor.op.name. "
                      "Cutting the ':N' off a tensor's name by hand goes wrong where the op's own name "
                      "ends in digits (rstrip(':0123456789') turns 'layer12:0' into 'layer'). "
                      "(GraphDef input strings are different again: 'parts:1', and '^name' for a "
                      "control input.)",
                      lambda got, exp: all(":" not in n and not n.startswith("^") and n in exp["ops"]
                                           for n in got["inputs"]),
                      shows=("inputs",)),
                Check("input-order", "lists every input in order, repeats included",
                      "An op's inputs are an ordered list, and one op may feed another more than once "
                      "(x * x has the inputs [x, x]). Keep the order and the repeats: no set(), no sorted().",
                      lambda got, exp: not _same_names_other_list(got, exp), shows=("inputs",)),
                Check("wrong-op", "reads the inputs of the op with exactly that name",
                      "These are not the inputs of the op called `name`. Look the op up by its exact "
                      "name, graph.get_operation_by_name(name): another op's name may start or end with "
                      "the same letters ('out', 'outer', 'my_out', 'block/out').",
                      same("inputs"), shows=("inputs",)),
            ),
            # The second: a control input to leave out, and an input op whose name ends in digits.
            cases=(Case("the inputs of 'out'", {"name": "out"}),
                   Case("the inputs of 'guarded' (a control input, an op named 'layer12')", {"name": "guarded"})),
        ),
        Exercise(
            id="evaluate", symbol="evaluate", points=3, probe=probe_evaluate,
            checks=(
                Check("closed-callers-session", "leaves the caller's session open",
                      "evaluate() closed a session it was handed (or the default one): `with session:` "
                      "closes the session when the block ends, and so does session.close(). The session "
                      "belongs to the caller, who goes on using it: run the tensors in it and leave it "
                      "open.",
                      # The kernel's flag, and the probe's own run of each session after the calls.
                      holds(lambda got: got["closed_callers"] is False and None not in got["after"]), shows=()),
                Check("eval-needs-default", "uses the session it is given",
                      "With a session passed in (and no default session) the values must come from "
                      "that session. t.eval() looks only at the default session, since it is "
                      "tf1.get_default_session().run(t): run the tensors with the session you were "
                      "given, session.run(tensors) (or t.eval(session=session)).",
                      _same_values("explicit"), shows=("explicit",)),
                Check("default-over-given", "prefers the given session to the default one",
                      "With a session passed in AND another session as the default, the values came "
                      "from the default one. A given session wins, as in t.eval(session=session): "
                      "look at the default session only when session is None.",
                      _same_values("both"), shows=("both",)),
                Check("default-session-ignored", "falls back to the default session",
                      "With session=None, use tf1.get_default_session(), exactly like t.eval(). A new "
                      "tf1.Session() is no substitute: variable values live in a session, and a fresh "
                      "one holds none of them.",
                      _same_values("default"), shows=("default",)),
                Check("invented-session", "raises ValueError when there is no session at all",
                      "With no session given and no default session, t.eval() raises ValueError, and so "
                      "must evaluate. Opening a new session instead would evaluate in a session that "
                      "holds none of the variables' values.",
                      holds(lambda got: got["none"].get("raised") == "ValueError"
                            and all(got[k]["sessions"] == 0 for k in ("explicit", "default", "both", "none"))),
                      shows=("none",)),
                Check("separate-runs", "computes all the tensors in one run",
                      "The tensors were not computed in one run: two of them read a counter that every "
                      "run adds 1 to, and they came back different, or the session ran more than once "
                      "per call. Every run (and every t.eval(), which is a run) executes the graph again, so values drawn at random, or read "
                      "while something changes, would not belong together. Fetch the list in one "
                      "session.run(list(tensors)).",
                      _one_run_each, shows=()),
            ),
            cases=(Case("state [1, 2] set to [3, -1]", {"init": [1.0, 2.0], "new": [3.0, -1.0]}),),
        ),
        Exercise(
            id="one_run", symbol="kept_and_dropped", points=3, probe=probe_one_run, replay=replay_one_run,
            checks=(
                Check("own-graph", "builds in the default graph",
                      "The mask was built and run in a graph of your own (a `with tf.Graph().as_default():` "
                      "inside the function), not in the default graph the caller set up. Build in the "
                      "default graph: the caller chooses the graph, as the lesson's demos do around "
                      "each call.",
                      holds(lambda got: got["own_graph"] is False), shows=()),
                Check("numpy-mask", "draws the mask with a TensorFlow random op",
                      "The graph holds no random op: the mask was drawn outside TensorFlow (NumPy, "
                      "Python's random). Draw it in the graph, tf.random.uniform(tf.shape(x), seed=seed) "
                      "< keep, and compute kept and dropped from it in one session.run.",
                      holds(lambda got: len(got["random_ops"]) >= 1), shows=("random_ops",)),
                Check("separate-runs", "kept + dropped give back x, no element in both, from one run",
                      "kept and dropped were computed from different draws of the mask, in "
                      "different sessions, or not both by one run of your graph. Every run, and every t.eval() (which is a run), executes the "
                      "random op again. Open one session and fetch both in ONE sess.run([kept, "
                      "dropped]): ops they share are computed once per run.",
                      holds(_one_run_split), shows=("kept", "dropped", "sessions")),
                Check("two-random-ops", "draws the mask with a single random op",
                      "The graph holds more than one random op. Each random op is a draw of its own: "
                      "build the mask once and use that one tensor for both outputs. (Two ops with the "
                      "same op seed repeat the same numbers, which hides the bug until a seed changes.)",
                      holds(lambda got: len(got["random_ops"]) <= 1), shows=("random_ops",)),
                Check("float64-arrays", "returns float32 arrays, like x",
                      "kept and dropped are asked for as float32 arrays, the dtype of x; these have "
                      "another dtype. Build x with tf.constant(x, tf.float32) and keep that dtype.",
                      holds(lambda got: got["dtypes"] == ["float32", "float32"]), shows=("dtypes",)),
                Check("wrong-mask", "keeps x exactly where uniform < keep",
                      "Keep x where tf.random.uniform(tf.shape(x), seed=seed) < keep and drop it "
                      "elsewhere, and return what one run of that graph gives; with that op and seed "
                      "the mask is reproducible.",
                      lambda got, exp: (not got["consistent"] or len(got["random_ops"]) > 1
                                        or (len(got["random_ops"]) == 1 and got["from_one_run"]
                                            and values_match(got["kept"], exp["kept"])
                                            and values_match(got["dropped"], exp["dropped"]))),
                      shows=("kept", "dropped", "random_ops")),
            ),
            # A matrix in public too: a mask shaped [len(x)] answers every vector and raises here.
            cases=(Case("x = 1..8, keep 0.5, seed 7",
                        {"x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], "keep": 0.5, "seed": 7}),
                   Case("a 2 x 3 matrix x, keep 0.6, seed 3",
                        {"x": [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], "keep": 0.6, "seed": 3})),
        ),
        Exercise(
            id="running_total", symbol="RunningTotal", points=2, probe=probe_running_total,
            marked=tuple(RUNNING_TOTAL_MARKED.items()), replay=replay_running_total,
            checks=(
                Check("session-closed", "keeps its session open after __init__",
                      "The session opened in __init__ was already closed when __init__ returned: "
                      "`with tf1.Session() as sess:` closes it at the end of the block, and every add() "
                      "then fails on a closed session. Keep it open: self.sess = tf1.Session().",
                      holds(lambda got: got["closed_in_init"] is False), shows=()),
                Check("ops-in-loop", "adds no ops after __init__",
                      "add() tried to create an op in a finalized graph. Build the placeholder and the "
                      "one assign_add op in __init__; add() must only run them.",
                      holds(lambda got: got["modified_finalized_graph"] is False),
                      shows=("modified_finalized_graph",)),
                Check("session-per-step", "keeps one session for every add",
                      "add() opened a session. A variable's value lives in the session that "
                      "initialized it: open one session in __init__ and keep it. A new session, or "
                      "running the initializer again, starts over from 0.",
                      holds(lambda got: got["sessions_per_add"] == 0 and got["call_sessions"] <= 1),
                      shows=("sessions_per_add",)),
                Check("float64-total", "keeps the total in a float32 variable",
                      "The total is asked for as a float32 variable; this one has another dtype. "
                      "Create it with dtype=tf.float32 (and feed it through a float32 placeholder).",
                      holds(lambda got: all(d == "float32" for d in got["variables"])),
                      shows=("variables",)),
                Check("wrong-totals", "returns the running total after each value",
                      "The total must carry over from call to call: add(value) adds value to the "
                      "variable and returns the variable's new value.",
                      # A total fed from Python is frozen at the markers' sums when re-run: python-total names it.
                      lambda got, expected: got["fed_python_total"] or same("totals")(got, expected),
                      shows=("totals",)),
                Check("python-total", "keeps the total in the variable, not in Python",
                      "The total lives in Python, not in the graph: add() fed a total it computed "
                      "itself, or, once the variable was set back to 0 (by running its initializer in "
                      "your session), went on from the old total. Let the one assign_add op do the "
                      "adding and return what it gives; keep no copy of the total in Python, and make "
                      "exactly one variable.",
                      lambda got, expected: not got["fed_python_total"] and same("after_reset")(got, expected),
                      shows=("variables", "after_reset")),
            ),
            cases=(Case("add 1, 2, 3.5", {"values": [1.0, 2.0, 3.5]}),),
        ),
    ),
)

# What each exercise's docstring (and the text above it) promises, and the check that reads it.
REQUIREMENTS = {
    "count_ops": {
        "Return {op type: number of ops of that type}": "counted-tensors",
        "for every op in `graph`": "wrong-counts",
        "Read `graph` itself, whatever the default graph is": "default-graph",
    },
    "input_names": {
        "the ops whose outputs feed the op `name` of `graph`": "wrong-op",
        "in input order; one entry per data input, repeats included": "input-order",
        "op names, not tensor names": "tensor-names",
        "no control inputs": "control-inputs",
        "Read `graph`, not the default graph": "default-graph",
    },
    "evaluate": {
        "computed in ONE run": "separate-runs",
        "use `session` when given": ("eval-needs-default", "default-over-given"),
        "else the default session": "default-session-ignored",
        "with neither, raise ValueError; never open a session of your own": "invented-session",
        "like Tensor.eval(): the caller's session is used, not closed": "closed-callers-session",
    },
    "one_run": {
        "Split the array x with ONE random mask": "two-random-ops",
        "as float32 NumPy arrays": "float64-arrays",
        "from one run; fetch both in one sess.run": "separate-runs",
        "mask = tf.random.uniform(tf.shape(x), seed=seed) < keep": ("numpy-mask", "wrong-mask"),
        "Build in the default graph": "own-graph",
    },
    "running_total": {
        "held in a float32 variable (starting at 0)": ("float64-total", "python-total"),
        "__init__() builds every op; add() runs only ops built in __init__": "ops-in-loop",
        "opens a session and initializes the variable": ("session-per-step", "session-closed"),
        "add(value) adds `value` and returns the new total": "wrong-totals",
    },
}
