"""Lesson 6: seeds, randomness and input pipelines (seed 003, second half).

Every observation is either a relation (equal / different, repeats / moves on) or values drawn under
fixed seeds, which the reference computes with the same TensorFlow version: nothing depends on
timing or on unseeded randomness in the reference.
"""
from __future__ import annotations

import numpy as np

from ..compare import holds, same
from ..probing import close_session, FinalizedGraphGuard
from ..spec import Case, Check, Exercise, Lesson

RANDOM_OP_TYPES = ("RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt")


def _equal_lists(xs, ys) -> bool:
    return len(xs) == len(ys) and all(np.array_equal(x, y) for x, y in zip(xs, ys))


def probe_twin_noise(fn, seed, shape):
    """Run (a, b) twice in one session and once in a second session; record the relations."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        a, b = fn(seed, shape)
        random_ops = sum(op.type in RANDOM_OP_TYPES for op in graph.get_operations())
        with tf1.Session() as sess:
            run1 = [np.asarray(v) for v in sess.run([a, b])]
            run2 = [np.asarray(v) for v in sess.run([a, b])]
        with tf1.Session() as sess:
            run3 = [np.asarray(v) for v in sess.run([a, b])]
    return {
        "pair_equal": all(np.array_equal(r[0], r[1]) for r in (run1, run2, run3)),
        "new_session_repeats": _equal_lists(run1, run3),
        "advances": not np.array_equal(run1[0], run2[0]),
        "random_ops": random_ops,
        "shape": list(run1[0].shape),
    }


def probe_noise_source(cls, seed, shape, draws=3):
    """Build, finalize the graph, draw `draws` times, replay, draw again."""
    import tensorflow as tf

    with tf.Graph().as_default() as graph:
        source = cls(seed, shape)
        graph.finalize()
        first, replayed, guard = [], [], FinalizedGraphGuard()
        with guard:
            first = [np.asarray(source.draw()) for _ in range(draws)]
            source.replay()
            replayed = [np.asarray(source.draw()) for _ in range(draws)]
        close_session(source)
    return {
        "draws": first,
        "advances": len(first) == draws and all(not np.array_equal(x, y) for x, y in zip(first, first[1:])),
        "replays": len(first) == draws and _equal_lists(first, replayed),
        "modified_finalized_graph": guard.tripped,
    }


def probe_shuffled_epochs(fn, data, seed, reshuffle, epochs):
    """Read every epoch through one iterator, in two fresh sessions."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    n = len(data)
    with tf.Graph().as_default():
        dataset = fn(list(data), seed, reshuffle, epochs)
        next_item = tf1.data.make_one_shot_iterator(dataset).get_next()
        sessions = []
        for _ in range(2):
            with tf1.Session() as sess:
                flat = [np.asarray(sess.run(next_item)).item() for _ in range(n * epochs)]
            sessions.append([flat[i * n:(i + 1) * n] for i in range(epochs)])
    orders = sessions[0]
    return {
        "orders": orders,
        "sessions_agree": sessions[0] == sessions[1],
        "permutations": all(sorted(e) == sorted(data) for e in orders),
        "epochs_differ": any(e != orders[0] for e in orders[1:]),
    }


def probe_batch_reader(cls, features, batch_size, calls):
    """Build the reader, finalize the graph, read `calls` batches."""
    import tensorflow as tf

    features = np.asarray(features, np.float32)
    with tf.Graph().as_default() as graph:
        reader = cls(features, batch_size)
        reads_in_graph = any(op.type == "IteratorGetNext" for op in graph.get_operations())
        graph.finalize()
        batches, guard = [], FinalizedGraphGuard()
        with guard:
            batches = [np.asarray(reader.next_batch()) for _ in range(calls)]
        close_session(reader)
    return {"batches": batches, "modified_finalized_graph": guard.tripped, "reads_in_graph": reads_in_graph}


def probe_step_noise(fn, seed, steps, shape):
    """Ask for the steps in order, then in reverse order; a step's noise must not change."""
    steps = list(steps)
    forward = [np.asarray(v) for v in fn(seed, steps, shape)]
    backward = [np.asarray(v) for v in fn(seed, steps[::-1], shape)][::-1]
    return {
        "noise": forward,
        "replays": _equal_lists(forward, backward),
        "steps_differ": all(not np.array_equal(forward[i], forward[j])
                            for i in range(len(steps)) for j in range(i + 1, len(steps))),
    }


