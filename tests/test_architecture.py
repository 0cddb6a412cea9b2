"""The package's folders are its parts, and imports flow one way between them.

front ends -> judging -> engine; the course content and the probe side below them; the notebook
helpers on their own. Read from the source with `ast` (every import, at the top or inside a
function), so a lazy import cannot hide a wrong direction or a circle.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from autograder import COURSE_ROOT

PACKAGE = COURSE_ROOT / "autograder"

# What each part may import of `autograder` (its own modules always). A prefix allows the module
# and everything under it; `autograder` alone is the package's `__init__` (COURSE_ROOT).
MAY_IMPORT = {
    "frontends": ("autograder.judging", "autograder.engine", "autograder.inkernel", "autograder.course"),
    "judging": ("autograder.engine", "autograder.inkernel", "autograder.course"),
    "engine": ("autograder.inkernel", "autograder.course.spec"),
    "inkernel": ("autograder.course.spec", "autograder.course.lessons"),
    "course": ("autograder.inkernel.probing", "autograder.inkernel.probes"),
    "notebook": (),
}
# The public names at the top, and what each may import.
TOP = {"__init__": (), "__main__": ("autograder.frontends.cli",), "check": ("autograder.frontends.check",),
       "graph_picture": ("autograder.notebook.graph_picture",)}
# Besides the standard library, what the code that runs in the student's kernel may import.
KERNEL_SIDE_THIRD_PARTY = {"numpy", "tensorflow", "IPython"}


def module_name(path: Path) -> str:
    parts = path.relative_to(COURSE_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports, as absolute dotted names (relative imports resolved)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def own_imports(name: str) -> set[str]:
    """The modules of this package that `name` imports. A package named only as the parent of a
    module it imports (`from autograder.course import lessons`) does not count on its own."""
    found = {m for m in imports_of(MODULES[name]) if m in MODULES and m != name}
    return {m for m in found if not any(other.startswith(m + ".") for other in found)}


def part_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in MAY_IMPORT else "top"


def test_every_module_lives_in_a_part():
    loose = [n for n in MODULES if part_of(n) == "top" and n.rpartition(".")[2] not in TOP and n != "autograder"]
    assert not loose, f"modules outside the parts' folders: {loose}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_flow_one_way(name):
    part = part_of(name)
    if part == "top":
        allowed = TOP["__init__" if name == "autograder" else name.rpartition(".")[2]]
    else:
        allowed = (f"autograder.{part}", *MAY_IMPORT[part])
    wrong = sorted(m for m in own_imports(name)
                   if m != "autograder" and not any(m == a or m.startswith(a + ".") for a in allowed))
    assert not wrong, f"{name} ({part}) may import only {allowed}, and imports {wrong}"


def test_no_import_circles():
    graph = {name: own_imports(name) for name in MODULES}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path, node, nxt]
            if nxt not in state and (found := visit(nxt, [*path, node])):
                return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start, [])):
            pytest.fail("import circle: " + " -> ".join(cycle[cycle.index(cycle[-1]):]))


@pytest.mark.parametrize("name", sorted(n for n in MODULES if part_of(n) == "inkernel"))
def test_the_kernel_side_imports_only_what_it_must(name):
    outside = {m.split(".")[0] for m in imports_of(MODULES[name])} - {"autograder", "__future__"}
    extra = sorted(m for m in outside if m not in sys.stdlib_module_names and m not in KERNEL_SIDE_THIRD_PARTY)
    assert not extra, f"{name} runs in the student's kernel and imports {extra}"


def test_the_test_itself_sees_wrong_directions(tmp_path):
    """The reader resolves relative and lazy imports, so a wrong one cannot slip past it."""
    module = tmp_path / "autograder" / "engine" / "x.py"
    module.parent.mkdir(parents=True)
    module.write_text("def f():\n    from ..judging import judge\n    from . import kernel\n")
    global COURSE_ROOT
    saved, COURSE_ROOT = COURSE_ROOT, tmp_path
    try:
        assert {"autograder.judging.judge", "autograder.engine.kernel"} <= imports_of(module)
    finally:
        COURSE_ROOT = saved
