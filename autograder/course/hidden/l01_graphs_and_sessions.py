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


def _array(shape, element):
    """Nested lists of `element` with the given shape (a scalar for the shape [])."""
    from hypothesis import strategies as st

    strategy = element
    for size in reversed(shape):
        strategy = st.lists(strategy, min_size=size, max_size=size)
    return strategy


def _flat(value):
    """The numbers of nested lists, in order."""
    return [v for item in value for v in _flat(item)] if isinstance(value, list) else [value]


# Ops of the probe's graph that no written case asks about: a slice fed by four ops, an op with no
# input, one whose name starts another's, a Split fed by a Const, a Sum, an op whose name ends in digits.
OTHER_OPS = ["strided_slice", "x", "outer", "parts", "total", "layer12"]


def strategies():
    """The situations the docstrings promise, as strategies, per exercise: (situation, strategy, how many).
    Drawn at publish time into `drawn/`; see `autograder.course.hidden.strategies`."""
    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals

    # At least two parts: with one, a Split has one output and counting tensors would count the ops.
    count_ops = st.integers(2, 4).flatmap(lambda parts: st.fixed_dictionaries({
        "features": st.integers(1, 3).map(lambda k: k * parts), "layers": st.integers(1, 4),
        "parts": st.just(parts), "control": st.booleans()}))
    shapes = st.lists(st.integers(1, 3), max_size=3)
    evaluate = shapes.flatmap(lambda shape: st.fixed_dictionaries({
        "init": _array(shape, decimals(-10.0, 10.0, 2)), "new": _array(shape, decimals(-10.0, 10.0, 2))})
    ).filter(lambda case: case["init"] != case["new"])
    one_run = st.fixed_dictionaries({
        "x": st.lists(st.integers(1, 5), min_size=1, max_size=2).flatmap(
            lambda shape: _array(shape, decimals(-10.0, 10.0, 2))),
        "keep": decimals(0.0, 1.0, 2), "seed": st.integers(0, 2**31 - 1),
    }).filter(lambda case: any(_flat(case["x"])))
    running_total = st.fixed_dictionaries({"values": st.lists(decimals(-100.0, 100.0, 2), min_size=2, max_size=8)}
                                          ).filter(lambda case: any(case["values"]))
    return {"count_ops": [("drawn: another width, depth and split, with or without an op that has no outputs",
                           count_ops, 2)],
            "input_names": [("drawn: another op of the graph", st.fixed_dictionaries(
                {"name": st.sampled_from(OTHER_OPS)}), 2)],
            "evaluate": [("drawn: a variable of another shape (a scalar, a vector or more axes)", evaluate, 2)],
            "one_run": [("drawn: another shape, keep probability and seed", one_run, 2)],
            "running_total": [("drawn: another number of values, negative and fractional", running_total, 2)]}

# What each promise of REQUIREMENTS ranges over (its dimension) and a hidden situation that reaches it
# there: {exercise: {promise: {dimension: words of a hidden case's situation}}}. `tests/test_drawn.py`
# fails when a promise has no dimension, or a dimension no hidden case.
DIMENSIONS = {
    "count_ops": {
        "Return {op type: number of ops of that type}": {"other sizes and splits": "drawn: another width"},
        "for every op in `graph`": {"ops with no outputs": "an op that has no outputs", "no ops at all": "an empty graph"},
        "Read `graph` itself, whatever the default graph is": {"another graph than the default": "a deeper network"},
    },
    "input_names": {
        "the ops whose outputs feed the op `name` of `graph`": {"another op": "drawn: another op"},
        "in input order; one entry per data input, repeats included": {"several inputs, in order": "an op and a slice"},
        "op names, not tensor names": {"names ending in digits": "name ends in digits"},
        "no control inputs": {"a control input": "a control input"},
        "Read `graph`, not the default graph": {"another graph than the default": "drawn: another op"},
    },
    "evaluate": {
        "computed in ONE run": {"other shapes": "drawn: a variable of another shape"},
        "use `session` when given": {"one element and more": "a one-element variable"},
        "else the default session": {"other shapes": "a 2x2 variable"},
        "with neither, raise ValueError; never open a session of your own": {"other shapes": "drawn: a variable"},
        "like Tensor.eval(): the caller's session is used, not closed": {"other shapes": "drawn: a variable"},
    },
    "one_run": {
        "Split the array x with ONE random mask": {"lengths and ranks": "a long vector", "a matrix": "a matrix"},
        "as float32 NumPy arrays": {"other shapes": "drawn: another shape"},
        "from one run; fetch both in one sess.run": {"keep probabilities": "a low keep probability"},
        "mask = tf.random.uniform(tf.shape(x), seed=seed) < keep": {"keep = 1 (the boundary)": "a keep probability of 1",
                                                                    "other seeds": "another shape, keep probability and seed"},
        "Build in the default graph": {"other shapes": "drawn: another shape"},
    },
    "running_total": {
        "held in a float32 variable (starting at 0)": {"sums float32 rounds": "float32 rounds"},
        "__init__() builds every op; add() runs only ops built in __init__": {"repeated calls": "the same value twice"},
        "opens a session and initializes the variable": {"other counts of calls": "drawn: another number of values"},
        "add(value) adds `value` and returns the new total": {"signs and fractions": "negative and fractional"},
    },
}
