"""Read a submission's own code with `ast` before any of it runs: zero what has no honest use in
this course, and flag for the instructor what reaches for the grader's machinery.

Honest code never costs a point. Students write magics (`%%time`, `%timeit`), `__main__` guards,
`getattr` with a variable, metaclasses, comments in any cell: none of that is even flagged. What
zeroes a submission (`tampered`, 0 on every exercise, never run) is a short list of constructs
with no honest use anywhere in this course (`ZEROING`, docs/instructor.md section 8): tracing,
profiling and audit hooks; frame objects; walks of the garbage collector; raw memory and native
code (`ctypes`, `load_op_library`); assigning a function's `__code__`; naming the grader's own parts
(`autograder.inkernel`, `.course`, `.judging`, `.engine`, `.frontends`). The student's check cell
refuses the same constructs first, in the same words (`frontends.check`), so no student learns of
the rule from their grade.

Everything else the screen notices (a private attribute of an object the student did not define,
an attribute of a module set, `exec`, IPython's history, an import of an internal module...) is a
`Finding` with `zeroes=False`: the result lists it under `flags`, with the cell and line, for the
instructor to review; the marks stand. Verdicts rest on what the grader observes, not on this.

The code read is every code cell whose tokens differ from every code cell of the released
notebook: white space, blank lines and comments do not count (`code_key`), so the course's own
cells, however a student re-spaced or annotated them, are never read as the student's. A cell is
read as IPython runs it: magics and shell lines become the `get_ipython()` calls they are, and the
body of a timing magic (`%time`, `%%time`, `%timeit`, `%%timeit`, `%%capture`) is read as code.
"""
from __future__ import annotations

import ast
import re
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Iterable

from autograder.engine.untrusted import capped
from autograder.judging.cells import as_python, code_key

if TYPE_CHECKING:
    import nbformat

MAX_CODE_CHARS = 120

# The constructs that zero a submission: none has an honest use in this course.
HOOKS = "sets a tracing, profiling or audit hook, which would watch the grader's own code"
FRAMES = "takes a stack frame, where the grader's probe keeps its state"
GC_WALK = "walks the garbage collector's objects, which reach the grader's probe"
NATIVE = "reaches raw memory or native code"
CODE_SWAP = "replaces a function's code object"
ZEROING = {
    **dict.fromkeys(("settrace", "setprofile", "addaudithook"), HOOKS),
    **dict.fromkeys(("_getframe", "_current_frames", "currentframe", "f_back", "f_locals", "f_globals", "f_code",
                     "f_builtins", "f_trace", "tb_frame", "gi_frame", "cr_frame", "ag_frame"), FRAMES),
    **dict.fromkeys(("get_objects", "get_referrers", "get_referents"), GC_WALK),
    **dict.fromkeys(("ctypes", "ctypeslib", "load_op_library", "load_library", "load_file_system_library",
                     "load_pluggable_device_library"), NATIVE),
}
GRADER = "reaches the grader's own code, which nothing in this course needs"
# The grader's parts a notebook never uses (it uses `autograder.check`, `.notebook`, `.graph_picture`),
# named in an import, an attribute chain or a string (`sys.modules["autograder.inkernel.probe"]`).
GRADER_PARTS = re.compile(r"autograder\.(inkernel|course|judging|engine|frontends)\b")
# Functions that hand back frames, by module: zero only on that module (`tf.stack` is honest).
FRAME_FUNCTIONS = {"inspect": frozenset({"stack", "trace", "getouterframes", "getinnerframes"}),
                   "traceback": frozenset({"walk_stack", "walk_tb"})}

