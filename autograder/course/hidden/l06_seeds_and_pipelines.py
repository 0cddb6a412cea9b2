"""Hidden inputs for lesson 6. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "twin_noise": [
        ("seed 0", {"seed": 0, "shape": [2, 2]}),
        ("a large seed and a one-element shape", {"seed": 123456, "shape": [1]}),
    ],
    "noise_source": [
        ("seed 0 and several draws", {"seed": 0, "shape": [3], "draws": 4}),
        ("a matrix shape and a single draw before replaying", {"seed": 99, "shape": [2, 2], "draws": 1}),
        ("draws and replays while another graph is the default one", {"seed": 3, "shape": [2], "draws": 2, "decoy": True}),
    ],
    "shuffled_epochs": [
        ("reshuffling each epoch", {"data": [5, 4, 3, 2, 1], "seed": 0, "reshuffle": True, "epochs": 2}),
        ("one fixed order for every epoch, with repeated values", {"data": [1, 1, 2, 3, 5, 8, 13], "seed": 11, "reshuffle": False, "epochs": 3}),
        ("a list longer than the public ones", {"data": list(range(100, 113)), "seed": 4, "reshuffle": True, "epochs": 2}),
        ("a single epoch", {"data": [7, 8, 9, 10], "seed": 2, "reshuffle": True, "epochs": 1}),
    ],
    "batch_reader": [
        ("a last batch that is short", {"features": [[float(3 * i + j) for j in range(3)] for i in range(7)], "batch_size": 2, "calls": 4}),
        ("a batch larger than half the data, float64 features", {"features": [[-1.0], [0.5], [2.0], [3.5], [5.0], [6.5]], "batch_size": 5, "calls": 2, "dtype": "float64"}),
    ],
    "step_noise": [
        ("steps out of order and far apart", {"seed": 7, "steps": [5, 1000, 3], "shape": [2, 2]}),
        ("step 0", {"seed": 0, "steps": [0, 1], "shape": [4]}),
    ],
}
