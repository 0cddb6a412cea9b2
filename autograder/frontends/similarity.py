"""Similar submissions: which students of an assignment handed in the same code, per exercise and per notebook.

What a student wrote is compared in units: each exercise (the top-level function or class the
lesson grades, wherever the student defined it) and the notebook (every code cell that is not,
line for line, the course's). Code goes through `fingerprints` first, so comments, docstrings,
dead padding lines, renamed names and loops rewritten as comprehensions change nothing.

A fingerprint weighs what it says about two students: nothing when it is the course's code
(release or solution); nothing when at least `common_share` of the class has it (an idiom), and
less the closer it comes to that (the cut-off scales with the class); fully when two have it. A
pair's share, per side and unit, is the weight of that side's fingerprints the other side has
over the weight of all of them. A pair is listed when

- an exercise matches strongly: both sides' shares at least `exercise_threshold`, at least
  `exercise_min_match` fingerprints' weight in common, and the common code at least
  `exercise_min_length` fingerprints long (a copied exercise, not diluted by the rest; a two-line
  answer two students both found is too short to tell);
- or the notebook does: `min_match` in common and `threshold` of one side, or `much` whatever the share;
- or the two fail exercises the same rare way (`observations`): on two exercises, or on one whose
  code matches at least half.

The solution is compared too, with the class's rarity as weights (the release's code weighs
nothing): a submission whose exercises are at least `leak_threshold` the solution's is listed as
close to it. Submissions of earlier years (`--against DIR`) are compared with this year's.
"""
from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from pathlib import Path
from typing import Any, Iterable, Sequence

import nbformat

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.frontends.fingerprints import K, Line, Token, kgrams, normalised, tokens, vocabulary
from autograder.frontends.observations import shared_failures, wrong_signatures
from autograder.frontends.report_settings import Report
from autograder.judging.grading import notebook_hash
from autograder.judging.submissions import NotPlain, Submission, plain_notebook_bytes

NOTEBOOK = "notebook"  # the unit of every cell the student changed
SOLUTION = "the solution"
MAX_NOTEBOOK_BYTES = 20 * 2**20  # larger is no notebook a student wrote: left out, with a note
MAX_CODE_CHARS = 200_000  # of written code per submission: the rest is left out, with a note


@dataclass(frozen=True)
class Unit:
    """One exercise's code, or the notebook's: its kept lines, their tokens and fingerprints."""

    name: str
    lines: tuple[Line, ...]
    tokens: tuple[Token, ...]
    hashes: tuple[int, ...]

    @property
    def code(self) -> str:
        return "\n".join(line.text for line in self.lines)

    @cached_property
    def positions(self) -> dict[int, list[int]]:
        """Where each fingerprint starts (kept: a unit is compared with many)."""
        where: dict[int, list[int]] = {}
        for j, h in enumerate(self.hashes):
            where.setdefault(h, []).append(j)
        return where


@dataclass(frozen=True)
class Written:
    """What one student handed in for an assignment, as units (NOTEBOOK and each exercise id)."""

    student: str
    units: dict[str, Unit]
    sha256: str = ""

    @property
    def code(self) -> str:
        return self.units[NOTEBOOK].code if NOTEBOOK in self.units else ""


@dataclass(frozen=True)
class Match:
    """One unit of a pair: each side's share, the weight in common, and the matching blocks
    `(start in a, start in b, length)` in fingerprint positions (a block covers length + K - 1 tokens)."""

    unit: str
    shares: tuple[float, float]
    matched: float
    blocks: tuple[tuple[int, int, int], ...]
    length: int = 0  # fingerprints of a the blocks cover, whatever their weight: how long the common code is


@dataclass
class Pair:
    """Two submissions (or one and the solution, or an earlier year's) and why they are listed."""

    assignment: str
    a: Written
    b: Written
    matches: dict[str, Match]
    listed_for: list[str]  # the units that list it, and "observations"
    observed: tuple[str, ...] = ()  # exercises both fail in the same rare way
    kind: str = "pair"  # "pair", "solution" (close to it), "earlier" (b is an earlier year's)

    @property
    def score(self) -> float:
        """The strongest listing unit's share (the larger side for the notebook, the smaller for an
        exercise, listed or failed the same rare way), plus a tenth per exercise failed the same rare
        way; at most 1."""
        code = [max(m.shares) if u == NOTEBOOK else min(m.shares) for u, m in self.matches.items()
                if u in self.listed_for or u in self.observed]
        return min(1.0, max(code, default=0.0) + 0.1 * len(self.observed))

    @property
    def identical(self) -> bool:
        """The two notebooks are the same file (equal hashes)."""
        return bool(self.a.sha256) and self.a.sha256 == self.b.sha256

    @property
    def exercises(self) -> list[str]:
        return [u for u in self.listed_for if u not in (NOTEBOOK, "observations")]


