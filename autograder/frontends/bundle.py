"""The student bundle: a zip a student unpacks and runs with `make lab`.

It holds the released notebooks, exactly the part of `autograder` the check cells import (checks,
probes, lessons and the public expected values they compare with), the student's own pinned
requirements, the lab's settings (no instructor extensions, a fresh workspace) and a small
Makefile. It never holds `solutions/`, `autograder/course/hidden/`, the grader (batch, kernels,
sandbox, zygotes, gradebook), the reference cache or the tests. Every file unpacks world-readable.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

from autograder import COURSE_ROOT

# What `from autograder.check import Checker`, the lessons and the notebooks' helpers (pictures of
# graphs, checked claims) import, and nothing else (tests/test_bundle.py checks the list against a real import).
STUDENT_MODULES = ("__init__.py", "check.py", "graph_picture.py", "frontends/__init__.py", "frontends/check.py",
                   "frontends/lab.py", "judging/__init__.py", "judging/judge.py", "judging/feedback.py",
                   "judging/screening.py", "judging/cells.py", "judging/replaying.py",
                   "engine/__init__.py", "engine/untrusted.py", "engine/replay.py", "engine/artifacts.py",
                   "engine/meta_graph.py",
                   "inkernel/__init__.py", "inkernel/probe.py", "inkernel/probing.py", "inkernel/quiet.py", "inkernel/probes/*.py", "course/*.py",
                   "course/lessons/*.py", "course/public_expected/*.json", "notebook/*.py")

# What the notebooks and the check cells import, and JupyterLab to run them in; versions from the
# course's requirements.txt, so the student's set is a tested subset of the instructor's.
STUDENT_PACKAGES = ("tensorflow", "tensorboard", "numpy", "matplotlib", "nbformat", "jupyterlab", "ipykernel")

STUDENT_PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "tfgraph-autograder"
version = "0.1.0"
description = "The check cells of the TensorFlow graph-mechanics course"
requires-python = ">=3.11"
dependencies = ["nbformat", "numpy"]

[tool.setuptools.packages.find]
include = ["autograder*"]

[tool.setuptools.package-data]
autograder = ["course/public_expected/*.json"]
"""

FILE_MODE = 0o100644  # a regular file, rw-r--r--, whatever the instructor's umask

STUDENT_MAKEFILE = """\
# Student copy of the course: `make lab` sets up .venv on first use, then opens JupyterLab.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
STAMP := $(VENV)/.installed

.PHONY: setup lab

setup: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
\ttest -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
\t$(VENV)/bin/python -m pip install --quiet --upgrade pip
\t$(VENV)/bin/python -m pip install --quiet -r requirements.txt
\t$(VENV)/bin/python -m pip install --quiet --no-deps -e .
\ttouch $(STAMP)

# The course's lab settings (jupyter/: no announcements, notebooks that open unmodified), and a fresh
# workspace each time, so JupyterLab does not reopen (and start a kernel for) every lesson left open.
# Jupyter refuses to run as root unless told (containers often run as root).
lab: setup
\trm -rf .lab-workspaces
\tJUPYTER_CONFIG_PATH=$(CURDIR)/jupyter JUPYTERLAB_WORKSPACES_DIR=$(CURDIR)/.lab-workspaces \\
\t  $(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/
"""

STUDENT_README = """\
# TensorFlow graph mechanics: student copy

Run `make lab` (Python 3.11 needed). The first run installs everything into `.venv`; then
JupyterLab opens on `notebooks/`. Open a lesson, run it from the top, fill in each exercise where
it says `# YOUR CODE HERE`, and run the check cell under it: it tells you, check by check, what
is right and what is not yet.

Lessons 02 to 04 draw their graphs with Graphviz (`sudo apt-get install graphviz`, or `brew install
graphviz`); without it, those cells print the graph as text instead.
"""


def student_requirements() -> str:
    """requirements.txt for students: `STUDENT_PACKAGES` at the course's pins, nothing else."""
    pins = {}
    for line in (COURSE_ROOT / "requirements.txt").read_text().splitlines():
        if m := re.match(r"^([A-Za-z0-9_.\[\]-]+)==\S+$", line.strip()):
            pins[m[1].split("[")[0].lower()] = line.strip()
    missing = [p for p in STUDENT_PACKAGES if p not in pins]
    if missing:
        raise KeyError(f"requirements.txt pins none of {missing}, which students need")
    return ("# The student's packages, pinned as in the course (checked from a clean venv): TensorFlow and\n"
            "# TensorBoard (lesson 5 reads summaries back), NumPy and matplotlib, nbformat for the check\n"
            "# cells, JupyterLab and its kernel.\n" + "\n".join(pins[p] for p in STUDENT_PACKAGES) + "\n")


def bundle_members() -> dict[str, Path | str]:
    """Archive name -> file on disk (or text) of everything the bundle holds."""
    members: dict[str, Path | str] = {"Makefile": STUDENT_MAKEFILE, "README.md": STUDENT_README,
                                      "requirements.txt": student_requirements(), "pyproject.toml": STUDENT_PYPROJECT}
    for path in sorted((COURSE_ROOT / "jupyter").rglob("*.json")):
        members[str(path.relative_to(COURSE_ROOT))] = path
    for path in sorted((COURSE_ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" not in path.parts:
            members[str(path.relative_to(COURSE_ROOT))] = path
    package = COURSE_ROOT / "autograder"
    for pattern in STUDENT_MODULES:
        for path in sorted(package.glob(pattern)):
            members[str(path.relative_to(COURSE_ROOT))] = path
    return members


def build(out: Path) -> Path:
    """Write the bundle zip to `out`, deterministically (fixed timestamps, sorted names), every file
    unpacking as mode 0644 (zip's default is to store none, which unzip makes 0600)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, source in sorted(bundle_members().items()):
            data = source.encode() if isinstance(source, str) else source.read_bytes()
            info = zipfile.ZipInfo(f"tfgraph-course/{name}", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = FILE_MODE << 16
            info.create_system = 3  # Unix: unzip honours the mode bits
            archive.writestr(info, data)
    return out
