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

from ..compare import holds, same
from ..spec import Case, Check, Exercise, Lesson


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
            "step_trainable": global_step.op.name in trainable}


def probe_restore_or_initialize(restore_or_initialize, size, seed, keep, save_at, steps):
    """Call the exercise on an empty directory, then again after checkpoints were saved at `save_at`."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default(), _fresh_dirs() as (ckpt_dir,):
        w = tf1.get_variable("w", [size], initializer=tf1.random_normal_initializer(seed=seed))
        global_step = tf1.train.get_or_create_global_step()
        advance = tf.group(w.assign_add(tf.ones([size])), global_step.assign_add(1))
        saver = tf1.train.Saver(max_to_keep=keep)
        with tf1.Session() as sess:
            fresh_error = None
            try:
                fresh_returned = restore_or_initialize(sess, saver, ckpt_dir)
            except (ValueError, tf.errors.OpError) as exc:
                fresh_error, fresh_returned = type(exc).__name__, None
            try:
                fresh_w, fresh_step = sess.run(w), int(sess.run(global_step))
            except tf.errors.FailedPreconditionError:
                fresh_w = fresh_step = "uninitialized"
                sess.run(tf1.global_variables_initializer())
            for step in range(1, steps + 1):
                sess.run(advance)
                if step in save_at:
                    saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=global_step)
        with tf1.Session() as sess:
            returned = restore_or_initialize(sess, saver, ckpt_dir)
            restored_w, restored_step = sess.run(w), int(sess.run(global_step))
    return {"fresh_error": fresh_error, "fresh_returned": fresh_returned, "fresh_w": fresh_w,
            "fresh_step": fresh_step, "returned": os.path.basename(returned) if returned else returned,
            "restored_w": restored_w, "restored_step": restored_step}


def probe_train_resumable(train_resumable, seed, total_steps, save_every, max_to_keep, crash_after):
    """An uninterrupted run, and a run that crashes after `crash_after` steps and is resumed.

    Both start fresh, so their first `crash_after` losses must agree bit for bit (seeded init and data).
    """
    import tensorflow as tf

    tf1 = tf.compat.v1

    def run(ckpt_dir, **kw):
        with tf.Graph().as_default():
            out = train_resumable(ckpt_dir, seed, total_steps, save_every, max_to_keep, **kw)
        return {"step": int(out["step"]), "w": np.asarray(out["w"]), "b": np.asarray(out["b"]),
                "losses": [float(v) for v in out["losses"]]}

    with _fresh_dirs(2) as (dir_a, dir_c):
        full = run(dir_a)
        kept = _basenames(tf1.train.get_checkpoint_state(dir_a))
        crashed = run(dir_c, crash_after=crash_after)
        resumed = run(dir_c)

    def identical(p, q):
        return bool(np.array_equal(p["w"], q["w"]) and np.array_equal(p["b"], q["b"]))

    return {"kept": kept, "final_step": full["step"], "crash_step": crashed["step"],
            "resumed_step": resumed["step"], "resumed_ran": len(resumed["losses"]),
            "reproducible": full["losses"][:crash_after] == crashed["losses"],
            "resume_identical": identical(full, resumed),
            "trained": bool(full["losses"] and min(full["losses"]) < 0.5 * full["losses"][0])}


def probe_renaming_saver(build_renaming_saver, old_scope, new_scope, variables, seed):
    """Save `old_scope/<name>` variables (and two others), then restore them into `new_scope/<name>`."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with _fresh_dirs(2) as (ckpt_dir, out_dir):
        with tf.Graph().as_default():
            for i, (name, shape) in enumerate(variables):
                tf1.get_variable(f"{old_scope}/{name}", shape,
                                 initializer=tf1.random_normal_initializer(seed=seed + i))
            tf1.get_variable("head/kernel", [2, 1], initializer=tf1.ones_initializer())
            tf1.train.get_or_create_global_step()
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                ckpt_path = tf1.train.Saver().save(sess, os.path.join(ckpt_dir, "pretrained"))
        with tf.Graph().as_default():
            new_vars = [tf1.get_variable(f"{new_scope}/{name}", shape, initializer=tf1.zeros_initializer())
                        for name, shape in variables]
            head = tf1.get_variable("head/kernel", [2, 1], initializer=tf1.zeros_initializer())
            saver = build_renaming_saver(ckpt_path, old_scope, new_scope)
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                restore_error = None
                try:
                    saver.restore(sess, ckpt_path)
                except tf.errors.OpError as exc:
                    restore_error = type(exc).__name__
                restored = {name: sess.run(v) for (name, _), v in zip(variables, new_vars)}
                head_value = sess.run(head)
                written = saver.save(sess, os.path.join(out_dir, "written"), write_meta_graph=False)
                saver_names = sorted(name for name, _ in tf.train.list_variables(written))
    return {"restore_error": restore_error, "restored": restored, "head": head_value,
            "saver_names": saver_names}


