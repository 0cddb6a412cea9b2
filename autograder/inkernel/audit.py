"""A PEP 578 audit hook that refuses, at run time, what the screen zeroes before it (issues 23, 33).

`install()` runs in the grader's first cell, before any of the submission's code. From then on,
the hook raises `Refused`, so the call fails where it is made, when the student's code:
- takes a frame (`sys._getframe`, a traceback's, a generator's or a coroutine's frame);
- sets a function's `__code__`, defaults or globals, builds a code object or a function, walks the
  collector's objects (`gc.get_objects`, `get_referrers`...);
- runs code it built (`exec`, `compile`), or sets ipykernel's own environment variables (ipykernel
  names cells' files after `IPYKERNEL_CELL_NAME`, and the hook knows the instructor's cells by
  those names). Any other variable (`TF_CPP_MIN_LOG_LEVEL`) is the student's to set.
Honest code is not refused: reading `__code__` (`inspect.signature`), `traceback.print_exc()`,
`format_exc()` and `print_stack()` all pass.

The student's code is any frame whose file lies outside the Python installation, its environment
and this package: a notebook cell that is none of the release's, a module the student wrote and
imported, code built at run time. It is found by looking through `inspect`, `pdb`, `bdb` and
`ctypes`, which hand frames and memory back to their caller. Anyone's `sys.settrace` or
`sys.setprofile`, any `ctypes` call and any new audit hook are refused outright.

Python offers no way to remove an audit hook, and this one keeps its state and the functions it
calls in a closure: each decision reads only the event and the calling frames. TensorFlow, NumPy
and IPython make the same events from their own modules (autograph reads `__code__`, TensorFlow's
decorators take frames): those frames are not the student's, so they pass.
"""
from __future__ import annotations

import os
import sys
from typing import Iterable

# Events refused when the student's code makes them.
FROM_STUDENT = ("sys._getframe", "sys._current_frames", "object.__getattr__", "object.__setattr__",
                "object.__delattr__", "code.__new__", "function.__new__", "gc.get_objects", "gc.get_referrers",
                "gc.get_referents", "exec", "compile", "os.putenv", "os.unsetenv")
# Of the attributes Python audits, those refused: a frame (read), or a function's code (set).
# Reading `__code__` or `__defaults__` is what `inspect.signature` does, and hands out no frame.
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
CODE_ATTRIBUTES = frozenset({"__code__", "__defaults__", "__kwdefaults__", "__globals__", "__closure__"})
# Environment variables the student may not set: ipykernel's own (see `install`).
KERNEL_VARIABLES = ("IPYKERNEL",)
# Events refused from anyone once the hook is in.
ALWAYS = ("sys.settrace", "sys.setprofile", "sys.addaudithook", "ctypes.")
# Modules that return frames or memory to whoever called them: look through them to the caller.
# (`traceback` is not one: its print_exc, format_exc and print_stack read frames and hand out text;
# its walk_stack and walk_tb, which hand out frames, are zeroed by the screen.)
PROXIES = ("inspect", "pdb", "bdb", "ctypes")


class Refused(RuntimeError):
    """What the student's code gets for an event the grader refuses."""


def install(instructor: Iterable[int] = ()) -> None:
    """Add the hook. The grader's first cell calls it once per kernel, with the hashes ipykernel
    names the release's cells' files after (`kernel.cell_file_hashes`): the instructor's demos may
    do what the student's code may not (`inspect.getsource`, say)."""
    sys.addaudithook(_new_hook(frozenset(f"{h}.py" for h in instructor), _trusted_roots()))


def _trusted_roots() -> tuple[str, ...]:
    """Where code that is not the student's lives: the Python installation, the environment it runs
    in (TensorFlow, NumPy, IPython) and this package. Everything else (notebook cells, a module the
    student wrote and imported, code built at run time) is the student's."""
    import autograder

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             os.path.dirname(os.path.abspath(autograder.__file__))}
    return tuple(os.path.join(os.path.realpath(root), "") for root in roots)


def _new_hook(instructor: frozenset[str], trusted: tuple[str, ...]):
    """The hook. Its state, and every function it calls, are bound here, in a closure: nothing the
    student's code can set afterwards (a module attribute, `sys._getframe` itself) changes it."""
    busy = [False]  # the hook's own sys._getframe raises an event too
    getframe, basename, realpath = sys._getframe, os.path.basename, os.path.realpath

    def students(frame) -> bool:
        """Whether `frame`, looked at through the proxies, runs the student's code."""
        while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] in PROXIES:
            frame = frame.f_back
        if frame is None:
            return False
        filename = frame.f_code.co_filename
        if filename.startswith("<frozen ") or basename(filename) in instructor:
            return False
        return not realpath(filename).startswith(trusted)

    def refused(event: str, args: tuple) -> bool:
        if event == "object.__getattr__":
            return len(args) > 1 and args[1] in FRAME_ATTRIBUTES
        if event in ("object.__setattr__", "object.__delattr__"):
            return len(args) > 1 and args[1] in CODE_ATTRIBUTES
        if event in ("os.putenv", "os.unsetenv"):
            key = args[0] if args else ""
            key = key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key)
            return key.upper().startswith(KERNEL_VARIABLES)
        return True

    def hook(event: str, args: tuple) -> None:
        if busy[0] or not event.startswith(FROM_STUDENT + ALWAYS):
            return
        if event.startswith(ALWAYS):  # (sys.settrace's event does not say whether it switches tracing off)
            raise Refused(f"the grader refuses {event} while grading")
        if not refused(event, args):
            return
        busy[0] = True
        try:
            from_student = students(getframe(1))
        finally:
            busy[0] = False
        if from_student:
            raise Refused(f"the grader refuses {event} from the student's code")

    return hook
