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
    ],
    "best_keeper": [
        ("the best value between periodic saves", {"val_losses": [1.0, 1.2, 0.7, 0.75, 0.72, 0.3, 0.31], "save_every": 3}),
        ("saving every step", {"val_losses": [0.5, 0.4, 0.45, 0.42, 0.41], "save_every": 1}),
        ("a tie with the best so far, losses above one", {"val_losses": [3.0, 2.5, 2.5, 2.7, 2.0, 2.0], "save_every": 2}),
    ],
    "log_training": [
        ("a short run", {"seed": 9, "steps": 3, "learning_rate": 0.05}),
        ("a longer run", {"seed": 1, "steps": 9, "learning_rate": 0.2}),
        ("a global step that starts at 40, not 0 (a resumed run)", {"seed": 3, "steps": 4, "learning_rate": 0.1, "start": 40}),
    ],
}
