"""No kernel text in hidden feedback (issue 23's three leaks), checked on the parts that carry it:
the probe's handler, the reading of probe outputs, the judge's outcome on a hidden case. The same
leaks, graded end to end through both front ends, are in tests/test_forgery.py."""
from __future__ import annotations

import nbformat

from autograder.course.spec import Case, Exercise
from autograder.engine.kernel import Execution, _collect, _error_line, probe_requests
from autograder.engine.untrusted import UNNAMED_EXCEPTION, exception_name
from autograder.inkernel.probe import MIMETYPE, observe_case
from autograder.judging.feedback import exercise_html, exercise_json, exercise_text
from autograder.judging.judge import judge_exercise

SECRET = "0.123456789"
HIDDEN = Case("hidden 1", {"threshold": 0.123456789}, public=False, situation="a threshold with many digits")
EXERCISE = Exercise("leaky", "leaky", 2, probe=lambda target, **inputs: target(**inputs), checks=(), cases=())


def leaky_class(base: type) -> type:
    return type(f"Leak_{SECRET}_" + "x" * 300, (base,), {})


def test_an_exception_class_named_after_the_inputs_is_not_named():
    def leaky(threshold):
        raise leaky_class(Exception)(repr(threshold))

    observation = observe_case(EXERCISE, {"leaky": leaky}, HIDDEN)
    assert SECRET in observation["error"]["type"]  # what the kernel sends: the judge must not show it
    result = judge_exercise(EXERCISE, [HIDDEN], [observation], [{"value": 1}])
    for text in (exercise_text(result), exercise_html(result), repr(result.outcomes)):
        assert SECRET not in text and UNNAMED_EXCEPTION in text


def test_a_base_exception_subclass_is_caught_by_the_probe():
    def leaky(threshold):
        raise leaky_class(BaseException)(repr(threshold) * 1000)

    observation = observe_case(EXERCISE, {"leaky": leaky}, HIDDEN)
    assert len(observation["error"]["message"]) <= 600
    result = judge_exercise(EXERCISE, [HIDDEN], [observation], [{"value": 1}])
    assert SECRET not in exercise_text(result)


def test_on_a_hidden_case_only_the_graders_own_names_are_given():
    """A built-in type can be chosen by a hidden value, so none is named; a time limit is the grader's."""
    for kernel_chose in ("ValueError", "InvalidArgumentError", "KeyError", ["ValueError"]):
        assert exception_name(kernel_chose) == UNNAMED_EXCEPTION
    assert exception_name("CellTimeoutError", ("CellTimeoutError",)) == "CellTimeoutError"
    assert _error_line({"ename": f"Leak_{SECRET}"}, "leaky") == f"probe of leaky: {UNNAMED_EXCEPTION}"


def probed_notebook(*payloads: dict) -> nbformat.NotebookNode:
    outputs = [nbformat.v4.new_output("display_data", data={MIMETYPE: p}) for p in payloads]
    cell = nbformat.v4.new_code_cell("probe", metadata={"autograder_probe": "leaky", "autograder_phase": "hidden"})
    cell.outputs = outputs
    return nbformat.v4.new_notebook(cells=[cell])


def forged(nonce: str) -> dict:
    return {"nonce": nonce, "device": f"GPU:{SECRET}" * 100, "stderr": ["not text"],
            "tampered": [f"leak {SECRET}"], "exercises": {"leaky": [{"value": SECRET}]}}


def test_forged_payload_fields_are_not_quoted():
    execution = Execution()
    _collect(probed_notebook(forged("n")), "n", execution)
    assert execution.device == "unknown"
    assert execution.tampered and not any(SECRET in reason for reason in execution.tampered)


def test_a_second_set_of_observations_in_a_probe_cell_is_tampering():
    execution = Execution()
    real = {"nonce": "n", "device": "CPU", "stderr": "", "tampered": [], "exercises": {"leaky": [{"value": 1}]}}
    _collect(probed_notebook(real, forged("n")), "n", execution)
    assert execution.tampered and "leaky" not in execution.observations


def test_public_cases_are_all_observed_before_any_hidden_input_enters_the_kernel():
    public = Case("public", {"threshold": 1.0})
    phases = [(ex_id, phase) for ex_id, phase, _ in probe_requests({"a": [public, HIDDEN], "b": [public, HIDDEN]})]
    assert phases == [("a", "public"), ("b", "public"), ("a", "hidden"), ("b", "hidden")]


def test_a_later_cell_cannot_rewrite_an_earlier_cells_output():
    """A display shown with a `display_id` in a public probe cell, then updated from a hidden one
    (`update_display_data`, or a new display reusing the id): the public output stays as shown."""
    from autograder.engine.kernel import CappedClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("public"), nbformat.v4.new_code_cell("hidden")])
    client = CappedClient(nb, output_bytes=10_000)
    client.reset_execution_trackers()
    client.clear_before_next_output = False  # (set per cell by nbclient when it executes one)

    def message(kind: str, text: str) -> dict:
        return {"msg_type": kind, "header": {"msg_type": kind}, "parent_header": {"msg_id": "m"},
                "content": {"data": {"text/plain": text}, "metadata": {}, "transient": {"display_id": "shared"}}}

    client.process_message(message("display_data", "public value"), nb.cells[0], 0)
    client.process_message(message("update_display_data", SECRET), nb.cells[1], 1)
    client.process_message(message("display_data", SECRET), nb.cells[1], 1)
    assert nb.cells[0].outputs[0]["data"] == {"text/plain": "public value"}
    assert [o["data"]["text/plain"] for o in nb.cells[1].outputs] == [SECRET]  # its own display only


def test_a_students_feedback_carries_no_duration():
    """How long grading took is a timing channel on hidden cases: it stays in the instructor's JSON."""
    from autograder.judging.feedback import record_html, record_text

    result = judge_exercise(EXERCISE, [HIDDEN], [{"value": 1}], [{"value": 1}])
    record = {"student": "s", "assignment": "a", "score": 2, "max_score": 2, "status": "graded", "reason": "",
              "not_run": "", "duration_s": 987.65, "exercises": [exercise_json(result)]}
    for text in (record_text(record), record_html(record)):
        assert "987" not in text and "duration" not in text
