"""The class report's integrity view: similar submissions side by side, and the code the grader flagged.

Two sections of the report's page (`report.report_html`), plain HTML with everything a student
wrote escaped. Similar pairs come from `similarity.class_similarity`, which needs the submitted
notebooks (`report --submissions DIR`); flagged code comes from the result records alone: every
`tampered` submission with its reason, and every finding a record lists in `flags`
(`{cell, line, code, reason}`, from the grader's screening of the code).
"""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Iterable, Sequence

from autograder.frontends.fingerprints import K
from autograder.frontends.report_settings import Report
from autograder.frontends.similarity import NOTEBOOK, AssignmentSimilarity, Pair, Unit, class_similarity

COLOURS = 8  # matching blocks cycle through this many colours, the same on both sides
CONTEXT = 1  # lines shown around a marked line; longer runs of unmarked lines are counted, not shown

STYLE = """
.pair { border: 1px solid #ddd; border-radius: 4px; margin: .8em 0; padding: .4em .8em; }
.pair h4 { margin: .3em 0; } .side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: .8em; }
.side-by-side > div { min-width: 0; overflow-x: auto; } table.code { margin: 0; font-size: 12.5px; width: auto; }
table.code td { border: 0; padding: 0 .4em; white-space: pre; font-family: ui-monospace, monospace; }
table.code td.where { color: #888; text-align: right; width: 2.5em; } table.code tr.gap td { color: #888; font-style: italic; }
table.code tr.cell td { font: 600 12px system-ui, sans-serif; color: #555; padding-top: .4em; }
table.flagged td.quoted code { white-space: pre-wrap; overflow-wrap: anywhere; } table.flagged td.quoted { width: 36%; }
.label { font: 600 11px system-ui, sans-serif; border-radius: 3px; padding: 0 .35em;
  background: #eee; margin-left: .3em; white-space: nowrap; } .label.identical, .label.solution { background: #f6c6c6; }
.label.earlier { background: #d8e4f8; } ul.evidence { margin: .3em 0; padding-left: 1.2em; }
mark.c0 { background: #ffe08a; } mark.c1 { background: #b9e4c9; } mark.c2 { background: #c7d7fb; }
mark.c3 { background: #f8c4d8; } mark.c4 { background: #d9c8f5; } mark.c5 { background: #fcd3b0; }
mark.c6 { background: #b8e6ec; } mark.c7 { background: #e4e4a8; }
@media (max-width: 760px) { .side-by-side { grid-template-columns: 1fr; } body { padding: 0 .4em; } }
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _marks(unit: Unit, blocks: Sequence[tuple[int, int]]) -> dict[int, list[tuple[int, int, int]]]:
    """Per line of `unit`: the (start, end, colour) of its marked parts; `blocks` are (start, length)
    in fingerprint positions, coloured by their order."""
    marks: dict[int, list[tuple[int, int, int]]] = {}
    for colour, (start, length) in enumerate(blocks):
        for token in unit.tokens[start:start + length + K - 1]:
            if token.end > token.start:
                marks.setdefault(token.line, []).append((token.start, token.end, colour % COLOURS))
    return marks


def _marked(text: str, marks: Sequence[tuple[int, int, int]]) -> str:
    """`text` escaped, each marked run in its colour's <mark> (adjacent tokens of a colour joined)."""
    out, at = [], 0
    runs: list[list[int]] = []
    for start, end, colour in sorted(marks):
        if runs and runs[-1][2] == colour and not text[runs[-1][1]:start].strip():
            runs[-1][1] = max(runs[-1][1], end)
        elif not runs or start >= runs[-1][1]:
            runs.append([start, end, colour])
    for start, end, colour in runs:
        out.append(_e(text[at:start]) + f'<mark class="c{colour}">{_e(text[start:end])}</mark>')
        at = end
    return "".join(out) + _e(text[at:])


def _side(unit: Unit, blocks: Sequence[tuple[int, int]]) -> str:
    """The lines of `unit` around its marked ones, under their cell's name, and wherever lines are
    left out a row saying how many (lines with no effect were never compared, and are not counted)."""
    marks = _marks(unit, blocks)
    shown = {i for m in marks for i in range(m - CONTEXT, m + CONTEXT + 1)}
    rows, cell, hidden = [], None, 0
    for i, line in enumerate(unit.lines):
        if i not in shown:
            hidden += 1
            continue
        if hidden:
            rows.append(f'<tr class="gap"><td class="where"></td><td>⋯ {hidden} more line(s)</td></tr>')
        if line.cell != cell:
            rows.append(f'<tr class="cell"><td colspan="2">{_e(line.cell)}</td></tr>')
        title = ' title="a loop building this, read as the comprehension it is"' if line.rewritten else ""
        rows.append(f'<tr{title}><td class="where">{line.number}</td><td>{_marked(line.text, marks.get(i, []))}</td></tr>')
        cell, hidden = line.cell, 0
    if hidden:
        rows.append(f'<tr class="gap"><td class="where"></td><td>⋯ {hidden} more line(s)</td></tr>')
    return f"<table class='code'>{''.join(rows)}</table>"


