"""Hidden inputs for lesson 3. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "bookkeeping": [
        ("a 1x1 layer", {"x": [[2.0]], "w0": [[-1.5]], "b0": [0.25]}),
        ("a wider batch and layer", {"x": [[1.0, 0.0, -1.0, 2.0], [0.0, 0.0, 0.0, 0.0], [3.0, 1.0, 1.0, -2.0]],
         "w0": [[0.5, 1.0], [-1.0, 0.0], [0.25, -0.25], [2.0, 0.1]], "b0": [-1.0, 1.0]}),
    ],
    "train_excluding": [
        ("two of three variables excluded", {"values": {"a": -2.0, "b": 0.5, "c": 4.0}, "excluded": ["b", "c"], "steps": 7, "lr": 0.05}),
        ("nothing excluded", {"values": {"p": 10.0, "q": -3.0}, "excluded": [], "steps": 3, "lr": 0.2}),
        ("an excluded name that is the prefix of another", {"values": {"w": 2.0, "w2": -1.0, "bw": 0.0},
         "excluded": ["w"], "steps": 4, "lr": 0.1}),
        ("an excluded name that ends in a digit, and another name that only adds a 0 to it",
         {"values": {"layer10": 3.0, "layer1": -1.0, "b": 0.5}, "excluded": ["layer1"], "steps": 3, "lr": 0.1}),
    ],
    "dense_decay": [
        ("a single layer", {"x": [[1.0, 2.0, 3.0]], "layers": [[[[0.1], [-0.2], [0.3]], [2.0]]], "decay": 0.5}),
        ("three layers and a tiny decay", {"x": [[0.5, -1.0], [2.0, 1.0], [-1.0, -1.0]],
         "layers": [[[[1.0, 0.5], [-0.5, 1.0]], [0.2, -0.2]],
                    [[[0.3, -0.7, 1.1], [0.9, 0.1, -0.4]], [0.0, 0.5, 1.0]],
                    [[[1.0], [1.0], [-1.0]], [-0.3]]],
         "decay": 0.001}),
    ],
    "freezer": [
        ("a momentum optimizer, changing frozen sets, and a trainable variable outside var_list", {"values": {"a": 0.0, "b": [2.0, -1.0], "c": 5.0}, "loss": "quadratic", "optimizer": "momentum",
         "lr": 0.02, "cycle": [[], ["a"], ["a"], ["b", "c"], ["b", "c"], ["c"], ["a", "b"]], "steps": 40,
         "bystander": -1.0}),
        ("Adam with a variable frozen for several steps", {"values": {"u": -4.0, "v": 4.0}, "loss": "abs_gap", "optimizer": "adam", "lr": 0.1,
         "cycle": [[], [], ["v"], ["v"], ["v"], ["u"]], "steps": 30}),
        ("frozen sets listed in another order than var_list", {"values": {"a": 0.0, "b": [2.0, -1.0], "c": 5.0},
         "loss": "quadratic", "optimizer": "momentum", "lr": 0.02, "cycle": [["c", "a"], [], ["b", "a"]], "steps": 9}),
    ],
    "train_layers": [
        ("three layers and a schedule with empty steps", {"x": [[1.0, 2.0, 0.0], [0.0, -1.0, 1.0]], "y": [[0.5, -0.5], [1.0, 0.0]],
         "layers": [["first", 4], ["second", 3], ["head", 2]],
         "schedule": [[], ["first", "second"], ["first"], ["head"], ["head", "second"], []], "lr": 0.02}),
        ("two layers, a layer trained twice in a row", {"x": [[1.0], [2.0], [3.0]], "y": [[2.0], [4.0], [6.0]], "layers": [["h", 2], ["o", 1]],
         "schedule": [["o"], [], ["h"], ["h"], ["o"]], "lr": 0.1}),
        ("Keras's own layer names, one the start of another (dense, dense_1)",
         {"x": [[1.0, 0.5], [-1.0, 2.0]], "y": [[1.0], [0.0]], "layers": [["dense", 3], ["dense_1", 2], ["out", 1]],
          "schedule": [["dense"], [], ["dense_1"], ["dense"]], "lr": 0.05}),
    ],
}
