"""`nbgrader export` made safe to open in a spreadsheet: `nbgrader_config.py` sets it as the exporter.

nbgrader 0.9.6's own `CsvExportPlugin` joins cells with commas, unquoted: a student id with a comma
shifts every column after it, and an id or a name such as `=HYPERLINK(...)` or `+cmd` runs as a
formula when the file is opened. This plugin writes the same columns and rows through the csv
module (a comma or quote stays in its cell), and each text cell as the batch grader's
`grades.csv` does (`results.csv_cell`: control characters escaped, `=`, `+`, `-`, `@`, tab and
CR at the start neutralised by a leading quote).
"""
from __future__ import annotations

import csv
from typing import Any, Iterator

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.plugins import ExportPlugin

from autograder.judging.results import csv_cell

COLUMNS = ("assignment", "duedate", "timestamp", "student_id", "last_name", "first_name", "email", "raw_score",
           "late_submission_penalty", "score", "max_score")


class SafeCsvExportPlugin(ExportPlugin):
    """nbgrader's CSV export, quoted and with no cell a spreadsheet would run (module docstring)."""

    def export(self, gradebook: Gradebook) -> None:
        dest = self.to or "grades.csv"
        self.log.info("Exporting grades to %s", dest)
        with open(dest, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(COLUMNS)
            for row in self.rows(gradebook):
                writer.writerow(["" if value is None else csv_cell(value) for value in row])

    def rows(self, gradebook: Gradebook) -> Iterator[tuple[Any, ...]]:
        """One row per assignment and student, as `CsvExportPlugin` makes them: a student who
        handed nothing in has 0 and no timestamp; `--assignment` and `--student` narrow them."""
        assignments, students = set(map(str, self.assignment)), set(map(str, self.student))
        for assignment in gradebook.assignments:
            if assignments and assignment.name not in assignments:
                continue
            for student in gradebook.students:
                if students and student.id not in students:
                    continue
                try:
                    submission = gradebook.find_submission(assignment.name, student.id)
                    timestamp, raw, penalty = submission.timestamp, submission.score, submission.late_submission_penalty
                except MissingEntry:
                    timestamp, raw, penalty = None, 0.0, 0.0
                yield (assignment.name, assignment.duedate, timestamp, student.id, student.last_name,
                       student.first_name, student.email, raw, penalty, max(0.0, raw - penalty), assignment.max_score)
