"""Claims a lesson's text makes about an output, checked by the cell that shows the output.

    claim(ratio > 2, "the rebuild loop costs more than twice the feed loop", f"{ratio:.1f}x")

prints `✓ the rebuild loop costs ... (measured: 3.4x)` when it holds, and `✗ ...` when it does not,
so the text beside a cell can never drift from what the cell shows unnoticed. A failed claim never
raises: a student on a slow laptop keeps going, and a graded kernel is never stopped by a demo.
`claim` returns None, so a cell that ends with one shows only the printed line, not a stray `True`
(no lesson uses the verdict as a value: tests/test_claims.py checks that too).

The course's notebook test (tests/test_quiet.py) runs every solution, fails on any `✗` line, and
counts the claims that ran against a committed minimum per lesson (`count_claims`), so a claim cell
that stops running is noticed. tests/test_claims.py proves that every claim can fail: none rests on
a Python literal alone.
"""
from __future__ import annotations

HOLDS, FAILS = "✓", "✗"


def claim(holds: object, statement: str, measured: str = "") -> None:
    """Print whether `statement` holds, with what was measured."""
    mark = HOLDS if bool(holds) else FAILS
    print(f"{mark} {statement}" + (f" (measured: {measured})" if measured else ""))


def failed_claims(text: str) -> list[str]:
    """The failed claims among printed lines (what the notebook test looks for)."""
    return [line for line in text.splitlines() if line.startswith(FAILS + " ")]


def count_claims(text: str) -> int:
    """How many claims, held or failed, the printed lines report."""
    return sum(1 for line in text.splitlines() if line.startswith((HOLDS + " ", FAILS + " ")))
