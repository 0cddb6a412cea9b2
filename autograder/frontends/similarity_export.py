"""The similarity pass as data: every listed pair's scores, evidence and exercises, as CSV and JSON.

Written beside the class report (`similarity.csv`, `similarity.json`) so that pairs can be sorted,
filtered or kept from year to year without the page. Names are CSV-safe (no formula).
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any, Sequence

from autograder.frontends.similarity import NOTEBOOK, AssignmentSimilarity
from autograder.judging.results import atomic_write, csv_safe

CSV_COLUMNS = ("assignment", "student_a", "student_b", "kind", "score", "listed_for", "exercises", "observed",
               "identical", "notebook_share_a", "notebook_share_b", "notebook_matched")


def pair_rows(found: Sequence[AssignmentSimilarity]) -> list[dict[str, Any]]:
    """One dict per listed pair: who, why, and every unit's shares, weight in common and length."""
    rows = []
    for s in found:
        for p in s.pairs:
            units = {u: {"share_a": round(m.shares[0], 4), "share_b": round(m.shares[1], 4), "matched": m.matched,
                         "length": m.length} for u, m in sorted(p.matches.items())}
            notebook = units.get(NOTEBOOK, {})
            rows.append({"assignment": s.assignment, "student_a": p.a.student, "student_b": p.b.student,
                         "kind": p.kind, "score": round(p.score, 4), "listed_for": p.listed_for,
                         "exercises": p.exercises, "observed": list(p.observed), "identical": p.identical,
                         "notebook_share_a": notebook.get("share_a", 0.0),
                         "notebook_share_b": notebook.get("share_b", 0.0),
                         "notebook_matched": notebook.get("matched", 0.0), "units": units})
    return rows


def write_exports(found: Sequence[AssignmentSimilarity], folder: Path) -> tuple[Path, Path]:
    """`folder/similarity.csv` (one row a pair; lists joined by `;`) and `folder/similarity.json` (with every unit)."""
    rows = pair_rows(found)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_safe(";".join(v) if isinstance(v, list) else v) for k, v in row.items()})
    paths = folder / "similarity.csv", folder / "similarity.json"
    atomic_write(paths[0], buffer.getvalue())
    atomic_write(paths[1], json.dumps({"pairs": rows, "notes": {s.assignment: s.notes for s in found}}, indent=1) + "\n")
    return paths
