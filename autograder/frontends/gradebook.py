"""Write the batch grader's scores into nbgrader's gradebook, so formgrader shows them.

Each exercise's points land as the `auto_score` of its check cell (`check_<exercise id>`), so the
scores in the gradebook are the ones judged outside the student's process. The assignment must
be in the gradebook already (`nbgrader generate_assignment` puts it there).

A result is stored only if it graded the notebook nbgrader holds for that submission (its
`notebook_sha256` is that of `submitted/<student>/<assignment>/`'s notebook, read as both front ends
read it), so a result of an earlier hand-in never overwrites nbgrader's grade of the resubmission.
Where nbgrader holds no such folder, nothing contradicts the result, and it is stored.
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any, Iterable

from nbgrader.api import Gradebook, MissingEntry
from sqlalchemy.exc import SAWarning

from autograder.course import lessons
from autograder.engine.untrusted import one_line
from autograder.frontends.batch import current_hash
from autograder.judging.submissions import Submission, notebook_in


def check_cell(exercise_id: str) -> str:
    """The grade_id of an exercise's check cell in the source notebook."""
    return f"check_{exercise_id}"


def stale(record: dict[str, Any], submitted: Path) -> str:
    """Why `record` may not be stored: it graded another notebook than the one nbgrader holds for
    that submission under `submitted` ("" when it graded that one, or nbgrader holds none)."""
    folder = submitted / record["student"] / record["assignment"]
    if not os.path.lexists(folder):
        return ""
    held = Submission(record["student"], record["assignment"],
                      notebook_in(folder, lessons.load(record["assignment"]).notebook), root=submitted)
    graded, now = record.get("notebook_sha256") or "", current_hash(held)
    if graded == now:
        return ""
    return (f"the result graded a notebook with sha256 {graded[:12] or '(none recorded)'}, but nbgrader's "
            f"submission {held.path} has {now[:12] or 'no readable notebook'} (handed in again since?): "
            "grade it again, or pass --force to store it anyway")


def store(records: Iterable[dict[str, Any]], database: Path, submitted: Path | None = None,
          force: bool = False) -> tuple[int, list[str]]:
    """Store every record's exercise points in the gradebook at `database`. Returns how many records
    were stored, and why each of the others was skipped (the assignment, the student or a check cell
    unknown to the gradebook, or a result `stale` against nbgrader's `submitted` folder, by default
    the one beside `database`, unless `force`): one odd record costs only itself."""
    submitted = submitted or database.parent / "submitted"
    stored, skipped = 0, []
    with warnings.catch_warnings(), Gradebook(f"sqlite:///{database.resolve()}") as gradebook:
        # nbgrader's own add_submission trips SQLAlchemy autoflush warnings; they are not ours to fix.
        warnings.simplefilter("ignore", SAWarning)
        for record in records:
            problem = "" if force else stale(record, submitted)
            if problem:
                skipped.append(one_line(f"{record['student']}/{record['assignment']}: {problem}"))
                continue
            try:
                _store_one(gradebook, record)
            except (MissingEntry, KeyError, ValueError) as exc:
                gradebook.db.rollback()
                skipped.append(one_line(f"{record['student']}/{record['assignment']}: {exc.args[0] if exc.args else exc}"))
                continue
            stored += 1
    return stored, skipped


def _store_one(gradebook: Gradebook, record: dict[str, Any]) -> None:
    """Store one record, or raise before committing anything of it. Its points go to the lesson's
    notebook, whatever name the student handed it in under (the record's `notebook`)."""
    student, assignment = record["student"], record["assignment"]
    notebook = Path(lessons.load(assignment).notebook).stem
    gradebook.update_or_create_student(student)
    try:
        gradebook.find_submission(assignment, student)
    except MissingEntry:
        gradebook.add_submission(assignment, student)
    for exercise in record["exercises"]:
        try:
            grade = gradebook.find_grade(check_cell(exercise["id"]), notebook, assignment, student)
        except MissingEntry:
            raise KeyError(f"the gradebook has no cell {check_cell(exercise['id'])} in {assignment}/{notebook}: "
                           f"run `nbgrader generate_assignment {assignment}` first") from None
        grade.auto_score = float(exercise["points"])
    gradebook.db.commit()
