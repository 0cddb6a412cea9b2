"""Code as the similarity pass compares it: lines with an effect, tokens with names blanked, k-grams.

A copy is disguised by what changes no behaviour, so that is what goes before fingerprinting:
comments, docstrings, `pass`, prints, `if False:` blocks, IPython magics, and assignments to names
nothing reads (a dead line padded before every statement: `_ = 0`, `tmp = 1`). A list or dict
built by a loop (`out = []` then `for x in xs: out.append(f(x))`) becomes the comprehension it
is, so a loop rewritten as a comprehension, or back, reads the same. Each kept line remembers its
cell and line number, so a match is shown where the student wrote it.

Tokens: a name becomes `N` unless it is the course's vocabulary (an API the course's code calls,
`tf1`, `get_variable`, a builtin), so renaming hides nothing and calling another API is not the
same code; strings become `S`; numbers, keywords and punctuation stay. A fingerprint is the hash
of `K` consecutive tokens (every one is kept: no winnowing, so the figures never wobble).
"""
from __future__ import annotations

import ast
import builtins
import functools
import keyword
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

K = 12  # tokens per fingerprint: about one line of code

_TOKEN = re.compile(r"""(?P<s>[rRbBuUfF]{0,2}("{3}|'{3}|"|')(?:\\.|(?!\2).)*\2)|(?P<c>\#.*)"""
                    r"""|(?P<n>[A-Za-z_]\w*)|(?P<d>\d[\w.]*)|(?P<p>\S)""")
_KEEP = frozenset(keyword.kwlist) | frozenset(dir(builtins))


@dataclass(frozen=True)
class Line:
    """One kept line: its text (a rewritten loop's comprehension, if `rewritten`), cell and 1-based line."""

    text: str
    cell: str
    number: int
    rewritten: bool = False


@dataclass(frozen=True)
class Token:
    """A token's normal form and where it stands: index in the unit's lines, start and end column."""

    text: str
    line: int
    start: int
    end: int


def vocabulary(sources: Iterable[str]) -> frozenset[str]:
    """The names of the course's code that are not its own choice: attributes it reads but never
    sets, and names it reads but never binds (modules, imported functions)."""
    read, bound = set(), set()
    for source in sources:
        tree = _parse(source)
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.Attribute):
                (read if isinstance(node.ctx, ast.Load) else bound).add(node.attr)
            elif isinstance(node, ast.Name):
                (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bound.add(node.name)
    return frozenset(read - bound)


def normalised(cells: Sequence[tuple[str, str]]) -> list[Line]:
    """The lines of `cells` ((label, source) pairs) that have an effect, loops as comprehensions."""
    sources = [(label, _without_magics(source)) for label, source in cells]
    parsed = [_parsed_cell(source) for _, source in sources]
    read = set().union(*(cell.read for cell in parsed))
    kept = []
    for (label, source), cell in zip(sources, parsed):
        dead, rewrites = _analysed(source, cell.names & read)
        for number, text in enumerate(source.split("\n"), 1):
            if number in rewrites:
                kept.append(Line(rewrites[number], label, number, rewritten=True))
            elif number not in dead and text.strip() and not text.lstrip().startswith("#"):
                kept.append(Line(text, label, number))
    return kept


@dataclass(frozen=True)
class _Cell:
    """A cell's parse, kept per source (a class hands in the same cells many times): its tree (None
    when it does not parse), the names it reads, and every name its dead-code analysis can ask about."""

    tree: ast.Module | None
    read: frozenset[str]
    names: frozenset[str]


@functools.lru_cache(maxsize=4096)
def _parsed_cell(source: str) -> _Cell:
    tree = _parse(source)
    if tree is not None:
        nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Name)]
        return _Cell(tree, frozenset(n.id for n in nodes if isinstance(n.ctx, ast.Load)), frozenset(n.id for n in nodes))
    names = {n.id for line in source.split("\n") if (t := _parse_line(line.strip()))
             for n in ast.walk(t) if isinstance(n, ast.Name)}
    return _Cell(None, frozenset(_words_read(source)), frozenset(names))


@functools.lru_cache(maxsize=4096)
def _analysed(source: str, read: frozenset[str]) -> tuple[frozenset[int], dict[int, str]]:
    """The dead lines and rewritten loops of a cell, given the names the notebook reads among those
    the cell names (the only ones the analysis asks about). Callers only read the result."""
    cell, lines = _parsed_cell(source), source.split("\n")
    if cell.tree is None:
        return frozenset(_dead_lines(lines, read)), {}
    dead, rewrites = _dead_and_rewritten(cell.tree, lines, read)
    return frozenset(dead), rewrites


def tokens(lines: Sequence[Line], vocab: frozenset[str]) -> list[Token]:
    """The tokens of `lines`, names outside `vocab` blanked, strings as `S`, a `;` at each line's end."""
    found = []
    for i, line in enumerate(lines):
        for m in _TOKEN.finditer(line.text):
            kind = m.lastgroup if m.lastgroup != "s" or m.group("s") else "p"
            if kind == "c":
                break
            text = m.group(0)
            if m.group("s"):
                text = "S"
            elif m.group("n") and text not in _KEEP and text not in vocab:
                text = "N"
            found.append(Token(text, i, m.start(), m.end()))
        found.append(Token(";", i, len(line.text), len(line.text)))
    return found


def kgrams(toks: Sequence[Token], k: int = K) -> list[int]:
    """The hash of the `k` tokens starting at each position (none for a unit shorter than `k`)."""
    texts = [t.text for t in toks]
    return [hash(tuple(texts[i:i + k])) for i in range(len(texts) - k + 1)]


