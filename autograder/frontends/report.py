"""The class report: one self-contained HTML page of what a class got right and what it misunderstood.

`python -m autograder report RESULTS [--out report.html]` reads the result records the batch
grader wrote and shows, per assignment: the score distribution (a histogram), each exercise's
pass rate, and the most frequent misconceptions (the checks that failed, named and taught as in
the students' feedback, counted once per student) as a bar chart and a table; then every
submission that did not grade normally (`crashed`, `timeout`, `invalid`, `tampered`), with its
reason; then the integrity view (`integrity`): similar submissions side by side (given the
submitted notebooks, `--submissions DIR`) and the code the grader flagged. Plots are matplotlib
PNGs embedded in the page, so it works offline and can be mailed.

Misconceptions are counted over `graded` submissions only: a crash says nothing about what a
student understood. Pass rates count every submission of the assignment (a crash passes nothing).
"""
from __future__ import annotations

import base64
import html
import io
import statistics
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

if TYPE_CHECKING:
    from autograder.frontends.report_settings import Report
    from autograder.frontends.similarity import AssignmentSimilarity

TOP_MISCONCEPTIONS = 3  # per exercise, in the table
TOP_IN_CHART = 10  # per assignment, in the bar chart
NOT_MISCONCEPTIONS = frozenset({"not-implemented"})  # an exercise left undone teaches nothing about a mistake
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")


@dataclass
class Misconception:
    exercise: str
    check: str
    title: str
    teaching: str
    students: int = 0


@dataclass
class ExerciseStats:
    id: str
    max_points: int
    submissions: int = 0
    passed: int = 0
    misconceptions: dict[str, Misconception] = field(default_factory=dict)

    @property
    def pass_rate(self) -> float:
        return self.passed / self.submissions if self.submissions else 0.0

    def top(self, n: int = TOP_MISCONCEPTIONS) -> list[Misconception]:
        return sorted(self.misconceptions.values(), key=lambda m: (-m.students, m.check))[:n]

    def tied_beyond(self, n: int = TOP_MISCONCEPTIONS) -> list[Misconception]:
        """The misconceptions `top(n)` leaves out though as many students showed them as its last."""
        shown = self.top(n)
        return [m for m in self.top(len(self.misconceptions))[n:] if shown and m.students == shown[-1].students]


@dataclass
class AssignmentStats:
    name: str
    max_score: int
    scores: list[float] = field(default_factory=list)
    exercises: dict[str, ExerciseStats] = field(default_factory=dict)


def class_stats(records: Iterable[dict[str, Any]]) -> dict[str, AssignmentStats]:
    """Per assignment (sorted): scores, and per exercise (in lesson order) pass counts and misconceptions."""
    stats: dict[str, AssignmentStats] = {}
    for r in records:
        a = stats.setdefault(r["assignment"], AssignmentStats(r["assignment"], r["max_score"]))
        a.scores.append(r["score"])
        for ex in r.get("exercises", []):
            e = a.exercises.setdefault(ex["id"], ExerciseStats(ex["id"], ex["max_points"]))
            e.submissions += 1
            e.passed += bool(ex["passed"])
            if r["status"] != "graded":
                continue
            for o in ex.get("outcomes", []):
                if o.get("judged", True) and not o["passed"] and o["id"] not in NOT_MISCONCEPTIONS:
                    m = e.misconceptions.setdefault(o["id"], Misconception(ex["id"], o["id"], o["title"], o["message"]))
                    m.students += 1
    return dict(sorted(stats.items()))


