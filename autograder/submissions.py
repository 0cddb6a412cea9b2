"""Turn the paths an instructor gives into submissions: who, which assignment, which file."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterable

from . import lessons
from .grading import Submission


def from_notebook(path: Path) -> Submission:
    """A single notebook: the assignment is its folder, the student the folder above that."""
    path = path.resolve()
    return Submission(student=path.parent.parent.name or "student", assignment=path.parent.name, path=path)


def from_folder(root: Path) -> list[Submission]:
    """nbgrader's layout, `<root>/<student>/<assignment>/<notebook>.ipynb`, for every known assignment.

    A student folder whose assignment folder lacks the lesson's notebook still yields a submission,
    so that it gets a result (status `invalid`) instead of silently vanishing from the CSV.
    """
    known = set(lessons.assignments())
    found = []
    for student_dir in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for assignment_dir in sorted(p for p in student_dir.iterdir() if p.is_dir()):
            if assignment_dir.name not in known:
                print(f"skipping {assignment_dir}: no lesson called {assignment_dir.name!r}", file=sys.stderr)
                continue
            notebook = lessons.load(assignment_dir.name).notebook
            found.append(Submission(student_dir.name, assignment_dir.name, (assignment_dir / notebook).resolve()))
    return found


def discover(paths: Iterable[Path]) -> list[Submission]:
    """Every submission under `paths`, each notebook path taken as is, each folder walked."""
    found: list[Submission] = []
    for path in paths:
        if path.is_dir():
            found += from_folder(path)
        elif path.suffix == ".ipynb" or path.exists():
            found.append(from_notebook(path))
        else:
            raise FileNotFoundError(f"{path}: no such notebook or folder")
    return found