# Modules a student's cell may import without a flag: what the solutions, the released notebooks'
# exercise cells and `tests/alternatives/` import, and the standard library's everyday modules.
# (top-level) name -> None for the whole module, else the attributes used without a flag.
ALLOWED_MODULES: dict[str, frozenset[str] | None] = {
    "tensorflow": None, "numpy": None, "matplotlib": None, "keras": None,
    "math": None, "time": None, "collections": None, "itertools": None, "json": None,
    "tempfile": None, "shutil": None, "__future__": None,
    "os": frozenset({"path", "listdir", "makedirs", "mkdir", "getcwd", "remove", "unlink", "rmdir", "walk",
                     "scandir", "sep", "rename", "replace", "stat", "fspath", "PathLike", "environ", "getenv",
                     "cpu_count", "linesep", "curdir", "chdir"}),
    "sys": frozenset({"version", "version_info", "platform", "argv", "stdout", "stderr", "maxsize", "float_info",
                      "exit", "getsizeof", "getrecursionlimit", "executable"}),
    **dict.fromkeys(("random", "functools", "typing", "dataclasses", "pathlib", "re", "string", "statistics",
                     "copy", "pprint", "textwrap", "enum", "abc", "contextlib", "heapq", "bisect", "decimal",
                     "fractions", "datetime", "numbers", "csv", "glob", "warnings", "operator", "timeit",
                     "logging", "argparse", "uuid", "hashlib", "io", "struct", "array", "queue",
                     "concurrent", "tqdm", "PIL", "pandas", "scipy", "IPython", "traceback"), None),
}
# Dotted modules allowed beyond those, with the names a `from` import may take from them.
ALLOWED_FROM = {"IPython.display": frozenset({"display", "Markdown", "HTML", "Image", "clear_output", "SVG"}),
                "autograder.graph_picture": frozenset({"show_graph", "DEFAULT_COLLAPSE"}),
                "autograder.check": frozenset({"Checker"})}
COURSE_HELPERS = "autograder.notebook"  # the notebooks' helper package: any of it
# TensorFlow's internals: patch points of what the probes observe, never needed by a solution.
TENSORFLOW_INTERNALS = ("python", "core", "tsl", "compiler", "include", "lite")
# Names the released notebooks' setup cells bind, which a student's cell uses without importing.
KNOWN_ALIASES = {"tf": "tensorflow", "tf1": "tensorflow.compat.v1", "np": "numpy", "plt": "matplotlib.pyplot",
                 "os": "os"}
# Magics whose body is ordinary code run as it stands: read the body as code.
TRANSPARENT_MAGICS = frozenset({"time", "timeit", "capture"})
QUIET_MAGICS = frozenset({"matplotlib", "load_ext", "config", "tensorboard"})

# Modules an allowed one holds as an attribute (`shutil.os`, `os.sys`): reached that way, they
# bypass the allowlist. Only as attributes: as strings they are ordinary words ("signal", "code").
MODULES_AS_ATTRIBUTES = ("sys", "ctypes", "gc", "builtins", "importlib", "inspect", "subprocess", "signal",
                         "threading", "types", "traceback", "weakref", "atexit", "pickle", "marshal", "code", "runpy",
                         "socket", "posix", "IPython", "ipykernel", "jupyter_client", "zmq", "autograder")
