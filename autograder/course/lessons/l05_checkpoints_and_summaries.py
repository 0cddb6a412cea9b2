"""Lesson 5: Saver checkpoints and summaries (seed 003, first half).

Every probe builds in its own `tf.Graph()` and gives the exercise a fresh `tempfile.mkdtemp()`
directory, which it deletes afterwards; no observation holds a path with a random part (only
checkpoint base names such as `model-8`).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile

import numpy as np

from autograder.course.compare import holds, same
from autograder.course.spec import Case, Check, Exercise, Lesson
from autograder.inkernel.probing import CallCounter, FreshDirectory


@contextlib.contextmanager
def _fresh_dirs(count=1):
    """`count` new empty directories, removed with everything in them afterwards."""
    paths = [tempfile.mkdtemp(prefix="l05-probe-") for _ in range(count)]
    try:
        yield paths
    finally:
        for path in paths:
            shutil.rmtree(path, ignore_errors=True)


def _basenames(state):
    return [os.path.basename(p) for p in state.all_model_checkpoint_paths] if state else []


def _checkpoints_on_disk(directory):
    """Names of the checkpoints whose files are in `directory` (from their .index files), sorted."""
    if not os.path.isdir(directory):
        return []
    return sorted(name[:-len(".index")] for name in os.listdir(directory) if name.endswith(".index"))


def _savers_made():
    """A CallCounter of tf1.train.Saver objects built while its block runs."""
    import tensorflow as tf

    return CallCounter(tf.compat.v1.train.Saver, "__init__")


def _base_dtype(tensor):
    dtype = tensor.dtype
    return getattr(dtype, "base_dtype", dtype).name


def probe_global_step(make_train_op, w0, target, learning_rate, runs):
    """Give the exercise a quadratic loss, run its train op `runs` times, read the counter after each."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        w = tf1.get_variable("w", initializer=tf.constant(w0, tf.float32))
        loss = tf.reduce_sum(tf.square(w - tf.constant(target, tf.float32)))
        train_op, global_step = make_train_op(loss, learning_rate)
        trainable = sorted(v.op.name for v in tf1.trainable_variables())
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            steps = []
            for _ in range(runs):
                sess.run(train_op)
                steps.append(int(sess.run(global_step)))
            w_after = sess.run(w)
    return {"steps": steps, "w": w_after, "trainable": trainable,
            "step_trainable": global_step.op.name in trainable, "step_dtype": _base_dtype(global_step)}


