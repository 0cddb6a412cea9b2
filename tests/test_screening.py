"""The screen read before grading (`autograder.judging.screening`): the short list of constructs with
no honest use zeroes, each seen for what it is; what reaches for the grader's machinery is flagged,
never zeroed; honest code (issue 33's corpus: magics, `__main__` guards, `getattr` with a variable,
metaclasses...) and every solution, release, alternative and mutant is not even flagged."""
from __future__ import annotations

import textwrap

import nbformat
import pytest

from autograder.course import lessons
from autograder.engine.kernel import released_sources
from autograder.judging.reference import solution_path
from autograder.judging.screening import screen, screen_sources, verdict
from tests.alternatives import alternatives_of
from tests.conftest import release_path
from tests.mutants import mutants_of

# The constructs that zero a submission (`screening.ZEROING`): none has an honest use in this course.
# Each with the words its finding must give, so a test passes only when that very construct is seen.
ZEROED = {
    "sys-getframe": ("import sys\nprobe_frame = sys._getframe(2)", "takes a stack frame"),
    "traceback-frame": ("try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    frame = e.__traceback__.tb_frame",
                        "takes a stack frame"),
    "generator-frame": ("def g():\n    yield\nf = g().gi_frame", "takes a stack frame"),
    "inspect-stack": ("import inspect\ninspect.stack()", "takes a stack frame"),
    "inspect-currentframe": ("from inspect import currentframe", "takes a stack frame"),
    "traceback-walk": ("import traceback\nfor frame, line in traceback.walk_stack(None):\n    pass", "stack frame"),
    "frame-by-literal": ("import sys\ngetattr(sys, '_getframe')(1)", "takes a stack frame"),
    "settrace": ("import sys\nsys.settrace(lambda *a: None)", "tracing, profiling or audit hook"),
    "setprofile": ("from sys import setprofile", "tracing, profiling or audit hook"),
    "threading-settrace": ("import threading\nthreading.settrace(print)", "tracing, profiling or audit hook"),
    "audit-hook": ("import sys\nsys.addaudithook(print)", "tracing, profiling or audit hook"),
    "gc": ("import gc\ngc.get_objects()", "garbage collector"),
    "gc-referrers": ("import gc\ngc.get_referrers(f)", "garbage collector"),
    "ctypes": ("import ctypes", "raw memory or native code"),
    "ctypes-from": ("from ctypes import pythonapi", "raw memory or native code"),
    "numpy-ctypes": ("np.ctypeslib.as_ctypes", "raw memory or native code"),
    "load-op": ("tf.load_op_library('x.so')", "raw memory or native code"),
    "swaps-code": ("ThresholdJudge.judge.__code__ = (lambda self, x: x > 0).__code__", "code object"),
    "code-by-literal": ("setattr(ThresholdJudge.judge, '__code__', None)", "code object"),
    "grader-import": ("import autograder.inkernel.integrity as integrity", "grader's own code"),
    "grader-from": ("from autograder.inkernel import probe", "grader's own code"),
    "grader-by-string": ("import sys\nsys.modules['autograder.inkernel.probe'].observe = None", "grader's own code"),
    "grader-attribute": ("import autograder.check\nautograder.course.lessons", "grader's own code"),
    "behind-timing-magic": ("%%time\nimport sys\nsys._getframe()", "takes a stack frame"),
    "behind-line-magic": ("%time sys._getframe()", "takes a stack frame"),
    "behind-top-level-await": ("import asyncio\nawait asyncio.sleep(0)\nimport sys\nsys._getframe()", "stack frame"),
}
# What the screen lists for the instructor, and never zeroes: some of it can steer an in-kernel
# probe, but the verdict rests on what the grader observes and re-checks, not on reading code.
FLAGGED = {
    "lowers-finalized-flag": "graph = tf1.get_default_graph()\ngraph._finalized = False",
    "unfinalizes": "tf1.get_default_graph()._unsafe_unfinalize()",
    "history": "request = In[-1]",
    "history-underscore": "request = _ih[-1]",
    "display-publisher": "get_ipython().display_pub.publish = print",
    "session-send": "from ipykernel.kernelbase import Kernel",
    "magic": "%run other.py",
    "shell": "!cat /etc/passwd",
    "cell-magic": "%%bash\nls",
    "module-through-another": "import shutil\nshutil.sys.modules",
    "class-patch": "tf1.Session.run = lambda self, *a, **k: None",
    "instance-shadow": "judge.sess.run = lambda *a, **k: None",
    "subclass-redefines-run": "class S(tf1.Session):\n    def run(self, *a, **k):\n        return None",
    "exec": "exec('x = 1')",
    "dunder-import": "__import__('sys')",
    "tensorflow-internals": "from tensorflow.python.client import session",
    "os-system": "os.system('true')",
    "subclasses": "object.__subclasses__()",
}
# Code honest students write: none of it costs a point, and none of it is even flagged.
HONEST = {
    "own-private": "self._x = tf1.placeholder(tf.float32)\nprint(judge._x)",
    "trainable": "layer.trainable = False",
    "imports": "import math, json, itertools\nfrom collections import defaultdict",
    "paths": "os.path.join(os.getcwd(), 'ckpt')",
    "getattr-literal": "getattr(tf.config.experimental, 'disable_op_determinism', None)",
    "matplotlib": "%matplotlib inline",
    "type-name": "type(exc).__name__",
    "words": "plt.plot([1], label='signal')\nkinds = ['code', 'sys', 'types']",
    "cell-time": "%%time\nwith tf.Graph().as_default():\n    x = tf.constant(1.0)",
    "line-timeit": "%timeit sum(range(10))",
    "main-guard": "if __name__ == '__main__':\n    print('demo')",
    "warnings": "import warnings\nwarnings.filterwarnings('ignore')",
    "operator": "import operator\nfrom functools import reduce\nreduce(operator.mul, [1, 2, 3])",
    "environment": "import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'",
    "getattr-variable": "for attribute in ('name', 'type'):\n    print(getattr(op, attribute))",
    "setattr-kwargs": "class C:\n    def __init__(self, **kwargs):\n        for k, v in kwargs.items():\n"
                      "            setattr(self, k, v)\n        self.__dict__.update(kwargs)",
    "globals-check": "if 'sess' in globals():\n    sess.close()",
    "local-vars": "vars = [v.name for v in tf1.global_variables()]",
    "loop-underscore": "for _i in range(3):\n    print(_i)",
    "other-instance-private": "class Judge:\n    def __init__(self):\n        self._cache = {}\n"
                              "    def merge(self, other):\n        other._cache = self._cache",
    "metaclass": "import abc\nclass Base(metaclass=abc.ABCMeta):\n    @abc.abstractmethod\n    def judge(self, x): ...",
    "dataclass": "from dataclasses import dataclass, field\n@dataclass\nclass Options:\n    threshold: float = 0.5",
    "print-debugging": "print(f'{x=}', type(x), x.dtype)",
    "sys-version": "import sys\nprint(sys.version)",
    "traceback-print": "import traceback\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n    traceback.print_exc()",
    "course-helpers": "from autograder.notebook.claims import claim",
    "tf-stack": "tf.stack([x, y])",
    "traceback-format": "import traceback\nlines = traceback.format_exc()",
}


