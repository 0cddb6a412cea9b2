"""Alternative correct answers for lesson 4, written from the released notebook alone."""
from tests.alternatives import Alternative

ALTERNATIVES = [
    Alternative("sync_full_names_and_tf1_assign", "sync_op", "sync_op_solution", '''
        def make_sync_op(src_scope, dst_scope):
            # names with ":0", stripped of "scope/"; ValueError for both errors
            dst_by_name = {}
            for v in tf1.get_collection(tf1.GraphKeys.GLOBAL_VARIABLES, scope=dst_scope + "/"):
                dst_by_name[v.name[len(dst_scope) + 1:]] = v
            ops = []
            for v in tf1.get_collection(tf1.GraphKeys.TRAINABLE_VARIABLES, scope=src_scope + "/"):
                key = v.name[len(src_scope) + 1:]
                partner = dst_by_name.get(key)
                if partner is None:
                    raise ValueError("no partner for " + v.name)
                if v.get_shape().as_list() != partner.get_shape().as_list():
                    raise ValueError("shape mismatch for " + v.name)
                ops.append(tf1.assign(partner, v))
            return tf.group(ops)
        '''),
    Alternative("sync_checks_first_then_builds", "sync_op", "sync_op_solution", '''
        def make_sync_op(src_scope, dst_scope):
            def relative(v, scope):
                return v.op.name.replace(scope + "/", "", 1)

            src_vars = tf1.trainable_variables(scope=src_scope + "/")
            dst_vars = {relative(v, dst_scope): v for v in tf1.global_variables(scope=dst_scope + "/")}
            pairs = []
            for s in src_vars:
                try:
                    d = dst_vars[relative(s, src_scope)]
                except KeyError:
                    raise KeyError(f"{s.op.name}: no such variable in {dst_scope}") from None
                if not s.shape == d.shape:
                    raise ValueError(f"{s.op.name}: shape {s.shape} vs {d.shape}")
                pairs.append((s, d))
            with tf.name_scope("sync"):
                return tf.group(*[d.assign(s) for s, d in pairs])
        '''),
    Alternative("copy_lambda_getter", "current_and_past", "current_and_past_solution", '''
        def build_current_and_past(net_fn, x):
            with tf1.variable_scope("current"):
                current_out = net_fn(x)
            with tf1.variable_scope("past", custom_getter=lambda getter, *a, **kw: tf.stop_gradient(getter(*a, **kw))):
                past_out = net_fn(x)
            return current_out, past_out
        '''),
    Alternative("copy_getter_updates_kwargs_auto_reuse", "current_and_past", "current_and_past_solution", '''
        def frozen_getter(getter, *args, **kwargs):
            kwargs.update(trainable=False)
            variable = getter(*args, **kwargs)
            return tf.stop_gradient(variable)

        def build_current_and_past(net_fn, x):
            outputs = {}
            for scope, getter in (("current", None), ("past", frozen_getter)):
                with tf1.variable_scope(scope, custom_getter=getter, reuse=tf1.AUTO_REUSE):
                    outputs[scope] = net_fn(x)
            return outputs["current"], outputs["past"]
        '''),
    Alternative("trainer_reuses_exercises_1_and_2", "lagged_trainer", "lagged_trainer_solution", '''
        class LaggedTrainer:
            def __init__(self, net_fn, n_in, n_out, learning_rate):
                self.inputs = tf1.placeholder(tf.float32, shape=(None, n_in))
                self.targets = tf1.placeholder(tf.float32, shape=(None, n_out))
                self.current_out, self.past_out = build_current_and_past(net_fn, self.inputs)
                self.sync_op = make_sync_op("current", "past")
                loss = tf.reduce_mean(tf.square(self.current_out - self.targets))
                self.train_op = tf1.train.GradientDescentOptimizer(learning_rate).minimize(
                    loss, var_list=tf1.trainable_variables("current/"))
                self.sess = tf1.Session()
                self.sess.run(tf1.global_variables_initializer())
                self.sess.run(self.sync_op)

            def step(self, x, y):
                outputs = self.sess.run((self.current_out, self.past_out), feed_dict={self.inputs: x})
                self.sess.run(self.sync_op)
                self.sess.run(self.train_op, feed_dict={self.inputs: x, self.targets: y})
                return outputs
        '''),
    Alternative("trainer_control_dependencies", "lagged_trainer", "lagged_trainer_solution", '''
        class LaggedTrainer:
            def __init__(self, net_fn, n_in, n_out, learning_rate):
                def getter(getter, name, *args, **kwargs):
                    kwargs["trainable"] = False
                    return tf.stop_gradient(getter(name, *args, **kwargs))

                self.x = tf1.placeholder(tf.float32, [None, n_in])
                self.y = tf1.placeholder(tf.float32, [None, n_out])
                with tf1.variable_scope("current") as scope:
                    self.current = net_fn(self.x)
                with tf1.variable_scope("past", custom_getter=getter):
                    self.past = net_fn(self.x)
                mine = tf1.get_collection(tf1.GraphKeys.TRAINABLE_VARIABLES, scope.name + "/")
                theirs = {v.op.name.split("/", 1)[1]: v for v in tf1.global_variables("past/")}
                self.sync = tf.group(*[theirs[v.op.name.split("/", 1)[1]].assign(v) for v in mine])
                optimizer = tf1.train.GradientDescentOptimizer(learning_rate)
                grads = optimizer.compute_gradients(tf.reduce_mean(tf.square(self.current - self.y)), var_list=mine)
                with tf.control_dependencies([self.sync]):
                    self.sync_then_train = optimizer.apply_gradients(grads)
                self.sess = tf1.Session()
                self.sess.run(tf1.global_variables_initializer())
                self.sess.run(self.sync)

            def step(self, x, y):
                c, p = self.sess.run([self.current, self.past], {self.x: x})
                self.sess.run(self.sync_then_train, {self.x: x, self.y: y})
                return c, p
        '''),
    Alternative("soft_assign_sub_gap", "soft_update", "soft_update_solution", '''
        def make_soft_update_op(pairs, tau):
            updates = []
            for src, tgt in pairs:
                updates.append(tgt.assign_sub(tau * (tgt - src)))
            return tf.group(updates)
        '''),
    Alternative("soft_tf1_assign_no_op_group", "soft_update", "soft_update_solution", '''
        def make_soft_update_op(pairs, tau):
            assigns = [tf1.assign(t, t + tau * (s - t)) for s, t in pairs]
            with tf.control_dependencies(assigns):
                return tf.no_op(name="soft_update")
        '''),
    Alternative("polyak_map_structure_assign", "polyak_update", "polyak_update_solution", '''
        def polyak_update(target, source, tau):
            tf.nest.assert_same_structure(target, source)
            tf.nest.map_structure(lambda t, s: t.assign(tau * s + (1 - tau) * t), target, source)
        '''),
    Alternative("polyak_own_structure_walk", "polyak_update", "polyak_update_solution", '''
        def _pairs(t, s):
            if isinstance(t, dict):
                if not isinstance(s, dict) or set(t) != set(s):
                    raise ValueError("the dicts have different keys")
                for k in t:
                    yield from _pairs(t[k], s[k])
            elif isinstance(t, (list, tuple)):
                if not isinstance(s, (list, tuple)) or len(t) != len(s):
                    raise ValueError("the lists differ")
                for a, b in zip(t, s):
                    yield from _pairs(a, b)
            elif isinstance(s, (dict, list, tuple)):
                raise TypeError("a variable against a structure")
            else:
                yield t, s

        def polyak_update(target, source, tau):
            pairs = list(_pairs(target, source))  # every check before the first assign
            for t, s in pairs:
                t.assign_sub(tau * (t - s))
        '''),
]
