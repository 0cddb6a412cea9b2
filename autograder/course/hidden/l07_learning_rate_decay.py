"""Hidden inputs for lesson 7. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "exponential_family": [
        ("steps around several decay boundaries", {"learning_rate": 0.5, "decay_steps": 7, "decay_rate": 0.3, "steps": [0, 3, 6, 7, 8, 13, 14, 15, 50]}),
        ("a slow decay over many steps", {"learning_rate": 1.0, "decay_steps": 100, "decay_rate": 0.96,
         "steps": [0, 1, 99, 100, 101, 250, 1000, 5000]}),
    ],
    "piecewise": [
        ("a boundary at step 0", {"boundaries": [0, 3], "values": [1.0, 0.5, 0.25], "steps": [0, 1, 2, 3, 4, 10]}),
        ("steps on and around each boundary", {"boundaries": [100, 200, 300], "values": [0.3, 0.2, 0.1, 0.05],
         "steps": [0, 99, 100, 101, 200, 201, 299, 300, 301, 1000]}),
        ("a single boundary, steps out of order", {"boundaries": [5], "values": [0.2, 0.02],
         "steps": [0, 5, 100, 3, 7, 5, 1, 6]}),
    ],
    "polynomial": [
        ("steps past decay_steps, with cycles", {"learning_rate": 1.0, "decay_steps": 4, "end_learning_rate": 0.0, "powers": [1.0, 3.0],
         "steps": [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13]}),
        ("a square-root power", {"learning_rate": 0.05, "decay_steps": 25, "end_learning_rate": 0.001, "powers": [0.5],
         "steps": [0, 12, 24, 25, 26, 50, 51, 75, 100]}),
    ],
    "cosine_family": [
        ("restarts that grow longer", {"learning_rate": 1.0, "decay_steps": 3, "alpha": 0.0, "t_mul": 3.0, "m_mul": 0.8,
         "num_periods": 2.0, "beta": 0.0, "steps": [0, 1, 2, 3, 4, 7, 11, 12, 13, 25, 38, 39, 40, 100]}),
        ("a t_mul with no exact binary value, its restarts on whole steps",
         {"learning_rate": 0.5, "decay_steps": 10, "alpha": 0.1, "t_mul": 1.3, "m_mul": 0.7, "num_periods": 1.5,
          "beta": 0.0, "steps": [0, 9, 10, 11, 22, 23, 24, 39, 40, 41]}),
        ("a nonzero alpha and beta", {"learning_rate": 0.2, "decay_steps": 8, "alpha": 0.25, "t_mul": 1.5, "m_mul": 0.9,
         "num_periods": 0.5, "beta": 0.01, "steps": [0, 4, 7, 8, 9, 15, 19, 20, 21, 30, 38, 39, 60, 95]}),
    ],
    "auto_decay": [
        ("patience 1 and a cut to a tenth", {"initial_rate": 1.0, "factor": 0.1, "patience": 1, "scripts": {
            "rise": [2.0, 2.5, 1.5, 1.0, 1.2, 0.9],
            "zigzag": [2.0, 1.0, 1.5, 1.2, 0.9, 1.1, 1.0, 0.95, 0.5],
            "plateau": [3.0, 2.0, 2.3, 2.4, 2.5, 1.0, 1.4, 1.5],
            "ties": [3.0, 3.0, 2.0, 2.0, 1.0, 1.0, 0.5],
            "recover": [2.0, 2.5, 1.5, 1.8, 1.0],
            "dip": [2.0, 3.0, 2.5, 2.2]}}),
        ("patience 3 on long plateaus", {"initial_rate": 0.01, "factor": 0.7, "patience": 3, "scripts": {
            "rise": [0.5, 0.52, 0.54, 0.56, 0.4, 0.45, 0.3],
            "zigzag": [0.5, 0.6, 0.55, 0.52, 0.45, 0.5, 0.47, 0.46, 0.4, 0.41, 0.405, 0.402, 0.39],
            "plateau": [0.4, 0.41, 0.42, 0.43, 0.44, 0.45, 0.46, 0.47, 0.48, 0.49, 0.5, 0.3],
            "ties": [0.4, 0.4, 0.4, 0.4, 0.3, 0.3, 0.3, 0.3, 0.2],
            "recover": [0.5, 0.6, 0.55, 0.45, 0.5, 0.48, 0.4, 0.42, 0.41, 0.3],
            "dip": [0.5, 0.55, 0.6, 0.65, 0.52, 0.58, 0.51, 0.45]}}),
        ("patience 4, a cut to a quarter, long runs of equal losses", {
            "initial_rate": 0.05, "factor": 0.25, "patience": 4, "scripts": {
                "rise": [0.9, 0.8, 0.85, 0.86, 0.9, 1.0, 0.7],
                "zigzag": [0.9, 0.8, 0.95, 0.85, 0.82, 0.81, 0.79, 0.9, 0.85, 0.8, 0.795, 0.7],
                "plateau": [0.9, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.91, 0.5],
                "ties": [0.9, 0.9, 0.9, 0.9, 0.9, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.5],
                "recover": [0.9, 0.95, 0.92, 0.8, 0.85, 0.83, 0.7, 0.75, 0.72, 0.71, 0.6],
                "dip": [0.9, 0.92, 0.94, 0.96, 0.98, 0.95, 0.93, 0.97, 0.91, 0.8]}}),
    ],
}


def strategies():
    """The situations the docstrings promise, as strategies, per exercise: (situation, strategy, how many).
    Drawn at publish time into `drawn/`; see `autograder.course.hidden.strategies`."""
    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals, steps_around

    piecewise = st.lists(st.integers(1, 60), min_size=1, max_size=4, unique=True).map(sorted).flatmap(
        lambda b: st.fixed_dictionaries({
            "boundaries": st.just(b),
            "values": st.lists(decimals(0.001, 1.0), min_size=len(b) + 1, max_size=len(b) + 1, unique=True),
            "steps": steps_around(b)}))
    exponential = st.integers(1, 50).flatmap(lambda d: st.fixed_dictionaries({
        "learning_rate": decimals(0.001, 1.0), "decay_steps": st.just(d), "decay_rate": decimals(0.05, 0.99, 2),
        "steps": steps_around([d, 2 * d, 5 * d])}))
    polynomial = st.integers(2, 30).flatmap(lambda d: st.fixed_dictionaries({
        "learning_rate": decimals(0.1, 1.0), "decay_steps": st.just(d), "end_learning_rate": decimals(0.0, 0.09),
        "powers": st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0]), min_size=1, max_size=2, unique=True),
        "steps": steps_around([d, 2 * d, 3 * d])}))
    # Periods that grow (the probe runs t_mul 1 on its own, beside t_mul). A t_mul with no exact binary value
    # (1.3) puts restarts on whole steps where float32 and float64 pick different periods: the written case
    # above covers it.
    cosine = st.tuples(st.integers(1, 40), st.sampled_from([1.5, 2.0, 2.5, 3.0])).flatmap(
        lambda dt: st.fixed_dictionaries({
            "learning_rate": decimals(0.01, 1.0), "decay_steps": st.just(dt[0]), "alpha": decimals(0.0, 0.5, 2),
            "t_mul": st.just(dt[1]), "m_mul": decimals(0.1, 1.0, 2), "num_periods": decimals(0.5, 4.0, 1),
            "beta": decimals(0.0, 0.01), "steps": steps_around(_restarts(*dt))}))
    auto_decay = st.integers(2, 5).flatmap(lambda patience: st.fixed_dictionaries({
        "initial_rate": decimals(0.001, 1.0), "factor": decimals(0.1, 0.9, 2), "patience": st.just(patience),
        "scripts": _scripts(patience)}))
    return {"piecewise": [("drawn: sorted boundaries, steps in any order on and around them", piecewise, 3)],
            "exponential_family": [("drawn: a decay rate and steps around several decay boundaries", exponential, 2)],
            "polynomial": [("drawn: powers, an end rate, steps across several cycles", polynomial, 2)],
            "cosine_family": [("drawn: other rates, floors, periods and restart factors, steps on and around the "
                               "first restarts", cosine, 2)],
            "auto_decay": [("drawn: another patience and factor, each script's losses at other levels and lengths",
                            auto_decay, 2)]}


def _restarts(decay_steps: int, t_mul: float) -> list[int]:
    """The steps nearest the first three warm restarts."""
    return sorted({round(decay_steps * sum(t_mul ** k for k in range(n))) for n in (1, 2, 3)})


def _scripts(patience: int):
    """The six scripted runs of validation losses, in hundredths, each shaped for the check that reads it.

    Losses that are no new best always lie above the best (a tie only in "ties"), and outside "plateau" a new
    best comes only at the start or right after a cut: so an answer that gets one of the rule's parts wrong
    fails on that part's script first, as on the written cases.
    """
    from hypothesis import strategies as st

    def above(best, n, zigzag=False):
        """`n` distinct losses above `best`: rising, or (zigzag) in an order with at least one dip."""
        return st.lists(st.integers(best + 1, best + 60), min_size=n, max_size=n, unique=True).flatmap(
            lambda levels: st.permutations(levels).map(lambda p: p if p != sorted(p) else p[::-1]) if zigzag
            else st.just(sorted(levels)))

    @st.composite
    def cut_then_best(draw, zigzag):
        """A few new bests; then two or three blocks of `patience` losses that are no new best (a cut), each
        followed by a new best (so a second cut comes after a new best: a rule that cuts once per plateau
        still compounds); then fewer or as many such losses, rising."""
        best = draw(st.integers(300, 600))
        losses = [best]
        for _ in range(draw(st.integers(0, 2))):
            best -= draw(st.integers(1, 30))
            losses.append(best)
        for _ in range(draw(st.integers(2, 3))):
            losses += draw(above(best, patience, zigzag))
            best -= draw(st.integers(1, 30))
            losses.append(best)
        return losses + draw(above(best, draw(st.integers(0, patience))))

    @st.composite
    def recover(draw):
        """Runs of fewer than `patience` losses that are no new best, each ended by a new best."""
        best = draw(st.integers(300, 600))
        losses = [best]
        for _ in range(draw(st.integers(2, 4))):
            losses += draw(above(best, draw(st.integers(1, patience - 1)), zigzag=True))
            best -= draw(st.integers(1, 30))
            losses.append(best)
        return losses

    @st.composite
    def plateau(draw):
        """A long plateau above the best (equal neighbours allowed: several cuts), a new best, a few more."""
        best = draw(st.integers(300, 600))
        losses, level = [best], best
        for _ in range(draw(st.integers(2 * patience + 1, 3 * patience + 1))):
            level += draw(st.integers(0 if level > best else 1, 3))
            losses.append(level)
        best = draw(st.integers(best - 30, best - 1))
        after = [best + draw(st.integers(1, 3)) for _ in range(draw(st.integers(0, patience + 1)))]
        return losses + [best] + after

    @st.composite
    def dip(draw):
        """`patience` rising losses that are no new best (a cut), then `patience` losses below the last of
        them and above the best (a second cut), then a new best."""
        best = draw(st.integers(300, 600))
        rising = draw(above(best + patience, patience))
        later = draw(st.lists(st.integers(best + 1, rising[-1] - 1), min_size=patience, max_size=patience,
                              unique=True))
        return [best] + rising + later + [best - draw(st.integers(1, 30))]

    @st.composite
    def ties(draw):
        """Each new best repeated, then beaten."""
        best = draw(st.integers(300, 600))
        losses = []
        for _ in range(draw(st.integers(2, 3))):
            losses += [best] * draw(st.integers(2, patience + 2))
            best -= draw(st.integers(1, 30))
        return losses + [best]

    return st.fixed_dictionaries({"rise": cut_then_best(False), "zigzag": cut_then_best(True),
                                  "recover": recover(), "plateau": plateau(), "ties": ties(),
                                  "dip": dip()}).map(
        lambda scripts: {name: [level / 100 for level in losses] for name, losses in scripts.items()})

# What each promise of REQUIREMENTS ranges over (its dimension) and a hidden situation that reaches it
# there: {exercise: {promise: {dimension: words of a hidden case's situation}}}. `tests/test_drawn.py`
# fails when a promise has no dimension, or a dimension no hidden case.
DIMENSIONS = {
    "exponential_family": {
        "exponential_decay": {"steps around boundaries": "around several decay boundaries"},
        "natural_exp_decay": {"steps around boundaries": "around several decay boundaries"},
        "inverse_time_decay": {"many steps": "many steps"},
        "staircase": {"steps on boundaries": "around several decay boundaries"},
        "(an unknown kind raises ValueError)": {"rates": "a decay rate"},
    },
    "piecewise": {
        "values[i] for boundaries[i-1] < step <= boundaries[i]": {"steps on boundaries": "on and around each boundary",
                                                                  "a boundary at 0": "a boundary at step 0",
                                                                  "steps out of order": "steps out of order"},
        "ValueError on a length mismatch": {"one boundary": "a single boundary"},
    },
    "polynomial": {
        "The rate at each step of tf1.train.polynomial_decay": {"powers": "a square-root power"},
        "cycle": {"several cycles": "with cycles"},
        "end_learning_rate=0.0001, power=1.0, cycle=False": {"end rates": "an end rate"},
    },
    "cosine_family": {
        "cosine_decay": {"floors": "a nonzero alpha"},
        "cosine_decay_restarts": {"restarts on whole steps": "restarts on whole steps",
                                  "growing periods": "restarts that grow longer"},
        "linear_cosine_decay": {"beta": "a nonzero alpha and beta"},
        "TensorFlow's default arguments": {"rates": "other rates"},
        "(an unknown kind raises ValueError)": {"rates": "other rates"},
    },
    "auto_decay": {
        "A learning-rate variable": {"rates": "another patience and factor"},
        "cut by `factor`": {"factors": "a cut to a quarter"},
        "after `patience` evaluations without a new best loss": {"ties (equal losses)": "long runs of equal losses",
                                                                 "patience 1": "patience 1"},
        "Apply the rule to one validation loss; return the rate now in force": {"long plateaus": "long plateaus"},
        "(in the session it is given, building nothing)": {"other lengths": "other levels and lengths"},
    },
}
