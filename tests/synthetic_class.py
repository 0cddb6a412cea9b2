"""A synthetic class of result records, for the class report's tests and its screenshot in the docs.

Records are made from the real lessons (their exercises, points, checks and teaching text) with a
seeded random generator, in the shape the batch grader writes: no kernel runs. With a submissions
folder, the class also hands in notebooks (the release with answers written in), for the report's
integrity view: in the first assignment bao copied ada's answers (names and comments changed), gita
and hugo each answered on their own (they share only the release), kemal's code was flagged, and
the rest handed in the release untouched, the solution's answers, or those with one answer written
another way (a valid alternative, a different one each).
`python -m tests.synthetic_class OUT [SUBMISSIONS]` writes one (then `python -m autograder report
OUT --submissions SUBMISSIONS`).
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

import nbformat

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.judging.feedback import exercise_json
from autograder.judging.grading import notebook_hash
from autograder.judging.judge import ExerciseResult, Outcome, failed_exercise
from autograder.judging.results import read_results, write_class_csv, write_result
from tests.alternatives import Alternative, alternatives_of
from tests.mutants import mutants_of
from tests.swaps import one_per_cell, swap_cells

ASSIGNMENTS = ("02_rebuild_vs_feed", "07_learning_rate_decay")
FAILED = {"carmen": ("crashed", "the kernel died (exit code -9): out of memory?"),
          "dmitri": ("timeout", "a cell ran over its time limit of 60 s"),
          "emma": ("invalid", "no notebook named rebuild_vs_feed.ipynb in 02_rebuild_vs_feed/: found an empty folder"),
          "farid": ("tampered", "the check cell of retune was edited")}
COPIED = ("ada", "bao")  # bao's notebook is ada's, names and comments changed
OWN_WORK = ("gita", "hugo")  # each answered on their own: they share only the release
FLAGS = {"kemal": [{"cell": "retune_solution", "line": 3, "code": "    sys._getframe(1).f_locals.clear()",
                    "reason": "reaches the caller's frame (sys._getframe): the grader's own state"}]}
KEMAL_RETUNE = '''def retune(options, threshold):
    import sys
    sys._getframe(1).f_locals.clear()
    options["threshold"] = threshold'''
NAMES = ("ada", "bao", "carmen", "dmitri", "emma", "farid", "gita", "hugo", "ines", "jonas", "kemal", "lena",
         "malik", "nora", "omar", "priya", "quentin", "rosa", "sven", "tariq", "uma", "viktor", "wen", "<i>xavier")


def _exercise_result(exercise, rng: random.Random, skill: float) -> ExerciseResult:
    # Harder exercises (more checks) are passed less often; the first check is the commonest mistake.
    if rng.random() < skill - 0.08 * len(exercise.checks):
        return ExerciseResult(exercise.id, exercise.points, [Outcome(c.id, c.title, True) for c in exercise.checks])
    weights = [1 / (i + 1) ** 1.3 for i in range(len(exercise.checks))]
    wrong = rng.choices(exercise.checks, weights)[0]
    return ExerciseResult(exercise.id, exercise.points, [
        Outcome(c.id, c.title, c is not wrong, "" if c is not wrong else c.misconception,
                case=exercise.cases[0].label if exercise.cases else "", public=True)
        for c in exercise.checks])


def synthetic_records(seed: int = 13) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    records = []
    for student in NAMES:
        skill = rng.uniform(0.45, 1.2)
        for assignment in ASSIGNMENTS:
            lesson = lessons.load(assignment)
            status, reason = FAILED.get(student, ("graded", "")) if assignment == ASSIGNMENTS[0] else ("graded", "")
            if status == "graded":
                results = [_exercise_result(e, rng, skill) for e in lesson.exercises]
            else:
                results = [failed_exercise(e, "not-observed", "was observed", reason) for e in lesson.exercises]
            records.append({
                "student": student, "assignment": assignment, "notebook": lesson.notebook, "notebook_sha256": "",
                "score": sum(r.points for r in results), "max_score": lesson.max_score, "device": "CPU",
                "duration_s": round(rng.uniform(4, 12), 2), "status": status, "reason": reason, "cell_errors": [],
                "exercises": [exercise_json(r) for r in results]})
            # What each student's wrong answers returned: their own values (a digest per failed
            # exercise), so that two students who fail the same check are not thereby alike.
            records[-1]["observed"] = {r.id: [f"{student}/{r.id}"] for r in results if not r.passed}
            if assignment == ASSIGNMENTS[0] and student in FLAGS:
                records[-1]["flags"] = FLAGS[student]
    return records


def _answered(assignment: str, swaps=()) -> nbformat.NotebookNode:
    """The released notebook with the solution's answers written in (no nbgrader markers), then `swaps`."""
    notebook = lessons.load(assignment).notebook
    release = nbformat.read(COURSE_ROOT / "notebooks" / assignment / notebook, 4)
    solution = nbformat.read(COURSE_ROOT / "solutions" / assignment / notebook, 4)
    answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in solution.cells
               if c.metadata.get("nbgrader", {}).get("solution")}
    for cell in release.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = "\n".join(line for line in answers[grade_id].splitlines()
                                    if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
    return swap_cells(release, swaps)


def _disguised(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy as a student hides one: every attribute and docstring reworded, a comment on top of each cell."""
    copy = nbformat.from_dict(nb)
    for cell in copy.cells:
        if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution"):
            source = re.sub(r"\bself\.(\w+)", r"self.my_\1", cell.source)
            source = re.sub(r'"""[^"]*"""', '"""My answer."""', source)
            cell.source = "# worked this out myself\n" + source
    return copy


def synthetic_notebooks(assignment: str, students: list[str]) -> dict[str, nbformat.NotebookNode]:
    """What each student handed in for `assignment` (see the module's docstring)."""
    release = nbformat.read(COURSE_ROOT / "notebooks" / assignment / lessons.load(assignment).notebook, 4)
    # ada and gita answer the first assignment with all its alternatives: the others there keep to the solution's.
    alternatives = [] if assignment == ASSIGNMENTS[0] else alternatives_of(assignment)
    # In turn: the solution's answers, the solution's with one answer written another way (a different
    # one each), the release untouched.
    # Every third student writes one answer another way, each a different one while there are enough.
    handed = {student: (_answered(assignment),
                        _answered(assignment, alternatives[(i // 3) % max(len(alternatives), 1):][:1]),
                        release)[i % 3] for i, student in enumerate(students)}
    if assignment == ASSIGNMENTS[0]:
        groups = one_per_cell(alternatives_of(assignment))
        handed["ada"] = _answered(assignment, groups[0])
        handed["bao"] = _disguised(handed["ada"])
        handed["gita"] = _answered(assignment, groups[1])
        wrong = [m for m in mutants_of(assignment) if m.cell == "variable_judge_solution"]
        handed["hugo"] = _answered(assignment, wrong[:1])
        flag = FLAGS["kemal"][0]
        handed["kemal"] = _answered(assignment, [Alternative("flagged", "retune", flag["cell"], KEMAL_RETUNE)])
    return {student: handed[student] for student in students}


def write_synthetic_class(out: Path, seed: int = 13, submissions: Path | None = None) -> list[dict[str, Any]]:
    """Write the class's results (JSON, feedback, grades.csv) to `out`, as `grade` would; with
    `submissions`, the notebooks they graded too, laid out as `grade` reads them."""
    records = synthetic_records(seed)
    if submissions is not None:
        for assignment in ASSIGNMENTS:
            mine = [r for r in records if r["assignment"] == assignment]
            notebooks = synthetic_notebooks(assignment, [r["student"] for r in mine])
            for r in mine:
                folder = submissions / r["student"] / assignment
                folder.mkdir(parents=True)
                if r["status"] != "invalid":  # emma's folder is empty, as her reason says
                    data = nbformat.writes(notebooks[r["student"]]).encode()
                    (folder / r["notebook"]).write_bytes(data)
                    r["notebook_sha256"] = notebook_hash(data)
    for r in records:
        write_result(out, r)
    write_class_csv(out, read_results(out))
    return records


if __name__ == "__main__":
    made = write_synthetic_class(Path(sys.argv[1]), submissions=Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(f"{len(made)} results in {sys.argv[1]}")