FLAGGED_NAMES = {
    "exec": "runs code built at run time, which nothing can read before it runs",
    "eval": "runs code built at run time, which nothing can read before it runs",
    "compile": "builds code at run time, which nothing can read before it runs",
    "__import__": "imports a module by a computed name",
    "breakpoint": "starts a debugger, which traces the grader's code",
    "get_ipython": "reaches IPython's machinery (hooks, transformers, the kernel's messages)",
    "__builtins__": "reaches Python's builtins, which the grader's code uses too",
    "__builtin__": "reaches Python's builtins, which the grader's code uses too",
    "In": "reads IPython's input history, where the grader's requests are",
    "Out": "reads IPython's output history",
}
HISTORY = re.compile(r"_(i{1,3}|i\d+|ih|oh|dh|\d+)")  # IPython's history names: _i, _ii, _i3, _ih, _oh, _5
FLAGGED_ATTRIBUTES = {
    **dict.fromkeys(("gettrace", "getprofile", "exc_info", "last_traceback", "meta_path", "path_hooks",
                     "as_strided", "get_type_hints"), "reaches the interpreter's machinery"),
    **dict.fromkeys(MODULES_AS_ATTRIBUTES, "reaches a module a solution does not need, through another one"),
    **dict.fromkeys(("user_ns", "input_transformers_cleanup", "input_transformers_post", "ast_transformers",
                     "display_pub", "register_transformer", "events"), "reaches IPython's machinery"),
}
# Dunder attributes read without a flag: anything else (`__code__`, `__globals__`, `__closure__`,
# `__subclasses__`, `__setattr__`...) on an object other than the student's own `self` is flagged.
PLAIN_DUNDERS = frozenset({"__init__", "__name__", "__qualname__", "__doc__", "__class__", "__enter__", "__exit__",
                           "__call__", "__len__", "__iter__", "__next__", "__repr__", "__str__", "__eq__", "__hash__",
                           "__getitem__", "__contains__", "__version__", "__dict__", "__module__", "__annotations__",
                           "__slots__", "__file__", "__all__", "__mro__", "__bases__", "__init_subclass__",
                           "__post_init__", "__new__", "__setitem__", "__add__", "__lt__", "__le__", "__gt__",
                           "__ge__", "__ne__", "__bool__", "__float__", "__int__", "__array__", "__getattr__",
                           "__setattr__", "__dataclass_fields__", "__wrapped__"})
# What the probes call on the student's objects: replacing one on anything but the student's own
# `self` (a session's `run`, say) is flagged.
PROBED = frozenset({"run", "eval", "get_operations", "finalize", "finalized", "get_collection", "get_collection_ref",
                    "as_default", "close", "initializer", "graph", "get_attr", "as_graph_def", "numpy", "save",
                    "restore", "read_value", "assign", "experimental_get_tracing_count", "make_callable"})


@dataclass(frozen=True)
class Finding:
    """One construct the screen saw: where (cell index in the submission, line in the cell), the
    code (capped), why, and whether it zeroes the submission (`ZEROING`) or only flags it."""

    cell: int
    line: int
    code: str
    reason: str
    zeroes: bool = False

    def json(self) -> dict[str, Any]:
        """The result's `flags` entry: `{cell, line, code, reason, zeroes}`."""
        return asdict(self)


def screen(nb: nbformat.NotebookNode, released: Iterable[str]) -> list[Finding]:
    """Every finding in the code cells of `nb` whose tokens are none of `released`'s (the release's
    code cells' sources, compared by `code_key`). Check cells are left out: the grader never runs them."""
    from autograder.engine.kernel import is_check_cell  # here: the check cell imports this module, not the engine
    from autograder.judging.lean import PARSING

    with PARSING:  # one parse at a time in this process (see `lean.PARSING`)
        known = {code_key(source) for source in released}
        return screen_sources({index: cell.source for index, cell in enumerate(nb.cells)
                               if cell.cell_type == "code" and not is_check_cell(cell)
                               and code_key(cell.source) not in known})


def screen_sources(sources: dict[int, str]) -> list[Finding]:
    """The findings in cells' sources (by cell index), read as IPython runs them: magics and shell
    lines become the `get_ipython()` calls they are, and a top-level `await` parses."""
    findings: list[Finding] = []
    trees = {cell: tree for cell, source in sources.items() if (tree := _parse(as_python(source))) is not None}
    own = {name for tree in trees.values() for name in _own_private(tree)}
    for cell, tree in trees.items():
        visitor = _Visitor(cell, sources[cell].splitlines(), own)
        visitor.visit(tree)
        findings += visitor.findings
    return findings


