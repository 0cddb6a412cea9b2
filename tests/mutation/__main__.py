"""`make mutants`: grade every machine-made mutant of the solutions in one warm batch.

    .venv/bin/python -m tests.mutation [ASSIGNMENT ...] [--jobs 2] [--out DIR] [--compare-whole]

Per exercise it grades a lean baseline (the unmutated solution cell) and each lean mutant. A mutant
is killed when its exercise loses points, or its notebook times out or crashes. It prints each
exercise's kill rate over the mutants not listed as equivalent, then every survivor not listed (to
triage: strengthen the tests, or list it in `equivalent/l<assignment>.toml` with a reason), and
listed mutants that were killed after all. Exits 1 when a baseline fails or an exercise kills
fewer than 90%.

With `--compare-whole`, each mutant sits in its whole solution notebook instead, which is graded
twice: as by default (the grader's own lean cut, `autograder.judging.lean`) and with every cell
run (`--run-all`). Any notebook whose status, score, points or failed checks differ is listed,
and the exit code is 1. It is slow: every demo cell of every mutant's notebook runs once.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import nbformat

from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.engine.sandbox import bwrap_works
from autograder.judging.reference import solution_path
from autograder.judging.results import verdict
from tests.mutation.equivalent import equivalents_of
from tests.mutation.generate import GeneratedMutant, generated_mutants
from tests.mutation.lean import lean_notebook
from tests.swaps import swap_cells

TARGET = 0.90
# A mutant that loops for ever costs its whole timeout: keep them short (a lean solution needs ~2 s).
LIMITS = dict(cell_timeout=20.0, notebook_timeout=90.0)
BASELINE = "baseline"


def lay_out(root: Path, assignment: str, mutants: list[GeneratedMutant], whole: bool = False) -> None:
    """The lean baseline of each exercise, and each mutant, as students of one class; with `whole`,
    each in the whole solution notebook."""
    lesson = lessons.load(assignment)
    solution = nbformat.read(solution_path(lesson), as_version=4)
    cut = (lambda nb, *keep: nb) if whole else lean_notebook

    def write(student: str, nb: nbformat.NotebookNode) -> None:
        folder = root / student / assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / lesson.notebook)

    for exercise in lesson.exercises:
        write(f"{BASELINE}--{exercise.id}", cut(solution, f"{exercise.id}_solution"))
    for mutant in mutants:
        write(f"{mutant.exercise}--{mutant.id.rsplit('/', 1)[1]}", cut(swap_cells(solution, [mutant]), mutant.cell))


def killed(record: dict, exercise: str) -> bool:
    """Did grading tell this mutant from the solution?"""
    if record["status"] != "graded":
        return True
    return any(e["id"] == exercise and e["points"] < e["max_points"] for e in record["exercises"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("assignments", nargs="*", default=lessons.assignments())
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, help="keep the graded class and results here")
    parser.add_argument("--compare-whole", action="store_true",
                        help="grade each mutant's whole notebook lean and with every cell run; list differences")
    args = parser.parse_args()
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    started = time.perf_counter()
    mutants = {a: list(generated_mutants(a)) for a in args.assignments}
    with tempfile.TemporaryDirectory(prefix="tfcourse-mutants-") as scratch:
        where = args.out or Path(scratch)
        for assignment in args.assignments:
            lay_out(where / "submitted", assignment, mutants[assignment], whole=args.compare_whole)
        print(f"grading {sum(map(len, mutants.values()))} mutants of {len(args.assignments)} lesson(s) "
              f"with {args.jobs} job(s)", file=sys.stderr)
        limits = Limits(sandbox=bwrap_works(), **LIMITS)
        records = grade_all(discover([where / "submitted"]), where / "results", jobs=args.jobs, limits=limits,
                            force=True)
        by_student = {(r["student"], r["assignment"]): r for r in records}
        ok = report(mutants, by_student)
        if args.compare_whole:
            whole = grade_all(discover([where / "submitted"]), where / "results-whole", jobs=args.jobs,
                              limits=dataclasses.replace(limits, run_all=True), force=True)
            ok &= same_verdicts(by_student, {(r["student"], r["assignment"]): r for r in whole})
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return 0 if ok else 1


def same_verdicts(lean: dict, whole: dict) -> bool:
    """Print the notebooks whose verdicts (`results.verdict`) differ between lean and whole grading."""
    differ = sorted(key for key in lean if verdict(lean[key]) != verdict(whole[key]))
    print(f"\nlean and whole grading: {len(lean) - len(differ)} of {len(lean)} notebooks get the same verdicts")
    for student, assignment in differ:
        print(f"  {assignment}/{student}: lean {lean[(student, assignment)]['score']} "
              f"{lean[(student, assignment)]['status']}, whole {whole[(student, assignment)]['score']} "
              f"{whole[(student, assignment)]['status']}")
    return not differ


def report(mutants: dict[str, list[GeneratedMutant]], by_student: dict) -> bool:
    """Print the kill table, the untriaged survivors and stale equivalents; True when all is well."""
    ok, survivors, wrongly_listed = True, [], []
    print(f"\n{'exercise':42s} {'mutants':>7s} {'equiv':>5s} {'killed':>6s} {'rate':>6s}")
    for assignment, found in mutants.items():
        listed = equivalents_of(assignment)
        per_exercise = defaultdict(list)
        for mutant in found:
            per_exercise[mutant.exercise].append(mutant)
        for exercise in lessons.load(assignment).exercises:
            baseline = by_student[(f"{BASELINE}--{exercise.id}", assignment)]
            if killed(baseline, exercise.id):
                print(f"{assignment}/{exercise.id}: the lean solution itself loses points "
                      f"({baseline['status']}: {baseline['reason']}): its mutants prove nothing")
                ok = False
                continue
            group = per_exercise[exercise.id]
            dead = [m for m in group if killed(by_student[(f"{m.exercise}--{m.id.rsplit('/', 1)[1]}", assignment)], m.exercise)]
            equivalent = [m for m in group if m.id in listed and m not in dead]
            wrongly_listed += [m for m in dead if m.id in listed]
            survivors += [m for m in group if m not in dead and m.id not in listed]
            judged = len(group) - len(equivalent)
            rate = len(dead) / judged if judged else 1.0
            ok &= rate >= TARGET
            print(f"{assignment[:2]} {exercise.id:39s} {len(group):7d} {len(equivalent):5d} {len(dead):6d} "
                  f"{rate:6.0%}{'' if rate >= TARGET else '  < 90%'}")
    if survivors:
        print(f"\n{len(survivors)} survivor(s) to triage (strengthen the tests, or list as equivalent):")
        for m in survivors:
            print(f"  {m.id}  {m.description}")
    if wrongly_listed:
        print(f"\n{len(wrongly_listed)} listed as equivalent but killed (remove them from the list):")
        for m in wrongly_listed:
            print(f"  {m.id}  {m.description}")
    return ok


if __name__ == "__main__":
    sys.exit(main())
