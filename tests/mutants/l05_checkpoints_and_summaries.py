"""Mutants of lesson 5: each is a misconception the lesson names."""
from tests.mutants import Mutant

MUTANTS = [
    Mutant("step_trainable", "global_step", "trainable-step", "global_step_solution", '''
        def make_train_op(loss, learning_rate):
            global_step = tf1.Variable(0, name="global_step")
            optimizer = tf1.train.GradientDescentOptimizer(learning_rate)
            return optimizer.minimize(loss, global_step=global_step), global_step
        '''),
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
    Mutant("best_vs_previous", "best_keeper", "not-best-so-far", "best_keeper_solution", '''
        class BestKeeper:
            def __init__(self, ckpt_dir):
                self.prefix = os.path.join(ckpt_dir, "best", "model")
                os.makedirs(os.path.dirname(self.prefix), exist_ok=True)
                self.saver = tf1.train.Saver(max_to_keep=1)
                self.previous = float("inf")

            def update(self, sess, val_loss, step):
                improved = val_loss < self.previous
                self.previous = val_loss
                if improved:
                    self.saver.save(sess, self.prefix, global_step=step)
                return improved
        '''),
    Mutant("best_default_max_to_keep", "best_keeper", "old-bests-kept", "best_keeper_solution", '''
        class BestKeeper:
            def __init__(self, ckpt_dir):
                self.prefix = os.path.join(ckpt_dir, "best", "model")
                os.makedirs(os.path.dirname(self.prefix), exist_ok=True)
                self.saver = tf1.train.Saver()
                self.best = float("inf")

            def update(self, sess, val_loss, step):
                if val_loss >= self.best:
                    return False
                self.best = val_loss
                self.saver.save(sess, self.prefix, global_step=step)
                return True
        '''),
    Mutant("best_same_directory", "best_keeper", "shared-state-file", "best_keeper_solution", '''
        class BestKeeper:
            def __init__(self, ckpt_dir):
                self.prefix = os.path.join(ckpt_dir, "best")
                self.saver = tf1.train.Saver(max_to_keep=1)
                self.best = float("inf")

            def update(self, sess, val_loss, step):
                if val_loss >= self.best:
                    return False
                self.best = val_loss
                self.saver.save(sess, self.prefix, global_step=step)
                return True
        '''),
    Mutant("log_writer_not_closed", "log_training", "events-not-on-disk", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            tf1.summary.scalar("loss", loss)
            tf1.summary.histogram("weights", weights)
            merged = tf1.summary.merge_all()
            writer = tf1.summary.FileWriter(logdir)
            for _ in range(steps):
                step = tf1.train.global_step(sess, global_step)
                summary, _ = sess.run([merged, train_op])
                writer.add_summary(summary, step)
        '''),
    Mutant("log_without_step", "log_training", "summary-step", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            tf1.summary.scalar("loss", loss)
            tf1.summary.histogram("weights", weights)
            merged = tf1.summary.merge_all()
            writer = tf1.summary.FileWriter(logdir)
            for _ in range(steps):
                summary, _ = sess.run([merged, train_op])
                writer.add_summary(summary)
            writer.close()
        '''),
    Mutant("log_scalar_only", "log_training", "missing-histogram", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            merged = tf1.summary.scalar("loss", loss)
            writer = tf1.summary.FileWriter(logdir)
            for _ in range(steps):
                step = tf1.train.global_step(sess, global_step)
                summary, _ = sess.run([merged, train_op])
                writer.add_summary(summary, step)
            writer.close()
        '''),
]

# Hostile answers written for issue 12. Graded by the grader as it was before, most kept full marks;
# the others lost their points under another misconception than their own.
MUTANTS += [
    Mutant("step_int32", "global_step", "int32-step", "global_step_solution", '''
        def make_train_op(loss, learning_rate):
            global_step = tf1.Variable(0, trainable=False, name="global_step")
            optimizer = tf1.train.GradientDescentOptimizer(learning_rate)
            return optimizer.minimize(loss, global_step=global_step), global_step
        '''),
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
    Mutant("renaming_prefix_without_slash", "renaming_saver", "sibling-scope", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            graph_vars = {v.op.name: v for v in tf1.global_variables()}
            mapping = {}
            for name, _ in tf.train.list_variables(ckpt_path):
                if name.startswith(old_scope):
                    new_name = new_scope + name[len(old_scope):]
                    if new_name in graph_vars:
                        mapping[name] = graph_vars[new_name]
            return tf1.train.Saver(mapping)
        '''),
    Mutant("renaming_trainable_only", "renaming_saver", "trainable-only", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            mapping = {}
            for v in tf1.trainable_variables(new_scope + "/"):
                mapping[old_scope + v.op.name[len(new_scope):]] = v
            return tf1.train.Saver(mapping)
        '''),
    Mutant("renaming_replace_everywhere", "renaming_saver", "keys-not-in-checkpoint", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            return tf1.train.Saver({v.op.name.replace(new_scope, old_scope): v
                                    for v in tf1.global_variables(new_scope + "/")})
        '''),
    Mutant("best_saves_ties", "best_keeper", "saves-on-tie", "best_keeper_solution", '''
        class BestKeeper:
            def __init__(self, ckpt_dir):
                self.prefix = os.path.join(ckpt_dir, "best", "model")
                os.makedirs(os.path.dirname(self.prefix), exist_ok=True)
                self.saver = tf1.train.Saver(max_to_keep=1)
                self.best = float("inf")

            def update(self, sess, val_loss, step):
                if val_loss > self.best:
                    return False
                self.best = val_loss
                self.saver.save(sess, self.prefix, global_step=step)
                return True
        '''),
    Mutant("best_saver_per_save", "best_keeper", "saver-per-save", "best_keeper_solution", '''
        class BestKeeper:
            def __init__(self, ckpt_dir):
                self.prefix = os.path.join(ckpt_dir, "best", "model")
                os.makedirs(os.path.dirname(self.prefix), exist_ok=True)
                self.best = float("inf")

            def update(self, sess, val_loss, step):
                if val_loss >= self.best:
                    return False
                self.best = val_loss
                tf1.train.Saver(max_to_keep=1).save(sess, self.prefix, global_step=step)
                return True
        '''),
    Mutant("best_state_on_class", "best_keeper", "first-not-saved", "best_keeper_solution", '''
        class BestKeeper:
            best = float("inf")

            def __init__(self, ckpt_dir):
                self.prefix = os.path.join(ckpt_dir, "best", "model")
                os.makedirs(os.path.dirname(self.prefix), exist_ok=True)
                self.saver = tf1.train.Saver(max_to_keep=1)

            def update(self, sess, val_loss, step):
                if val_loss >= BestKeeper.best:
                    return False
                BestKeeper.best = val_loss
                self.saver.save(sess, self.prefix, global_step=step)
                return True
        '''),
    Mutant("log_writer_per_step", "log_training", "writer-per-step", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            tf1.summary.scalar("loss", loss)
            tf1.summary.histogram("weights", weights)
            merged = tf1.summary.merge_all()
            for _ in range(steps):
                step = tf1.train.global_step(sess, global_step)
                summary, _ = sess.run([merged, train_op])
                writer = tf1.summary.FileWriter(logdir, filename_suffix=f".{step}")
                writer.add_summary(summary, step)
                writer.close()
        '''),
    Mutant("log_summaries_built_per_step", "log_training", "summaries-per-step", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            writer = tf1.summary.FileWriter(logdir)
            for _ in range(steps):
                merged = tf1.summary.merge([tf1.summary.scalar("loss", loss),
                                            tf1.summary.histogram("weights", weights)])
                step = tf1.train.global_step(sess, global_step)
                summary, _ = sess.run([merged, train_op])
                writer.add_summary(summary, step)
            writer.close()
        '''),
    Mutant("log_histogram_doubled", "log_training", "wrong-histogram-values", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            tf1.summary.scalar("loss", loss)
            tf1.summary.histogram("weights", weights * 2.0)
            merged = tf1.summary.merge_all()
            writer = tf1.summary.FileWriter(logdir)
            for _ in range(steps):
                step = tf1.train.global_step(sess, global_step)
                summary, _ = sess.run([merged, train_op])
                writer.add_summary(summary, step)
            writer.close()
        '''),
]

# train_resumable's mutants: the solution's code with a few lines changed, each edit (old, new) once.
_RESUMABLE = '''
        def train_resumable(ckpt_dir, seed, total_steps, save_every, max_to_keep, crash_after=None):
            data_rng = np.random.RandomState(seed)
            x_data = data_rng.randn(64, 3).astype(np.float32)
            y_data = (x_data @ np.array([[1.5], [-2.0], [0.5]]) + 0.3 + 0.1 * data_rng.randn(64, 1)).astype(np.float32)
            x = tf1.placeholder(tf.float32, [None, 3])
            y = tf1.placeholder(tf.float32, [None, 1])
            w = tf1.get_variable("w", [3, 1], initializer=tf1.random_normal_initializer(stddev=0.5, seed=seed))
            b = tf1.get_variable("b", [1], initializer=tf1.zeros_initializer())
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
            global_step = tf1.train.get_or_create_global_step()
            train_op = tf1.train.MomentumOptimizer(0.05, 0.9).minimize(loss, global_step=global_step)
            saver = tf1.train.Saver(max_to_keep=max_to_keep)
            with tf1.Session() as sess:
                latest = tf.train.latest_checkpoint(ckpt_dir)
                if latest:
                    saver.restore(sess, latest)
                else:
                    sess.run(tf1.global_variables_initializer())
                step, losses = tf1.train.global_step(sess, global_step), []
                while step < total_steps and (crash_after is None or len(losses) < crash_after):
                    rows = np.random.RandomState([seed, step]).choice(64, 8, replace=False)
                    loss_value, _ = sess.run([loss, train_op], {x: x_data[rows], y: y_data[rows]})
                    losses.append(float(loss_value))
                    step = tf1.train.global_step(sess, global_step)
                    if step % save_every == 0:
                        saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=step)
                w_value, b_value = sess.run([w, b])
            return {"step": step, "w": w_value, "b": b_value, "losses": losses}
        '''


def _resumable(name, misconception, *edits):
    """The solution with each `old` text replaced by `new`; an empty `new` deletes old's whole line."""
    source = _RESUMABLE
    for old, new in edits:
        assert source.count(old) == 1, (name, old)
        if new:
            source = source.replace(old, new)
        else:
            source = "\n".join(line for line in source.split("\n") if old not in line)
    return Mutant(name, "train_resumable", misconception, "train_resumable_solution", source)


MUTANTS += [
    _resumable("resumable_unseeded_init", "not-reproducible",
               ("random_normal_initializer(stddev=0.5, seed=seed)", "random_normal_initializer(stddev=0.5)")),
    _resumable("resumable_loop_counter_batches", "resume-differs",
               ("step, losses = tf1.train.global_step(sess, global_step), []",
                "step, losses = tf1.train.global_step(sess, global_step), []\n                i = 0"),
               ("len(losses) < crash_after", "i < crash_after"),
               ("RandomState([seed, step])", "RandomState([seed, i])"),
               ("losses.append(float(loss_value))", "losses.append(float(loss_value))\n                    i += 1")),
    _resumable("resumable_default_max_to_keep", "max-to-keep-ignored",
               ("saver = tf1.train.Saver(max_to_keep=max_to_keep)", "saver = tf1.train.Saver()")),
    _resumable("resumable_saver_per_save", "saver-per-save",
               ("saver = tf1.train.Saver(max_to_keep=max_to_keep)", ""),
               ("saver.restore(sess, latest)", "tf1.train.Saver().restore(sess, latest)"),
               ("saver.save(sess,", "tf1.train.Saver(max_to_keep=max_to_keep).save(sess,")),
    _resumable("resumable_crash_by_global_step", "crash-counts-global-steps",
               ("len(losses) < crash_after", "step < crash_after")),
    _resumable("resumable_step_in_python", "step-not-in-checkpoint",
               ("global_step = tf1.train.get_or_create_global_step()", ""),
               (".minimize(loss, global_step=global_step)", ".minimize(loss)"),
               ("saver.restore(sess, latest)", "saver.restore(sess, latest)\n                    step = int(latest.rsplit('-', 1)[1])"),
               ("sess.run(tf1.global_variables_initializer())", "sess.run(tf1.global_variables_initializer())\n                    step = 0"),
               ("step, losses = tf1.train.global_step(sess, global_step), []", "losses = []"),
               ("step = tf1.train.global_step(sess, global_step)\n", "step += 1\n")),
    _resumable("resumable_int32_step", "int32-step",
               ("global_step = tf1.train.get_or_create_global_step()",
                'global_step = tf1.Variable(0, trainable=False, name="global_step")')),
    _resumable("resumable_batches_with_replacement", "wrong-model",
               (".choice(64, 8, replace=False)", ".randint(0, 64, 8)")),
]
