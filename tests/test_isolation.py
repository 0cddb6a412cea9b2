"""Isolation that holds (issue 11): attacks by a student who has read the grader's source.

Every attacker here is the lesson-2 solution with its `retune` rewritten so that it answers right
only if the attack worked: the grade itself is the witness. An attack that fails costs exactly
retune's 2 points. The attackers and honest students are graded in one batch, one job, so they
share one warm zygote, in name order: each honest student comes right after an attacker.
"""
from __future__ import annotations

import copy
import json

import nbformat
import pytest

from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.judging.reference import solution_path
from tests.conftest import needs_sandbox, without_screen

ASSIGNMENT = "02_rebuild_vs_feed"
LESSON = lessons.load(ASSIGNMENT)
FULL = LESSON.max_score
RETUNE = 2
SECRET = "s3cr3t-grader-token-7d1f"
LIMITS = Limits(cell_timeout=40, notebook_timeout=240, memory_mb=1500, scratch_mb=256, file_mb=64, sandbox=True)


def retune_if(condition: str, setup: str = "") -> str:
    """A `retune` that is right only when `condition` (Python, evaluated at call time) holds."""
    return (f"{setup}\n"
            "def retune(options, threshold):\n"
            f"    options.update(threshold=threshold if ({condition}) else -1.0)\n")


PLANT = r'''
import os, stat, glob
startup = os.path.expanduser("~/.ipython/profile_default/startup")
os.makedirs(startup, exist_ok=True)
with open(os.path.join(startup, "00-evil.py"), "w") as f:
    f.write("""
ip = get_ipython()
def _steal(result):
    open('/dev/shm/stolen', 'a').write(result.info.raw_cell + '\\n#-#\\n')
    for name in ('ThresholdJudge', 'retune', 'scale_all'):
        ip.user_ns.pop(name, None)
ip.events.register('post_run_cell', _steal)
""")
os.chmod(os.path.join(startup, "00-evil.py"), 0o444)
for folder in (startup, os.path.dirname(startup), os.path.expanduser("~/.ipython"), os.path.expanduser("~")):
    os.chmod(folder, 0o555)
open("/dev/shm/planted", "w").write("left for the next student")
open("/tmp/planted", "w").write("left for the next student")
os.chmod("/tmp", 0o555) if os.access("/tmp", os.W_OK) else None
'''

ACCOMPLICE = r'''
import os
stolen = open("/dev/shm/stolen").read() if os.path.exists("/dev/shm/stolen") else ""
for chunk in stolen.split("#-#"):
    if "BEGIN SOLUTION" in chunk or "def " in chunk:
        try:
            exec(chunk, globals())
        except Exception:
            pass
'''

REFORKER = r'''
import os, time, signal
if os.fork() == 0:
    if os.fork() != 0:
        os._exit(0)  # a double fork: the daemon is nobody's child in the kernel's tree
    end = time.time() + 120
    while time.time() < end:
        if os.fork() != 0:
            os._exit(0)  # re-fork: a new pid every round, as the issue measured
        for pid in [int(p) for p in os.listdir("/proc") if p.isdigit()]:
            if pid != os.getpid():
                try:
                    os.kill(pid, signal.SIGKILL)  # the next kernel, the zygote, anyone
                except OSError:
                    pass
        time.sleep(0.05)
    os._exit(0)
time.sleep(1)
'''

CLEAN_CHECK = ('not (os.path.exists("/tmp/planted") or os.path.exists("/dev/shm/planted") '
               'or os.path.exists(os.path.expanduser("~/.ipython/profile_default/startup/00-evil.py")) '
               'or [p for p in os.listdir("/proc") if p.isdigit() and int(p) > 1 and '
               'open(f"/proc/{p}/status").read().split("Uid:")[1].split()[0] != str(os.getuid())])')

RUNDIR_ATTACK = r'''
import os, glob
from ipykernel.connect import get_connection_file
rundir = os.path.dirname(get_connection_file())
won = []
for name, make in (("kernel.log", lambda p: os.symlink(CANARY, p)), ("fifo", os.mkfifo),
                   ("big", lambda p: open(p, "wb").write(b"x" * (80 * 2**20)))):
    try:
        make(os.path.join(rundir, name))
        won.append(name)
    except OSError:
        pass
try:
    os.chmod(rundir, 0o500)
    won.append("chmod")
except OSError:
    pass
for log in [os.readlink(f"/proc/self/fd/{fd}") for fd in (1, 2)]:
    try:
        os.unlink(log)
        os.symlink(CANARY, log)
        won.append("log")
    except OSError:
        pass
'''

FILL_TMP = r'''
written = 0
try:
    with open("/tmp/work/fill", "wb") as f:
        while written < 2000 * 2**20:
            f.write(b"x" * (16 * 2**20)); f.flush(); written += 16 * 2**20
except OSError:
    pass
'''

