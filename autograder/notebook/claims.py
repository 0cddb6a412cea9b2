"""Claims a lesson's text makes about an output, checked by the cell that shows the output.

    claim(ratio > 2, "the rebuild loop costs more than twice the feed loop", f"{ratio:.1f}x")

prints `✓ the rebuild loop costs ... (measured: 3.4x)` when it holds, and `✗ ...` when it does not,
so the text beside a cell can never drift from what the cell shows unnoticed. A failed claim never
raises: a student on a slow laptop keeps going, and a graded kernel is never stopped by a demo. The
course's notebook test (tests/test_quiet.py) runs every solution and fails on any `✗` line.
"""
from __future__ import annotations

HOLDS, FAILS = "✓", "✗"


def claim(holds: object, statement: str, measured: str = "") -> bool:
    """Print whether `statement` holds, with what was measured; return it as a bool."""
    ok = bool(holds)
    mark = HOLDS if ok else FAILS
    print(f"{mark} {statement}" + (f" (measured: {measured})" if measured else ""))
    return ok


def failed_claims(text: str) -> list[str]:
    """The failed claims among printed lines (what the notebook test looks for)."""
    return [line for line in text.splitlines() if line.startswith(FAILS + " ")]
