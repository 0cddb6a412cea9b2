"""Read a submission's own code with `ast` before any of it runs, and find what reaches for the
machinery of introspection and patching.

Everything in the student's kernel is the student's: a probe there can be steered by code that walks
frames, sets a trace hook, swaps a function's `__code__`, patches a class, rewrites IPython's input
or output, or imports the grader. A course solution needs none of that. So every code cell the
student wrote or changed (its source differs from every code cell of the released notebook) is
parsed as IPython would run it, and each construct outside what a solution needs becomes a
`Finding`: the cell, the line, the code (capped) and the reason.

Two kinds (docs/instructor.md, section 8):
- `zeroes`: the construct can steer what the grader observes (frames, hooks, code objects, private
  attributes, computed attribute names, exec, imports outside the allowlist...). The submission is
  `tampered`, 0 on every exercise, and is never run.
- a flag only: an import of a harmless standard module that no solution needs (`random`, `re`...).
  The result lists it under `flags` for the instructor; the marks stand.

The allowlist of imports is what the solutions, the released notebooks' exercise cells and
`tests/alternatives/` import, minus the instructor's demo-only modules (`sys`, `inspect`,
`subprocess`, `signal`, TensorFlow's internals): an instructor's cell that a student left as it was
is not screened, so a demo may use them.
"""
from __future__ import annotations

import ast
import re
from dataclasses import asdict, dataclass
from typing import Any, Iterable

import nbformat

from autograder.engine.kernel import is_check_cell
from autograder.engine.untrusted import capped
from autograder.judging.lean import PARSING

MAX_CODE_CHARS = 120

# Modules a student's cell may import: (top-level) name -> None for the whole module, else the
# attributes it may use (a module held for its harmless part: `os.path`, not `os.system`).
ALLOWED_MODULES: dict[str, frozenset[str] | None] = {
    "tensorflow": None, "numpy": None, "matplotlib": None, "keras": None,
    "math": None, "time": None, "collections": None, "itertools": None, "json": None,
    "tempfile": None, "shutil": None, "__future__": None,
    "os": frozenset({"path", "listdir", "makedirs", "mkdir", "getcwd", "remove", "unlink", "rmdir", "walk",
                     "scandir", "sep", "rename", "replace", "stat", "fspath", "PathLike"}),
}
# Dotted modules allowed beyond those, with the names a `from` import may take from them.
ALLOWED_FROM = {"IPython.display": frozenset({"display", "Markdown", "HTML", "Image"}),
                "autograder.graph_picture": frozenset({"show_graph", "DEFAULT_COLLAPSE"}),
                "autograder.check": frozenset({"Checker"})}
# TensorFlow's internals: patch points of what the probes observe, never needed by a solution.
TENSORFLOW_INTERNALS = ("python", "core", "tsl", "compiler", "include", "lite")
# Names the released notebooks' setup cells bind, which a student's cell uses without importing.
KNOWN_ALIASES = {"tf": "tensorflow", "tf1": "tensorflow.compat.v1", "np": "numpy", "plt": "matplotlib.pyplot",
                 "os": "os"}
# Harmless standard modules: importing one only flags the submission.
HARMLESS = frozenset({"random", "functools", "typing", "dataclasses", "pathlib", "re", "string", "statistics",
                      "copy", "pprint", "textwrap", "enum", "abc", "contextlib", "heapq", "bisect", "decimal",
                      "fractions", "datetime", "numbers", "csv", "glob"})

# Modules an allowed one holds as an attribute (`shutil.os`, `os.sys`): reached that way, they
# bypass the allowlist. Only as attributes: as strings they are ordinary words ("signal", "code").
MODULES_AS_ATTRIBUTES = ("sys", "os", "ctypes", "gc", "builtins", "importlib", "inspect", "subprocess", "signal",
                         "threading", "types", "traceback", "weakref", "atexit", "pickle", "marshal", "code", "runpy",
                         "socket", "posix", "IPython", "ipykernel", "jupyter_client", "zmq", "autograder")
