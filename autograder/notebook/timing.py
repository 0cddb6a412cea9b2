"""Timings a lesson can state on a busy machine: medians of interleaved blocks.

    spreads = interleaved_timings({"session": run_session, "eager": run_eager}, calls=200)

warms each step up once, then times `blocks` rounds; in each round every step runs `calls` times
in turn, so a burst of load from other work falls on all of them alike instead of on whichever
happened to be timed at that moment. Each result is (median, fastest, slowest) of the per-call
time over the blocks, in microseconds. `calls` may be a dict giving each step its own count.
"""
from __future__ import annotations

import statistics
import time
from typing import Callable, Mapping


def interleaved_timings(steps: Mapping[str, Callable[[], object]], calls: int | Mapping[str, int],
                        blocks: int = 5, clock: Callable[[], float] = time.perf_counter,
                        ) -> dict[str, tuple[float, float, float]]:
    """Per-call time of each step in microseconds: {label: (median, fastest, slowest) over blocks}."""
    counts = {label: calls[label] if isinstance(calls, Mapping) else calls for label in steps}
    for step in steps.values():
        step()                                   # warm-up: first calls pay one-off costs
    per_block: dict[str, list[float]] = {label: [] for label in steps}
    for _ in range(blocks):
        for label, step in steps.items():
            started = clock()
            for _ in range(counts[label]):
                step()
            per_block[label].append((clock() - started) / counts[label] * 1e6)
    return {label: (statistics.median(times), min(times), max(times)) for label, times in per_block.items()}
