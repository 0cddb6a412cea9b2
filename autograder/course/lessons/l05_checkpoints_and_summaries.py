"""Lesson 5: Saver checkpoints and summaries (seed 003, first half).

Every probe builds in its own `tf.Graph()` and gives the exercise a fresh `tempfile.mkdtemp()`
directory, which it deletes afterwards; no observation holds a path with a random part (only
checkpoint base names such as `model-8`).

What the checks read of checkpoints, state files and event files comes from outside the kernel: the
probe hands out the files' bytes, and each exercise's `replay` has the grader's worker read them
(`engine.replay`, a `files` request) with TensorFlow's own readers. A forger who patches the readers
in the kernel changes nothing those checks see; one who hands out forged bytes has to write real
checkpoints and events holding the right values.
"""
from __future__ import annotations

import numpy as np

from autograder.course.compare import holds, same
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probes.l05_checkpoints_and_summaries import (
    probe_best_keeper,
    probe_global_step,
    probe_log_training,
    probe_renaming_saver,
    probe_restore_or_initialize,
    probe_train_resumable,
)


class _Refused(Exception):
    """The grader's worker would not read the files a probe handed out."""


def _reading(replay):
    """An exercise's `replay` from `replay(observation, inputs, read)`, where `read(files, **extra)` is
    the worker's answer to a `files` request; a refused one makes the observation NotReplayable, with
    the worker's reason."""
    def completed(observation, inputs, run):
        def read(files, **extra):
            answer = run({"files": files, **extra})
            if "refused" in answer:
                raise _Refused(answer["refused"])
            return answer

        try:
            return replay(observation, inputs, read)
        except _Refused as exc:
            return {"error": {"type": "NotReplayable", "message": str(exc)}}

    completed.__doc__ = replay.__doc__
    return completed


def _without(observation, *keys):
    """`observation` without the handed-out artifacts under `keys`: verdicts and feedback get what was read."""
    return {k: v for k, v in observation.items() if k not in keys}


def _state(answer):
    """(latest checkpoint's base name or None, every kept one's, oldest first) of a `checkpoint` state file read."""
    state = answer["state"]
    return (state["latest"], state["all"]) if state else (None, [])


def _variables(answer, prefix):
    """{name: {"dtype", "value"}} of checkpoint `prefix` as read outside, or {} when there is none that reads."""
    return answer["checkpoints"].get(prefix, {}).get("variables", {}) if prefix else {}


@_reading
def replay_global_step(observation, inputs, read):
    """Read outside from the variables saved after each run and the graph's MetaGraphDef: the
    trainable collection (`trainable`, `step_trainable`), the counter after each run (`steps`: None
    where no variable of that name was saved), its dtype (`step_dtype`) and `w` after the last run."""
    answer = read(observation["files"], meta_graph=observation["meta_graph"])
    saved = [_variables(answer, f"probe-{run}") for run in range(1, observation["runs"] + 1)]
    counters = [variables.get(observation["step_name"]) for variables in saved]
    step, w = counters[-1], saved[-1].get("w")
    return {**_without(observation, "files", "meta_graph", "step_name", "runs"), "trainable": answer["trainable"],
            "step_trainable": observation["step_name"] in answer["trainable"],
            "steps": [_number(counter["value"]) if counter else None for counter in counters],
            "step_dtype": step["dtype"] if step else None, "w": w["value"] if w else None}


def _number(value):
    """A counter's value as read outside, as an int when it is a whole number (a float counter's 3.0
    reads as 3: its dtype is judged by `int32-step`, its count here)."""
    return int(value) if isinstance(value, (int, float)) and float(value).is_integer() else value


def _w_and_step(answer):
    """(w, step) in the probe's checkpoint `state` as read outside, or "uninitialized" for both when
    the probe could not save them (variables left uninitialised)."""
    variables = _variables(answer, "state")
    if "w" not in variables or "global_step" not in variables:
        return "uninitialized", "uninitialized"
    return variables["w"]["value"], int(variables["global_step"]["value"])


