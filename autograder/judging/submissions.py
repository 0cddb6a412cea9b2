"""Turn the paths an instructor gives into submissions: who, which assignment, which file.

Paths are taken as written, never resolved: a symbolic link below the submissions folder is a
student's doing, and `plain_notebook_bytes` refuses it (the result is `invalid`, with a reason),
where resolving it would grade whatever it points at (a solution, another student's folder).
"""
from __future__ import annotations

import os
import stat
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable

from autograder.course import lessons
from autograder.engine.limits import NOTEBOOK_MB
from autograder.engine.untrusted import one_line


@dataclass(frozen=True)
class Submission:
    """Who handed in what, and where it is on disk."""

    student: str
    assignment: str
    path: Path
    root: Path | None = None  # the submissions folder: nothing below it may be a symlink


class NotPlain(Exception):
    """The grader will not read the submission: not a plain file inside its folder (a symlink, a
    path leading outside), or too large."""


class TooLarge(NotPlain):
    """The notebook is larger than `NOTEBOOK_MB`, which its size said before a byte was read."""


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


def other_notebooks(path: Path) -> list[str]:
    """The names of the notebooks beside `path` in its folder (the ones the grader does not grade)."""
    return [n for n in _names(path.parent) if n.endswith(".ipynb") and n != path.name]


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


def _folders(path: Path) -> list[Path]:
    """The visible folders in `path`, sorted; [] if it cannot be listed."""
    try:
        return [p for p in sorted(path.iterdir()) if _is_dir_entry(p)]
    except OSError:
        return []


def _say_hidden(path: Path) -> None:
    """Name on stderr each hidden folder in `path`: skipped (as nbgrader skips them), never silently."""
    try:
        hidden = sorted(p for p in path.iterdir() if p.name.startswith(".") and p.is_dir())
    except OSError:
        return
    for p in hidden:
        _warn(f"skipping {p}: a hidden folder (its name starts with a dot)")


def _holds_assignments(path: Path, known: set[str]) -> bool:
    """Whether `path` holds a folder named like an assignment: a student's folder does."""
    return any(p.name in known for p in _folders(path))


class LayoutError(ValueError):
    """A folder given to `grade` that could be read two ways; the message says which and why."""


def _warn(message: str) -> None:
    print(one_line(message), file=sys.stderr)


def from_folder(root: Path) -> list[Submission]:
    """The submissions in a folder given to `grade`, whose layout is read from what it holds (the
    course's list of assignments, and where notebooks sit), never from a student's folder name:

    - a class, nbgrader's `<root>/<student>/<assignment>/<notebook>.ipynb`: some folder in it holds
      assignment folders, and is not itself named like an assignment (a student called
      `01_graphs_and_sessions` is then one more student);
    - one student's folder, `<root>/<assignment>/`: no folder in it holds assignment folders;
    - one assignment folder, named like an assignment and holding no assignment folder.

    A folder that fits both of the first two is refused (`LayoutError`, naming what fits which).
    In a class, each folder that holds no assignment folder is named on stderr, never dropped in
    silence; an assignment folder whose notebook is missing still yields a submission, which gets
    an `invalid` result.
    """
    root = root.absolute()
    known = set(lessons.assignments())
    if root.name in known and not _holds_assignments(root, known):  # one assignment folder
        return [_submission(root.parent.parent, root.parent.name, root.name)]
    children = _folders(root)
    _say_hidden(root)
    students = [p for p in children if _holds_assignments(p, known)]
    named_like_assignments = [p for p in children if p.name in known]
    if any(p.name not in known for p in students) or not named_like_assignments:
        return _class(root, children, known)
    flat = [p for p in named_like_assignments if p not in students]
    if students and flat:
        raise LayoutError(
            f"{root} could be a class or one student's folder: "
            f"{', '.join(p.name for p in students)} hold(s) assignment folders as a student's folder does, "
            f"{', '.join(p.name for p in flat)} do(es) not, as an assignment folder. "
            "Give the class folder with at least one student named otherwise, or each student's folder alone.")
    if students:
        return _class(root, children, known)
    for p in children:
        if p.name not in known:
            _warn(f"skipping {p}: no lesson called {p.name!r}")
    return [_submission(root.parent, root.name, p.name) for p in named_like_assignments]


def _class(root: Path, students: list[Path], known: set[str]) -> list[Submission]:
    """Every submission of a class folder, each student's folder read as holding assignment folders."""
    found = []
    for student_dir in students:
        folders = _folders(student_dir)
        _say_hidden(student_dir)
        for assignment_dir in folders:
            if assignment_dir.name not in known:
                _warn(f"skipping {assignment_dir}: no lesson called {assignment_dir.name!r}")
                continue
            found.append(_submission(root, student_dir.name, assignment_dir.name))
        if not any(p.name in known for p in folders):
            _warn(f"not graded: {student_dir} holds no assignment folder (found {found_in(student_dir)}); "
                  f"a student's notebook goes in {student_dir.name}/<assignment>/")
    return found