def _words_read(source: str) -> set[str]:
    """The names a cell that does not parse reads, as far as its words tell: every name but the
    targets of its `name = ...` lines."""
    target = re.compile(r"\s*([A-Za-z_]\w*)\s*=[^=]")
    return {word for line in source.split("\n") for word in re.findall(r"[A-Za-z_]\w*",
            line[target.match(line).end(1):] if target.match(line) else line)}


def _dead_lines(lines: Sequence[str], read: set[str]) -> set[int]:
    """In a cell that does not parse (so no statement can be placed), the lines that parse alone
    as one statement with no effect."""
    dead = set()
    for number, line in enumerate(lines, 1):
        tree = _parse_line(line.strip())
        if tree and len(tree.body) == 1 and _is_dead(tree.body[0], read, True):
            dead.add(number)
    return dead


def _without_magics(source: str) -> str:
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in source.split("\n"))


@functools.lru_cache(maxsize=4096)
def _parse_line(line: str) -> ast.Module | None:
    """One line of a cell that does not parse, parsed alone (kept: the same lines recur; read only)."""
    return _parse(line)


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):  # not Python: compared as written
        return None


def _bodies(tree: ast.AST) -> Iterable[tuple[list[ast.stmt], bool]]:
    """Every statement list of `tree`, and whether an unused assignment in it is dead (not in a class
    body, where it defines an attribute)."""
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                yield body, not isinstance(node, ast.ClassDef)
        for handler in getattr(node, "handlers", ()):
            yield handler.body, True


def _pure(node: ast.AST) -> bool:
    return not any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Subscript))
                   for n in ast.walk(node))


def _is_dead(stmt: ast.stmt, read: set[str], may_drop_assignments: bool) -> bool:
    if isinstance(stmt, ast.Pass):
        return True
    if isinstance(stmt, ast.Expr):
        value = stmt.value
        return isinstance(value, ast.Constant) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print")
    if isinstance(stmt, (ast.If, ast.While)):
        return isinstance(stmt.test, ast.Constant) and not stmt.test.value and not stmt.orelse
    if may_drop_assignments and isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names = [n for t in targets for n in ast.walk(t)]
        return (stmt.value is None or _pure(stmt.value)) and all(
            isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Store)) for n in names) and not any(
            isinstance(n, ast.Name) and n.id in read for n in names)
    return False


def _whole_lines(stmt: ast.stmt, lines: Sequence[str]) -> bool:
    """Whether `stmt` alone fills its lines (no `a = 1; b = 2` sharing one)."""
    before = lines[stmt.lineno - 1][:stmt.col_offset]
    after = lines[stmt.end_lineno - 1][stmt.end_col_offset:].strip()
    return not before.strip() and (not after or after.startswith("#"))


def _dead_and_rewritten(tree: ast.Module, lines: Sequence[str], read: set[str]) -> tuple[set[int], dict[int, str]]:
    """The 1-based numbers of dead lines, and the comprehension each rewritten loop's first line becomes."""
    dead: set[int] = set()
    rewrites: dict[int, str] = {}
    for body, may_drop in _bodies(tree):
        live = []
        for stmt in body:
            if _is_dead(stmt, read, may_drop) and _whole_lines(stmt, lines):
                dead.update(range(stmt.lineno, stmt.end_lineno + 1))
            else:
                live.append(stmt)
        for start, loop in zip(live, live[1:]):
            comprehension = _as_comprehension(start, loop, read)
            if comprehension and _whole_lines(start, lines) and _whole_lines(loop, lines):
                indent = lines[start.lineno - 1][:start.col_offset]
                rewrites[start.lineno] = f"{indent}{comprehension}"
                dead.update(n for n in range(start.lineno + 1, loop.end_lineno + 1))
    return dead, rewrites


def _as_comprehension(start: ast.stmt, loop: ast.stmt, read: set[str]) -> str:
    """`name = [] ; for t in it: name.append(e)` (or `if c:` around it, or `name[k] = v` into a `{}`)
    as `name = [e for t in it if c]`; "" when the two statements are not that."""
    if not (isinstance(start, ast.Assign) and len(start.targets) == 1 and isinstance(start.targets[0], ast.Name)
            and isinstance(loop, ast.For) and not loop.orelse):
        return ""
    name = start.targets[0].id
    body = [s for s in loop.body if not _is_dead(s, read, True)]
    condition = None
    if len(body) == 1 and isinstance(body[0], ast.If) and not body[0].orelse:
        condition = body[0].test
        body = [s for s in body[0].body if not _is_dead(s, read, True)]
    if len(body) != 1:
        return ""
    step, head = body[0], f"for {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}"
    tail = f" if {ast.unparse(condition)}" if condition is not None else ""
    empty_list = isinstance(start.value, ast.List) and not start.value.elts
    empty_dict = isinstance(start.value, ast.Dict) and not start.value.keys
    if (empty_list and isinstance(step, ast.Expr) and isinstance(step.value, ast.Call)
            and isinstance(step.value.func, ast.Attribute) and step.value.func.attr == "append"
            and isinstance(step.value.func.value, ast.Name) and step.value.func.value.id == name
            and len(step.value.args) == 1 and not step.value.keywords):
        return f"{name} = [{ast.unparse(step.value.args[0])} {head}{tail}]"
    if (empty_dict and isinstance(step, ast.Assign) and len(step.targets) == 1
            and isinstance(step.targets[0], ast.Subscript) and isinstance(step.targets[0].value, ast.Name)
            and step.targets[0].value.id == name):
        return f"{name} = {{{ast.unparse(step.targets[0].slice)}: {ast.unparse(step.value)} {head}{tail}}}"
    return ""
