"""Evidence no text tool has: two students who fail an exercise the same rare way.

The grader saw what every student's code returned on the hidden cases. An exercise failed with the
same checks on the same cases, and (where the record holds `observed`, a digest of each case's
observation) with the same values, by few students of the class, is evidence two of them share
code, whatever the code looks like. Failures that say nothing of the code are no evidence: an
exercise not implemented, not observed, or a submission not graded.
"""
from __future__ import annotations

import math
from collections import defaultdict
from itertools import combinations
from typing import Any

NOT_EVIDENCE = frozenset({"not-implemented", "not-observed", "tampered"})


def wrong_signatures(record: dict[str, Any]) -> dict[str, tuple]:
    """Per failed exercise of a graded record: its failed checks (id, case, situation) and observation digests."""
    if record.get("status") != "graded":
        return {}
    digests = record.get("observed") if isinstance(record.get("observed"), dict) else {}
    found = {}
    for exercise in record.get("exercises", []):
        if exercise.get("passed"):
            continue
        failed = tuple((str(o.get("id")), str(o.get("case", "")), str(o.get("situation", "")))
                       for o in exercise.get("outcomes", []) if not o.get("passed") and o.get("judged", True))
        if failed and not any(check in NOT_EVIDENCE for check, _, _ in failed):
            found[str(exercise["id"])] = (failed, tuple(map(str, digests.get(exercise["id"], ()))))
    return found


def shared_failures(signatures: dict[str, dict[str, tuple]], class_size: int,
                    rare_share: float) -> dict[tuple[str, str], tuple[str, ...]]:
    """For each pair of students (sorted names), the exercises they fail the same way, when at most
    `rare_share` of the class (and never fewer than two) fails it that way."""
    cut = max(2, math.floor(rare_share * class_size))
    holders = defaultdict(list)
    for student, mine in signatures.items():
        for exercise, signature in mine.items():
            holders[exercise, signature].append(student)
    shared = defaultdict(list)
    for (exercise, _), who in sorted(holders.items(), key=lambda item: item[0][0]):
        if len(who) <= cut:
            for a, b in combinations(sorted(who), 2):
                shared[a, b].append(exercise)
    return {pair: tuple(exercises) for pair, exercises in shared.items()}
