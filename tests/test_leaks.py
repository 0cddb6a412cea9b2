"""No kernel text in hidden feedback (issue 23's three leaks), checked on the parts that carry it:
the probe's handler, the reading of probe outputs, the judge's outcome on a hidden case. The same
leaks, graded end to end through both front ends, are in tests/test_forgery.py."""
from __future__ import annotations

import nbformat

from autograder.course.spec import Case, Exercise
from autograder.engine.kernel import Execution, _collect, _error_line, probe_requests
from autograder.engine.untrusted import OWN_EXCEPTION, exception_name
from autograder.inkernel.probe import MIMETYPE, observe_case
from autograder.judging.feedback import exercise_html, exercise_text
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
        assert SECRET not in text and OWN_EXCEPTION in text


def test_a_base_exception_subclass_is_caught_by_the_probe():
    def leaky(threshold):
        raise leaky_class(BaseException)(repr(threshold) * 1000)

    observation = observe_case(EXERCISE, {"leaky": leaky}, HIDDEN)
    assert len(observation["error"]["message"]) <= 600
    result = judge_exercise(EXERCISE, [HIDDEN], [observation], [{"value": 1}])
    assert SECRET not in exercise_text(result)


def test_builtin_and_tensorflow_errors_are_named():
    assert exception_name("ValueError") == "ValueError"
    assert exception_name("InvalidArgumentError") == "InvalidArgumentError"
    assert exception_name(["ValueError"]) == OWN_EXCEPTION
    assert _error_line({"ename": f"Leak_{SECRET}"}, "leaky") == f"probe of leaky: {OWN_EXCEPTION}"


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
