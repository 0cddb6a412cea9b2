"""The student bundle holds what a student needs and nothing an instructor must keep."""
import os
import re
import subprocess
import sys
import zipfile

import nbformat
import pytest

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.frontends.bundle import STUDENT_PACKAGES, build
from autograder.judging.reference import solution_path
from tests.conftest import ASSIGNMENTS, release_path


def solution_lines(assignment: str) -> set[str]:
    """Lines inside BEGIN/END SOLUTION blocks that nothing meant for students also contains: no
    released notebook (`self.sess = tf1.Session()` may be one lesson's answer and another's demo)
    and no lesson module's teaching text (a hint may quote `p = step / decay_steps`)."""
    public = [release_path(a).read_text() for a in ASSIGNMENTS]
    public += [p.read_text() for p in (COURSE_ROOT / "autograder" / "course" / "lessons").glob("l*.py")]
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
        assert f"tfgraph-course/autograder/course/public_expected/{assignment}.json" in names
    assert {"tfgraph-course/Makefile", "tfgraph-course/requirements.txt", "tfgraph-course/autograder/frontends/check.py"} <= names
    assert "lab:" in bundle["tfgraph-course/Makefile"]
    assert "tfgraph-course/jupyter/labconfig/page_config.json" in names


INSTRUCTOR_ONLY = ("engine.kernel", "engine.sandbox", "engine.jail", "engine.cgroups", "engine.forkserver",
                   "engine.zygote", "engine.nanny", "engine.limits", "engine.devices", "frontends.batch", "frontends.cluster", "frontends.gradebook", "frontends.cli",
                   "frontends.report", "frontends.nbgrader", "frontends.bundle", "judging.grading", "judging.results",
                   "judging.submissions", "judging.reference", "course.hidden", "inkernel.integrity", "__main__")


def test_bundle_ships_exactly_the_modules_the_check_cells_import(bundle, tmp_path):
    """Unpacked alone (the course checkout out of reach), its autograder runs a check; and every
    module it ships is one that the check cells, the lessons, the lab or the notebooks' helpers (pictures,
    claims, the timing harnesses of lessons 01-04 and 06, lesson 05's training loop and run-file readers,
    lesson 07's schedule helpers) import."""
    with zipfile.ZipFile(build(tmp_path / "b.zip")) as archive:
        archive.extractall(tmp_path)
    course = tmp_path / "tfgraph-course"
    shipped = {n.removeprefix("tfgraph-course/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")
               for n in bundle if n.startswith("tfgraph-course/autograder/") and n.endswith(".py")}
    assert not [m for m in shipped for part in INSTRUCTOR_ONLY
                if m == f"autograder.{part}" or m.startswith(f"autograder.{part}.")]
    script = (
        "import sys, autograder, autograder.check, autograder.frontends.lab, autograder.graph_picture, "
        "autograder.notebook.claims, autograder.notebook.pipeline_timing, autograder.notebook.plateau, "
        "autograder.notebook.regression, autograder.notebook.run_files, autograder.notebook.schedule_race, "
        "autograder.notebook.schedules, autograder.notebook.timing, autograder.course.lessons as L\n"
        "assert autograder.__file__.startswith(sys.argv[1]), autograder.__file__\n"
        "for a in L.assignments(): L.load(a)\n"
        "check = autograder.check.Checker('02_rebuild_vs_feed')\n"
        "def retune(options, threshold):\n    options.update(threshold=threshold)\n"
        "check('retune')\n"
        "print(sorted(m for m in sys.modules if m.startswith('autograder')))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", script, str(course)], cwd=course, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    imported = set(eval(run.stdout.strip().splitlines()[-1]))
    assert shipped == imported


def test_bundle_requirements_are_the_students_own_and_pinned(bundle):
    requirements = [l for l in bundle["tfgraph-course/requirements.txt"].splitlines() if l and not l.startswith("#")]
    course = (COURSE_ROOT / "requirements.txt").read_text().splitlines()
    assert sorted(r.split("==")[0] for r in requirements) == sorted(STUDENT_PACKAGES)
    assert all(r in course for r in requirements), "a student pin differs from the course's tested pin"
    for instructor_only in ("pytest", "dask", "distributed", "playwright", "nbgrader"):
        assert instructor_only not in bundle["tfgraph-course/requirements.txt"]


def test_bundle_files_unpack_world_readable(tmp_path):
    with zipfile.ZipFile(build(tmp_path / "b.zip")) as archive:
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in archive.infolist()}
    assert set(modes.values()) == {0o644}, modes
    unzip = subprocess.run(["unzip", "-q", str(tmp_path / "b.zip"), "-d", str(tmp_path / "u")], capture_output=True)
    if unzip.returncode == 0:  # Info-ZIP's unzip, as students use it, where installed
        files = [p for p in (tmp_path / "u").rglob("*") if p.is_file()]
        assert files and all(p.stat().st_mode & 0o444 == 0o444 for p in files)


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
        hidden_source = (COURSE_ROOT / "autograder" / "course" / "hidden" / f"l{assignment}.py").read_text()
        # Each hidden case is `("situation", {inputs...})`: scan for its inputs and for its situation.
        hidden_lines = [part.strip() for l in hidden_source.splitlines() if l.strip().startswith(("(", "{"))
                        for part in l.split("{", 1) if len(part.strip()) > 12]
        assert hidden_lines and not [l for l in hidden_lines if l in text]


def test_bundle_is_deterministic(tmp_path):
    assert build(tmp_path / "a.zip").read_bytes() == build(tmp_path / "b.zip").read_bytes()