@dataclass
class AssignmentSimilarity:
    """One assignment's pass: how many submissions had code of their own, the pairs, and notes."""

    assignment: str
    compared: int = 0
    pairs: list[Pair] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CourseCode:
    """The course's code of an assignment: its lines, vocabulary and fingerprints, and the solution."""

    lines: frozenset[str]
    vocab: frozenset[str]
    release: frozenset[int]
    hashes: frozenset[int]  # release and solution
    symbols: dict[str, str]  # exercise id -> the function or class it grades
    solution: Written


def _code_cells(nb) -> list[tuple[str, str]]:
    """(label, source) of every code cell: its nbgrader grade_id, else `cell N`, N its 1-based place
    in the notebook (as the page cites flagged cells)."""
    return [(c.get("metadata", {}).get("nbgrader", {}).get("grade_id") or f"cell {i}", c.source)
            for i, c in enumerate(nb.cells, 1) if c.cell_type == "code"]


def line_key(line: str) -> str:
    """A line as the course's lines are compared: no spacing, one kind of quote."""
    return "".join(line.split()).replace("'", '"')


def course_code(assignment: str) -> CourseCode:
    """The released notebook's and the solution's code: lines to drop, fingerprints to ignore, the solution's units."""
    lesson = lessons.load(assignment)
    release, solution = (_code_cells(nbformat.read(COURSE_ROOT / folder / assignment / lesson.notebook, 4))
                         for folder in ("notebooks", "solutions"))
    solution = [(label, "\n".join(l for l in source.splitlines() if l.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")))
                for label, source in solution]
    sources = [s for _, s in release + solution]
    vocab = vocabulary(sources)
    symbols = {e.id: e.symbol for e in lesson.exercises}
    release_unit = _unit(NOTEBOOK, normalised(release), vocab)
    empty = CourseCode(frozenset(), vocab, frozenset(), frozenset(), symbols, Written(SOLUTION, {}))
    mine = written_code(SOLUTION, solution, empty, everything=True)
    hashes = {h for u in (release_unit, *mine.units.values()) for h in u.hashes}
    return CourseCode(frozenset(line_key(l) for s in sources for l in s.splitlines()), vocab,
                      frozenset(release_unit.hashes), frozenset(hashes), symbols, mine)


SEAM = 0  # the fingerprint of k tokens that run across cells: the notebook does not join them, so it is nobody's


def _unit(name: str, lines: Sequence[Line], vocab: frozenset[str]) -> Unit:
    toks = tokens(lines, vocab)
    cells = [lines[t.line].cell for t in toks]
    seams = {i for i in range(1, len(toks)) if cells[i] != cells[i - 1]}
    hashes = [SEAM if any(start < seam < start + K for seam in seams) else h
              for start, h in enumerate(kgrams(toks))]
    return Unit(name, tuple(lines), tuple(toks), tuple(hashes))


def _definition(lines: Sequence[Line], symbol: str) -> list[Line]:
    """The lines of the last top-level `def symbol` or `class symbol` in `lines`."""
    found: list[Line] = []
    inside = False
    for line in lines:
        top = not line.text[:1].isspace()
        if top and line.text.split("(")[0].split(":")[0].split() in (["def", symbol], ["class", symbol]):
            found, inside = [line], True
        elif inside and not top and line.cell == found[0].cell:
            found.append(line)
        else:
            inside = False
    return found


def written_code(student: str, cells, course: CourseCode, sha256: str = "", everything: bool = False) -> Written:
    """The units of what `student` handed in (`cells`: a notebook or (label, source) pairs): each
    exercise's definition, and the notebook's cells that are not, line for line, the course's
    (all of them with `everything`)."""
    cells = _code_cells(cells) if hasattr(cells, "cells") else list(cells)
    own = {label for label, source in cells if everything or not all(
        line_key(line) in course.lines for line in source.splitlines() if line.strip())}
    every = normalised(cells)
    units = {NOTEBOOK: _unit(NOTEBOOK, [line for line in every if line.cell in own], course.vocab)}
    for exercise, symbol in course.symbols.items():
        lines = _definition(every, symbol)
        if lines:
            units[exercise] = _unit(exercise, lines, course.vocab)
    return Written(student, units, sha256)


_NONE: dict[int, int] = {}  # no holders


class Weight:
    """What a fingerprint of a unit says about two students: 0 for `ignored` ones (the course's) and
    for those at least `common_share` of the class has, 1 for those two or fewer have, linear between."""

    def __init__(self, written: Sequence[Written], ignored: frozenset[int], common_share: float):
        self.holders = {name: Counter(h for w in written if name in w.units for h in set(w.units[name].hashes))
                        for name in {n for w in written for n in w.units}}
        self.ignored, self.cut = ignored, max(3.0, math.ceil(common_share * len(written)))
        self._of: dict[int, tuple[list[float], float]] = {}
        self._held: dict[tuple[str, int], dict[int, float]] = {}

    def __call__(self, unit: str, h: int) -> float:
        if h in self.ignored or h == SEAM:
            return 0.0
        n = self.holders.get(unit, _NONE).get(h, 0)
        return 1.0 if n <= 2 else max(0.0, (self.cut - n) / (self.cut - 2))

    def held(self, unit: Unit) -> dict[int, float]:
        """Each fingerprint of weight in `unit`, with its weight times how often the unit has it (kept)."""
        key = ("held", id(unit))
        if key not in self._held:
            self._held[key] = {h: w * len(at) for h, at in unit.positions.items() if (w := self(unit.name, h)) > 0}
        return self._held[key]

    def of(self, unit: Unit) -> tuple[list[float], float]:
        """The weight of each fingerprint of `unit`, and their sum (kept: a unit is in many pairs)."""
        if id(unit) not in self._of:
            weights = [self(unit.name, h) for h in unit.hashes]
            self._of[id(unit)] = weights, sum(weights)
        return self._of[id(unit)]


def compare(a: Unit, b: Unit, weight: Weight) -> Match | None:
    """The blocks of `a` found in `b` (greedy, longest first at each place) and each side's share;
    None when nothing of weight is in common."""
    where = b.positions
    if where.keys().isdisjoint(a.positions):
        return None
    weights_a = weight.of(a)[0]
    ha, hb = a.hashes, b.hashes
    la, lb = len(ha), len(hb)
    blocks, i = [], 0
    # Only the places of `a` with weight whose fingerprint `b` has can start a block (ascending).
    for i0 in sorted(p for h in where.keys() & a.positions.keys() for p in a.positions[h] if weights_a[p] > 0):
        if i0 < i:  # inside the last block
            continue
        i = i0
        best_n, best_j = 0, 0
        for j in where[ha[i]]:  # ascending: the first of the longest wins
            if best_n and (j + best_n >= lb or i + best_n >= la or ha[i + best_n] != hb[j + best_n]):
                continue  # cannot be longer than the best
            n, m = 1, min(la - i, lb - j)
            while n < m and ha[i + n] == hb[j + n]:
                n += 1
            if n > best_n:
                best_n, best_j = n, j
        blocks.append((i, best_j, best_n))
        i += best_n
    if not blocks:
        return None
    sides = []
    for unit, at in ((a, 0), (b, 1)):
        weights, total = weight.of(unit)
        covered = set()
        for block in blocks:
            covered.update(range(block[at], block[at] + block[2]))
        sides.append((sum(weights[p] for p in covered), total))
    if not sides[0][0]:
        return None
    return Match(a.name, tuple(m / t if t else 0.0 for m, t in sides), round(min(sides[0][0], sides[1][0]), 1),
                 tuple(blocks), sum(n for _, _, n in blocks))


def _strong(unit: str, m: Match, s: Report) -> bool:
    if unit == NOTEBOOK:
        return m.matched >= s.much or (m.matched >= s.min_match and max(m.shares) >= s.threshold)
    return (m.matched >= s.exercise_min_match and m.length >= s.exercise_min_length
            and min(m.shares) >= s.exercise_threshold)


def pair_of(assignment: str, a: Written, b: Written, weight: Weight, s: Report, observed: Sequence[str] = (),
            kind: str = "pair") -> Pair | None:
    """`a` and `b` compared unit by unit, as a listed Pair, or None when nothing lists them."""
    matches = {}
    for name in a.units.keys() & b.units.keys():
        m = compare(a.units[name], b.units[name], weight)
        if m:
            matches[name] = m
    listed = [u for u in sorted(matches, key=lambda u: (u != NOTEBOOK, u)) if _strong(u, matches[u], s)]
    agreeing = [e for e in observed if e in matches and min(matches[e].shares) >= 0.5]
    if len(observed) >= 2 or agreeing:
        listed.append("observations")
    return Pair(assignment, a, b, matches, listed, tuple(observed), kind) if listed else None


def similar_pairs(assignment: str, written: Sequence[Written], course: CourseCode, s: Report,
                  signatures: dict[str, dict[str, tuple]] | None = None) -> list[Pair]:
    """The listed pairs of `written` (one assignment's submissions), the strongest first."""
    weight = Weight(written, course.hashes, s.common_share)
    observed = shared_failures(signatures or {}, len(written), s.rare_share)
    holders: dict[tuple[str, int], list[int]] = {}
    for i, w in enumerate(written):
        for name, unit in w.units.items():
            for h in set(unit.hashes):
                if weight(name, h) > 0:
                    holders.setdefault((name, h), []).append(i)
    # Only pairs with enough weight in common are compared (every listing needs exercise_min_match).
    common: Counter = Counter()
    for (name, h), who in holders.items():
        for pair in combinations(who, 2):
            common[pair] += weight(name, h)
    candidates = {pair for pair, shared in common.items() if shared >= s.exercise_min_match}
    candidates |= {(i, j) for i, j in combinations(range(len(written)), 2)
                   if (written[i].student, written[j].student) in observed}
    pairs = [pair_of(assignment, written[i], written[j], weight, s, seen) for i, j in sorted(candidates)
             if (seen := observed.get((written[i].student, written[j].student), ()))
             or _may_list(written[i], written[j], weight, s)]
    return _ranked(p for p in pairs if p)


def _may_list(a: Written, b: Written, weight: Weight, s: Report) -> bool:
    """Whether some unit of `a` and `b` could be strong, by what `compare` can at most find: a block
    covers only fingerprints both sides have, so each side's matched weight is at most the weight of
    its fingerprints the other has. False only when `pair_of` would list nothing but observations."""
    for name in a.units.keys() & b.units.keys():
        held_a, held_b = weight.held(a.units[name]), weight.held(b.units[name])
        both = held_a.keys() & held_b.keys()
        if not both:
            continue
        most_a, most_b = (sum(held[h] for h in both) + 1e-6 for held in (held_a, held_b))
        total_a, total_b = weight.of(a.units[name])[1], weight.of(b.units[name])[1]
        shares = (most_a / total_a if total_a else 0.0, most_b / total_b if total_b else 0.0)
        matched = round(min(most_a, most_b), 1)
        if name == NOTEBOOK:
            if matched >= s.much or (matched >= s.min_match and max(shares) >= s.threshold):
                return True
        elif matched >= s.exercise_min_match and min(shares) >= s.exercise_threshold:
            return True
    return False


def _ranked(pairs: Iterable[Pair]) -> list[Pair]:
    return sorted(pairs, key=lambda p: (-p.score, -max((m.matched for m in p.matches.values()), default=0),
                                        p.a.student, p.b.student))


def close_to_solution(assignment: str, written: Sequence[Written], course: CourseCode, s: Report) -> list[Pair]:
    """Submissions whose exercises are at least `leak_threshold` the solution's, weighed by how rare
    that code is in the class (the release weighs nothing)."""
    weight = Weight(written, course.release, s.common_share)
    found = []
    for w in written:
        matches = {e: m for e in w.units.keys() & course.solution.units.keys() - {NOTEBOOK}
                   if (m := compare(w.units[e], course.solution.units[e], weight))}
        mine = sum(weight.of(u)[1] for e, u in w.units.items() if e != NOTEBOOK)
        shared = sum(m.shares[0] * weight.of(w.units[e])[1] for e, m in matches.items())
        if mine and shared / mine >= s.leak_threshold and shared >= s.min_match:
            listed = sorted(e for e, m in matches.items() if m.shares[0] >= s.leak_threshold)
            found.append(Pair(assignment, w, course.solution, matches, listed, (), "solution"))
    return _ranked(found)


def earlier_pairs(assignment: str, written: Sequence[Written], earlier: Sequence[Written], course: CourseCode,
                  s: Report) -> list[Pair]:
    """This year's submissions against earlier years' (`--against`), weighed by this year's class."""
    weight = Weight(written, course.hashes, s.common_share)
    return _ranked(p for w in written for e in earlier
                   if (p := pair_of(assignment, w, e, weight, s, kind="earlier")))


def submitted_notebook(submissions: Path, record: dict[str, Any]) -> tuple[Any, str, str]:
    """The notebook a result record graded, read from `submissions/<student>/<assignment>/`, its
    hash and a note ("" if none). Read as the grader reads it: a plain file, no symlink on the way."""
    student, assignment = str(record["student"]), str(record["assignment"])
    path = submissions / student / assignment / str(record.get("notebook") or lessons.load(assignment).notebook)
    submission = Submission(student, assignment, path, root=submissions)
    try:
        if os.lstat(path).st_size > MAX_NOTEBOOK_BYTES:
            return None, "", f"{student}: the notebook is over {MAX_NOTEBOOK_BYTES >> 20} MB, not compared"
        data = plain_notebook_bytes(submission)
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
    except (NotPlain, OSError, ValueError) as exc:
        return None, "", f"{student}: not compared ({type(exc).__name__}: {str(exc)[:200]})"
    except Exception as exc:  # nbformat raises many kinds on a broken notebook
        return None, "", f"{student}: not compared, not a readable notebook ({type(exc).__name__})"
    graded = record.get("notebook_sha256")
    if graded and graded != notebook_hash(data):
        return nb, notebook_hash(data), f"{student}: the notebook changed since it was graded; compared as it is now"
    return nb, notebook_hash(data), ""


def _read_class(records: Sequence[dict[str, Any]], folder: Path, course: CourseCode,
                notes: list[str]) -> list[Written]:
    written = []
    for r in sorted(records, key=lambda r: str(r["student"])):
        if r.get("status") == "invalid":  # no notebook was graded: the failures section says why
            continue
        nb, sha256, note = submitted_notebook(folder, r)
        if note:
            notes.append(note)
        if nb is None:
            continue
        cells, size = [], 0
        for label, source in _code_cells(nb):
            size += len(source)
            if size > MAX_CODE_CHARS:
                notes.append(f"{r['student']}: only the first {MAX_CODE_CHARS} characters of code compared")
                break
            cells.append((label, source))
        written.append(written_code(str(r["student"]), cells, course, sha256))
    return written


def _earlier(folder: Path, assignment: str, course: CourseCode, notes: list[str]) -> list[Written]:
    """Every submission of `assignment` under `folder` (laid out as `grade` reads it), named "<student> (earlier)"."""
    notebook = lessons.load(assignment).notebook
    records = [{"student": p.name, "assignment": assignment, "notebook": notebook}
               for p in sorted(folder.iterdir()) if (p / assignment / notebook).exists()] if folder.is_dir() else []
    return [Written(f"{w.student} (earlier)", w.units, w.sha256) for w in _read_class(records, folder, course, notes)]


def class_similarity(records: Iterable[dict[str, Any]], submissions: Path, settings: Report | None = None,
                     against: Path | None = None) -> list[AssignmentSimilarity]:
    """Per assignment (sorted): the listed pairs among the notebooks the records graded, the
    submissions close to the solution, and (with `against`) those close to an earlier year's."""
    s = settings or Report()
    by_assignment: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_assignment.setdefault(str(r["assignment"]), []).append(r)
    known = set(lessons.assignments())
    found = []
    for assignment, mine in sorted(by_assignment.items()):
        result = AssignmentSimilarity(assignment)
        found.append(result)
        if assignment not in known:
            result.notes.append(f"no lesson called {assignment}: not compared")
            continue
        course = course_code(assignment)
        written = _read_class(mine, submissions, course, result.notes)
        result.compared = sum(bool(w.code) for w in written)
        signatures = {str(r["student"]): wrong_signatures(r) for r in mine}
        result.pairs = similar_pairs(assignment, written, course, s, signatures) + close_to_solution(
            assignment, written, course, s)
        if against is not None:
            result.pairs += earlier_pairs(assignment, written, _earlier(against, assignment, course, result.notes),
                                          course, s)
    return found
