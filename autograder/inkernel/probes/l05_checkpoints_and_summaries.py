"""Lesson 5's probes (Saver checkpoints and summaries): what runs in the student's kernel.

Each probe builds its inputs in a fresh graph, calls the student's function and returns plain
values; the checks that judge them are in `autograder.course.lessons.l05_checkpoints_and_summaries`.
The checkpoints, state files and event files the student's code leaves are never read here: the probe
hands out their bytes (`hand_out_files`), and the grader reads them in its own worker (`engine.replay`).
"""
from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import shutil
import tempfile

import numpy as np

from autograder.inkernel.probing import CallCounter, FreshDirectory, export_graph, hand_out_files


@contextlib.contextmanager
def _fresh_dirs(count=1):
    """`count` new empty directories, removed with everything in them afterwards."""
    paths = [tempfile.mkdtemp(prefix="l05-probe-") for _ in range(count)]
    try:
        yield paths
    finally:
        for path in paths:
            shutil.rmtree(path, ignore_errors=True)


def _savers_made():
    """A CallCounter of tf1.train.Saver objects built while its block runs."""
    import tensorflow as tf

    return CallCounter(tf.compat.v1.train.Saver, "__init__")


class _FedBatches(CallCounter):
    """`with _FedBatches() as fed:` records, for each Session.run given numbers to feed, one digest of
    the values fed (`fed.digests`, in the order run): which batch each step took, whatever the
    placeholders are called. A Saver's runs feed a file name, and are left out."""

    def __init__(self) -> None:
        from tensorflow.python.client.session import BaseSession

        super().__init__(BaseSession, "run")
        self.digests = []

    def _wrap(self, original):
        def recorded(session, fetches, feed_dict=None, *args, **kwargs):
            values = [np.asarray(v) for v in (feed_dict or {}).values()]
            if values and all(v.dtype.kind in "biuf" for v in values):
                self.digests.append(sorted(_digest(v) for v in values))
            return original(session, fetches, feed_dict, *args, **kwargs)

        return recorded


def _digest(value):
    """A short digest of an array's dtype, shape and bytes."""
    return hashlib.sha256(f"{value.dtype}{value.shape}".encode() + value.tobytes()).hexdigest()[:12]


