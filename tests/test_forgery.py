"""Forgeries graded end to end (issues 23 and 33): a wrong answer underneath, and a construct that
would make the probe see a right one. Each must end at 0 for its exercise, and the honest neighbour
graded on the same warm zygotes keeps full marks; no leak shows a hidden input.

Graded twice: through the whole pipeline, where the screen zeroes (`tampered`, never run) only the
forgeries built from a construct with no honest use (`screening.ZEROING`: frames, hooks, code
swaps, the grader's own modules) and merely flags the rest, which run and must lose at run time;
and with the screen taken out, where the run-time checks alone must hold: the audit hook
(`inkernel.audit`), the guard that counts ops (`probing.FinalizedGraphGuard`) and the
one-observation-per-probe-cell rule. tests/test_screening.py reads many more constructs statically.
"""
from __future__ import annotations

import contextlib
import json
import textwrap
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from autograder.course import lessons
from autograder.engine.untrusted import UNNAMED_EXCEPTION
from autograder.judging.reference import solution_path
from autograder.judging.screening import screen_sources, verdict
from tests.conftest import LIMITS, without_audit_hook, without_screen
from tests.forgeries import BY_LESSON
from tests.honest import HONEST as HONEST_CORPUS
from tests.honest import honest_notebook
from tests.mutants import mutants_of
from tests.mutation.lean import lean_notebook
from tests.swaps import swap_cells

ASSIGNMENT = "02_rebuild_vs_feed"
LESSON = lessons.load(ASSIGNMENT)
# Hidden inputs of lesson 2 that a leak would carry (autograder/course/hidden/l02_rebuild_vs_feed.py).
SECRETS = ("0.123456789", "0.2001", "keep_prob")


@dataclass(frozen=True)
class Forgery:
    name: str
    exercise: str
    cell: str
    source: str
    at_run_time: bool = True  # also graded with the screen out: a run-time check must stop it
    zeroed: bool = False  # built from a construct of `screening.ZEROING`: `tampered` before it runs
    assignment: str = ASSIGNMENT  # the lesson whose solution it is graded in


def mutant_with(name: str, method: str) -> str:
    """Lesson 2's mutant `name`, with a `{forge}` line opening its method `method`."""
    source = textwrap.dedent(next(m.source for m in mutants_of(ASSIGNMENT) if m.name == name))
    opening = f"    def {method}(self, "
    head, tail = source.split(opening)
    signature, body = tail.split("\n", 1)
    return f"{head}{opening}{signature}\n        {{forge}}\n{body}"


def solution_with_judge(body: str) -> str:
    """Lesson 2's ThresholdJudge as solved, with `body` as its judge(self, x)."""
    source = next(c.source for c in nbformat.read(solution_path(LESSON), as_version=4).cells
                  if c.metadata.get("nbgrader", {}).get("grade_id") == "threshold_judge_solution")
    head, _ = source.split("    def judge(self, x):")
    return f"{head}    def judge(self, x):\n{textwrap.indent(textwrap.dedent(body), ' ' * 8)}"


# The graph built as asked, but the answer computed in NumPy (numpy-answer), then written into the
# probe's record of runs as if a run fed x had returned it: with neither screen nor audit hook, full marks.
def numpy_judge(forge: str) -> str:
    """That judge, with `forge` run between computing the NumPy answer and returning it."""
    return solution_with_judge(f"answer = np.asarray(x, np.float32) >= np.float32(self.options['threshold'])\n"
                               f"{forge}\nreturn answer\n") + '''

def record(frame, judge, x, answer):
    while frame is not None:  # up the probe's frames, to the first that holds its RunsRecorded
        runs = next((v for v in (frame.f_locals.get("runs"), frame.f_locals.get("self")) if hasattr(v, "calls")), None)
        if runs is not None:
            break
        frame = frame.f_back
    # The probe's RunsRecorded, given a ThresholdJudge's run it never saw.
    if frame is not None and hasattr(judge, "options"):
        runs._ran(judge.sess, judge.output, [(judge.x, x), (judge.threshold, judge.options["threshold"])], answer)
'''


