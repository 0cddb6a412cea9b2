"""Grade many submissions in parallel; every one ends as a result record, whatever it does."""
from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Sequence

from . import lessons
from .grading import Submission, grade
from .kernel import Limits
from .reference import reference_observations
from .results import read_results, write_class_csv, write_result


def grade_all(submissions: Sequence[Submission], out: Path, jobs: int = 1,
              limits: Limits = Limits()) -> list[dict[str, Any]]:
    """Grade `submissions` with `jobs` kernels at once; write each result, then the class CSV."""
    assignments = sorted({s.assignment for s in submissions})
    lesson_of = {a: lessons.load(a) for a in assignments}
    reference_of = {a: reference_observations(lesson_of[a]) for a in assignments}
    started, records = time.monotonic(), []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(grade, s, lesson_of[s.assignment], reference_of[s.assignment], limits)
                   for s in submissions]
        for done, future in enumerate(as_completed(futures), 1):
            record = future.result()
            write_result(out, record)
            records.append(record)
            _progress(done, len(futures), records, record, time.monotonic() - started)
    write_class_csv(out, read_results(out))
    return records


def _progress(done: int, total: int, records: list[dict[str, Any]], record: dict[str, Any], elapsed: float) -> None:
    failures = sum(r["status"] != "graded" for r in records)
    print(f"[{done}/{total}] {record['student']}/{record['assignment']}: {record['score']}/{record['max_score']} "
          f"{record['status']} ({record['duration_s']:.1f} s) | failures {failures} | "
          f"{done / elapsed * 60:.1f}/min", file=sys.stderr, flush=True)