OUTSIDE_ALLOCATOR = r'''
import os, time
if os.fork() == 0:
    if os.fork() == 0:
        hoard = bytearray(1800 * 2**20)
        open("/tmp/work/allocated", "w").write("yes")
        time.sleep(60)
    os._exit(0)
time.sleep(6)
'''

ORPHANS = r'''
import os, time
made = 0
for _ in range(1100):
    try:
        if os.fork() == 0:
            time.sleep(60); os._exit(0)
        made += 1
    except OSError:
        break
'''

FLOOD = r'''
from IPython.display import display
import autograder.inkernel.probe as p
for _ in range(30):
    display({p.MIMETYPE: {"nonce": "guess", "device": "CPU", "stderr": "", "exercises": {"x": "y" * 20_000_000}}}, raw=True)
'''

LEAK = r'''
import os
def retune(options, threshold):
    if threshold not in (0.325, 0.3):  # the public cases' thresholds: it raises only on hidden cases
        raise RuntimeError(open("/proc/self/mountinfo").read() + repr(dict(os.environ)) + repr(options))
    options.update(threshold=threshold)
'''

HUGE = r'''
def retune(options, threshold):
    options.update(threshold=threshold, junk=list(range(3_000_000)))
'''


def solution():
    return nbformat.read(solution_path(LESSON), as_version=4)


def with_cells(*sources: str, retune: str | None = None, base=None):
    nb = copy.deepcopy(base or solution())
    for source in sources:
        nb.cells.append(nbformat.v4.new_code_cell(source))
    if retune is not None:
        cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "retune_solution")
        cell.source = retune
    return nb


