"""The screen read before grading (`autograder.judging.screening`): every forgery class of issue 23
is seen and zeroes the submission; no honest notebook, alternative or mutant is flagged."""
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

# One or more forgeries per class, each as the line(s) a hostile student would add to a cell.
FORGERIES = {
    # state the probe trusts, set instead of patched
    "lowers-finalized-flag": "graph = tf1.get_default_graph()\ngraph._finalized = False",
    "unfinalizes": "tf1.get_default_graph()._unsafe_unfinalize()",
    "private-getattr": "getattr(graph, '_fin' + 'alized')",
    "getattr-passed-on": "import functools\nfunctools.reduce(getattr, ['x'], graph)",
    # the same function object with other code
    "swaps-code": "ThresholdJudge.judge.__code__ = (lambda self, x: x > 0).__code__",
    "code-by-literal": "setattr(ThresholdJudge.judge, '__code__', None)",
    # frames
    "sys-getframe": "import sys\nprobe_frame = sys._getframe(2)",
    "traceback-frame": "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    frame = e.__traceback__.tb_frame.f_back",
    "generator-frame": "def g():\n    yield\nf = g().gi_frame.f_back",
    "inspect-stack": "import inspect\ninspect.stack()",
    "os-sys": "os.sys._getframe(1)",
    "shutil-reaches-os": "import shutil\nshutil.os.system('true')",
    # tracing and profiling hooks
    "settrace": "import sys\nsys.settrace(lambda *a: None)",
    "setprofile": "from sys import setprofile",
    "threading-settrace": "import threading\nthreading.settrace(print)",
    "audit-hook": "import sys\nsys.addaudithook(print)",
    # IPython's hooks, transformers, history and messages
    "input-transformer": "get_ipython().input_transformers_cleanup.append(lambda lines: lines)",
    "pre-run-cell": "ip = get_ipython()\nip.events.register('pre_run_cell', print)",
    "history": "request = In[-1]",
    "history-underscore": "request = _ih[-1]",
    "display-publisher": "from IPython.display import display\nimport IPython\nIPython.get_ipython().display_pub.publish = print",
    "session-send": "from ipykernel.kernelbase import Kernel",
    "magic": "%run other.py",
    "shell": "!cat /etc/passwd",
    "shell-assigned": "files = !ls /proc",
    "cell-magic": "%%bash\nls",
    "behind-top-level-await": "import asyncio\nawait asyncio.sleep(0)\nimport sys\nsys._getframe()",
    # the grader's own modules
    "clears-snapshot": "import autograder.inkernel.integrity as integrity\nintegrity._snapshot.clear()",
    "replaces-module-attribute": "from autograder.inkernel import probe\nprobe.np = None",
    "autograder-private": "from autograder.check import _checker",
    # classes and builtins the integrity check does not watch
    "dtype-name": "type(tf.float64).name = property(lambda self: 'float32')",
    "object-setattr": "object.__setattr__(spec, 'points', 0)",
    "builtins-sorted": "import builtins\nbuiltins.sorted = lambda xs: sorted(set(xs))",
    "dunder-builtins": "__builtins__.sorted = None",
    "class-patch": "tf1.Session.run = lambda self, *a, **k: None",
    "instance-shadow": "self.sess.run = lambda *a, **k: None",
    "session-as-self": "def lower(self):\n    self.run = lambda *a, **k: None\nlower(tf1.get_default_session())",
    "method-borrowed-by-a-session": "class Judge:\n    def quiet(self):\n        self.eval = print\nJudge.quiet(x)",
    "subclass-redefines-run": "class S(tf1.Session):\n    def run(self, *a, **k):\n        return None",
    "metaclass": "class M(type):\n    pass\nclass A(metaclass=M):\n    pass",
    "dict-of-module": "tf.__dict__['Session'] = None",
    "vars-of-module": "vars(tf)['Session'] = None",
    "subclasses": "object.__subclasses__()",
    # code built at run time
    "exec": "exec('x = 1')",
    "eval": "eval('1')",
    "compile": "compile('1', 'f', 'eval')",
    "dunder-import": "__import__('sys')",
    "importlib": "import importlib\nimportlib.import_module('sys')",
    "type-hints": "import typing\ntyping.get_type_hints(f)",
    # native code and raw memory
    "gc": "import gc\ngc.get_objects()",
    "ctypes": "import ctypes",
    "numpy-ctypes": "np.ctypeslib.as_ctypes",
    "as-strided": "np.lib.stride_tricks.as_strided(x, strides=(0,))",
    "load-op": "tf.load_op_library('x.so')",
    "tensorflow-internals": "from tensorflow.python.client import session",
    "os-system": "os.system('true')",
    "os-from": "from os import system",
    "star-import": "from numpy import *",
    "jupyter-client": "import jupyter_client",
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_every_forgery_class_is_seen_and_zeroes(name):
    findings = screen_sources({7: FORGERIES[name]})
    assert any(f.zeroes for f in findings), findings
    reason = verdict(findings)
    assert reason.startswith("the code read before grading") and "cell 7" in reason


def test_a_finding_quotes_the_line_capped():
    [finding] = screen_sources({3: "x = 1\n" + "y = eval('1')  # " + "a" * 500})
    assert (finding.cell, finding.line, finding.zeroes) == (3, 2, True)
    assert finding.code.startswith("y = eval") and len(finding.code) <= 120


def test_a_harmless_import_only_flags():
    [finding] = screen_sources({0: "import random\nrandom.seed(0)"})
    assert not finding.zeroes and verdict([finding]) == ""


@pytest.mark.parametrize("honest", [
    "self._x = tf1.placeholder(tf.float32)\nprint(judge._x)",  # its own private attribute
    "layer.trainable = False",
    "import math, json, itertools\nfrom collections import defaultdict",
    "os.path.join(os.getcwd(), 'ckpt')",
    "getattr(tf.config.experimental, 'disable_op_determinism', None)",
    "%matplotlib inline",
    "type(exc).__name__",
    "plt.plot([1], label='signal')\nkinds = ['code', 'sys', 'types']",  # module names as plain words
])
def test_honest_constructs_pass(honest):
    assert screen_sources({0: honest}) == []


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
    assert any("import inspect" in c.source for c in nb.cells)  # a demo cell the screen would zero
    assert screen(nb, released_sources(lesson.assignment)) == []
