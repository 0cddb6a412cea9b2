"""Helpers the lessons' probes share: they run in the student's kernel, around the student's objects."""
from __future__ import annotations

from typing import Any


def close_session(obj: Any) -> None:
    """Close the session an exercise's object opened (as `sess` or `session`), if it has one."""
    session = getattr(obj, "sess", None) or getattr(obj, "session", None)
    if session is not None and hasattr(session, "close"):
        session.close()


class FinalizedGraphGuard:
    """`with guard:` ends its block quietly when the code in it tries to add an op to a finalized
    graph, and remembers it in `tripped`; any other error goes on up."""

    def __init__(self) -> None:
        self.tripped = False

    def __enter__(self) -> "FinalizedGraphGuard":
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if kind is not None and issubclass(kind, RuntimeError) and "finalized" in str(error):
            self.tripped = True
            return True
        return False
