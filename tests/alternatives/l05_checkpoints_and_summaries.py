"""Valid alternative answers for lesson 5: each keeps its exercise's full marks."""
from tests.alternatives import Alternative

ALTERNATIVES = [
    Alternative("step_variable_of_my_own", "global_step", "global_step_solution", '''
        def make_train_op(loss, learning_rate):
            step = tf1.Variable(0, trainable=False, dtype=tf.int64, name="step")
            train = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step=step)
            return train, step
        '''),
    Alternative("step_apply_gradients", "global_step", "global_step_solution", '''
        def make_train_op(loss, learning_rate):
            counter = tf1.get_variable("global_step", [], tf.int64, initializer=tf1.zeros_initializer(),
                                       trainable=False)
            optimizer = tf1.train.GradientDescentOptimizer(learning_rate)
            grads_and_vars = optimizer.compute_gradients(loss)
            return optimizer.apply_gradients(grads_and_vars, global_step=counter), counter
        '''),
    Alternative("restore_latest_checkpoint", "restore_or_initialize", "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            path = tf.train.latest_checkpoint(ckpt_dir)
            if path is None:
                sess.run(tf1.global_variables_initializer())
            else:
                saver.restore(sess, path)
            return path
        '''),
    Alternative("restore_last_listed", "restore_or_initialize", "restore_or_initialize_solution", '''
        def restore_or_initialize(sess, saver, ckpt_dir):
            ckpt = tf1.train.get_checkpoint_state(ckpt_dir)
            if not ckpt or not ckpt.all_model_checkpoint_paths:
                init = tf1.global_variables_initializer()
                sess.run(init)
                return None
            newest = ckpt.all_model_checkpoint_paths[-1]
            saver.restore(sess, newest)
            return newest
        '''),
    Alternative("resumable_for_loop_own_step", "train_resumable", "train_resumable_solution", '''
        def train_resumable(ckpt_dir, seed, total_steps, save_every, max_to_keep, crash_after=None):
            rng = np.random.RandomState(seed)
            xs = rng.randn(64, 3).astype(np.float32)
            noise = 0.1 * rng.randn(64, 1)
            ys = (xs @ np.array([[1.5], [-2.0], [0.5]]) + 0.3 + noise).astype(np.float32)
            x_in = tf1.placeholder(tf.float32, [None, 3], name="x_in")
            y_in = tf1.placeholder(tf.float32, [None, 1], name="y_in")
            w = tf1.get_variable("w", [3, 1], initializer=tf1.random_normal_initializer(stddev=0.5, seed=seed))
            b = tf1.get_variable("b", [1], initializer=tf1.zeros_initializer())
            mse = tf1.losses.mean_squared_error(y_in, tf.matmul(x_in, w) + b)
            step_var = tf1.Variable(0, trainable=False, dtype=tf.int64, name="global_step")
            optimizer = tf1.train.MomentumOptimizer(learning_rate=0.05, momentum=0.9)
            train = optimizer.minimize(mse, global_step=step_var)
            saver = tf1.train.Saver(max_to_keep=max_to_keep)
            sess = tf1.Session()
            ckpt = tf1.train.get_checkpoint_state(ckpt_dir)
            if ckpt and ckpt.model_checkpoint_path:
                saver.restore(sess, ckpt.model_checkpoint_path)
                saver.recover_last_checkpoints(ckpt.all_model_checkpoint_paths)
            else:
                sess.run(tf1.global_variables_initializer())
            losses = []
            ran = 0
            for _ in range(total_steps):
                step = int(sess.run(step_var))
                if step >= total_steps or (crash_after is not None and ran == crash_after):
                    break
                batch = np.random.RandomState([seed, step]).choice(64, 8, replace=False)
                value, _ = sess.run([mse, train], feed_dict={x_in: xs[batch], y_in: ys[batch]})
                losses.append(value)
                ran += 1
                if (step + 1) % save_every == 0:
                    saver.save(sess, ckpt_dir + "/model", global_step=step + 1)
            result = {"step": int(sess.run(step_var)), "w": sess.run(w), "b": sess.run(b), "losses": losses}
            sess.close()
            return result
        '''),
    Alternative("resumable_apply_gradients_while_true", "train_resumable", "train_resumable_solution", '''
        def train_resumable(ckpt_dir, seed, total_steps, save_every, max_to_keep, crash_after=None):
            generator = np.random.RandomState(seed)
            x_data = np.float32(generator.randn(64, 3))
            true_w = np.array([1.5, -2.0, 0.5]).reshape(3, 1)
            y_data = np.float32(np.dot(x_data, true_w) + 0.3 + 0.1 * generator.randn(64, 1))
            x = tf1.placeholder(tf.float32, [None, 3])
            y = tf1.placeholder(tf.float32, [None, 1])
            with tf1.variable_scope("model"):
                w = tf1.get_variable("w", [3, 1], initializer=tf1.random_normal_initializer(stddev=0.5, seed=seed))
                b = tf1.get_variable("b", [1], initializer=tf1.zeros_initializer())
            loss = tf.reduce_mean((tf.matmul(x, w) + b - y) ** 2)
            global_step = tf1.train.get_or_create_global_step()
            opt = tf1.train.MomentumOptimizer(0.05, 0.9)
            train_op = opt.apply_gradients(opt.compute_gradients(loss), global_step=global_step)
            saver = tf1.train.Saver(max_to_keep=max_to_keep)
            losses = []
            with tf1.Session() as sess:
                latest = tf.train.latest_checkpoint(ckpt_dir)
                if latest is not None:
                    saver.restore(sess, latest)
                    kept = tf1.train.get_checkpoint_state(ckpt_dir).all_model_checkpoint_paths
                    saver.set_last_checkpoints_with_time([(path, 0.0) for path in kept])
                else:
                    sess.run(tf1.global_variables_initializer())
                while True:
                    step = sess.run(global_step)
                    if step >= total_steps or (crash_after is not None and len(losses) >= crash_after):
                        break
                    picker = np.random.RandomState([seed, int(step)])
                    rows = picker.choice(64, size=8, replace=False)
                    _, loss_value = sess.run([train_op, loss], {x: x_data[rows], y: y_data[rows]})
                    losses.append(loss_value)
                    new_step = sess.run(global_step)
                    if new_step % save_every == 0:
                        saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=global_step)
                return {"step": sess.run(global_step), "w": sess.run(w), "b": sess.run(b), "losses": losses}
        '''),
    Alternative("renaming_from_graph_variables", "renaming_saver", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            prefix = new_scope + "/"
            return tf1.train.Saver({old_scope + "/" + v.op.name[len(prefix):]: v
                                    for v in tf1.global_variables() if v.op.name.startswith(prefix)})
        '''),
    Alternative("renaming_with_reuse", "renaming_saver", "renaming_saver_solution", '''
        def build_renaming_saver(ckpt_path, old_scope, new_scope):
            in_checkpoint = [name for name, shape in tf.train.list_variables(ckpt_path)
                             if name.split("/")[:len(old_scope.split("/"))] == old_scope.split("/")]
            var_list = {}
            with tf1.variable_scope(new_scope, reuse=True):
                for name in in_checkpoint:
                    var_list[name] = tf1.get_variable(name[len(old_scope) + 1:])
            return tf1.train.Saver(var_list=var_list)
        '''),
    Alternative("best_starts_at_none", "best_keeper", "best_keeper_solution", '''
        class BestKeeper:
            def __init__(self, ckpt_dir):
                self.best_dir = os.path.join(ckpt_dir, "best")
                if not os.path.exists(self.best_dir):
                    os.mkdir(self.best_dir)
                self.saver = tf1.train.Saver(max_to_keep=1)
                self.best_loss = None

            def update(self, sess, val_loss, step):
                if self.best_loss is None or val_loss < self.best_loss:
                    self.best_loss = val_loss
                    self.saver.save(sess, os.path.join(self.best_dir, "model"), global_step=step)
                    return True
                return False
        '''),
    Alternative("best_from_history", "best_keeper", "best_keeper_solution", '''
        class BestKeeper:
            def __init__(self, ckpt_dir):
                tf.io.gfile.makedirs(ckpt_dir + "/best")
                self.path = ckpt_dir + "/best/model"
                self.best_saver = tf1.train.Saver(max_to_keep=1)
                self.history = []

            def update(self, sess, val_loss, step):
                is_best = all(val_loss < earlier for earlier in self.history)
                self.history.append(val_loss)
                if is_best:
                    self.best_saver.save(sess, self.path, global_step=step, write_meta_graph=False)
                return is_best
        '''),
    Alternative("log_merge_list_and_flush", "log_training", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            with tf.name_scope("summaries"):
                loss_summary = tf1.summary.scalar("loss", loss)
                weights_summary = tf1.summary.histogram("weights", weights)
            merged = tf1.summary.merge([loss_summary, weights_summary])
            writer = tf1.summary.FileWriter(logdir, sess.graph)
            for i in range(steps):
                current = sess.run(global_step)
                summary_bytes, _ = sess.run([merged, train_op])
                writer.add_summary(summary_bytes, global_step=current)
            writer.flush()
        '''),
    Alternative("log_writer_as_context", "log_training", "log_training_solution", '''
        def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
            tf1.summary.scalar("loss", loss)
            tf1.summary.histogram("weights", weights)
            summaries = tf1.summary.merge_all()
            with tf1.summary.FileWriter(logdir) as writer:
                step = 0
                while step < steps:
                    at = tf1.train.global_step(sess, global_step)
                    results = sess.run({"summary": summaries, "train": train_op})
                    writer.add_summary(results["summary"], at)
                    step += 1
        '''),
]
