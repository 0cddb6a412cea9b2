"""A class graded three ways, timed in one run: stock `nbgrader autograde`, `nbgrader autograde`
with the course's config, and the batch grader.

    .venv/bin/python bench/grading_throughput.py --students 2 --repeats 3 --jobs 2

Lays out a class of STUDENTS students who each hand in every lesson's solution, in two scratch
nbgrader courses: one with the course's `nbgrader_config.py` (its `GradeInSandbox` step in place of
`Execute`), one with nbgrader's own preprocessors put back ("stock": the notebook and its check
cells run in a plain kernel, hidden checks judged in a subprocess per exercise,
`TFCOURSE_JUDGE_IN_KERNEL=1`). Each repeat grades the class all three ways, every assignment in one
command (`nbgrader autograde "*"`); every notebook must get full marks every way. Prints each
repeat with the load average of the machine, then the medians, notebooks per minute and the
speed-ups over stock, and the floor: the kernel's time on the cells a grade depends on (lean),
summed over the class, beside the same for whole notebooks. nbgrader grades one notebook at a
time; the batch grader runs `--jobs` at once.
"""
from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.judging.reference import reference_observations, solution_path
from solution_times import kernel_seconds  # this script's sibling (bench/ is the script's sys.path[0])

BIN = Path(sys.executable).parent
STOCK = """
# bench: nbgrader's own autograde steps, as nbgrader 0.9.6 ships them
from nbgrader.converters import Autograde as _Autograde
for _name in ("sanitize_preprocessors", "autograde_preprocessors"):
    setattr(c.Autograde, _name, _Autograde.class_traits()[_name].default())
"""
STOCK_ENV = {"TFCOURSE_JUDGE_IN_KERNEL": "1"}  # check.hidden judges as it did before the course's step
NBGRADER, COURSE, BATCH = "stock nbgrader autograde", "nbgrader autograde + course config", "batch grader"


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """Run `cmd` in `cwd`; return its wall time in seconds (fail loudly if it fails)."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", **(env or {})}
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def make_course(root: Path, assignments: list[str], students: int, stock: bool) -> None:
    root.mkdir()
    shutil.copy(COURSE_ROOT / "nbgrader_config.py", root)
    if stock:
        with open(root / "nbgrader_config.py", "a") as config:
            config.write(STOCK)
    (root / "solutions").symlink_to(COURSE_ROOT / "solutions")
    for assignment in assignments:
        run([str(BIN / "nbgrader"), "generate_assignment", assignment, "--force"], root)
        source = solution_path(lessons.load(assignment))
        for i in range(students):
            folder = root / "submitted" / f"student{i:03d}" / assignment
            folder.mkdir(parents=True)
            shutil.copy(source, folder / source.name)


def nbgrader_scores(root: Path, assignments: list[str]) -> list[float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        return [s.score for a in assignments for s in gradebook.assignment_submissions(a)]


def autograde(root: Path, assignments: list[str], full: list[float], env: dict[str, str] | None = None) -> float:
    wall = run([str(BIN / "nbgrader"), "autograde", "*", "--force"], root, env)
    assert nbgrader_scores(root, assignments) == full, f"{root.name}: not full marks"
    return wall


def batch(root: Path, repeat: int, jobs: int, notebooks: int) -> float:
    out = root / f"results{repeat}"
    wall = run([sys.executable, "-m", "autograder", "grade", "submitted", "--out", str(out),
                "--jobs", str(jobs), "--force"], root)
    rows = list(csv.DictReader((out / "grades.csv").open()))
    assert len(rows) == notebooks and all(r["score"] == r["max_score"] and r["status"] == "graded" for r in rows), \
        "batch: not full marks"
    return wall


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assignments", nargs="*", default=lessons.assignments())
    parser.add_argument("--students", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    assignments = args.assignments
    notebooks = args.students * len(assignments)
    for assignment in assignments:
        reference_observations(lessons.load(assignment))  # build the cached references once, outside the timings
    full = [float(lessons.load(a).max_score) for a in assignments for _ in range(args.students)]
    print(f"{os.cpu_count()} CPUs, {load()}", flush=True)
    kernel = {(a, run_all): kernel_seconds(a, run_all) for a in assignments for run_all in (False, True)}
    walls: dict[str, list[float]] = {NBGRADER: [], COURSE: [], BATCH: []}
    with tempfile.TemporaryDirectory(prefix="tfcourse-bench-") as scratch:
        stock, course = Path(scratch) / "stock", Path(scratch) / "course"
        make_course(stock, assignments, args.students, stock=True)
        make_course(course, assignments, args.students, stock=False)
        for repeat in range(1, args.repeats + 1):
            walls[NBGRADER].append(autograde(stock, assignments, full, STOCK_ENV))
            walls[COURSE].append(autograde(course, assignments, full))
            walls[BATCH].append(batch(course, repeat, args.jobs, notebooks))
            print(f"repeat {repeat}: " + ", ".join(f"{k} {v[-1]:.1f} s" for k, v in walls.items()) + f"; {load()}",
                  flush=True)
    median = {k: statistics.median(v) for k, v in walls.items()}
    print(f"\n{args.students} students x {len(assignments)} lessons = {notebooks} notebooks, all at full marks every "
          f"way, {os.cpu_count()} CPUs, batch grader --jobs {args.jobs}, nbgrader one notebook at a time; "
          f"median of {args.repeats}")
    for name, value in median.items():
        print(f"  {name:36s} {value:7.1f} s  ({notebooks / value * 60:5.1f} notebooks/min)"
              + ("" if name == NBGRADER else f"  {median[NBGRADER] / value:5.2f}x stock"))
    print("kernel time on the cells grading runs, probes included (per notebook, lean / whole):")
    for assignment in assignments:
        print(f"  {assignment:32s} {kernel[(assignment, False)]:5.1f} s / {kernel[(assignment, True)]:5.1f} s")
    floor = {run_all: args.students * sum(kernel[(a, run_all)] for a in assignments) for run_all in (False, True)}
    per_notebook = {run_all: statistics.median(kernel[(a, run_all)] for a in assignments) for run_all in (False, True)}
    print(f"  median per graded notebook: lean {per_notebook[False]:.1f} s, whole {per_notebook[True]:.1f} s")
    print(f"  floor for the class: lean {floor[False]:.1f} s of kernel time ({floor[False] / args.jobs:.1f} s on "
          f"{args.jobs} cores), whole {floor[True]:.1f} s ({floor[True] / args.jobs:.1f} s)")


if __name__ == "__main__":
    main()
