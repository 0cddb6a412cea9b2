"""Timing harness of lesson 06's feed_dict-vs-tf.data comparisons, kept out of the lesson's cells.

Section 7 of lesson 06 trains one small model fed in several ways and compares their rates. What
each way *is* stays in the notebook (a `fed(...)` or `pipeline(...)` builder per way); the
machinery that builds a finalized graph per way, opens its session and times the ways in turns
lives here:

    opened = {name: open_session(build, n_batches) for name, build in ways.items()}
    blocks = rates_in_turns(opened, rounds=5, block_s=0.05)     # {name: [steps/s of each round]}
    cpu = cpu_ms_in_turns(opened, rounds=5, steps=20)           # {name: median CPU ms per step}

Taking turns spreads a change of load over every way, and the median of the rounds ignores a block
the machine interrupted. The overlap demo (`fed_ms`, `reader_ms`) times steps whose read and step
costs are explicit waits (`time.sleep`), so it shows the same pattern on any machine.
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1


def train_op(x, n_features: int, hidden: int = 256):
    """One gradient-descent step of a small two-layer regression on the batch `x` (built in the default graph)."""
    w1 = tf1.get_variable("w1", [n_features, hidden], initializer=tf1.glorot_uniform_initializer(seed=1))
    w2 = tf1.get_variable("w2", [hidden, 1], initializer=tf1.zeros_initializer())
    prediction = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)
    loss = tf.reduce_mean(tf.square(prediction - 1.0))
    return tf1.train.GradientDescentOptimizer(0.01).minimize(loss)


def fed(get_batch: Callable[[int], np.ndarray], n_features: int):
    """A way to train: Python produces batch i with get_batch(i) and feeds it to a placeholder."""
    def build():
        x = tf1.placeholder(tf.float32, [None, n_features])
        return train_op(x, n_features), lambda i: {x: get_batch(i)}
    return build


def pipeline(make_dataset: Callable[[], tf.data.Dataset], n_features: int):
    """A way to train: the batches come from the dataset make_dataset() builds in the graph."""
    def build():
        return train_op(tf1.data.make_one_shot_iterator(make_dataset()).get_next(), n_features), None
    return build


def open_session(build, n_batches: int):
    """Build a graph with build() -> (train op, feed maker or None), finalize it, open a session and
    run one warm-up step; return (step function, session). The caller closes the session."""
    with tf.Graph().as_default() as graph:
        train, make_feed = build()
        init = tf1.global_variables_initializer()
        graph.finalize()
    sess = tf1.Session(graph=graph)
    sess.run(init)
    position = [0]

    def step():
        sess.run(train, make_feed(position[0] % n_batches) if make_feed else None)
        position[0] += 1

    step()
    return step, sess


def block_rate(step: Callable[[], None], block_s: float) -> float:
    """Steps per second of `step`, run for about `block_s` seconds."""
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < block_s:
        step()
        count += 1
    return count / (time.perf_counter() - started)


def rates_in_turns(opened: dict, rounds: int, block_s: float) -> dict[str, list[float]]:
    """{name: [rate of each round]}: every way runs one block per round, in turns."""
    blocks = {name: [] for name in opened}
    for _ in range(rounds):
        for name, (step, _) in opened.items():
            blocks[name].append(block_rate(step, block_s))
    return blocks


def cpu_ms_in_turns(opened: dict, rounds: int, steps: int) -> dict[str, float]:
    """{name: median over `rounds` of the CPU time per step, in ms}: every way runs `steps` steps per
    round, in turns. CPU time counts only this process's work, so busy neighbours barely move it."""
    per_round = {name: [] for name in opened}
    for _ in range(rounds):
        for name, (step, _) in opened.items():
            started = time.process_time()
            for _ in range(steps):
                step()
            per_round[name].append((time.process_time() - started) / steps * 1e3)
    return {name: float(np.median(values)) for name, values in per_round.items()}


def ms_per_step(run: Callable[[], object], blocks: int = 3, block_steps: int = 5) -> float:
    """Median over `blocks` blocks of `block_steps` steps of the time per step, in ms (after one warm-up step)."""
    run()
    per_block = []
    for _ in range(blocks):
        started = time.perf_counter()
        for _ in range(block_steps):
            run()
        per_block.append((time.perf_counter() - started) / block_steps * 1e3)
    return float(np.median(per_block))


def step_on(x, step_ms: float):
    """A training step that waits `step_ms` inside the graph (the accelerator working) and returns a float."""
    def busy(batch):
        time.sleep(step_ms / 1e3)
        return np.float32(batch.mean())
    return tf.numpy_function(busy, [x], tf.float32)


def fed_ms(read_batch: Callable[[int], np.ndarray], n_features: int, step_ms: float) -> float:
    """ms per step when Python reads each batch, then feeds it: the read and the step take turns."""
    with tf.Graph().as_default() as graph:
        x = tf1.placeholder(tf.float32, [None, n_features])
        out = step_on(x, step_ms)
        graph.finalize()
        with tf1.Session() as sess:
            counter = iter(range(10**6))
            return ms_per_step(lambda: sess.run(out, {x: read_batch(next(counter))}))


def reader_ms(read_batch: Callable[[int], np.ndarray], step_ms: float, parallel_reads, prefetch: int) -> float:
    """ms per step when a tf.data pipeline reads the batches (with `parallel_reads` reads at a time and
    `prefetch` batches ready), TensorFlow's own injected prefetch switched off."""
    with tf.Graph().as_default() as graph:
        dataset = tf.data.Dataset.range(10**6).map(
            lambda i: tf.numpy_function(read_batch, [i], tf.float32), num_parallel_calls=parallel_reads)
        if prefetch:
            dataset = dataset.prefetch(prefetch)
        options = tf.data.Options()
        options.experimental_optimization.inject_prefetch = False   # no prefetch unless asked for
        out = step_on(tf1.data.make_one_shot_iterator(dataset.with_options(options)).get_next(), step_ms)
        graph.finalize()
        with tf1.Session() as sess:
            return ms_per_step(lambda: sess.run(out))
