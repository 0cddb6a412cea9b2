"""Three ways to grade the same class, timed in one run: stock `nbgrader autograde`, `nbgrader autograde`
with the course's config, and the batch grader.

    .venv/bin/python bench/grading_throughput.py --copies 8 --repeats 3 --jobs 2

Lays out COPIES copies of a lesson's solution as a class in two scratch nbgrader courses: one with
the course's `nbgrader_config.py` (its `GradeInSandbox` step in place of `Execute`), one with
nbgrader's own preprocessors put back ("stock": the notebook and its check cells run in a plain
kernel, hidden checks judged in a subprocess per exercise, `TFCOURSE_JUDGE_IN_KERNEL=1`). Each
repeat grades the class all three ways; every copy must get full marks every way. Prints each
repeat, then the medians and the speed-ups over stock. nbgrader grades one notebook at a time;
the batch grader runs `--jobs` at once.
"""
from __future__ import annotations

import argparse
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


def make_course(root: Path, assignment: str, copies: int, stock: bool) -> None:
    root.mkdir()
    shutil.copy(COURSE_ROOT / "nbgrader_config.py", root)
    if stock:
        with open(root / "nbgrader_config.py", "a") as config:
            config.write(STOCK)
    (root / "solutions").symlink_to(COURSE_ROOT / "solutions")
    run([str(BIN / "nbgrader"), "generate_assignment", assignment, "--force"], root)
    source = solution_path(lessons.load(assignment))
    for i in range(copies):
        folder = root / "submitted" / f"student{i:03d}" / assignment
        folder.mkdir(parents=True)
        shutil.copy(source, folder / source.name)


def nbgrader_scores(root: Path, assignment: str) -> list[float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        return [s.score for s in gradebook.assignment_submissions(assignment)]


def autograde(root: Path, assignment: str, full: list[float], env: dict[str, str] | None = None) -> float:
    wall = run([str(BIN / "nbgrader"), "autograde", assignment, "--force"], root, env)
    assert nbgrader_scores(root, assignment) == full, f"{root.name}: not full marks"
    return wall


def batch(root: Path, repeat: int, jobs: int, copies: int, max_score: int) -> float:
    out = root / f"results{repeat}"
    wall = run([sys.executable, "-m", "autograder", "grade", "submitted", "--out", str(out),
                "--jobs", str(jobs), "--force"], root)
    csv = (out / "grades.csv").read_text().splitlines()[1:]
    assert len(csv) == copies and all(f",{max_score},{max_score},graded," in r for r in csv), "batch: not full marks"
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assignment", default=lessons.assignments()[0])
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    lesson = lessons.load(args.assignment)
    reference_observations(lesson)  # build the cached reference once, outside the timings
    full = [float(lesson.max_score)] * args.copies
    walls: dict[str, list[float]] = {NBGRADER: [], COURSE: [], BATCH: []}
    with tempfile.TemporaryDirectory(prefix="tfcourse-bench-") as scratch:
        stock, course = Path(scratch) / "stock", Path(scratch) / "course"
        make_course(stock, args.assignment, args.copies, stock=True)
        make_course(course, args.assignment, args.copies, stock=False)
        for repeat in range(1, args.repeats + 1):
            walls[NBGRADER].append(autograde(stock, args.assignment, full, STOCK_ENV))
            walls[COURSE].append(autograde(course, args.assignment, full))
            walls[BATCH].append(batch(course, repeat, args.jobs, args.copies, lesson.max_score))
            print(f"repeat {repeat}: " + ", ".join(f"{k} {v[-1]:.1f} s" for k, v in walls.items()), flush=True)
    median = {k: statistics.median(v) for k, v in walls.items()}
    print(f"\n{args.copies} copies of {args.assignment}, all at full marks every way, {os.cpu_count()} CPUs, "
          f"batch grader --jobs {args.jobs}, nbgrader one notebook at a time")
    for name, value in median.items():
        print(f"  median {name:36s} {value:7.1f} s  ({args.copies / value * 60:5.1f} notebooks/min)"
              + ("" if name == NBGRADER else f"  {median[NBGRADER] / value:5.2f}x stock"))


if __name__ == "__main__":
    main()
