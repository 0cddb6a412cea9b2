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
        ("a nonzero alpha and beta", {"learning_rate": 0.2, "decay_steps": 8, "alpha": 0.25, "t_mul": 1.5, "m_mul": 0.9,
         "num_periods": 0.5, "beta": 0.01, "steps": [0, 4, 7, 8, 9, 15, 19, 20, 21, 30, 38, 39, 60, 95]}),
    ],
    "auto_decay": [
        ("patience 1 and a cut to a tenth", {"initial_rate": 1.0, "factor": 0.1, "patience": 1, "scripts": {
            "rise": [2.0, 2.5, 1.5, 1.0, 1.2, 0.9],
            "zigzag": [2.0, 1.0, 1.5, 1.2, 0.9, 1.1, 1.0, 0.95, 0.5],
            "plateau": [3.0, 2.0, 2.5, 2.4, 2.3, 1.0, 1.5, 1.4],
            "ties": [3.0, 3.0, 2.0, 2.0, 1.0, 1.0, 0.5],
            "recover": [2.0, 2.5, 1.5, 1.8, 1.0]}}),
        ("patience 3 on long plateaus", {"initial_rate": 0.01, "factor": 0.7, "patience": 3, "scripts": {
            "rise": [0.5, 0.52, 0.54, 0.56, 0.4, 0.45, 0.3],
            "zigzag": [0.5, 0.6, 0.55, 0.52, 0.45, 0.5, 0.47, 0.46, 0.4, 0.41, 0.405, 0.402, 0.39],
            "plateau": [0.4, 0.41, 0.42, 0.43, 0.44, 0.45, 0.46, 0.47, 0.48, 0.49, 0.5, 0.3],
            "ties": [0.4, 0.4, 0.4, 0.4, 0.3, 0.3, 0.3, 0.3, 0.2],
            "recover": [0.5, 0.6, 0.55, 0.45, 0.5, 0.48, 0.4, 0.42, 0.41, 0.3]}}),
        ("patience 4, a cut to a quarter, long runs of equal losses", {
            "initial_rate": 0.05, "factor": 0.25, "patience": 4, "scripts": {
                "rise": [0.9, 0.8, 0.85, 0.86, 0.9, 1.0, 0.7],
                "zigzag": [0.9, 0.8, 0.95, 0.85, 0.82, 0.81, 0.79, 0.9, 0.85, 0.8, 0.795, 0.7],
                "plateau": [0.9, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.91, 0.5],
                "ties": [0.9, 0.9, 0.9, 0.9, 0.9, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.5],
                "recover": [0.9, 0.95, 0.92, 0.8, 0.85, 0.83, 0.7, 0.75, 0.72, 0.71, 0.6]}}),
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
    return {"piecewise": [("drawn: sorted boundaries, steps in any order on and around them", piecewise, 3)],
            "exponential_family": [("drawn: a decay rate and steps around several decay boundaries", exponential, 2)],
            "polynomial": [("drawn: powers, an end rate, steps across several cycles", polynomial, 2)]}