FRAMES = "reaches for stack frames or code objects, where the grader's probe keeps its state"
FORBIDDEN_NAMES = {
    "exec": "runs code built at run time, which nothing can read before it runs",
    "eval": "runs code built at run time, which nothing can read before it runs",
    "compile": "builds code at run time, which nothing can read before it runs",
    "__import__": "imports a module by a computed name",
    "globals": "reaches into a namespace by computed names",
    "locals": "reaches into a namespace by computed names",
    "vars": "reaches into an object's attributes by computed names",
    "breakpoint": "starts a debugger, which traces the grader's code",
    "get_ipython": "reaches IPython's machinery (hooks, transformers, the kernel's messages)",
    "__builtins__": "reaches Python's builtins, which the grader's code uses too",
    "__builtin__": "reaches Python's builtins, which the grader's code uses too",
    "In": "reads IPython's input history, where the grader's requests are",
    "Out": "reads IPython's output history",
    "setattr": "sets an attribute by a call the screen cannot follow",
    "delattr": "deletes an attribute by a call the screen cannot follow",
}
LOOKUPS = ("getattr", "hasattr")  # allowed only as `getattr(x, "literal")`
HISTORY = re.compile(r"_(i{1,3}|i\d+|ih|oh|dh|\d+)")  # IPython's history names: _i, _ii, _i3, _ih, _oh, _5
FORBIDDEN_ATTRIBUTES = {
    **dict.fromkeys(("f_back", "f_locals", "f_globals", "f_code", "f_builtins", "f_trace", "f_lineno", "tb_frame",
                     "tb_next", "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code",
                     "_getframe", "currentframe", "settrace", "setprofile", "addaudithook", "gettrace",
                     "getprofile", "exc_info", "last_traceback", "meta_path", "path_hooks"), FRAMES),
    **dict.fromkeys(("ctypeslib", "as_strided", "load_op_library", "load_library", "load_file_system_library",
                     "load_pluggable_device_library"), "reaches raw memory or native code"),
    **dict.fromkeys(MODULES_AS_ATTRIBUTES, "reaches a module a solution does not need, through another one"),
    "get_type_hints": "evaluates annotations as code",
    **dict.fromkeys(("user_ns", "input_transformers_cleanup", "input_transformers_post", "ast_transformers",
                     "display_pub", "register_transformer"), "reaches IPython's machinery"),
}
# Dunder attributes a solution may read: anything else (`__code__`, `__dict__`, `__globals__`,
# `__closure__`, `__subclasses__`, `__setattr__`, `__traceback__`...) reaches the machinery.
PLAIN_DUNDERS = frozenset({"__init__", "__name__", "__qualname__", "__doc__", "__class__", "__enter__", "__exit__",
                           "__call__", "__len__", "__iter__", "__next__", "__repr__", "__str__", "__eq__", "__hash__",
                           "__getitem__", "__contains__", "__version__"})
# What the probes call on the student's objects: replacing one on anything but the student's own
# `self` (a session's `run`, say) would hide what the probe counts.
PROBED = frozenset({"run", "eval", "get_operations", "finalize", "finalized", "get_collection", "get_collection_ref",
                    "as_default", "close", "initializer", "graph", "get_attr", "as_graph_def", "numpy", "save",
                    "restore", "read_value", "assign", "experimental_get_tracing_count"})
# Of those, the methods no answer stores on its own `self` (a graph, an assign op or a saver it may
# hold): set on `self`, one would shadow a TensorFlow object's method when a function is handed that
# object as its `self` (`def lower(self): self.run = ...`, then `lower(session)`).
PROBED_METHODS = PROBED - {"graph", "assign", "initializer", "save", "restore", "close", "numpy"}


@dataclass(frozen=True)
class Finding:
    """One construct the screen saw: where (cell index in the submission, line in the cell), the
    code (capped), why, and whether it zeroes the submission or only flags it."""

    cell: int
    line: int
    code: str
    reason: str
    zeroes: bool = True

    def json(self) -> dict[str, Any]:
        """The result's `flags` entry: `{cell, line, code, reason, zeroes}`."""
        return asdict(self)


def screen(nb: nbformat.NotebookNode, released: Iterable[str]) -> list[Finding]:
    """Every finding in the code cells of `nb` whose source is none of `released` (the release's
    code cells' sources). Check cells are left out: the grader never runs them."""
    with PARSING:  # one parse at a time in this process (see `lean.PARSING`)
        return _findings(nb, released)