def probe_global_step(make_train_op, w0, target, learning_rate, runs):
    """Give the exercise a quadratic loss and run its train op `runs` times, saving the graph's
    variables after each run (`probe-1`, `probe-2`...). The checkpoints are handed out with the graph's
    MetaGraphDef (`files`, `meta_graph`): the grader reads the counter after each run, its dtype, `w`
    and the trainable collection from them, never from a value read in this process."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        w = tf1.get_variable("w", initializer=tf.constant(w0, tf.float32))
        loss = tf.reduce_sum(tf.square(w - tf.constant(target, tf.float32)))
        train_op, global_step = make_train_op(loss, learning_rate)
        saver = tf1.train.Saver(max_to_keep=None)
        with tf1.Session() as sess, _fresh_dirs() as (saved_dir,):
            sess.run(tf1.global_variables_initializer())
            for run in range(1, runs + 1):
                sess.run(train_op)
                saver.save(sess, os.path.join(saved_dir, "probe"), global_step=run, write_meta_graph=False,
                           write_state=False)
            files = hand_out_files(saved_dir)
        meta_graph = base64.b64encode(tf1.train.export_meta_graph().SerializeToString()).decode()
    return {"runs": runs, "step_name": global_step.op.name, "files": files, "meta_graph": meta_graph}


def probe_restore_or_initialize(restore_or_initialize, size, seed, keep, save_at, steps, fresh_saver=False):
    """Call the exercise on an empty directory, then again after checkpoints were saved at `save_at`.

    With `fresh_saver`, the second call gets another Saver than the one that saved, as a new process
    would: it remembers no checkpoint of its own, so only the directory says which is the newest.

    The session the exercise gets is never the default one: another session of the same graph is,
    and it must stay untouched. Savers the exercise builds are counted. Handed out for the grader to
    read: the graph (`graph`: a Saver built adds a SaveV2 op, beside the probe's `probe_savers`), the
    directory's files after each call (`fresh_files`, `files`), and a checkpoint the probe
    writes of `w` and the step after each call (`fresh_state`, `state`; none when the variables were
    left uninitialised, and then `state_saved` is false for the second call).
    """
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph, _fresh_dirs(3) as (ckpt_dir, fresh_dir, state_dir), \
            _savers_made() as savers:
        w = tf1.get_variable("w", [size], initializer=tf1.random_normal_initializer(seed=seed))
        global_step = tf1.train.get_or_create_global_step()
        advance = tf.group(w.assign_add(tf.ones([size])), global_step.assign_add(1))
        saver = tf1.train.Saver(max_to_keep=keep)
        restorer = tf1.train.Saver(max_to_keep=keep) if fresh_saver else saver
        state = tf1.train.Saver({"w": w, "global_step": global_step})
        probe_savers = savers.count
        with tf1.Session() as default_session:  # the default session: the exercise must use `sess`
            sess = tf1.Session()
            fresh_error = None
            try:
                fresh_returned = restore_or_initialize(sess, saver, ckpt_dir)
            except (ValueError, tf.errors.OpError) as exc:
                fresh_error, fresh_returned = type(exc).__name__, None
            fresh_files = hand_out_files(ckpt_dir)
            if not _saved_state(state, sess, fresh_dir):
                sess.run(tf1.global_variables_initializer())
            for step in range(1, steps + 1):
                sess.run(advance)
                if step in save_at:
                    saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=global_step)
            sess.close()
            sess = tf1.Session()
            returned = restore_or_initialize(sess, restorer, ckpt_dir)
            files = hand_out_files(ckpt_dir)
            restored_saved = _saved_state(state, sess, state_dir)
            sess.close()
            try:
                default_session.run(w)
                used_default = True
            except tf.errors.FailedPreconditionError:
                used_default = False
        exercise_savers = savers.count - probe_savers
        fresh_state, restored_state = hand_out_files(fresh_dir), hand_out_files(state_dir)
        exported = export_graph(graph)
    if returned:
        where = os.path.normpath(os.path.dirname(os.path.abspath(returned)))
        shown = os.path.basename(returned) if where == os.path.normpath(ckpt_dir) else f"(not in ckpt_dir) {returned}"
    else:
        shown = returned
    return {"fresh_error": fresh_error, "fresh_returned": fresh_returned, "returned": shown,
            "used_default_session": used_default, "savers_built": exercise_savers, "probe_savers": probe_savers,
            "graph": exported, "fresh_files": fresh_files, "files": files, "fresh_state": fresh_state,
            "state": restored_state, "state_saved": restored_saved}


def _saved_state(state, sess, directory):
    """Whether `state` saved `sess`'s variables into `directory`: not when the exercise left them
    uninitialised (it worked in another session), which the grader then reads as such."""
    import tensorflow as tf

    try:
        state.save(sess, os.path.join(directory, "state"), write_meta_graph=False)
    except tf.errors.FailedPreconditionError:
        return False
    return True


def probe_train_resumable(train_resumable, seed, total_steps, save_every, max_to_keep, crashes):
    """An uninterrupted run, and runs that crash after `crashes[0]`, `crashes[1]`, ... steps of their
    own, each resuming the previous one, then a last run that resumes to the end.

    The first crashed run and the uninterrupted one both start fresh, so their first losses must agree
    bit for bit (seeded init and data). Savers built and saves made are counted on the uninterrupted run.
    Its directory's files are handed out (`files`), and those of the crashed-and-resumed runs' directory
    (`crashed_files`): the grader reads which checkpoints each kept. `fed` holds a digest of each batch
    the uninterrupted run fed, in order.
    """
    import tensorflow as tf

    tf1 = tf.compat.v1

    def run(ckpt_dir, **kw):
        with tf.Graph().as_default(), _savers_made() as savers, CallCounter(tf1.train.Saver, "save") as saves, \
                CallCounter(tf1.train.Saver, "restore") as restores, _FedBatches() as fed:
            out = train_resumable(ckpt_dir, seed, total_steps, save_every, max_to_keep, **kw)
        return {"step": int(out["step"]), "w": np.asarray(out["w"]), "b": np.asarray(out["b"]),
                "losses": [float(v) for v in out["losses"]], "savers": savers.count, "saves": saves.count,
                "restores": restores.count, "fed": fed.digests}

    with _fresh_dirs(2) as (dir_a, dir_c), FreshDirectory() as cwd:
        full = run(dir_a)
        files = hand_out_files(dir_a)
        crashed = [run(dir_c, crash_after=k) for k in crashes]
        resumed = run(dir_c)
        crashed_files = hand_out_files(dir_c)

    def identical(p, q):
        return bool(np.array_equal(p["w"], q["w"]) and np.array_equal(p["b"], q["b"]))

    ran = len(resumed["losses"])
    # Runs that found a checkpoint (every one after the first crash), called restore, and yet started
    # from global step 0: the initializer ran after the restore. Only names the misconception: the
    # steps themselves (ignored-checkpoint) already fail.
    later = crashed[1:] + [resumed]
    reset = any(r["restores"] and r["step"] - len(r["losses"]) == 0 for r in later)
    # Crashed runs that stopped on a save step with fewer saves than the save steps they reached: the
    # crash came before that step's save. Only names the misconception, as `reset` does.
    skipped = any(c["step"] % save_every == 0
                  and c["saves"] < c["step"] // save_every - (c["step"] - len(c["losses"])) // save_every
                  for c in crashed)
    return {"restored_then_reset": reset, "crash_save_skipped": skipped, "files": files, "crashed_files": crashed_files, "final_step": full["step"],
            "crash_steps": [c["step"] for c in crashed], "crash_ran": [len(c["losses"]) for c in crashed],
            "resumed_step": resumed["step"], "resumed_ran": ran,
            "reproducible": full["losses"][:crashes[0]] == crashed[0]["losses"],
            "resume_identical": identical(full, resumed) and (ran == 0 or full["losses"][-ran:] == resumed["losses"]),
            "trained": bool(full["losses"] and min(full["losses"]) < 0.5 * full["losses"][0]),
            "saver_per_save": full["saves"] > 1 and full["savers"] >= full["saves"],
            "stray_files": cwd.left,
            "losses": full["losses"], "w": full["w"], "b": full["b"], "fed": full["fed"]}


def probe_renaming_saver(build_renaming_saver, old_scope, new_scope, variables, seed, sibling=""):
    """Save `old_scope/<name>` variables (and two others), then restore them into `new_scope/<name>`.

    A `variables` entry is [name, shape] or [name, shape, trainable]. With `sibling`, the checkpoint
    also holds `old_scope + sibling/<name>` and the new graph `new_scope + sibling/<name>`: scopes
    whose names share the prefix, which must be left out.

    Handed out for the grader to read: the checkpoint the exercise's Saver writes after the restore
    (`written_files`), and one the probe writes of the new graph's variables (`state_files`). When
    building the Saver raised KeyError, only that (`lookup_error`), and whether the missing name is a
    non-trainable variable of the new graph (`lookup_non_trainable`: a lookup among the trainable ones).
    """
    import tensorflow as tf

    tf1 = tf.compat.v1
    specs = [(v[0], v[1], v[2] if len(v) > 2 else True) for v in variables]
    with _fresh_dirs(3) as (ckpt_dir, out_dir, state_dir):
        with tf.Graph().as_default():
            for i, (name, shape, trainable) in enumerate(specs):
                tf1.get_variable(f"{old_scope}/{name}", shape, trainable=trainable,
                                               initializer=tf1.random_normal_initializer(seed=seed + i))
                if sibling:
                    tf1.get_variable(f"{old_scope}{sibling}/{name}", shape, initializer=tf1.ones_initializer())
            tf1.get_variable("head/kernel", [2, 1], initializer=tf1.ones_initializer())
            tf1.train.get_or_create_global_step()
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                ckpt_path = tf1.train.Saver().save(sess, os.path.join(ckpt_dir, "pretrained"))
        with tf.Graph().as_default():
            new_vars = [tf1.get_variable(f"{new_scope}/{name}", shape, trainable=trainable,
                                         initializer=tf1.zeros_initializer()) for name, shape, trainable in specs]
            if sibling:
                for name, shape, _ in specs:
                    tf1.get_variable(f"{new_scope}{sibling}/{name}", shape, initializer=tf1.zeros_initializer())
            head = tf1.get_variable("head/kernel", [2, 1], initializer=tf1.zeros_initializer())
            try:
                saver = build_renaming_saver(ckpt_path, old_scope, new_scope)
            except KeyError as exc:  # a name looked up that is not there: named by a check, not as "raised"
                missing = exc.args[0] if exc.args else None
                non_trainable = {v.op.name for v in tf1.global_variables()} - {
                    v.op.name for v in tf1.trainable_variables()}
                return {"lookup_error": f"KeyError: {exc}",
                        "lookup_non_trainable": isinstance(missing, str) and missing in non_trainable}
            state = tf1.train.Saver({v.op.name: v for v in [*new_vars, head]})
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                restore_error = None
                try:
                    saver.restore(sess, ckpt_path)
                except tf.errors.OpError as exc:
                    restore_error = type(exc).__name__
                state.save(sess, os.path.join(state_dir, "state"), write_meta_graph=False)
                saver.save(sess, os.path.join(out_dir, "written"), write_meta_graph=False)
        written_files, state_files = hand_out_files(out_dir), hand_out_files(state_dir)
    return {"lookup_error": None, "restore_error": restore_error, "written_files": written_files,
            "state_files": state_files}


def probe_best_keeper(best_keeper_cls, val_losses, save_every):
    """A counter model saved periodically (max_to_keep=2) while the keeper sees `val_losses`.

    Another keeper, in a directory of its own, first sees a loss lower than all of them: each keeper
    keeps its own best. Savers built during the updates and files left are recorded; the files of
    ckpt_dir and ckpt_dir/best/ are handed out (`files`, `best_files`), for the grader to read.
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
                if not step % save_every:
                    periodic.save(sess, os.path.join(ckpt_dir, "model"), global_step=global_step)
                saved.append(bool(keeper.update(sess, val_loss, step)))
        files, best_files = hand_out_files(ckpt_dir), hand_out_files(os.path.join(ckpt_dir, "best"))
    ties = [i for i, loss in enumerate(val_losses) if i and loss == min(val_losses[:i])]
    return {"saved": saved, "tie_saved": [saved[i] for i in ties],
            "files": files, "best_files": best_files, "savers_in_update": savers.count, "stray_files": cwd.left}


def probe_log_training(log_training, seed, steps, learning_rate, start=0):
    """Hand the exercise a small regression to train and log, then hand out logdir's files and the
    graph (`files`, `graph`): the grader reads the events and counts the summary ops. The global step
    stands at `start` when the exercise is called (as after a restore)."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    rng = np.random.RandomState(seed)
    x_data = rng.randn(16, 3).astype(np.float32)
    y_data = (x_data @ np.array([[1.0], [-1.0], [2.0]], np.float32) + 0.5).astype(np.float32)
    from tensorflow.python.summary.writer.event_file_writer import EventFileWriter

    with tf.Graph().as_default() as graph, _fresh_dirs() as (logdir,), FreshDirectory() as cwd, \
            CallCounter(EventFileWriter, "__init__") as writers:
        w = tf1.get_variable("w", [3, 1], initializer=tf1.random_normal_initializer(seed=seed))
        weights = tf.identity(w, name="w_read")  # the read the forward pass uses: logged before the update
        loss = tf.reduce_mean(tf.square(tf.matmul(x_data, weights) - y_data), name="mse")
        global_step = tf1.train.get_or_create_global_step()
        train_op = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step=global_step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            global_step.load(start, sess)
            log_training(sess, train_op, loss, weights, global_step, logdir, steps)
        files = hand_out_files(logdir)
    return {"steps": steps, "files": files, "graph": export_graph(graph), "writers": writers.count,
            "stray_files": cwd.left}