@_reading
def replay_restore_or_initialize(observation, inputs, read):
    """Read outside: `w` and the step after each call, from the probe's checkpoints of them (`fresh_w`,
    `fresh_step`, `restored_w`, `restored_step`); the Savers the exercise built (`savers_built`: the
    SaveV2 ops of the graph beyond the probe's own, or the kernel's count if higher); `written`: the
    checkpoints in ckpt_dir after the fresh call (the exercise wrote them all), then those after the
    second call that are not the ones the probe saved and kept (the last `keep` of `save_at`)."""
    fresh = sorted(read(observation["fresh_files"])["checkpoints"])
    answer = read(observation["files"], count_ops=observation["graph"])
    after = answer["checkpoints"]
    built = answer["op_counts"].get("SaveV2", 0) - observation["probe_savers"]
    saved = {f"model-{step}" for step in inputs["save_at"][-inputs["keep"]:]}
    fresh_w, fresh_step = _w_and_step(read(observation["fresh_state"]))
    restored_w, restored_step = _w_and_step(read(observation["state"]))
    if restored_step == "uninitialized" and observation["state_saved"]:  # these files were not the probe's
        raise _Refused("the checkpoint of w and the step after the restore was not handed out")
    return {**_without(observation, "fresh_files", "files", "fresh_state", "state", "state_saved", "graph",
                       "probe_savers"),
            "savers_built": max(observation["savers_built"], built),
            "written": fresh + sorted(set(after) - saved - set(fresh)), "fresh_w": fresh_w, "fresh_step": fresh_step,
            "restored_w": restored_w, "restored_step": restored_step}


def _step_dtype(answer, prefix):
    """The dtype of the integer scalar in checkpoint `prefix` that holds its step (`model-<step>`), or None."""
    try:
        step = int(prefix.rsplit("-", 1)[1])
    except (AttributeError, IndexError, ValueError):
        return None
    return next((v["dtype"] for _, v in sorted(_variables(answer, prefix).items())
                 if v["dtype"].startswith(("int", "uint")) and np.ndim(v["value"]) == 0 and int(v["value"]) == step),
                None)


@_reading
def replay_train_resumable(observation, inputs, read):
    """What the uninterrupted run left in its directory, read outside: the checkpoints the state file
    keeps (`kept`), those whose files are there (`on_disk`), and the dtype of the step saved in the
    newest (`step_dtype`); and the checkpoints whose files are left after the crashes and the resume
    (`crashed_on_disk`)."""
    answer = read(observation["files"])
    latest, kept = _state(answer)
    return {**_without(observation, "files", "crashed_files"), "kept": kept,
            "on_disk": sorted(answer["checkpoints"]), "step_dtype": _step_dtype(answer, latest),
            "crashed_on_disk": sorted(read(observation["crashed_files"])["checkpoints"])}


@_reading
def replay_renaming_saver(observation, inputs, read):
    """Read outside: the names the exercise's Saver wrote (`saver_names`, and whether a sibling
    scope's are among them), and from the probe's checkpoint of the new graph after the restore,
    each new_scope variable's value (`restored`), `head`'s, and the non-trainable variables still
    all zeros, their initial value (`untouched_non_trainable`; the saved ones are random normal).
    A Saver that was never built (`lookup_error`) leaves nothing to read; when the name it missed is a
    non-trainable variable, the Saver took only trainable ones: every non-trainable one stays untouched."""
    if observation["lookup_error"]:
        if not observation.get("lookup_non_trainable"):
            return observation
        return {**observation, "sibling_in_saver": False, "restore_error": None,
                "untouched_non_trainable": [name for name, _, *trainable in inputs["variables"]
                                            if trainable == [False]]}
    names = sorted(_variables(read(observation["written_files"]), "written"))
    state = _variables(read(observation["state_files"]), "state")
    restored = {name: (state.get(f"{inputs['new_scope']}/{name}") or {}).get("value")
                for name, *_ in inputs["variables"]}
    sibling = f"{inputs['old_scope']}{inputs.get('sibling', '')}/"
    return {**_without(observation, "written_files", "state_files"), "saver_names": names,
            "sibling_in_saver": bool(inputs.get("sibling")) and any(n.startswith(sibling) for n in names),
            "restored": restored, "head": (state.get("head/kernel") or {}).get("value"),
            "untouched_non_trainable": [name for name, _, *trainable in inputs["variables"]
                                        if trainable == [False] and not np.any(restored[name])]}


@_reading
def replay_best_keeper(observation, inputs, read):
    """Read outside: the newest periodic checkpoint the state file of ckpt_dir names
    (`latest_periodic`), and in ckpt_dir/best/ the checkpoints its state file keeps (`best_kept`),
    those whose files are there (`best_files`) and `w` in the newest (`best_w`)."""
    periodic, best = read(observation["files"]), read(observation["best_files"])
    best_latest, best_kept = _state(best)
    w = _variables(best, best_latest).get("w")
    return {**_without(observation, "files", "best_files"), "latest_periodic": _state(periodic)[0],
            "best_kept": best_kept, "best_w": float(np.asarray(w["value"], float)) if w else None,
            "best_files": sorted(best["checkpoints"])}


