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
        # "Any length": past the 1000 a capped buffer (shuffle(min(len(data), 1000))) would hold.
        ("a list longer than 1000", {"data": list(range(1030)), "seed": 6, "reshuffle": True, "epochs": 2}),
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


def strategies():
    """The situations the docstrings promise, as strategies, per exercise: (situation, strategy, how many).
    Drawn at publish time into `drawn/`; see `autograder.course.hidden.strategies`."""
    from hypothesis import strategies as st

    seeds = st.integers(0, 2**31 - 2)
    shapes = st.lists(st.integers(1, 4), max_size=3)  # a scalar ([]) too: an op's shape may have any rank
    twin = st.fixed_dictionaries({"seed": seeds, "shape": shapes})
    source = st.fixed_dictionaries({"seed": seeds, "shape": shapes, "draws": st.integers(1, 5),
                                    "decoy": st.booleans()})
    epochs = st.fixed_dictionaries({"data": st.lists(st.integers(-50, 500), min_size=1, max_size=20),
                                    "seed": seeds, "reshuffle": st.booleans(), "epochs": st.integers(1, 4)})
    # No shape []: .numpy() of a scalar is a NumPy scalar, and the exercise promises arrays.
    noise = st.fixed_dictionaries({
        "seed": seeds, "shape": st.lists(st.integers(1, 4), min_size=1, max_size=3),
        "steps": st.lists(st.one_of(st.integers(0, 20), st.integers(0, 2**31 - 1)), min_size=1, max_size=5,
                          unique=True)})
    return {
        "twin_noise": [("drawn: another seed, and a shape of another rank", twin, 2)],
        "noise_source": [("drawn: another seed, shape and number of draws, with or without another default graph",
                          source, 2)],
        "shuffled_epochs": [("drawn: a list of another length, maybe with repeated values, another seed and "
                             "number of epochs", epochs, 2)],
        "batch_reader": [("drawn: another number of rows, row shape, dtype and batch size, read to the last batch",
                          _batch_reader(), 2)],
        "step_noise": [("drawn: distinct steps in any order, some far apart, another seed and shape", noise, 2)]}


def _batch_reader():
    """Features of any rank and numeric dtype, read by one call per batch (the last one short or full)."""
    import math

    import numpy as np
    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals

    @st.composite
    def case(draw):
        rows = draw(st.integers(1, 10))
        shape = [rows, *draw(st.lists(st.integers(1, 3), max_size=2))]
        dtype = draw(st.sampled_from(["float32", "float64", "int32", "int64"]))
        values = decimals(-100.0, 100.0, 2) if dtype.startswith("float") else st.integers(-1000, 1000)
        flat = draw(st.lists(values, min_size=math.prod(shape), max_size=math.prod(shape)))
        batch_size = draw(st.integers(1, rows + 2))
        return {"features": np.array(flat, dtype=object).reshape(shape).tolist(), "batch_size": batch_size,
                "calls": -(-rows // batch_size), "dtype": dtype}
    return case()

# What each promise of REQUIREMENTS ranges over (its dimension) and a hidden situation that reaches it
# there: {exercise: {promise: {dimension: words of a hidden case's situation}}}. `tests/test_drawn.py`
# fails when a promise has no dimension, or a dimension no hidden case.
DIMENSIONS = {
    "twin_noise": {
        "Return two separate uniform random ops": {"seeds": "seed 0"},
        "of the given shape": {"ranks": "a shape of another rank"},
        "that always draw the same values": {"seeds": "another seed"},
        "(from `seed`)": {"large seeds": "a large seed"},
    },
    "noise_source": {
        "One seeded uniform random op": {"shapes": "a matrix shape"},
        "__init__(seed, shape) builds the op in the default graph and opens a session": {
            "another default graph": "while another graph is the default one"},
        "draw() returns the next values": {"several draws": "several draws"},
        "replay() makes the next draw() start the sequence over": {"a single draw": "a single draw before replaying"},
    },
    "shuffled_epochs": {
        "Dataset of `epochs` seeded shuffles of `data`": {"one epoch": "a single epoch"},
        "reshuffled between epochs iff `reshuffle`": {"both settings": "one fixed order for every epoch"},
        "(shuffle(len(data), seed=seed) then repeat)": {"lengths past 1000": "longer than 1000",
                                                        "repeated values": "with repeated values"},
    },
    "batch_reader": {
        "Reads `features` in batches through a tf.data pipeline inside the graph": {"dtypes": "float64 features"},
        "next_batch() returns the next batch (a NumPy array)": {"a short last batch": "a last batch that is short"},
        "and builds nothing": {"row shapes": "row shape"},
    },
    "step_noise": {
        "One array of uniform noise per step": {"step 0": "step 0"},
        "a pure function of (seed, step)": {"steps in any order, far apart": "out of order and far apart"},
    },
}
