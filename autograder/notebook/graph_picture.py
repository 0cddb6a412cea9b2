"""Pictures of TensorFlow graphs in the notebook: `show_graph(graph)`.

A `tf.Graph` (or a `GraphDef`, or a traced `ConcreteFunction`) becomes a Graphviz drawing: one box
per name scope (nested scopes nest), one node per op labelled with its name and op type, data
edges solid and control edges dashed. What a lesson does not want to look at is left out or
folded by default, each with an option to bring it back:

- a variable's initialiser, its `Assign`/`IsInitialized` internals and the `init` op (`hide_init`);
- its `read` identity, folded into the variable node (`hide_init` too);
- whole scopes matched by `collapse` (by default the gradients and a Saver's `save` scope) drawn as
  a single node that says how many ops it holds.

Graphviz's `dot` program does the layout (Debian's `graphviz` package). Without it the picture
degrades to a text outline of the same scopes and ops, with one line saying how to install it:
the notebook never fails for want of a picture. TensorFlow itself is not imported here.
"""
from __future__ import annotations

import fnmatch
import html
import re
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

DOT_TIMEOUT = 30  # seconds; the lessons' graphs lay out in well under one
DEFAULT_COLLAPSE = ("gradients", "gradients_*", "save", "save_*")
INSTALL_HINT = ("Graphviz's `dot` program was not found, so here is the graph as text. For the picture, "
                "install Graphviz (Debian/Ubuntu: `sudo apt-get install graphviz`; macOS: `brew install graphviz`) "
                "and run the cell again.")

VARIABLE_OPS = {"VariableV2", "Variable", "VarHandleOp"}
PLACEHOLDER_OPS = {"Placeholder", "PlaceholderWithDefault"}
ASSIGN_OPS = {"Assign", "AssignAdd", "AssignSub", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}
# Name components under which a variable keeps its initialisation machinery.
INIT_COMPONENTS = {"Initializer", "initial_value", "IsInitialized"}
# fill colour and shape per kind of op
STYLES = {
    "placeholder": ('#ffd8a8', "box"),
    "const": ('#e9ecef', "box"),
    "variable": ('#b2f2bb', "cylinder"),
    "assign": ('#ffc9c9', "box"),
    "noop": ('#fff3bf', "octagon"),
    "collapsed": ('#d0bfff', "box3d"),
    "op": ('#ffffff', "box"),
}


class GraphvizMissing(RuntimeError):
    """Graphviz's `dot` program is not installed (or not where it was said to be)."""


@dataclass
class Node:
    name: str
    op: str
    inputs: list[str] = field(default_factory=list)   # source node names of data edges
    controls: list[str] = field(default_factory=list)  # source node names of control edges
    value: str | None = None  # a scalar Const's value, as text
    count: int = 1  # a collapsed scope: every op it holds (a read of a variable is drawn as the variable)

    @property
    def scope(self) -> str:
        return self.name.rstrip("/").rpartition("/")[0]

    @property
    def short_name(self) -> str:
        """The last part of the name; a folded scope keeps its trailing slash (`gradients/`)."""
        return self.name.rstrip("/").rpartition("/")[2] + ("/" if self.name.endswith("/") else "")

    @property
    def kind(self) -> str:
        if self.op == "scope":
            return "collapsed"
        if self.op in PLACEHOLDER_OPS:
            return "placeholder"
        if self.op == "Const":
            return "const"
        if self.op in VARIABLE_OPS:
            return "variable"
        if self.op in ASSIGN_OPS:
            return "assign"
        if self.op == "NoOp":
            return "noop"
        return "op"


def graph_def_of(graph: Any) -> Any:
    """The GraphDef of a `tf.Graph`, a `GraphDef` or anything with a `.graph` (a ConcreteFunction)."""
    if hasattr(graph, "as_graph_def"):
        return graph.as_graph_def()
    if hasattr(graph, "node") and not callable(graph.node):
        return graph
    if hasattr(graph, "graph") and hasattr(graph.graph, "as_graph_def"):
        return graph.graph.as_graph_def()
    raise TypeError(f"show_graph wants a tf.Graph, a GraphDef or a ConcreteFunction, not {type(graph).__name__}")