@_reading
def replay_log_training(observation, inputs, read):
    """The events of logdir's event files, read outside (loss and histogram rows, tags, how many
    files), and the summary ops the graph handed out holds, with the op each histogram summarises
    and its type (`hist_inputs`)."""
    answer = read(observation["files"], count_ops=observation["graph"], op_inputs=["HistogramSummary"])
    rows = [row for name in sorted(answer["events"]) for row in answer["events"][name]]
    loss_rows = [r for r in rows if r[1] == "loss" and r[2] == "simple_value"]
    hist_rows = [r for r in rows if r[1] == "weights" and r[2] == "histo"]
    counts = answer["op_counts"]
    return {**_without(observation, "files", "graph"),
            "loss_steps": [r[0] for r in loss_rows], "loss_values": [r[3] for r in loss_rows],
            "hist_steps": [r[0] for r in hist_rows], "hist_counts": [r[3] for r in hist_rows],
            "hist_sums": [r[4] for r in hist_rows], "tags": sorted({(r[1], r[2]) for r in rows}),
            "event_files": len(answer["events"]),
            "summary_ops": {"scalar": counts.get("ScalarSummary", 0), "histogram": counts.get("HistogramSummary", 0)},
            "hist_inputs": [inputs[1] for inputs in answer["op_inputs"]["HistogramSummary"] if len(inputs) > 1]}


def _in_step(got, expected):
    """False when the run is one step out of line with the reference's: the losses differ but the
    weights end the same (each loss read in another run than its update), or the batches fed are the
    reference's of the next step. Rests on the losses and weights; the digests of the batches fed,
    taken in the kernel, only pick this name over wrong-model's when those differ anyway."""
    if same("losses", "w", "b")(got, expected):
        return True
    if same("w", "b")(got, expected):
        return False
    return not (got.get("fed") and got["fed"][:-1] == expected["fed"][1:])


def _named_by_flag(flag):
    """A train_resumable check that fails when the calls' steps differ from the reference's and the
    kernel's `flag` is set. Rests on the steps the calls returned; the flag, counted in the kernel
    (Saver.restore's calls, the saves made), only picks this name over ignored-checkpoint's when the
    steps are wrong anyway."""
    resumed = same("crash_steps", "resumed_step", "resumed_ran", "final_step")
    return lambda got, expected: not got.get(flag) or resumed(got, expected)


def _summary_steps_match(got, expected):
    """Loss events at the expected steps; histogram events too, whenever there are any."""
    if not same("loss_steps")(got, expected):
        return False
    return not got.get("hist_steps") or same("hist_steps")(got, expected)


STEP_TRAINABLE = ("The step counter is in the trainable variables. Create it with trainable=False (or use "
                  "tf1.train.get_or_create_global_step()): it is a counter, not a weight, and an optimizer "
                  "built on the trainable set must never try to move it.")
STEP_NOT_COUNTING = ("The counter does not advance by one per training step. Hand it to the optimizer, "
                     "minimize(loss, global_step=global_step): apply_gradients then increments it in the "
                     "same run as the update, and you never increment it yourself.")

STRAY_FILES = ("Your code left files outside the directory it was given (relative paths land in the working "
               "directory). Build every path with os.path.join(the directory you were given, ...).")
SAVER_PER_SAVE = ("A new tf1.train.Saver was built for a save. Every Saver adds its save and restore ops to the "
                  "graph, and keeps its own list of the checkpoints it wrote: a fresh one on every save never "
                  "deletes old checkpoints (max_to_keep counts only its own). Build the Saver once, before "
                  "the loop (in __init__ for a class), and call its save() each time.")
STEP_DTYPE = ("The step counter is not an int64 variable. Create it with tf1.train.get_or_create_global_step() "
              "(or tf1.Variable(0, trainable=False, dtype=tf.int64)): a step counter is an int64 by "
              "convention, and code that reads or restores global steps expects that dtype.")

