"""Lesson 6: seeds, randomness and input pipelines (seed 003, second half).

Every observation is either a relation (equal / different, repeats / moves on) or values drawn under
fixed seeds, which the reference computes with the same TensorFlow version: nothing depends on
timing or on unseeded randomness in the reference.
"""
from __future__ import annotations

import numpy as np

from autograder.course.compare import holds, same, values_match
from autograder.course.history import created_at, replayed_calls
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probes.l06_seeds_and_pipelines import (
    RANDOM_OP_TYPES,
    probe_batch_reader,
    probe_noise_source,
    probe_shuffled_epochs,
    probe_step_noise,
    probe_twin_noise,
    replays,
)


def _session_values(run, part, fetches) -> list:
    """What each of `fetches` (a tensor name, or a list of names) returns, run in turn in one new
    session of the grader's worker on the graph `part` handed out, as arrays; None for a run that
    failed, and for every run of a graph the worker refuses."""
    runs = [{"fetches": f} if isinstance(f, list) else {"fetch": f} for f in fetches]
    results = run({"graph": part["graph"], "runs": runs}).get("results") or [{}] * len(runs)
    return [None if "value" not in r else
            [np.asarray(v) for v in r["value"]] if isinstance(f, list) else np.asarray(r["value"])
            for f, r in zip(fetches, results)]


def _equal(x, y) -> bool:
    """Whether two values run outside are the same arrays (lists of arrays compared item by item)."""
    if x is None or y is None:
        return False
    if isinstance(x, list):
        return len(x) == len(y) and all(_equal(a, b) for a, b in zip(x, y))
    return x.shape == y.shape and bool(np.array_equal(x, y))


def replay_twin_noise(observation, inputs, run):
    """Everything judged on the three builds handed out, by the grader's worker; nothing the kernel ran.

    Run: (a, b) twice in one new session and once in a second (`pair_equal`, `advances`,
    `new_session_repeats`); a twice then b in a third, where b gives its first values again only if
    running a did not advance it (`separate_values`); a of the build with seed + 1 (`seed_matters`);
    dtypes as the graph declares them, shape and range of the values. Read, never run: how many random
    ops the graph holds, the seeded random ops a and b are computed from (`separate` when they share
    none and the values agree), and their seed pairs (`op_seeds`). Each source's op seed (seed2) is
    compared with the same source's in the build made after the probe's three graph-seeded ops: one
    that stayed was written in the code, one that moved was derived from a graph-level seed.
    `different_op_seeds`: a and b come from ops whose written op seeds differ."""
    a, b = names = observation["names"]
    built, shifted = (run({"graph": part["graph"], "ops": True, "random_sources": part["names"], "describe": names,
                           "runs": []}) for part in (observation, observation["shifted"]))
    if "random_sources" not in built or "random_sources" not in shifted or "refused" in built:
        return {"error": {"type": "NotReplayable", "message": built.get("refused") or shifted.get("refused")}}
    run1, run2 = _session_values(run, observation, [names, names])
    run3, = _session_values(run, observation, [names])
    alone = _session_values(run, observation, [a, a, b])
    other, = _session_values(run, observation["other"], [observation["other"]["names"][0]])
    values = [v for r in (run1, run2) if r is not None for v in r]
    sources, moved = ([s or [] for s in answer["random_sources"]] for answer in (built, shifted))
    pairs = [[[seed, seed2] for _, seed, seed2 in found] for found in sources]
    written = all(len(s) == len(m) and all(x[2] == y[2] for x, y in zip(s, m)) for s, m in zip(sources, moved))
    source_names = [{name for name, _, _ in found} for found in sources]
    separate_values = _equal(alone[2], run1 and run1[1]) and not _equal(alone[2], alone[1])
    return {"random_ops": sum(op in RANDOM_OP_TYPES for op in built["ops"]),
            "separate": bool(separate_values and all(source_names) and not source_names[0] & source_names[1]),
            "op_seeds": pairs, "different_op_seeds": bool(all(pairs) and written and pairs[0] != pairs[1]),
            "pair_equal": all(r is not None and _equal(r[0], r[1]) for r in (run1, run2, run3)),
            "new_session_repeats": _equal(run1, run3),
            "advances": run1 is not None and run2 is not None and not any(_equal(x, y) for x, y in zip(run1, run2)),
            "seed_matters": run1 is not None and other is not None and not _equal(run1[0], other),
            "dtypes": [(built["described"].get(name) or {}).get("dtype") for name in names],
            "in_unit_range": len(values) == 4 and all(bool(np.all((v >= 0) & (v < 1))) for v in values),
            "shape": list(run1[0].shape) if run1 else None}


