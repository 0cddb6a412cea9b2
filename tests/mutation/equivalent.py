"""The committed list of equivalent mutants: survivors that behave exactly like the solution.

`equivalent/l<assignment>.toml` holds one `[[equivalent]]` table per mutant: its `id`, the `mutant`
description `make mutants` printed, and a one-line `reason` it cannot be told apart.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).parent / "equivalent"


@dataclass(frozen=True)
class Equivalent:
    id: str
    mutant: str
    reason: str


def equivalents_of(assignment: str) -> dict[str, Equivalent]:
    """The lesson's listed equivalent mutants by id (none when it has no file)."""
    path = FOLDER / f"l{assignment}.toml"
    if not path.exists():
        return {}
    entries = tomllib.loads(path.read_text())["equivalent"]
    return {e["id"]: Equivalent(e["id"], e["mutant"], e["reason"]) for e in entries}
