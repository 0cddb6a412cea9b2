"""The run-time audit hook (`autograder.inkernel.audit`) and the op-counting finalized guard, each
in a process of its own: an audit hook, once added, stays for the life of the process."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent('''
    import sys
    from autograder.inkernel import audit

    INSTRUCTOR = 123456789
    audit.install([INSTRUCTOR])

    def attempts():
        def generator():
            yield
        yield "getframe", lambda: sys._getframe(1)
        yield "inspect", lambda: __import__("inspect").currentframe()
        yield "code-read", lambda: attempts.__code__
        yield "inspect-signature", lambda: __import__("inspect").signature(attempts)
        yield "code-set", lambda: setattr(generator, "__code__", attempts.__code__)
        yield "gi_frame", lambda: generator().gi_frame
        yield "exec", lambda: exec("1")
        yield "gc", lambda: __import__("gc").get_objects()
        yield "settrace", lambda: sys.settrace(print)
        yield "setprofile", lambda: sys.setprofile(print)
        yield "ctypes", lambda: __import__("ctypes").CDLL(None)
        yield "putenv", lambda: __import__("os").putenv("IPYKERNEL_CELL_NAME", "x")
        yield "honest-environ", lambda: __import__("os").environ.__setitem__("TF_CPP_MIN_LOG_LEVEL", "2")

    for name, attempt in attempts():
        try:
            attempt()
            print(name, "allowed")
        except audit.Refused:
            print(name, "refused")
    try:
        1 / 0
    except ZeroDivisionError as error:
        try:
            error.__traceback__.tb_frame
            print("tb_frame allowed")
        except audit.Refused:
            print("tb_frame refused")
        import io, traceback
        try:  # what honest students write in an except block: text, no frame handed out
            traceback.print_exc(file=io.StringIO()); traceback.format_exc(); traceback.print_stack(file=io.StringIO())
            print("traceback-text allowed")
        except audit.Refused:
            print("traceback-text refused")
    # A module the student wrote and imported is the student's code too, whatever its __name__.
    import os, tempfile
    where = tempfile.mkdtemp()
    with open(os.path.join(where, "helpers.py"), "w") as module:
        module.write("import sys\\ndef frame():\\n    return sys._getframe(1)\\n")
    sys.path.insert(0, where)
    import helpers
    try:
        helpers.frame()
        print("module-frame allowed")
    except audit.Refused:
        print("module-frame refused")
    # What the instructor's cells may do: their file is named after a hash the hook was given (run as
    # IPython runs a cell: compiled and executed from a library's frames, in the notebook's globals).
    import code
    code.InteractiveInterpreter({"__name__": "__main__"}).runsource(
        "import inspect\\nprint('instructor', bool(inspect.getsource(inspect.getsource)))",
        f"/tmp/ipykernel_1/{INSTRUCTOR}.py", "exec")
    # What a library may do from its own frames: the collections module takes a frame.
    import collections
    print("library", collections.namedtuple("P", "x").__module__)
''')


def test_the_hook_refuses_the_students_reach_and_lets_the_instructor_and_libraries_be():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    refused = {line.split()[0] for line in lines if line.endswith("refused")}
    assert refused == {"getframe", "inspect", "code-set", "gi_frame", "exec", "gc", "settrace",
                       "setprofile", "ctypes", "putenv", "tb_frame", "module-frame"}, lines
    for honest in ("code-read", "inspect-signature", "traceback-text", "honest-environ"):
        assert f"{honest} allowed" in lines, lines
    assert "instructor True" in lines and "library __main__" in lines


@pytest.mark.slow
def test_a_graph_that_grew_behind_a_lowered_finalized_flag_trips_the_guard():
    code = textwrap.dedent('''
        import tensorflow as tf
        from autograder.inkernel.probing import FinalizedGraphGuard
        with tf.Graph().as_default() as graph:
            tf.constant(1.0)
            graph.finalize()
            honest, forged = FinalizedGraphGuard(), FinalizedGraphGuard()
            with honest:
                graph.get_operations()
            with forged:
                graph._finalized = False
                tf.constant(2.0)
                graph._finalized = True
            print(honest.tripped, forged.tripped)
    ''')
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.stdout.split() == ["False", "True"], run.stderr[-2000:]