LESSON = Lesson(
    assignment="06_seeds_and_pipelines",
    notebook="seeds_and_pipelines.ipynb",
    exercises=(
        Exercise(
            id="twin_noise", symbol="twin_noise", points=2, probe=probe_twin_noise,
            checks=(
                Check("graph-seed-only", "a and b hold the same values in every run",
                      "a and b drew different values. A graph-level seed alone gives every random op "
                      "its own derived op seed, so two ops never match. Give both ops the same "
                      "op-level seed (seed=...).",
                      holds(lambda got: got["pair_equal"]), shows=("pair_equal",)),
                Check("seed-after-ops", "a new session starts them over from the same values",
                      "The values changed from one session to the next, so the ops were built without "
                      "any seed. A graph-level seed only reaches random ops built after it is set; pass "
                      "seed= to the ops themselves.",
                      holds(lambda got: got["new_session_repeats"]), shows=("new_session_repeats",)),
                Check("not-two-random-ops", "a and b are two random ops that move on in a session",
                      "Return two separate random ops, each its own tf1.random.uniform(shape, ...): "
                      "not one op twice, a copy of one op, or a constant. They must give new values "
                      "when run again in the same session.",
                      holds(lambda got: got["random_ops"] >= 2 and got["advances"]),
                      shows=("random_ops", "advances")),
                Check("wrong-shape", "has the requested shape", "The ops must have the given shape.",
                      same("shape"), shows=("shape",)),
            ),
            cases=(Case("seed 2, shape [3]", {"seed": 2, "shape": [3]}),),
        ),
        Exercise(
            id="noise_source", symbol="NoiseSource", points=3, probe=probe_noise_source,
            checks=(
                Check("new-session-per-draw", "successive draws continue the sequence",
                      "Every draw returned the same values: each new Session starts every random op over "
                      "from its seed. Open one session in __init__ and keep running the op in it.",
                      holds(lambda got: got["advances"]), shows=("advances",)),
                Check("reseed-does-not-restart", "replay() makes the next draws repeat the first ones",
                      "After replay() the sequence went on instead of starting over. Setting a seed again "
                      "changes nothing for an op that is already built, and the generator's position "
                      "lives in the session's kernels: open a new Session on the same graph.",
                      holds(lambda got: got["replays"]), shows=("replays",)),
                Check("rebuilt-op", "builds no ops after __init__",
                      "A method built a new op in the finalized graph. A fresh random op with the same "
                      "seed would start over too, but the graph would grow on every replay; a new "
                      "Session restarts the existing op instead.",
                      holds(lambda got: not got["modified_finalized_graph"]),
                      shows=("modified_finalized_graph",)),
                Check("wrong-sequence", "draws the values of uniform(shape, seed=seed)",
                      "The draws are not those of tf1.random.uniform(shape, seed=seed) with no graph-level "
                      "seed. Keep the op-level seed only: a graph seed changes the seed pair the kernel gets.",
                      same("draws"), shows=("draws",)),
            ),
            cases=(Case("seed 5, shape [2], 3 draws", {"seed": 5, "shape": [2]}),),
        ),
        Exercise(
            id="shuffled_epochs", symbol="shuffled_epochs", points=3, probe=probe_shuffled_epochs,
            checks=(
                Check("unseeded-shuffle", "gives the same order in two new sessions",
                      "The order changed between two sessions: the shuffle has no seed, so every new "
                      "iterator draws a fresh one. Pass seed= to shuffle.",
                      holds(lambda got: got["sessions_agree"]), shows=("sessions_agree",)),
                Check("repeat-before-shuffle", "makes every epoch a permutation of the data",
                      "An epoch is not a permutation of the data: shuffling after repeat mixes copies "
                      "across epoch boundaries, so an element can appear twice in one epoch and not at "
                      "all in another. Shuffle first, then repeat.",
                      holds(lambda got: got["permutations"]), shows=("permutations",)),
                Check("reshuffle-each-iteration", "reshuffles between epochs exactly when asked",
                      "reshuffle_each_iteration decides whether each epoch gets a new order (True, the "
                      "default) or repeats the first one (False). Pass `reshuffle` to it.",
                      same("epochs_differ"), shows=("epochs_differ",)),
                Check("shuffle-order", "matches shuffle(len(data), seed=seed) then repeat",
                      "The order is not that of shuffle(len(data), seed=seed, reshuffle_each_iteration="
                      "reshuffle) followed by repeat(epochs): use a full-size buffer and the op-level "
                      "seed, with no graph-level seed.",
                      same("orders"), shows=("orders",)),
            ),
            cases=(
                Case("8 items, seed 3, reshuffle, 3 epochs",
                     {"data": list(range(8)), "seed": 3, "reshuffle": True, "epochs": 3}),
                Case("6 items, seed 7, no reshuffle, 2 epochs",
                     {"data": [10, 11, 12, 13, 14, 15], "seed": 7, "reshuffle": False, "epochs": 2}),
            ),
        ),
        Exercise(
            id="batch_reader", symbol="BatchReader", points=3, probe=probe_batch_reader,
            checks=(
                Check("pipeline-in-loop", "builds no ops in next_batch",
                      "next_batch built ops in the finalized graph: the dataset, its iterator or "
                      "get_next() is created inside the loop. Build the pipeline and one get_next() "
                      "tensor in __init__; next_batch only runs it.",
                      holds(lambda got: not got["modified_finalized_graph"]),
                      shows=("modified_finalized_graph",)),
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
            ),
            cases=(Case("10 rows of 2, batches of 4, 3 calls",
                        {"features": np.arange(20, dtype=float).reshape(10, 2).tolist(), "batch_size": 4,
                         "calls": 3}),),
        ),
        Exercise(
            id="step_noise", symbol="step_noise", points=2, probe=probe_step_noise,
            checks=(
                Check("stateful-rng", "gives each step the same noise whatever was drawn before",
                      "A step's noise changed when other steps were asked for first: a stateful "
                      "generator (tf.random.Generator, or tf.random.uniform) hands out the next numbers "
                      "of one stream. Derive each step's noise from (seed, step) with a stateless op.",
                      holds(lambda got: got["replays"]), shows=("replays",)),
                Check("same-noise-every-step", "gives different steps different noise",
                      "Different steps got the same noise: put the step into the stateless seed, "
                      "seed=[seed, step].",
                      holds(lambda got: got["steps_differ"]), shows=("steps_differ",)),
                Check("wrong-noise", "draws stateless_uniform(shape, seed=[seed, step])",
                      "The values differ from tf.random.stateless_uniform(shape, seed=[seed, step]).",
                      same("noise"), shows=("noise",)),
            ),
            cases=(Case("seed 42, steps 0 1 2, shape [3]", {"seed": 42, "steps": [0, 1, 2], "shape": [3]}),),
        ),
    ),
)
