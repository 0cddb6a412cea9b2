"""Lesson 07's way of drawing a learning-rate schedule: every step in one `Session.run`.

    curves = evaluate({"exponential": lambda s: tf1.train.exponential_decay(0.1, s, 10, 0.9)})
    plot_schedules(ax, curves, "Fig. 1 · exponential_decay")

`evaluate` builds each schedule on one constant vector of global steps, in a fresh graph, and
fetches them all in a single run: the v1 schedules are element-wise, so a vector of steps gives a
vector of rates. (Two need care, and the lesson says why: `piecewise_constant` wants a scalar step,
so map it with `tf.map_fn`; `noisy_linear_cosine_decay` draws noise of the step's static shape.)
"""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np
import tensorflow as tf

STEPS = np.arange(0, 101)  # the global steps the lesson's figures are drawn over


def evaluate(schedules: Mapping[object, Callable[[tf.Tensor], tf.Tensor]], steps=STEPS) -> dict:
    """Evaluate {label: build(global_step) -> rate tensor} at every step, in one graph and one run."""
    with tf.Graph().as_default():
        global_step = tf.constant(np.asarray(steps, np.int64), name="global_step")
        fetches = {label: build(global_step) for label, build in schedules.items()}
        with tf.compat.v1.Session() as sess:
            return sess.run(fetches)


def plot_schedules(ax, curves: Mapping[str, np.ndarray], title: str, steps=STEPS, **style) -> None:
    """Draw {label: rates} against the steps on the matplotlib axes `ax`, titled, labelled, with a
    legend; a label containing "staircase" is drawn as steps (the rate holds, then drops at once)."""
    for label, rates in curves.items():
        shape = {"drawstyle": "steps-post"} if "staircase" in label else {}
        ax.plot(steps, rates, label=label, **shape, **style)
    ax.set_title(title)
    ax.set_xlabel("global step")
    ax.set_ylabel("learning rate")
    ax.legend(fontsize=9)
