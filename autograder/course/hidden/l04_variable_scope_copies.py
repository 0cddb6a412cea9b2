"""Hidden inputs for lesson 4. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "sync_op": [
        ("scopes that differ in order, with a decoy scope sharing a prefix", {"src_scope": "q", "dst_scope": "q_target",
         "shapes": {"layer1/w": [2, 2], "layer1/b": [2], "layer2/w": [2, 2], "layer2/b": [2]},
         "src_order": ["layer1/w", "layer1/b", "layer2/w", "layer2/b"],
         "dst_order": ["layer2/w", "layer2/b", "layer1/w", "layer1/b"],
         "decoy": "q_old", "dst_extra": "step", "missing": "head/bias", "bad_shape": "layer2/b",
         "dst_decoy": "q_target_old"}),
        ("a non-trainable source variable that has a partner, and a destination scope sharing a prefix",
         {"src_scope": "net", "dst_scope": "net_copy", "shapes": {"norm/gamma": [3], "norm/beta": [3], "dense/kernel": [2, 3]},
          "src_order": ["norm/beta", "norm/gamma", "dense/kernel"], "dst_order": ["norm/gamma", "norm/beta", "dense/kernel"],
          "src_frozen": "norm/moving_mean", "dst_decoy": "net_copy2", "missing": "out/bias",
          "bad_shape": "dense/kernel"}),
        ("scalar variables, one-letter names and a different order", {"src_scope": "online", "dst_scope": "frozen",
         "shapes": {"gain": [], "bias": [], "w": [3, 1], "b": [1]},
         "src_order": ["gain", "bias", "w", "b"], "dst_order": ["bias", "gain", "w", "b"],
         "missing": "gate", "bad_shape": "w"}),
    ],
    "current_and_past": [
        ("a one-unit input", {"n_in": 1, "hidden": 2, "n_out": 3, "x": [[2.0]]}),
        ("a network with a non-trainable variable of its own", {"n_in": 2, "hidden": 3, "n_out": 2,
         "x": [[1.0, -1.0], [0.5, 0.25]], "frozen_scale": True}),
        ("a wider input and a batch of three", {"n_in": 4, "hidden": 5, "n_out": 1,
         "x": [[0.0, 0.0, 0.0, 0.0], [1.0, -1.0, 1.0, -1.0], [0.3, 0.2, 0.1, 3.0]]}),
    ],
    "lagged_trainer": [
        ("several steps", {"n_in": 3, "hidden": 2, "n_out": 2, "x": [[1.0, 0.0, -1.0], [0.2, 0.4, 0.6], [-2.0, 1.0, 0.5]],
         "y": [[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]], "steps": 4, "learning_rate": 0.05}),
        ("a network with a non-trainable variable, one step", {"n_in": 2, "hidden": 2, "n_out": 1,
         "x": [[1.0, 2.0], [-1.0, 0.0]], "y": [[0.5], [-0.5]], "steps": 1, "learning_rate": 0.2,
         "frozen_scale": True}),
        ("two steps with a large learning rate", {"n_in": 1, "hidden": 4, "n_out": 1, "x": [[0.0], [1.0], [2.0]], "y": [[1.0], [0.0], [-1.0]],
         "steps": 2, "learning_rate": 0.5}),
    ],
    "soft_update": [
        ("tau = 1 (a full copy)", {"source": [[[1.0, 2.0], [3.0, 4.0]]], "target": [[[0.0, 0.0], [0.0, 0.0]]], "tau": 1.0, "steps": 2}),
        ("a small tau over several steps", {"source": [[5.0], [-1.0, 1.0]], "target": [[1.0], [1.0, -1.0]], "tau": 0.25, "steps": 4}),
    ],
    "polyak_update": [
        ("variables given as a dict, tau = 1", {"target": {"kernel": [[1.0, 2.0], [3.0, 4.0]], "bias": [0.0, 0.0]},
         "source": {"kernel": [[0.0, 0.0], [0.0, 0.0]], "bias": [1.0, -1.0]}, "tau": 1.0, "steps": 1}),
        ("a dict of three variables, keys out of alphabetical order", {"target": {"w": [1.0, 1.0], "b": [0.5], "a": [[2.0]]},
         "source": {"w": [3.0, -1.0], "b": [0.0], "a": [[0.0]]}, "tau": 0.5, "steps": 2}),
        ("a list of variables and a small tau", {"target": [[0.0], [1.0, 1.0, 1.0], [5.0]], "source": [[2.0], [0.0, 0.0, 0.0], [5.0]],
         "tau": 0.05, "steps": 3}),
    ],
}
