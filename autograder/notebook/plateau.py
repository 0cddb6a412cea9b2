"""Lesson 07's plateau rules outside the graph: Keras's `ReduceLROnPlateau` fed scripted values, and
a plain-Python model of the lesson's rule with a significance threshold.

    reduce_lr_on_plateau_rates([1.0, 0.8, 0.81, 0.82], factor=0.5, patience=2, min_delta=0.0)

returns the learning rate after each epoch, as the callback leaves it on the optimizer.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import tensorflow as tf


class OptimizerHolder:
    """All `ReduceLROnPlateau` needs from a model: its optimizer."""

    def __init__(self, optimizer):
        self.optimizer = optimizer


def reduce_lr_on_plateau_rates(values: Sequence[float], initial_rate: float = 0.1, **callback_args) -> np.ndarray:
    """The rate after each epoch when `tf.keras.callbacks.ReduceLROnPlateau(**callback_args)` sees
    `values` (of its `monitor`, "val_loss" unless given) through `on_epoch_end`, starting from a
    Keras SGD at `initial_rate`."""
    holder = OptimizerHolder(tf.keras.optimizers.SGD(learning_rate=initial_rate))
    callback = tf.keras.callbacks.ReduceLROnPlateau(**callback_args)
    callback.set_model(holder)
    callback.on_train_begin()
    monitor = callback_args.get("monitor", "val_loss")
    rates = []
    for epoch, value in enumerate(values):
        callback.on_epoch_end(epoch, {monitor: value})
        rates.append(float(holder.optimizer.learning_rate))
    return np.array(rates)


def threshold_rule(losses: Sequence[float], min_delta: float, best_moves_on_any_improvement: bool,
                   initial_rate: float = 0.1, factor: float = 0.5, patience: int = 2) -> np.ndarray:
    """The lesson's plateau rule with a threshold (`loss < best - min_delta` is an improvement), in
    plain Python: the rate after each loss. `best` follows every lower loss, or moves only on an
    improvement that beats it by more than `min_delta`."""
    rate, best, bad, rates = initial_rate, np.inf, 0, []
    for loss in losses:
        if loss < best - min_delta:
            best, bad = loss, 0
        else:
            bad += 1
            if best_moves_on_any_improvement:
                best = min(best, loss)
            if bad >= patience:
                rate, bad = rate * factor, 0
        rates.append(rate)
    return np.array(rates)
