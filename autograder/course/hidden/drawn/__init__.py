"""Hidden cases drawn by a property-based generator, kept as data: `<assignment>.json` here.

A lesson's hidden module may define `strategies()`: for some exercises, the situations the docstring
promises as Hypothesis strategies (`autograder.course.hidden.strategies`). `python -m autograder publish`
(and so `make release`) draws them once and writes this folder; the files are committed and
regenerate byte-identical. Grading reads only the files, so a drawn case is the same on every machine,
in every process and under any Hypothesis version, and no grading imports Hypothesis.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def drawn_path(assignment: str) -> Path:
    """Where the drawn hidden cases of `assignment` are stored."""
    return Path(__file__).parent / f"{assignment}.json"


def load(assignment: str) -> dict[str, list[tuple[str, Any]]]:
    """The drawn `(situation, inputs)` pairs of each exercise; none when the lesson draws none."""
    path = drawn_path(assignment)
    if not path.exists():
        return {}
    return {ex_id: [(situation, inputs) for situation, inputs in pairs]
            for ex_id, pairs in json.loads(path.read_text()).items()}
