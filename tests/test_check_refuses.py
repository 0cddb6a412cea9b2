"""The student's check cell refuses what the grader would zero, first and in the grader's words
(issue 33): no student learns of the screen's rule from a grade. Honest code is checked as usual."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.test_screening import HONEST, ZEROED

SCRIPT = textwrap.dedent('''
    import sys
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    for source in sys.argv[1:]:
        result = shell.run_cell(source, store_history=True)
        if result.error_in_exec is not None:
            print("ERROR", type(result.error_in_exec).__name__, result.error_in_exec)
''')


def run_cells(*sources: str) -> str:
    run = subprocess.run([sys.executable, "-c", SCRIPT, *sources], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


SETUP = 'from autograder.check import Checker\ncheck = Checker("01_graphs_and_sessions")'
# `check` on an exercise this notebook never defined: it fails as not implemented, or is refused first.
CHECK = 'check("count_ops")'


def test_a_zeroing_construct_is_refused_by_the_check_cell_in_the_graders_words():
    source, words = ZEROED["gc"]
    out = run_cells(SETUP, "try:\n" + textwrap.indent(source, "    ") + "\nexcept Exception:\n    pass", CHECK)
    assert "ERROR CheckFailed not checked: the code read before grading" in out, out
    assert words in out and "cell 2, line 3" in out


def test_honest_code_is_checked_as_usual():
    honest = [HONEST[name] for name in ("main-guard", "warnings", "getattr-variable", "metaclass")]
    out = run_cells(SETUP, "op = None\n" + honest[0], *honest[1:3], "op = type('Op', (), {'name': 'n', 'type': 't'})()",
                    honest[2], honest[3], CHECK)
    assert "not checked" not in out and "count_ops" in out, out  # checked, and failed as not written
