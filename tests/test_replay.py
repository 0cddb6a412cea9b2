"""The grader's replay of artifacts outside the kernel (`autograder.engine.replay`): a graph handed
out is re-run on inputs the kernel never saw; one holding an op that touches the world, a function
library or garbage is refused before anything runs; a graph that eats memory or time is stopped and
the worker replaced, and the next request is answered. Files handed out (checkpoints, state files,
event files) are read by TensorFlow's readers in a directory of the worker's own; odd names, too many
files or bytes are refused."""
from __future__ import annotations

import pytest

from autograder.engine.replay import Replayer, run_here
from autograder.inkernel.probing import MAX_FILES, MAX_FILES_BYTES, export_collections, export_graph, hand_out_files


def threshold_graph(strict: bool = False):
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        x = tf1.placeholder(tf.float32, [None], name="x")
        threshold = tf1.placeholder_with_default(0.5, [], name="threshold")
        output = tf.greater(x, threshold) if strict else tf.greater_equal(x, threshold)
    return export_graph(graph), output.name


def request(graph: str, output: str) -> dict:
    return {"graph": graph, "describe": ["x:0", "threshold:0"],
            "runs": [{"feeds": {"x:0": [0.2, 0.5, 0.9]}, "fetch": output},
                     {"feeds": {"x:0": [0.2, 0.5, 0.9], "threshold:0": 0.2}, "fetch": output},
                     {"feeds": {}, "fetch": output}]}


def test_a_graph_is_re_run_on_the_graders_inputs():
    answer = run_here(request(*threshold_graph()))
    assert answer["described"] == {"x:0": {"op": "Placeholder", "dtype": "float32", "index": 0},
                                   "threshold:0": {"op": "PlaceholderWithDefault", "dtype": "float32", "index": 2}}
    first, fed, unfed = answer["results"]
    assert first == {"value": [False, True, True]} and fed == {"value": [True, True, True]}
    assert unfed["error"].startswith("InvalidArgumentError: You must feed a value for placeholder tensor 'x'")
    assert run_here(request(*threshold_graph(strict=True)))["results"][0] == {"value": [False, False, True]}


def test_a_seeded_random_op_draws_in_the_worker_what_it_drew_in_the_kernel_and_ops_lists_its_types():
    import numpy as np
    import tensorflow as tf

    with tf.Graph().as_default() as graph:
        draw = tf.random.uniform([3], seed=7)
        with tf.compat.v1.Session() as sess:
            first, second = sess.run(draw), sess.run(draw)
    answer = run_here({"graph": export_graph(graph), "ops": True,
                       "runs": [{"feeds": {}, "fetch": draw.name}, {"feeds": {}, "fetch": draw.name}]})
    assert [r["value"] for r in answer["results"]] == [first.tolist(), second.tolist()]
    assert "RandomUniform" in answer["ops"] and not np.array_equal(first, second)


