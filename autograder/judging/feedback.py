"""Render judged exercises as plain text (terminals, JSON, nbgrader) and HTML (JupyterLab)."""
from __future__ import annotations

import html
from dataclasses import asdict
from typing import Any, Sequence

from autograder.engine.untrusted import one_line
from autograder.judging.judge import ExerciseResult, Outcome

MAX_VALUE_CHARS = 160
NOT_JUDGED = "judged once the failure above is fixed"


def format_value(value: Any) -> str:
    """A short one-line rendering of an observed value, in Python's words (None, True), not JSON's;
    a control character in it (a newline, an escape sequence) is shown escaped."""
    text = one_line(value if isinstance(value, str) else repr(value))
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS - 3] + "..."


def _where(outcome: Outcome) -> str:
    if not outcome.case:
        return ""
    if outcome.public:
        return f"on the public case '{outcome.case}'"
    kind = f": {outcome.situation}" if outcome.situation else ""
    return f"on a hidden case{kind} (its inputs and expected values stay hidden)"


def _details(outcome: Outcome) -> list[str]:
    """One line per value shown; a got-vs-expected pair whose two sides read the same is left out: it
    points at nothing wrong ("sessions: got 1, expected 1")."""
    lines = []
    for key, pair in outcome.shown.items():
        if isinstance(pair, dict) and "got" in pair:
            got, expected = format_value(pair["got"]), format_value(pair["expected"])
            if got != expected:
                lines.append(f"{key}: got {got}, expected {expected}")
        else:
            lines.append(f"{key}: {format_value(pair)}")
    return lines


def _outcome_lines(outcomes: Sequence[Outcome], indent: str = "  ") -> list[str]:
    """One line per check, and one per detail of a failure; each on one line whatever its text holds
    (an exception's type named by the submission could otherwise forge a line)."""
    lines = []
    for o in outcomes:
        if o.passed:
            lines.append(f"{indent}PASS  {one_line(o.title)}")
            continue
        if not o.judged:
            lines.append(f"{indent}....  {one_line(o.title)}: {NOT_JUDGED}")
            continue
        where = _where(o)
        lines.append(one_line(f"{indent}FAIL  {o.title} [{o.id}]" + (f", {where}" if where else "")))
        lines.append(f"{indent}      {one_line(o.message)}")
        lines += [f"{indent}      {one_line(d)}" for d in _details(o)]
    return lines


def exercise_text(result: ExerciseResult) -> str:
    """The plain-text feedback of one exercise: a score line, then one line per check."""
    return "\n".join([f"{result.id}: {result.points}/{result.max_points}", *_outcome_lines(result.outcomes)])


def exercise_json(result: ExerciseResult) -> dict[str, Any]:
    """The contract's `{id, points, max_points, passed, feedback}`, plus failed_checks and outcomes
    (`ExerciseResult.from_json` reads it back)."""
    return {"id": result.id, "points": result.points, "max_points": result.max_points,
            "passed": result.passed, "feedback": exercise_text(result),
            "failed_checks": result.failed_checks, "outcomes": [asdict(o) for o in result.outcomes]}


def _outcome_items(outcomes: Sequence[Outcome]) -> str:
    rows = []
    for o in outcomes:
        mark = "&#10004;" if o.passed else "&#10008;" if o.judged else "&#8230;"
        body = f"<b>{html.escape(o.title)}</b>"
        if not o.judged:
            body += f" <span style='color:#57606a'>{html.escape(NOT_JUDGED)}</span>"
        elif not o.passed:
            where = _where(o)
            body += f" <code>[{html.escape(o.id)}]</code>" + (f" {html.escape(where)}" if where else "")
            body += f"<div>{html.escape(o.message)}</div>"
            body += "".join(f"<div><code>{html.escape(d)}</code></div>" for d in _details(o))
        rows.append(f"<li style='list-style:none;margin:4px 0'>"
                    f"<span style='color:{'#1a7f37' if o.passed else '#cf222e'}'>{mark}</span> {body}</li>")
    return f"<ul style='padding-left:6px'>{''.join(rows)}</ul>"


def _html_box(result: ExerciseResult, body: str) -> str:
    colour = "#1a7f37" if result.passed else "#cf222e"
    return (f"<div style='border-left:4px solid {colour};padding:4px 10px;margin:6px 0'>"
            f"<div style='font-weight:bold;color:{colour}'>{html.escape(result.id)}: "
            f"{result.points}/{result.max_points}</div>{body}</div>")


def exercise_html(result: ExerciseResult) -> str:
    """The HTML feedback of one exercise, for JupyterLab and feedback pages."""
    return _html_box(result, _outcome_items(result.outcomes))


Sections = Sequence[tuple[str, Sequence[Outcome]]]
"""Labelled groups of outcomes, e.g. `[("public checks", ...), ("hidden checks", ...)]`."""


def sectioned_text(result: ExerciseResult, sections: Sections) -> str:
    """One exercise's score line, then its outcomes under a label per section."""
    lines = [f"{result.id}: {result.points}/{result.max_points}"]
    for label, outcomes in sections:
        lines += [f"  {label}", *_outcome_lines(outcomes, indent="    ")]
    return "\n".join(lines)


def sectioned_html(result: ExerciseResult, sections: Sections) -> str:
    """`sectioned_text` as HTML."""
    body = "".join(f"<div style='margin-top:4px;color:#57606a'>{html.escape(label)}</div>{_outcome_items(outcomes)}"
                   for label, outcomes in sections)
    return _html_box(result, body)


class Report:
    """What a check cell displays: rich HTML in JupyterLab, plain text everywhere else."""

    def __init__(self, results: Sequence[ExerciseResult], notes: Sequence[str] = ()):
        self.results = list(results)
        self.notes = [n for n in notes if n.strip()]

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def __repr__(self) -> str:
        parts = [exercise_text(r) for r in self.results]
        parts += [f"Note: {n.strip()}" for n in self.notes]
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        notes = "".join(f"<pre style='color:#57606a'>Note: {html.escape(n.strip())}</pre>" for n in self.notes)
        return "".join(exercise_html(r) for r in self.results) + notes


def _record_header(record: dict[str, Any]) -> list[str]:
    """The score line and the status line, each one line whatever the student's folder name or the
    reason hold. How the grader ran (`not_run`: the cells it left out) is the instructor's, in the
    result JSON, not the student's feedback."""
    lines = [f"{record['assignment']}: {record['score']}/{record['max_score']} for {record['student']}"]
    if record["status"] != "graded" or record.get("reason"):
        lines.append(f"status: {record['status']}" + (f" ({record['reason']})" if record.get("reason") else ""))
    return [one_line(line) for line in lines]


def record_text(record: dict[str, Any]) -> str:
    """A student's plain-text feedback for one graded assignment, written afresh from its outcomes."""
    exercises = [exercise_text(ExerciseResult.from_json(e)) + "\n" for e in record["exercises"]]
    return "\n".join(_record_header(record) + [""] + exercises)


def record_html(record: dict[str, Any]) -> str:
    """A student's feedback page for one graded assignment."""
    results = [ExerciseResult.from_json(e) for e in record["exercises"]]
    first, *rest = _record_header(record)
    header = "".join(f"<p>{html.escape(line)}</p>" for line in rest)
    title = html.escape(first)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body style='font-family:sans-serif;max-width:50em;margin:2em auto'><h1>{title}</h1>{header}"
            + "".join(exercise_html(r) for r in results) + "</body></html>\n")