def probe_best_keeper(best_keeper_cls, val_losses, save_every):
    """A counter model saved periodically (max_to_keep=2) while the keeper sees `val_losses`."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default(), _fresh_dirs() as (ckpt_dir,):
        w = tf1.get_variable("w", [], initializer=tf1.zeros_initializer())
        global_step = tf1.train.get_or_create_global_step()
        advance = tf.group(w.assign_add(1.0), global_step.assign_add(1))
        periodic = tf1.train.Saver(max_to_keep=2)
        keeper = best_keeper_cls(ckpt_dir)
        saved = []
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
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
    return {"saved": saved, "latest_periodic": os.path.basename(latest) if latest else None,
            "best_kept": best_kept, "best_w": best_w}


def _read_events(logdir):
    """(step, tag, kind, value) of every summary value in logdir's event files; a torn record ends a file."""
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
                    rows.append((int(event.step), value.tag.split("/")[-1], kind, number))
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
    with tf.Graph().as_default(), _fresh_dirs() as (logdir,):
        w = tf1.get_variable("w", [3, 1], initializer=tf1.random_normal_initializer(seed=seed))
        weights = tf.identity(w, name="w_read")  # the read the forward pass uses: logged before the update
        loss = tf.reduce_mean(tf.square(tf.matmul(x_data, weights) - y_data), name="mse")
        global_step = tf1.train.get_or_create_global_step()
        train_op = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step=global_step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            log_training(sess, train_op, loss, weights, global_step, logdir, steps)
        rows = _read_events(logdir)
    loss_rows = [r for r in rows if r[1] == "loss" and r[2] == "simple_value"]
    hist_rows = [r for r in rows if r[1] == "weights" and r[2] == "histo"]
    return {"steps": steps, "loss_steps": [r[0] for r in loss_rows], "loss_values": [r[3] for r in loss_rows],
            "hist_steps": [r[0] for r in hist_rows], "hist_counts": [r[3] for r in hist_rows],
            "tags": sorted({(r[1], r[2]) for r in rows})}


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

LESSON = Lesson(
    assignment="05_checkpoints_and_summaries",
    notebook="checkpoints_and_summaries.ipynb",
    exercises=(
        Exercise(
            id="global_step", symbol="make_train_op", points=2, probe=probe_global_step,
            checks=(
                Check("trainable-step", "keeps global_step out of the trainable variables", STEP_TRAINABLE,
                      holds(lambda got: got["step_trainable"] is False), shows=("trainable",)),
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
                      "Resume from the newest checkpoint: ckpt.model_checkpoint_path, or "
                      "tf.train.latest_checkpoint(dir). all_model_checkpoint_paths lists the kept ones "
                      "oldest first.", same("restored_step", "restored_w", "returned"),
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
                Check("max-to-keep-ignored", "keeps only the newest max_to_keep checkpoints",
                      "The directory keeps the wrong checkpoints: save after every step whose global step is "
                      "a multiple of save_every, to ckpt_dir/model, with tf1.train.Saver(max_to_keep=...) "
                      "(the default keeps 5).", same("kept"), shows=("kept",)),
                Check("ignored-checkpoint", "resumes from the latest checkpoint instead of starting over",
                      "The resumed call must restore the latest checkpoint and run only the steps that are "
                      "left; the crashed call must stop after crash_after steps of its own.",
                      same("crash_step", "resumed_step", "resumed_ran", "final_step"),
                      shows=("crash_step", "resumed_ran", "resumed_step")),
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
            ),
            cases=(Case("20 steps, save every 4, keep 2, crash after 14",
                        {"seed": 3, "total_steps": 20, "save_every": 4, "max_to_keep": 2, "crash_after": 14}),),
        ),
        Exercise(
            id="renaming_saver", symbol="build_renaming_saver", points=2, probe=probe_renaming_saver,
            checks=(
                Check("keys-not-in-checkpoint", "restores without NotFoundError",
                      "Restoring raised NotFoundError: a key of the Saver's dict is not a name in the "
                      "checkpoint. The keys are the names stored in the checkpoint (tf.train.list_variables), "
                      "the values the variables of your graph that receive them; a list, or keys taken from "
                      "the new graph, look the new names up in the old checkpoint.",
                      holds(lambda got: got["restore_error"] is None), shows=("restore_error",)),
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
                Check("not-best-so-far", "saves exactly when the loss beats every earlier one",
                      "Compare each validation loss with the best seen so far, not with the previous one: "
                      "a loss that improves on the last step but not on the best is not a new best.",
                      same("saved"), shows=("saved",)),
                Check("old-bests-kept", "keeps a single best checkpoint, in ckpt_dir/best/",
                      "ckpt_dir/best/ must hold exactly one checkpoint, the best: give the second Saver "
                      "max_to_keep=1 and save to ckpt_dir/best/model with the step.",
                      same("best_kept", "best_w"), shows=("best_kept", "best_w")),
                Check("shared-state-file", "leaves the periodic checkpoints' state file alone",
                      "After your saves, tf.train.latest_checkpoint(ckpt_dir) no longer names the newest "
                      "periodic checkpoint. Every Saver rewrites the `checkpoint` state file of the directory "
                      "it saves into with its own list: keep the best model in its own directory.",
                      same("latest_periodic"), shows=("latest_periodic",)),
            ),
            cases=(Case("losses 0.9 0.5 0.8 0.6 0.45 0.4, periodic every 2",
                        {"val_losses": [0.9, 0.5, 0.8, 0.6, 0.45, 0.4], "save_every": 2}),),
        ),
        Exercise(
            id="log_training", symbol="log_training", points=2, probe=probe_log_training,
            checks=(
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
            ),
            cases=(Case("6 steps at learning rate 0.1", {"seed": 5, "steps": 6, "learning_rate": 0.1}),),
        ),
    ),
)
