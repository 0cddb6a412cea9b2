"""A catalogue of hostile and broken submissions. Each ends as a result with a status and a reason,
earns nothing on what it attacks, and leaves the honest submission graded beside it untouched."""
from __future__ import annotations

import copy
import csv
import dataclasses
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import nbformat
import pytest

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.judging.reference import cache_dir, solution_path
from tests.conftest import LIMITS, SANDBOX, needs_sandbox, release_path, without_screen
from tests.mutation.lean import lean_notebook

ASSIGNMENT = "02_rebuild_vs_feed"
LESSON = lessons.load(ASSIGNMENT)
FULL = LESSON.max_score
# Tight enough to keep the catalogue quick, loose enough for a TensorFlow import on a busy machine.


def tight_limits(honest_seconds: float) -> Limits:
    """The limits the endless loops and the memory bomb must hit, scaled by how long the honest
    solution took to grade on this machine just now: on a loaded machine every cell is slower (a
    cold kernel's TensorFlow import can take 20 s at a load of 15), and that must never turn the
    honest neighbour, or a hostile notebook's honest cells, into a timeout."""
    cell = max(20, math.ceil(2 * honest_seconds))  # whole seconds: nbclient's timeout is an int
    return Limits(cell_timeout=cell, notebook_timeout=max(120, 4 * cell), memory_mb=2500, sandbox=SANDBOX)


def with_cell(source: str, at: int | None = None) -> Callable:
    def transform(nb):
        cell = nbformat.v4.new_code_cell(source)
        nb.cells.insert(len(nb.cells) if at is None else at, cell)
        return nb
    return transform


def grade_id_cells(nb, grade_id):
    return [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]


def replace_solution(grade_id: str, source: str) -> Callable:
    def transform(nb):
        grade_id_cells(nb, grade_id)[0].source = source
        return nb
    return transform


def delete_solution(grade_id: str) -> Callable:
    def transform(nb):
        nb.cells = [c for c in nb.cells if c not in grade_id_cells(nb, grade_id)]
        return nb
    return transform


def delete_setup(nb):
    nb.cells = [c for c in nb.cells if c not in grade_id_cells(nb, "setup")]
    return nb


def unmark_setup(nb):
    """The setup cell as released, its nbgrader metadata gone: the lean cut knows it by its source."""
    grade_id_cells(nb, "setup")[0].metadata = {}
    return nb


def demo_cell_after(grade_id: str, nb) -> nbformat.NotebookNode:
    """The first code cell after the cell `grade_id` that nbgrader does not know (a demo)."""
    start = nb.cells.index(grade_id_cells(nb, grade_id)[0])
    return next(c for c in nb.cells[start + 1:] if c.cell_type == "code" and "nbgrader" not in c.metadata)


def demo_overrides(grade_id: str, source: str) -> Callable:
    """A demo cell after the exercise `grade_id`, changed to end with `source`."""
    def transform(nb):
        demo_cell_after(grade_id, nb).source += "\n" + source
        return nb
    return transform


def solution_moved_into_a_demo(grade_id: str) -> Callable:
    """The solution cell's code appended to the demo cell before it, the solution cell deleted."""
    def transform(nb):
        cell = grade_id_cells(nb, grade_id)[0]
        demo = next(c for c in nb.cells[nb.cells.index(cell) - 1::-1]
                    if c.cell_type == "code" and "nbgrader" not in c.metadata)
        demo.source += "\n" + cell.source
        nb.cells.remove(cell)
        return nb
    return transform


def duplicate_cells(nb):
    copies = []
    for cell in nb.cells:
        twin = copy.deepcopy(cell)
        twin.id = f"{cell.id}-twin"
        copies += [cell, twin]
    nb.cells = copies
    return nb


def reverse_cells(nb):
    nb.cells = nb.cells[::-1]
    return nb


STEAL_SOLUTIONS = f'''
import ctypes, glob, json, os
try:  # the run-time audit hook refuses ctypes: the reading below must not depend on this line
    libc = ctypes.CDLL(None, use_errno=True)
    for hidden_dir in ({str(COURSE_ROOT)!r}, {str(COURSE_ROOT / "autograder" / "course" / "hidden")!r}, {str(cache_dir())!r}):
        libc.umount2(hidden_dir.encode(), 2)  # peel off the sandbox's empty mount, if allowed
except Exception:
    pass
found = []
for pattern in ({str(COURSE_ROOT / "solutions")!r} + "/*/*.ipynb", os.path.expanduser("~") + "/*/*.ipynb"):
    for path in glob.glob(pattern):
        cells = json.load(open(path))["cells"]
        for cell in cells:
            text = "".join(cell["source"])
            if cell["cell_type"] == "code" and "BEGIN SOLUTION" in text:
                found.append(path)
try:
    import autograder.course.hidden.l02_rebuild_vs_feed as hidden
    found.append("hidden")
except ImportError:
    pass
for path in glob.glob({str(cache_dir())!r} + "/*.json"):
    found.append(open(path).read()[:10])
print("found", found)
if found:  # what it stole earns retune's points: a score above 0 is the proof that something was found
    def retune(options, threshold):
        options.update(threshold=threshold)
'''