def replay_noise_source(observation, inputs, run):
    """The draws as the runs that returned them compute them outside the kernel: every run the
    source made, re-run by the grader's worker (a new session there starts the op over, as in the
    kernel), `draws` the first ones, and `replays_outside` whether the draws after each replay()
    repeat them there too: a draw no run returned (a Python cache) is None, and repeats nothing.
    Read from the runs too: whether a run after finalize() fetched an op created after it."""
    done, answers = replayed_calls(observation, [], run, calls="draw_runs")
    if "error" in done:
        return done
    n = len(observation["draws"])
    arrays = [None if a is None else np.asarray(a) for a in answers]
    outside = all(a is not None for a in arrays) and replays(arrays[:n], arrays[n:2 * n + 1], arrays[2 * n + 1:], n)
    start, end = observation["later_runs"]
    created = created_at(observation["history"], range(start, end), run)
    return {**{k: v for k, v in done.items() if k not in ("finalized_ops", "later_runs")},
            "draws": answers[:n], "replays_outside": outside,
            "modified_finalized_graph": observation["modified_finalized_graph"] or any(
                i is not None and i >= observation["finalized_ops"] for i in created)}


def replay_batch_reader(observation, inputs, run):
    """The reader's graph as handed out, read outside the kernel by the grader's worker (never run):
    whether it held an iterator's get_next and a prefetch when finalized, and whether it held more
    ops after the reads than then, each beside what the kernel found."""
    finalized, after = (run({"graph": graph, "ops": True, "runs": []}) for graph in observation["graphs"])
    if "ops" not in finalized or "ops" not in after:
        return {"error": {"type": "NotReplayable", "message": finalized.get("refused") or after.get("refused")}}
    ops = set(finalized["ops"])
    return {**{k: v for k, v in observation.items() if k != "graphs"},
            "reads_in_graph": observation["reads_in_graph"] and "IteratorGetNext" in ops,
            "prefetches": observation["prefetches"] and "PrefetchDataset" in ops,
            "modified_finalized_graph": observation["modified_finalized_graph"]
            or len(after["ops"]) > len(finalized["ops"])}


def _wrapped_around(got, expected) -> bool:
    """Every batch right but the last, which holds the rows the data had left, then more."""
    got_b, exp_b = got["batches"], expected["batches"]
    if len(got_b) != len(exp_b) or not got_b or got_b[-1] is None or exp_b[-1] is None:
        return False
    left = len(exp_b[-1])
    return (values_match(got_b[:-1], exp_b[:-1]) and len(got_b[-1]) > left
            and values_match(list(got_b[-1][:left]), list(exp_b[-1])))


def _shuffled(got, expected) -> bool:
    """Every row of the data came back once, in the batch sizes due, but in another order."""
    got_b, exp_b = got["batches"], expected["batches"]
    if (len(got_b) != len(exp_b) or any(b is None for b in [*got_b, *exp_b])
            or [len(b) for b in got_b] != [len(b) for b in exp_b] or values_match(got_b, exp_b)):
        return False
    def rows(batches):
        return sorted(repr(np.asarray(row).tolist()) for batch in batches for row in batch)
    return rows(got_b) == rows(exp_b)


def _dropped_last_batch(got, expected):
    """False when the student's reader ran out where the reference still had a short last batch."""
    return not any(g is None and e is not None for g, e in zip(got["batches"], expected["batches"]))


