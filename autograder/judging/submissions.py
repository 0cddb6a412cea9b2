"""Turn the paths an instructor gives into submissions: who, which assignment, which file.

Paths are taken as written, never resolved: a symbolic link below the submissions folder is a
student's doing, and `plain_notebook_bytes` refuses it (the result is `invalid`, with a reason),
where resolving it would grade whatever it points at (a solution, another student's folder).
"""
from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from autograder.course import lessons


@dataclass(frozen=True)
class Submission:
    """Who handed in what, and where it is on disk."""

    student: str
    assignment: str
    path: Path
    root: Path | None = None  # the submissions folder: nothing below it may be a symlink


class NotPlain(Exception):
    """The submission is not a plain file inside its folder: a symlink, or a path leading outside."""


def from_notebook(path: Path) -> Submission:
    """A single notebook: the assignment is its folder, the student the folder above that."""
    path = path.absolute()
    return Submission(student=path.parent.parent.name or "student", assignment=path.parent.name, path=path,
                      root=path.parent.parent)


def notebook_in(folder: Path, expected: str) -> Path:
    """The notebook to grade in an assignment folder: the one with the lesson's name, else the only
    notebook there (handed in under another name), else the expected path (which does not exist;
    the grader then says what it found instead)."""
    if os.path.lexists(folder / expected):
        return folder / expected
    notebooks = [folder / n for n in _names(folder) if n.endswith(".ipynb")]
    return notebooks[0] if len(notebooks) == 1 else folder / expected


def _names(folder: Path) -> list[str]:
    """The visible entries of `folder` (no dot files, no .ipynb_checkpoints), sorted; [] if unreadable."""
    try:
        return sorted(n for n in os.listdir(folder) if not n.startswith("."))
    except OSError:
        return []


def found_in(folder: Path) -> str:
    """What `folder` holds, in words, for a reason: 'an empty folder' or 'a.ipynb, notes.txt'."""
    names = _names(folder)
    if not os.path.lexists(folder):
        return "no such folder"
    if not names:
        return "an empty folder"
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return f"only {shown}"


def _is_dir_entry(path: Path) -> bool:
    """A folder, or a symlink to one (kept, so that it gets an `invalid` result rather than vanishing)."""
    return path.is_dir() and not path.name.startswith(".")


def from_folder(root: Path) -> list[Submission]:
    """nbgrader's layout, `<root>/<student>/<assignment>/<notebook>.ipynb`, for every known assignment.

    Also accepts one student's folder (`<root>` = `submitted/carol`, holding assignment folders)
    and one assignment folder (`submitted/carol/02_rebuild_vs_feed`). A student folder whose
    assignment folder lacks the lesson's notebook still yields a submission, so that it gets a
    result (status `invalid`) instead of silently vanishing from the CSV.
    """
    root = root.absolute()
    known = set(lessons.assignments())
    if root.name in known:  # one assignment folder
        return [_submission(root.parent.parent, root.parent.name, root.name)]
    children = [p for p in sorted(root.iterdir()) if _is_dir_entry(p)]
    if children and any(p.name in known for p in children):  # one student's folder
        return [_submission(root.parent, root.name, p.name) for p in children if p.name in known]
    found = []
    for student_dir in children:
        for assignment_dir in sorted(p for p in student_dir.iterdir() if _is_dir_entry(p)):
            if assignment_dir.name not in known:
                print(f"skipping {assignment_dir}: no lesson called {assignment_dir.name!r}", file=sys.stderr)
                continue
            found.append(_submission(root, student_dir.name, assignment_dir.name))
    return found


def _submission(root: Path, student: str, assignment: str) -> Submission:
    folder = root / student / assignment
    return Submission(student, assignment, notebook_in(folder, lessons.load(assignment).notebook), root=root)


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


def layout_hint() -> str:
    """The layouts `discover` understands, for a message when it found nothing."""
    known = ", ".join(lessons.assignments())
    return ("expected a notebook, or a folder laid out as <folder>/<student>/<assignment>/<notebook>.ipynb "
            f"(or one student's <student>/<assignment>/ folders); known assignments: {known}")


def plain_notebook_bytes(submission: Submission) -> bytes:
    """The bytes of the submission's notebook, read only if it is a plain file reached through
    plain folders from the submission's root: no component below the root may be a symlink, and
    the file is opened with O_NOFOLLOW, so a link swapped in meanwhile is refused too.

    Raises `NotPlain` (with the reason) or `OSError` (no such file, unreadable).
    """
    path = submission.path
    root = submission.root or path.parent
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        raise NotPlain(f"{path} is outside the submissions folder {root}") from None
    if ".." in parts:
        raise NotPlain(f"{path} leads outside the submissions folder {root}")
    here = root
    for part in parts:
        here = here / part
        mode = os.lstat(here).st_mode  # OSError if missing: the caller says what was found
        if stat.S_ISLNK(mode):
            raise NotPlain(f"{here.relative_to(root)} is a symbolic link (to {os.readlink(here)}): "
                           "hand in the notebook itself, as a plain file")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise NotPlain(f"{path.name} is not a regular file")
        return f.read()
