"""Command line: `python -m autograder grade|judge|publish|gradebook|report|bundle ...`."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from autograder.course import lessons
from autograder.inkernel.quiet import quiet_environment


def _grade(args: argparse.Namespace) -> int:
    from autograder.engine.sandbox import SandboxUnavailable
    from autograder.frontends.batch import grade_all
    from autograder.frontends.settings import FLAGS, engine, load_config
    from autograder.judging.submissions import LayoutError, discover, layout_hint

    try:
        submissions = discover(args.paths)
    except LayoutError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not submissions:
        print("no submissions found under: " + " ".join(map(str, args.paths)) + "\n" + layout_hint(), file=sys.stderr)
        return 2
    overrides = {name: getattr(args, name) for name in FLAGS}
    settings = engine(load_config(args.config), {**overrides, "sandbox": False if args.no_sandbox else None,
                                                       "run_all": True if args.run_all else None})
    limits = settings.limits()
    runner = None
    if args.cluster:
        from autograder.frontends.cluster import ClusterRunner  # dask only when asked for
        try:
            runner = ClusterRunner(args.cluster)
        except (ImportError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        records = grade_all(submissions, args.out, settings.jobs, limits, force=args.force, runner=runner)
    except SandboxUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    total = sum(r["score"] for r in records)
    kept = f", kept {records.kept} unchanged" if records.kept else ""
    print(f"graded {records.graded} submission(s){kept}: {total} point(s) in all; results in {args.out}")
    return 0


def _judge(args: argparse.Namespace) -> int:
    """Judge observations read from stdin against the reference; print the exercise result as JSON."""
    from autograder.judging.feedback import exercise_json
    from autograder.judging.judge import judge_exercise
    from autograder.judging.reference import reference_observations

    lesson = lessons.load(args.assignment)
    exercise = lesson.exercise(args.exercise)
    cases = lessons.all_cases(lesson)[exercise.id]
    hidden_from = len(exercise.cases)
    expected = reference_observations(lesson)[exercise.id][hidden_from:]
    got = json.load(sys.stdin)
    result = judge_exercise(exercise, cases[hidden_from:], got, expected)
    print(json.dumps(exercise_json(result)))
    return 0


def _publish(args: argparse.Namespace) -> int:
    from autograder.course.hidden.strategies import write
    from autograder.judging.reference import publish

    for assignment in args.assignments or lessons.assignments():
        for path in (write(assignment), publish(lessons.load(assignment))):
            if path:
                print(f"wrote {path}")
    return 0


def _gradebook(args: argparse.Namespace) -> int:
    from autograder.frontends.gradebook import store
    from autograder.judging.results import read_results

    records = read_results(args.results)  # names each file it skips
    if not records:
        print(f"no results in {args.results}", file=sys.stderr)
        return 2
    stored, skipped = store(records, args.db, args.submitted, force=args.force)
    for reason in skipped:
        print(f"skipped {reason}", file=sys.stderr)
    print(f"stored {stored} result(s) in {args.db}" + (f", skipped {len(skipped)}" if skipped else ""))
    return 1 if skipped else 0


def _report(args: argparse.Namespace) -> int:
    from autograder.frontends.report import write_report
    from autograder.frontends.report_settings import FLAGS, report_settings

    settings = report_settings(args.config, {name: getattr(args, name) for name in FLAGS})
    for path in write_report(args.results, args.out or args.results / "report.html", args.submissions, settings,
                             args.against):
        print(f"wrote {path}")
    return 0


def _bundle(args: argparse.Namespace) -> int:
    from autograder.frontends.bundle import build

    print(f"wrote {build(args.out)}")
    return 0


def _engine_flags(grade: argparse.ArgumentParser) -> None:
    """One flag per setting of `frontends.settings.Engine`, documented by the trait itself."""
    from autograder.frontends.settings import FLAGS, Engine

    for name, flag in FLAGS.items():
        trait = Engine.class_traits()[name]
        grade.add_argument(flag, dest=name, type=type(trait.default_value), default=None,
                           help=f"{trait.help} Default {trait.default_value}; c.Engine.{name} in nbgrader_config.py.")


def _report_flags(report: argparse.ArgumentParser) -> None:
    """One flag per cut-off of `frontends.report_settings.Report`, documented by the trait itself."""
    from autograder.frontends.report_settings import FLAGS, Report

    for name, flag in FLAGS.items():
        trait = Report.class_traits()[name]
        report.add_argument(flag, dest=name, type=float, default=None,
                            help=f"{trait.help} Default {trait.default_value:g}; c.Report.{name} in nbgrader_config.py.")


def parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    top = argparse.ArgumentParser(prog="python -m autograder", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)

    grade = sub.add_parser("grade", help="grade notebooks or a submitted/ folder")
    grade.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                       help="a notebook, or a folder laid out as <student>/<assignment>/<notebook>.ipynb")
    grade.add_argument("--out", type=Path, required=True, help="folder for <student>/<assignment>.json and grades.csv")
    _engine_flags(grade)
    grade.add_argument("--force", action="store_true", help="regrade submissions that already have a result")
    grade.add_argument("--cluster", metavar="ADDRESS",
                       help="grade on the Dask scheduler at ADDRESS (e.g. tcp://host:8786), one task per "
                            "submission; --jobs is then ignored (see docs/cluster.md)")
    grade.add_argument("--no-sandbox", action="store_true",
                       help="grade without bubblewrap: process isolation only, so a submission can read and "
                            "change what the grader can (by default, grading refuses without a sandbox); "
                            "the same as c.Engine.sandbox = False")
    grade.add_argument("--run-all", action="store_true",
                       help="run every cell of each notebook; by default only the cells a grade depends on run "
                            "(setup, the student's new or changed cells, exercises, and the cells they read), "
                            "with the same verdicts; the same as c.Engine.run_all = True")
    grade.add_argument("--config", type=Path, default=Path("nbgrader_config.py"), metavar="FILE",
                       help="read the engine's settings (c.Engine.*) from this nbgrader config, as "
                            "`nbgrader autograde` does; flags override it (default: ./nbgrader_config.py, if any)")
    grade.set_defaults(run=_grade)

    judge = sub.add_parser("judge", help="(used by hidden-test cells) judge observations from stdin")
    judge.add_argument("assignment")
    judge.add_argument("exercise")
    judge.set_defaults(run=_judge)

    publish = sub.add_parser("publish", help="draw the hidden cases, then write the public expected values the check cells use")
    publish.add_argument("assignments", nargs="*")
    publish.set_defaults(run=_publish)
    book = sub.add_parser("gradebook", help="write graded results into nbgrader's gradebook")
    book.add_argument("results", type=Path, help="the --out folder of `grade`")
    book.add_argument("--db", type=Path, default=Path("gradebook.db"), help="nbgrader's database (default gradebook.db)")
    book.add_argument("--submitted", type=Path, metavar="DIR",
                      help="nbgrader's submitted/ folder: a result is stored only if it graded the notebook "
                           "there (default: submitted/ beside the database)")
    book.add_argument("--force", action="store_true",
                      help="store results even where nbgrader holds another notebook than the one they graded")
    book.set_defaults(run=_gradebook)

    report = sub.add_parser("report", help="write the class report: scores, pass rates, misconceptions, failures")
    report.add_argument("results", type=Path, metavar="RESULTS", help="the --out folder of `grade`")
    report.add_argument("--out", type=Path, help="the HTML page to write (default RESULTS/report.html)")
    report.add_argument("--submissions", type=Path, metavar="DIR",
                        help="the submissions folder `grade` read: compare the notebooks for similar code, and "
                             "write the pairs as similarity.csv and similarity.json beside the page")
    report.add_argument("--against", type=Path, metavar="DIR",
                        help="earlier years' submissions, laid out as --submissions: list this year's close to them")
    report.add_argument("--config", type=Path, default=Path("nbgrader_config.py"), metavar="FILE",
                        help="read the similarity cut-offs (c.Report.*) from this nbgrader config; flags override "
                             "it (default: ./nbgrader_config.py, if any)")
    _report_flags(report)
    report.set_defaults(run=_report)

    bundle = sub.add_parser("bundle", help="build the student bundle zip (no solutions, no hidden tests)")
    bundle.add_argument("--out", type=Path, default=Path("dist/student-bundle.zip"))
    bundle.set_defaults(run=_bundle)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; exit 0 when it ran, non-zero only when the grader itself could not run."""
    quiet_environment()
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except (KeyError, OSError) as exc:  # a missing path, a page that cannot be written: said in one line
        print(f"error: {exc.args[0] if isinstance(exc, KeyError) and exc.args else exc}", file=sys.stderr)
        return 2
