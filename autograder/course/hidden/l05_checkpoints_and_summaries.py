"""Hidden inputs for lesson 5. Expected values are never stored: the grader computes them from solutions/."""

CASES = {
    "global_step": [
        ("several runs", {"w0": [2.0, -1.0], "target": [0.0, 0.0], "learning_rate": 0.25, "runs": 6}),
        ("a single run", {"w0": [0.5], "target": [-3.0], "learning_rate": 0.01, "runs": 1}),
    ],
    "restore_or_initialize": [
        ("keeping one checkpoint", {"size": 2, "seed": 1, "keep": 1, "save_at": [3, 5], "steps": 5}),
        ("keeping two of many checkpoints, steps of two digits",
         {"size": 4, "seed": 23, "keep": 2, "save_at": [1, 2, 3, 10], "steps": 12}),
        ("a fresh Saver, as in a new process, restoring from the directory",
         {"size": 2, "seed": 4, "keep": 3, "save_at": [2, 5], "steps": 6, "fresh_saver": True}),
    ],
    "train_resumable": [
        ("one checkpoint kept, a crash at a save step",
         {"seed": 8, "total_steps": 15, "save_every": 5, "max_to_keep": 1, "crashes": [10]}),
        ("a crash of a run that was itself resumed, between save steps",
         {"seed": 0, "total_steps": 12, "save_every": 3, "max_to_keep": 3, "crashes": [4, 5]}),
    ],
    "renaming_saver": [
        ("nested scopes and a scalar variable", {"old_scope": "teacher/dense", "new_scope": "student", "variables": [["w", [2, 2]], ["b", [2]], ["scale", []]],
         "seed": 2}),
        ("a target scope deeper than the source", {"old_scope": "net", "new_scope": "copy/net", "variables": [["bias", [4]], ["kernel", [4, 1]]], "seed": 40}),
        ("a sibling scope sharing the prefix", {"old_scope": "enc", "new_scope": "dec", "variables": [["w", [2]], ["b", [1]]],
         "seed": 5, "sibling": "_v2"}),
        ("a non-trainable variable inside the scope, named like its scope",
         {"old_scope": "w", "new_scope": "v", "variables": [["v", [3]], ["moving_mean", [3], False]], "seed": 17}),
        ("variable names that start with letters of the scope's name", {"old_scope": "net", "new_scope": "copy",
         "variables": [["tail", [2]], ["everything", [1]]], "seed": 3}),
        ("the scope's name inside a variable's name", {"old_scope": "net", "new_scope": "copy",
         "variables": [["subnet/w", [2]], ["b", [1]]], "seed": 8}),
    ],
    "best_keeper": [
        ("the best value between periodic saves", {"val_losses": [1.0, 1.2, 0.7, 0.75, 0.72, 0.3, 0.31], "save_every": 3}),
        ("saving every step", {"val_losses": [0.5, 0.4, 0.45, 0.42, 0.41], "save_every": 1}),
        ("a tie with the best so far, losses above one", {"val_losses": [3.0, 2.5, 2.5, 2.7, 2.0, 2.0], "save_every": 2}),
        ("losses with six decimals, new bests by 1e-5 and less",
         {"val_losses": [0.812345, 0.812335, 0.812336, 0.81233, 0.81233, 0.812329], "save_every": 2}),
    ],
    "log_training": [
        ("a short run", {"seed": 9, "steps": 3, "learning_rate": 0.05}),
        ("a longer run", {"seed": 1, "steps": 9, "learning_rate": 0.2}),
        ("a global step that starts at 40, not 0 (a resumed run)", {"seed": 3, "steps": 4, "learning_rate": 0.1, "start": 40}),
    ],
}

# Names for the drawn renaming cases: scopes with digits and nesting, a target scope holding the source's
# name, and variable names none of which ends another's (so stripping characters off a name's front
# never gives another variable's name). "head" is the probe's own scope.
OLD_SCOPES = ["encoder2/dense_1", "net", "layer_10"]
NEW_SCOPES = ["copy/encoder2/dense_1", "student_3", "net_new"]
VARIABLE_NAMES = ["kernel_2", "bias_2", "w", "b", "gamma", "beta", "moving_var"]
SHAPES = [[2, 3], [], [3], [1, 2]]
# Validation losses a drawn keeper sees, each new one unlike every earlier one: ties come only as a
# loss repeated right away, which ties the best exactly when the loss it repeats was a new best.
LOSSES = [1.4, 0.6, 0.9, 0.45, 1.1, 0.3, 0.5, 0.2]