def failed_gradings(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records that did not grade normally, by status then student."""
    return sorted((r for r in records if r["status"] != "graded"),
                  key=lambda r: (r["status"], r["student"], r["assignment"]))


# ---- plots --------------------------------------------------------------------------------------

def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def score_histogram(a: AssignmentStats) -> str:
    """Base64 PNG: how many students got each score, with the median marked."""
    import numpy as np
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(6.4, 3.2))
    ax = fig.add_subplot()
    edges = np.arange(-0.5, a.max_score + 1.5, 1.0)
    counts, _, _ = ax.hist(a.scores, bins=edges, color=PALETTE[0], edgecolor="white", label="submissions")
    median = statistics.median(a.scores)
    top = max(counts)
    ax.vlines(median, 0, top * 1.08, color=PALETTE[3], linestyle="--", linewidth=1.5, label=f"median {median:g}")
    ax.set_xlim(-0.5, a.max_score + 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"{a.name}: scores of {len(a.scores)} submission(s)")
    ax.set_xlabel(f"score (points out of {a.max_score})")
    ax.set_ylabel("submissions")
    ax.set_ylim(0, top * 1.3 + 0.5)  # headroom: the legend sits above the bars
    ax.legend(loc="upper center", ncol=2, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)


def misconception_chart(a: AssignmentStats) -> str | None:
    """Base64 PNG: the assignment's most frequent misconceptions, one colour per exercise; None if none."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    ranked = sorted((m for e in a.exercises.values() for m in e.misconceptions.values()),
                    key=lambda m: (-m.students, m.exercise, m.check))[:TOP_IN_CHART]
    if not ranked:
        return None
    colour = {ex: PALETTE[i % len(PALETTE)] for i, ex in enumerate(a.exercises)}
    fig = Figure(figsize=(7.2, 0.42 * len(ranked) + 1.3))
    ax = fig.add_subplot()
    labels = [f"{m.exercise}: {m.check}" for m in ranked]
    ax.barh(range(len(ranked)), [m.students for m in ranked], color=[colour[m.exercise] for m in ranked])
    ax.set_yticks(range(len(ranked)), labels)
    ax.invert_yaxis()  # the most frequent on top
    for i, m in enumerate(ranked):
        ax.text(m.students, i, f" {m.students}", va="center", fontsize=9)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, max(m.students for m in ranked) * 1.12 + 0.5)
    ax.set_title(f"{a.name}: most frequent misconceptions")
    ax.set_xlabel("graded submissions showing it")
    ax.set_ylabel("exercise: failed check")
    shown = list(dict.fromkeys(m.exercise for m in ranked))
    ax.legend(handles=[Patch(color=colour[ex], label=ex) for ex in shown], title="exercise",
              loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False, fontsize=8, title_fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    return _png(fig)


# ---- page ---------------------------------------------------------------------------------------

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 88em; color: #222; padding: 0 1em; }
h1 { margin-bottom: .2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .6em 0 1.2em; width: 100%; }
th, td { text-align: left; padding: .3em .6em; border-bottom: 1px solid #eee; vertical-align: top; }
th { background: #f6f6f6; } td.num, th.num { text-align: right; white-space: nowrap; }
code { white-space: nowrap; } table.misconceptions td:first-child { width: 11em; }
table.misconceptions td:nth-child(2) { width: 16em; }
.bar { background: #e8eef6; width: 9em; height: .9em; display: inline-block; vertical-align: middle; }
.bar span { background: #1f77b4; height: 100%; display: block; }
.summary { color: #555; } img { max-width: 100%; } code { background: #f3f3f3; padding: 0 .25em; }
.status { font-weight: 600; } .wide { overflow-x: auto; } .plots { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _img(png: str, alt: str) -> str:
    return f'<img alt="{_e(alt)}" src="data:image/png;base64,{png}">'


def _assignment_section(a: AssignmentStats) -> str:
    median = statistics.median(a.scores) if a.scores else 0
    plots = [_img(score_histogram(a), f"{a.name}: score histogram")]
    chart = misconception_chart(a)
    if chart:
        plots.append(_img(chart, f"{a.name}: most frequent misconceptions"))
    rates = "".join(
        f'<tr data-exercise="{_e(e.id)}"><td><code>{_e(e.id)}</code></td><td class="num">{e.max_points}</td>'
        f'<td class="num" data-passed="{e.passed}" data-submissions="{e.submissions}">{e.passed}/{e.submissions}</td>'
        f'<td class="num pass-rate">{e.pass_rate:.0%}</td>'
        f'<td><span class="bar"><span style="width:{e.pass_rate:.0%}"></span></span></td></tr>'
        for e in a.exercises.values())
    wrong = "".join("".join(
        f'<tr data-exercise="{_e(m.exercise)}" data-check="{_e(m.check)}"><td><code>{_e(m.exercise)}</code></td>'
        f'<td><code>{_e(m.check)}</code><br>{_e(m.title)}</td><td class="num students">{m.students}</td>'
        f'<td>{_e(m.teaching)}</td></tr>' for m in e.top()) + _tied_row(e) for e in a.exercises.values())
    wrong_table = (f"<div class='wide'><table class='misconceptions'><tr><th>exercise</th><th>failed check</th><th class='num'>students</th>"
                   f"<th>what it teaches</th></tr>{wrong}</table></div>") if wrong else "<p>No misconception: every graded check passed.</p>"
    return (f'<section class="assignment" data-assignment="{_e(a.name)}"><h2>{_e(a.name)}</h2>'
            f'<p class="summary"><span class="count">{len(a.scores)}</span> submission(s), maximum {a.max_score} '
            f'points, median {median:g}.</p><div class="plots">{"".join(plots)}</div>'
            f"<h3>Pass rate per exercise</h3><div class='wide'><table class='pass-rates'><tr><th>exercise</th><th class='num'>points</th>"
            f"<th class='num'>passed</th><th class='num'>rate</th><th></th></tr>{rates}</table></div>"
            f"<h3>Most frequent misconceptions (top {TOP_MISCONCEPTIONS} per exercise, graded submissions)</h3>"
            f"{wrong_table}</section>")


def _tied_row(e: ExerciseStats) -> str:
    """A row naming the misconceptions the table leaves out at the same count as its last; "" if none."""
    tied = e.tied_beyond()
    if not tied:
        return ""
    return (f'<tr class="tied" data-exercise="{_e(e.id)}"><td><code>{_e(e.id)}</code></td>'
            f'<td colspan="3">+{len(tied)} more with {tied[0].students} student(s) each: '
            + ", ".join(f"<code>{_e(m.check)}</code>" for m in tied) + "</td></tr>")


def _failures_section(failed: Sequence[dict[str, Any]]) -> str:
    if not failed:
        return "<h2>Gradings that failed</h2><p class='no-failures'>None: every submission was graded.</p>"
    counts = Counter(r["status"] for r in failed)
    rows = "".join(
        f'<tr class="failed" data-status="{_e(r["status"])}"><td>{_e(r["student"])}</td><td>{_e(r["assignment"])}</td>'
        f'<td class="status">{_e(r["status"])}</td><td>{_e(r.get("reason", ""))}</td></tr>' for r in failed)
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    return (f"<h2>Gradings that failed</h2><p class='summary'>{len(failed)} submission(s): {_e(summary)}. "
            "Their scores are zero; the reason says what to do.</p>"
            f"<div class='wide'><table class='failures'><tr><th>student</th><th>assignment</th><th>status</th><th>reason</th></tr>"
            f"{rows}</table></div>")


def report_html(records: Sequence[dict[str, Any]], title: str = "Class report", submissions: Path | None = None,
                settings: Report | None = None, against: Path | None = None,
                found: Sequence[AssignmentSimilarity] | None = None) -> str:
    """The whole page, from result records (and the submitted notebooks, to compare them, or the
    similarity pass already `found` on them)."""
    from autograder.frontends.integrity import STYLE as INTEGRITY_STYLE
    from autograder.frontends.integrity import flagged_section, similarity_section

    stats = class_stats(records)
    students = len({r["student"] for r in records})
    body = "".join(_assignment_section(a) for a in stats.values())
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
            f"<style>{STYLE}{INTEGRITY_STYLE}</style></head><body><h1>{_e(title)}</h1>"
            f"<p class='summary' id='totals'><span id='students'>{students}</span> student(s), "
            f"<span id='submissions'>{len(records)}</span> submission(s), {len(stats)} assignment(s).</p>"
            f"{body}{_failures_section(failed_gradings(records))}"
            f"{similarity_section(records, submissions, settings, against, found)}{flagged_section(records)}"
            "</body></html>\n")


def write_report(results: Path, out: Path, submissions: Path | None = None, settings: Report | None = None,
                 against: Path | None = None) -> list[Path]:
    """Read every result under `results` and write the class report to `out`; with `submissions`
    (the folder `grade` read), compare the notebooks the results graded (and, with `against`,
    earlier years' submissions) and write the pairs beside it as CSV and JSON. The paths written."""
    from autograder.frontends.similarity import class_similarity
    from autograder.frontends.similarity_export import write_exports
    from autograder.judging.results import atomic_write, read_results

    records = read_results(results)
    if not records:
        raise FileNotFoundError(f"no results in {results}")
    found = class_similarity(records, submissions, settings, against) if submissions is not None else None
    atomic_write(out, report_html(records, f"Class report: {results.resolve().name}", submissions, settings, against,
                                  found))
    return [out, *(write_exports(found, out.parent) if found is not None else ())]