def probe_restore_or_initialize(restore_or_initialize, size, seed, keep, save_at, steps):
    """Call the exercise on an empty directory, then again after checkpoints were saved at `save_at`.

    The session the exercise gets is never the default one: another session of the same graph is,
    and it must stay untouched. Savers the exercise builds and files it writes are counted.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default(), _fresh_dirs() as (ckpt_dir,), _savers_made() as savers:
        w = tf1.get_variable("w", [size], initializer=tf1.random_normal_initializer(seed=seed))
        global_step = tf1.train.get_or_create_global_step()
        advance = tf.group(w.assign_add(tf.ones([size])), global_step.assign_add(1))
        saver = tf1.train.Saver(max_to_keep=keep)
        probe_savers = savers.count
        written = []
        with tf1.Session() as default_session:  # the default session: the exercise must use `sess`
            sess = tf1.Session()
            fresh_error = None
            try:
                fresh_returned = restore_or_initialize(sess, saver, ckpt_dir)
            except (ValueError, tf.errors.OpError) as exc:
                fresh_error, fresh_returned = type(exc).__name__, None
            written += _checkpoints_on_disk(ckpt_dir)
            try:
                fresh_w, fresh_step = sess.run(w), int(sess.run(global_step))
            except tf.errors.FailedPreconditionError:
                fresh_w = fresh_step = "uninitialized"
                sess.run(tf1.global_variables_initializer())
            for step in range(1, steps + 1):
                sess.run(advance)
                if step in save_at:
                    saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=global_step)
            sess.close()
            saved = _checkpoints_on_disk(ckpt_dir)
            sess = tf1.Session()
            returned = restore_or_initialize(sess, saver, ckpt_dir)
            written += sorted(set(_checkpoints_on_disk(ckpt_dir)) - set(saved))
            restored_w, restored_step = sess.run(w), int(sess.run(global_step))
            sess.close()
            try:
                default_session.run(w)
                used_default = True
            except tf.errors.FailedPreconditionError:
                used_default = False
        exercise_savers = savers.count - probe_savers
    if returned:
        where = os.path.normpath(os.path.dirname(os.path.abspath(returned)))
        shown = os.path.basename(returned) if where == os.path.normpath(ckpt_dir) else f"(not in ckpt_dir) {returned}"
    else:
        shown = returned
    return {"fresh_error": fresh_error, "fresh_returned": fresh_returned, "fresh_w": fresh_w,
            "fresh_step": fresh_step, "returned": shown, "restored_w": restored_w,
            "restored_step": restored_step, "used_default_session": used_default,
            "savers_built": exercise_savers, "written": written}


def probe_train_resumable(train_resumable, seed, total_steps, save_every, max_to_keep, crashes):
    """An uninterrupted run, and runs that crash after `crashes[0]`, `crashes[1]`, ... steps of their
    own, each resuming the previous one, then a last run that resumes to the end.

    The first crashed run and the uninterrupted one both start fresh, so their first losses must agree
    bit for bit (seeded init and data). Savers built and saves made are counted on the uninterrupted run.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1

    def run(ckpt_dir, **kw):
        with tf.Graph().as_default(), _savers_made() as savers, CallCounter(tf1.train.Saver, "save") as saves:
            out = train_resumable(ckpt_dir, seed, total_steps, save_every, max_to_keep, **kw)
        return {"step": int(out["step"]), "w": np.asarray(out["w"]), "b": np.asarray(out["b"]),
                "losses": [float(v) for v in out["losses"]], "savers": savers.count, "saves": saves.count}

    with _fresh_dirs(2) as (dir_a, dir_c), FreshDirectory() as cwd:
        full = run(dir_a)
        kept = _basenames(tf1.train.get_checkpoint_state(dir_a))
        on_disk = _checkpoints_on_disk(dir_a)
        step_dtype = _saved_step_dtype(tf.train.latest_checkpoint(dir_a))
        crashed = [run(dir_c, crash_after=k) for k in crashes]
        resumed = run(dir_c)

    def identical(p, q):
        return bool(np.array_equal(p["w"], q["w"]) and np.array_equal(p["b"], q["b"]))

    ran = len(resumed["losses"])
    return {"kept": kept, "on_disk": on_disk, "final_step": full["step"],
            "crash_steps": [c["step"] for c in crashed], "crash_ran": [len(c["losses"]) for c in crashed],
            "resumed_step": resumed["step"], "resumed_ran": ran,
            "reproducible": full["losses"][:crashes[0]] == crashed[0]["losses"],
            "resume_identical": identical(full, resumed) and (ran == 0 or full["losses"][-ran:] == resumed["losses"]),
            "trained": bool(full["losses"] and min(full["losses"]) < 0.5 * full["losses"][0]),
            "saver_per_save": full["saves"] > 1 and full["savers"] >= full["saves"],
            "step_dtype": step_dtype, "stray_files": cwd.left,
            "losses": full["losses"], "w": full["w"], "b": full["b"]}


def _saved_step_dtype(path):
    """The dtype of the integer scalar in checkpoint `path` that holds its step (`model-<step>`), or None."""
    import tensorflow as tf

    if not path:
        return None
    try:
        step = int(path.rsplit("-", 1)[1])
    except (IndexError, ValueError):
        return None
    reader = tf.train.load_checkpoint(path)
    for name, dtype in sorted(reader.get_variable_to_dtype_map().items()):
        value = reader.get_tensor(name)
        if dtype.is_integer and np.ndim(value) == 0 and int(value) == step:
            return dtype.name
    return None


