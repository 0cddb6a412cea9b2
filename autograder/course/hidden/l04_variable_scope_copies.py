"""Hidden inputs for lesson 4. Expected values are never stored: the grader computes them from solutions/."""
import numpy as np

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
        ("a destination of another shape with as many elements ([2, 3] against [3, 2])",
         {"src_scope": "net", "dst_scope": "net_copy", "shapes": {"norm/beta": [3], "dense/kernel": [2, 3]},
          "src_order": ["dense/kernel", "norm/beta"], "dst_order": ["norm/beta", "dense/kernel"],
          "missing": "out/bias", "bad_shape": "dense/kernel", "transposed": True}),
        ("scalar variables, one-letter names and a different order", {"src_scope": "online", "dst_scope": "frozen",
         "shapes": {"gain": [], "bias": [], "w": [3, 1], "b": [1]},
         "src_order": ["gain", "bias", "w", "b"], "dst_order": ["bias", "gain", "w", "b"],
         "missing": "gate", "bad_shape": "w"}),
        ("a variable whose name repeats its scope's name (net/net/w)", {"src_scope": "net", "dst_scope": "target",
         "shapes": {"net/w": [2, 2], "b": [2]}, "src_order": ["net/w", "b"], "dst_order": ["net/w", "b"],
         "missing": "head/w", "bad_shape": "b"}),
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
        ("sources that move down between updates", {"source": [[2.0, 0.0]], "target": [[0.0, 0.0]], "tau": 0.5,
                                                     "steps": 3, "moves": -0.5}),
    ],
    "polyak_update": [
        ("variables given as a dict, tau = 1", {"target": {"kernel": [[1.0, 2.0], [3.0, 4.0]], "bias": [0.0, 0.0]},
         "source": {"kernel": [[0.0, 0.0], [0.0, 0.0]], "bias": [1.0, -1.0]}, "tau": 1.0, "steps": 1}),
        ("a dict of three variables, keys out of alphabetical order", {"target": {"w": [1.0, 1.0], "b": [0.5], "a": [[2.0]]},
         "source": {"w": [3.0, -1.0], "b": [0.0], "a": [[0.0]]}, "tau": 0.5, "steps": 2}),
        ("a source dict listing its keys in another order than the target", {"target": {"w": [1.0, 2.0], "b": [0.5, -0.5]},
         "source": {"b": [1.0, 1.0], "w": [3.0, -3.0]}, "tau": 0.5, "steps": 1}),
        ("a list of variables and a small tau", {"target": [[0.0], [1.0, 1.0, 1.0], [5.0]], "source": [[2.0], [0.0, 0.0, 0.0], [5.0]],
         "tau": 0.05, "steps": 3}),
        ("nested structures: a dict holding a dict of variables and a list", {"target": {"kernel": [[1.0]], "bias": [0.5]},
         "source": {"kernel": [[3.0]], "bias": [-0.5]}, "head": [[2.0, 2.0], [0.0, 4.0]], "tau": 0.5, "steps": 2}),
    ],
}

# Scope and variable names for the drawn sync cases: digits, nesting, scopes that share a prefix. No
# layer name ends with a scope's name and every leaf differs, so cutting a scope name out of the middle
# of a variable's name never gives another variable's name.
SOURCE_SCOPES = ["agent_1/q", "net2", "q", "online"]
DESTINATION_SCOPES = ["agent_1/q_target", "past", "net2_copy", "q_target"]
SCOPE_SUFFIXES = ["_old", "2", "_v10"]
LAYERS = ["layer1/", "", "dense_2/", "block10/"]
LEAVES = ["w", "b", "kernel", "bias", "gamma_1", "beta", "w10", "scale"]
SHAPES = [[2, 2], [3], [], [2, 3], [1]]


def _array(st, shape, elements):
    """Nested lists of `shape` (a bare element for a scalar), no two elements equal."""
    size = int(np.prod(shape))
    return st.lists(elements, min_size=size, max_size=size, unique=True).map(
        lambda flat: np.reshape(flat, shape).tolist())