LESSON = Lesson(
    assignment="06_seeds_and_pipelines",
    notebook="seeds_and_pipelines.ipynb",
    exercises=(
        Exercise(
            id="twin_noise", symbol="twin_noise", points=2, probe=probe_twin_noise, replay=replay_twin_noise,
            checks=(
                Check("different-op-seeds", "a and b carry the same op-level seed",
                      "a and b were built with different op-level seeds (their seed pairs, read from the "
                      "graph, are shown): the seed pair decides where an op's sequence starts, so two ops "
                      "with different op seeds never match. Give both ops the same seed, seed=seed.",
                      # The seed pairs in the GraphDefs handed out, read by the grader's worker.
                      holds(lambda got: not got["different_op_seeds"]), shows=("op_seeds",)),
                Check("seed-after-ops", "a new session starts them over from the same values",
                      "The values changed from one session to the next, so the ops were built without "
                      "any seed. A graph-level seed only reaches random ops built after it is set; pass "
                      "seed= to the ops themselves.",
                      holds(lambda got: got["new_session_repeats"]), shows=("new_session_repeats",)),
                Check("graph-seed-only", "a and b hold the same values in every run",
                      "a and b drew different values. A graph-level seed alone gives every random op "
                      "its own derived op seed, so two ops never match. Give both ops the same "
                      "op-level seed (seed=...).",
                      holds(lambda got: got["pair_equal"]), shows=("pair_equal",)),
                Check("not-two-random-ops", "a and b are two random ops that move on in a session",
                      "Return two separate random ops, each its own tf1.random.uniform(shape, ...): "
                      "not one op twice, a copy of one op, or a constant. They must give new values "
                      "when run again in the same session.",
                      # The random ops and their sources in the GraphDef handed out, and the kernel's values.
                      holds(lambda got: got["random_ops"] >= 2 and got["advances"] and got["separate"]),
                      shows=("random_ops", "advances", "separate")),
                Check("seed-ignored", "draws other values for another seed",
                      "The ops drew the same values whatever `seed` was: seed them with the `seed` you are "
                      "given (seed=seed), not a number of your own.",
                      holds(lambda got: got["seed_matters"]), shows=("seed_matters",)),
                Check("wrong-dtype", "draws float32 values in [0, 1)",
                      "tf1.random.uniform(shape) draws float32 values in [0, 1): keep its default dtype and "
                      "range.", same("dtypes", "in_unit_range"), shows=("dtypes", "in_unit_range")),
                Check("wrong-shape", "has the requested shape", "The ops must have the given shape.",
                      same("shape"), shows=("shape",)),
            ),
            cases=(Case("seed 2, shape [3]", {"seed": 2, "shape": [3]}),),
        ),
        Exercise(
            id="noise_source", symbol="NoiseSource", points=3, probe=probe_noise_source, replay=replay_noise_source,
            checks=(
                Check("rebuilt-op", "builds no ops after __init__",
                      "A method built a new op in the finalized graph. A fresh random op with the same "
                      "seed would start over too, but the graph would grow on every replay; a new "
                      "Session restarts the existing op instead.",
                      # The kernel's guard, and where the ops the runs fetched were created in the graph handed out.
                      holds(lambda got: not got["modified_finalized_graph"]),
                      shows=("modified_finalized_graph",)),
                Check("new-session-per-draw", "successive draws continue the sequence",
                      "Every draw returned the same values: each new Session starts every random op over "
                      "from its seed. Open one session in __init__ and keep running the op in it.",
                      holds(lambda got: got["advances"]), shows=("advances",)),
                Check("reseed-does-not-restart", "replay() makes the next draws repeat the first ones",
                      "After replay() the sequence went on instead of starting over. Setting a seed again "
                      "changes nothing for an op that is already built, and the generator's position "
                      "lives in the session's kernels: open a new Session on the same graph.",
                      holds(lambda got: got["replays"]), shows=("replays",)),
                Check("replayed-from-python", "replays by restarting the op, not from a Python cache",
                      "The draws after replay() repeat the first ones, but replay() opened no session, or "
                      "no run returned the repeated draws, and only a new session restarts the op: the "
                      "repeated values did not come from restarting it. The generator's position lives in the session's kernels: open a new "
                      "Session on the same graph (and close the old one).",
                      # The kernel's count of sessions, and the draws re-run outside the kernel.
                      holds(lambda got: got["replay_opens_session"] and got["replays_outside"]),
                      shows=("replay_opens_session",)),
                Check("wrong-sequence", "draws the values of uniform(shape, seed=seed)",
                      "The draws are not those of tf1.random.uniform(shape, seed=seed) with no graph-level "
                      "seed. Keep the op-level seed only: a graph seed changes the seed pair the kernel gets.",
                      same("draws"), shows=("draws",)),
                Check("wrong-dtype", "returns the op's float32 values",
                      "draw() must return the op's values as they come out of sess.run: float32, unconverted.",
                      same("dtype"), shows=("dtype",)),
            ),
            # The second case makes its calls while another graph, empty, is the default one: a session
            # opened without graph= in replay() runs on that graph and raises there, in public too.
            cases=(Case("seed 5, shape [2], 3 draws", {"seed": 5, "shape": [2]}),
                   Case("seed 8, shape [3], 2 draws, called while another graph is the default one",
                        {"seed": 8, "shape": [3], "draws": 2, "decoy": True})),
        ),
        Exercise(
            id="shuffled_epochs", symbol="shuffled_epochs", points=3, probe=probe_shuffled_epochs,
            checks=(
                Check("unseeded-shuffle", "gives the same order in two new sessions",
                      "The order changed between two sessions: the shuffle has no seed, so every new "
                      "iterator draws a fresh one. Pass seed= to shuffle.",
                      holds(lambda got: got["sessions_agree"]), shows=("sessions_agree",)),
                Check("repeats-forever", "ends after exactly `epochs` epochs",
                      "The dataset does not yield exactly epochs * len(data) elements before it raises "
                      "OutOfRangeError (the number it yielded is shown). Shuffle, then repeat(epochs): "
                      "repeat() with no count never ends, and no repeat or a smaller count ends early.",
                      holds(lambda got: got["ends_after_epochs"]), shows=("elements",)),
                Check("repeat-before-shuffle", "makes every epoch a permutation of the data",
                      "An epoch is not a permutation of the data: shuffling after repeat mixes copies "
                      "across epoch boundaries, so an element can appear twice in one epoch and not at "
                      "all in another. Shuffle first, then repeat.",
                      holds(lambda got: got["permutations"]), shows=("permutations",)),
                Check("wrong-dtype", "yields the elements of `data` unchanged",
                      "The elements changed type: build the dataset from the list itself "
                      "(from_tensor_slices(data)), without converting it.", same("kinds"), shows=("kinds",)),
                Check("reshuffle-each-iteration", "reshuffles between epochs exactly when asked",
                      "reshuffle_each_iteration decides whether each epoch gets a new order (True, the "
                      "default) or repeats the first one (False). Pass `reshuffle` to it.",
                      same("epochs_differ"), shows=("epochs_differ",)),
                Check("small-buffer", "shuffles with a buffer as long as the data",
                      "On data longer than your buffer the order differs: shuffle's buffer must hold the whole "
                      "list, repeated values included, shuffle(len(data), ...), not a fixed number or a count "
                      "that happens to fit some lists.",
                      holds(lambda got: got["small_buffer"] is False), shows=("small_buffer",)),
                Check("shuffle-order", "matches shuffle(len(data), seed=seed) then repeat",
                      "The order is not that of shuffle(len(data), seed=seed, reshuffle_each_iteration="
                      "reshuffle) followed by repeat(epochs): use a full-size buffer and the op-level "
                      "seed, with no graph-level seed, and let reshuffle_each_iteration=reshuffle fix the "
                      "order (a cached first pass, repeated, holds another order).",
                      same("orders"), shows=("orders",)),
            ),
            cases=(
                Case("8 items, seed 3, reshuffle, 3 epochs",
                     {"data": list(range(8)), "seed": 3, "reshuffle": True, "epochs": 3}),
                # Longer than 8 and with repeated values: a buffer of 8, or of len(set(data)), holds less
                # than the list here, in public, as in the hidden cases.
                Case("9 items with repeated values, seed 7, no reshuffle, 2 epochs",
                     {"data": [10, 11, 11, 12, 13, 14, 14, 15, 16], "seed": 7, "reshuffle": False, "epochs": 2}),
                # "Any length": past the 1000 a capped buffer (shuffle(min(len(data), 1000))) would hold.
                Case("1001 items, seed 1, reshuffle, 2 epochs",
                     {"data": list(range(1001)), "seed": 1, "reshuffle": True, "epochs": 2}),
            ),
        ),
        Exercise(
            id="batch_reader", symbol="BatchReader", points=3, probe=probe_batch_reader, replay=replay_batch_reader,
            checks=(
                Check("pipeline-in-loop", "builds no ops in next_batch",
                      "next_batch built ops in the finalized graph: the dataset, its iterator or "
                      "get_next() is created inside the loop. Build the pipeline and one get_next() "
                      "tensor in __init__; next_batch only runs it.",
                      holds(lambda got: not got["modified_finalized_graph"]),
                      shows=("modified_finalized_graph",)),
                Check("dropped-last-batch", "returns the last, shorter batch",
                      "The data ran out (OutOfRangeError) where a last, shorter batch was still due: "
                      "batch(batch_size) keeps the remainder; drop_remainder=True throws it away.",
                      _dropped_last_batch, shows=("batches",)),
                Check("wrapped-around", "ends with the data: the last batch holds only the rows left",
                      "The last batch went past the end of the data and started it again: repeat() before "
                      "batch() makes the reader endless, so a batch straddles two passes. The reader walks "
                      "through `features` once; its last batch is the shorter remainder.",
                      lambda got, exp: not _wrapped_around(got, exp), shows=("batches",)),
                Check("shuffled", "keeps the rows in the order of `features`",
                      "Every row of the data came back once, but in another order: the pipeline shuffles. "
                      "This reader batches the rows in order: leave out shuffle().",
                      lambda got, exp: not _shuffled(got, exp), shows=("batches",)),
                Check("restarted-iterator", "returns successive batches of the data, in order",
                      "The batches do not walk through the data in order. Running the iterator's "
                      "initializer (or opening a new session) on every call starts the pipeline over; "
                      "initialize once, then each run of get_next() continues.",
                      same("batches"), shows=("batches",)),
                Check("fed-from-python", "reads the data with an iterator inside the graph",
                      "There is no iterator in the graph: the batches come from Python through feed_dict. "
                      "Build a tf.data pipeline (from_tensor_slices, batch, prefetch) and an iterator, so "
                      "the runtime reads the data itself.",
                      holds(lambda got: got["reads_in_graph"]), shows=("reads_in_graph",)),
                Check("no-prefetch", "prefetches",
                      "The pipeline has no prefetch: end it with .prefetch(1) (or more), so the runtime "
                      "prepares the next batch while the current one is used.",
                      holds(lambda got: got["prefetches"]), shows=("prefetches",)),
                Check("wrong-dtype", "keeps the dtype of `features`",
                      "The batches have another dtype than `features`: build the dataset from the array as "
                      "it is, without casting it.", same("dtypes"), shows=("dtypes",)),
            ),
            # int32 features: a reader that casts (to TensorFlow's float32, or to float64) fails here, in
            # public, what the hidden float64 and drawn cases take back as wrong-dtype.
            cases=(Case("10 rows of 2 int32 values, batches of 4, 3 calls",
                        {"features": np.arange(20).reshape(10, 2).tolist(), "batch_size": 4,
                         "calls": 3, "dtype": "int32"}),),
        ),
        Exercise(
            id="step_noise", symbol="step_noise", points=2, probe=probe_step_noise,
            checks=(
                Check("stateful-rng", "gives each step the same noise whatever was drawn before",
                      "A step's noise changed when other steps were asked for first: a stateful "
                      "generator (tf.random.Generator, or tf.random.uniform) hands out the next numbers "
                      "of one stream, and a seed built from the step's position in `steps` (enumerate) "
                      "is no better. Derive each step's noise from (seed, step) with a stateless op.",
                      holds(lambda got: got["replays"]), shows=("replays",)),
                Check("same-noise-every-step", "gives different steps different noise",
                      "Different steps got the same noise: put the step into the stateless seed, "
                      "seed=[seed, step].",
                      holds(lambda got: got["steps_differ"]), shows=("steps_differ",)),
                Check("wrong-noise", "draws stateless_uniform(shape, seed=[seed, step])",
                      "The values differ from tf.random.stateless_uniform(shape, seed=[seed, step]).",
                      same("noise"), shows=("noise",)),
                Check("wrong-dtype", "returns float32 NumPy arrays",
                      "Return each step's noise as the NumPy array .numpy() gives: float32, unconverted, "
                      "not a tensor.", same("kinds"), shows=("kinds",)),
            ),
            cases=(Case("seed 42, steps 0 1 2, shape [3]", {"seed": 42, "steps": [0, 1, 2], "shape": [3]}),),
        ),
    ),
)

