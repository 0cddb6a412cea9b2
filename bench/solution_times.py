"""DESIGN.md's budget, measured: each lesson's solution notebook, graded alone by the batch grader
(one job, probes included), against 30 s on 2 cores; lean (the default: only the cells the grade
depends on) and whole (`--run-all`). Beside each, the kernel's own time on the cells it ran.

    .venv/bin/python bench/solution_times.py [--repeats 3]

Prints each lesson's medians over the repeats, and says which are over the budget (whole: the
notebook a student runs top to bottom).
"""
from __future__ import annotations

import argparse
import dataclasses
import shutil
import statistics
import tempfile
from pathlib import Path

import nbformat

from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.engine.sandbox import bwrap_works
from autograder.frontends.batch import grade_all
from autograder.judging.lean import lesson_cut
from autograder.judging.reference import release_path, solution_path
from autograder.judging.replaying import observe_notebook
from autograder.judging.submissions import discover

BUDGET_S = 30.0
MODES = {"lean": False, "whole": True}  # mode: run_all


def kernel_seconds(assignment: str, run_all: bool) -> float:
    """The kernel's time on the cells of the lesson's solution that grading runs, probes included."""
    lesson = lessons.load(assignment)
    nb = nbformat.read(solution_path(lesson), as_version=4)
    if not run_all:
        nb = lesson_cut(nb, lesson, release_path(lesson)).notebook
    execution = observe_notebook(nb, lesson, lessons.all_cases(lesson), Limits(sandbox=bwrap_works()))
    assert execution.status == "graded" and not execution.cell_errors, (assignment, execution.reason)
    return execution.kernel_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    assignments = lessons.assignments()
    walls = {(a, m): [] for a in assignments for m in MODES}
    kernel = {(a, m): [] for a in assignments for m in MODES}
    with tempfile.TemporaryDirectory(prefix="tfcourse-bench-") as scratch:
        root = Path(scratch) / "submitted"
        for assignment in assignments:
            source = solution_path(lessons.load(assignment))
            (root / "solution" / assignment).mkdir(parents=True)
            shutil.copy(source, root / "solution" / assignment / source.name)
        for repeat in range(args.repeats):
            for mode, run_all in MODES.items():
                limits = dataclasses.replace(Limits(sandbox=bwrap_works()), run_all=run_all)
                for record in grade_all(discover([root]), Path(scratch) / f"out-{mode}{repeat}", limits=limits):
                    assert record["score"] == record["max_score"], f"{record['assignment']}: not full marks"
                    walls[(record["assignment"], mode)].append(record["duration_s"])
                for assignment in assignments:
                    kernel[(assignment, mode)].append(kernel_seconds(assignment, run_all))
    print(f"each solution graded alone (one job), median of {args.repeats}; budget {BUDGET_S:g} s; "
          "kernel: the kernel's time on the cells it ran, probes included")
    print(f"  {'lesson':32s} {'graded lean':>11s} {'whole':>7s} {'kernel lean':>11s} {'whole':>7s}")
    for assignment in assignments:
        wall = {m: statistics.median(walls[(assignment, m)]) for m in MODES}
        cpu = {m: statistics.median(kernel[(assignment, m)]) for m in MODES}
        print(f"  {assignment:32s} {wall['lean']:9.1f} s {wall['whole']:5.1f} s {cpu['lean']:9.1f} s "
              f"{cpu['whole']:5.1f} s{'  OVER BUDGET' if wall['whole'] > BUDGET_S else ''}")
    per_notebook = {m: statistics.median(statistics.median(kernel[(a, m)]) for a in assignments) for m in MODES}
    print(f"  median kernel time per graded notebook: lean {per_notebook['lean']:.1f} s, "
          f"whole {per_notebook['whole']:.1f} s")


if __name__ == "__main__":
    main()