def _apart(scopes):
    """No two scopes are equal or one inside the other."""
    return all(a != b and not (a + "/").startswith(b + "/") for a in scopes for b in scopes if a is not b)


def strategies():
    """The situations the docstrings promise, as strategies, per exercise: (situation, strategy, how many).
    Drawn at publish time into `drawn/`; see `autograder.course.hidden.strategies`. A sampled list's
    first entry is what the simplest draw (the first) takes."""
    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals

    flags = st.sampled_from([True, False])

    @st.composite
    def sync_op(draw):
        src, dst, decoy, dst_decoy = draw(st.tuples(
            st.sampled_from(SOURCE_SCOPES), st.sampled_from(DESTINATION_SCOPES), st.sampled_from(SCOPE_SUFFIXES),
            st.sampled_from(SCOPE_SUFFIXES)).map(lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3])).filter(_apart))
        count = draw(st.integers(3, 5))
        leaves = draw(st.permutations(LEAVES))
        layers = draw(st.lists(st.sampled_from(LAYERS), min_size=count, max_size=count))
        names = [layer + leaf for layer, leaf in zip(layers, leaves)]
        repeated = draw(st.sampled_from([src, dst, None]))  # a name that starts with a scope's name
        if repeated:
            names[0] = f"{repeated}/{names[0]}"
        shapes = {names[0]: draw(st.sampled_from([s for s in SHAPES if s]))}
        shapes.update({name: draw(st.sampled_from(SHAPES)) for name in names[1:]})
        case = {"src_scope": src, "dst_scope": dst, "shapes": shapes,
                "src_order": draw(st.permutations(names)), "dst_order": draw(st.permutations(names))[::-1],
                "missing": "head_3/" + leaves[count],
                "bad_shape": draw(st.sampled_from([name for name in names if shapes[name]]))}
        for key, value in (("decoy", decoy), ("dst_decoy", dst_decoy), ("dst_extra", leaves[count + 1]),
                           ("src_frozen", leaves[count + 2])):
            if draw(flags):
                case[key] = value
        return case

    def network(n_in, hidden, n_out, batch, **training):
        values = decimals(-2.0, 2.0, 1)
        return st.fixed_dictionaries({
            "n_in": st.just(n_in), "hidden": st.just(hidden), "n_out": st.just(n_out),
            "x": _array(st, [batch, n_in], values), "frozen_scale": flags,
            **({"y": _array(st, [batch, n_out], values), **training} if training else {})})

    sizes = st.tuples(st.integers(1, 4), st.integers(1, 5), st.integers(1, 3), st.integers(1, 3))
    current_and_past = sizes.flatmap(lambda s: network(*s))
    sizes = st.tuples(st.sampled_from([4, 1, 2, 3]), st.sampled_from([1, 2, 5]), st.sampled_from([3, 1, 2]),
                      st.sampled_from([2, 1, 4]))
    lagged_trainer = sizes.flatmap(lambda s: network(*s, steps=st.integers(5, 8),
                                                     learning_rate=decimals(0.3, 0.5, 2)))

    def variable_pair(shape):
        """(source, target) values of one variable, the target off its source by a gap."""
        gaps = st.one_of(decimals(0.25, 3.0, 2), decimals(-3.0, -0.25, 2))
        return st.tuples(_array(st, shape, decimals(-3.0, 3.0, 2)), _array(st, shape, gaps)).map(
            lambda pair: (pair[0], np.round(np.add(pair[0], pair[1]), 2).tolist()))

    variable_pairs = st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3).flatmap(
        lambda shapes: st.tuples(*map(variable_pair, shapes)))
    taus = decimals(0.01, 1.0, 2)

    @st.composite
    def soft_update(draw):
        pairs = draw(variable_pairs)
        return {"source": [s for s, _ in pairs], "target": [t for _, t in pairs], "tau": draw(taus),
                "steps": draw(st.integers(2, 6))}

    @st.composite
    def polyak_update(draw):
        pairs = draw(variable_pairs)
        case = {"source": [s for s, _ in pairs], "target": [t for _, t in pairs]}
        if draw(flags):  # the same variables in a dict
            keys = draw(st.permutations(LEAVES))[:len(pairs)]
            case = {name: dict(zip(keys, values)) for name, values in case.items()}
        if draw(flags):
            source, target = draw(variable_pair(draw(st.sampled_from(SHAPES))))
            case["head"] = [target, source]
        return {**case, "tau": draw(taus), "steps": draw(st.integers(1, 4))}

    names = "drawn: scope and variable names with digits, nesting or a repeated scope name"
    return {
        "sync_op": [(names + ", other orders and shapes, with or without decoy scopes, extra and non-trainable "
                     "variables", sync_op(), 2)],
        "current_and_past": [("drawn: other layer sizes and batches, with or without a non-trainable variable",
                              current_and_past, 2)],
        "lagged_trainer": [("drawn: other layer sizes, batch, learning rate and number of steps",
                            lagged_trainer, 1)],
        "soft_update": [("drawn: other numbers and shapes of variables, a tau in (0, 1], several updates",
                         soft_update(), 2)],
        "polyak_update": [("drawn: a list or a dict of variables of other shapes, maybe nested, a tau in (0, 1]",
                           polyak_update(), 2)],
    }

