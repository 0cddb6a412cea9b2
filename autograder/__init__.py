"""Checks and grades the TensorFlow graph-mechanics course.

Public checks run in the student's notebook; the batch grader executes each submission in its own
kernel, observes the exercises there and judges the observations here, against references it
computes from `solutions/`.

The parts, each a folder, with imports flowing one way (tests/test_architecture.py keeps it so):

    frontends/  what people run: the command line, the batch and cluster graders, nbgrader's
                preprocessors, the check cells, the class report (and who copied), the gradebook,
                the student bundle
        │
    judging/    one submission's pipeline and verdicts: read, run, observe, judge, feedback, results
        │
    engine/     untrusted kernels: sandbox, jail, cgroups, zygotes, limits, devices
        │
    inkernel/   the only code of the grader that runs inside the student's kernel: the probe side
    course/     the content: lessons (exercises, probes, checks), hidden cases, public expected values
    notebook/   helpers the lessons' own cells import (pictures of graphs, checked claims, timing)

Two public names stay at the top for the notebooks: `autograder.check` (the check cells'
`Checker`) and `autograder.graph_picture` (`show_graph`).
"""
from pathlib import Path

__version__ = "0.1.0"

COURSE_ROOT = Path(__file__).resolve().parents[1]
"""The course checkout this package was installed from (editable install)."""
