"""Lesson 05's data and resumable training loop, kept out of its cells.

Every demo of lesson 05 trains one small linear regression (the lesson's `build_regression`,
which returns its tensors and ops by name: "x", "y", "w", "loss", "global_step", "train_op", ...)
on data made here:

    x_data, y_data = regression_data(seed=0)

`train_to` is the demos' resumable training script (restore the newest checkpoint or initialise,
train, save every few steps, maybe "crash"); Exercise 3 asks the student to write its like.
`waits_for` lists the ops an op depends on, which shows what a summary run beside the train op
is sure to read before the update.
"""
from __future__ import annotations

import os
from typing import Callable

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1

TRUE_W = np.array([[1.5], [-2.0], [0.5]], np.float32)


def regression_data(seed: int, n: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """A fixed data set, a pure function of the seed: y = x @ TRUE_W + 0.3 + noise."""
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 3).astype(np.float32)
    y = (x @ TRUE_W + 0.3 + 0.1 * rng.randn(n, 1)).astype(np.float32)
    return x, y


def train_to(directory: str, build: Callable, x_data: np.ndarray, y_data: np.ndarray, pick_rows: Callable,
             total_steps: int = 40, crash_after: int | None = None, every: int = 5, keep: int = 2,
             recover: bool = False) -> tuple[dict, np.ndarray]:
    """Build the model with `build(seed=1)` in a new graph, restore the newest checkpoint of
    `directory` or initialise, then train until the global step reaches total_steps.

    `pick_rows(step, rng)` chooses each step's rows; `rng` is a generator made when this call
    starts, as most scripts make one. Saves `directory/model-<step>` every `every` steps with a
    Saver that keeps `keep`, and returns after `crash_after` steps of this call if given, as if the
    process died. With `recover`, a restore is followed by `saver.recover_last_checkpoints(...)` on
    the paths the state file lists, so that `keep` also bounds the checkpoints an earlier process
    wrote. Returns ({global step: loss of that step}, w at the end).
    """
    with tf.Graph().as_default() as graph:
        m = build(seed=1)
        saver = tf1.train.Saver(max_to_keep=keep)
        init = tf1.global_variables_initializer()
        graph.finalize()
        prefix = os.path.join(directory, "model")
        with tf1.Session() as sess:
            newest = tf.train.latest_checkpoint(directory)
            if newest is None:
                sess.run(init)
            else:
                saver.restore(sess, newest)
                if recover:
                    listed = tf1.train.get_checkpoint_state(directory).all_model_checkpoint_paths
                    saver.recover_last_checkpoints(listed)
            rng = np.random.RandomState(0)
            losses = {}
            step = tf1.train.global_step(sess, m["global_step"])
            while step < total_steps and len(losses) != crash_after:
                rows = pick_rows(step, rng)
                losses[step], _ = sess.run([m["loss"], m["train_op"]], {m["x"]: x_data[rows], m["y"]: y_data[rows]})
                step = tf1.train.global_step(sess, m["global_step"])
                if step % every == 0:
                    saver.save(sess, prefix, global_step=step)
            return losses, sess.run(m["w"])


def waits_for(op: tf.Operation) -> set:
    """Every op that `op` depends on, through its inputs or control inputs, directly or not."""
    found, pending = set(), [op]
    while pending:
        current = pending.pop()
        for parent in [t.op for t in current.inputs] + list(current.control_inputs):
            if parent not in found:
                found.add(parent)
                pending.append(parent)
    return found