@pytest.mark.parametrize("name", sorted(ZEROED))
def test_each_zeroing_construct_is_seen_for_what_it_is(name):
    source, words = ZEROED[name]
    findings = screen_sources({7: source})
    assert any(f.zeroes and words in f.reason for f in findings), findings
    reason = verdict(findings)
    assert reason.startswith("the code read before grading") and "cell 7" in reason


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_what_reaches_the_machinery_is_flagged_never_zeroed(name):
    findings = screen_sources({0: FLAGGED[name]})
    assert findings and not any(f.zeroes for f in findings), findings
    assert verdict(findings) == ""


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_code_is_not_even_flagged(name):
    assert screen_sources({0: HONEST[name]}) == []


def test_a_finding_quotes_the_line_capped():
    [finding] = screen_sources({3: "x = 1\n" + "y = sys._getframe(1)  # " + "a" * 500})
    assert (finding.cell, finding.line, finding.zeroes) == (3, 2, True)
    assert finding.code.startswith("y = sys._getframe") and len(finding.code) <= 120


def test_a_finding_behind_a_cell_magic_names_its_line_in_the_cell():
    [finding] = screen_sources({0: "%%time\nx = 1\ny = sys._getframe()"})
    assert (finding.line, finding.code) == (3, "y = sys._getframe()")


@pytest.mark.parametrize("assignment", lessons.assignments())
def test_no_honest_notebook_is_flagged(assignment):
    """Every solution and release, every alternative and every mutant (wrong, but honest) screens clean."""
    lesson = lessons.load(assignment)
    released = released_sources(assignment)
    for path in (solution_path(lesson), release_path(assignment)):
        assert screen(nbformat.read(path, as_version=4), released) == [], path
    for swap in [*alternatives_of(assignment), *mutants_of(assignment)]:
        assert screen_sources({0: textwrap.dedent(swap.source)}) == [], swap.name


def test_an_instructors_cell_left_as_released_is_not_screened():
    lesson = lessons.load("06_seeds_and_pipelines")
    nb = nbformat.read(release_path(lesson.assignment), as_version=4)
    assert any("import inspect" in c.source for c in nb.cells)  # a demo cell the screen would flag
    assert screen(nb, released_sources(lesson.assignment)) == []


@pytest.mark.parametrize("assignment", lessons.assignments())
def test_the_courses_cells_are_known_by_their_tokens(assignment):
    """Released cells re-spaced, with a trailing newline, a comment or blank lines added, are still
    the course's: the screen never reads them as the student's."""
    nb = nbformat.read(release_path(assignment), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = "# my note\n" + cell.source.replace("\n", "\n\n") + "\n# checked\n"
    assert screen(nb, released_sources(assignment)) == []
    changed = next(c for c in nb.cells if c.cell_type == "code")
    changed.source += "\nimport gc\ngc.get_objects()"
    assert verdict(screen(nb, released_sources(assignment)))  # a real change is still read
