"""Mutants of lesson 5: each is a misconception the lesson names."""
from tests.mutants import Mutant, edited_solution

edited = edited_solution(__name__)

MUTANTS = [
    edited("step_trainable", "global_step", "trainable-step",
           ("tf1.train.get_or_create_global_step()", 'tf1.Variable(0, name="global_step")')),
    Mutant("step_not_passed", "global_step", "step-never-counts", "global_step_solution", '''
        def make_train_op(loss, learning_rate):
            global_step = tf1.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
            return tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss), global_step
        '''),
    Mutant("restore_unchecked", "restore_or_initialize", "restore-without-checkpoint",
           "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            latest = tf.train.latest_checkpoint(ckpt_dir)
            saver.restore(sess, latest)
            return latest
        '''),
    Mutant("init_after_restore", "restore_or_initialize", "reinitialized-after-restore",
           "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            latest = tf.train.latest_checkpoint(ckpt_dir)
            if latest:
                saver.restore(sess, latest)
            sess.run(tf1.global_variables_initializer())
            return latest
        '''),
    Mutant("restore_oldest", "restore_or_initialize", "not-latest-checkpoint",
           "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            state = tf1.train.get_checkpoint_state(ckpt_dir)
            if state is None:
                sess.run(tf1.global_variables_initializer())
                return None
            path = state.all_model_checkpoint_paths[0]
            saver.restore(sess, path)
            return path
        '''),
    Mutant("renaming_new_names_as_keys", "renaming_saver", "keys-not-in-checkpoint", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            return tf1.train.Saver({v.op.name: v for v in tf1.global_variables(new_scope + "/")})
        '''),
    Mutant("renaming_by_position", "renaming_saver", "matched-by-position", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            names = [name for name, _ in tf.train.list_variables(ckpt_path) if name.startswith(old_scope + "/")]
            return tf1.train.Saver(dict(zip(names, tf1.global_variables(new_scope + "/"))))
        '''),
    edited("best_vs_previous", "best_keeper", "not-best-so-far",
           ('self.best = float("inf")', 'self.previous = float("inf")'),
           ("""if val_loss >= self.best:
            return False
        self.best = val_loss
        self.saver.save(sess, self.prefix, global_step=step)
        return True""", """improved = val_loss < self.previous
        self.previous = val_loss
        if improved:
            self.saver.save(sess, self.prefix, global_step=step)
        return improved""")),
    edited("best_default_max_to_keep", "best_keeper", "old-bests-kept", ("Saver(max_to_keep=1)", "Saver()")),
    edited("best_same_directory", "best_keeper", "shared-state-file",
           ('os.path.join(ckpt_dir, "best", "model")', 'os.path.join(ckpt_dir, "best")'), ("os.makedirs(", None)),
    edited("log_writer_not_closed", "log_training", "events-not-on-disk", ("writer.close()", None)),
    edited("log_without_step", "log_training", "summary-step",
           ("step = tf1.train.global_step(sess, global_step)", None),
           ("add_summary(summary, step)", "add_summary(summary)")),
    edited("log_scalar_only", "log_training", "missing-histogram",
           ("""tf1.summary.scalar("loss", loss)
    tf1.summary.histogram("weights", weights)
    merged = tf1.summary.merge_all()""", 'merged = tf1.summary.scalar("loss", loss)')),
]

# Hostile answers written for issue 12. Graded by the grader as it was before, most kept full marks;
# the others lost their points under another misconception than their own.
MUTANTS += [
    edited("step_int32", "global_step", "int32-step",
           ("tf1.train.get_or_create_global_step()", 'tf1.Variable(0, trainable=False, name="global_step")')),
    Mutant("restore_in_default_session", "restore_or_initialize", "default-session",
           "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            latest = tf.train.latest_checkpoint(ckpt_dir)
            if latest:
                saver.restore(sess, latest)
                return latest
            tf1.global_variables_initializer().run()
            return None
        '''),
    Mutant("restore_with_own_saver", "restore_or_initialize", "own-saver", "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            latest = tf.train.latest_checkpoint(ckpt_dir)
            if latest:
                tf1.train.Saver().restore(sess, latest)
                return latest
            sess.run(tf1.global_variables_initializer())
            return None
        '''),
    Mutant("restore_saves_initial_checkpoint", "restore_or_initialize", "writes-checkpoints",
           "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            latest = tf.train.latest_checkpoint(ckpt_dir)
            if latest:
                saver.restore(sess, latest)
                return latest
            sess.run(tf1.global_variables_initializer())
            saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=0)
            return None
        '''),
    Mutant("restore_returns_name_only", "restore_or_initialize", "not-latest-checkpoint",
           "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            latest = tf.train.latest_checkpoint(ckpt_dir)
            if latest:
                saver.restore(sess, latest)
                return os.path.basename(latest)
            sess.run(tf1.global_variables_initializer())
            return None
        '''),
    edited("renaming_prefix_without_slash", "renaming_saver", "sibling-scope",
           ("""if name.startswith(old_scope + "/"):
            mapping[name] = graph_vars[new_scope + "/" + name[len(old_scope) + 1:]]""",
            """if name.startswith(old_scope):
            new_name = new_scope + name[len(old_scope):]
            if new_name in graph_vars:
                mapping[name] = graph_vars[new_name]""")),
    Mutant("renaming_trainable_only", "renaming_saver", "trainable-only", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            mapping = {}
            for v in tf1.trainable_variables(new_scope + "/"):
                mapping[old_scope + v.op.name[len(new_scope):]] = v
            return tf1.train.Saver(mapping)
        '''),
    # the lookup among the trainable variables only: KeyError on a non-trainable one (dense/moving_mean)
    edited("renaming_lookup_trainable_only", "renaming_saver", "trainable-only",
           ("graph_vars = {v.op.name: v for v in tf1.global_variables()}",
            "graph_vars = {v.op.name: v for v in tf1.trainable_variables()}")),
    # replace() the other way: dense/subnet/dense/w becomes net/dense/subnet/net/dense/w, no name of
    # the checkpoint.
    Mutant("renaming_replace_everywhere", "renaming_saver", "keys-not-in-checkpoint", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            return tf1.train.Saver({v.op.name.replace(new_scope, old_scope): v
                                    for v in tf1.global_variables(new_scope + "/")})
        '''),
    edited("best_saves_ties", "best_keeper", "saves-on-tie", ("val_loss >= self.best", "val_loss > self.best")),
    edited("best_saver_per_save", "best_keeper", "saver-per-save",
           ("self.saver = tf1.train.Saver(max_to_keep=1)", None),
           ("self.saver.save(", "tf1.train.Saver(max_to_keep=1).save(")),
    edited("best_state_on_class", "best_keeper", "first-not-saved",
           ("class BestKeeper:\n", 'class BestKeeper:\n    best = float("inf")\n\n'),
           ('self.best = float("inf")', None),
           ("val_loss >= self.best", "val_loss >= BestKeeper.best"),
           ("self.best = val_loss", "BestKeeper.best = val_loss")),
    edited("log_writer_per_step", "log_training", "writer-per-step",
           ("writer = tf1.summary.FileWriter(logdir)", None),
           ("writer.add_summary(summary, step)",
            'writer = tf1.summary.FileWriter(logdir, filename_suffix=f".{step}")\n        writer.add_summary(summary, step)'),
           ("\n    writer.close()", "\n        writer.close()")),
    edited("log_summaries_built_per_step", "log_training", "summaries-per-step",
           ('tf1.summary.scalar("loss", loss)', None), ('tf1.summary.histogram("weights", weights)', None),
           ("merged = tf1.summary.merge_all()", None),
           ("for _ in range(steps):\n", """for _ in range(steps):
        merged = tf1.summary.merge([tf1.summary.scalar("loss", loss),
                                    tf1.summary.histogram("weights", weights)])
""")),
    edited("log_histogram_doubled", "log_training", "wrong-histogram-values",
           ('"weights", weights)', '"weights", weights * 2.0)')),
]

# train_resumable's mutants: the solution with a few lines changed.
MUTANTS += [
    edited("resumable_unseeded_init", "train_resumable", "not-reproducible",
           ("random_normal_initializer(stddev=0.5, seed=seed)", "random_normal_initializer(stddev=0.5)")),
    edited("resumable_loop_counter_batches", "train_resumable", "resume-differs",
           ("step, losses = tf1.train.global_step(sess, global_step), []",
            "step, losses = tf1.train.global_step(sess, global_step), []\n        i = 0"),
           ("len(losses) < crash_after", "i < crash_after"),
           ("RandomState([seed, step])", "RandomState([seed, i])"),
           ("losses.append(float(loss_value))", "losses.append(float(loss_value))\n            i += 1")),
    edited("resumable_default_max_to_keep", "train_resumable", "max-to-keep-ignored",
           ("saver = tf1.train.Saver(max_to_keep=max_to_keep)", "saver = tf1.train.Saver()")),
    edited("resumable_saver_per_save", "train_resumable", "saver-per-save",
           ("saver = tf1.train.Saver(max_to_keep=max_to_keep)", None),
           ("saver.restore(sess, latest)", "tf1.train.Saver().restore(sess, latest)"),
           ("saver.recover_last_checkpoints(", None),
           ("saver.save(sess,", "tf1.train.Saver(max_to_keep=max_to_keep).save(sess,")),
    edited("resumable_crash_by_global_step", "train_resumable", "crash-counts-global-steps",
           ("len(losses) < crash_after", "step < crash_after")),
    edited("resumable_step_in_python", "train_resumable", "step-not-in-checkpoint",
           ("global_step = tf1.train.get_or_create_global_step()", None),
           (".minimize(loss, global_step=global_step)", ".minimize(loss)"),
           ("saver.restore(sess, latest)", "saver.restore(sess, latest)\n            step = int(latest.rsplit('-', 1)[1])"),
           ("sess.run(tf1.global_variables_initializer())", "sess.run(tf1.global_variables_initializer())\n            step = 0"),
           ("step, losses = tf1.train.global_step(sess, global_step), []", "losses = []"),
           ("step = tf1.train.global_step(sess, global_step)\n", "step += 1\n")),
    edited("resumable_int32_step", "train_resumable", "int32-step",
           ("global_step = tf1.train.get_or_create_global_step()",
            'global_step = tf1.Variable(0, trainable=False, name="global_step")')),
    edited("resumable_batches_with_replacement", "train_resumable", "wrong-model",
           (".choice(64, 8, replace=False)", ".randint(0, 64, 8)")),
]

# Issue 25: answers that fit the public case and break in a situation the notebook's text covers.
MUTANTS += [
    edited("step_from_get_variable", "global_step", "trainable-step",  # get_variable's trainable defaults to True
           ("global_step = tf1.train.get_or_create_global_step()",
            'global_step = tf1.get_variable("global_step", [], tf.int64, initializer=tf1.zeros_initializer())')),
    edited("restore_from_savers_memory", "restore_or_initialize", "checkpoint-not-found",
           ("state = tf1.train.get_checkpoint_state(ckpt_dir)", None),
           ("if state and state.model_checkpoint_path:", "if saver.last_checkpoints:"),
           ("saver.restore(sess, state.model_checkpoint_path)", "saver.restore(sess, saver.last_checkpoints[-1])"),
           ("return state.model_checkpoint_path", "return saver.last_checkpoints[-1]")),
    edited("resumable_saves_without_step", "train_resumable", "max-to-keep-ignored",
           ('saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=step)',
            'saver.save(sess, os.path.join(ckpt_dir, "model"))')),
    edited("renaming_lstrip_scope", "renaming_saver", "names-rewritten-inside",
           ("name[len(old_scope) + 1:]", 'name.lstrip(old_scope + "/")')),
    # replace() renames the scope's name wherever it occurs, inside a variable's name too:
    # net/dense/subnet/dense/w becomes dense/subdense/w, which the graph does not hold.
    edited("renaming_replace_inside_names", "renaming_saver", "names-rewritten-inside",
           ('new_scope + "/" + name[len(old_scope) + 1:]', "name.replace(old_scope, new_scope)")),
    edited("best_saves_without_step", "best_keeper", "old-bests-kept",
           ("self.saver.save(sess, self.prefix, global_step=step)", "self.saver.save(sess, self.prefix)")),
    edited("log_loop_index_as_step", "log_training", "summary-step",
           ("        step = tf1.train.global_step(sess, global_step)\n", ""),
           ("for _ in range(steps):", "for step in range(steps):")),
]

# Issue 34: near misses. New bests by 1e-5 (six decimals) are new bests: no minimum improvement, no
# rounding.
MUTANTS += [
    edited("best_relative_min_delta", "best_keeper", "not-best-so-far",
           ("if val_loss >= self.best:", "if val_loss >= self.best * (1 - 1e-4):")),
    edited("best_rounded_losses", "best_keeper", "not-best-so-far",
           ("if val_loss >= self.best:", "if round(val_loss, 3) >= round(self.best, 3):")),
]

# Review of lesson 5: slips whose feedback named another misconception than their own.
MUTANTS += [
    # A writer per step, each closed, all in the same second: each truncates the last one's event file.
    edited("log_writer_per_step_closed", "log_training", "writer-per-step",
           ("writer = tf1.summary.FileWriter(logdir)", None),
           ("writer.add_summary(summary, step)",
            "writer = tf1.summary.FileWriter(logdir)\n        writer.add_summary(summary, step)"),
           ("\n    writer.close()", "\n        writer.close()")),
    edited("resumable_init_after_restore", "train_resumable", "reinitialized-after-restore",
           ("""        else:
            sess.run(tf1.global_variables_initializer())""", """        sess.run(tf1.global_variables_initializer())""")),
]

# The outside review of lesson 5: a resumed process's new Saver knows none of the crashed one's
# checkpoints, and max_to_keep never deletes them (section 4).
MUTANTS += [
    edited("resumable_without_recovery", "train_resumable", "crashed-checkpoints-kept",
           ("saver.recover_last_checkpoints(", None)),
]

# Review F of lesson 5 (issue 35): answers the public cases passed and the hidden ones took back, or
# that failed as [raised] or [wrong-model] without their misconception's name.
MUTANTS += [
    edited("restore_into_default_session", "restore_or_initialize", "default-session",
           ("saver.restore(sess, state.model_checkpoint_path)",
            "saver.restore(tf1.get_default_session(), state.model_checkpoint_path)")),
    edited("restore_default_session_or_sess", "restore_or_initialize", "default-session",
           ("state = tf1.train.get_checkpoint_state(ckpt_dir)",
            "s = tf1.get_default_session() or sess\n    state = tf1.train.get_checkpoint_state(ckpt_dir)"),
           ("saver.restore(sess,", "saver.restore(s,"),
           ("sess.run(tf1.global_variables_initializer())", "s.run(tf1.global_variables_initializer())")),
    # partition('/') cuts at the first '/': net/dense/kernel becomes dense/dense/kernel.
    edited("renaming_partition_scope", "renaming_saver", "names-rewritten-inside",
           ('new_scope + "/" + name[len(old_scope) + 1:]', 'new_scope + "/" + name.partition("/")[2]')),
    edited("resumable_loss_after_update", "train_resumable", "step-out-of-line",
           ("loss_value, _ = sess.run([loss, train_op], {x: x_data[rows], y: y_data[rows]})",
            "sess.run(train_op, {x: x_data[rows], y: y_data[rows]})\n"
            "            loss_value = sess.run(loss, {x: x_data[rows], y: y_data[rows]})")),
    edited("resumable_batch_of_next_step", "train_resumable", "step-out-of-line",
           ("RandomState([seed, step])", "RandomState([seed, step + 1])")),
]

# Second review of lesson 5 (issue 35, revI): answers the public cases passed and the hidden ones took back.
MUTANTS += [
    # Names compared as strings: 'model-9' > 'model-12'.
    edited("restore_largest_name", "restore_or_initialize", "not-latest-checkpoint",
           ("state.model_checkpoint_path:", "state.all_model_checkpoint_paths:"),
           ("saver.restore(sess, state.model_checkpoint_path)", "saver.restore(sess, max(state.all_model_checkpoint_paths))"),
           ("return state.model_checkpoint_path", "return max(state.all_model_checkpoint_paths)")),
    # A save at the last step as well: one checkpoint more than save_every makes when total_steps is
    # no multiple of it, and the oldest kept one is deleted for it.
    edited("resumable_saves_last_step", "train_resumable", "max-to-keep-ignored",
           ("if step % save_every == 0:", "if step % save_every == 0 or step == total_steps:")),
    # The crash tested before the save: a crash on a save step leaves that step unsaved.
    edited("resumable_crash_before_save", "train_resumable", "crash-save-skipped",
           ("            if step % save_every == 0:",
            "            if crash_after is not None and len(losses) == crash_after:\n"
            "                break\n"
            "            if step % save_every == 0:")),
    # A minimum improvement of 1e-4: a new best by 1e-5 is not saved.
    edited("best_min_delta", "best_keeper", "not-best-so-far",
           ("if val_loss >= self.best:", "if val_loss >= self.best - 1e-4:")),
]

# Review of lesson 5 (05-5b): a histogram of the variable reads w again, unordered with the update.
MUTANTS += [
    edited("log_histogram_of_variable", "log_training", "histogram-of-variable",
           ('tf1.summary.histogram("weights", weights)', 'tf1.summary.histogram("weights", tf1.trainable_variables()[0])')),
]

# Mutants the public case itself must catch: a check cell that says PASS to them would be taken back.
PUBLIC = {"best_saves_ties", "log_without_step", "log_loop_index_as_step", "renaming_prefix_without_slash",
          "renaming_trainable_only", "renaming_lookup_trainable_only", "log_writer_per_step_closed",
          "resumable_init_after_restore",
          "resumable_without_recovery", "resumable_crash_by_global_step", "restore_from_savers_memory",
          "restore_into_default_session", "restore_default_session_or_sess", "renaming_partition_scope",
          "renaming_replace_inside_names", "renaming_lstrip_scope", "resumable_loss_after_update",
          "resumable_batch_of_next_step", "restore_largest_name",
          "resumable_saves_last_step", "best_min_delta", "best_relative_min_delta", "best_rounded_losses",
          "resumable_crash_before_save", "log_histogram_of_variable", "renaming_replace_everywhere"}

# Phrases that would be false of a mutant: its feedback must not state them (issue 34).
NOT_CLAIMED = {
    "log_loop_index_as_step": ("without it every point lands on step 0",),
    "best_rounded_losses": ("compare each validation loss with the best seen so far, not with the previous one",),
    "best_min_delta": ("compare each validation loss with the best seen so far, not with the previous one",),
    "best_relative_min_delta": ("compare each validation loss with the best seen so far, not with the previous one",),
}