def _scalar_value(node_def: Any) -> str | None:
    """The value of a scalar `Const`, when the GraphDef holds it in a typed field."""
    if node_def.op != "Const" or "value" not in node_def.attr:
        return None
    tensor = node_def.attr["value"].tensor
    if len(tensor.tensor_shape.dim):
        return None
    for name in ("float_val", "double_val", "int_val", "int64_val", "bool_val"):
        values = getattr(tensor, name)
        if len(values) == 1:
            value = values[0]
            return f"{value:.6g}" if isinstance(value, float) else str(value)
    return None


def _nodes(graph_def: Any) -> dict[str, Node]:
    nodes = {}
    for nd in graph_def.node:
        node = Node(nd.name, nd.op, value=_scalar_value(nd))
        for source in nd.input:
            control = source.startswith("^")
            source = source.lstrip("^").split(":")[0]
            (node.controls if control else node.inputs).append(source)
        nodes[nd.name] = node
    return nodes


def _is_init_noise(node: Node, nodes: dict[str, Node]) -> bool:
    """A variable's initialisation machinery, or the op that runs all of it."""
    parts = node.name.split("/")
    if INIT_COMPONENTS & set(parts[:-1]) or parts[-1] in INIT_COMPONENTS:
        return True
    owner = nodes.get(node.scope)
    if owner is not None and owner.kind == "variable" and parts[-1] == "Assign":
        return True  # w/Assign: writes the initial value into w
    if node.op == "NoOp" and re.fullmatch(r"init(_\d+)?", node.name):
        return all(nodes.get(c) is None or _is_init_noise(nodes[c], nodes) for c in node.controls)
    return False


def _read_of(node: Node, nodes: dict[str, Node]) -> str | None:
    """The variable whose value this op merely reads (`w/read`, a `ReadVariableOp` of `w`), if so."""
    if node.op in ("Identity", "ReadVariableOp") and len(node.inputs) == 1:
        owner = nodes.get(node.inputs[0])
        if owner is not None and owner.kind == "variable" and (node.op == "ReadVariableOp" or node.name == f"{owner.name}/read"):
            return owner.name
    return None


def _collapsed_scope(name: str, patterns: Iterable[str]) -> str | None:
    """The outermost scope of `name` that a pattern matches (patterns match a whole scope path)."""
    parts = name.split("/")
    for depth in range(1, len(parts)):
        scope = "/".join(parts[:depth])
        if any(fnmatch.fnmatchcase(scope, p) for p in patterns):
            return scope
    return None


