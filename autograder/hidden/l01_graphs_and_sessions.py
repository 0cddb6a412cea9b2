"""Hidden inputs for lesson 1. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "count_ops": [
        {"features": 6, "layers": 3, "parts": 3},
        {"features": 2, "layers": 1, "parts": 2},
    ],
    "input_names": [
        {"name": "square"},
        {"name": "joined"},
    ],
    "evaluate": [
        {"init": [0.0], "new": [5.5]},
        {"init": [[1.0, 2.0], [3.0, 4.0]], "new": [[0.5, 0.0], [-2.0, 1.0]]},
    ],
    "one_run": [
        {"x": [-3.0, 1.5, 2.0, -0.5, 4.0, 6.0, -7.0, 8.0, 9.0, -10.0, 11.0, 0.25], "keep": 0.25, "seed": 123},
        {"x": [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]], "keep": 0.8, "seed": 1},
    ],
    "running_total": [
        {"values": [-1.0, 0.5, 0.25, 10.0, -3.0]},
        {"values": [4.0, 4.0]},
    ],
}
