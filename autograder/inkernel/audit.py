"""A PEP 578 audit hook that refuses, at run time, what the screen refuses before it (issue 23).

`install()` runs in the grader's first cell, before any of the submission's code. From then on,
the hook raises `Refused`, so the call fails where it is made, when the student's code:
- takes a frame (`sys._getframe`, a traceback's, a generator's or a coroutine's frame);
- reads or sets a function's `__code__`, defaults or other audited attributes, builds a code
  object or a function, walks the collector's objects (`gc.get_objects`, `get_referrers`...);
- runs code it built (`exec`, `compile`), or sets ipykernel's own environment variables (ipykernel
  names cells' files after `IPYKERNEL_CELL_NAME`, and the hook knows the instructor's cells by
  those names). Any other variable (`TF_CPP_MIN_LOG_LEVEL`) is the student's to set.
The student's code is a frame whose globals are the notebook's (`__name__ == "__main__"`) from a
cell that is none of the release's, found by looking through `inspect`, `traceback`, `pdb`, `bdb`
and `ctypes`, which hand frames and memory back to their caller. Anyone's `sys.settrace` or
`sys.setprofile`, any `ctypes` call and any new audit hook are refused outright.

Python offers no way to remove an audit hook, and this one keeps no state the notebook could
change: each decision reads only the event and the calling frames. TensorFlow, NumPy and IPython
make the same events from their own modules (autograph reads `__code__`, TensorFlow's decorators
take frames): those frames are not the notebook's, so they pass.
"""
from __future__ import annotations

import os
import sys
from typing import Iterable

# Events refused when the notebook's own code makes them.
FROM_NOTEBOOK = ("sys._getframe", "sys._current_frames", "object.__getattr__", "object.__setattr__",
                 "object.__delattr__", "code.__new__", "function.__new__", "gc.get_objects", "gc.get_referrers",
                 "gc.get_referents", "exec", "compile", "os.putenv", "os.unsetenv")
# Environment variables the notebook may not set: ipykernel's own (see `install`).
KERNEL_VARIABLES = ("IPYKERNEL",)
# Events refused from anyone once the hook is in.
ALWAYS = ("sys.settrace", "sys.setprofile", "sys.addaudithook", "ctypes.")
# Modules that return frames, code or memory to whoever called them: look through them to the caller.
PROXIES = ("inspect", "traceback", "pdb", "bdb", "ctypes")


class Refused(RuntimeError):
    """What the notebook's code gets for an event the grader refuses."""


def install(instructor: Iterable[int] = ()) -> None:
    """Add the hook. The grader's first cell calls it once per kernel, with the hashes ipykernel
    names the release's cells' files after (`kernel.cell_file_hashes`): the instructor's demos may
    do what the student's code may not (`inspect.getsource`, say)."""
    sys.addaudithook(_new_hook(frozenset(f"{h}.py" for h in instructor)))


def _new_hook(instructor: frozenset[str]):
    """The hook, with its state in a closure: no module attribute the notebook could set."""
    busy = [False]  # the hook's own sys._getframe raises an event too

    def hook(event: str, args: tuple) -> None:
        if busy[0] or not event.startswith(FROM_NOTEBOOK + ALWAYS) or (
                event in ("os.putenv", "os.unsetenv") and not _names_kernel_variable(args)):
            return
        if event.startswith(ALWAYS):  # (sys.settrace's event does not say whether it switches tracing off)
            raise Refused(f"the grader refuses {event} while grading")
        busy[0] = True
        try:
            frame = sys._getframe(1)
            while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] in PROXIES:
                frame = frame.f_back
            from_notebook = (frame is not None and frame.f_globals.get("__name__") == "__main__"
                             and os.path.basename(frame.f_code.co_filename) not in instructor)
        finally:
            busy[0] = False
        if from_notebook:
            raise Refused(f"the grader refuses {event} from the notebook's code")

    return hook


def _names_kernel_variable(args: tuple) -> bool:
    """Whether an `os.putenv`/`os.unsetenv` event's variable is one of ipykernel's."""
    key = args[0] if args else ""
    key = key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key)
    return key.upper().startswith(KERNEL_VARIABLES)
