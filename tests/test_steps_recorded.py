"""Lesson 3's train_layers probe reads every step from one run only when that tells what a run per
prefix of the schedule would: its observation is the same either way, right answer or wrong."""
import pytest

from autograder.inkernel.probes import l03_collections_and_trainable as probes

CASE = {"x": [[1.0, 2.0, 0.0], [0.0, -1.0, 1.0]], "y": [[0.5, -0.5], [1.0, 0.0]],
        "layers": [["first", 3], ["head", 2]], "schedule": [[], ["first"], ["head"], ["first"], []], "lr": 0.05}


def _loop(step):
    """A train_layers whose step is `step(model, optimizer, x, y, frozen)`; it counts its calls."""
    def train_layers(model, x, y, frozen_per_step, lr):
        import tensorflow as tf

        train_layers.calls += 1
        optimizer = tf.keras.optimizers.Adam(lr)
        optimizer.build(model.trainable_variables)
        return [step(model, optimizer, x, y, frozen) for frozen in frozen_per_step]

    train_layers.calls = 0
    return train_layers


def _train_step(model, optimizer, x, y, frozen):
    """The solution's step: freeze, take one Adam step on the others; the loss as a tensor."""
    import tensorflow as tf

    for layer in model.layers:
        layer.trainable = layer.name not in frozen
    variables = model.trainable_variables
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss


def _freeze_and_step(model, optimizer, x, y, frozen):
    return float(_train_step(model, optimizer, x, y, frozen))


def _nudge_then_step(model, optimizer, x, y, frozen):
    """Moves a frozen layer outside the optimizer's step: only the runs per prefix see when."""
    for layer in model.layers:
        if layer.name in frozen:
            layer.kernel.assign_add(0.001 * layer.kernel)
    return _freeze_and_step(model, optimizer, x, y, frozen)


def _step_in_a_function(model, optimizer, x, y, frozen):
    """The step traced by tf.function: the optimizer's apply runs in a graph, where weights cannot be read."""
    import tensorflow as tf

    return float(tf.function(lambda: _train_step(model, optimizer, x, y, frozen))())


def _observe(step, monkeypatch, prefixes: bool):
    train = _loop(step)
    with monkeypatch.context() as patched:
        if prefixes:
            patched.setattr(probes.StepsRecorded, "trajectory", lambda self, *known: None)
        observation = probes.probe_train_layers(train, **CASE)
    return observation, train.calls


@pytest.mark.parametrize("step, one_run", [(_freeze_and_step, True), (_nudge_then_step, False),
                                           (_step_in_a_function, False)])
def test_one_run_or_a_run_per_prefix_give_the_same_observation(step, one_run, monkeypatch):
    recorded, calls = _observe(step, monkeypatch, prefixes=False)
    per_prefix, _ = _observe(step, monkeypatch, prefixes=True)
    assert recorded == per_prefix
    steps = len(CASE["schedule"])
    assert calls == (2 if one_run else 2 + steps - 1)


def test_a_frozen_layer_moved_between_steps_is_seen():
    observation = probes.probe_train_layers(_loop(_nudge_then_step), **CASE)
    assert observation["frozen_moved_fresh"] or observation["frozen_moved_after_training"]
