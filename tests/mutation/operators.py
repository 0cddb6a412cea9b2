"""Mutants of a solution cell: mutmut's operators, plus the course's own.

mutmut (pinned in requirements.txt) supplies the classic node operators: numbers off by one,
flipped comparisons and arithmetic, True/False, `and`/`or`, removed arguments, `x = None`,
`+=` turned into `=`, string changes. Its table maps a libcst node type to a function yielding
replacement nodes, which is all a cell needs: no files, no trampolines, no test runner.

The course adds what graph code gets wrong and mutmut does not generate: dropped and swapped
statements, swapped arguments, changed dtypes, and two state-location mutations (a session made
per call; a variable turned into a constant, which can no longer hold state).
Only code between `### BEGIN SOLUTION` and `### END SOLUTION` is mutated, docstrings never.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider
from mutmut.mutation.mutators import mutation_operators

DTYPE_SWAPS = {"float32": "float64", "float64": "float32", "int64": "int32", "int32": "int64",
               "float16": "float32", "bool": "int32"}
DTYPE_MODULES = {"tf", "np", "numpy", "tensorflow"}
VARIABLE_MAKERS = {"Variable"}  # tf.Variable, tf1.Variable, tf.compat.v1.Variable
SESSION_MAKERS = {"Session", "InteractiveSession"}

Operator = Callable[[cst.CSTNode], Iterable[cst.CSTNode]]


def _dtype(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`tf.float32` -> `tf.float64`, `np.int64` -> `np.int32`, `"float32"` -> `"float64"`, ..."""
    if isinstance(node, cst.Attribute) and node.attr.value in DTYPE_SWAPS:
        base = node.value
        if isinstance(base, cst.Name) and (base.value in DTYPE_MODULES or base.value.startswith("tf")):
            yield node.with_changes(attr=cst.Name(DTYPE_SWAPS[node.attr.value]))
    elif isinstance(node, cst.SimpleString) and node.evaluated_value in DTYPE_SWAPS:
        quote = node.value[-1]
        yield node.with_changes(value=f"{quote}{DTYPE_SWAPS[node.evaluated_value]}{quote}")


def _swap_arguments(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`f(a, b, ...)` -> `f(b, a, ...)` (the first two positional arguments)."""
    if isinstance(node, cst.Call):
        positional = [i for i, a in enumerate(node.args) if a.keyword is None and not a.star]
        if len(positional) >= 2:
            i, j = positional[:2]
            args = list(node.args)
            args[i], args[j] = args[j].with_changes(comma=args[i].comma), args[i].with_changes(comma=args[j].comma)
            yield node.with_changes(args=args)


def _callee(node: cst.Call) -> str:
    func = node.func
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""


def _variable_to_constant(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`tf1.Variable(init, ...)` -> `tf.constant(init)`: the value can no longer change."""
    if isinstance(node, cst.Call) and _callee(node) in VARIABLE_MAKERS and node.args:
        first = node.args[0]
        yield cst.parse_expression("tf.constant(0)").with_changes(args=[first.with_changes(comma=cst.MaybeSentinel.DEFAULT)])


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString))


def _is_pass(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(isinstance(s, cst.Pass) for s in statement.body)


def block_mutants(block: cst.IndentedBlock, mutable: Callable[[cst.CSTNode], bool]
                  ) -> Iterator[tuple[str, cst.CSTNode, cst.CSTNode]]:
    """(operator, the statement mutated, the new block): each `mutable` statement of a block
    replaced by `pass` ("drop_statement"), each pair of neighbouring ones swapped ("swap_statements")."""
    body = list(block.body)
    for i, statement in enumerate(body):
        if mutable(statement) and not _is_docstring(statement) and not _is_pass(statement):
            stand_in = cst.SimpleStatementLine([cst.Pass()], leading_lines=statement.leading_lines)
            yield "drop_statement", statement, block.with_changes(body=[*body[:i], stand_in, *body[i + 1:]])
    for i in range(len(body) - 1):
        if mutable(body[i]) and mutable(body[i + 1]) and not _is_docstring(body[i]):
            yield "swap_statements", body[i], block.with_changes(body=[*body[:i], body[i + 1], body[i], *body[i + 2:]])



COURSE_OPERATORS: list[tuple[str, type, Operator]] = [
    ("dtype", cst.CSTNode, _dtype),
    ("swap_arguments", cst.Call, _swap_arguments),
    ("variable_to_constant", cst.Call, _variable_to_constant),
]
# mutmut's operators, but not its argument removal, `x = None` and string mangling: in graph code
# those nearly always crash at once (a killed mutant that teaches nothing) and they were 2/3 of all
# mutants, which the 20-minute budget of `make mutants` cannot afford. Swapped arguments, dropped
# statements and changed dtypes (below) probe the same places more pointedly.
SKIPPED_MUTMUT = {"operator_arg_removal", "operator_assignment", "operator_string"}
MUTMUT_OPERATORS: list[tuple[str, type, Operator]] = [
    (function.__name__.removeprefix("operator_"), node_type, function)
    for node_type, function in mutation_operators if function.__name__ not in SKIPPED_MUTMUT]


def session_per_call(source: str) -> Iterator[str]:
    """State location: a session kept on `self` in `__init__` and used by other methods becomes a
    fresh session on every use, so nothing it held (initialised variables, their values) remains."""
    module = cst.parse_module(source)
    kept = set()
    for node in _walk(module):
        if (isinstance(node, cst.FunctionDef) and node.name.value == "__init__"):
            for inner in _walk(node):
                if (isinstance(inner, cst.Assign) and isinstance(inner.value, cst.Call)
                        and _callee(inner.value) in SESSION_MAKERS):
                    kept |= {t.target.attr.value for t in inner.targets if isinstance(t.target, cst.Attribute)}
    for name in sorted(kept):
        class PerCall(cst.CSTTransformer):
            def __init__(self):
                self.depth = 0

            def visit_FunctionDef(self, node):
                self.depth += node.name.value == "__init__"

            def leave_FunctionDef(self, original, updated):
                self.depth -= original.name.value == "__init__"
                return updated

            def leave_Attribute(self, original, updated):
                if (self.depth == 0 and isinstance(original.value, cst.Name) and original.value.value == "self"
                        and original.attr.value == name):
                    return cst.parse_expression(f"tf.compat.v1.Session(graph=self.{name}.graph)")
                return updated

        mutated = module.visit(PerCall()).code
        if mutated != source:
            yield mutated


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


def node_mutants(source: str, lines: set[int]) -> Iterator[tuple[str, int, str]]:
    """(operator, line, mutated source) for every node operator applied to every node that starts
    on one of `lines` (1-based) and is not part of a docstring."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    module, positions = wrapper.module, wrapper.resolve(PositionProvider)
    docstrings = {id(s.body[0].value) for s in _walk(module) if _is_docstring(s)}

    def mutable(node: cst.CSTNode) -> bool:
        return node in positions and positions[node].start.line in lines

    for node in _walk(module):
        if isinstance(node, cst.IndentedBlock):
            for name, statement, replacement in block_mutants(node, mutable):
                yield name, positions[statement].start.line, module.deep_replace(node, replacement).code
        if not mutable(node) or id(node) in docstrings:
            continue
        line = positions[node].start.line
        for name, node_type, operator in (*MUTMUT_OPERATORS, *COURSE_OPERATORS):
            if not isinstance(node, node_type):
                continue
            for replacement in operator(node):
                yield name, line, module.deep_replace(node, replacement).code
