"""The probes' helpers, run in this process: counting calls, dtypes, files left behind."""
import os

import numpy as np

from autograder.inkernel.probing import CallCounter, FreshDirectory, dtype_name, sessions_made


def test_call_counter_counts_inside_the_block_and_restores():
    class Box:
        def make(self):
            return "made"

    original = Box.__dict__["make"]
    with CallCounter(Box, "make") as calls:
        assert Box().make() == "made" and Box().make() == "made"
    Box().make()
    assert calls.count == 2 and Box.__dict__["make"] is original


def test_sessions_made_counts_each_session():
    import tensorflow as tf

    with tf.Graph().as_default():
        with sessions_made() as made:
            tf.compat.v1.Session().close()
            tf.compat.v1.Session().close()
    assert made.count == 2


def test_dtype_names():
    import tensorflow as tf

    assert dtype_name(np.zeros(2, np.float64)) == "float64"
    assert dtype_name(np.int64(3)) == "int64"
    assert dtype_name(tf.constant(1, tf.int32)) == "int32"
    assert dtype_name(1.5) == "float" and dtype_name([1]) == "list"


def test_fresh_directory_lists_what_was_left_and_cleans_up():
    before = os.getcwd()
    with FreshDirectory() as where:
        os.makedirs("ckpt")
        open("ckpt/model.index", "w").close()
        open("notes.txt", "w").close()
    assert where.left == ["ckpt/model.index", "notes.txt"]
    assert os.getcwd() == before and not os.path.exists(where.path)


def test_sessions_opened_keeps_the_sessions_and_session_runs_counts_runs():
    import tensorflow as tf

    from autograder.inkernel.probing import session_runs, sessions_opened

    with tf.Graph().as_default():
        one = tf.constant(1.0)
        with sessions_opened() as made, session_runs() as runs:
            sess = tf.compat.v1.Session()
            sess.run(one)
            with sess.as_default():
                one.eval()
    assert made.count == 1 and made.instances == [sess]
    assert runs.count == 2
    sess.close()


def test_after_reset_runs_the_initializer_in_the_one_session():
    import tensorflow as tf

    from autograder.inkernel.probing import after_reset, graph_variables

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        total = tf1.Variable(0.0, name="total")
        bump = total.assign_add(2.0)
        sess = tf1.Session()
        sess.run(total.initializer)
        sess.run(bump)
        assert graph_variables(graph) == [total]
        assert after_reset([sess], [total], lambda: float(sess.run(bump))) == 2.0
        assert after_reset([sess, sess], [total], lambda: 0) is None
        sess.close()
        assert after_reset([sess], [total], lambda: 0) == "RuntimeError"
