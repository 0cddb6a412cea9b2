"""Hidden inputs for lesson 2. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "threshold_judge": [
        {"x": [-1.0, 0.0, 0.2, 0.2001, 3.0], "first": 0.2, "second": -0.5, "calls": 4},
        {"x": [0.9, 0.1, 0.5, 0.5, 0.51], "first": 0.5, "second": 0.95},
    ],
    "threshold_graph": [
        {"x": [1.0, 2.0, 3.0, 4.0], "default": 2.5, "feeds": [0.0, 3.0, 10.0]},
        {"x": [-0.3, 0.3], "default": 0.0, "feeds": [0.3]},
    ],
    "variable_judge": [
        {"x": [1.0, 2.0, 3.0, 4.0], "first": 2.0, "seconds": [4.0, 0.0, 2.5]},
        {"x": [0.0, 0.1], "first": -1.0, "seconds": [0.1]},
    ],
    "retune": [
        {"options": {"threshold": 0.1, "keep_prob": 0.8, "clip": 1.0}, "threshold": 0.9},
        {"options": {"threshold": 2.0}, "threshold": -2.0},
    ],
    "scale_all": [
        {"x": [[1.0, -1.0], [0.5, 4.0]], "scales": [1.5, -2.0, 0.25, 10.0]},
        {"x": [7.0], "scales": [3.0, 0.1]},
    ],
}
