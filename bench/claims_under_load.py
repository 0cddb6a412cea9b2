"""DESIGN.md's load rule, measured: every solution notebook run top to bottom with busy processes
beside it, and the claims it prints counted.

    .venv/bin/python -m bench.claims_under_load [--busy 6] [--repeats 1] [LESSON ...]
                                                                  (from the repository root)

"A timing claim ... holds with six busy processes beside it (a load of about 7 on two cores)"
(DESIGN.md, "Notebook standards"). This starts `--busy` pure-Python spin loops, each in its own
session, lets the load average climb for `--warm-up` seconds (60), then runs each lesson's solution
(`solutions/*/*.ipynb`, or the lessons named, e.g. `02_rebuild_vs_feed` or just `02`) `--repeats`
times in a fresh kernel, as tests/test_quiet.py does. Per run it prints the claims that ran (against
the lesson's committed minimum), the claims that failed with their text, the errors cells raised,
the wall time, and the 1-minute load average (os.getloadavg) sampled every second during the run:
its median and its highest. `--all-claims` prints the claims that held too, with what they measured,
to see the margin a timing claim has. The load counts everything on the machine, other work included.

The busy processes are killed (their whole process group) at the end, whatever happens: a failure,
Ctrl-C or a SIGTERM. Exit status 1 when any claim failed, a cell raised, or fewer claims ran than
the lesson's minimum; 0 otherwise. A benchmark, not a test: `make bench-load` runs it.
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator

import nbformat

from autograder.course import lessons
from autograder.judging.reference import solution_path
from autograder.notebook.claims import count_claims, failed_claims
from tests.test_quiet import CLAIMS_AT_LEAST, errors_of, run, stdout_of

SPIN = "while True: pass"


@contextmanager
def busy_processes(n: int) -> Iterator[list[subprocess.Popen]]:
    """`n` spin loops, each in its own session (so its process group is its own), killed on exit."""
    procs: list[subprocess.Popen] = []
    try:
        for _ in range(n):
            procs.append(subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True,
                                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL))
        yield procs
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)   # its own group: start_new_session made pgid == pid
            except ProcessLookupError:
                pass
        for p in procs:
            p.wait()


@contextmanager
def load_sampled(every: float = 1.0) -> Iterator[list[float]]:
    """The 1-minute load average, read every `every` seconds while the block runs (once at least)."""
    samples = [os.getloadavg()[0]]
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(every):
            samples.append(os.getloadavg()[0])

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield samples
    finally:
        stop.set()
        thread.join()
        samples.append(os.getloadavg()[0])


def chosen(names: list[str]) -> list[str]:
    """The assignments named (in full or by their number), all of them when none is."""
    every = lessons.assignments()
    if not names:
        return every
    picked = [a for a in every if any(a == n or a.split("_")[0] == n for n in names)]
    unknown = [n for n in names if not any(a == n or a.split("_")[0] == n for a in every)]
    if unknown:
        sys.exit(f"unknown lesson(s): {', '.join(unknown)}; known: {', '.join(every)}")
    return picked


def run_once(assignment: str) -> dict:
    """Run the lesson's solution top to bottom in a fresh kernel; what its claims said, wall, load."""
    nb = nbformat.read(solution_path(lessons.load(assignment)), as_version=4)
    with load_sampled() as loads:
        started = time.perf_counter()
        run(nb)
        wall = time.perf_counter() - started
    printed = stdout_of(nb)
    claims = [line for line in printed.splitlines() if count_claims(line)]
    return {"ran": count_claims(printed), "failed": failed_claims(printed), "claims": claims, "errors": errors_of(nb),
            "wall": wall, "load_median": statistics.median(loads), "load_max": max(loads)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lessons", nargs="*", help="assignments (or their numbers) to run; all when none")
    parser.add_argument("--busy", type=int, default=6, help="spin loops beside the notebook (default 6)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each lesson (default 1)")
    parser.add_argument("--warm-up", type=float, default=60.0,
                        help="seconds the load average climbs before the first run (default 60: "
                             "it is a 1-minute average)")
    parser.add_argument("--all-claims", action="store_true",
                        help="print every claim line with what it measured, not only the failed ones")
    args = parser.parse_args()
    assignments = chosen(args.lessons)
    # A SIGTERM (a CI timeout, `kill`) unwinds through the finally blocks like Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))

    bad = False
    print(f"{args.busy} busy processes on {os.cpu_count()} CPUs; load before them "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    with busy_processes(args.busy):
        time.sleep(args.warm_up)
        print(f"after {args.warm_up:g} s of warm-up, load {os.getloadavg()[0]:.1f}", flush=True)
        print(f"  {'lesson':32s} {'run':>3s} {'claims':>6s} {'min':>4s} {'failed':>6s} {'errors':>6s} "
              f"{'wall':>7s} {'load med':>8s} {'max':>5s}", flush=True)
        for assignment in assignments:
            for repeat in range(1, args.repeats + 1):
                r = run_once(assignment)
                least = CLAIMS_AT_LEAST.get(assignment, 0)
                short = r["ran"] < least
                bad |= bool(r["failed"] or r["errors"] or short)
                print(f"  {assignment:32s} {repeat:3d} {r['ran']:6d} {least:4d} {len(r['failed']):6d} "
                      f"{len(r['errors']):6d} {r['wall']:5.1f} s {r['load_median']:8.1f} {r['load_max']:5.1f}"
                      f"{'  FEWER CLAIMS THAN THE MINIMUM' if short else ''}", flush=True)
                shown = r["claims"] if args.all_claims else r["failed"]
                for line in shown + [f"error: {e}" for e in r["errors"]]:
                    print(f"      {line}", flush=True)
    print(f"busy processes stopped; load {os.getloadavg()[0]:.1f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