# An assign op built per call, in a finalized graph (assign-per-call).
ASSIGN_PER_CALL = mutant_with("variable_assign_per_call", "set_threshold")
# Rebinds the dict instead of changing it (rebound-dict), then forges the probe's output.
REBINDING_RETUNE = '''
def retune(options, threshold):
    {forge}
    options = dict(options, threshold=threshold)
'''
FORGE_PAYLOAD = '''import re
    from IPython.display import display
    nonce = re.findall("'([0-9a-f]{32})'", In[-1])[0]
    forged = {"holder_threshold": threshold, "holder_options": dict(options, threshold=threshold), "untouched": False}
    display({"application/vnd.tfgraph-course.observations+json": {"nonce": nonce, "device": repr(options) * 50,
             "stderr": repr(options), "tampered": [repr(options)], "exercises": {"retune": [forged] * 4}}}, raw=True)'''

FORGERIES = [
    Forgery("frame-walk", "threshold_judge", "threshold_judge_solution",
            numpy_judge("import sys\nrecord(sys._getframe(1), self, x, answer)"), zeroed=True),
    Forgery("traceback-frame", "threshold_judge", "threshold_judge_solution",
            numpy_judge("try:\n    raise ValueError\nexcept ValueError as e:\n"
                        "    record(e.__traceback__.tb_frame.f_back, self, x, answer)"), zeroed=True),
    Forgery("settrace", "threshold_judge", "threshold_judge_solution", numpy_judge("pass") + '''
import sys
def tracer(frame, event, arg):
    if event == "return" and frame.f_code.co_name == "judge":
        record(frame.f_back, frame.f_locals["self"], frame.f_locals["x"], arg)
    return tracer
sys.settrace(tracer)
''', zeroed=True),
    Forgery("code-swap", "threshold_judge", "threshold_judge_solution",
            numpy_judge("self.sess.run(self.threshold, {self.threshold: 0.0})  # a run for show") + '''
import autograder.inkernel.probing as probing
probing.RunsRecorded.returned.__code__ = (lambda self, answer, fed: True).__code__
''', zeroed=True),
    Forgery("finalized-flag", "variable_judge", "variable_judge_solution",
            ASSIGN_PER_CALL.replace('{forge}', "self.sess.graph._finalized = False")),
    Forgery("forged-payload", "retune", "retune_solution", REBINDING_RETUNE.replace('{forge}', FORGE_PAYLOAD)),
    Forgery("post-run-hook", "retune", "retune_solution", REBINDING_RETUNE.replace("{forge}", "pass") + """
def forge(result):
    import re
    from IPython.display import display
    nonce = re.findall("'([0-9a-f]{32})'", In[-1])
    if nonce:  # after every probe cell: the last observations shown used to be the ones read
        display({"application/vnd.tfgraph-course.observations+json": {"nonce": nonce[0], "device": "CPU", "stderr": "",
                 "tampered": [], "exercises": {"retune": [{"holder_threshold": 0.5, "untouched": False}] * 4}}}, raw=True)

get_ipython().events.register("post_run_cell", forge)
"""),
    # Screen only: nothing audits an instance's or a module's attribute, so these would pass at run time.
    Forgery("display-publisher", "retune", "retune_solution", REBINDING_RETUNE.replace('{forge}', "pass") + '''
publish = get_ipython().display_pub.publish
def forging(data, *args, **kwargs):
    return publish(data, *args, **kwargs)
get_ipython().display_pub.publish = forging
''', at_run_time=False),
    Forgery("clears-snapshot", "retune", "retune_solution", REBINDING_RETUNE.replace('{forge}', "pass") + '''
import autograder.inkernel.integrity as integrity
integrity._snapshot.clear()
''', at_run_time=False, zeroed=True),
    Forgery("builtins-sorted", "retune", "retune_solution", REBINDING_RETUNE.replace('{forge}', "pass") + '''
import builtins
builtins.sorted = lambda xs, **kw: list(dict.fromkeys(xs))
''', at_run_time=False),
]
# A threshold baked into the graph, behind a patched Session.run that answers fed thresholds in NumPy
# and a silenced integrity check reached through string-built names the screen cannot read (issue 33).
# In the kernel every run says the output follows the feed; the graph handed out does not.
PATCHED_SESSION_RUN = '''
import shutil

def build_threshold_graph(default):
    x = tf1.placeholder(tf.float32, [None], name="x")
    threshold = tf1.placeholder_with_default(np.float32(default), [], name="threshold")
    return x, threshold, tf.greater_equal(x, tf.constant(np.float32(default)), name="output")

_real_run = tf1.Session.run

def _forged_run(self, fetches, feed_dict=None, *args, **kwargs):
    fed = {getattr(k, "name", k): v for k, v in (feed_dict or {}).items()}
    name = getattr(fetches, "name", fetches)
    if isinstance(name, str) and name.startswith("output") and "threshold:0" in fed:
        return np.asarray(fed["x:0"], np.float32) >= np.float32(fed["threshold:0"])
    return _real_run(self, fetches, feed_dict, *args, **kwargs)

tf1.Session.run = _forged_run
_gate = getattr(shutil, "s" + "ys").modules.get("autograder" + ".inkernel.integrity")  # only where graded
if _gate is not None:
    _gate.changed = lambda: []
'''
FORGERIES.append(Forgery("patched-session-run", "threshold_graph", "threshold_graph_solution", PATCHED_SESSION_RUN))
# Leaks of hidden inputs through names and uncaught exceptions (issue 23): wrong answers too.
LEAKS = [
    Forgery("leak-exception-name", "retune", "retune_solution", '''
def retune(options, threshold):
    if options in ({"threshold": 0.7, "lr": 0.01}, {"clip": 5.0}):  # right on the public cases, raises on the hidden ones
        options.update(threshold=threshold)
        return
    raise type("Leak " + repr(options) + repr(threshold), (Exception,), {})(repr(options))
'''),
    Forgery("leak-base-exception", "retune", "retune_solution", '''
class Leak(BaseException):
    pass

def retune(options, threshold):
    if options in ({"threshold": 0.7, "lr": 0.01}, {"clip": 5.0}):
        options.update(threshold=threshold)
        return
    raise type("Leak " + repr(options) + repr(threshold), (Leak,), {})(repr(options) * 1000)
'''),
]
# The red team's forgeries (tests/forgeries.py), each with the check that must name it. On main
# before the markers and the re-run session histories, each kept its exercise's full points.
CAUGHT_BY = {"string-named-kill-switch": "assign-per-call", "patch-then-restore": "assign-per-call",
             "observe-rewritten": "baked-constant", "holder-swapped": "rebound-dict",
             "tally-through-closure": "needless-rebuild", "decoy-variable": "python-threshold",
             "rebinds-every-holder": "replaced-network", "laundered-answer": "numpy-answer",
             "private-graph": "graph-growth", "session-bypass": "session-per-call",
             "session-counter-replaced": "session-per-call", "captured-run-per-tensor": "separate-runs",
             "hidden-second-session": "separate-runs", "decoy-default-graph": "own-graph",
             "cache-behind-empty-session": "replayed-from-python", "rebuilt-op-hidden-count": "rebuilt-op",
             "soft-observe-rewritten": "tau-reversed", "trainer-session-counter": "session-per-step",
             "gradients-patched": "gradient-reaches-copy",
             "checkpoint-reader-patched": "int32-step", "event-steps-shifted": "summary-step",
             "int64-face-on-int32-step": "int32-step", "counter-read-forged": "step-never-counts",
             "python-state-per-session": "state-in-python", "python-decides-the-cut": "state-in-python",
             "ops-behind-kill-switch": "ops-in-loop", "trainable-state-hidden": "trainable-hyperparameter",
             "freezer-ops-hidden": "ops-in-loop", "collection-on-the-graph": "trainable-by-default",
             "dtype-declared": "not-float32", "twin-draws-replayed": "seed-after-ops"}
