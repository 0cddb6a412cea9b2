"""Lesson 07's race of schedules: one small network trained under several learning-rate schedules at
once, from the same initial weights on the same minibatches.

    rates, held_out = train_under_schedules({"constant": lambda s: tf.constant(0.2), ...},
                                            x_fit, y_fit, x_held, y_held, batches)

The networks (1 -> `hidden` tanh -> 1) are one batched network: each weight has a leading axis with
one slice per schedule, every slice is updated by plain SGD written out (`w -= rate * gradient`) at
its own schedule's rate, and one `Session.run` per step trains them all on the shared
`global_step`. The graph is finalized before the loop.
"""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1


def train_under_schedules(schedules: Mapping[str, Callable[[tf.Tensor], tf.Tensor]], x_fit, y_fit, x_held, y_held,
                          batches, hidden: int = 32, eval_every: int = 20) -> tuple[list[dict], dict]:
    """Train one network per schedule ({name: build(global_step) -> rate}) on the minibatches given as
    rows of indices into `x_fit`/`y_fit`. Returns the rate each network used at each step (a list of
    {name: rate}) and each network's held-out mean squared error every `eval_every` steps
    ({name: array})."""
    n_nets = len(schedules)
    with tf.Graph().as_default() as graph:
        x = tf1.placeholder(tf.float32, [None, 1])
        y = tf1.placeholder(tf.float32, [None, 1])
        step = tf1.train.get_or_create_global_step()
        first_w1 = tf1.glorot_uniform_initializer(seed=1)([1, 1, hidden])   # one draw, shared by every network
        first_w2 = tf1.glorot_uniform_initializer(seed=2)([1, hidden, 1])
        w1 = tf1.get_variable("w1", initializer=tf.tile(first_w1, [n_nets, 1, 1]))
        b1 = tf1.get_variable("b1", [n_nets, 1, hidden], initializer=tf1.zeros_initializer())
        w2 = tf1.get_variable("w2", initializer=tf.tile(first_w2, [n_nets, 1, 1]))
        b2 = tf1.get_variable("b2", [n_nets, 1, 1], initializer=tf1.zeros_initializer())
        prediction = tf.matmul(tf.tanh(tf.matmul(tf.tile(x[None], [n_nets, 1, 1]), w1) + b1), w2) + b2
        net_losses = tf.reduce_mean(tf.square(prediction - y[None]), axis=[1, 2])   # one loss per network
        rate = tf.stack([build(step) for build in schedules.values()])              # one rate per network
        gradients = tf.gradients(tf.reduce_sum(net_losses), [w1, b1, w2, b2])      # the nets share no weight
        updates = [v.assign_sub(rate[:, None, None] * g) for v, g in zip([w1, b1, w2, b2], gradients)]
        with tf.control_dependencies(updates):
            train_all = step.assign_add(1)
        init = tf1.global_variables_initializer()
        graph.finalize()
        held, rates = [], []
        with tf1.Session() as sess:
            sess.run(init)
            for i, batch in enumerate(batches):
                _, used = sess.run([train_all, rate], {x: x_fit[batch], y: y_fit[batch]})
                rates.append(dict(zip(schedules, used)))
                if i % eval_every == eval_every - 1:
                    held.append(sess.run(net_losses, {x: x_held, y: y_held}))
    held = np.array(held)
    return rates, {name: held[:, k] for k, name in enumerate(schedules)}