@pytest.fixture(scope="module")
def isolated(tmp_path_factory):
    """Grade the whole catalogue once; return (records by student, the canary file, the results folder)."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover
    from tests.conftest import release_path

    root = tmp_path_factory.mktemp("isolation")
    canary = root / "canary.txt"
    canary.write_text("host file: must stay as it is")
    release = nbformat.read(release_path(ASSIGNMENT), as_version=4)
    catalogue = {
        "a1-planter": with_cells(PLANT),
        "a2-honest-after-planter": solution(),
        "a3-accomplice": with_cells(ACCOMPLICE, base=release),
        "a4-clean-checker": with_cells(retune=retune_if(CLEAN_CHECK, "import os")),
        "b1-reforker": with_cells(REFORKER),
        "b2-honest-after-reforker": solution(),
        "b3-clean-checker": with_cells(retune=retune_if(CLEAN_CHECK, "import os")),
        "c1-rundir": with_cells(f"CANARY = {str(canary)!r}\n" + RUNDIR_ATTACK, retune=retune_if("won", "won = []")),
        "c2-honest-after-rundir": solution(),
        "d1-fill-tmp": with_cells(FILL_TMP, retune=retune_if("written > 1500 * 2**20", "written = 0")),
        "d2-outside-allocator": with_cells(OUTSIDE_ALLOCATOR,
                                           retune=retune_if('os.path.exists("/tmp/work/allocated")', "import os")),
        "d3-orphans": with_cells(ORPHANS, retune=retune_if("made >= 1000", "made = 0")),
        "d4-flood": with_cells(FLOOD),
        "d5-huge-return": with_cells(retune=HUGE),
        "d6-honest-after-limits": solution(),
        "e1-leaker": with_cells(retune=LEAK),
        "e2-environment": with_cells(retune=retune_if(f"os.environ.get('TFCOURSE_TEST_SECRET') == {SECRET!r}",
                                                      "import os")),
        "e3-sees-the-course": with_cells(retune=retune_if(
            "any(os.path.exists(p) for p in (SOLUTIONS, RESULTS, '/etc/shadow', os.path.expanduser('~root')))",
            f"import os\nSOLUTIONS = {str(solution_path(LESSON).parent)!r}\nRESULTS = {str(root / 'out')!r}")),
        "z-honest-last": solution(),
    }
    for student, nb in catalogue.items():
        folder = root / "submitted" / student / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / LESSON.notebook)
    import os
    os.environ["TFCOURSE_TEST_SECRET"] = SECRET
    try:
        with without_screen():  # the sandbox is what this catalogue attacks
            records = grade_all(discover([root / "submitted"]), root / "out", jobs=1, limits=LIMITS)
    finally:
        del os.environ["TFCOURSE_TEST_SECRET"]
    return {r["student"]: r for r in records}, canary, root / "out"


def retune_points(record):
    return next(e["points"] for e in record["exercises"] if e["id"] == "retune")


HONEST = ["a2-honest-after-planter", "b2-honest-after-reforker", "c2-honest-after-rundir",
          "d6-honest-after-limits", "z-honest-last"]


@pytest.mark.slow
@needs_sandbox
@pytest.mark.parametrize("student", HONEST)
def test_an_honest_student_after_an_attacker_keeps_full_marks(isolated, student):
    record = isolated[0][student]
    assert (record["status"], record["score"]) == ("graded", FULL), (record["reason"], record["exercises"])


@pytest.mark.slow
@needs_sandbox
@pytest.mark.parametrize("student", ["a4-clean-checker", "b3-clean-checker"])
def test_nothing_an_attacker_left_is_visible_to_the_next_kernel(isolated, student):
    record = isolated[0][student]
    assert record["score"] == FULL, [e["feedback"] for e in record["exercises"] if not e["passed"]]


@pytest.mark.slow
@needs_sandbox
def test_an_accomplice_reading_the_planters_loot_gets_nothing(isolated):
    assert isolated[0]["a3-accomplice"]["score"] == 0


@pytest.mark.slow
@needs_sandbox
@pytest.mark.parametrize("student", ["c1-rundir", "d1-fill-tmp", "d2-outside-allocator", "d3-orphans",
                                     "e2-environment", "e3-sees-the-course"])
def test_an_attack_on_a_limit_or_a_path_earns_nothing(isolated, student):
    record = isolated[0][student]
    assert retune_points(record) == 0, record["exercises"]
    assert record["status"] in ("graded", "crashed", "timeout"), record["reason"]


@pytest.mark.slow
@needs_sandbox
def test_no_host_file_is_touched_and_every_student_has_a_result(isolated):
    records, canary, out = isolated
    assert canary.read_text() == "host file: must stay as it is"
    assert len(records) == 19 and len(list(out.glob("*/*.json"))) == 19


@pytest.mark.slow
@needs_sandbox
def test_feedback_on_hidden_cases_carries_no_kernel_text(isolated):
    records, _, out = isolated
    text = json.dumps(records["e1-leaker"])
    for secret in ("keep_prob", "mountinfo", "/proc", "overlay", SECRET, str(out), "a1-planter", "tmpfs"):
        assert secret not in text, secret
    assert retune_points(records["e1-leaker"]) == 0


@pytest.mark.slow
@needs_sandbox
def test_floods_and_huge_answers_stay_small(isolated):
    records, _, out = isolated
    for student in ("d4-flood", "d5-huge-return"):
        assert (out / student / f"{ASSIGNMENT}.json").stat().st_size < 200_000
    # 20 MB displays: over the grader's message limit, so the flood ends its own grading, with the reason.
    assert (records["d4-flood"]["status"], records["d4-flood"]["score"]) == ("crashed", 0)
    assert "output over the limit" in records["d4-flood"]["reason"]
    assert retune_points(records["d5-huge-return"]) == 0
    assert "answer-too-large" in json.dumps(records["d5-huge-return"]["exercises"])


FORGERIES = {  # lesson: patches the issue measured earning marks on a release or a known-wrong answer
    "01_graphs_and_sessions": "import tensorflow as tf\ntf.Graph.get_operations = lambda self: []\n"
                              "tf.Graph.finalize = lambda self: None",
    "02_rebuild_vs_feed": "import tensorflow as tf\ntf.Operation.type = property(lambda self: 'PlaceholderWithDefault')\n"
                          "from tensorflow.python.eager.polymorphic_function.polymorphic_function import Function\n"
                          "Function.experimental_get_tracing_count = lambda self: 1",
    "03_collections_and_trainable": "import autograder.inkernel.probe\n"
                                    "autograder.inkernel.probe.observe = lambda *a, **k: ([{}] * 9, '')",
}


@pytest.mark.slow
@needs_sandbox
def test_forged_observations_make_the_result_tampered(tmp_path):
    """forges-observations-*: monkeypatching what the probes rely on earns 0, and the reason says so."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover
    from tests.conftest import release_path

    for assignment, patch in FORGERIES.items():
        nb = nbformat.read(release_path(assignment), as_version=4)
        nb.cells.insert(1, nbformat.v4.new_code_cell(patch))
        folder = tmp_path / "submitted" / f"forger-{assignment[:2]}" / assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / lessons.load(assignment).notebook)
    with without_screen():  # the in-kernel integrity check is what this attacks
        records = grade_all(discover([tmp_path / "submitted"]), tmp_path / "out", jobs=1, limits=LIMITS)
    assert len(records) == len(FORGERIES)
    for record in records:
        assert (record["status"], record["score"]) == ("tampered", 0), record["reason"]
        assert all(e["failed_checks"] == ["tampered"] for e in record["exercises"])
    for record in records:  # in the grader's words only: the names the kernel reported are kernel text
        assert record["reason"] == "the submission tampered with the grader's tools: a function the grader relies on was replaced"
