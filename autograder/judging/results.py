"""Write results so that nothing is ever half-written: one JSON per submission, one CSV per class;
read them back so that one odd record is reported and skipped, never the end of a run.

The class's files (`grades.csv`, `report.html`) sit in the results folder beside one folder per
student, so a student's folder is named so that it can never be one of them (`student_folder`).
"""
from __future__ import annotations

import contextlib
import csv
import fcntl
import io
import json
import os
import sys
import tempfile
from numbers import Real
from pathlib import Path
from typing import Any, Iterable, Iterator

from autograder.engine.untrusted import one_line

CLASS_FILES = ("grades.csv", "report.html", "similarity.csv", "similarity.json")
"""What the results folder holds for the whole class, beside the students' folders."""
ESCAPE = "%"
MAX_RECORD_BYTES = 16 * 2**20  # a result record is a few kB; anything far larger is not the grader's

CSV_COLUMNS = ("student", "assignment", "score", "max_score", "status", "reason", "device", "duration_s")


def verdict(record: dict[str, Any]) -> tuple:
    """What a result decides, without its words: status, score, and each exercise's points and
    failed checks. (The words may quote a TensorFlow error whose text varies from run to run:
    "Could not find variable b", or "w", as TensorFlow happens to order the ops.)"""
    return (record["status"], record["score"],
            [(e["id"], e["points"], e["passed"], e.get("failed_checks", [])) for e in record["exercises"]])


def _umask() -> int:
    """This process's umask, read without changing it (os.umask sets it, racing other threads)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    return 0o022


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename, so readers see all or nothing.

    On any failure (a full disk, `path` a folder) the temporary file is removed, and an `OSError`
    names `path`: a full disk's error alone names no file.
    The file gets the mode a plain `open` would (0666 less the umask), not the temporary file's
    0600: with `umask 007` the course group (a TA, a web server) reads grades and reports."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename is None:
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise


LOCK_FILE = ".grade.lock"


@contextlib.contextmanager
def results_lock(out: Path) -> Iterator[None]:
    """Hold the results folder `out` for one `grade` run. A second run on the same folder says that
    it waits, and for which process, then waits: once it holds the folder, it finds the first run's
    results and skips what they graded, so no submission is graded by both at once."""
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK_FILE, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "another process"
            print(f"waiting: another grade run ({holder}) is writing to {out}; this one goes on when it ends",
                  file=sys.stderr, flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


def student_folder(student: str) -> str:
    """The folder of `student`'s results: the student's own name, unless that is the name of a class
    file (`grades.csv`, `report.html`, in any case), `.` or `..`, or starts with `%`; then it is `%` +
    the name.
    Two students never share a folder, and no student's folder is a class file."""
    if student.lower() in CLASS_FILES or student.startswith(ESCAPE) or student in (".", ".."):
        return ESCAPE + student
    return student


def result_path(out: Path, student: str, assignment: str) -> Path:
    """`OUT/<student>/<assignment>.json` (the student's folder as `student_folder` names it)."""
    return out / student_folder(student) / f"{assignment}.json"


def write_result(out: Path, record: dict[str, Any]) -> Path:
    """Store one submission's feedback (`.txt`, `.html`), then its result record (`.json`, last:
    a record on disk means the submission is completely done)."""
    from autograder.judging.feedback import record_html, record_text

    path = result_path(out, record["student"], record["assignment"])
    atomic_write(path.with_suffix(".txt"), record_text(record))
    atomic_write(path.with_suffix(".html"), record_html(record))
    atomic_write(path, json.dumps(record, indent=1) + "\n")
    return path


def read_results(out: Path) -> list[dict[str, Any]]:
    """Every result record under `out`, sorted by student then assignment. A file that is not a
    record (unreadable, not JSON, too large, missing a field, a field of the wrong type) is named on
    stderr with what is wrong, and skipped."""
    records = []
    for path in sorted(out.glob("*/*.json")):
        try:
            record = _read_record(path)
        except (OSError, ValueError) as exc:
            print(one_line(f"skipping {path}: {exc}"), file=sys.stderr)
            continue
        records.append(record)
    return sorted(records, key=lambda r: (r["student"], r["assignment"]))


def _read_record(path: Path) -> dict[str, Any]:
    """The record in `path`; ValueError saying what is wrong when it is not one."""
    if path.stat().st_size > MAX_RECORD_BYTES:
        raise ValueError(f"larger than {MAX_RECORD_BYTES} bytes: not a result record")
    record = json.loads(path.read_bytes())
    problem = record_problem(record)
    if problem:
        raise ValueError(f"not a result record: {problem}")
    return record


_TYPES = {str: "text", Real: "a number", bool: "true or false", list: "a list"}
RECORD_FIELDS = {"student": str, "assignment": str, "score": Real, "max_score": Real, "status": str,
                 "exercises": list}
EXERCISE_FIELDS = {"id": str, "points": Real, "max_points": Real, "passed": bool, "outcomes": list}
OUTCOME_FIELDS = {"id": str, "title": str, "message": str, "passed": bool}


def record_problem(record: Any) -> str:
    """What keeps `record` from being a result record the readers (report, gradebook, feedback)
    can use, in words; "" when nothing does."""
    problem = _fields_problem(record, RECORD_FIELDS, "the record")
    for i, exercise in enumerate(record["exercises"] if not problem else ()):
        problem = problem or _fields_problem(exercise, EXERCISE_FIELDS, f"exercise {i}")
        for j, outcome in enumerate(exercise["outcomes"] if not problem else ()):
            problem = problem or _fields_problem(outcome, OUTCOME_FIELDS, f"outcome {j} of exercise {i}")
    return problem


def _fields_problem(value: Any, fields: dict[str, type], what: str) -> str:
    if not isinstance(value, dict):
        return f"{what} is not an object"
    for name, kind in fields.items():
        if name not in value:
            return f"{what} has no {name!r}"
        if not isinstance(value[name], kind) or (kind is Real and isinstance(value[name], bool)):
            return f"{what}'s {name!r} is not {_TYPES[kind]}"
    return ""


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (`=HYPERLINK(...)`, from a student folder's
    name, say) gets a leading single quote, as OWASP advises; numbers pass unchanged."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def exercise_column(assignment: str, exercise: str) -> str:
    """The grades.csv column of one exercise's points: `<assignment>/<exercise>`."""
    return f"{assignment}/{exercise}"


def csv_cell(value: Any) -> Any:
    """`value` as a spreadsheet may read it: text with each control character escaped (`one_line`)
    and a formula's start neutralised (`csv_safe`); numbers unchanged."""
    return csv_safe(one_line(value) if isinstance(value, str) else value)


def write_class_csv(out: Path, records: Iterable[dict[str, Any]]) -> Path:
    """`OUT/grades.csv`: one row per submission, no cell a spreadsheet would take for a formula, no
    control character (a newline, an escape sequence in a folder's name) but as a visible escape.
    After the fixed columns, one per exercise (`exercise_column`), in the order first met, holding
    the row's points and left blank on other assignments' rows: a gradebook import (Canvas, Moodle)
    maps each column to a grade item and skips blank cells."""
    records = list(records)
    exercises = list(dict.fromkeys(exercise_column(r["assignment"], e["id"]) for r in records for e in r["exercises"]))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=[*CSV_COLUMNS, *exercises], extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for r in records:
        row = {**r, "reason": " ".join(str(r.get("reason", "")).split()),
               **{exercise_column(r["assignment"], e["id"]): e["points"] for e in r["exercises"]}}
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    path = out / "grades.csv"
    atomic_write(path, buffer.getvalue())
    return path