# What each promise of REQUIREMENTS ranges over (its dimension) and a hidden situation that reaches it
# there: {exercise: {promise: {dimension: words of a hidden case's situation}}}. `tests/test_drawn.py`
# fails when a promise has no dimension, or a dimension no hidden case.
DIMENSIONS = {
    "sync_op": {
        "copies each trainable variable under `src_scope`": {"a prefix-sharing decoy": "a decoy scope sharing a prefix",
                                                              "non-trainable sources": "a non-trainable source variable"},
        "into its partner, the global variable under `dst_scope` with the same relative name": {
            "orders": "scopes that differ in order", "repeated scope names": "repeats its scope's name"},
        "Raises KeyError (a source has no partner)": {"names with digits and nesting": "scope and variable names with digits"},
        "or ValueError (shapes differ), naming the variable": {"shapes of equal size": "as many elements",
                                                               "scalars": "scalar variables"},
    },
    "current_and_past": {
        "net_fn(x) under scope \"current\"": {"sizes": "a one-unit input"},
        "and again under scope \"past\"": {"sizes": "a wider input"},
        "a custom_getter that reads every variable of the copy through tf.stop_gradient": {
            "non-trainable variables": "a non-trainable variable of its own"},
    },
    "lagged_trainer": {
        "a \"past\" copy stays exactly one update behind": {"several steps": "several steps"},
        "opens self.sess, initializes every variable and syncs once": {"one step": "one step"},
        "returns (current_out, past_out) as evaluated before this step's sync and update": {
            "large steps": "a large learning rate"},
        "Trains a \"current\" copy of net_fn": {"non-trainable variables": "a non-trainable variable, one step"},
        "scope `\"past\"` (read through `stop_gradient`, as in Exercise 2)": {
            "non-trainable variables": "a non-trainable variable, one step", "several steps": "several steps"},
        "builds no ops": {"other numbers of steps": "number of steps"},
    },
    "soft_update": {
        "Return one op": {"several variables": "other numbers and shapes of variables"},
        "target <- tau * source + (1 - tau) * target": {"tau = 1": "tau = 1", "small tau, several updates": "a small tau",
                                                        "sources that change during the probe": "sources that move"},
    },
    "polyak_update": {
        "In place: every target variable": {"lists and dicts": "a list of variables"},
        "<- tau * source + (1 - tau) * target": {"keys in other orders": "its keys in another order",
                                                 "keys out of alphabetical order": "out of alphabetical order"},
        "Raises ValueError (or TypeError) when the two structures differ": {"nested structures": "nested structures"},
        "before changing anything": {"dicts": "variables given as a dict"},
    },
}
