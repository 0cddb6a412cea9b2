"""Grade many submissions in parallel; every one ends as a result record, whatever it does.

Results are written one by one, atomically, as they finish: a batch killed half-way keeps every
finished result, and a rerun skips them (unless forced), so nothing is lost or graded twice.
"""
from __future__ import annotations

import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Sequence

from . import lessons
from .devices import DeviceSlots
from .grading import Submission, grade
from .kernel import Limits
from .reference import cache_dir, reference_observations
from .results import read_results, result_path, write_class_csv, write_result

BAR_WIDTH = 24


def finished_result(out: Path, submission: Submission) -> dict[str, Any] | None:
    """The stored result of `submission` from an earlier run, if there is a complete one."""
    path = result_path(out, submission.student, submission.assignment)
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if record.get("status") and "exercises" in record else None


def grade_all(submissions: Sequence[Submission], out: Path, jobs: int = 1, limits: Limits = Limits(),
              force: bool = False) -> list[dict[str, Any]]:
    """Grade `submissions` with `jobs` kernels at once; write each result, then the class CSV.

    Submissions with a finished result in `out` are skipped unless `force`; their stored records
    are returned with the rest.
    """
    kept = {} if force else {s: r for s in submissions if (r := finished_result(out, s)) is not None}
    todo = [s for s in submissions if s not in kept]
    if kept:
        print(f"skipping {len(kept)} submission(s) graded before (use --force to regrade)", file=sys.stderr)
    records = list(kept.values()) + _grade_in_parallel(todo, out, jobs, limits)
    write_class_csv(out, read_results(out))
    return records


def _grade_in_parallel(todo: Sequence[Submission], out: Path, jobs: int, limits: Limits) -> list[dict[str, Any]]:
    assignments = sorted({s.assignment for s in todo})
    lesson_of = {a: lessons.load(a) for a in assignments}
    reference_of = {a: reference_observations(lesson_of[a]) for a in assignments}
    hidden = (out.resolve(), cache_dir(), *sorted({s.path.parent.parent for s in todo}))
    slots = DeviceSlots(jobs)

    def grade_on_a_slot(s: Submission) -> dict[str, Any]:
        with slots.slot() as device_env:
            return grade(s, lesson_of[s.assignment], reference_of[s.assignment], limits, hidden, device_env)

    started, records = time.monotonic(), []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(grade_on_a_slot, s) for s in todo]
        for future in as_completed(futures):
            record = future.result()
            write_result(out, record)
            records.append(record)
            _progress(records, len(todo), time.monotonic() - started)
    return records


def _progress(records: list[dict[str, Any]], total: int, elapsed: float) -> None:
    done, last = len(records), records[-1]
    failures = sum(r["status"] != "graded" for r in records)
    filled = BAR_WIDTH * done // max(total, 1)
    print(f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} | failures {failures} | "
          f"{done / max(elapsed, 1e-9) * 60:.1f}/min | {last['student']}/{last['assignment']}: "
          f"{last['score']}/{last['max_score']} {last['status']} in {last['duration_s']:.1f} s",
          file=sys.stderr, flush=True)
