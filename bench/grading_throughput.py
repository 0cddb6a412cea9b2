"""Throughput of the batch grader against plain `nbgrader autograde`, on the same submissions.

    .venv/bin/python bench/grading_throughput.py --copies 8 --repeats 3 --jobs 2

Lays out COPIES copies of a lesson's solution as a class in a scratch nbgrader course, then, in
each repeat, grades them with `nbgrader autograde` and with `python -m autograder grade`, and
prints both wall times, the ratio, and the medians. Every copy must get full marks both ways.
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

from autograder import COURSE_ROOT, lessons
from autograder.reference import reference_observations, solution_path

BIN = Path(sys.executable).parent


def run(cmd: list[str], cwd: Path) -> float:
    """Run `cmd` in `cwd`; return its wall time in seconds (fail loudly if it fails)."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def make_course(root: Path, assignment: str, copies: int) -> None:
    shutil.copy(COURSE_ROOT / "nbgrader_config.py", root)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--assignment", default=lessons.assignments()[0])
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    lesson = lessons.load(args.assignment)
    reference_observations(lesson)  # build the cached reference once, outside the timings
    walls: dict[str, list[float]] = {"nbgrader autograde": [], "batch grader": []}
    with tempfile.TemporaryDirectory(prefix="tfcourse-bench-") as scratch:
        root = Path(scratch)
        make_course(root, args.assignment, args.copies)
        for repeat in range(1, args.repeats + 1):
            nb_wall = run([str(BIN / "nbgrader"), "autograde", args.assignment, "--force"], root)
            assert nbgrader_scores(root, args.assignment) == [lesson.max_score] * args.copies, "nbgrader: not full marks"
            out = root / f"results{repeat}"
            ours = run([sys.executable, "-m", "autograder", "grade", "submitted", "--out", str(out),
                        "--jobs", str(args.jobs), "--force"], root)
            csv = (out / "grades.csv").read_text().splitlines()[1:]
            assert len(csv) == args.copies and all(f",{lesson.max_score},{lesson.max_score},graded," in r for r in csv)
            walls["nbgrader autograde"].append(nb_wall)
            walls["batch grader"].append(ours)
            print(f"repeat {repeat}: nbgrader autograde {nb_wall:.1f} s, batch grader (--jobs {args.jobs}) "
                  f"{ours:.1f} s, ratio {nb_wall / ours:.2f}x", flush=True)
    median = {k: statistics.median(v) for k, v in walls.items()}
    print(f"\n{args.copies} copies of {args.assignment}, all at full marks both ways, {os.cpu_count()} CPUs")
    for name, value in median.items():
        print(f"  median {name:18s} {value:7.1f} s  ({args.copies / value * 60:.1f} notebooks/min)")
    print(f"  median throughput ratio (batch / nbgrader): {median['nbgrader autograde'] / median['batch grader']:.2f}x")


if __name__ == "__main__":
    main()
