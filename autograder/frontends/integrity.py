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

from autograder.frontends.similarity import (
    MIN_MATCH,
    MUCH,
    THRESHOLD,
    AssignmentSimilarity,
    Pair,
    Written,
    class_similarity,
)

PAIRS_SHOWN = 25  # per assignment, side by side; the count says how many more there are
LINES_SHOWN = 40  # per side of a pair

STYLE = """
.pair { border: 1px solid #ddd; border-radius: 4px; margin: .8em 0; padding: .4em .8em; }
.pair h4 { margin: .3em 0; } .side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: .8em; }
.side-by-side > div { min-width: 0; overflow-x: auto; } table.code { margin: 0; font-size: 12.5px; }
table.code td { border: 0; padding: 0 .4em; white-space: pre; font-family: ui-monospace, monospace; }
table.code td.where { color: #888; text-align: right; width: 2.5em; } table.code tr.gap td { color: #aaa; }
table.code tr.cell td { font: 600 12px system-ui, sans-serif; color: #555; padding-top: .4em; }
mark { background: #ffe08a; } table.flagged td.quoted code { white-space: pre-wrap; overflow-wrap: anywhere; }
table.flagged td.quoted { width: 36%; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _side(w: Written, spans: Sequence[tuple[int, int]]) -> str:
    """The lines of `w` that hold a shared span, under their cell's name, the shared parts marked;
    a gap row where lines are skipped."""
    rows, start, last, cell = [], 0, -1, None
    for number, line in enumerate(w.code.split("\n")):
        end = start + len(line)
        cuts = sorted((max(s, start) - start, min(e, end) - start) for s, e in spans if s < end and e > start)
        if cuts and len(rows) < LINES_SHOWN:
            label, line_number = w.where[number]
            if label != cell:
                rows.append(f'<tr class="cell"><td colspan="2">{_e(label)}</td></tr>')
            elif number != last + 1:
                rows.append('<tr class="gap"><td class="where"></td><td>⋯</td></tr>')
            text, at = [], 0
            for s, e in cuts:
                s = max(s, at)
                text.append(_e(line[at:s]) + (f"<mark>{_e(line[s:e])}</mark>" if e > s else ""))
                at = max(at, e)
            text.append(_e(line[at:]))
            rows.append(f'<tr><td class="where">{line_number}</td><td>{"".join(text)}</td></tr>')
            last, cell = number, label
        start = end + 1
    return f"<table class='code'>{''.join(rows)}</table>"


def _pair(rank: int, p: Pair) -> str:
    sides = "".join(
        f'<div class="side" data-student="{_e(w.student)}"><h5>{_e(w.student)}: {share:.0%} of their code</h5>'
        f"{_side(w, spans)}</div>" for w, share, spans in zip((p.a, p.b), p.similarity, p.spans))
    return (f'<article class="pair" data-a="{_e(p.a.student)}" data-b="{_e(p.b.student)}" data-rank="{rank}">'
            f'<h4>{rank}. {_e(p.a.student)} and {_e(p.b.student)}: <span class="score">{p.score:.0%}</span> '
            f'similar, {p.matched} characters of code in common</h4><div class="side-by-side">{sides}</div></article>')


def _assignment_pairs(s: AssignmentSimilarity) -> str:
    shown = "".join(_pair(i, p) for i, p in enumerate(s.pairs[:PAIRS_SHOWN], 1))
    more = len(s.pairs) - PAIRS_SHOWN
    found = (f"{len(s.pairs)} pair(s) above the threshold" + (f", the first {PAIRS_SHOWN} shown" if more > 0 else "")
             if s.pairs else "no pair above the threshold")
    notes = "".join(f"<li>{_e(n)}</li>" for n in s.notes)
    return (f'<section class="similarity" data-assignment="{_e(s.assignment)}"><h3>{_e(s.assignment)}</h3>'
            f'<p class="summary"><span class="compared">{s.compared}</span> submission(s) with code of their own; '
            f'<span class="found">{found}</span>.</p>{shown}'
            + (f"<details class='notes'><summary>{len(s.notes)} note(s)</summary><ul>{notes}</ul></details>" if notes else "")
            + "</section>")


def similarity_section(records: Sequence[dict[str, Any]], submissions: Path | None) -> str:
    """The similar pairs of every assignment, or a sentence saying how to get them."""
    head = "<h2 id='similar'>Similar submissions</h2>"
    if submissions is None:
        return head + ("<p class='no-submissions'>Not compared: the report needs the submitted notebooks "
                       "(<code>report RESULTS --submissions DIR</code>; <code>make report</code> passes "
                       "<code>SUBMISSIONS</code> when that folder exists).</p>")
    how = ("What each student wrote (the code cells that are not the released notebook's or the solution's) "
           "fingerprinted as MOSS does, the course's code ignored; a pair is listed when it shares at least "
           f"{MIN_MATCH} characters of tokenised code and that is at least {THRESHOLD:.0%} of one side's code, or at least "
           f"{MUCH} characters whatever the share; the most similar first. Shared code is marked; names do "
           "not matter (renaming hides nothing).")
    return head + f"<p class='summary'>{_e(how)}</p>" + "".join(
        _assignment_pairs(s) for s in class_similarity(records, submissions))


def flagged(records: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    """One row per finding: each entry of a record's `flags`, and each `tampered` record without any."""
    rows = []
    for r in records:
        flags = r.get("flags") if isinstance(r.get("flags"), list) else []
        base = {"student": str(r["student"]), "assignment": str(r["assignment"]), "status": str(r["status"])}
        for f in flags:
            f = f if isinstance(f, dict) else {"reason": f}
            rows.append({**base, "cell": str(f.get("cell", "")), "line": str(f.get("line", "")),
                         "code": str(f.get("code", "")), "reason": str(f.get("reason", ""))})
        if r["status"] == "tampered" and not flags:
            rows.append({**base, "cell": "", "line": "", "code": "", "reason": str(r.get("reason", ""))})
    return sorted(rows, key=lambda f: (f["student"], f["assignment"]))


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
            "<table class='flagged'><tr><th>student</th><th>assignment</th><th>status</th><th>cell:line</th>"
            f"<th>code</th><th>reason</th></tr>{body}</table>")