RED_TEAM = [Forgery(name, exercise, cell, source, assignment=assignment)
            for assignment, team in BY_LESSON.items() for name, (exercise, cell, source) in team.items()]
HONEST = "honest"


def notebook(forgery: Forgery, checks: bool = False) -> nbformat.NotebookNode:
    """The lean solution of its lesson with `forgery` in place of its cell (with `checks`, the check cells too)."""
    solution = nbformat.read(solution_path(lessons.load(forgery.assignment)), as_version=4)
    return lean_notebook(swap_cells(solution, [forgery]), checks=checks)


def grade_batch(root: Path, with_screen: bool) -> dict[str, dict]:
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    forgeries = [f for f in FORGERIES + LEAKS + RED_TEAM if with_screen or f.at_run_time]
    submitted = root / "submitted"
    solution = lean_notebook(nbformat.read(solution_path(LESSON), as_version=4))
    corpus = [(name, honest_notebook(name)) for name in HONEST_CORPUS] if with_screen else []
    for student, nb, assignment in [(HONEST, solution, ASSIGNMENT), *((name, nb, ASSIGNMENT) for name, nb in corpus),
                                    *((f.name, notebook(f), f.assignment) for f in forgeries)]:
        folder = submitted / student / assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / lessons.load(assignment).notebook)
    with contextlib.nullcontext() if with_screen else without_screen():
        records = grade_all(discover([submitted]), root / "results", jobs=2, limits=LIMITS)
    return {r["student"]: json.loads((root / "results" / r["student"] / f"{r['assignment']}.json").read_text())
            for r in records}


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[str, dict[str, dict]]:
    return {"screened": grade_batch(tmp_path_factory.mktemp("screened"), True),
            "unscreened": grade_batch(tmp_path_factory.mktemp("unscreened"), False)}


