"""DESIGN.md's budget, measured: each lesson's solution notebook, graded alone by the batch grader
(one job, probes included), against 30 s on 2 cores.

    .venv/bin/python bench/solution_times.py [--repeats 3]

Prints each lesson's median over the repeats, and says which are over the budget.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.engine.sandbox import bwrap_works
from autograder.frontends.batch import grade_all
from autograder.judging.reference import solution_path
from autograder.judging.submissions import discover

BUDGET_S = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tfcourse-bench-") as scratch:
        root = Path(scratch) / "submitted"
        for assignment in lessons.assignments():
            source = solution_path(lessons.load(assignment))
            (root / "solution" / assignment).mkdir(parents=True)
            shutil.copy(source, root / "solution" / assignment / source.name)
        times: dict[str, list[float]] = {a: [] for a in lessons.assignments()}
        for repeat in range(args.repeats):
            records = grade_all(discover([root]), Path(scratch) / f"out{repeat}", limits=Limits(sandbox=bwrap_works()))
            for record in records:
                assert record["score"] == record["max_score"], f"{record['assignment']}: not full marks"
                times[record["assignment"]].append(record["duration_s"])
    print(f"each solution graded alone, median of {args.repeats}, budget {BUDGET_S:g} s")
    for assignment, seconds in times.items():
        median = statistics.median(seconds)
        print(f"  {assignment:32s} {median:6.1f} s{'  OVER BUDGET' if median > BUDGET_S else ''}")


if __name__ == "__main__":
    main()
