"""The class report's similarity pass, timed over a large class of one lesson, against one minute.

    .venv/bin/python bench/similarity_pass.py [--students 500] [--copies 5] [--assignment 07_learning_rate_decay]

Lays out a synthetic class in a scratch folder, as `grade` reads it: every student hands in the
release with each answer cell holding the solution's answer or the untouched stub, and lines of
their own (TensorFlow-like statements drawn at random, seeded); COPIES students hand in another's
notebook with every name in its answers changed. Times `similarity.class_similarity` (reading and
parsing the notebooks included), prints the figure (wall and CPU time: on a busy machine they
differ), and says whether the copied pairs were found and how many other pairs were listed.
"""
from __future__ import annotations

import argparse
import random
import re
import tempfile
import time
from pathlib import Path

import nbformat

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.frontends.similarity import class_similarity

BUDGET_S = 60.0
STATEMENTS = (
    "{a} = tf1.placeholder(tf.float32, [{n}], name='{a}')",
    "{a} = tf.reduce_sum({b} * {f})",
    "{a} = [{b} * {f} for {c} in range({n})]",
    "for {c} in range({n}):\n    {a}.append(sess.run({b}, {{{c}: {f}}}))",
    "print('{a}', {b}, {n})",
    "{a} = np.linspace({f}, {g}, {n})",
    "{a} = tf.where({b} > {f}, {c}, {a})",
    "with tf.Graph().as_default():\n    {a} = tf.constant({f})",
    "if {a} > {f}:\n    {b} = {c} + {n}",
    "{a}, {b} = sess.run([{c}, {a}], feed_dict={{{b}: {g}}})",
)
NAMES = ("x", "y", "rate", "step", "loss", "total", "values", "out", "graph", "lr", "best", "count")


def own_lines(rng: random.Random) -> str:
    """A student's own statements: 8 to 20, drawn from STATEMENTS with random names and numbers."""
    return "\n".join(rng.choice(STATEMENTS).format(
        a=rng.choice(NAMES), b=rng.choice(NAMES), c=rng.choice(NAMES), n=rng.randint(1, 100),
        f=round(rng.uniform(0, 10), rng.randint(0, 3)), g=rng.randint(-50, 50)) for _ in range(rng.randint(8, 20)))


def synthetic_class(root: Path, assignment: str, students: int, copies: int, seed: int = 7) -> list[dict]:
    """Write the notebooks under `root/<student>/<assignment>/` and return their result records."""
    rng = random.Random(seed)
    notebook = lessons.load(assignment).notebook
    release = nbformat.read(COURSE_ROOT / "notebooks" / assignment / notebook, 4)
    solution = nbformat.read(COURSE_ROOT / "solutions" / assignment / notebook, 4)
    # The marker lines dropped whole (as the grader's release does): indented markers stripped alone
    # left their indentation on the next line, so the answers did not parse.
    answers = {c.metadata["nbgrader"]["grade_id"]: "\n".join(
        line for line in c.source.splitlines() if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
        for c in solution.cells if c.metadata.get("nbgrader", {}).get("solution")}
    handed = []
    for i in range(students - copies):
        nb = nbformat.from_dict(release)
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in answers:
                cell.source = (answers[grade_id] if rng.random() < 0.7 else cell.source) + "\n\n" + own_lines(rng)
        handed.append(nb)
    for i in range(copies):  # student i's notebook, every name in the answers changed (each copier their own way)
        nb = nbformat.from_dict(handed[i])
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") in answers:
                cell.source = re.sub(r"\b(%s)\b" % "|".join(NAMES), rf"my{i}_\1", cell.source)
        handed.append(nb)
    records = []
    for i, nb in enumerate(handed):
        folder = root / f"s{i:03d}" / assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / notebook)
        records.append({"student": f"s{i:03d}", "assignment": assignment, "notebook": notebook, "status": "graded"})
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--assignment", default="07_learning_rate_decay")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tfcourse-bench-") as scratch:
        records = synthetic_class(Path(scratch), args.assignment, args.students, args.copies)
        started, cpu = time.perf_counter(), time.process_time()
        (result,) = class_similarity(records, Path(scratch))
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    copied = {(f"s{i:03d}", f"s{args.students - args.copies + i:03d}") for i in range(args.copies)}
    listed = {(p.a.student, p.b.student) for p in result.pairs}
    print(f"similarity pass over {args.students} submissions of {args.assignment}: {wall:.1f} s ({cpu:.1f} s of CPU) "
          f"({'within' if wall <= BUDGET_S else 'OVER'} the {BUDGET_S:.0f} s budget); "
          f"{len(copied & listed)}/{len(copied)} copied pairs found, {len(listed - copied)} other pair(s) listed")


if __name__ == "__main__":
    main()
