"""The grader's memory against what students print: its peak resident memory while it grades a
class with `--jobs 2`, for an honest class and for classes whose two students each print a lot.

    .venv/bin/python bench/output_memory.py [--mb 600] [--repeats 1]

Each class is lesson 1's solution handed in by two students; in the printing classes each notebook
ends with a cell that prints `--mb` MB, in one print or in 1 kB prints, with the kernel's own cap
in place or undone. Each class is graded by
`python -m autograder grade` in a process of its own, whose peak resident memory
(`getrusage(RUSAGE_SELF).ru_maxrss`: the grader alone, not its kernels or zygotes) is printed, with
how far it is above the honest class's. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.engine.sandbox import bwrap_works
from autograder.judging.reference import solution_path

ASSIGNMENT = "01_graphs_and_sessions"
CLASSES = {  # class: the cell each student's notebook ends with ({mb}: megabytes printed)
    "honest": None,
    "one print": "print('x' * {mb} * 1_000_000)",
    "1 kB prints": "for _ in range({mb} * 1_000):\n    print('x' * 999)",
    # The kernel's cap undone (`inkernel.output`): what is left is the grader's message size limit.
    "uncapped, one print": "import sys\ndel sys.stdout.write\nprint('x' * {mb} * 1_000_000)",
    "uncapped, 1 kB prints": "import sys\ndel sys.stdout.write\nfor _ in range({mb} * 1_000):\n    print('x' * 999)",
}
# Run in a process of its own: grade, then report this process's own peak.
CHILD = """
import json, resource, sys
sys.modules.setdefault("rfc3987_syntax", None)
from autograder.frontends.cli import main
code = main(sys.argv[1:])
print(json.dumps({"exit": code, "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def write_class(root: Path, last_cell: str | None) -> None:
    """Two students handing in lesson 1's solution, ending with `last_cell` (if any)."""
    lesson = lessons.load(ASSIGNMENT)
    for student in ("ann", "bob"):
        nb = nbformat.read(solution_path(lesson), as_version=4)
        if last_cell:
            nb.cells.append(nbformat.v4.new_code_cell(last_cell))
        folder = root / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / lesson.notebook)


def peak_mb(submitted: Path, out: Path) -> tuple[float, list[str]]:
    """The grader's peak resident memory grading `submitted` with two jobs, and each result's status line."""
    flags = [] if bwrap_works() else ["--no-sandbox"]
    run = subprocess.run([sys.executable, "-c", CHILD, "grade", str(submitted), "--out", str(out), "--jobs", "2",
                          "--force", *flags], capture_output=True, text=True, cwd=COURSE_ROOT, check=True)
    report = json.loads(run.stdout.strip().splitlines()[-1])
    statuses = [f"{p.parent.name}: {r['status']} {r['score']}/{r['max_score']} {r['reason'][:90]}"
                for p in sorted(out.glob(f"*/{ASSIGNMENT}.json")) for r in [json.loads(p.read_text())]]
    return report["peak_kb"] / 1024, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    peaks: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="tfcourse-bench-") as scratch:
        for name, cell in CLASSES.items():
            root = Path(scratch) / name.replace(" ", "-")
            write_class(root / "submitted", cell and cell.format(mb=args.mb))
            runs = [peak_mb(root / "submitted", root / f"out{k}") for k in range(args.repeats)]
            peaks[name] = statistics.median(peak for peak, _ in runs)
            above = peaks[name] - peaks["honest"]
            print(f"{name:>22}: grader peak {peaks[name]:7.1f} MB ({above:+7.1f} MB vs honest)", flush=True)
            for line in runs[-1][1]:
                print(f"{'':>24}{line}")


if __name__ == "__main__":
    main()
