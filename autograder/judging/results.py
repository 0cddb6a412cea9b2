"""Write results so that nothing is ever half-written: one JSON per submission, one CSV per class."""
from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

CSV_COLUMNS = ("student", "assignment", "score", "max_score", "status", "reason", "device", "duration_s")


def verdict(record: dict[str, Any]) -> tuple:
    """What a result decides, without its words: status, score, and each exercise's points and
    failed checks. (The words may quote a TensorFlow error whose text varies from run to run:
    "Could not find variable b", or "w", as TensorFlow happens to order the ops.)"""
    return (record["status"], record["score"],
            [(e["id"], e["points"], e["passed"], e.get("failed_checks", [])) for e in record["exercises"]])


def atomic_write(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename, so readers see all or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp", encoding="utf-8") as tmp:
        tmp.write(text)
    os.replace(tmp.name, path)


def result_path(out: Path, student: str, assignment: str) -> Path:
    """`OUT/<student>/<assignment>.json`."""
    return out / student / f"{assignment}.json"


def write_result(out: Path, record: dict[str, Any]) -> Path:
    """Store one submission's feedback (`.txt`, `.html`), then its result record (`.json`, last:
    a record on disk means the submission is completely done)."""
    from autograder.judging.feedback import record_html, record_text

    path = result_path(out, record["student"], record["assignment"])
    atomic_write(path.with_suffix(".txt"), record_text(record))
    atomic_write(path.with_suffix(".html"), record_html(record))
    atomic_write(path, json.dumps(record, indent=1) + "\n")
    return path


def read_results(out: Path) -> list[dict[str, Any]]:
    """Every result record under `out`, sorted by student then assignment."""
    records = [json.loads(p.read_text()) for p in out.glob("*/*.json")]
    return sorted(records, key=lambda r: (r["student"], r["assignment"]))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula (`=HYPERLINK(...)`, from a student folder's
    name, say) gets a leading single quote, as OWASP advises; numbers pass unchanged."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def write_class_csv(out: Path, records: Iterable[dict[str, Any]]) -> Path:
    """`OUT/grades.csv`: one row per submission, no cell a spreadsheet would take for a formula."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for r in records:
        row = {**r, "reason": " ".join(str(r.get("reason", "")).split())}
        writer.writerow({k: csv_safe(v) for k, v in row.items()})
    path = out / "grades.csv"
    atomic_write(path, buffer.getvalue())
    return path
