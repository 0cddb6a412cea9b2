"""The student bundle: a zip a student unpacks and runs with `make lab`.

It holds the released notebooks, the public part of `autograder` (checks, probes and the public
expected values they compare with), the pinned requirements and a small Makefile. It never holds
`solutions/`, `autograder/hidden/`, the reference cache or the tests.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

from . import COURSE_ROOT

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

# Jupyter refuses to run as root unless told (containers often run as root).
lab: setup
\t$(VENV)/bin/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/
"""

STUDENT_README = """\
# TensorFlow graph mechanics: student copy

Run `make lab` (Python 3.11 needed). The first run installs everything into `.venv`; then
JupyterLab opens on `notebooks/`. Open a lesson, run it from the top, fill in each exercise where
it says `# YOUR CODE HERE`, and run the check cell under it: it tells you, check by check, what
is right and what is not yet.
"""


def bundle_members() -> dict[str, Path | str]:
    """Archive name -> file on disk (or text) of everything the bundle holds."""
    members: dict[str, Path | str] = {"Makefile": STUDENT_MAKEFILE, "README.md": STUDENT_README}
    for name in ("requirements.txt", "pyproject.toml"):
        members[name] = COURSE_ROOT / name
    for path in sorted((COURSE_ROOT / "notebooks").rglob("*.ipynb")):
        members[str(path.relative_to(COURSE_ROOT))] = path
    package = COURSE_ROOT / "autograder"
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package)
        if path.is_file() and relative.parts[0] != "hidden" and "__pycache__" not in relative.parts:
            members[str(path.relative_to(COURSE_ROOT))] = path
    return members


def build(out: Path) -> Path:
    """Write the bundle zip to `out`, deterministically (fixed timestamps, sorted names)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, source in sorted(bundle_members().items()):
            data = source.encode() if isinstance(source, str) else source.read_bytes()
            info = zipfile.ZipInfo(f"tfgraph-course/{name}", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out
