"""Lesson 6's probes (seeds, randomness and input pipelines): what runs in the student's kernel.

Each probe builds its inputs in a fresh graph, calls the student's function and returns plain
values; the checks that judge them are in `autograder.course.lessons.l06_seeds_and_pipelines`.
"""
from __future__ import annotations

import numpy as np

from autograder.inkernel.probing import (
    FinalizedGraphGuard,
    RunsRecorded,
    close_session,
    dtype_name,
    export_graph,
    sessions_made,
)

RANDOM_OP_TYPES = ("RandomUniform", "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt")


def _equal_lists(xs, ys) -> bool:
    return len(xs) == len(ys) and all(np.array_equal(x, y) for x, y in zip(xs, ys))


def _handed_out(graph, pair) -> dict:
    """The GraphDef of `graph` and the names of the two tensors of `pair`, for the grader's worker."""
    return {"graph": export_graph(graph), "names": [str(getattr(t, "name", "")) for t in pair]}


def probe_twin_noise(fn, seed, shape):
    """Build the function's pair (a, b) three times, each in a graph of its own, and hand the graphs
    out: nothing is run here. The grader's worker runs them outside the kernel (sessions of its own
    start the seeded ops over) and reads their random ops and seed pairs. `graph`: built with `seed`;
    `other`: built with seed + 1 (the seed must change the values); `shifted`: built with `seed` after
    the probe set a graph-level seed and drew three random ops from it, so that an op seed derived
    from a graph-level seed moves, and one the code wrote does not.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1
    builds = {}
    for key, build_seed in (("graph", seed), ("other", seed + 1), ("shifted", seed)):
        with tf.Graph().as_default() as graph:
            if key == "shifted":
                tf1.set_random_seed(1)
                for _ in range(3):
                    tf1.random.uniform([])
            a, b = fn(build_seed, shape)
            builds[key] = _handed_out(graph, (a, b))
    return {**builds.pop("graph"), **builds}


def probe_noise_source(cls, seed, shape, draws=3, decoy=False):
    """Build, finalize the graph, draw `draws` times, replay, draw again, replay again, draw once.

    Sessions opened during replay() are counted: the generator's position lives in the session.
    Every run from __init__ on is handed out (`history`), with the run that returned each draw
    (`answered_by`) and the runs of each draw() (`draw_runs`), for the grader to re-run outside the
    kernel, where only a new session restarts the op, and to find the ops those runs fetched in the
    graph handed out: one created after the ops the graph held when finalized was built later. With `decoy`, every call after __init__ is
    made while another graph, finalized too, is the default one.
    """
    import contextlib

    import tensorflow as tf

    with tf.Graph().as_default() as graph, RunsRecorded() as runs:
        source = cls(seed, shape)
        graph.finalize()
        finalized_ops, later = len(graph.get_operations()), len(runs.calls)
        first, replayed, again, guard = [], [], [], FinalizedGraphGuard()
        decoy_graph = tf.Graph()
        decoy_graph.finalize()
        with guard, (decoy_graph.as_default() if decoy else contextlib.nullcontext()):
            first = [runs.answered(source.draw) for _ in range(draws)]
            with sessions_made() as opened:
                source.replay()
            replayed = [runs.answered(source.draw) for _ in range(draws + 1)]
            source.replay()
            again = [runs.answered(source.draw)]
        close_session(source)
    return {
        "draws": first,
        "dtype": dtype_name(first[0]) if first else None,
        "advances": len(first) == draws and all(not np.array_equal(x, y) for x, y in zip(first, first[1:])),
        "replays": replays(first, replayed, again, draws),
        "replay_opens_session": opened.count > 0,
        "modified_finalized_graph": guard.tripped,
        "answered_by": runs.answered_by, "draw_runs": runs.call_runs, "history": runs.history(),
        "finalized_ops": finalized_ops, "later_runs": [later, len(runs.calls)],
    }


def replays(first, replayed, again, draws) -> bool:
    """Whether the draws after each replay() repeat the first ones."""
    return len(first) == draws and _equal_lists(first, replayed[:draws]) and _equal_lists(first[:1], again)


def probe_shuffled_epochs(fn, data, seed, reshuffle, epochs):
    """Read every epoch through one iterator, in two fresh sessions, and one element more. A dataset
    that runs out early (OutOfRangeError) is read as far as it goes: how many elements it yields is
    the observation, and only the epochs it completed are judged as permutations."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    n = len(data)

    def read(sess, next_item, count):
        items = []
        try:
            while len(items) < count:
                items.append(np.asarray(sess.run(next_item)).item())
        except tf.errors.OutOfRangeError:
            pass
        return items

    with tf.Graph().as_default():
        dataset = fn(list(data), seed, reshuffle, epochs)
        buffers = [tf.get_static_value(op.inputs[1]) for op in tf1.get_default_graph().get_operations()
                   if op.type.startswith("ShuffleDataset") or op.type.startswith("ShuffleAndRepeatDataset")]
        next_item = tf1.data.make_one_shot_iterator(dataset).get_next()
        sessions, elements = [], None
        for _ in range(2):
            with tf1.Session() as sess:
                flat = read(sess, next_item, n * epochs if sessions else n * epochs + 1)
            if not sessions:
                elements, flat = len(flat), flat[:n * epochs]
            sessions.append([flat[i * n:(i + 1) * n] for i in range(len(flat) // n)])
    orders = sessions[0]
    return {
        "orders": orders,
        "kinds": sorted({type(x).__name__ for e in orders for x in e}),
        "sessions_agree": sessions[0] == sessions[1],
        "permutations": all(sorted(e) == sorted(data) for e in orders),
        "epochs_differ": any(e != orders[0] for e in orders[1:]),
        "ends_after_epochs": elements == n * epochs,
        "elements": elements if elements <= n * epochs else f"more than {n * epochs}",
        "small_buffer": any(b is not None and 0 < int(b) < n for b in buffers),
    }


def probe_batch_reader(cls, features, batch_size, calls, dtype="float32"):
    """Build the reader, finalize the graph, read `calls` batches (None once the data has run out).

    Hands out the graph's GraphDef when finalized and after the reads (`graphs`), for the grader to
    read the ops it holds outside the kernel."""
    import tensorflow as tf

    features = np.asarray(features, dtype)
    with tf.Graph().as_default() as graph:
        reader = cls(features, batch_size)
        kinds = {op.type for op in graph.get_operations()}
        graph.finalize()
        finalized = export_graph(graph)
        batches, guard = [], FinalizedGraphGuard()
        with guard:
            for _ in range(calls):
                try:
                    batches.append(np.asarray(reader.next_batch()))
                except tf.errors.OutOfRangeError:
                    batches.append(None)
        close_session(reader)
    return {"batches": batches, "dtypes": sorted({dtype_name(b) for b in batches if b is not None}),
            "modified_finalized_graph": guard.tripped, "reads_in_graph": "IteratorGetNext" in kinds,
            "prefetches": "PrefetchDataset" in kinds, "graphs": [finalized, export_graph(graph)]}


def probe_step_noise(fn, seed, steps, shape):
    """Ask for the steps in order, in reverse order, and the last one alone; a step's noise must not change."""
    steps = list(steps)
    raw = fn(seed, steps, shape)
    forward = [np.asarray(v) for v in raw]
    backward = [np.asarray(v) for v in fn(seed, steps[::-1], shape)][::-1]
    alone = [np.asarray(v) for v in fn(seed, steps[-1:], shape)]
    return {
        "noise": forward,
        "kinds": sorted({f"{type(v).__name__} {dtype_name(v)}" for v in raw}),
        "replays": _equal_lists(forward, backward) and _equal_lists(forward[-1:], alone),
        "steps_differ": all(not np.array_equal(forward[i], forward[j])
                            for i in range(len(steps)) for j in range(i + 1, len(steps))),
    }
