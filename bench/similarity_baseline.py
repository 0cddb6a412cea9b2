"""The class report's similar pairs against copydetect's, on a class with known copies.

    .venv/bin/python -m bench.similarity_baseline [--seed 5]     (from the repository root)

Writes the known class of `tests/integrity_class.py` (15 students, lessons 01 and 03: an exact
copy, renamed identifiers, reordered with new comments and docstrings, loops as comprehensions,
one exercise copied, a dead short line padded before every statement, and a leaked solution) in a
scratch folder and prints, for the report (with and without the evidence of hidden-case
observations) and for copydetect (its defaults, and at 0.5 with the release and the solution as
boilerplate, each notebook's code cells as one file, pairs from one run): copies found, false
flags, precision and recall. A benchmark, not a test: the figures are the point.
"""
from __future__ import annotations

import argparse
import tempfile
from itertools import combinations
from pathlib import Path

import nbformat

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.frontends.report_settings import Report
from autograder.frontends.similarity import class_similarity
from tests.integrity_class import LESSONS, scores, true_pairs, write_integrity_class

DEFAULT_DISPLAY = 0.33  # copydetect's own display_t


def _code(notebook: Path) -> str:
    nb = nbformat.read(notebook, 4)
    return "\n\n".join(c.source for c in nb.cells if c.cell_type == "code")


def copydetect_pairs(submissions: Path, scratch: Path, threshold: float | None, boilerplate: bool) -> set:
    """(lesson, a, b) of the pairs copydetect lists (either side's similarity at least `threshold`,
    its `display_t` when None), one run per lesson over every student's code as one .py file."""
    from copydetect import CopyDetector

    listed = set()
    for lesson in LESSONS:
        notebook = lessons.load(lesson).notebook
        files = scratch / lesson / "files"
        files.mkdir(parents=True)
        for folder in sorted(submissions.iterdir()):
            (files / f"{folder.name}.py").write_text(_code(folder / lesson / notebook))
        course = scratch / lesson / "course"
        course.mkdir()
        for kind in ("notebooks", "solutions"):
            (course / f"{kind}.py").write_text(_code(COURSE_ROOT / kind / lesson / notebook))
        cut = DEFAULT_DISPLAY if threshold is None else threshold
        detector = CopyDetector(test_dirs=[str(files)], boilerplate_dirs=[str(course)] if boilerplate else None,
                                extensions=["py"], display_t=cut, autoopen=False, silent=True,
                                out_file=str(scratch / lesson / "report.html"))
        detector.run()
        names = [Path(f).stem for f in detector.test_files]
        for i, j in combinations(range(len(names)), 2):
            a, b = sorted((i, j), key=lambda k: names[k])
            if max(detector.similarity_matrix[a, b, 0], detector.similarity_matrix[b, a, 0]) >= cut:
                listed.add((lesson, names[a], names[b]))
        # the leak: each file against the solution, at the same cut-off
        solution = scratch / lesson / "solution"
        solution.mkdir()
        (solution / "the solution.py").write_text(_code(COURSE_ROOT / "solutions" / lesson / notebook))
        leak = CopyDetector(test_dirs=[str(files)], ref_dirs=[str(solution)], extensions=["py"], display_t=cut,
                            autoopen=False, silent=True, out_file=str(scratch / lesson / "leak.html"))
        leak.run()
        for i, name in enumerate(Path(f).stem for f in leak.test_files):
            if leak.similarity_matrix[i, len(leak.test_files):, 0].max(initial=0) >= cut:
                listed.add((lesson, name, "the solution"))
    return listed


def _line(name: str, listed: set) -> str:
    precision, recall, missed, false = scores(listed)
    truth = len(true_pairs())
    return (f"{name:<52} {truth - len(missed):>3}/{truth} found {len(false):>4} false  "
            f"precision {precision:.2f}  recall {recall:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tfcourse-baseline-") as scratch:
        submissions = Path(scratch) / "submitted"
        records = write_integrity_class(submissions, seed=args.seed)

        def report(settings: Report, observed: bool = True) -> set:
            mine = records if observed else [{**r, "exercises": [], "observed": {}} for r in records]
            return {(s.assignment, p.a.student, p.b.student) for s in class_similarity(mine, submissions, settings)
                    for p in s.pairs}

        print(f"known class, seed {args.seed}: {len(true_pairs())} copies (the leak included), 15 students x 2 lessons")
        print(_line("the class report (defaults)", report(Report())))
        print(_line("the class report, code alone (no observations)", report(Report(), observed=False)))
        print(_line("copydetect, default threshold", copydetect_pairs(submissions, Path(scratch) / "d", None, False)))
        print(_line("copydetect at 0.5, release and solution as boilerplate",
                    copydetect_pairs(submissions, Path(scratch) / "b", 0.5, True)))


if __name__ == "__main__":
    main()