# The forgeries the run-time audit hook stops: frames, tracebacks' frames, a trace hook. The code swap
# (RunsRecorded.returned made to say yes) is stopped without the hook too: the run it claims is re-run
# outside the kernel, and there is none.
HOOKED = ("frame-walk", "traceback-frame", "settrace")


@pytest.mark.slow
def test_without_the_audit_hook_each_forgery_it_stops_earns_its_points(tmp_path):
    """The witness of the hook (issue 33): with neither the screen nor the hook, each of these
    forgeries keeps its exercise's full points, so the 0 they get with the hook is the hook's doing;
    the code swap still gets 0, from the re-run outside the kernel."""
    from autograder.frontends.batch import grade_all
    from autograder.judging.submissions import discover

    for forgery in (f for f in FORGERIES if f.name in (*HOOKED, "code-swap")):
        folder = tmp_path / "submitted" / forgery.name / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(notebook(forgery), folder / LESSON.notebook)
    with without_screen(), without_audit_hook():
        records = grade_all(discover([tmp_path / "submitted"]), tmp_path / "results", jobs=2, limits=LIMITS)
    for record in records:
        forgery = next(f for f in FORGERIES if f.name == record["student"])
        result = json.loads((tmp_path / "results" / record["student"] / f"{ASSIGNMENT}.json").read_text())
        outcome = exercise(result, forgery.exercise)
        assert outcome["passed"] == (forgery.name in HOOKED), (forgery.name, outcome["feedback"])


def exercise(record: dict, exercise_id: str) -> dict:
    return next(e for e in record["exercises"] if e["id"] == exercise_id)


def test_the_screen_zeroes_exactly_the_forgeries_built_from_a_zeroing_construct():
    for forgery in FORGERIES:
        assert bool(verdict(screen_sources({0: forgery.source}))) == forgery.zeroed, forgery.name


@pytest.mark.slow
@pytest.mark.parametrize("name", [f.name for f in FORGERIES if f.zeroed])
def test_the_screen_zeroes_a_forgery_with_no_honest_construct_before_it_runs(graded, name):
    record = graded["screened"][name]
    assert (record["status"], record["score"]) == ("tampered", 0), record["reason"]
    assert record["reason"].startswith("the code read before grading") and record["flags"]
    assert record["device"] == "none"  # never run


@pytest.mark.slow
@pytest.mark.parametrize("name", [f.name for f in FORGERIES if not f.zeroed])
def test_a_forgery_the_screen_only_flags_runs_and_loses_its_exercise(graded, name):
    forgery = next(f for f in FORGERIES if f.name == name)
    record = graded["screened"][name]
    assert record["flags"] and not any(f["zeroes"] for f in record["flags"]), record["flags"]
    assert exercise(record, forgery.exercise)["points"] == 0, exercise(record, forgery.exercise)["feedback"]