def _unit_name(unit: str) -> str:
    return "the notebook's changed cells" if unit == NOTEBOOK else f"exercise {unit}"


def _evidence(p: Pair) -> str:
    items = [f"{_e(_unit_name(u))}: <span class='share'>{m.shares[0]:.0%}</span> of {_e(p.a.student)}'s code, "
             f"<span class='share'>{m.shares[1]:.0%}</span> of {_e(p.b.student)}'s ({m.matched:g} fingerprints in common)"
             for u, m in p.matches.items() if u in p.listed_for]
    if p.observed:
        items.append("the same rare wrong answers on hidden cases, in exercise(s) "
                     + ", ".join(f"<code>{_e(e)}</code>" for e in p.observed))
    return f"<ul class='evidence'>{''.join(f'<li>{i}</li>' for i in items)}</ul>"


def _labels(p: Pair) -> str:
    labels = []
    if p.identical:
        labels.append("<span class='label identical'>identical files</span>")
    if p.kind == "solution":
        labels.append("<span class='label solution'>close to the solution</span>")
    if p.kind == "earlier":
        labels.append("<span class='label earlier'>an earlier year's</span>")
    return "".join(labels)


def pair_anchor(assignment: str, rank: int) -> str:
    """The page's id of an assignment's `rank`-th pair."""
    return f"pair-{assignment}-{rank}"


def _pair(rank: int, p: Pair) -> str:
    # The notebook holds every exercise: when it lists the pair it is the one view, else each listing exercise.
    units = ([NOTEBOOK] if NOTEBOOK in p.listed_for else [u for u in p.listed_for if u in p.matches]
             or [u for u in p.observed if u in p.matches] or list(p.matches))
    shown = []
    for u in units:
        m = p.matches[u]
        sides = "".join(
            f'<div class="side" data-student="{_e(w.student)}"><h5>{_e(w.student)}</h5>'
            f"{_side(w.units[u], [(b[at], b[2]) for b in m.blocks])}</div>" for at, w in enumerate((p.a, p.b)))
        shown.append(f'<h5 class="unit" data-unit="{_e(u)}">{_e(_unit_name(u))}</h5><div class="side-by-side">{sides}</div>')
    return (f'<article class="pair" id="{_e(pair_anchor(p.assignment, rank))}" data-a="{_e(p.a.student)}" '
            f'data-b="{_e(p.b.student)}" data-kind="{p.kind}" data-rank="{rank}">'
            f'<h4>{rank}. {_e(p.a.student)} and {_e(p.b.student)}: <span class="score">{p.score:.0%}</span>{_labels(p)}</h4>'
            f'{_evidence(p)}{"".join(shown)}</article>')


def _assignment_pairs(s: AssignmentSimilarity) -> str:
    shown = "".join(_pair(i, p) for i, p in enumerate(s.pairs, 1))
    found = f"{len(s.pairs)} listed" if s.pairs else "none listed"
    notes = "".join(f"<li>{_e(n)}</li>" for n in s.notes)
    return (f'<section class="similarity" data-assignment="{_e(s.assignment)}"><h3>{_e(s.assignment)}</h3>'
            f'<p class="summary"><span class="compared">{s.compared}</span> submission(s) with code of their own; '
            f'<span class="found">{found}</span>.</p>{shown}'
            + (f"<details class='notes'><summary>{len(s.notes)} note(s)</summary><ul>{notes}</ul></details>" if notes else "")
            + "</section>")


def _summary_table(found: Sequence[AssignmentSimilarity]) -> str:
    """One row per pair of students (or student and solution), over every assignment: those listed in
    more assignments first, then by their summed score; each assignment links to its pair."""
    rows: dict[tuple[str, str, str], list[tuple[int, Pair]]] = {}
    for s in found:
        for rank, p in enumerate(s.pairs, 1):
            rows.setdefault((p.a.student, p.b.student, p.kind), []).append((rank, p))
    ranked = sorted(rows.items(), key=lambda kv: (-len(kv[1]), -sum(p.score for _, p in kv[1]), kv[0]))
    if not ranked:
        return "<p class='no-pairs'>No pair listed in any assignment.</p>"
    body = []
    for n, ((a, b, kind), listed) in enumerate(ranked, 1):
        links = ", ".join(f'<a href="#{_e(pair_anchor(p.assignment, rank))}">{_e(p.assignment)}</a>' for rank, p in listed)
        exercises = ", ".join(f"{_e(p.assignment)}: {_e(e)}" for _, p in listed for e in p.exercises) or "–"
        evidence = sorted({"code" if any(u != "observations" for u in p.listed_for) else "" for _, p in listed}
                          | {"wrong answers" for _, p in listed if p.observed} | {"identical files" for _, p in listed if p.identical}
                          | {"solution" for _, p in listed if p.kind == "solution"} - {""})
        body.append(f'<tr class="ranked" data-a="{_e(a)}" data-b="{_e(b)}"><td class="num">{n}</td><td>{_e(a)}</td>'
                    f'<td>{_e(b)}</td><td>{links}</td><td>{exercises}</td><td>{_e(", ".join(evidence))}</td>'
                    f'<td class="num">{max(p.score for _, p in listed):.0%}</td></tr>')
    return ("<div class='wide'><table class='pairs-summary'><tr><th class='num'>#</th><th>student</th><th>with</th>"
            "<th>assignments</th><th>exercises</th><th>evidence</th><th class='num'>best</th></tr>"
            f"{''.join(body)}</table></div>")