def test_random_sources_are_read_from_the_graphdef_with_their_seed_pairs_even_when_refused():
    """The seeded random ops a tensor is computed from, with the seed pairs the GraphDef carries (an
    op seed alone gets TensorFlow's default graph seed, 87654321), in creation order; a stateless op has
    no seed pair, a name the graph lacks answers None, and a graph the worker will not run (it reads
    a file) answers too."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        a = tf1.random.uniform([2], seed=5, name="a")
        b = tf1.random.normal([2], seed=6, name="b") + tf.identity(a)
        c = tf.random.stateless_uniform([2], seed=[1, 2], name="c")
        tf.io.read_file("nowhere", name="read")
    answer = run_here({"graph": export_graph(graph), "random_sources": [a.name, b.name, c.name, "nowhere:0"],
                       "runs": []})
    assert answer["refused"]  # ReadFile is not in SAFE_OPS: read, not run
    assert answer["random_sources"] == [[["a/RandomUniform", 87654321, 5]],
                                        [["a/RandomUniform", 87654321, 5], ["b/RandomStandardNormal", 87654321, 6]],
                                        [], None]


def test_a_variable_is_described_by_the_dtype_it_holds_and_an_optimizer_step_re_runs():
    """The dtype of a variable comes from its op in the GraphDef, never from what an object declares
    in the kernel; a v1 optimizer's update re-runs in the request's own session."""
    import numpy as np
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        counter = tf1.Variable(0, name="counter")
        w = tf1.get_variable("w", initializer=np.float64(3.0))
        step = tf1.train.MomentumOptimizer(0.5, momentum=0.9).minimize(tf.square(w))
        init = tf1.global_variables_initializer()
        read = tf.identity(w)
    answer = run_here({"graph": export_graph(graph), "describe": ["counter", "w"],
                       "runs": [{"feeds": {}, "fetch": init.name}, {"feeds": {}, "fetch": step.name},
                                {"feeds": {}, "fetch": read.name}]})
    assert {name: d["dtype"] for name, d in answer["described"].items()} == {"counter": "int32", "w": "float64"}
    assert counter.op.type == "VarHandleOp" and answer["results"][2] == {"value": 0.0}  # 3 - 0.5 * 2 * 3


def test_what_touches_the_world_is_refused_before_it_runs():
    import tensorflow as tf

    with tf.Graph().as_default() as reads:
        tf.io.read_file("/etc/hostname")
    with tf.Graph().as_default() as traced:
        tf.function(lambda: tf.constant(1.0))()  # a call in graph mode: a function in the graph's library
    assert "ReadFile" in run_here({"graph": export_graph(reads), "runs": []})["refused"]
    assert "ReadFile" in run_here({"graph": export_graph(reads), "ops": True, "runs": []})["ops"]  # read, not run
    assert "functions" in run_here({"graph": export_graph(traced), "runs": []})["refused"]
    assert "not a GraphDef" in run_here({"graph": "bm90IGEgZ3JhcGg=", "runs": []})["refused"]
    assert "size" in run_here({"graph": ["not", "text"], "runs": []})["refused"]


def test_checkpoints_state_and_events_handed_out_are_read_outside(tmp_path):
    import base64

    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        w = tf1.get_variable("w", initializer=[1.0, 2.0])
        step = tf1.train.get_or_create_global_step()
        advance = tf.group(w.assign_add([1.0, 1.0]), step.assign_add(1))
        summary = tf1.summary.scalar("loss", tf.reduce_sum(w))
        saver = tf1.train.Saver(max_to_keep=2)
        with tf1.Session() as sess, tf1.summary.FileWriter(str(tmp_path)) as writer:
            sess.run(tf1.global_variables_initializer())
            for _ in range(3):
                sess.run(advance)
                saver.save(sess, str(tmp_path / "model"), global_step=step)
                writer.add_summary(sess.run(summary), int(sess.run(step)))
        meta_graph = base64.b64encode(tf1.train.export_meta_graph().SerializeToString()).decode()
    files = hand_out_files(str(tmp_path))
    assert not any(name.endswith(".meta") for name in files)
    answer = run_here({"files": files, "count_ops": export_graph(graph), "op_inputs": ["ScalarSummary"],
                       "meta_graph": meta_graph})
    assert answer["state"] == {"latest": "model-3", "all": ["model-2", "model-3"]}
    assert sorted(answer["checkpoints"]) == ["model-2", "model-3"]
    assert answer["checkpoints"]["model-3"]["variables"] == {"global_step": {"dtype": "int64", "value": 3},
                                                             "w": {"dtype": "float32", "value": [4.0, 5.0]}}
    [rows] = answer["events"].values()
    assert [(step, tag, kind, value) for step, tag, kind, value, _ in rows] == [
        (1, "loss", "simple_value", 5.0), (2, "loss", "simple_value", 7.0), (3, "loss", "simple_value", 9.0)]
    assert answer["op_counts"]["ScalarSummary"] == 1 and answer["trainable"] == ["w"]
    assert [inputs[1] for inputs in answer["op_inputs"]["ScalarSummary"]] == [[summary.op.inputs[1].op.name, "Sum"]]
    files["model-9.index"] = files.pop("model-3.index")  # a state file naming a checkpoint not handed out
    assert run_here({"files": files})["state"]["latest"] is None


def test_collections_are_read_outside_and_ignore_a_method_set_on_the_graph_object():
    """The witness: TensorFlow's own export reads collections through the graph object, so a
    `get_collection` set on it hides a variable there; the probe's export asks tf.Graph itself."""
    import base64

    import tensorflow as tf

    tf1 = tf.compat.v1
    keys = ["trainable_variables", "local_variables", "variables"]
    with tf.Graph().as_default() as graph:
        tf1.get_variable("w", initializer=1.0)
        tf1.Variable(0, collections=[tf1.GraphKeys.LOCAL_VARIABLES], name="examples_seen")
        graph.get_collection = lambda key, scope=None, own=graph.get_collection: [
            v for v in own(key, scope) if v.op.name != "examples_seen"]
        exported = export_collections(graph, keys)
        patched = base64.b64encode(tf1.train.export_meta_graph(graph=graph).SerializeToString()).decode()
    answer = run_here({"collections": keys, "meta_graph": exported})
    assert answer["collections"] == {"trainable_variables": ["w", "examples_seen"],
                                     "local_variables": ["examples_seen"], "variables": ["w"]}
    assert answer["dtypes"] == {"w": "float32", "examples_seen": "int32"}
    assert answer["flags"] == {"w": True, "examples_seen": True}
    assert run_here({"collections": keys, "meta_graph": patched})["collections"]["trainable_variables"] == ["w"]


