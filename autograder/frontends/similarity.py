"""Similar submissions: which students of an assignment handed in the same code, MOSS-style.

What a student wrote is the code cells of their notebook that are not the course's: a cell every
line of which is a line of the released notebook or of the solution (compared without spacing and
with one kind of quote, so that a formatter run over the release writes nothing either) is left
out, so a notebook handed in as released, or with the solution's answers, wrote nothing.
Fingerprints are copydetect's (the k-grams of the tokenised code, names replaced by placeholders
so that renaming hides nothing, as in MOSS); k-grams of the course's code are left out as
boilerplate, and so are those that more than `COMMON` students share (MOSS's `-m`): an idiom half
the class writes says nothing about two of them; and so are those that join two cells the
notebook does not join.

A pair is listed when it shares at least `MIN_MATCH` characters of tokenised code and that is at
least `THRESHOLD` of one side's fingerprinted code, or when it shares `MUCH` characters whatever
the share (a copy with a line of padding after each of its lines keeps every line's own
fingerprints, but only about 40% of the copied side's); the most similar first.
"""
from __future__ import annotations

import io
import os
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any, Iterable, Sequence

import nbformat
import numpy as np

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.judging.grading import notebook_hash
from autograder.judging.submissions import NotPlain, Submission, plain_notebook_bytes

K = 25  # copydetect's noise threshold: a match shorter than this (in tokenised characters) is noise
# Every k-gram is a fingerprint (a winnowing window of 1): copydetect hashes k-grams with Python's
# hash(), salted per process, so a wider window would pick other fingerprints on every run and the
# figures would wobble; with all of them the report is the same whenever it is made.
WINDOW = 1
COMMON = 10  # a fingerprint in more submissions than this is the class's idiom, not a copy
MIN_MATCH = 100  # tokenised characters (about four lines of code) two submissions must share
THRESHOLD = 0.5  # of one side's fingerprinted code
MUCH = 200  # tokenised characters (about eight lines): shared code of this size is listed at any share
MAX_NOTEBOOK_BYTES = 20 * 2**20  # larger is no notebook a student wrote: left out, with a note
MAX_CODE_CHARS = 200_000  # of written code per submission: the rest is left out, with a note


@dataclass(frozen=True)
class Written:
    """What one student wrote for an assignment: the lines of their changed cells, and where each one is."""

    student: str
    code: str  # the lines, joined by "\n"
    where: tuple[tuple[str, int], ...]  # per line: its cell (nbgrader grade_id, else "cell N") and line in it
    breaks: tuple[int, ...] = ()  # offsets in `code` where a cell starts (the cells before it are not adjacent)


@dataclass(frozen=True)
class Pair:
    """Two submissions that share code: each side's share of its own code, and the shared spans."""

    a: Written
    b: Written
    similarity: tuple[float, float]  # of a's fingerprinted code, of b's
    matched: int  # tokenised characters of a found in b
    spans: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]  # (start, end) in a.code, in b.code

    @property
    def score(self) -> float:
        return max(self.similarity)


@dataclass
class AssignmentSimilarity:
    """One assignment's pass: how many submissions had code of their own, the pairs, and notes."""

    assignment: str
    compared: int = 0
    pairs: list[Pair] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _code_cells(nb) -> list[tuple[str, str]]:
    """(label, source) of every code cell: its nbgrader grade_id, else its place in the notebook."""
    return [(c.get("metadata", {}).get("nbgrader", {}).get("grade_id") or f"cell {i + 1}", c.source)
            for i, c in enumerate(nb.cells) if c.cell_type == "code"]


@dataclass(frozen=True)
class CourseCode:
    """The course's own code of an assignment (release and solution): its lines and fingerprints."""

    lines: frozenset[str]
    fingerprints: np.ndarray


def course_code(assignment: str) -> CourseCode:
    """The released notebook's and the solution's code, as lines to drop and k-grams to ignore."""
    from copydetect import CodeFingerprint

    notebook = lessons.load(assignment).notebook
    sources = [source for folder in ("notebooks", "solutions")
               for _, source in _code_cells(nbformat.read(COURSE_ROOT / folder / assignment / notebook, 4))]
    lines = frozenset(line_key(line) for source in sources for line in source.splitlines())
    fingerprint = CodeFingerprint("course.py", K, WINDOW, language="python", fp=io.StringIO("\n".join(sources)))
    return CourseCode(lines, np.array(sorted(fingerprint.hashes), dtype=np.int64))


def line_key(line: str) -> str:
    """A line as the course's lines are compared: no spacing, one kind of quote."""
    return "".join(line.split()).replace("'", '"')


def written_code(student: str, nb, course: CourseCode) -> Written:
    """The code cells of `nb` that are not the course's: a cell is left out when every line of it is
    a line of the course. A changed cell is kept whole (blank lines aside), so its strings and
    brackets still close; the course's code in it is boilerplate to the fingerprints."""
    lines, where, breaks, at = [], [], [], 0
    for label, source in _code_cells(nb):
        numbered = [(number, line) for number, line in enumerate(source.splitlines(), 1) if line.strip()]
        if all(line_key(line) in course.lines for _, line in numbered):
            continue
        if lines:
            breaks.append(at)
        for number, line in numbered:
            lines.append(line)
            where.append((label, number))
            at += len(line) + 1
    return Written(student, "\n".join(lines), tuple(where), tuple(breaks))