PATCH_EVERYTHING = '''
import numpy, autograder.judging.judge, autograder.course.compare, autograder.check
numpy.allclose = numpy.array_equal = lambda *a, **k: True
autograder.judging.judge.judge_exercise = lambda *a, **k: None
autograder.course.compare.values_match = lambda *a, **k: True
autograder.check.Checker.__call__ = lambda self, *a: None
import IPython
IPython.get_ipython().showtraceback = lambda *a, **k: None
print("All tests passed! 12/12")
'''


def forge_results(out: Path) -> str:
    record = {"student": "forger", "assignment": ASSIGNMENT, "score": FULL, "max_score": FULL,
              "status": "graded", "exercises": []}
    return (f"import os, json\nfor d in ({str(out)!r}, {str(out / 'forger')!r}):\n"
            f"    try:\n        os.makedirs(d, exist_ok=True)\n"
            f"        open(os.path.join(d, {ASSIGNMENT + '.json'!r}), 'w').write({json.dumps(json.dumps(record))})\n"
            f"        open(os.path.join({str(out)!r}, 'grades.csv'), 'w').write('forged')\n"
            f"    except OSError as e:\n        print(e)")


@dataclass(frozen=True)
class Hostile:
    name: str
    base: str  # "solution" or "release"
    transform: Callable
    tight: bool = False


CATALOGUE = [
    Hostile("fake-success", "release", with_cell('print("All 5 checks passed. Score: 12/12")\nprint({"score": 12})')),
    Hostile("patches-checker", "release", with_cell(PATCH_EVERYTHING)),
    Hostile("steals-solutions", "release", with_cell(STEAL_SOLUTIONS)),
    Hostile("os-exit", "solution", with_cell("import os\nos._exit(0)")),
    Hostile("system-exit", "release", with_cell("raise SystemExit('bye')")),
    Hostile("exit-in-exercise", "release", replace_solution("retune_solution",
                                                         "def retune(options, threshold):\n    raise SystemExit(3)")),
    Hostile("kills-parent", "solution", with_cell("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)")),
    Hostile("megabytes-of-output", "solution", with_cell("print('x' * 20_000_000)\nfor i in range(20000): print(i)")),
    Hostile("not-json", "solution", lambda nb: "this is not a notebook"),
    Hostile("truncated", "solution", lambda nb: nbformat.writes(nb)[:5000]),
    Hostile("nbformat-3", "solution", lambda nb: nbformat.writes(nbformat.convert(nb, 3))),
    Hostile("deleted-solution-cell", "solution", delete_solution("retune_solution")),
    Hostile("duplicated-cells", "solution", duplicate_cells),
    Hostile("reordered-cells", "solution", reverse_cells),
    Hostile("renamed-function", "solution", replace_solution("retune_solution",
                                                         "def retune_options(options, threshold):\n    options.update(threshold=threshold)")),
    Hostile("wrong-signature", "solution", replace_solution("retune_solution",
                                                        "def retune(options):\n    options.update(threshold=0.3)")),
    # Against the lean cut (autograder/judging/lean.py), which skips unchanged demo cells:
    Hostile("deleted-setup", "solution", delete_setup),
    Hostile("unmarked-setup", "solution", unmark_setup),
    Hostile("demo-overrides-exercise", "solution", demo_overrides(
        "retune_solution", "def retune(options, threshold):\n    options.update(threshold=0.5)")),
    Hostile("exercise-in-a-demo", "solution", solution_moved_into_a_demo("retune_solution")),
    Hostile("infinite-loop", "solution", with_cell("while True:\n    pass"), tight=True),
    Hostile("loop-ignoring-signals", "release", with_cell(
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "while True:\n    pass"), tight=True),
    Hostile("loop-in-exercise", "solution", replace_solution("retune_solution",
                                                         "def retune(options, threshold):\n    while True:\n        pass"),
            tight=True),
    Hostile("memory-bomb", "release", with_cell("hoard = []\nwhile True:\n    hoard.append(bytearray(50 * 2**20))"),
            tight=True),
]