def _parse(python: str) -> ast.Module | None:
    try:
        return compile(python, "<cell>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                       dont_inherit=True)
    except (SyntaxError, ValueError):  # IPython cannot run it either: nothing in it runs
        return None


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
            names |= {stmt.name for stmt in node.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return {n for n in names if n.startswith("_")}


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


def _magic(node: ast.Call) -> tuple[str, str, str] | None:
    """`("line" or "cell", name, the code it runs)` for IPython's `get_ipython().run_line_magic(name, code)`
    and `run_cell_magic(name, line, body)` with literal arguments, else None."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("run_line_magic", "run_cell_magic")
            and isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name)
            and func.value.func.id == "get_ipython"):
        return None
    literals = [_literal_name(a) for a in node.args]
    if not literals or None in literals:
        return None
    if func.attr == "run_line_magic" and len(literals) == 2:
        return "line", literals[0], literals[1]
    if func.attr == "run_cell_magic" and len(literals) == 3:
        return "cell", literals[0], literals[2]
    return None


class _Visitor(ast.NodeVisitor):
    def __init__(self, cell: int, lines: list[str], own_private: set[str], offset: int = 0):
        self.cell, self.lines, self.offset = cell, lines, offset
        self.findings: list[Finding] = []
        self.modules: dict[str, str] = dict(KNOWN_ALIASES)  # local alias -> module it names
        self.own_private = own_private  # `_x` names the student's own code defines
        self.stored: set[str] = set()  # names the cell binds (a loop variable `_i` is not IPython's)

    def flag(self, node: ast.AST, reason: str, zeroes: bool = False) -> None:
        number = getattr(node, "lineno", 1) + self.offset
        line = self.lines[number - 1] if 0 < number <= len(self.lines) else ""
        self.findings.append(Finding(self.cell, number, _code(line), reason, zeroes))

    def zero(self, node: ast.AST, reason: str) -> None:
        self.flag(node, reason, zeroes=True)

    def visit_Module(self, node: ast.Module) -> None:
        self.stored = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        self.stored |= {a.arg for n in ast.walk(node) if isinstance(n, ast.arguments)
                        for a in (*n.posonlyargs, *n.args, *n.kwonlyargs)}
        self.generic_visit(node)

    # imports
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._import_allowed(node, alias.name, None)
            self.modules[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else \
                alias.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name in ZEROING or alias.name in FRAME_FUNCTIONS.get(module, ()):
                self.zero(node, f"imports {alias.name}: it {ZEROING.get(alias.name, FRAMES)}")
            else:
                self._import_allowed(node, module, alias.name)
                self.modules[alias.asname or alias.name] = f"{module}.{alias.name}"

    def _import_allowed(self, node: ast.AST, module: str, name: str | None) -> None:
        """Flag (or zero) the import of `module` (or of `name` from it) unless it is allowed."""
        parts = module.split(".")
        top = parts[0]
        if top in ("ctypes", "_ctypes"):
            self.zero(node, f"imports {module}: it {NATIVE}")
        elif GRADER_PARTS.match(f"{module}.{name}" if name else module):
            self.zero(node, f"imports {module}: it {GRADER}")
        elif name is not None and (name == "*" or name.startswith("_")):
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
        elif not (module == COURSE_HELPERS or module.startswith(COURSE_HELPERS + ".")):
            self.flag(node, f"imports {module}, which no course solution needs")

    # names and attributes
    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id not in self.stored:
            if node.id in FLAGGED_NAMES:
                self.flag(node, f"uses {node.id}: it {FLAGGED_NAMES[node.id]}")
            elif HISTORY.fullmatch(node.id):
                self.flag(node, f"uses {node.id}: it reads IPython's history, where the grader's requests are")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name, receiver = node.attr, node.value
        storing = isinstance(node.ctx, (ast.Store, ast.Del))
        root = _dotted(receiver)
        module = self.modules.get(root.split(".")[0]) if root else None
        if root == "autograder" and name in ("inkernel", "course", "judging", "engine", "frontends"):
            self.zero(node, f"uses autograder.{name}: it {GRADER}")
        elif name == "__code__" and storing:
            self.zero(node, f"sets .__code__: it {CODE_SWAP}")
        elif name in ZEROING:
            self.zero(node, f"uses .{name}: it {ZEROING[name]}")
        elif name in FRAME_FUNCTIONS.get(module or "", ()):
            self.zero(node, f"uses {module}.{name}: it {FRAMES}")
        elif name.startswith("__") and name.endswith("__"):
            if not _is_self(receiver) and (name not in PLAIN_DUNDERS or (storing and name == "__class__")):
                self.flag(node, f"uses .{name}, which reaches the interpreter's machinery")
        elif name in FLAGGED_ATTRIBUTES:
            self.flag(node, f"uses .{name}: it {FLAGGED_ATTRIBUTES[name]}")
        elif name.startswith("_") and not _is_self(receiver) and name not in self.own_private:  # read or set
            self.flag(node, f"uses .{name}, a private attribute of an object the submission did not define")
        elif isinstance(receiver, ast.Name) and ALLOWED_MODULES.get(self.modules.get(receiver.id, "")):
            if name not in ALLOWED_MODULES[self.modules[receiver.id]]:
                self.flag(node, f"uses {self.modules[receiver.id]}.{name}, which a solution does not need")
        if storing and not _is_self(receiver):
            if module is not None:
                self.flag(node, f"changes {module}: it patches a module the grader relies on")
            elif _is_type_call(receiver):
                self.flag(node, "changes a class through type(...)")
            elif name in PROBED:
                self.flag(node, f"replaces .{name} on an object the grader's probe observes")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and GRADER_PARTS.search(node.value):
            self.zero(node, f"names {GRADER_PARTS.search(node.value).group(0)}: it {GRADER}")

    def visit_Call(self, node: ast.Call) -> None:
        magic = _magic(node)
        if magic is not None:
            self._visit_magic(node, *magic)
            return
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("getattr", "setattr", "delattr", "hasattr") and len(node.args) > 1:
            literal = _literal_name(node.args[1])
            if literal == "__code__" and func.id == "setattr":
                self.zero(node, f"sets .__code__: it {CODE_SWAP}")
            elif literal in ZEROING:
                self.zero(node, f"names .{literal}: it {ZEROING[literal]}")
            elif literal is not None and (literal in FLAGGED_ATTRIBUTES or literal.startswith("_")) \
                    and literal not in PLAIN_DUNDERS and literal not in self.own_private:
                self.flag(node, f"names the attribute {literal!r} for {func.id}")
        self.generic_visit(node)

    def _visit_magic(self, node: ast.Call, kind: str, name: str, code: str) -> None:
        """A timing magic's code is read as code (from the cell's line 2 for a cell magic); any other
        magic or shell command is flagged, but for a few harmless ones (`%matplotlib inline`)."""
        if name in TRANSPARENT_MAGICS:
            tree = _parse(as_python(code))
            if tree is not None:
                inner = _Visitor(self.cell, self.lines, self.own_private,
                                 offset=self.offset + (node.lineno if kind == "cell" else node.lineno - 1))
                inner.modules = self.modules
                inner.visit(tree)
                self.findings += inner.findings
        elif name not in QUIET_MAGICS:
            self.flag(node, f"runs the IPython magic %{name}, which the screen cannot read")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        bases = [self.modules.get((_dotted(b) or "").split(".")[0], "") for b in node.bases]
        if any(b.startswith("tensorflow") for b in bases):
            probed = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))} & PROBED
            if probed:
                self.flag(node, f"subclasses a TensorFlow class and redefines {', '.join(sorted(probed))}, "
                                "which the grader's probe observes")
        self.generic_visit(node)


def _is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _is_type_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("type", "super")


def verdict(findings: list[Finding]) -> str:
    """The `tampered` reason for findings that zero a submission ('' when none does): the grader's
    words, and the student's own line, which held no hidden input. The check cell says the same."""
    zeroing = [f for f in findings if f.zeroes]
    if not zeroing:
        return ""
    first = zeroing[0]
    more = f" (and {len(zeroing) - 1} more: see flags)" if len(zeroing) > 1 else ""
    return (f"the code read before grading {first.reason}: cell {first.cell}, line {first.line}: "
            f"`{first.code}`{more}; this course has no use for it and the grader cannot watch code "
            "that does it, so the notebook was not run")