def similar_pairs(written: Sequence[Written], course: CourseCode, threshold: float = THRESHOLD,
                  min_match: int = MIN_MATCH, much: int = MUCH, common: int = COMMON) -> list[Pair]:
    """The pairs of `written` (one assignment's) that share enough code, the most similar first."""
    from copydetect import CodeFingerprint, compare_files

    docs = [w for w in written if w.code]
    prints = [CodeFingerprint(f"{i}.py", K, WINDOW, boilerplate=course.fingerprints, language="python",
                              fp=io.StringIO(w.code)) for i, w in enumerate(docs)]
    for w, p in zip(docs, prints):
        _forget(p, _across(p, w.breaks))
    holders: dict[int, list[int]] = {}
    for i, p in enumerate(prints):
        for h in p.hashes:
            holders.setdefault(h, []).append(i)
    idioms = {h for h, who in holders.items() if len(who) > common}
    for p in prints:  # the class's idioms count as boilerplate too
        _forget(p, {i for h in idioms & p.hashes for i in p.hash_idx[h]})
    shared = Counter(pair for h, who in holders.items() if h not in idioms for pair in combinations(who, 2))
    pairs = []
    # A match of min_match characters spans at least min_match / K distinct k-grams.
    for (i, j), n in shared.items():
        if n * K < min_match:
            continue
        matched, similarity, (spans_i, spans_j) = compare_files(prints[i], prints[j])
        if matched >= much or matched >= min_match and max(similarity) >= threshold:
            pairs.append(Pair(docs[i], docs[j], (float(similarity[0]), float(similarity[1])), int(matched),
                              (_spans(spans_i), _spans(spans_j))))
    return sorted(pairs, key=lambda p: (-p.score, -p.matched, p.a.student, p.b.student))


def _across(p, breaks: Sequence[int]) -> set[int]:
    """The k-grams of `p` (by start in its tokenised code) that run across a break: they join cells
    the notebook does not join (course cells were left out between them), so they are nobody's."""
    in_code = np.arange(len(p.filtered_code))
    if len(p.offsets):  # tokenised index -> index in the code, as copydetect maps its matches back
        in_code = in_code + p.offsets[:, 1][np.clip(np.searchsorted(p.offsets[:, 0], in_code), 0, len(p.offsets) - 1)]
    return {i for b in np.searchsorted(in_code, breaks) for i in range(max(int(b) - K + 1, 0), int(b))}


def _forget(p, starts: set[int]) -> None:
    """Drop the fingerprints of `p` that start at `starts` (boilerplate found after copydetect made it)."""
    from copydetect.utils import get_token_coverage

    if not starts:
        return
    for h in list(p.hashes):
        kept = [i for i in p.hash_idx[h] if i not in starts]
        if kept:
            p.hash_idx[h] = kept
        else:
            del p.hash_idx[h]
            p.hashes.discard(h)
    p.token_coverage = get_token_coverage(p.hash_idx, K, len(p.filtered_code))


def _spans(slices: np.ndarray) -> tuple[tuple[int, int], ...]:
    return tuple((int(s), int(e)) for s, e in np.asarray(slices).reshape(2, -1).T)


def submitted_notebook(submissions: Path, record: dict[str, Any]) -> tuple[Any, str]:
    """The notebook a result record graded, read from `submissions/<student>/<assignment>/`, and a
    note ("" if none). Read as the grader reads it: a plain file, no symlink on the way."""
    student, assignment = str(record["student"]), str(record["assignment"])
    path = submissions / student / assignment / str(record.get("notebook") or lessons.load(assignment).notebook)
    submission = Submission(student, assignment, path, root=submissions)
    try:
        if os.lstat(path).st_size > MAX_NOTEBOOK_BYTES:
            return None, f"{student}: the notebook is over {MAX_NOTEBOOK_BYTES >> 20} MB, not compared"
        data = plain_notebook_bytes(submission)
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
    except (NotPlain, OSError, ValueError) as exc:
        return None, f"{student}: not compared ({type(exc).__name__}: {str(exc)[:200]})"
    except Exception as exc:  # nbformat raises many kinds on a broken notebook
        return None, f"{student}: not compared, not a readable notebook ({type(exc).__name__})"
    graded = record.get("notebook_sha256")
    if graded and graded != notebook_hash(data):
        return nb, f"{student}: the notebook changed since it was graded; compared as it is now"
    return nb, ""


def class_similarity(records: Iterable[dict[str, Any]], submissions: Path) -> list[AssignmentSimilarity]:
    """Per assignment (sorted), the similar pairs among the notebooks the records graded."""
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
        written = []
        for r in sorted(mine, key=lambda r: str(r["student"])):
            if r.get("status") == "invalid":  # no notebook was graded: the failures section says why
                continue
            nb, note = submitted_notebook(submissions, r)
            if note:
                result.notes.append(note)
            if nb is not None:
                w = written_code(str(r["student"]), nb, course)
                if len(w.code) > MAX_CODE_CHARS:
                    result.notes.append(f"{w.student}: only the first {MAX_CODE_CHARS} characters of code compared")
                    w = replace(w, code=w.code[:MAX_CODE_CHARS],
                                breaks=tuple(b for b in w.breaks if b < MAX_CODE_CHARS))
                written.append(w)
        result.compared = sum(bool(w.code) for w in written)
        result.pairs = similar_pairs(written, course)
    return found