def strategies():
    """The situations the docstrings promise, as strategies, per exercise: (situation, strategy, how many).
    Drawn at publish time into `drawn/`; see `autograder.course.hidden.strategies`. Each exercise trains
    or writes files, so one example each: a sampled list's first entry is what that (simplest) draw takes."""
    from hypothesis import strategies as st

    from autograder.course.hidden.strategies import decimals

    flags = st.sampled_from([True, False])
    seeds = st.integers(0, 99)

    @st.composite
    def global_step(draw):
        n = draw(st.sampled_from([4, 1, 2, 5]))
        values = draw(st.lists(decimals(-3.0, 3.0, 1), min_size=2 * n, max_size=2 * n, unique=True))
        return {"w0": values[:n], "target": values[n:], "learning_rate": draw(decimals(0.05, 0.45, 2)),
                "runs": draw(st.integers(7, 12))}

    @st.composite
    def restore_or_initialize(draw):
        save_at = sorted(draw(st.lists(st.integers(2, 9), min_size=1, max_size=2, unique=True))
                         + draw(st.lists(st.integers(10, 14), min_size=1, max_size=2, unique=True)))
        return {"size": draw(st.sampled_from([4, 1, 2])), "seed": draw(seeds), "keep": draw(st.integers(2, 4)),
                "save_at": save_at, "steps": save_at[-1] + draw(st.integers(1, 3)), "fresh_saver": draw(flags)}

    @st.composite
    def train_resumable(draw):
        save_every = draw(st.sampled_from([4, 3, 5, 2]))
        first_crash = save_every + draw(st.integers(1, save_every))
        return {"seed": draw(seeds), "total_steps": draw(st.integers(13, 19)), "save_every": save_every,
                "max_to_keep": draw(st.integers(2, 4)), "crashes": [first_crash, draw(st.integers(2, 5))]}

    @st.composite
    def renaming_saver(draw):
        old_scope, new_scope = draw(st.tuples(st.sampled_from(OLD_SCOPES), st.sampled_from(NEW_SCOPES)))
        names = draw(st.permutations(VARIABLE_NAMES))[:draw(st.integers(2, 4))]
        variables = [[name, draw(st.sampled_from(SHAPES))] + ([False] if i and draw(flags) else [])
                     for i, name in enumerate(names)]
        sibling = draw(st.sampled_from(["_v2", ""]))
        return {"old_scope": old_scope, "new_scope": new_scope, "variables": variables, "seed": draw(seeds),
                **({"sibling": sibling} if sibling else {})}

    @st.composite
    def best_keeper(draw):
        losses = draw(st.permutations(LOSSES))[:draw(st.integers(4, 6))]
        repeats = draw(st.lists(st.sampled_from([2, 1]), min_size=len(losses), max_size=len(losses)))
        val_losses = [loss for loss, times in zip(losses, repeats) for _ in range(times)]
        return {"val_losses": val_losses, "save_every": draw(st.integers(3, 5))}

    log_training = st.fixed_dictionaries({"seed": seeds, "steps": st.integers(5, 10),
                                          "learning_rate": decimals(0.01, 0.2, 2), "start": st.integers(1, 999)})
    return {
        "global_step": [("drawn: another number of weights, learning rate and number of runs", global_step(), 1)],
        "restore_or_initialize": [(("drawn: checkpoints at steps of one and two digits, several kept, maybe read "
                                   "by a fresh Saver"), restore_or_initialize(), 1)],
        "train_resumable": [(("drawn: another seed, length, save interval and number kept, a crashed run that "
                             "is resumed and crashes again"), train_resumable(), 1)],
        "renaming_saver": [(("drawn: nested scopes with digits, variables of other shapes, some non-trainable, "
                            "maybe a sibling scope"), renaming_saver(), 1)],
        "best_keeper": [("drawn: losses rising and falling, some repeated at once, another save interval",
                         best_keeper(), 1)],
        "log_training": [("drawn: another seed, learning rate and number of steps, from a nonzero global step",
                          log_training, 1)],
    }

# What each promise of REQUIREMENTS ranges over (its dimension) and a hidden situation that reaches it
# there: {exercise: {promise: {dimension: words of a hidden case's situation}}}. `tests/test_drawn.py`
# fails when a promise has no dimension, or a dimension no hidden case.
DIMENSIONS = {
    "global_step": {
        "one gradient-descent step on loss per run": {"numbers of runs": "a single run"},
        "counted by global_step": {"several runs": "several runs"},
    },
    "restore_or_initialize": {
        "Restore the newest checkpoint of ckpt_dir and return its path": {"steps of two digits": "steps of two digits"},
        "or initialise and return None": {"one kept": "keeping one checkpoint"},
        "(in sess, with saver; reading ckpt_dir only)": {"a fresh Saver": "a fresh Saver"},
    },
    "train_resumable": {
        "Train the regression to total_steps": {"seeds and lengths": "another seed, length"},
        "resuming from ckpt_dir": {"a resumed run crashing again": "itself resumed"},
        "a crash and resume change nothing": {"a crash on and between save steps": "a crash at a save step"},
        "save_every, max_to_keep": {"numbers kept": "one checkpoint kept"},
    },
    "renaming_saver": {
        "mapping checkpoint name old_scope/<name>": {"a sibling sharing the prefix": "a sibling scope sharing the prefix",
                                                     "names starting like the scope": "start with letters of the scope"},
        "to the graph variable new_scope/<name>": {"a deeper target": "a target scope deeper",
                                                   "non-trainable variables": "a non-trainable variable"},
    },
    "best_keeper": {
        "Save when val_loss beats every earlier one": {"ties": "a tie with the best so far",
                                                       "new bests by 1e-5, six decimals": "new bests by 1e-5"},
        "Keeps the checkpoint with the lowest validation loss so far": {"bests between periodic saves": "between periodic saves"},
        "in ckpt_dir/best/": {"saving every step": "saving every step"},
    },
    "log_training": {
        "Train `steps` times, writing per step to logdir": {"lengths": "a short run"},
        "scalar 'loss'": {"lengths": "a longer run"},
        "histogram 'weights'": {"lengths": "a longer run"},
        "(at the global step each training step starts from)": {"a nonzero start": "starts at 40"},
    },
}
