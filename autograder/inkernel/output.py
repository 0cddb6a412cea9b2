"""Cap what a graded kernel sends as output, before it is sent.

ipykernel's `OutStream` (sys.stdout, sys.stderr) buffers every write until its next flush and
then sends it as one message, however large: a 600 MB print became a 600 MB message that the
grader had to receive whole. `cap_output`, run by the grader's first cell before any submission
code, makes each cell's stdout and stderr together send at most `limit` characters; the rest is
counted, never buffered, and one notice line (`NOTICE`) ends the cell. Writes through fd 1 and
fd 2 (C++ logs, `os.write`) pass through the same `write`, in ipykernel's pipe-watching thread.

IPython replaces each stream's `write` for the length of every cell (to keep its output in the
history) and puts back the one it found when the cell ends, so the cap wraps the streams again at
the start of each cell, around IPython's: what it drops, the history never holds either.

The submission can undo this in its own process: it is a courtesy to honest chatty code, which
keeps its observations, not a defence. The grader's own cap and its message size limit are
(`engine.kernel`).
"""
from __future__ import annotations

import sys
import threading
from typing import Any, Callable

NOTICE_START = "[autograder: output over "
NOTICE = "\n" + NOTICE_START + "{limit} characters in this cell; {dropped} more were dropped]\n"
NOTICE_ROOM = 200  # kept free under the limit for the notice itself


def cap_output(limit: int) -> None:
    """Cap each cell's stdout and stderr, together, at `limit` characters (see the module docstring)."""
    from IPython import get_ipython

    budget = CellBudget(limit)
    events = get_ipython().events
    events.register("pre_run_cell", budget.start)
    events.register("post_run_cell", budget.report)


class CellBudget:
    """The characters the running cell may still send, and how many it tried to send beyond that."""

    def __init__(self, limit: int):
        self.cap = limit
        self.room = self.dropped = 0
        self.lock = threading.Lock()  # print() in the main thread, fd output in ipykernel's watcher
        self.notice: Callable[[str], Any] = sys.stdout.write

    def start(self, *_: Any) -> None:
        """Before a cell: a fresh budget, and stdout and stderr capped by it."""
        self.reset()
        self.notice = sys.stdout.write
        for stream in (sys.stdout, sys.stderr):
            stream.write = self.capped(stream.write)

    def reset(self) -> None:
        """The whole cap again, less the room kept for the notice."""
        with self.lock:
            self.room, self.dropped = max(0, self.cap - NOTICE_ROOM), 0

    def capped(self, write: Callable[[str], Any]) -> Callable[[str], Any]:
        """`write`, sending only what fits in the budget."""
        def capped_write(text: str) -> int:
            if not isinstance(text, str):
                return write(text)  # which raises the stream's own TypeError
            fits = self.take(text)
            if fits:
                write(fits)
            return len(text)
        return capped_write

    def take(self, text: str) -> str:
        """The part of `text` that fits in the budget; the rest is counted."""
        with self.lock:
            fits = text[:self.room]
            self.room -= len(fits)
            self.dropped += len(text) - len(fits)
        return fits

    def report(self, *_: Any) -> None:
        """After a cell: one line saying how much output was dropped, if any was."""
        with self.lock:
            dropped, self.dropped = self.dropped, 0
        if dropped:
            self.notice(NOTICE.format(limit=self.cap, dropped=dropped))