def probe_renaming_saver(build_renaming_saver, old_scope, new_scope, variables, seed, sibling=""):
    """Save `old_scope/<name>` variables (and two others), then restore them into `new_scope/<name>`.

    A `variables` entry is [name, shape] or [name, shape, trainable]. With `sibling`, the checkpoint
    also holds `old_scope + sibling/<name>` and the new graph `new_scope + sibling/<name>`: scopes
    whose names share the prefix, which must be left out.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1
    specs = [(v[0], v[1], v[2] if len(v) > 2 else True) for v in variables]
    with _fresh_dirs(2) as (ckpt_dir, out_dir):
        with tf.Graph().as_default():
            saved = {}
            for i, (name, shape, trainable) in enumerate(specs):
                saved[name] = tf1.get_variable(f"{old_scope}/{name}", shape, trainable=trainable,
                                               initializer=tf1.random_normal_initializer(seed=seed + i))
                if sibling:
                    tf1.get_variable(f"{old_scope}{sibling}/{name}", shape, initializer=tf1.ones_initializer())
            tf1.get_variable("head/kernel", [2, 1], initializer=tf1.ones_initializer())
            tf1.train.get_or_create_global_step()
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                saved = {name: sess.run(v) for name, v in saved.items()}
                ckpt_path = tf1.train.Saver().save(sess, os.path.join(ckpt_dir, "pretrained"))
        with tf.Graph().as_default():
            new_vars = [tf1.get_variable(f"{new_scope}/{name}", shape, trainable=trainable,
                                         initializer=tf1.zeros_initializer()) for name, shape, trainable in specs]
            if sibling:
                for name, shape, _ in specs:
                    tf1.get_variable(f"{new_scope}{sibling}/{name}", shape, initializer=tf1.zeros_initializer())
            head = tf1.get_variable("head/kernel", [2, 1], initializer=tf1.zeros_initializer())
            saver = build_renaming_saver(ckpt_path, old_scope, new_scope)
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                restore_error = None
                try:
                    saver.restore(sess, ckpt_path)
                except tf.errors.OpError as exc:
                    restore_error = type(exc).__name__
                restored = {name: sess.run(v) for (name, _, _), v in zip(specs, new_vars)}
                head_value = sess.run(head)
                written = saver.save(sess, os.path.join(out_dir, "written"), write_meta_graph=False)
                saver_names = sorted(name for name, _ in tf.train.list_variables(written))
    untouched = [name for name, _, trainable in specs
                 if not trainable and not np.any(restored[name]) and np.any(saved[name])]
    return {"restore_error": restore_error, "restored": restored, "head": head_value,
            "saver_names": saver_names, "untouched_non_trainable": untouched,
            "sibling_in_saver": bool(sibling) and any(n.startswith(f"{old_scope}{sibling}/") for n in saver_names)}


def probe_best_keeper(best_keeper_cls, val_losses, save_every):
    """A counter model saved periodically (max_to_keep=2) while the keeper sees `val_losses`.

    Another keeper, in a directory of its own, first sees a loss lower than all of them: each keeper
    keeps its own best. Savers built during the updates and files left are recorded.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default(), _fresh_dirs(2) as (ckpt_dir, other_dir), FreshDirectory() as cwd:
        w = tf1.get_variable("w", [], initializer=tf1.zeros_initializer())
        global_step = tf1.train.get_or_create_global_step()
        advance = tf.group(w.assign_add(1.0), global_step.assign_add(1))
        periodic = tf1.train.Saver(max_to_keep=2)
        other = best_keeper_cls(other_dir)
        keeper = best_keeper_cls(ckpt_dir)
        saved = []
        with tf1.Session() as sess, _savers_made() as savers:
            sess.run(tf1.global_variables_initializer())
            other.update(sess, min(val_losses) - 1.0, 0)
            for step, val_loss in enumerate(val_losses, 1):
                sess.run(advance)
                if step % save_every == 0:
                    periodic.save(sess, os.path.join(ckpt_dir, "model"), global_step=global_step)
                saved.append(bool(keeper.update(sess, val_loss, step)))
        latest = tf.train.latest_checkpoint(ckpt_dir)
        best_dir = os.path.join(ckpt_dir, "best")
        best_kept = _basenames(tf1.train.get_checkpoint_state(best_dir)) if os.path.isdir(best_dir) else []
        best_w = None
        best_path = tf.train.latest_checkpoint(best_dir) if os.path.isdir(best_dir) else None
        if best_path:
            best_w = float(tf.train.load_checkpoint(best_path).get_tensor("w"))
        best_files = _checkpoints_on_disk(best_dir)
    ties = [i for i, loss in enumerate(val_losses) if i and loss == min(val_losses[:i])]
    return {"saved": saved, "tie_saved": [saved[i] for i in ties],
            "latest_periodic": os.path.basename(latest) if latest else None,
            "best_kept": best_kept, "best_w": best_w, "best_files": best_files,
            "savers_in_update": savers.count, "stray_files": cwd.left}


