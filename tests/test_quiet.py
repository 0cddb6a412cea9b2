"""A correct Run All shows no stderr at all on a CPU machine, while real errors still show, and every
claim a lesson checks in its cells (`autograder.notebook.claims`) holds."""
import contextlib
import os

import nbformat
import pytest
from nbclient import NotebookClient

from autograder.course import lessons
from autograder.inkernel.quiet import without_import_noise
from autograder.judging.reference import solution_path
from autograder.notebook.claims import count_claims, failed_claims
from tests.conftest import ASSIGNMENTS

# As TF 2.21 writes them on a CPU machine, importing TensorFlow and running its first op.
NOISE = """\
WARNING: All log messages before absl::InitializeLog() is called are written to STDERR
I0000 00:00:1795455490.938103    9622 cudart_stub.cc:31] Could not find cuda drivers on your machine, GPU will not be used.
I0000 00:00:1795455491.103270    9622 port.cc:153] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.
E0000 00:00:1795455501.504397    9622 cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error: Failed call to cuInit: UNKNOWN ERROR (303)
"""
REAL = "E0000 00:00:1795455501.504397    9622 op_kernel.cc:1800] OP_REQUIRES failed at save_restore_v2_ops.cc:64\n"


def test_only_known_import_noise_is_dropped():
    assert without_import_noise(NOISE) == ""
    assert without_import_noise(NOISE + REAL + "Traceback (most recent call last):\n") == \
        REAL + "Traceback (most recent call last):\n"


def stderr_of(nb) -> list[list[str]]:
    """Per code cell, the text of its stderr stream outputs."""
    return [[o.text for o in c.outputs if o.output_type == "stream" and o.name == "stderr"]
            for c in nb.cells if c.cell_type == "code"]


@contextlib.contextmanager
def fd2_relayed():
    """Kernels started meanwhile show their fd 2 in cells, as in JupyterLab or nbgrader outside the
    tests (ipykernel stops relaying fd 2 when it sees PYTEST_CURRENT_TEST in its environment)."""
    saved = os.environ.pop("PYTEST_CURRENT_TEST", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["PYTEST_CURRENT_TEST"] = saved


def errors_of(nb) -> list[str]:
    """The errors the cells raised, as `ename: evalue`."""
    return [f"{o.ename}: {o.evalue}" for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type == "error"]


def stdout_of(nb) -> str:
    """All the text the code cells printed to stdout (where claims print their ✓ and ✗ lines)."""
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs
                   if o.output_type == "stream" and o.name == "stdout")


def run(nb):
    """Execute `nb` in a fresh kernel of this venv, fd 2 relayed."""
    with fd2_relayed():
        NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True).execute()
    return nb


@pytest.mark.slow
def test_setup_cell_and_first_op_write_nothing_to_stderr_but_real_errors_show():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in (
        "from autograder.check import Checker  # first: it also quiets TensorFlow's log lines\n"
        "import tensorflow as tf",
        "with tf.Graph().as_default():\n"
        "    x = tf.compat.v1.placeholder(tf.float32)\n"
        "    with tf.compat.v1.Session() as s:\n"
        "        print(s.run(2 * x, {x: 3}))",
        "print(float(tf.constant(1.0) + 1))",
        # a C++ error line after the import; ipykernel relays fd 2 from a thread of its own, which a
        # loaded machine may leave behind the cell's end: give it the time it needs to read the pipe
        f"import os, time\nos.write(2, {REAL.encode()!r})\ntime.sleep(1)",
    )])
    streams = stderr_of(run(nb))
    assert streams[:3] == [[], [], []], streams
    assert "OP_REQUIRES failed" in "".join(streams[3]), streams


# How many claims each lesson's Run All prints at least (✓ or ✗). A claim cell that stops running (an
# exception caught too widely, a branch no longer taken, a cell deleted) lowers the count and fails the
# test. Raise a lesson's number when it gains claims; lower it only with the claims it lost named in the commit.
CLAIMS_AT_LEAST = {
    "01_graphs_and_sessions": 39,
    "02_rebuild_vs_feed": 23,
    "03_collections_and_trainable": 62,
    "04_variable_scope_copies": 42,
    "05_checkpoints_and_summaries": 68,
    "06_seeds_and_pipelines": 45,
    "07_learning_rate_decay": 60,
}


def test_every_lesson_has_a_claim_count():
    assert set(CLAIMS_AT_LEAST) == set(lessons.assignments())


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_a_correct_run_all_writes_nothing_to_stderr_and_every_claim_holds(assignment):
    nb = run(nbformat.read(solution_path(lessons.load(assignment)), as_version=4))
    assert not errors_of(nb), errors_of(nb)
    assert not [s for s in stderr_of(nb) if s], [s for s in stderr_of(nb) if s]
    printed = stdout_of(nb)
    assert not failed_claims(printed), failed_claims(printed)
    assert count_claims(printed) >= CLAIMS_AT_LEAST[assignment], \
        f"{count_claims(printed)} claims ran, at least {CLAIMS_AT_LEAST[assignment]} expected: a claim cell stopped running"


@pytest.mark.slow
def test_nbgrader_feedback_shows_no_tensorflow_start_up_lines(course):
    from tests.test_nbgrader import nbgrader, submit

    assignment = "02_rebuild_vs_feed"
    lesson = lessons.load(assignment)
    with fd2_relayed():
        assert nbgrader(course, "generate_assignment", assignment, "--force").returncode == 0
        submit(course, "solved", assignment, solution_path(lesson))
        assert nbgrader(course, "autograde", assignment, "--force").returncode == 0
        assert nbgrader(course, "generate_feedback", assignment, "--force").returncode == 0
    page = (course / "feedback" / "solved" / assignment / lesson.notebook).with_suffix(".html").read_text()
    for noise in ("InitializeLog", "cuInit", "cudart_stub", "oneDNN"):
        assert noise not in page, f"{noise!r} in nbgrader's feedback page"
