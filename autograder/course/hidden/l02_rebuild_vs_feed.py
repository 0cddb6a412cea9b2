"""Hidden inputs for lesson 2. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "threshold_judge": [
        ("a value just above the threshold, judged several times", {"x": [-1.0, 0.0, 0.2, 0.2001, 3.0], "first": 0.2, "second": -0.5, "third": 0.1, "calls": 4}),
        ("ties with the threshold", {"x": [0.9, 0.1, 0.5, 0.5, 0.51], "first": 0.5, "second": 0.95, "third": 0.9}),
        ("a tie at a threshold float32 cannot hold exactly (0.7), then an in-place retune",
         {"x": [0.7, 0.69, 0.3, 0.71], "first": 0.7, "second": 0.3, "third": 0.7}),
    ],
    "threshold_graph": [
        ("several feeds, including one above every input", {"x": [1.0, 2.0, 3.0, 4.0], "default": 2.5, "feeds": [0.0, 3.0, 10.0]}),
        ("a single feed equal to an input", {"x": [-0.3, 0.3], "default": 0.0, "feeds": [0.3]}),
        ("a whole-number (int) default, fed thresholds between whole numbers",
         {"x": [0.0, 0.5, 1.0, 2.0], "default": 1, "feeds": [0.5, 1.5]}),
    ],
    "variable_judge": [
        ("several new thresholds, one back at the first", {"x": [1.0, 2.0, 3.0, 4.0], "first": 2.0, "seconds": [4.0, 0.0, 2.5]}),
        ("a negative first threshold", {"x": [0.0, 0.1], "first": -1.0, "seconds": [0.1]}),
        ("a tie at a threshold float32 cannot hold exactly (0.7)", {"x": [0.7, 0.3, 0.69], "first": 0.3, "seconds": [0.7, 0.69]}),
        ("a whole-number (int) first threshold", {"x": [0.5, 1.0, 2.0], "first": 1, "seconds": [1.5]}),
    ],
    "retune": [
        ("a dict with more options than the public one", {"options": {"threshold": 0.1, "keep_prob": 0.8, "clip": 1.0}, "threshold": 0.9}),
        ("a one-option dict and a negative threshold", {"options": {"threshold": 2.0}, "threshold": -2.0}),
        ("as many options as the public case, under other names, and a threshold with many digits",
         {"options": {"keep_prob": 0.5, "threshold": 0.25}, "threshold": 0.123456789}),
        ("a dict that holds no threshold yet", {"options": {"keep_prob": 0.5, "clip": 1.0}, "threshold": 0.3}),
    ],
    "set_hyperparameter": [
        # Names the public case never changes (bias in the graph, clip in Python), each changed twice.
        ("options the public case never changes, each changed twice", {"x": [-1.0, 0.5, 1.0, 2.0], "options": {"scale": 1.0, "bias": 0.0, "mask": [1, 1, 1, 1],
                                                  "clip": 10.0, "threshold": 0.0},
         "used_in": {"scale": ["graph"], "bias": ["graph"], "mask": ["graph", "python"],
                     "clip": ["python"], "threshold": ["python"]},
         "changes": [["bias", 0.75], ["clip", 1.5], ["bias", -0.5], ["clip", 0.6]]}),
        # A change used in both layers first, then two graph changes in a row, then back to Python.
        ("an option used in both the graph and Python, then repeated graph changes", {"x": [0.1, 0.2, 0.3], "options": {"scale": 1.0, "bias": 0.0, "mask": [1, 1, 1], "clip": 10.0,
                                            "threshold": 0.12},
         "used_in": {"scale": ["graph"], "bias": ["graph"], "mask": ["graph", "python"],
                     "clip": ["python"], "threshold": ["python"]},
         "changes": [["mask", [0, 1, 1]], ["scale", 3.0], ["scale", 0.5], ["threshold", 0.2],
                     ["mask", [1, 1, 1]]]}),
        # The same layers reading options under other names: where each is used comes from used_in only.
        ("the same layers with the options under other names", {"x": [0.2, 0.4, 0.6, 0.8], "options": {"gain": 1.0, "offset": 0.0, "keep": [1, 1, 1, 1],
                                          "cap": 10.0, "cut": 0.3},
         "used_in": {"gain": ["graph"], "offset": ["graph"], "keep": ["graph", "python"],
                     "cap": ["python"], "cut": ["python"]},
         "names": {"scale": "gain", "bias": "offset", "mask": "keep", "clip": "cap", "threshold": "cut"},
         "changes": [["cut", 0.5], ["gain", 2.0], ["keep", [1, 0, 1, 1]], ["cap", 1.0]]}),
    ],
    "scale_all": [
        ("a matrix and a negative scale", {"x": [[1.0, -1.0], [0.5, 4.0]], "scales": [1.5, -2.0, 0.25, 10.0]}),
        ("a one-element input", {"x": [7.0], "scales": [3.0, 0.1]}),
        ("whole-number (int) scales among floats", {"x": [1.0, -2.0], "scales": [2, 0.5, 3]}),
    ],
}


def strategies():
    """The situations the docstrings promise, as strategies, per exercise: (situation, strategy, how many).
    Drawn at publish time into `drawn/`; see `autograder.course.hidden.strategies`."""
    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals

    option_names = st.sampled_from(["keep_prob", "clip", "lr", "momentum", "decay", "threshold_2"])
    retune = st.fixed_dictionaries({
        "options": st.tuples(st.dictionaries(option_names, decimals(-2.0, 2.0), max_size=3), st.booleans(),
                             decimals(-2.0, 2.0)).map(lambda t: {**t[0], "threshold": t[2]} if t[1] else t[0]),
        "threshold": decimals(-5.0, 5.0, 4)})
    scale_all = st.fixed_dictionaries({
        "x": st.lists(decimals(-10.0, 10.0, 2), min_size=1, max_size=6),
        "scales": st.lists(decimals(-4.0, 4.0, 2), min_size=2, max_size=5, unique=True)})

    inputs = st.lists(decimals(-2.0, 2.0, 2), min_size=1, max_size=6)

    def threshold(x):
        """On an input (a tie) or anywhere around them."""
        return st.one_of(st.sampled_from(x), decimals(-2.5, 2.5, 2))

    threshold_judge = inputs.flatmap(lambda x: st.fixed_dictionaries({
        "x": st.just(x), "first": threshold(x), "second": threshold(x), "third": threshold(x),
        "calls": st.integers(1, 4)})).filter(lambda c: c["first"] != c["second"] != c["third"])
    threshold_graph = inputs.flatmap(lambda x: st.fixed_dictionaries({
        "x": st.just(x), "default": threshold(x), "feeds": st.lists(threshold(x), min_size=1, max_size=3)}))
    variable_judge = inputs.flatmap(lambda x: st.fixed_dictionaries({
        "x": st.just(x), "first": threshold(x), "seconds": st.lists(threshold(x), min_size=1, max_size=4)}))

    # Where the probe's layers use each role, truthfully: a correct answer may redo more than it must
    # where no answer shows it (one resets the model after every change), and still answers right.
    used_in = {"scale": ["graph"], "bias": ["graph"], "mask": ["graph", "python"], "clip": ["python"],
               "threshold": ["python"]}
    keys = st.fixed_dictionaries({role: st.sampled_from([role, *others]) for role, others in (
        ("scale", ["gain", "scale2"]), ("bias", ["offset", "bias_1"]), ("mask", ["keep", "mask0"]),
        ("clip", ["cap", "clip10"]), ("threshold", ["cut", "threshold_2"]))})

    def layered(n, key):
        value = {"scale": decimals(-3.0, 3.0, 2), "bias": decimals(-1.0, 1.0, 2), "clip": decimals(0.1, 5.0, 2),
                 "threshold": decimals(-1.0, 2.0, 2),
                 "mask": st.lists(st.sampled_from([1, 0]), min_size=n, max_size=n).filter(any)}
        change = st.sampled_from(list(used_in)).flatmap(lambda role: st.tuples(st.just(role), value[role]))
        return st.fixed_dictionaries({
            "x": st.lists(decimals(-1.0, 1.0, 2), min_size=n, max_size=n),
            "options": st.fixed_dictionaries({key[role]: value[role] for role in used_in}),
            "used_in": st.just({key[role]: where for role, where in used_in.items()}), "names": st.just(key),
            "changes": st.lists(change, min_size=2, max_size=5).filter(
                lambda changes: len({tuple(used_in[role]) for role, _ in changes}) >= 2).map(
                lambda changes: [[key[role], v] for role, v in changes])})
    set_hyperparameter = st.tuples(st.integers(1, 6), keys).flatmap(lambda t: layered(*t))
    return {"threshold_judge": [(("drawn: another length, thresholds on inputs (ties) and between them, judged "
                                  "once or more"), threshold_judge, 2)],
            "threshold_graph": [("drawn: another length, a default and feeds on inputs (ties) and between them",
                                 threshold_graph, 2)],
            "variable_judge": [("drawn: another length, thresholds on inputs (ties) and between them",
                                variable_judge, 2)],
            "retune": [("drawn: options under other names, with or without a threshold yet", retune, 3)],
            "set_hyperparameter": [("drawn: options under other names, changes of several kinds in any order",
                                    set_hyperparameter, 2)],
            "scale_all": [("drawn: another length and several distinct scales", scale_all, 2)]}

# What each promise of REQUIREMENTS ranges over (its dimension) and a hidden situation that reaches it
# there: {exercise: {promise: {dimension: words of a hidden case's situation}}}. `tests/test_drawn.py`
# fails when a promise has no dimension, or a dimension no hidden case.
DIMENSIONS = {
    "threshold_judge": {
        "Answers `x >= options[\"threshold\"]`": {"ties": "ties with the threshold",
                                                  "a hair above": "just above the threshold"},
        "always with the threshold currently in the options": {"several changes": "thresholds on inputs"},
        "builds the whole graph once in the default graph": {"several calls": "judged several times"},
        "float32 placeholders for x and the threshold": {"a tie float32 cannot hold": "float32 cannot hold exactly"},
        "opens the one session it uses": {"the first call on": "judged several times"},
        "a change made in place to the options dict counts too": {"an in-place retune": "in-place retune"},
        "judge(x) adds no ops to the graph": {"the first call and more": "judged once or more"},
        "for x of any length": {"another length": "another length"},
    },
    "threshold_graph": {
        "threshold = placeholder_with_default(default)": {"a whole-number default": "whole-number (int) default"},
        "a fed threshold is used": {"several feeds": "several feeds"},
        "x >= threshold (float32)": {"ties": "a single feed equal to an input"},
    },
    "variable_judge": {
        "one non-trainable float32 variable": {"a whole-number threshold": "whole-number (int) first threshold"},
        "builds every op (including one assign op)": {"several sets": "several new thresholds"},
        "opens the one session it uses": {"several sets": "several new thresholds"},
        "No copy of the threshold is kept in Python": {"a value set back": "one back at the first"},
        "Answers `x >= threshold` with the threshold last set": {"ties": "a tie at a threshold",
                                                                 "negative values": "a negative first threshold"},
    },
    "retune": {
        "Set options[\"threshold\"] in place, so every holder of this dict sees it": {
            "no threshold yet": "holds no threshold yet", "many digits": "many digits"},
        "keep other keys": {"more keys, other names": "more options than the public one"},
    },
    "set_hyperparameter": {
        "Set api.options[name] = value in the shared dict": {"other names": "under other names"},
        "api.network.build() if \"graph\" is in api.used_in[name]": {"repeated graph changes": "repeated graph changes"},
        "api.model.reset() if \"python\" is": {"names never changed in public": "never changes"},
        "redo only what uses it": {"changes of several kinds in any order": "several kinds in any order"},
        "in place": {"changes of several kinds": "several kinds"},
    },
    "scale_all": {
        "[x * s for s in scales]": {"shapes": "a matrix", "negative scales": "a negative scale"},
        "as float32 NumPy arrays": {"whole-number scales": "whole-number (int) scales"},
        "A scale may be a whole number": {"whole-number scales among floats": "whole-number (int) scales"},
        "one tf.function": {"other counts of scales": "several distinct scales"},
        "one trace of it serving every scale of the call": {"whole-number and float scales": "whole-number (int) scales"},
    },
}
