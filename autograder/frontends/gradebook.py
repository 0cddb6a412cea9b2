"""Write the batch grader's scores into nbgrader's gradebook, so formgrader shows them.

Each exercise's points land as the `auto_score` of its check cell (`check_<exercise id>`), so the
scores in the gradebook are the ones judged outside the student's process. The assignment must
be in the gradebook already (`nbgrader generate_assignment` puts it there).
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Iterable

from nbgrader.api import Gradebook, MissingEntry
from sqlalchemy.exc import SAWarning

from autograder.course import lessons
from autograder.engine.untrusted import one_line


def check_cell(exercise_id: str) -> str:
    """The grade_id of an exercise's check cell in the source notebook."""
    return f"check_{exercise_id}"


def store(records: Iterable[dict[str, Any]], database: Path) -> tuple[int, list[str]]:
    """Store every record's exercise points in the gradebook at `database`. Returns how many records
    were stored, and why each of the others was skipped (the assignment, the student or a check cell
    unknown to the gradebook): one odd record costs only itself."""
    stored, skipped = 0, []
    with warnings.catch_warnings(), Gradebook(f"sqlite:///{database.resolve()}") as gradebook:
        # nbgrader's own add_submission trips SQLAlchemy autoflush warnings; they are not ours to fix.
        warnings.simplefilter("ignore", SAWarning)
        for record in records:
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