# What each exercise's docstring (and the text above it) promises, and the check that reads it.
REQUIREMENTS = {
    "twin_noise": {
        "Return two separate uniform random ops": ("not-two-random-ops", "wrong-dtype"),
        "of the given shape": "wrong-shape",
        "that always draw the same values": ("different-op-seeds", "graph-seed-only", "seed-after-ops"),
        "(from `seed`)": "seed-ignored",
    },
    "noise_source": {
        "One seeded uniform random op": ("wrong-sequence", "wrong-dtype"),
        "__init__(seed, shape) builds the op in the default graph and opens a session": "rebuilt-op",
        "draw() returns the next values": "new-session-per-draw",
        "replay() makes the next draw() start the sequence over": ("reseed-does-not-restart", "replayed-from-python"),
    },
    "shuffled_epochs": {
        "Dataset of `epochs` seeded shuffles of `data`": ("unseeded-shuffle", "repeat-before-shuffle", "repeats-forever", "wrong-dtype"),
        "reshuffled between epochs iff `reshuffle`": "reshuffle-each-iteration",
        "(shuffle(len(data), seed=seed) then repeat)": ("small-buffer", "shuffle-order"),
    },
    "batch_reader": {
        "Reads `features` in batches through a tf.data pipeline inside the graph": ("fed-from-python", "no-prefetch"),
        "next_batch() returns the next batch (a NumPy array)": ("shuffled", "restarted-iterator", "dropped-last-batch", "wrapped-around",
                                                                "wrong-dtype"),
        "and builds nothing": "pipeline-in-loop",
    },
    "step_noise": {
        "One array of uniform noise per step": ("wrong-noise", "wrong-dtype"),
        "a pure function of (seed, step)": ("stateful-rng", "same-noise-every-step"),
    },
}
