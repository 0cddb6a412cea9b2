"""autograder.notebook.graph_picture: the lessons' pictures of graphs (small graphs, no notebook run)."""
import re
import shutil

import pytest
import tensorflow as tf

from autograder.notebook.graph_picture import INSTALL_HINT, GraphvizMissing, show_graph

tf1 = tf.compat.v1


def threshold_graph():
    """A small model: a variable scope, a placeholder, a baked-in threshold, a trainer and a Saver."""
    with tf.Graph().as_default() as graph:
        x = tf1.placeholder(tf.float32, [None, 2], name="x")
        with tf1.variable_scope("layer"):
            w = tf1.get_variable("w", [2, 1])
            y = tf.matmul(x, w, name="logits")
        tf.greater(y, tf.constant(0.25, name="threshold"), name="decision")
        loss = tf.reduce_mean(tf.square(y), name="loss")
        tf1.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        tf1.global_variables_initializer()
        tf1.train.Saver()
    return graph


def test_scopes_become_nested_clusters_and_labels_carry_op_types():
    picture = show_graph(threshold_graph(), collapse=())
    assert re.search(r'subgraph cluster_\d+ \{\s*label="layer/"', picture.dot)
    assert picture.nodes["x"].op == "Placeholder" and picture.nodes["layer/logits"].op == "MatMul"
    assert "Placeholder" in picture.dot and "MatMul" in picture.dot
    # a scalar Const shows its value: the baked-in threshold is visible as a number
    assert picture.nodes["threshold"].value == "0.25" and "Const = 0.25" in picture.dot


def test_initialisers_are_hidden_by_default_and_shown_on_request():
    graph = threshold_graph()
    quiet, full = show_graph(graph), show_graph(graph, hide_init=False, fold_reads=False, collapse=())
    assert quiet.hidden_ops > 0 and full.hidden_ops == 0
    assert not [n for n in quiet.nodes if "Initializer" in n or n.endswith("/Assign") or n == "init"]
    assert "init" in full.nodes and any("Initializer" in n for n in full.nodes)
    assert full.total_ops == quiet.total_ops == len(graph.get_operations())
    assert len(full.nodes) == full.total_ops  # nothing hidden or folded: one node per op


def test_reads_fold_into_their_variable():
    picture = show_graph(threshold_graph(), collapse=())
    assert not [n for n, node in picture.nodes.items() if node.op == "ReadVariableOp" or n.endswith("/read")]
    assert "layer/w" in picture.nodes["layer/logits"].inputs  # the matmul reads w straight from the variable


def test_collapsed_scopes_are_one_node_with_their_op_count():
    graph = threshold_graph()
    picture = show_graph(graph)
    gradients = [op for op in graph.get_operations() if op.name.startswith("gradients/")]
    folded = picture.nodes["gradients/"]  # a folded scope keeps its slash: an op may bear the scope's name
    assert folded.kind == "collapsed" and folded.count == len(gradients)
    assert "save/" in picture.nodes and not [n for n in picture.nodes if n.startswith(("gradients/", "save/")) and n not in ("gradients/", "save/")]
    assert f"{len(gradients)} ops" in picture.dot
    assert any("gradients/" in node.inputs for node in picture.nodes.values())  # edges reach the folded node
    everything = show_graph(graph, collapse=None)
    assert any(n.startswith("gradients/") for n in everything.nodes) and "gradients/" not in everything.nodes


def test_a_folded_scope_counts_the_reads_drawn_as_their_variables():
    with tf.Graph().as_default() as graph:
        x = tf1.get_variable("x", initializer=3.0)
        tf1.train.AdamOptimizer(0.1).minimize(tf.abs(x - 1.0))
    picture = show_graph(graph, collapse=("Adam",))
    held = [op for op in graph.get_operations() if op.name.startswith("Adam/")]
    assert any(op.type == "ReadVariableOp" for op in held)  # drawn as the variables it reads
    assert picture.nodes["Adam/"].count == len(held) and f"{len(held)} ops" in picture.dot


def test_hide_and_highlight():
    graph = threshold_graph()
    picture = show_graph(graph, hide=["loss", "train*"], highlight=["threshold", "gradients/Shape"])
    assert "loss" not in picture.nodes and "train" not in picture.nodes
    marked = re.findall(r'^\s*"([^"]+)" \[.*penwidth=2.5', picture.dot, flags=re.M)
    assert sorted(marked) == ["gradients/", "threshold"]  # a folded scope is marked for the op it holds
    reads = [op.name for op in graph.get_operations() if op.type == "ReadVariableOp"]
    marked = re.findall(r'^\s*"([^"]+)" \[.*penwidth=2.5', show_graph(graph, highlight=reads).dot, flags=re.M)
    assert "layer/w" not in marked  # a new read of an old variable does not mark the variable


def test_a_folded_scope_and_an_op_of_the_same_name_stay_apart():
    with tf.Graph().as_default() as graph:
        v = tf1.get_variable("v", initializer=2.0)
        tf1.train.AdamOptimizer(0.1).minimize(tf.square(v))  # a NoOp "Adam" and a scope "Adam/"
    picture = show_graph(graph, collapse=("gradients", "Adam"))
    assert picture.nodes["Adam"].op == "NoOp" and picture.nodes["Adam/"].kind == "collapsed"
    assert "Adam/" in picture.nodes["Adam"].controls
    assert "<B>Adam/</B>" in picture.dot and "<B>Adam</B>" in picture.dot


def test_control_edges_are_dashed():
    with tf.Graph().as_default() as graph:
        a = tf.constant(1.0, name="a")
        with tf.control_dependencies([a]):
            tf.no_op(name="after")
    picture = show_graph(graph)
    assert picture.nodes["after"].controls == ["a"]
    assert re.search(r'"a" -> "after" \[style=dashed', picture.dot)


def test_accepts_a_graph_def_and_a_traced_function():
    graph = threshold_graph()
    assert show_graph(graph.as_graph_def()).dot == show_graph(graph).dot
    traced = tf.function(lambda v: v * 2.0).get_concrete_function(tf.TensorSpec([], tf.float32))
    assert any(node.op == "Mul" for node in show_graph(traced).nodes.values())
    with pytest.raises(TypeError, match="tf.Graph"):
        show_graph(42)


def test_without_graphviz_it_degrades_to_a_text_outline():
    picture = show_graph(threshold_graph(), dot_binary="/nonexistent/dot")
    with pytest.raises(GraphvizMissing):
        picture.svg()
    bundle = picture._repr_mimebundle_()
    assert set(bundle) == {"text/plain"}
    text = bundle["text/plain"]
    assert text.startswith(INSTALL_HINT) and "apt-get install graphviz" in text
    assert "layer/\n  logits (MatMul)  <- layer/w, x" in text and "threshold (Const) = 0.25" in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (apt-get install graphviz)")
def test_with_graphviz_it_renders_svg():
    picture = show_graph(threshold_graph(), title="threshold as a constant")
    bundle = picture._repr_mimebundle_()
    svg = bundle["image/svg+xml"]
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "threshold as a constant" in svg and "Placeholder" in svg and "layer/" in svg
    assert bundle["text/plain"] == picture.summary()