def _read_events(logdir):
    """(step, tag, kind, value, histogram sum) of every summary value in logdir's event files; a torn record ends a file."""
    import tensorflow as tf

    rows = []
    for name in sorted(os.listdir(logdir)):
        if "tfevents" not in name:
            continue
        try:
            for event in tf.compat.v1.train.summary_iterator(os.path.join(logdir, name)):
                for value in event.summary.value:
                    kind = value.WhichOneof("value")
                    number = value.simple_value if kind == "simple_value" else (
                        value.histo.num if kind == "histo" else None)
                    total = value.histo.sum if kind == "histo" else None
                    rows.append((int(event.step), value.tag.split("/")[-1], kind, number, total))
        except tf.errors.DataLossError:
            pass
    return rows


def probe_log_training(log_training, seed, steps, learning_rate):
    """Hand the exercise a small regression to train and log, then read its event file back."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    rng = np.random.RandomState(seed)
    x_data = rng.randn(16, 3).astype(np.float32)
    y_data = (x_data @ np.array([[1.0], [-1.0], [2.0]], np.float32) + 0.5).astype(np.float32)
    with tf.Graph().as_default() as graph, _fresh_dirs() as (logdir,), FreshDirectory() as cwd:
        w = tf1.get_variable("w", [3, 1], initializer=tf1.random_normal_initializer(seed=seed))
        weights = tf.identity(w, name="w_read")  # the read the forward pass uses: logged before the update
        loss = tf.reduce_mean(tf.square(tf.matmul(x_data, weights) - y_data), name="mse")
        global_step = tf1.train.get_or_create_global_step()
        train_op = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step=global_step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            log_training(sess, train_op, loss, weights, global_step, logdir, steps)
        rows = _read_events(logdir)
        event_files = sum("tfevents" in name for name in os.listdir(logdir))
        kinds = [op.type for op in graph.get_operations()]
        summary_ops = {"scalar": kinds.count("ScalarSummary"), "histogram": kinds.count("HistogramSummary")}
    loss_rows = [r for r in rows if r[1] == "loss" and r[2] == "simple_value"]
    hist_rows = [r for r in rows if r[1] == "weights" and r[2] == "histo"]
    return {"steps": steps, "loss_steps": [r[0] for r in loss_rows], "loss_values": [r[3] for r in loss_rows],
            "hist_steps": [r[0] for r in hist_rows], "hist_counts": [r[3] for r in hist_rows],
            "hist_sums": [r[4] for r in hist_rows], "tags": sorted({(r[1], r[2]) for r in rows}),
            "event_files": event_files, "summary_ops": summary_ops, "stray_files": cwd.left}


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
            probe=probe_restore_or_initialize,
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
                Check("reinitialized-after-restore", "keeps the restored values",
                      "restore() already set every variable the Saver holds; running the initializer after it "
                      "throws the restored values away (the step falls back to 0). Initialise only when "
                      "there is nothing to restore.", holds(lambda got: got["restored_step"] > 0),
                      shows=("restored_step",)),
                Check("not-latest-checkpoint", "restores the newest checkpoint and returns its path",
                      "Resume from the newest checkpoint, and return its path as saved (in ckpt_dir, not "
                      "just its name): ckpt.model_checkpoint_path, or tf.train.latest_checkpoint(dir). "
                      "all_model_checkpoint_paths lists the kept ones oldest first; file names sort 'model-10' "
                      "before 'model-3'.", same("restored_step", "restored_w", "returned"),
                      shows=("restored_step", "returned")),
            ),
            cases=(Case("saves at 2, 4, 6, 8 with max_to_keep=3",
                        {"size": 3, "seed": 7, "keep": 3, "save_at": [2, 4, 6, 8], "steps": 9}),),
        ),
        Exercise(
            id="train_resumable", symbol="train_resumable", points=3, probe=probe_train_resumable,
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
                      "The directory keeps the wrong checkpoints: save after every step whose global step is "
                      "a multiple of save_every, to ckpt_dir/model, with tf1.train.Saver(max_to_keep=...) "
                      "(the default keeps 5).", same("kept", "on_disk"), shows=("kept", "on_disk")),
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
                Check("wrong-model", "trains the data, model and batches the exercise fixes",
                      "The losses or weights of the uninterrupted run differ from the reference's. Follow the "
                      "recipe exactly: x = rng.randn(64, 3), then y with 0.1 * rng.randn(64, 1), from one "
                      "RandomState(seed); rows RandomState([seed, step]).choice(64, 8, replace=False) with "
                      "the global step before the update; w from random_normal_initializer(stddev=0.5, "
                      "seed=seed), b zeros, the mean squared error of x w + b - y, MomentumOptimizer(0.05, "
                      "0.9); each loss from the run that makes the update.",
                      same("losses", "w", "b"), shows=("losses",)),
            ),
            cases=(Case("20 steps, save every 4, keep 2, crash after 14",
                        {"seed": 3, "total_steps": 20, "save_every": 4, "max_to_keep": 2, "crashes": [14]}),),
        ),
        Exercise(
            id="renaming_saver", symbol="build_renaming_saver", points=2, probe=probe_renaming_saver,
            checks=(
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
                      "the new graph, look the new names up in the old checkpoint.",
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
            cases=(Case("encoder/{kernel,bias} into pretrained/",
                        {"old_scope": "encoder", "new_scope": "pretrained",
                         "variables": [["kernel", [3, 2]], ["bias", [2]]], "seed": 11}),),
        ),
        Exercise(
            id="best_keeper", symbol="BestKeeper", points=2, probe=probe_best_keeper,
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
                      "Compare each validation loss with the best seen so far, not with the previous one: "
                      "a loss that improves on the last step but not on the best is not a new best.",
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
            cases=(Case("losses 0.9 0.5 0.8 0.6 0.45 0.4, periodic every 2",
                        {"val_losses": [0.9, 0.5, 0.8, 0.6, 0.45, 0.4], "save_every": 2}),),
        ),
        Exercise(
            id="log_training", symbol="log_training", points=2, probe=probe_log_training,
            checks=(
                Check("summaries-per-step", "creates each summary op once",
                      "The graph holds more than one scalar or histogram summary op: they were created inside "
                      "the loop. Summary ops are graph ops: create them and merge them once, before the loop, "
                      "then only run the merged op.",
                      holds(lambda got: got["summary_ops"]["scalar"] <= 1 and got["summary_ops"]["histogram"] <= 1),
                      shows=("summary_ops",)),
                Check("writer-per-step", "writes through one FileWriter",
                      "logdir holds several event files: a FileWriter was created more than once. Each one "
                      "opens a new event file; create one before the loop, add every summary to it, close "
                      "it at the end.", holds(lambda got: got["event_files"] <= 1), shows=("event_files",)),
                Check("files-outside-dir", "writes only into logdir", STRAY_FILES,
                      holds(lambda got: got["stray_files"] == []), shows=("stray_files",)),
                Check("events-not-on-disk", "leaves one loss event per step on disk",
                      "The event file does not hold a loss for every step when your function returns. A run "
                      "summary is only a serialized protobuf until writer.add_summary(summary, step) queues it, "
                      "and the FileWriter writes its queue in the background: close() (or flush()) it before "
                      "returning.", holds(lambda got: len(got["loss_steps"]) == got["steps"]),
                      shows=("loss_steps",)),
                Check("summary-step", "writes each summary at the global step it started from",
                      "Pass the step to add_summary(summary, step), read before the training step with "
                      "tf1.train.global_step(sess, global_step); without it every point lands on step 0.",
                      _summary_steps_match, shows=("loss_steps",)),
                Check("missing-histogram", "writes a scalar 'loss' and a histogram 'weights'",
                      "Create tf1.summary.scalar('loss', loss) and tf1.summary.histogram('weights', weights), "
                      "merge them with tf1.summary.merge_all() and run the merged op.",
                      same("tags", "hist_counts"), shows=("tags",)),
                Check("wrong-loss-values", "logs the loss of each step",
                      "The logged losses are not the losses of the steps: run the merged summary in the same "
                      "sess.run as the train op.", same("loss_values"), shows=("loss_values",)),
                Check("wrong-histogram-values", "logs the histogram of `weights` at each step",
                      "The histograms do not describe `weights` as the step used them: summarise the "
                      "`weights` tensor itself, tf1.summary.histogram('weights', weights), run with the train op.",
                      same("hist_sums"), shows=("hist_sums",)),
            ),
            cases=(Case("6 steps at learning rate 0.1", {"seed": 5, "steps": 6, "learning_rate": 0.1}),),
        ),
    ),
)