@dataclass
class GraphPicture:
    """A graph ready to show: `dot` is its Graphviz source; the notebook shows it as SVG."""
    dot: str
    nodes: dict[str, Node]
    total_ops: int
    hidden_ops: int
    title: str | None = None
    dot_binary: str = "dot"

    @property
    def shown_ops(self) -> int:
        return sum(n.count for n in self.nodes.values())

    def summary(self) -> str:
        folded = sum(n.count for n in self.nodes.values() if n.kind == "collapsed")
        return (f"{self.total_ops} ops: {len(self.nodes)} drawn"
                + (f" ({folded} of them in {sum(n.kind == 'collapsed' for n in self.nodes.values())} folded scopes)"
                   if folded else "")
                + (f", {self.hidden_ops} initialiser ops hidden" if self.hidden_ops else ""))

    def outline(self) -> str:
        """The drawing as text: each scope, indented, with its ops and their types."""
        lines = [self.title] if self.title else []
        lines.append(self.summary())
        printed: set[str] = set()
        for name in sorted(self.nodes, key=lambda n: n.rstrip("/").split("/")):
            node = self.nodes[name]
            parts = name.rstrip("/").split("/")
            for depth in range(1, len(parts)):
                scope = "/".join(parts[:depth])
                if scope not in printed:
                    printed.add(scope)
                    lines.append("  " * (depth - 1) + parts[depth - 1] + "/")
            what = f"{node.count} ops" if node.kind == "collapsed" else node.op
            value = f" = {node.value}" if node.value is not None else ""
            sources = node.inputs + [f"^{c}" for c in node.controls]
            lines.append("  " * (len(parts) - 1) + f"{node.short_name} ({what}){value}"
                         + (f"  <- {', '.join(sources)}" if sources else ""))
        return "\n".join(lines)

    def svg(self) -> str:
        """The picture as SVG text; raises GraphvizMissing without Graphviz's `dot`."""
        exe = shutil.which(self.dot_binary)
        if exe is None:
            raise GraphvizMissing(INSTALL_HINT)
        run = subprocess.run([exe, "-Tsvg"], input=self.dot, capture_output=True, text=True, timeout=DOT_TIMEOUT)
        if run.returncode != 0:
            raise RuntimeError(f"dot failed ({run.returncode}): {run.stderr.strip()[:500]}")
        return run.stdout[run.stdout.index("<svg"):]

    def save(self, path: str) -> None:
        with open(path, "w") as out:
            out.write(self.svg())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        try:
            return {"image/svg+xml": self.svg(), "text/plain": self.summary()}
        except GraphvizMissing as missing:
            return {"text/plain": f"{missing}\n\n{self.outline()}"}

    def __repr__(self) -> str:
        return f"<GraphPicture: {self.summary()}>"


def show_graph(graph: Any, *, hide_init: bool = True, fold_reads: bool = True, collapse: Iterable[str] | None = DEFAULT_COLLAPSE,
               hide: Iterable[str] = (), highlight: Iterable[str] = (), title: str | None = None,
               rankdir: str = "TB", dot_binary: str = "dot") -> GraphPicture:
    """Draw `graph` (a tf.Graph, GraphDef or ConcreteFunction), grouped by name scope.

    hide_init: leave out each variable's initialiser, its Assign and the `init` op.
    fold_reads: draw the ops that merely read a variable (`w/read`, `ReadVariableOp`) as the variable.
    collapse:  scope patterns (fnmatch, matched against the whole scope path) drawn as one node each;
               None or () draws every op.
    hide:      patterns of op names to leave out as well (e.g. "summaries/*").
    highlight: op names to draw with a thick red border (e.g. the ops a loop added); a folded
               scope is highlighted when it holds one of them.
    title:     a caption above the picture.
    rankdir:   "TB" (inputs at the top) or "LR" (inputs on the left).
    The result shows itself as SVG in a notebook (or as text when Graphviz is missing); its
    `.dot` is the Graphviz source, `.outline()` the same content as text.
    """
    all_nodes = _nodes(graph_def_of(graph))
    hide, collapse, highlight = tuple(hide), tuple(collapse or ()), set(highlight)
    # Where each op ends up: itself, the variable it reads, its folded scope, or nowhere (None).
    target: dict[str, str | None] = {}
    hidden = 0
    reads = {}
    for name, node in all_nodes.items():
        if any(fnmatch.fnmatchcase(name, p) for p in hide) or (hide_init and _is_init_noise(node, all_nodes)):
            target[name] = None
            hidden += 1
        elif fold_reads and (owner := _read_of(node, all_nodes)):
            reads[name] = owner
        elif scope := _collapsed_scope(name, collapse):
            target[name] = scope + "/"  # the trailing slash keeps it apart from an op of the same name
        else:
            target[name] = name
    for name, owner in reads.items():
        target[name] = target[owner]  # drawn as (or folded with) the variable it reads

    shown: dict[str, Node] = {}
    for name, node in all_nodes.items():
        where = target[name]
        if where is None:
            continue
        if where not in shown:
            own = where == name or (name in reads and target[reads[name]] == reads[name])
            source = node if where == name else all_nodes.get(where, node)
            shown[where] = Node(where, source.op if own else "scope", count=0, value=source.value if own else None)
        shown[where].count += 1
    # A folded scope's label states every op the scope holds, not only those drawn in its node.
    for name in all_nodes:
        if (scope := _collapsed_scope(name, collapse)) and target[name] != scope + "/" and scope + "/" in shown:
            shown[scope + "/"].count += 1
    edges: set[tuple[str, str, bool]] = set()
    for name, node in all_nodes.items():
        head = target[name]
        if head is None:
            continue
        # A folded read's control inputs only order the read: drawn on the variable they would mislead.
        for sources, control in ((node.inputs, False), (() if name in reads else node.controls, True)):
            for source in sources:
                tail = target.get(source)
                if tail is not None and tail != head and tail in shown and head in shown:
                    edges.add((tail, head, control))
    for tail, head, control in sorted(edges):
        (shown[head].controls if control else shown[head].inputs).append(tail)
    # A new read of an old variable does not make the variable new: folded reads mark nothing.
    marked = {target[n] for n in highlight if target.get(n) is not None and n not in reads}
    dot = _dot_source(shown, sorted(edges), marked, title, rankdir)
    return GraphPicture(dot, shown, len(all_nodes), hidden, title, dot_binary)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _label(node: Node) -> str:
    short = html.escape(node.short_name)
    if node.kind == "collapsed":
        detail = f"{node.count} ops" if node.count != 1 else "1 op"
    else:
        detail = html.escape(node.op) + (f" = {html.escape(node.value)}" if node.value is not None else "")
    return f'<<B>{short}</B><BR/><FONT POINT-SIZE="9" COLOR="#495057">{detail}</FONT>>'