def write_submission(root: Path, student: str, content) -> None:
    folder = root / student / ASSIGNMENT
    folder.mkdir(parents=True)
    path = folder / LESSON.notebook
    path.write_text(content if isinstance(content, str) else nbformat.writes(content))


def grade_catalogue(root: Path, tight: bool, limits: Limits = LIMITS) -> dict[str, dict]:
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    out = root / "results"
    bases = {"solution": nbformat.read(solution_path(LESSON), as_version=4),
             "release": nbformat.read(release_path(ASSIGNMENT), as_version=4)}
    write_submission(root / "submitted", "honest", bases["solution"])
    for case in CATALOGUE:
        if case.tight == tight:
            nb = copy.deepcopy(bases[case.base])
            source = case.transform(nb) if case.name != "forges-results" else nb
            write_submission(root / "submitted", case.name, source)
    if not tight:
        nb = copy.deepcopy(bases["release"])
        nb.cells.append(nbformat.v4.new_code_cell(forge_results(out)))
        write_submission(root / "submitted", "forger", nb)
    with without_screen():  # the sandbox is what this catalogue attacks (the screen: tests/test_forgery.py)
        records = grade_all(discover([root / "submitted"]), out, jobs=2, limits=limits)
    stored = {r["student"]: json.loads((out / r["student"] / f"{ASSIGNMENT}.json").read_text()) for r in records}
    with open(out / "grades.csv", newline="") as rows:
        assert len(list(csv.DictReader(rows))) == len(records)
    return stored


def leftovers(since: float) -> list[str]:
    """Processes started since `since` from this checkout's Python (kernels, nannies, sandboxes,
    zygotes and whatever they forked) that are this process's descendants or orphans: not those
    of another process older than `since` (another pytest worker grading at the same time)."""
    import psutil

    me = os.getpid()
    found = []
    for process in psutil.process_iter(["pid", "cmdline", "create_time"]):
        info = process.info
        if info["pid"] == me or (info["create_time"] or 0) < since:
            continue
        if not any(sys.prefix in arg for arg in info["cmdline"] or ()):
            continue
        if "autograder.engine.replay" in (info["cmdline"] or ()):  # the grader's own worker, not a submission's:
            continue  # it lives with this (grading) process, holds no submission's state, and ends with it
        try:
            ancestors = process.parents()
        except psutil.Error:
            continue
        older = next((a for a in ancestors if a.pid == me or a.pid == 1 or a.create_time() < since), None)
        if older is None or older.pid in (me, 1):
            found.append(f"{info['pid']}: {' '.join(info['cmdline'])[:200]}")
    return found


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict[str, dict]:
    started = time.time()
    results = grade_catalogue(tmp_path_factory.mktemp("hostile"), tight=False)
    tight = tight_limits(results["honest"]["duration_s"])
    results.update({f"tight-{k}": v for k, v in
                    grade_catalogue(tmp_path_factory.mktemp("tight"), tight=True, limits=tight).items()})
    results["leftovers"] = leftovers(started)
    return results


@pytest.fixture(scope="module")
def hostile_whole(tmp_path_factory) -> dict[str, dict]:
    """The catalogue (all but its tight cases) graded with every cell run (`--run-all`)."""
    return grade_catalogue(tmp_path_factory.mktemp("whole"), tight=False, limits=dataclasses.replace(LIMITS, run_all=True))


def result(hostile, name):
    case = next((c for c in CATALOGUE if c.name == name), None)
    return hostile[f"tight-{name}" if case and case.tight else name]


def points(record, exercise_id):
    return next(e["points"] for e in record["exercises"] if e["id"] == exercise_id)


