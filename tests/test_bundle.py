"""The student bundle holds what a student needs and nothing an instructor must keep."""
import re
import zipfile

import nbformat
import pytest

from autograder import COURSE_ROOT, lessons
from autograder.bundle import build
from autograder.reference import solution_path
from tests.conftest import ASSIGNMENTS, release_path


def solution_lines(assignment: str) -> set[str]:
    """Lines inside BEGIN/END SOLUTION blocks that nothing meant for students also contains: no
    released notebook (`self.sess = tf1.Session()` may be one lesson's answer and another's demo)
    and no lesson module's teaching text (a hint may quote `p = step / decay_steps`)."""
    public = [release_path(a).read_text() for a in ASSIGNMENTS]
    public += [p.read_text() for p in (COURSE_ROOT / "autograder" / "lessons").glob("l*.py")]
    release = "\n".join(public)
    lines = set()
    for cell in nbformat.read(solution_path(lessons.load(assignment)), as_version=4).cells:
        for block in re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", cell.source, flags=re.S):
            lines |= {line.strip() for line in block.splitlines()
                      if len(line.strip()) > 15 and line.strip() not in release
                      and json_escaped(line.strip()) not in release}
    return lines


def json_escaped(line: str) -> str:
    return line.replace("\\\\", "\\\\\\\\").replace('"', '\\\\"')


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    path = build(tmp_path_factory.mktemp("bundle") / "student.zip")
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name).decode("utf-8", "replace") for name in archive.namelist()}


def test_bundle_has_what_a_student_needs(bundle):
    names = set(bundle)
    for assignment in ASSIGNMENTS:
        notebook = lessons.load(assignment).notebook
        assert f"tfgraph-course/notebooks/{assignment}/{notebook}" in names
        assert f"tfgraph-course/autograder/public_expected/{assignment}.json" in names
    assert {"tfgraph-course/Makefile", "tfgraph-course/requirements.txt", "tfgraph-course/autograder/check.py"} <= names
    assert "lab:" in bundle["tfgraph-course/Makefile"]


def test_bundle_holds_no_solution_hidden_test_or_reference(bundle):
    assert not [n for n in bundle if "/hidden/" in n or "/solutions/" in n or "/tests/" in n]
    text = "\n".join(bundle.values())
    for marker in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", ".hidden("):
        assert marker not in "\n".join(v for n, v in bundle.items() if n.endswith(".ipynb"))
    for assignment in ASSIGNMENTS:
        distinctive = solution_lines(assignment)
        assert distinctive, f"{assignment}: nothing distinctive to scan for"
        leaked = [line for line in distinctive if line in text]
        assert not leaked, f"{assignment}: solution lines in the bundle: {leaked[:3]}"
        hidden_source = (COURSE_ROOT / "autograder" / "hidden" / f"l{assignment}.py").read_text()
        hidden_lines = [l.strip() for l in hidden_source.splitlines() if l.strip().startswith("{")]
        assert hidden_lines and not [l for l in hidden_lines if l in text]


def test_bundle_is_deterministic(tmp_path):
    assert build(tmp_path / "a.zip").read_bytes() == build(tmp_path / "b.zip").read_bytes()