def similarity_section(records: Sequence[dict[str, Any]], submissions: Path | None, settings: Report | None = None,
                       against: Path | None = None, found: Sequence[AssignmentSimilarity] | None = None) -> str:
    """The similar pairs of every assignment (`found`, else computed), ranked in one table first,
    or a sentence saying how to get them."""
    head = "<h2 id='similar'>Similar submissions</h2>"
    if submissions is None:
        return head + ("<p class='no-submissions'>Not compared: the report needs the submitted notebooks "
                       "(<code>report RESULTS --submissions DIR</code>; <code>make report</code> passes "
                       "<code>SUBMISSIONS</code> when that folder exists).</p>")
    s = settings or Report()
    if found is None:
        found = class_similarity(records, submissions, s, against)
    how = ("Each exercise and the notebook's changed cells are fingerprinted after dropping what has no effect "
           "(comments, docstrings, prints, dead lines) and blanking names; the course's code weighs nothing and code "
           f"that {s.common_share:.0%} of the class shares is an idiom that weighs nothing. A pair is listed when one "
           f"exercise matches at least {s.exercise_threshold:.0%} on both sides, when the notebooks match at least "
           f"{s.threshold:.0%} of one side, or {s.much:g} fingerprints whatever the share, or when the two fail "
           "exercises the same rare way on hidden cases. Matching blocks share a colour on both sides.")
    return (head + f"<p class='summary'>{_e(how)}</p><h3 id='pairs-summary'>All pairs, ranked</h3>"
            + _summary_table(found) + "".join(_assignment_pairs(a) for a in found))


def flagged(records: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    """One row per finding: each entry of a record's `flags`, and each `tampered` record without any."""
    rows = []
    for r in records:
        flags = r.get("flags") if isinstance(r.get("flags"), list) else []
        base = {"student": str(r["student"]), "assignment": str(r["assignment"]), "status": str(r["status"])}
        for f in flags:
            f = f if isinstance(f, dict) else {"reason": f}
            rows.append({**base, "cell": _cell(f.get("cell", "")), "line": str(f.get("line", "")),
                         "code": str(f.get("code", "")), "reason": str(f.get("reason", ""))})
        if r["status"] == "tampered" and not flags:
            rows.append({**base, "cell": "", "line": "", "code": "", "reason": str(r.get("reason", ""))})
    return sorted(rows, key=lambda f: (f["student"], f["assignment"]))


def _cell(cell: Any) -> str:
    """A flag's cell as the page cites cells: the screen records a 0-based index, shown as `cell N` from 1."""
    return f"cell {cell + 1}" if isinstance(cell, int) and not isinstance(cell, bool) else str(cell)


def _flag_row(f: dict[str, str]) -> str:
    where = _e(f["cell"]) + (f":{_e(f['line'])}" if f["line"] else "")
    quoted = f"<code>{_e(f['code'].strip())}</code>" if f["code"].strip() else ""
    return (f'<tr class="flag" data-student="{_e(f["student"])}" data-status="{_e(f["status"])}">'
            f'<td>{_e(f["student"])}</td><td>{_e(f["assignment"])}</td><td class="status">{_e(f["status"])}</td>'
            f'<td class="where">{where}</td><td class="quoted">{quoted}</td><td class="reason">{_e(f["reason"])}</td></tr>')


def flagged_section(records: Iterable[dict[str, Any]]) -> str:
    """The flagged code: who, where, the quoted line and the reason."""
    rows = flagged(records)
    if not rows:
        return "<h2 id='flagged'>Flagged code</h2><p class='no-flags'>None: the grader marked no submission.</p>"
    body = "".join(_flag_row(f) for f in rows)
    return ("<h2 id='flagged'>Flagged code</h2><p class='summary'>"
            f"{len({(f['student'], f['assignment']) for f in rows})} submission(s) the grader marked: "
            "<code>tampered</code> ones scored zero; flagged ones kept their score for you to judge.</p>"
            "<div class='wide'><table class='flagged'><tr><th>student</th><th>assignment</th><th>status</th>"
            f"<th>cell:line</th><th>code</th><th>reason</th></tr>{body}</table></div>")