LESSON = Lesson(
    assignment="05_checkpoints_and_summaries",
    notebook="checkpoints_and_summaries.ipynb",
    exercises=(
        Exercise(
            id="global_step", symbol="make_train_op", points=2, probe=probe_global_step,
            replay=replay_global_step,
            checks=(
                Check("trainable-step", "keeps global_step out of the trainable variables", STEP_TRAINABLE,
                      holds(lambda got: got["step_trainable"] is False), shows=("trainable",)),
                Check("int32-step", "is an int64 counter", STEP_DTYPE, same("step_dtype"), shows=("step_dtype",)),
                Check("step-never-counts", "counts one per run of the train op", STEP_NOT_COUNTING,
                      same("steps"), shows=("steps",)),
                Check("wrong-update", "takes plain gradient-descent steps on the loss",
                      "The weights are not where learning_rate-sized gradient-descent steps put them: use "
                      "tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss, ...).",
                      same("w"), shows=("w",)),
            ),
            cases=(Case("w from [0, 0, 0] toward [1, -2, 3], 4 runs",
                        {"w0": [0.0, 0.0, 0.0], "target": [1.0, -2.0, 3.0], "learning_rate": 0.1, "runs": 4}),),
        ),
        Exercise(
            id="restore_or_initialize", symbol="restore_or_initialize", points=3,
            probe=probe_restore_or_initialize, replay=replay_restore_or_initialize,
            checks=(
                Check("restore-without-checkpoint", "starts fresh without raising when there is no checkpoint",
                      "With no checkpoint, tf.train.latest_checkpoint returns None (and get_checkpoint_state "
                      "returns None), and saver.restore(sess, None) raises. Check first; restore only a path "
                      "that exists.", holds(lambda got: got["fresh_error"] is None), shows=("fresh_error",)),
                Check("default-session", "works in the session it is given, not the default one",
                      "Your code initialised or restored the default session, not `sess`. op.run() and "
                      "tensor.eval() use whatever session is the default, which need not be the one you were "
                      "given: call sess.run(...) and saver.restore(sess, ...).",
                      holds(lambda got: got["used_default_session"] is False),
                      shows=("used_default_session",)),
                Check("own-saver", "restores with the Saver it is given",
                      "Your code built a Saver of its own. Restore with the `saver` you were given: the caller "
                      "chose which variables it holds, and every new Saver adds save and restore ops to the "
                      "graph on every call.", holds(lambda got: got["savers_built"] == 0),
                      shows=("savers_built",)),
                Check("writes-checkpoints", "only reads the checkpoint directory",
                      "Your code wrote checkpoints into ckpt_dir. Restoring or initialising only reads: a save "
                      "here adds a checkpoint the training loop never made, and the state file then lists it.",
                      holds(lambda got: got["written"] == []), shows=("written",)),
                Check("fresh-not-initialized", "initialises every variable and returns None when fresh",
                      "With no checkpoint the variables must get their initial values: run "
                      "tf1.global_variables_initializer(), and return None.",
                      same("fresh_w", "fresh_step", "fresh_returned"),
                      shows=("fresh_w", "fresh_step", "fresh_returned")),
                Check("checkpoint-not-found", "finds the checkpoints in ckpt_dir, whichever Saver wrote them",
                      "The directory held checkpoints, and your code initialised instead of restoring. A "
                      "Saver remembers only the checkpoints it wrote itself (saver.last_checkpoints): after "
                      "a restart, a new process's Saver remembers none. Read the directory: "
                      "tf.train.latest_checkpoint(ckpt_dir) or tf1.train.get_checkpoint_state(ckpt_dir).",
                      lambda got, exp: (got["returned"] is None) == (exp["returned"] is None), shows=("returned",)),
                Check("reinitialized-after-restore", "keeps the restored values",
                      "restore() already set every variable the Saver holds; running the initializer after it "
                      "throws the restored values away (the step falls back to 0). Initialise only when "
                      "there is nothing to restore.",
                      # Left uninitialised (work done in another session) is not this mistake: see default-session.
                      holds(lambda got: got["restored_step"] == "uninitialized" or got["restored_step"] > 0),
                      shows=("restored_step",)),
                Check("not-latest-checkpoint", "restores the newest checkpoint and returns its path",
                      "Resume from the newest checkpoint, and return its path as saved (in ckpt_dir, not "
                      "just its name): ckpt.model_checkpoint_path, or tf.train.latest_checkpoint(dir). "
                      "all_model_checkpoint_paths lists the kept ones oldest first; file names sort 'model-10' "
                      "before 'model-3'.", same("restored_step", "restored_w", "returned"),
                      shows=("restored_step", "returned")),
            ),
            # The second case restores with a fresh Saver, as a new process would: an answer that reads
            # saver.last_checkpoints, not the directory, fails here, in public.
            # Steps of one and two digits: 'model-12' sorts before 'model-9' as a string, so picking
            # the newest by the largest name fails here, in public.
            cases=(Case("saves at 3, 9 and 12 with max_to_keep=2",
                        {"size": 3, "seed": 7, "keep": 2, "save_at": [3, 9, 12], "steps": 13}),
                   Case("saves at 3 and 6, restored with a fresh Saver (a new process)",
                        {"size": 2, "seed": 9, "keep": 2, "save_at": [3, 6], "steps": 7, "fresh_saver": True})),
        ),
        Exercise(
            id="train_resumable", symbol="train_resumable", points=3, probe=probe_train_resumable,
            replay=replay_train_resumable,
            checks=(
                Check("not-reproducible", "gives bit-identical losses in two fresh runs",
                      "Two runs started fresh in new graphs computed different losses for the same steps: "
                      "seed the initializer (seed=...) and make the data a function of the seed.",
                      holds(lambda got: got["reproducible"] is True), shows=("reproducible",)),
                Check("saver-per-save", "builds its Saver once", SAVER_PER_SAVE,
                      holds(lambda got: got["saver_per_save"] is False), shows=("saver_per_save",)),
                Check("files-outside-dir", "writes only into ckpt_dir", STRAY_FILES,
                      holds(lambda got: got["stray_files"] == []), shows=("stray_files",)),
                Check("crash-counts-global-steps", "crashes after crash_after steps of the call itself",
                      "A crashed call ran another number of steps than crash_after. crash_after counts the "
                      "steps this call ran (len(losses)), not the global step: a run that was itself resumed "
                      "starts at a global step above 0.", same("crash_ran"), shows=("crash_ran",)),
                Check("max-to-keep-ignored", "keeps only the newest max_to_keep checkpoints",
                      "The directory keeps the wrong checkpoints: after each update, read the global step again "
                      "(the update has just added one); when it is a multiple of save_every, and only then "
                      "(not also at the last step), save to ckpt_dir/model-<step> with one "
                      "tf1.train.Saver(max_to_keep=...), built once (the default keeps 5).",
                      same("kept", "on_disk"), shows=("kept", "on_disk")),
                Check("reinitialized-after-restore", "keeps the restored values",
                      "A resumed call restored a checkpoint and still started again from global step 0: the "
                      "initializer ran after the restore and threw the restored values away. restore() "
                      "already sets every variable the Saver holds: run the initializer only when there is "
                      "no checkpoint (if latest: restore, else: initialise).",
                      _named_by_flag("restored_then_reset"),
                      shows=("crash_steps", "resumed_ran", "resumed_step")),
                Check("crash-save-skipped", "saves the crash step's checkpoint before it stops",
                      "The crash step's save was skipped: a crashed call stopped on a multiple of save_every "
                      "before saving it, so the next call resumed from an older checkpoint. Save first, then "
                      "test crash_after (in the loop's condition, as the steps left are).",
                      _named_by_flag("crash_save_skipped"),
                      shows=("crash_steps", "resumed_ran", "resumed_step")),
                Check("ignored-checkpoint", "resumes from the latest checkpoint instead of starting over",
                      "The resumed call must restore the latest checkpoint and run only the steps that are "
                      "left; the crashed call must stop after crash_after steps of its own.",
                      same("crash_steps", "resumed_step", "resumed_ran", "final_step"),
                      shows=("crash_steps", "resumed_ran", "resumed_step")),
                Check("step-not-in-checkpoint", "keeps the global step in the checkpoint",
                      "No checkpoint holds the step as a variable: the step was counted in Python. Make it a "
                      "non-trainable variable handed to minimize(..., global_step=...), so the Saver saves "
                      "it with the weights and a restore brings it back.",
                      holds(lambda got: got["step_dtype"] is not None), shows=("step_dtype",)),
                Check("int32-step", "saves an int64 global step", STEP_DTYPE, same("step_dtype"),
                      shows=("step_dtype",)),
                Check("crashed-checkpoints-kept", "keeps only the newest max_to_keep checkpoints after a resume",
                      "After the crashes and the resume, the directory holds other checkpoints than the "
                      "reference's. A new Saver knows none of the checkpoints the crashed process wrote, so "
                      "max_to_keep never deletes them: after the restore, hand them over with "
                      "saver.recover_last_checkpoints(tf1.train.get_checkpoint_state(ckpt_dir)"
                      ".all_model_checkpoint_paths).", same("crashed_on_disk"), shows=("crashed_on_disk",)),
                Check("resume-differs", "ends bit-identical to the uninterrupted run after a crash",
                      "The resumed run ended with other weights than the run that never crashed. Everything "
                      "a step depends on must be in the checkpoint (weights, optimizer slots, global step) or "
                      "be a function of (seed, global step): pick each batch from the global step read back "
                      "from the checkpoint, not from a loop counter or a generator that restarts with the "
                      "process.", holds(lambda got: got["resume_identical"] is True),
                      shows=("resume_identical",)),
                Check("not-training", "lowers the loss", "No step reached half the loss of the first one: "
                      "run the Momentum train op on each batch.", holds(lambda got: got["trained"] is True),
                      shows=("trained",)),
                Check("step-out-of-line", "takes each loss and batch from the step being taken",
                      "Your run is one step out of line with the reference's: the weights end where its do "
                      "but the losses differ, or each step took the batch of the next one. Each loss must "
                      "come from the same run as its update, sess.run([loss, train_op], feed) (a loss read "
                      "after the update is the loss of the new weights), and the batch from the global step "
                      "of the step being taken, read before the update (not step + 1).",
                      _in_step, shows=("losses",)),
                Check("wrong-model", "trains the data, model and batches the exercise fixes",
                      "The losses or weights of the uninterrupted run differ from the reference's. Follow the "
                      "recipe exactly: x = rng.randn(64, 3), then y with 0.1 * rng.randn(64, 1), from one "
                      "RandomState(seed); rows RandomState([seed, step]).choice(64, 8, replace=False) with "
                      "the global step before the update; w from random_normal_initializer(stddev=0.5, "
                      "seed=seed), b zeros, the mean squared error of x w + b - y, MomentumOptimizer(0.05, "
                      "0.9); each loss from the run that makes the update.",
                      same("losses", "w", "b"), shows=("losses",)),
            ),
            # 18 steps is no multiple of 4, and the first crash lands on a save step: a save at the
            # last step too, and a crash before its step's save, fail here, in public.
            cases=(Case("18 steps, save every 4, keep 2, crash after 12 (a save step), resume and crash after 5 more",
                        {"seed": 3, "total_steps": 18, "save_every": 4, "max_to_keep": 2, "crashes": [12, 5]}),),
        ),
        Exercise(
            id="renaming_saver", symbol="build_renaming_saver", points=2, probe=probe_renaming_saver,
            replay=replay_renaming_saver,
            checks=(
                Check("names-rewritten-inside", "maps each checkpoint name to a name the graph holds",
                      "Building the Saver raised KeyError: a checkpoint name became a name your graph does "
                      "not hold. Rewrite only the front of the name, old_scope + '/', and keep the rest as it "
                      "is: new_scope + '/' + name[len(old_scope) + 1:]. name.replace(old_scope, new_scope) "
                      "also rewrites the scope's name where it occurs inside a variable's name "
                      "(net/dense/subnet/dense/w); partition('/') or split('/')[0] takes only the first level "
                      "of a nested scope (net of net/dense); lstrip(old_scope + '/') strips a set of "
                      "characters, not a prefix.",
                      holds(lambda got: got["lookup_error"] is None or got.get("lookup_non_trainable") is True),
                      shows=("lookup_error",)),
                Check("sibling-scope", "leaves out scopes that only share old_scope's prefix",
                      "Your Saver took variables of a sibling scope whose name starts like old_scope "
                      "('net_v2/w' for old_scope 'net'). A scope is its name followed by '/': test "
                      "name.startswith(old_scope + '/'); tf1.global_variables(scope) also matches by prefix, "
                      "so pass scope + '/'.", holds(lambda got: got["sibling_in_saver"] is False),
                      shows=("saver_names",)),
                Check("keys-not-in-checkpoint", "restores without NotFoundError",
                      "Restoring raised NotFoundError: a key of the Saver's dict is not a name in the "
                      "checkpoint. The keys are the names stored in the checkpoint (tf.train.list_variables), "
                      "the values the variables of your graph that receive them; a list, or keys taken from "
                      "the new graph, look the new names up in the old checkpoint. Turning a new name back "
                      "with name.replace(new_scope, old_scope) also rewrites new_scope's name where it occurs "
                      "inside a variable's name (dense/subnet/dense/w): rewrite only the front.",
                      holds(lambda got: got["restore_error"] is None), shows=("restore_error",)),
                Check("trainable-only", "restores non-trainable variables of the scope too",
                      "A non-trainable variable of the scope kept its initial value. A checkpoint holds every "
                      "global variable, trainable or not (moving averages, counters): take the names from "
                      "the checkpoint, or the variables from tf1.global_variables(), not "
                      "tf1.trainable_variables().", holds(lambda got: got["untouched_non_trainable"] == []),
                      shows=("untouched_non_trainable",)),
                Check("matched-by-position", "puts each saved value into the variable of the same name",
                      "Some variable got another one's value. Pair checkpoint names and variables by name "
                      "(old_scope/x -> new_scope/x), never by position: the checkpoint lists names sorted, the "
                      "graph in creation order. With resource variables a wrong pairing even changes the "
                      "variable's shape without an error.", same("restored"), shows=("restored",)),
                Check("restored-too-much", "maps exactly the checkpoint's old_scope variables",
                      "The Saver must hold only the old_scope variables of the checkpoint, each under its "
                      "checkpoint name; other variables of the new graph keep their own values.",
                      same("saver_names", "head"), shows=("saver_names",)),
            ),
            # A nested scope whose name recurs inside a variable's name, a new scope whose name does
            # too, a sibling scope (net/dense_v2/) and a non-trainable variable: str.replace either
            # way, partition('/'), startswith(old_scope) without the '/' and tf1.trainable_variables()
            # fail here, in public.
            cases=(Case("net/dense/{kernel,subnet/dense/w,bias,moving_mean (non-trainable)} into dense/, "
                        "next to net/dense_v2/",
                        {"old_scope": "net/dense", "new_scope": "dense",
                         "variables": [["kernel", [3, 2]], ["subnet/dense/w", [2]], ["bias", [2]],
                                       ["moving_mean", [2], False]],
                         "seed": 11, "sibling": "_v2"}),),
        ),
        Exercise(
            id="best_keeper", symbol="BestKeeper", points=2, probe=probe_best_keeper,
            replay=replay_best_keeper,
            checks=(
                Check("first-not-saved", "saves the first validation loss it sees",
                      "The first loss a keeper saw was not saved, yet nothing came before it. Start each "
                      "keeper's best at infinity (or None) in __init__, on the instance (self.best): a value "
                      "stored on the class is shared by every keeper, and a finite start misses larger losses.",
                      holds(lambda got: got["saved"][:1] == [True]), shows=("saved",)),
                Check("saves-on-tie", "does not save a loss that only ties the best",
                      "A loss equal to the best so far is not lower than every earlier one: compare with <, "
                      "not <=, or a tie rewrites the best checkpoint with a later, no better model.",
                      same("tie_saved"), shows=("tie_saved",)),
                Check("not-best-so-far", "saves exactly when the loss beats every earlier one",
                      "A loss was saved that does not beat every earlier one, or one that does was not "
                      "saved. Compare each validation loss with the lowest seen so far, exactly: not with "
                      "the previous loss (a loss can improve on the last one without being a new best), and "
                      "with no rounding and no minimum improvement (a new best by 1e-5 is a new best).",
                      same("saved"), shows=("saved",)),
                Check("saver-per-save", "builds its Saver once, in __init__", SAVER_PER_SAVE,
                      holds(lambda got: got["savers_in_update"] == 0), shows=("savers_in_update",)),
                Check("files-outside-dir", "writes only into ckpt_dir", STRAY_FILES,
                      holds(lambda got: got["stray_files"] == []), shows=("stray_files",)),
                Check("shared-state-file", "leaves the periodic checkpoints' state file alone",
                      "After your saves, tf.train.latest_checkpoint(ckpt_dir) no longer names the newest "
                      "periodic checkpoint. Every Saver rewrites the `checkpoint` state file of the directory "
                      "it saves into with its own list: keep the best model in its own directory.",
                      same("latest_periodic"), shows=("latest_periodic",)),
                Check("old-bests-kept", "keeps a single best checkpoint, in ckpt_dir/best/",
                      "ckpt_dir/best/ must hold exactly one checkpoint, the best: give the second Saver "
                      "max_to_keep=1 and save to ckpt_dir/best/model with the step.",
                      same("best_kept", "best_w", "best_files"), shows=("best_kept", "best_files")),
            ),
            # The third loss ties the best so far, and 0.44999 beats 0.45 by 1e-5: saving on a tie, a
            # minimum improvement and rounding fail here, in public.
            cases=(Case("losses 0.9 0.5 0.5 (a tie) 0.8 0.6 0.45 0.44999 (a new best by 1e-5) 0.4, periodic every 2",
                        {"val_losses": [0.9, 0.5, 0.5, 0.8, 0.6, 0.45, 0.44999, 0.4], "save_every": 2}),),
        ),
        Exercise(
            id="log_training", symbol="log_training", points=2, probe=probe_log_training,
            replay=replay_log_training,
            checks=(
                Check("summaries-per-step", "creates each summary op once",
                      "The graph holds more than one scalar or histogram summary op: they were created inside "
                      "the loop. Summary ops are graph ops: create them and merge them once, before the loop, "
                      "then only run the merged op.",
                      holds(lambda got: got["summary_ops"]["scalar"] <= 1 and got["summary_ops"]["histogram"] <= 1),
                      shows=("summary_ops",)),
                Check("writer-per-step", "writes through one FileWriter",
                      "A FileWriter was created more than once. Each one opens a new event file, named by "
                      "the second it was made in: logdir holds several files, or, within one second, each "
                      "writer truncates the last one's file and only the last events survive. Create one "
                      "before the loop, add every summary to it, close it at the end.",
                      # Rests on the event files on disk; the kernel's count of writers made only picks
                      # this name when those files already lack events (events-not-on-disk fails too).
                      holds(lambda got: got["event_files"] <= 1
                            and not (got["writers"] > 1 and len(got["loss_steps"]) < got["steps"])),
                      shows=("event_files", "loss_steps")),
                Check("files-outside-dir", "writes only into logdir", STRAY_FILES,
                      holds(lambda got: got["stray_files"] == []), shows=("stray_files",)),
                Check("events-not-on-disk", "leaves one loss event per step on disk",
                      "The event file does not hold a loss for every step when your function returns. A run "
                      "summary is only a serialized protobuf until writer.add_summary(summary, step) queues it, "
                      "and the FileWriter writes its queue in the background: close() (or flush()) it before "
                      "returning.", holds(lambda got: len(got["loss_steps"]) == got["steps"]),
                      shows=("loss_steps",)),
                Check("summary-step", "writes each summary at the global step it started from",
                      "The events are not at the global steps the training steps started from (this run "
                      "starts at a global step above 0, as a restored model does). Read the step before "
                      "each training step, tf1.train.global_step(sess, global_step), and pass it to "
                      "add_summary(summary, step): a loop counter starts at 0 wherever the model stands, "
                      "the step read after the update is one too far (and a global_step fetched in the same "
                      "sess.run as train_op has no fixed order relative to the update), and with no step "
                      "every point lands on step 0.",
                      _summary_steps_match, shows=("loss_steps",)),
                Check("missing-histogram", "writes a scalar 'loss' and a histogram 'weights'",
                      "Create tf1.summary.scalar('loss', loss) and tf1.summary.histogram('weights', weights), "
                      "merge them with tf1.summary.merge_all() and run the merged op.",
                      same("tags", "hist_counts"), shows=("tags",)),
                Check("wrong-loss-values", "logs the loss of each step",
                      "The logged losses are not the losses of the steps: run the merged summary in the same "
                      "sess.run as the train op.", same("loss_values"), shows=("loss_values",)),
                Check("histogram-of-variable", "summarises the `weights` tensor, the read the update waits for",
                      "Your histogram summarises the variable w, not the `weights` tensor you were given. "
                      "tf1.summary.histogram('weights', w) adds a read of w of its own, which the update does "
                      "not wait for: in the sess.run of the train op it may run before or after the update, "
                      "and describe either. Summarise `weights`, the read the loss and the update are "
                      "computed from: tf1.summary.histogram('weights', weights).",
                      holds(lambda got: all(kind != "ReadVariableOp" for _, kind in got["hist_inputs"])),
                      shows=("hist_inputs",)),
                Check("wrong-histogram-values", "logs the histogram of `weights` at each step",
                      "The histograms do not describe `weights` as the step used them: summarise the "
                      "`weights` tensor itself, tf1.summary.histogram('weights', weights), run with the train op.",
                      same("hist_sums"), shows=("hist_sums",)),
            ),
            # The global step starts at 3 (as after a restore): a loop counter as the step fails here, in public.
            cases=(Case("6 steps at learning rate 0.1, from global step 3",
                        {"seed": 5, "steps": 6, "learning_rate": 0.1, "start": 3}),),
        ),
    ),
)

