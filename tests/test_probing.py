"""The probes' helpers, run in this process: counting calls, dtypes, files left behind."""
import os

import numpy as np

from autograder.inkernel.probing import (MAX_FILES_BYTES, CallCounter, FreshDirectory, RunsRecorded, dtype_name,
                                         hand_out_files, sessions_made)


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


def test_runs_recorded_tells_a_graph_answer_from_a_numpy_one_beside_a_run():
    import tensorflow as tf

    tf1 = tf.compat.v1
    x = np.array([0.1, 0.5, 0.9], np.float32)
    with tf.Graph().as_default():
        x_t, threshold = tf1.placeholder(tf.float32, [None]), tf1.placeholder(tf.float32, [])
        output = x_t >= threshold
        with tf1.Session() as sess, RunsRecorded() as runs:
            from_graph = sess.run({"out": [output]}, feed_dict={x_t: x, threshold: 0.5})["out"][0]
            sess.run(threshold, {threshold: 0.5})   # a run for show
            from_numpy = x > 0.5                    # a wrong answer, never fetched
    assert runs.count == 2
    assert runs.returned(from_graph, fed=x) and runs.returned(from_graph.tolist(), fed=x.tolist())
    assert not runs.returned(from_numpy, fed=x)
    assert not runs.returned(np.array(0.5, np.float32), fed=x)  # fetched, but by a run not fed x


def test_an_answer_fed_back_into_a_run_fed_x_is_not_from_the_graph():
    """Issue 33's forgery: compare in NumPy, feed the answer to a placeholder in a run also fed x, and
    fetch it again. The run returned the answer, but the graph did not compute it."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    x = np.array([0.1, 0.5, 0.9], np.float32)
    with tf.Graph().as_default():
        x_t, threshold = tf1.placeholder(tf.float32, [None]), tf1.placeholder(tf.float32, [])
        carrier = tf1.placeholder(tf.float32, [None])
        output = x_t >= threshold
        with tf1.Session() as sess, RunsRecorded() as runs:
            from_numpy = x >= 0.5
            laundered = sess.run([output, tf.cast(carrier, tf.bool)], {x_t: x, threshold: 0.7,
                                                                       carrier: from_numpy.astype(np.float32)})[1]
        with tf1.Session() as sess, RunsRecorded() as honest:  # x that holds the answer's values is fine
            ones = np.array([1.0, 0.0, 1.0], np.float32)
            answer = sess.run(output, {x_t: ones, threshold: 0.5})
    assert (laundered == from_numpy).all() and not runs.returned(laundered, fed=x)
    assert honest.returned(answer, fed=ones)


def test_dtype_names():
    import tensorflow as tf

    assert dtype_name(np.zeros(2, np.float64)) == "float64"
    assert dtype_name(np.int64(3)) == "int64"
    assert dtype_name(tf.constant(1, tf.int32)) == "int32"
    assert dtype_name(1.5) == "float" and dtype_name([1]) == "list"


def test_a_dtype_is_what_numpy_finds_not_what_an_object_declares():
    class Liar:
        dtype = np.dtype("float32")

        def __array__(self, dtype=None, copy=None):
            return np.zeros(2, np.float64)

    assert dtype_name(Liar()) == "float64"


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


def test_a_callable_made_by_make_callable_counts_as_a_run():
    """`session.make_callable(fetches)()` runs the graph once without `Session.run` (issue 33)."""
    import tensorflow as tf

    from autograder.inkernel.probing import session_runs

    with tf.Graph().as_default():
        tensors = [tf.constant(1.0), tf.constant(2.0)]
        with tf.compat.v1.Session() as sess, session_runs() as runs:
            values = sess.make_callable(tensors)()
    assert values == [1.0, 2.0] and runs.count == 1
    with tf.Graph().as_default():
        x_t = tf.compat.v1.placeholder(tf.float32, [None])
        with tf.compat.v1.Session() as sess, RunsRecorded() as recorded:
            x = np.array([0.2, 0.7], np.float32)
            answer = sess.make_callable(x_t >= 0.5, feed_list=[x_t])(x)
    assert recorded.count == 1 and recorded.returned(answer, fed=x)
    assert "make_callable" not in vars(type(sess)) and tf.compat.v1.Session.make_callable is not None


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


def test_unordered_fetches_finds_a_read_racing_a_write_in_one_run():
    """The hostile catalogue of one run's fetches: a variable read beside an op that writes it is a
    race (the runtime picks the order); a fetch computed from the read the write waits for is not."""
    import tensorflow as tf

    from autograder.inkernel.probing import RacingRuns, unordered_fetches

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        w = tf1.Variable(1.0, name="w")
        bump = w.assign_add(1.0)
        read = w.read_value()
        new = read * 2.0
        write_new = w.assign(new)
        loss = tf.square(w - 3.0)
        train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss)
        assert unordered_fetches([w, bump.op])                     # the variable itself, as run() reads it
        assert unordered_fetches([tf.identity(w), tf.group(bump)])  # a read beside a grouped write
        assert not unordered_fetches([new, write_new.op])           # the write is computed from the read
        assert not unordered_fetches([loss, train])                 # the update waits for the loss's reads
        assert not unordered_fetches(bump)                          # one fetch alone
        with tf1.Session() as sess, RacingRuns() as racing:
            sess.run(w.initializer)
            sess.run([new, write_new.op])
            sess.run({"value": w, "step": bump.op})
        assert racing.count == 1


def test_unordered_reads_finds_a_second_read_its_assign_does_not_wait_for():
    """A variable used directly in two ops is read twice; the read that does not feed its assign races
    it, even when one op alone is fetched. One read_value() feeding every new value does not."""
    import tensorflow as tf

    from autograder.inkernel.probing import RacingRuns, unordered_reads

    tf1 = tf.compat.v1
    with tf.Graph().as_default():
        best, count = tf1.Variable(1.0), tf1.Variable(0)
        loss = tf1.placeholder(tf.float32, [])
        twice = tf.group(best.assign(tf.minimum(best, loss)), count.assign(tf.where(loss < best, 0, count + 1)))
        b, n = best.read_value(), count.read_value()
        once = tf.group(best.assign(tf.minimum(b, loss)), count.assign(tf.where(loss < b, 0, n + 1)))
        assert unordered_reads(twice)
        assert not unordered_reads(once)
        assert not unordered_reads([best, count])            # reads alone: nothing written
        with tf.control_dependencies([once]):
            after = best.read_value()
        assert not unordered_reads([after])                   # a read that waits for the assign
        with tf1.Session() as sess, RacingRuns(watch_reads=True) as racing:
            sess.run([best.initializer, count.initializer])
            sess.run(once, {loss: 0.5})
            sess.run(twice, {loss: 0.4})
        assert (racing.reads, racing.count) == (1, 0)


def test_hand_out_files_gives_the_directorys_own_files_within_the_cap(tmp_path):
    import base64

    (tmp_path / "checkpoint").write_text("model_checkpoint_path: \"model-1\"\n")
    (tmp_path / "model-1.meta").write_bytes(b"graph")  # a Saver's graph: not read by the grader
    (tmp_path / "best").mkdir()
    (tmp_path / "best" / "checkpoint").write_text("")
    (tmp_path / "zz-big").write_bytes(b"x" * MAX_FILES_BYTES)  # past the cap with the others: left out
    files = hand_out_files(str(tmp_path))
    assert sorted(files) == ["checkpoint"] and base64.b64decode(files["checkpoint"]).startswith(b"model_")
    assert hand_out_files(str(tmp_path / "missing")) == {}
