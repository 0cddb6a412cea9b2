"""A synthetic class of result records, for the class report's tests and its screenshot in the docs.

Records are made from the real lessons (their exercises, points, checks and teaching text) with a
seeded random generator, in the shape the batch grader writes: no kernel runs.
`python -m tests.synthetic_class OUT` writes one to OUT (then `python -m autograder report OUT`).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from autograder.course import lessons
from autograder.judging.feedback import exercise_json
from autograder.judging.judge import ExerciseResult, Outcome, failed_exercise
from autograder.judging.results import read_results, write_class_csv, write_result

ASSIGNMENTS = ("02_rebuild_vs_feed", "07_learning_rate_decay")
FAILED = {"carmen": ("crashed", "the kernel died (exit code -9): out of memory?"),
          "dmitri": ("timeout", "a cell ran over its time limit of 60 s"),
          "emma": ("invalid", "no notebook named rebuild_vs_feed.ipynb in 02_rebuild_vs_feed/: found an empty folder"),
          "farid": ("tampered", "the check cell of retune was edited")}
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
    return records


def write_synthetic_class(out: Path, seed: int = 13) -> list[dict[str, Any]]:
    """Write the class's results (JSON, feedback, grades.csv) to `out`, as `grade` would."""
    records = synthetic_records(seed)
    for r in records:
        write_result(out, r)
    write_class_csv(out, read_results(out))
    return records


if __name__ == "__main__":
    print(f"{len(write_synthetic_class(Path(sys.argv[1])))} results in {sys.argv[1]}")