def _findings(nb: nbformat.NotebookNode, released: Iterable[str]) -> list[Finding]:
    known = set(released)
    return screen_sources({index: cell.source for index, cell in enumerate(nb.cells)
                           if cell.cell_type == "code" and not is_check_cell(cell) and cell.source not in known})


def screen_sources(sources: dict[int, str]) -> list[Finding]:
    """The findings in cells' sources (by cell index), read as IPython runs them: magics and shell
    lines become the `get_ipython()` calls they are (only `%matplotlib inline` is left out), and a
    top-level `await` parses."""
    findings: list[Finding] = []
    trees = {}
    for cell, source in sources.items():
        try:
            trees[cell] = compile(_as_python(source), f"<cell {cell}>", "exec",
                                  flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        except (SyntaxError, ValueError):  # IPython cannot run it either: nothing in it runs
            continue
    own = {name for tree in trees.values() for name in _own_private(tree)}
    for cell, tree in trees.items():
        visitor = _Visitor(cell, sources[cell].splitlines(), own)
        visitor.visit(tree)
        findings += visitor.findings
    return findings


def _own_private(tree: ast.AST) -> set[str]:
    """The `_x` attributes the student's own code sets on `self` or `cls`, or defines in a class body."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _is_self(node.value):
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            names |= {t.id for stmt in node.body if isinstance(stmt, (ast.Assign, ast.AnnAssign))
                      for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                      if isinstance(t, ast.Name)}
    return {n for n in names if n.startswith("_")}


ALLOWED_MAGICS = re.compile(r"\s*%matplotlib\s+inline\s*$")


def _as_python(source: str) -> str:
    """The Python IPython runs for a cell's source (its own input transformers)."""
    from IPython.core.inputtransformer2 import TransformerManager

    lines = ["" if ALLOWED_MAGICS.match(line) else line for line in source.splitlines()]
    return TransformerManager().transform_cell("\n".join(lines))


def _code(text: str) -> str:
    return capped(" ".join(text.split()), MAX_CODE_CHARS)


def _dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def _literal_name(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


class _Visitor(ast.NodeVisitor):
    def __init__(self, cell: int, lines: list[str], own_private: set[str]):
        self.cell, self.lines = cell, lines
        self.findings: list[Finding] = []
        self.modules: dict[str, str] = dict(KNOWN_ALIASES)  # local alias -> module it names
        self.own_private = own_private  # `_x` names the student's own code defines

    def flag(self, node: ast.AST, reason: str, zeroes: bool = True) -> None:
        number = getattr(node, "lineno", 1)
        line = self.lines[number - 1] if 0 < number <= len(self.lines) else ""
        self.findings.append(Finding(self.cell, number, _code(line), reason, zeroes))

    # imports
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if self._import_allowed(node, alias.name, None):
                self.modules[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                    alias.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if self._import_allowed(node, module, alias.name):
                self.modules[alias.asname or alias.name] = f"{module}.{alias.name}"

    def _import_allowed(self, node: ast.AST, module: str, name: str | None) -> bool:
        parts = module.split(".")
        top = parts[0]
        if name is not None and (name == "*" or name.startswith("_")):
            self.flag(node, f"imports {'everything' if name == '*' else name} from {module}")
        elif any(p.startswith("_") for p in parts[1:]) or (top == "tensorflow" and parts[1:2]
                                                             and parts[1] in TENSORFLOW_INTERNALS):
            self.flag(node, f"imports {module}, an internal module")
        elif module in ALLOWED_FROM:
            if name not in ALLOWED_FROM[module]:
                self.flag(node, f"imports {module} for more than its notebook helpers")
        elif top in ALLOWED_MODULES:
            allowed = ALLOWED_MODULES[top]
            if allowed is not None and ((name or (parts[1] if len(parts) > 1 else None)) not in allowed | {None}):
                self.flag(node, f"imports a part of {top} a solution does not need")
            else:
                return True
        elif top in HARMLESS and len(parts) == 1:
            self.flag(node, f"imports {module}, which no course solution needs", zeroes=False)
            return True
        else:
            self.flag(node, f"imports {module}, which no course solution needs (it may reach the grader's machinery)")
        return False

    # names and attributes
    def visit_Name(self, node: ast.Name) -> None:
        if node.id in LOOKUPS:  # not called right here (`visit_Call` takes those): passed on, or rebound
            self.flag(node, f"uses {node.id} other than in a plain call, which the screen cannot follow")
        elif node.id in FORBIDDEN_NAMES:
            self.flag(node, f"uses {node.id}: it {FORBIDDEN_NAMES[node.id]}")
        elif HISTORY.fullmatch(node.id):
            self.flag(node, f"uses {node.id}: it reads IPython's history, where the grader's requests are")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name, receiver = node.attr, node.value
        storing = isinstance(node.ctx, (ast.Store, ast.Del))
        root = _dotted(receiver)
        module = self.modules.get(root.split(".")[0]) if root else None
        if name.startswith("__") and name.endswith("__"):
            if name not in PLAIN_DUNDERS or (storing and name == "__class__"):
                self.flag(node, f"uses .{name}: it {FRAMES if name != '__class__' else 'changes a class'}")
        elif name in FORBIDDEN_ATTRIBUTES:
            self.flag(node, f"uses .{name}: it {FORBIDDEN_ATTRIBUTES[name]}")
        elif name.startswith("_") and not _is_self(receiver) and (storing or name not in self.own_private):
            self.flag(node, f"uses .{name}, a private attribute of an object the submission did not define")
        elif isinstance(receiver, ast.Name) and ALLOWED_MODULES.get(self.modules.get(receiver.id, "")):
            if name not in ALLOWED_MODULES[self.modules[receiver.id]]:
                self.flag(node, f"uses {self.modules[receiver.id]}.{name}, which a solution does not need")
        if storing and _is_self(receiver) and name in PROBED_METHODS:
            self.flag(node, f"sets .{name} on self: handed a TensorFlow object, it would shadow the method the "
                            "grader's probe observes")
        if storing and not _is_self(receiver):
            if module is not None:
                self.flag(node, f"changes {module}: it patches a module the grader relies on")
            elif _is_type_call(receiver):
                self.flag(node, "changes a class through type(...)")
            elif name in PROBED:
                self.flag(node, f"replaces .{name} on an object the grader's probe observes")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in LOOKUPS:
            literal = _literal_name(node.args[1]) if len(node.args) > 1 else None
            if literal is None:
                self.flag(node, f"uses {func.id} with a computed name, which the screen cannot follow")
            for child in [*node.args, *node.keywords]:  # the name itself was looked at: it is called here
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self._check_literal(node, node.value)

    def _check_literal(self, node: ast.AST, text: str) -> None:
        """A string that names a forbidden attribute (for `getattr`, `operator.attrgetter`...)."""
        if (text in FORBIDDEN_ATTRIBUTES and text not in MODULES_AS_ATTRIBUTES) or (text.startswith("__") and text.endswith("__") and len(text) > 4
                                            and text not in PLAIN_DUNDERS):
            self.flag(node, f"names the attribute {text!r}, which reaches the grader's machinery")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        bases = [self.modules.get((_dotted(b) or "").split(".")[0], "") for b in node.bases]
        if any(b.startswith("tensorflow") for b in bases):
            probed = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))} & PROBED
            if probed:
                self.flag(node, f"subclasses a TensorFlow class and redefines {', '.join(sorted(probed))}, "
                                "which the grader's probe observes")
        for keyword in node.keywords:
            if keyword.arg == "metaclass":
                self.flag(node, "defines a metaclass, which changes how classes behave")
        self.generic_visit(node)


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _is_type_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("type", "super")


def verdict(findings: list[Finding]) -> str:
    """The `tampered` reason for findings that zero a submission ('' when none does): the grader's
    words, and the student's own line, which held no hidden input."""
    zeroing = [f for f in findings if f.zeroes]
    if not zeroing:
        return ""
    first = zeroing[0]
    more = f" (and {len(zeroing) - 1} more: see flags)" if len(zeroing) > 1 else ""
    return (f"the code read before grading {first.reason}: cell {first.cell}, line {first.line}: "
            f"`{first.code}`{more}; such code can steer what the grader observes, so the notebook was not run")