def _dot_source(nodes: dict[str, Node], edges: list[tuple[str, str, bool]], marked: set[str],
                title: str | None, rankdir: str) -> str:
    lines = ["digraph G {",
             f"  graph [rankdir={rankdir}, fontname=Helvetica, fontsize=11, nodesep=0.25, ranksep=0.35,"
             " margin=0.1, labeljust=l" + (f", label={_quote(title)}, labelloc=t" if title else "") + "];",
             "  node [fontname=Helvetica, fontsize=10, style=\"filled,rounded\", height=0.3, margin=\"0.08,0.03\"];",
             "  edge [color=\"#495057\", arrowsize=0.6];"]
    by_scope: dict[str, list[str]] = defaultdict(list)
    scopes = set()
    for name in nodes:
        scope = nodes[name].scope
        by_scope[scope].append(name)
        while scope:
            scopes.add(scope)
            scope = scope.rpartition("/")[0]
    children: dict[str, list[str]] = defaultdict(list)
    for scope in scopes:
        children[scope.rpartition("/")[0]].append(scope)
    cluster_ids = {scope: f"cluster_{i}" for i, scope in enumerate(sorted(scopes))}

    def emit(scope: str, indent: str) -> None:
        for sub in sorted(children[scope]):
            lines.append(f"{indent}subgraph {cluster_ids[sub]} {{")
            lines.append(f"{indent}  label={_quote(sub.rpartition('/')[2] + '/')}; tooltip={_quote(sub)};"
                         " style=\"rounded,filled\"; fillcolor=\"#f1f3f5\"; color=\"#adb5bd\"; fontcolor=\"#343a40\";")
            emit(sub, indent + "  ")
            lines.append(f"{indent}}}")
        for name in sorted(by_scope.get(scope, ())):
            node = nodes[name]
            fill, shape = STYLES[node.kind]
            extra = ", color=\"#e03131\", penwidth=2.5" if name in marked else ""
            lines.append(f"{indent}{_quote(name)} [label={_label(node)}, tooltip={_quote(name)}, "
                         f"fillcolor=\"{fill}\", shape={shape}{extra}];")

    emit("", "  ")
    for tail, head, control in edges:
        style = " [style=dashed, color=\"#868e96\"]" if control else ""
        lines.append(f"  {_quote(tail)} -> {_quote(head)}{style};")
    lines.append("}")
    return "\n".join(lines)