def _submission(root: Path, student: str, assignment: str) -> Submission:
    folder = root / student / assignment
    return Submission(student, assignment, notebook_in(folder, lessons.load(assignment).notebook), root=root)


def discover(paths: Iterable[Path]) -> list[Submission]:
    """Every submission under `paths`, each notebook path taken as is, each folder walked.

    Each path is made absolute and its `.` and `..` removed as written (`os.path.normpath`, which
    follows no link: a notebook given as a link stays one, and is refused) before any folder in it
    names a student, so no student is called `..`. Students whose ids are one under case folding
    or NFKC are named together on stderr (`say_merging_ids`)."""
    found: list[Submission] = []
    for path in paths:
        path = Path(os.path.normpath(Path(path).absolute()))
        if path.is_dir():
            found += from_folder(path)
        elif path.suffix == ".ipynb" or path.exists():
            found.append(from_notebook(path))
        else:
            raise FileNotFoundError(f"{path}: no such notebook or folder")
    say_merging_ids(s.student for s in found)
    return found


def id_key(student: str) -> str:
    """What an id becomes where case or Unicode forms do not count (a case-insensitive database
    or filesystem, a spreadsheet's lookup, an export that normalises): NFKC, case-folded."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", student).casefold())


def say_merging_ids(students: Iterable[str]) -> None:
    """Name on stderr each set of distinct ids that `id_key` makes one (Alice/alice, \ufb01ona/fiona,
    stra\u00dfe/STRASSE). Each is still graded under its own id."""
    by_key: dict[str, list[str]] = {}
    for student in sorted(set(students)):
        by_key.setdefault(id_key(student), []).append(student)
    for names in by_key.values():
        if len(names) > 1:
            _warn(f"warning: students {' and '.join(map(repr, names))} are one id where case or Unicode forms "
                  "do not count (a case-insensitive export, database or filesystem): each is graded, but "
                  "rename one before they are merged")


def layout_hint() -> str:
    """The layouts `discover` understands, for a message when it found nothing."""
    known = ", ".join(lessons.assignments())
    return ("expected a notebook, or a folder laid out as <folder>/<student>/<assignment>/<notebook>.ipynb "
            f"(or one student's <student>/<assignment>/ folders, or one <assignment>/ folder); "
            f"known assignments: {known}")


def plain_notebook_bytes(submission: Submission) -> bytes:
    """The bytes of the submission's notebook, read by `plain_bytes` below the submission's root.

    Raises `NotPlain` (with the reason), `TooLarge`, or `OSError` (no such file, unreadable).
    """
    return plain_bytes(submission.path, submission.root or submission.path.parent)


def plain_bytes(path: Path, root: Path) -> bytes:
    """The bytes of `path`, read only if it is a plain file reached through plain folders from
    `root` (`require_plain_path`), opened without following a link or blocking (`open_plain`).

    Its size is checked before it is read: a file over `NOTEBOOK_MB` raises `TooLarge`.
    """
    require_plain_path(path, root)
    limit = NOTEBOOK_MB * 2**20
    with open_plain(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise TooLarge(f"{path.name} is {size} bytes, more than the {NOTEBOOK_MB} MB a notebook may be")
        data = f.read(limit + 1)  # bounded even if the file grows after the check
    if len(data) > limit:
        raise TooLarge(f"{path.name} grew past the {NOTEBOOK_MB} MB a notebook may be while it was read")
    return data


def require_plain_path(path: Path, root: Path) -> None:
    """Raise `NotPlain` unless `path` lies below `root` and no component below `root` is a symbolic
    link; `OSError` when a component is missing (the caller says what was found instead)."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        raise NotPlain(f"{path} is outside the submissions folder {root}") from None
    if ".." in parts:
        raise NotPlain(f"{path} leads outside the submissions folder {root}")
    here = root
    for part in parts:
        here = here / part
        if stat.S_ISLNK(os.lstat(here).st_mode):
            raise NotPlain(f"{here.relative_to(root)} is a symbolic link (to {os.readlink(here)}): "
                           "hand in the notebook itself, as a plain file")


KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
         (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"))


def _not_regular(name: str, mode: int) -> NotPlain:
    kind = next((kind for test, kind in KINDS if test(mode)), "not a file")
    return NotPlain(f"{name} is {kind}, not a regular file: hand in the notebook itself, as a plain file")


def open_plain(path: Path) -> BinaryIO:
    """`path` opened for reading in binary, if it is a regular file: never through a symbolic link
    (O_NOFOLLOW), never blocking on a FIFO (O_NONBLOCK); its kind is checked before it is opened
    (opening a socket fails in words that would mislead) and again on what was opened."""
    mode = os.lstat(path).st_mode
    if not stat.S_ISREG(mode):
        raise _not_regular(path.name, mode)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    f = os.fdopen(fd, "rb")
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):  # swapped between the two looks
        f.close()
        raise _not_regular(path.name, mode)
    return f
