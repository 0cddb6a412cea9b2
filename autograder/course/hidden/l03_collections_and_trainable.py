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

# Names with digits, names that start others, scopes repeated. The probes create the variables with
# get_variable(name) and Keras layers with Dense(name=...), which takes no "/".
VARIABLE_NAMES = ["w", "w2", "w20", "bw", "layer1", "layer10", "dense/kernel", "dense_1/kernel", "dense/dense/kernel"]
LAYER_NAMES = ["dense", "dense_1", "dense_10", "h1", "h12", "out"]


def _matrix(rows, cols, element):
    """`rows` lists of `cols` numbers drawn from `element`."""
    from hypothesis import strategies as st

    return st.lists(st.lists(element, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


def _frozen_after_training(schedule, names) -> bool:
    """Some name is frozen at a step after one where it trained: only then can optimizer state move it."""
    trained = set()
    for frozen in schedule:
        if trained & set(frozen):
            return True
        trained |= set(names) - set(frozen)
    return False


def strategies():
    """The situations the docstrings promise, as strategies, per exercise: (situation, strategy, how many).
    Drawn at publish time into `drawn/`; see `autograder.course.hidden.strategies`."""
    from itertools import pairwise

    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals

    weight = decimals(-2.0, 2.0, 2)
    sizes = st.integers(1, 4)

    bookkeeping = st.tuples(sizes, sizes, sizes).flatmap(lambda d: st.fixed_dictionaries({
        "x": _matrix(d[0], d[1], weight), "w0": _matrix(d[1], d[2], weight),
        "b0": st.lists(weight, min_size=d[2], max_size=d[2])})).filter(lambda c: any(map(any, c["w0"])))

    # Excluded names never end in 0: rstrip(":0") would then keep one trainable, and the answer that
    # strips tensor names that way would be named after that symptom before its own (removed-too-many).
    def excluding(names):
        return st.fixed_dictionaries({
            "values": st.fixed_dictionaries({name: decimals(-5.0, 5.0, 2) for name in names}),
            "excluded": st.lists(st.sampled_from([n for n in names if not n.endswith("0")]), min_size=1,
                                 max_size=len(names) - 1, unique=True),
            "steps": st.integers(2, 8), "lr": decimals(0.01, 0.4, 2)})
    train_excluding = st.lists(st.sampled_from(VARIABLE_NAMES), min_size=3, max_size=5, unique=True).filter(
        lambda names: any("/" in n for n in names) and not all(n.endswith("0") for n in names)).flatmap(excluding)

    dense_decay = st.lists(sizes, min_size=3, max_size=5).flatmap(lambda dims: st.fixed_dictionaries({
        "x": st.integers(1, 3).flatmap(lambda batch: _matrix(batch, dims[0], weight)),
        "layers": st.tuples(*[st.tuples(_matrix(a, b, weight), st.lists(weight, min_size=b, max_size=b)).map(list)
                              for a, b in pairwise(dims)]).map(list),
        "decay": decimals(0.001, 1.0)})).filter(lambda c: all(any(map(any, w)) for w, _ in c["layers"]))

    # The quadratic loss only, with every start at least 1 below its target (1, 2 or 3): the gradient of
    # |x - y| vanishes where the two meet, and a variable could then stand still without being frozen.
    start = decimals(-4.0, 0.0, 2)

    def freezing(names):
        return st.fixed_dictionaries({
            "values": st.fixed_dictionaries({n: st.one_of(start, st.lists(start, min_size=2, max_size=3))
                                             for n in names}),
            "loss": st.just("quadratic"), "optimizer": st.sampled_from(["momentum", "adam"]),
            "lr": decimals(0.005, 0.1), "steps": st.integers(8, 20),
            "cycle": st.lists(st.lists(st.sampled_from(names), max_size=len(names) - 1, unique=True),
                              min_size=2, max_size=5)},
            optional={"bystander": decimals(-3.0, 3.0, 2)})
    freezer = st.lists(st.sampled_from(VARIABLE_NAMES), min_size=2, max_size=3, unique=True).flatmap(
        freezing).filter(lambda c: _frozen_after_training(
            [c["cycle"][i % len(c["cycle"])] for i in range(c["steps"])], c["values"]))

    def scheduling(names):
        return st.tuples(sizes, st.integers(1, 3), st.lists(sizes, min_size=len(names), max_size=len(names))).flatmap(
            lambda d: st.fixed_dictionaries({
                "x": _matrix(d[0], d[1], weight), "y": _matrix(d[0], d[2][-1], weight),
                "layers": st.just([[name, units] for name, units in zip(names, d[2])]),
                "schedule": st.lists(st.lists(st.sampled_from(names), max_size=len(names) - 1, unique=True),
                                     min_size=3, max_size=5),
                "lr": decimals(0.005, 0.1)}))
    train_layers = st.lists(st.sampled_from(LAYER_NAMES), min_size=2, max_size=3, unique=True).flatmap(
        scheduling).filter(lambda c: _frozen_after_training(c["schedule"], [name for name, _ in c["layers"]]))

    return {"bookkeeping": [("drawn: another batch, input and output width", bookkeeping, 2)],
            "train_excluding": [("drawn: names with digits, shared prefixes and scopes, some excluded, in any order",
                                 train_excluding, 1)],
            "dense_decay": [("drawn: another number and width of layers, and another decay", dense_decay, 2)],
            "freezer": [(("drawn: variables (scalars or vectors) under other names, frozen sets in any order, "
                          "one frozen after it trained"), freezer, 1)],
            "train_layers": [(("drawn: layers under other names and widths, a schedule that freezes a layer "
                               "after it trained"), train_layers, 1)]}

# What each promise of REQUIREMENTS ranges over (its dimension) and a hidden situation that reaches it
# there: {exercise: {promise: {dimension: words of a hidden case's situation}}}. `tests/test_drawn.py`
# fails when a promise has no dimension, or a dimension no hidden case.
DIMENSIONS = {
    "bookkeeping": {
        "logits = x @ w + b": {"batch and widths": "a wider batch and layer"},
        "w, b: trainable model variables (GLOBAL, TRAINABLE, MODEL)": {"sizes": "a 1x1 layer"},
        "the global step": {"sizes": "drawn: another batch"},
        "examples_seen: a local, non-trainable": {"sizes": "drawn: another batch"},
        "float32 counter": {"sizes": "drawn: another batch"},
        "a v1 summary \"mean_logit\"": {"batch and widths": "input and output width"},
        "EMA(0.99) over [w, b]": {"sizes": "a wider batch and layer"},
        "(everything it builds runs)": {"sizes": "a 1x1 layer"},
    },
    "train_excluding": {
        "excluding variables through TRAINABLE_VARIABLES": {"none excluded": "nothing excluded",
                                                             "several excluded": "two of three variables excluded"},
        "excluded variables keep their initial values; the others train": {
            "prefix names": "the prefix of another", "digit suffixes": "ends in a digit",
            "scopes, any order": "shared prefixes and scopes"},
        "(every variable stays global, float32)": {"names and scopes": "drawn: names with digits"},
    },
    "dense_decay": {
        "Return x @ w + b": {"depth and width": "another number and width of layers"},
        "with <name>/w and <name>/b from get_variable": {"several layers": "three layers"},
        "add ONE term to the \"losses\" collection": {"one layer and several": "a single layer"},
        "decay * tf.nn.l2_loss(w)": {"tiny and other decays": "a tiny decay"},
    },
    "freezer": {
        "Build every op the training will need (it is finalized next)": {"optimizers with slots": "Adam"},
        "variables in `frozen` stay bit-identical": {"frozen for several steps": "frozen for several steps"},
        "all others are updated": {"a variable outside var_list": "outside var_list"},
        "Trains var_list": {"frozen sets in another order": "another order than var_list"},
        "Run one step": {"frozen after it trained": "one frozen after it trained"},
        "`frozen`: variables of var_list, in any order": {"frozen sets in another order": "another order than var_list"},
    },
    "train_layers": {
        "step i freezes the layers named in frozen_per_step[i]": {"empty steps": "empty steps",
                                                                  "names one the start of another": "dense, dense_1"},
        "and trains the others": {"a layer trained twice in a row": "trained twice in a row"},
        "one Adam(lr), built before the loop; mean((model(x) - y)**2); returns the losses": {
            "other widths and schedules": "freezes a layer after it trained"},
    },
}