def test_a_collection_cannot_list_what_the_graph_lacks_and_garbage_is_refused():
    import base64

    import tensorflow as tf
    from tensorflow.core.framework import variable_pb2
    from tensorflow.core.protobuf import meta_graph_pb2

    with tf.Graph().as_default() as graph:
        tf.constant(1.0, name="c")
    forged = meta_graph_pb2.MetaGraphDef(graph_def=graph.as_graph_def())
    forged.collection_def["trainable_variables"].bytes_list.value.append(
        variable_pb2.VariableDef(variable_name="c:0").SerializeToString())  # a Const, no variable
    forged.collection_def["summaries"].node_list.value.extend(["c:0", "missing:0"])
    encoded = base64.b64encode(forged.SerializeToString()).decode()
    answer = run_here({"collections": ["trainable_variables", "summaries", "losses"], "meta_graph": encoded})
    assert answer == {"collections": {"trainable_variables": [], "summaries": ["c"], "losses": []}, "dtypes": {}, "flags": {}}
    assert "not a MetaGraphDef" in run_here({"collections": ["losses"], "meta_graph": "AAAA"})["refused"]
    assert "no list" in run_here({"collections": "losses", "meta_graph": encoded})["refused"]


@pytest.mark.parametrize("files, reason", [
    ({"../checkpoint": ""}, "plain name"), ({"sub/model.index": ""}, "plain name"), ({".hidden": ""}, "plain name"),
    ({f"f{i}": "" for i in range(MAX_FILES + 1)}, "at most"), (["checkpoint"], "at most"),
    ({"a": "A" * (MAX_FILES_BYTES * 2)}, "too big"), ({"a": "not base64!"}, "base64"),
    ({"a": "A" * 4 * (MAX_FILES_BYTES // 6 + 4), "b": "A" * 4 * (MAX_FILES_BYTES // 6 + 4)}, "bytes"),  # each over half
])
def test_files_that_no_probe_hands_out_are_refused(files, reason):
    assert reason in run_here({"files": files})["refused"]


def test_a_garbled_checkpoint_or_state_file_reads_as_none(tmp_path):
    import base64

    garbage = base64.b64encode(b"\x00garbage\xff").decode()
    answer = run_here({"files": {"checkpoint": garbage, "model-1.index": garbage,
                                 "events.out.tfevents.1.host": garbage}})
    assert answer["state"] is None and "error" in answer["checkpoints"]["model-1"]
    assert answer["events"] == {"events.out.tfevents.1.host": []}


@pytest.mark.slow
def test_the_worker_answers_stops_a_bomb_and_answers_again():
    import tensorflow as tf

    with tf.Graph().as_default() as bomb:
        total = tf.reduce_sum(tf.fill([200_000, 200_000], 1.0))
    replayer = Replayer(timeout_s=20)
    try:
        honest = request(*threshold_graph())
        assert replayer.run(honest)["results"][0] == {"value": [False, True, True]}
        stopped = replayer.run({"graph": export_graph(bomb), "runs": [{"fetch": total.name}]})
        assert "refused" in stopped or "error" in stopped["results"][0], stopped
        assert replayer.run(honest)["results"][0] == {"value": [False, True, True]}
    finally:
        replayer.close()


def test_inputs_kept_outside_never_reach_the_kernel(monkeypatch):
    """What `observe_notebook` sends the kernel for lesson 2's threshold_graph: the default only; its
    inputs and fed thresholds stay in the grader, which re-runs the handed-out graph on them."""
    from autograder.course import lessons
    from autograder.engine import kernel
    from autograder.engine.kernel import Execution
    from autograder.judging.replaying import observe_notebook

    lesson = lessons.load("02_rebuild_vs_feed")
    sent = {}

    def execute(nb, assignment, cases, *args, **kwargs):
        sent.update(cases)
        return Execution()

    monkeypatch.setattr(kernel, "execute_and_observe", execute)
    cases = lessons.all_cases(lesson)
    observe_notebook(None, lesson, cases)
    assert len(sent["threshold_graph"]) == len(cases["threshold_graph"]) > 1
    assert all(set(c.inputs) == {"default"} for c in sent["threshold_graph"])
    assert all("x" in c.inputs for c in sent["threshold_judge"])  # exercises without replay are sent whole


def test_markers_keep_each_inputs_kind_and_come_back_as_the_hidden_values():
    import numpy as np

    from autograder.course.markers import mark

    kernel, swaps = mark({"x": [0.7, 0.7], "first": 1, "seconds": [0.7, 0.7], "third": None, "calls": 3},
                         {"x": "array", "first": "number", "seconds": "numbers", "third": "number"})
    assert kernel["calls"] == 3 and kernel["third"] is None and isinstance(kernel["first"], int)
    markers = [kernel["first"], *kernel["seconds"], *kernel["x"]]
    assert len(set(markers)) == len(markers)  # equal hidden values, distinct markers
    assert all(float(np.float32(m)) == m for m in markers)  # found again after a float32 round trip
    assert [v for _, v in swaps] == [[0.7, 0.7], 1, 0.7, 0.7]
    # The grader marks the cases it sends, and the probe cell marks what it is given again: the same markers.
    kinds = {"x": "array", "first": "number", "seconds": "numbers", "third": "number"}
    assert mark(kernel, kinds)[0] == kernel


def test_a_dict_of_lists_is_marked_number_by_number_in_its_order():
    from autograder.course.markers import mark

    kernel, swaps = mark({"scripts": {"rise": [1.0, 1.1], "ties": [1.0]}, "patience": 2}, {"scripts": "lists"})
    assert list(kernel["scripts"]) == ["rise", "ties"] and kernel["patience"] == 2
    assert [m for m, _ in swaps] == [*kernel["scripts"]["rise"], *kernel["scripts"]["ties"]]
    assert [v for _, v in swaps] == [1.0, 1.1, 1.0] and len({m for m, _ in swaps}) == 3
    assert mark(kernel, {"scripts": "lists"})[0] == kernel


def test_a_cond_built_as_control_flow_v1_is_re_run():
    """Lesson 7's probe builds a student's tf.cond as Switch and Merge (no function library): the worker
    re-runs it, on either branch."""
    import tensorflow as tf

    from autograder.inkernel.probes.l07_learning_rate_decay import _control_flow_v1

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph, _control_flow_v1():
        x = tf1.placeholder(tf.float32, [], name="x")
        y = tf.cond(x < 1.0, lambda: x * 2.0, lambda: x - 1.0)
    assert tf1.control_flow_v2_enabled()  # put back as it was
    answer = run_here({"graph": export_graph(graph), "runs": [{"feeds": {"x:0": 0.25}, "fetch": y.name},
                                                              {"feeds": {"x:0": 3.0}, "fetch": y.name}]})
    assert [r["value"] for r in answer["results"]] == [0.5, 2.0], answer


def judge_history(bake: bool):
    """A judge's runs on markers: an initializer, an assign fed a marker, a judge fed the x marker;
    with `bake`, the threshold is a Const built from a marker, and a NumPy answer is fed back in."""
    import numpy as np
    import tensorflow as tf

    from autograder.inkernel.probing import RunsRecorded

    tf1 = tf.compat.v1
    with tf.Graph().as_default(), RunsRecorded() as runs:
        x = tf1.placeholder(tf.float32, [None], name="x")
        threshold = tf1.Variable(0.3125, trainable=False)
        value = tf1.placeholder(tf.float32, [])
        assign = threshold.assign(value)
        judged = tf.greater_equal(x, tf.constant(0.3515625) if bake else threshold)
        laundered = tf.identity(tf1.placeholder(tf.bool, [None], name="answer"))
        with tf1.Session() as sess:
            sess.run(threshold.initializer)
            sess.run(assign, {value: 0.3515625})
            sess.run(judged, {x: [1.53125, 1.65625]})
            sess.run(laundered, {"answer:0": np.array([1.53125, 1.65625]) >= 1.6})
    return runs.history()


def test_a_session_history_is_re_run_with_the_hidden_values_in_place_of_the_markers():
    """A value the graph computes follows the hidden inputs, whether the marker was fed or baked into
    a Const; what Python computed from a marker stays what it was."""
    from autograder.course.history import replay_history

    swaps = [([1.53125, 1.65625], [0.9, 0.1]), (0.3125, 5.0), (0.3515625, 0.5)]
    for bake in (False, True):
        values, refused = replay_history(judge_history(bake), swaps, run_here)
        assert refused is None and values[2] == [[True, False]], (bake, values)
        assert values[3] == [[False, True]]  # the NumPy answer on the markers, not on [0.9, 0.1]


def test_array_markers_keep_nested_shapes_and_differ_across_arrays():
    """Lesson 4's initial values and training data: an "array" of any nesting, or a list of them
    ("arrays"), each element a marker unlike every other, of the hidden value's shape."""
    import numpy as np

    from autograder.course.markers import mark

    hidden = {"x": [[1.0, 2.0], [1.0, 2.0]], "y": [[1.0], [1.0]], "values": [[1.0, 1.0], 3.0, [[1.0]]]}
    kernel, swaps = mark(hidden, {"x": "array", "y": "array", "values": "arrays"})
    assert [np.shape(kernel[k]) for k in ("x", "y")] == [(2, 2), (2, 1)]
    assert [np.shape(v) for v in kernel["values"]] == [(2,), (), (1, 1)]
    elements = np.concatenate([np.ravel(m) for m, _ in swaps])
    assert len(set(elements)) == elements.size and all(np.float32(e) == e for e in elements)
    assert [v for _, v in swaps] == [hidden["x"], hidden["y"], *hidden["values"]]
    assert mark(kernel, {"x": "array", "y": "array", "values": "arrays"})[0] == kernel


def copies_graph():
    """A current and a past copy of one variable, the past one read through stop_gradient, and a sync
    that races a read of the past variable when both are fetched in one run."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    with tf.Graph().as_default() as graph:
        x = tf1.placeholder(tf.float32, [None], name="x")
        current = tf1.Variable(1.0, name="current")
        past = tf1.Variable(2.0, name="past")
        current_out = tf.multiply(x, current, name="current_out")
        past_out = tf.multiply(x, tf.stop_gradient(past), name="past_out")
        sync = past.assign(current, name="sync")
    return export_graph(graph), current_out, past_out, sync


def test_the_worker_says_where_gradients_reach_and_which_runs_race():
    graph, current_out, past_out, sync = copies_graph()
    answer = run_here({"graph": graph, "gradients": [[past_out.name, ["past:0", "x:0"]], [current_out.name, ["current:0"]]],
                       "races": [[current_out.name, past_out.name], [past_out.name, sync.name], ["nothing:0"]]})
    assert answer["gradients"] == [[False, True], [True]]
    assert answer["races"] == [False, True, None]