EXPECTED = {  # name: (status, score, words in the reason or feedback)
    "fake-success": ("graded", 0, "not-implemented"),
    "patches-checker": ("tampered", 0, "tampered"),  # numpy and the judge patched: caught before observing
    "system-exit": ("graded", 0, "not-implemented"),
    "exit-in-exercise": ("graded", 0, "SystemExit"),
    "os-exit": ("crashed", 0, "kernel died"),
    # In its own pid namespace the "parent" it sees is the sandbox's init; without a sandbox it is the
    # nanny, whose death takes the attacker's kernel (and nothing else) with it.
    "kills-parent": ("graded", FULL, "") if SANDBOX else ("crashed", 0, "kernel died"),
    "megabytes-of-output": ("graded", FULL, ""),
    "not-json": ("invalid", 0, "not a readable notebook"),
    "truncated": ("invalid", 0, "not a readable notebook"),
    "nbformat-3": ("graded", FULL, "converted from nbformat 3"),
    "duplicated-cells": ("graded", FULL, ""),
    "deleted-solution-cell": ("graded", FULL - 2, "missing-definition"),
    "renamed-function": ("graded", FULL - 2, "missing-definition"),
    "wrong-signature": ("graded", FULL - 2, "TypeError"),
    "infinite-loop": ("graded", FULL, "interrupted"),  # interrupted, then the rest ran
    "loop-ignoring-signals": ("timeout", 0, "ignored the interrupt"),
    "loop-in-exercise": ("graded", FULL - 2, "time limit of a cell"),
    "memory-bomb": ("crashed", 0, "memory limit"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_submission_gets_a_result_with_a_reason(hostile, name):
    record = result(hostile, name)
    status, score, words = EXPECTED[name]
    text = record["reason"] + " ".join(e["feedback"] for e in record["exercises"])
    assert (record["status"], record["score"]) == (status, score), text
    assert words in text
    assert len(record["exercises"]) == len(LESSON.exercises)
    if status != "graded":
        assert record["reason"]


@pytest.mark.slow
def test_lean_grading_behaves_like_the_whole_run(hostile, hostile_whole):
    """Deleting or unmarking the setup cell, moving or overriding an exercise in a demo cell, and
    every other case of the catalogue: the same status, score, and points and failed checks per
    exercise as when every cell runs."""
    from autograder.judging.results import verdict

    differ = {name: (verdict(hostile[name]), verdict(r)) for name, r in hostile_whole.items()
              if verdict(hostile[name]) != verdict(r)}
    assert not differ, differ
    assert hostile["honest"]["not_run"] and not hostile_whole["honest"]["not_run"]


@pytest.mark.slow
def test_reordered_cells_still_get_a_graded_result(hostile):
    assert result(hostile, "reordered-cells")["status"] == "graded"


@pytest.mark.slow
@needs_sandbox
def test_stealing_solutions_earns_nothing(hostile):
    record = result(hostile, "steals-solutions")
    assert record["score"] == 0 and record["status"] == "graded"


@pytest.mark.slow
@needs_sandbox
def test_forged_results_are_overwritten_by_the_real_ones(hostile):
    record = result(hostile, "forger")
    assert record["score"] == 0 and record["exercises"]


@pytest.mark.slow
def test_without_the_sandbox_the_thief_finds_what_the_sandbox_hides(tmp_path):
    """The witness of `steals-solutions`: with process isolation only, the same cell reads the
    solutions and earns points, so its 0 in the sandbox is the sandbox's doing."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    release = nbformat.read(release_path(ASSIGNMENT), as_version=4)
    write_submission(tmp_path / "submitted", "thief", with_cell(STEAL_SOLUTIONS)(release))
    with without_screen():
        [record] = grade_all(discover([tmp_path / "submitted"]), tmp_path / "out", jobs=1, limits=Limits(sandbox=False))
    assert record["score"] > 0, record


@pytest.mark.slow
def test_honest_submission_beside_them_gets_full_marks(hostile):
    for key in ("honest", "tight-honest"):
        assert (hostile[key]["status"], hostile[key]["score"]) == ("graded", FULL)


@pytest.mark.slow
def test_without_a_sandbox_killing_the_parent_costs_only_the_attacker(tmp_path):
    """--no-sandbox: the kernel's parent is a nanny, never the grader, so the batch goes on."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    solution = nbformat.read(solution_path(LESSON), as_version=4)
    write_submission(tmp_path / "submitted", "a-honest", solution)
    write_submission(tmp_path / "submitted", "b-kills-parent",
                     with_cell("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)")(copy.deepcopy(solution)))
    write_submission(tmp_path / "submitted", "c-honest", solution)
    with without_screen():  # the nanny is what this attacks
        records = {r["student"]: r for r in grade_all(discover([tmp_path / "submitted"]), tmp_path / "out", jobs=1,
                                                      limits=Limits(sandbox=False))}
    assert (records["b-kills-parent"]["status"], records["b-kills-parent"]["score"]) == ("crashed", 0)
    assert "kernel died" in records["b-kills-parent"]["reason"]
    for honest in ("a-honest", "c-honest"):
        assert (records[honest]["status"], records[honest]["score"]) == ("graded", FULL), records[honest]["reason"]


CHATTY_COUNT_OPS = """
from collections import Counter
_printed = []


def count_ops_by_type(graph):
    if not _printed:
        _printed.append(True)
        print("x" * 600_000_000)
    return dict(Counter(op.type for op in graph.get_operations()))
"""
UNDOES_THE_CAP = "import sys\ndel sys.stdout.write\nprint('x' * 50_000_000)"


@pytest.mark.slow
def test_a_big_print_costs_neither_an_observation_nor_a_neighbour(tmp_path):
    """A 600 MB print in `count_ops_by_type`'s first call (a probe cell) is cut in the kernel, so the
    call is still observed, and the reason says the output was cut. A submission that undoes that cap
    and prints 50 MB at once loses its connection (ZeroMQ's message size limit): `crashed`, with the
    reason, while the honest notebook graded beside them keeps full marks."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    lesson = lessons.load("01_graphs_and_sessions")
    solution = nbformat.read(solution_path(lesson), as_version=4)
    notebooks = {"honest": solution, "chatty": with_cell(CHATTY_COUNT_OPS)(copy.deepcopy(solution)),
                 "uncapped": with_cell(UNDOES_THE_CAP)(copy.deepcopy(solution))}
    for student, nb in notebooks.items():
        folder = tmp_path / "submitted" / student / lesson.assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / lesson.notebook)
    with without_screen():  # deleting the kernel's cap is what this tries
        records = {r["student"]: r for r in grade_all(discover([tmp_path / "submitted"]), tmp_path / "out", jobs=2,
                                                      limits=LIMITS)}
    chatty, uncapped = records["chatty"], records["uncapped"]
    assert (chatty["status"], chatty["score"]) == ("graded", lesson.max_score), chatty["reason"]
    assert "output over 200000 bytes was cut in 1 cell(s)" in chatty["reason"]
    assert (uncapped["status"], uncapped["score"]) == ("crashed", 0), uncapped["reason"]
    assert "output over the limit" in uncapped["reason"]
    assert (records["honest"]["status"], records["honest"]["score"]) == ("graded", lesson.max_score)


@pytest.mark.slow
def test_no_process_of_the_catalogue_outlives_it(hostile):
    assert hostile["leftovers"] == []


DAEMON = """
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        while True:
            time.sleep(1)
    os._exit(0)
"""


@pytest.mark.slow
def test_without_a_sandbox_or_cgroups_every_stopped_kernel_leaves_nothing(tmp_path, monkeypatch):
    """--no-sandbox on a machine without cgroups: however a kernel is stopped (it ends, dies, kills
    its nanny, is interrupted, or ignores the interrupt and is killed), no process of it is left,
    not even a daemon it double-forked into a session of its own."""
    from autograder.engine.cgroups import KernelCgroup
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    monkeypatch.setattr(KernelCgroup, "create", classmethod(lambda cls, *a: None))
    # Lean (no demos, no timing sweeps): without warm zygotes each kernel imports TensorFlow itself.
    solution = lean_notebook(nbformat.read(solution_path(LESSON), as_version=4))
    release = lean_notebook(nbformat.read(release_path(ASSIGNMENT), as_version=4))
    attacks = {"daemon": with_cell(DAEMON)(copy.deepcopy(solution)),
               "daemon-then-exit": with_cell(DAEMON + "\nos._exit(0)")(copy.deepcopy(solution)),
               "kills-parent": with_cell(DAEMON + "\nimport signal\nos.kill(os.getppid(), signal.SIGKILL)")(
                   copy.deepcopy(solution)),
               # Asleep, not spinning: it waits out the generous limit, and a spin would take a core from
               # the other tests all that time. Ignoring the interrupt, it is killed either way.
               "ignores-interrupt": with_cell(DAEMON + "\nimport signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)"
                                              "\nwhile True:\n    time.sleep(1)")(copy.deepcopy(release))}
    write_submission(tmp_path / "submitted", "honest", solution)
    for name, nb in attacks.items():
        write_submission(tmp_path / "submitted", name, nb)
    started = time.time()
    # Generous: each kernel here imports TensorFlow cold, which takes 20 s and more on a loaded machine,
    # and only the loop that ignores the interrupt must reach the limit.
    limits = Limits(cell_timeout=90, notebook_timeout=600, memory_mb=2500, sandbox=False)
    with without_screen():  # the processes left behind are what this attacks, not the screen
        records = {r["student"]: r for r in grade_all(discover([tmp_path / "submitted"]), tmp_path / "out",
                                                      jobs=2, limits=limits)}
    assert (records["honest"]["status"], records["honest"]["score"]) == ("graded", FULL)
    assert (records["daemon"]["status"], records["daemon"]["score"]) == ("graded", FULL)
    assert records["ignores-interrupt"]["status"] == "timeout"
    assert leftovers(started) == []