# What each exercise's docstring (and the text above it) promises, and the check that reads it.
REQUIREMENTS = {
    "global_step": {
        "one gradient-descent step on loss per run": "wrong-update",
        "counted by global_step": ("step-never-counts", "trainable-step", "int32-step"),
    },
    "restore_or_initialize": {
        "Restore the newest checkpoint of ckpt_dir and return its path": (
            "not-latest-checkpoint", "checkpoint-not-found", "reinitialized-after-restore"),
        "or initialise and return None": ("restore-without-checkpoint", "fresh-not-initialized"),
        "(in sess, with saver; reading ckpt_dir only)": ("default-session", "own-saver", "writes-checkpoints"),
    },
    "train_resumable": {
        "Train the regression to total_steps": ("not-training", "wrong-model", "not-reproducible",
                                                "step-out-of-line"),
        "resuming from ckpt_dir": ("ignored-checkpoint", "crash-save-skipped", "reinitialized-after-restore",
                                   "step-not-in-checkpoint", "int32-step"),
        "a crash and resume change nothing": ("resume-differs", "crash-counts-global-steps"),
        "save_every, max_to_keep": ("max-to-keep-ignored", "crashed-checkpoints-kept", "saver-per-save",
                                    "files-outside-dir"),
    },
    "renaming_saver": {
        "mapping checkpoint name old_scope/<name>": ("sibling-scope", "restored-too-much", "trainable-only"),
        "to the graph variable new_scope/<name>": ("keys-not-in-checkpoint", "matched-by-position",
                                                   "names-rewritten-inside"),
    },
    "best_keeper": {
        "Save when val_loss beats every earlier one": ("first-not-saved", "saves-on-tie", "not-best-so-far"),
        "Keeps the checkpoint with the lowest validation loss so far": ("old-bests-kept", "saver-per-save"),
        "in ckpt_dir/best/": ("shared-state-file", "files-outside-dir"),
    },
    "log_training": {
        "Train `steps` times, writing per step to logdir": ("events-not-on-disk", "writer-per-step",
                                                            "files-outside-dir", "summaries-per-step"),
        "scalar 'loss'": ("missing-histogram", "wrong-loss-values"),
        "histogram 'weights'": ("missing-histogram", "histogram-of-variable", "wrong-histogram-values"),
        "(at the global step each training step starts from)": "summary-step",
    },
}