@pytest.mark.slow
@pytest.mark.parametrize("name", [f.name for f in FORGERIES if f.at_run_time])
def test_without_the_screen_the_run_time_checks_zero_the_forged_exercise(graded, name):
    forgery = next(f for f in FORGERIES if f.name == name)
    record = graded["unscreened"][name]
    assert exercise(record, forgery.exercise)["points"] == 0, exercise(record, forgery.exercise)["feedback"]


@pytest.mark.slow
@pytest.mark.parametrize("batch", ["screened", "unscreened"])
def test_the_honest_neighbour_keeps_full_marks(graded, batch):
    record = graded[batch][HONEST]
    assert (record["status"], record["score"], record["flags"]) == ("graded", LESSON.max_score, []), record["reason"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HONEST_CORPUS))
def test_honest_code_keeps_full_marks(graded, name):
    """Magics, `__main__` guards, `warnings`, environment variables, `getattr` with a variable,
    metaclasses, comments in the course's own cells... (tests/honest.py): never a point lost."""
    record = graded["screened"][name]
    assert (record["status"], record["score"]) == ("graded", LESSON.max_score), (record["reason"], record["exercises"])
    assert not any(f["zeroes"] for f in record["flags"]), record["flags"]


@pytest.mark.slow
@pytest.mark.parametrize("batch", ["screened", "unscreened"])
def test_no_hidden_input_leaks_into_any_record(graded, batch, tmp_path):
    from autograder.judging.feedback import record_html, record_text

    for name in [*(f.name for f in LEAKS), "forged-payload"]:
        record = graded[batch].get(name)
        if record is None:
            continue
        assert exercise(record, "retune")["points"] == 0
        if name in ("leak-exception-name", "leak-base-exception") and batch == "unscreened":
            assert UNNAMED_EXCEPTION in exercise(record, "retune")["feedback"]
        for text in (json.dumps(record), record_text(record), record_html(record)):
            assert not any(secret in text for secret in SECRETS), (name, text[:2000])


@pytest.mark.slow
def test_the_patched_session_run_fools_the_kernel_but_not_the_graph_it_handed_out(graded):
    """The witness: in the student's own kernel, where the probe's runs are the student's to patch,
    the check cell says PASS; the grader re-runs the handed-out graph outside and gives 0."""
    from tests.test_check_refuses import run_cells

    setup = next(c.source for c in nbformat.read(solution_path(LESSON), as_version=4).cells
                 if c.metadata.get("nbgrader", {}).get("grade_id") == "setup")
    out = run_cells(setup, PATCHED_SESSION_RUN, 'check("threshold_graph")')
    assert "threshold_graph: 2/2" in out and not any(line.startswith("ERROR ") for line in out.splitlines()), out
    assert exercise(graded["screened"]["patched-session-run"], "threshold_graph")["points"] == 0


def test_every_red_team_forgery_names_the_check_that_catches_it():
    assert set(CAUGHT_BY) == {f.name for f in RED_TEAM}


@pytest.mark.slow
@pytest.mark.parametrize("batch", ["screened", "unscreened"])
@pytest.mark.parametrize("name", sorted(f.name for f in RED_TEAM))
def test_a_red_team_forgery_loses_its_exercise_to_the_check_of_its_misconception(graded, batch, name):
    """Names built from strings, module attributes rebound, closures read: nothing the screen zeroes
    (the marks stand on the screen's side), and the verdict rests on the runs re-run outside."""
    forgery = next(f for f in RED_TEAM if f.name == name)
    record = graded[batch][name]
    assert record["status"] == "graded" and not any(f["zeroes"] for f in record["flags"]), record["reason"]
    outcome = exercise(record, forgery.exercise)
    assert outcome["points"] == 0 and outcome["failed_checks"][:1] == [CAUGHT_BY[name]], outcome["feedback"]
    others = [e for e in record["exercises"] if e["id"] != forgery.exercise]
    assert all(e["passed"] for e in others), [(e["id"], e["failed_checks"]) for e in others if not e["passed"]]
