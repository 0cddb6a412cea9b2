"""Hidden inputs for lesson 1. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "count_ops": [
        ("a deeper network split in three", {"features": 6, "layers": 3, "parts": 3}),
        ("a graph with an op that has no outputs (a NoOp run through a control input)",
         {"features": 2, "layers": 1, "parts": 2, "control": True}),
        ("an empty graph", {"features": 3, "layers": 0, "parts": 1}),
    ],
    "input_names": [
        ("an op with a single input", {"name": "square"}),
        ("an op fed by an op and a slice", {"name": "joined"}),
        ("an op with a control input", {"name": "gated"}),
        ("an op fed by an op whose name ends in digits", {"name": "mixed"}),
    ],
    "evaluate": [
        ("a one-element variable", {"init": [0.0], "new": [5.5]}),
        ("a 2x2 variable", {"init": [[1.0, 2.0], [3.0, 4.0]], "new": [[0.5, 0.0], [-2.0, 1.0]]}),
    ],
    "one_run": [
        ("a long vector with a low keep probability", {"x": [-3.0, 1.5, 2.0, -0.5, 4.0, 6.0, -7.0, 8.0, 9.0, -10.0, 11.0, 0.25], "keep": 0.25, "seed": 123}),
        ("a matrix with a high keep probability", {"x": [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]], "keep": 0.8, "seed": 1}),
        ("a keep probability of 1", {"x": [2.0, -1.0, 0.5], "keep": 1.0, "seed": 5}),
    ],
    "running_total": [
        ("negative and fractional values", {"values": [-1.0, 0.5, 0.25, 10.0, -3.0]}),
        ("the same value twice", {"values": [4.0, 4.0]}),
        ("many small values whose sum float32 rounds", {"values": [0.1] * 12}),
    ],
}
