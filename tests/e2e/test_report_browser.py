"""The class report in a real browser: it renders offline, the numbers it shows are the results', and
its integrity view shows the copied pair side by side and the flagged line."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.frontends.report import class_stats, failed_gradings
from tests.integrity_class import COPIES, LEAKER, LESSONS, write_integrity_class
from tests.synthetic_class import ASSIGNMENTS, COPIED, FLAGS, OWN_WORK, write_synthetic_class

pytestmark = pytest.mark.e2e
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
DOCS_SCREENSHOT = DOCS_IMG / "class_report.png"
DOCS_INTEGRITY = DOCS_IMG / "class_report_integrity.png"


def test_class_report_renders_and_matches_the_results(tmp_path, page, artifacts):
    results, submitted = tmp_path / "results", tmp_path / "submitted"
    records = write_synthetic_class(results, submissions=submitted)
    run = subprocess.run([sys.executable, "-m", "autograder", "report", str(results), "--out", str(tmp_path / "r.html"),
                          "--submissions", str(submitted)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((tmp_path / "r.html").as_uri())

    assert not [u for u in requests if not u.startswith(("file:", "data:"))], "the page fetched something"
    assert page.locator("#students").inner_text() == str(len({r["student"] for r in records}))
    assert page.locator("#submissions").inner_text() == str(len(records))
    images = page.locator("img")
    assert images.count() == 4
    assert all(images.nth(i).evaluate("i => i.complete && i.naturalWidth > 300") for i in range(images.count()))

    for name, a in class_stats(records).items():
        section = page.locator(f'section.assignment[data-assignment="{name}"]')
        assert section.locator(".count").inner_text() == str(len(a.scores))
        for e in a.exercises.values():
            row = section.locator(f'table.pass-rates tr[data-exercise="{e.id}"]')
            assert row.locator("td").nth(2).inner_text() == f"{e.passed}/{e.submissions}"
            assert row.locator(".pass-rate").inner_text() == f"{e.pass_rate:.0%}"
            for m in e.top():
                cell = section.locator(f'table.misconceptions tr[data-exercise="{e.id}"][data-check="{m.check}"]')
                assert cell.locator(".students").inner_text() == str(m.students)
                assert m.teaching in cell.inner_text()
    failed = page.locator("table.failures tr.failed")
    expected = failed_gradings(records)
    assert failed.count() == len(expected)
    for i, r in enumerate(expected):
        cells = failed.nth(i).locator("td").all_inner_texts()
        assert cells == [r["student"], r["assignment"], r["status"], r["reason"]]

    page.set_viewport_size({"width": 1100, "height": 900})
    page.screenshot(path=str(artifacts / "class_report.png"), full_page=False)
    # One assignment's plots and pass rates, for the instructor guide.
    section = page.locator('section.assignment[data-assignment="02_rebuild_vs_feed"]')
    top, bottom = section.bounding_box(), section.locator("table.pass-rates").bounding_box()
    page.screenshot(path=str(artifacts / "class_report_section.png"), full_page=True,
                    clip={"x": top["x"] - 10, "y": top["y"] - 10, "width": top["width"] + 20,
                          "height": bottom["y"] + bottom["height"] - top["y"] + 20})
    if not DOCS_SCREENSHOT.exists():  # the docs' picture: made here, from the synthetic class, once
        shutil.copy(artifacts / "class_report_section.png", DOCS_SCREENSHOT)

    # The integrity view: the copied pair first, side by side; no pair for the students who share only the release.
    similar = page.locator(f'section.similarity[data-assignment="{ASSIGNMENTS[0]}"]')
    pairs = similar.locator("article.pair")
    assert pairs.count() == 1
    first = pairs.first
    assert (first.get_attribute("data-a"), first.get_attribute("data-b")) == COPIED
    first = first.locator('.side-by-side').first
    assert page.locator(f'article.pair[data-a="{OWN_WORK[0]}"][data-b="{OWN_WORK[1]}"]').count() == 0
    assert page.locator(f'section.similarity[data-assignment="{ASSIGNMENTS[1]}"] article.pair').count() == 0
    sides = first.locator("div.side")
    assert sides.count() == 2
    left, right = (sides.nth(i).bounding_box() for i in range(2))
    assert abs(left["y"] - right["y"]) < 2 and right["x"] >= left["x"] + left["width"], "the sides are not side by side"
    for i in range(2):
        assert sides.nth(i).locator("mark").count() > 3 and sides.nth(i).locator("mark").first.is_visible()
    assert "self.my_" in sides.nth(1).inner_text() and "self.my_" not in sides.nth(0).inner_text()
    flags = page.locator("table.flagged tr.flag")
    kemal = page.locator('table.flagged tr.flag[data-student="kemal"]')
    assert kemal.count() == 1 and kemal.is_visible()
    flag = FLAGS["kemal"][0]
    assert kemal.locator("td.where").inner_text() == f"{flag['cell']}:{flag['line']}"
    assert kemal.locator("td.quoted").inner_text() == flag["code"].strip()
    assert kemal.locator("td.reason").inner_text() == flag["reason"]
    assert flags.count() == 2 and page.locator('table.flagged tr.flag[data-status="tampered"]').count() == 1
    # For the instructor guide: the copied pair's top and the flagged code.
    heading = page.locator("#similar").bounding_box()
    table = page.locator("table.flagged").bounding_box()
    page.screenshot(path=str(artifacts / "class_report_integrity.png"), full_page=True,
                    clip={"x": heading["x"] - 10, "y": heading["y"] - 10, "width": heading["width"] + 20,
                          "height": table["y"] + table["height"] - heading["y"] + 20})
    if not DOCS_INTEGRITY.exists():
        shutil.copy(artifacts / "class_report_integrity.png", DOCS_INTEGRITY)


def _fits(page, width: int) -> None:
    """Nothing on the page is wider than the window (code scrolls inside its own box)."""
    page.set_viewport_size({"width": width, "height": 900})
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"the page scrolls sideways at {width} px"


def test_integrity_view_links_colours_and_widths(tmp_path, page, artifacts):
    results, submitted = tmp_path / "results", tmp_path / "submitted"
    from autograder.judging.results import write_result

    for r in write_integrity_class(submitted):
        write_result(results, r)
    run = subprocess.run([sys.executable, "-m", "autograder", "report", str(results), "--out", str(tmp_path / "r.html"),
                          "--submissions", str(submitted)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    page.goto((tmp_path / "r.html").as_uri())

    # The ranked table: one row per pair of students, linking each assignment's pair; every link lands on its pair.
    rows = page.locator("table.pairs-summary tr.ranked")
    assert rows.count() >= 12
    links = page.locator("table.pairs-summary a")
    for i in range(links.count()):
        target = links.nth(i).get_attribute("href")
        links.nth(i).click()
        assert page.evaluate("location.hash") == target
        assert page.locator(target).is_visible() and page.locator(target).evaluate("e => e.tagName") == "ARTICLE"
    # Evidence combined across assignments: a pair copied in both lessons is one row with two links.
    both = {tuple(sorted(p)) for p in COPIES[LESSONS[0]].values()} & {tuple(sorted(p)) for p in COPIES[LESSONS[1]].values()}
    for a, b in both:
        assert page.locator(f'tr.ranked[data-a="{a}"][data-b="{b}"] a').count() == 2
    exact = COPIES[LESSONS[0]]["exact"]
    assert "identical files" in page.locator(f'article.pair[data-a="{exact[0]}"][data-b="{exact[1]}"] h4').inner_text()
    leak = page.locator(f'article.pair[data-kind="solution"][data-a="{LEAKER}"]')
    assert leak.count() == 1 and "close to the solution" in leak.locator("h4").inner_text()

    # A reordered copy: its blocks are paired by colour, each colour on both sides.
    reordered = COPIES[LESSONS[0]]["reordered"]
    pair = page.locator(f'article.pair[data-a="{reordered[0]}"][data-b="{reordered[1]}"] .side-by-side').first
    colours = [set(pair.locator("div.side").nth(i).locator("mark").evaluate_all("ms => ms.map(m => m.className)"))
               for i in range(2)]
    assert len(colours[0]) >= 2 and colours[0] == colours[1]
    # Nothing cut silently: every left-out run of lines says how many.
    gaps = page.locator("tr.gap").all_inner_texts()
    assert gaps and all(t.strip().startswith("⋯ ") and t.strip().endswith("more line(s)") for t in gaps)

    _fits(page, 1920)
    box = [pair.locator("div.side").nth(i).bounding_box() for i in range(2)]
    assert abs(box[0]["y"] - box[1]["y"]) < 2, "not side by side at 1920 px"
    page.screenshot(path=str(artifacts / "integrity_1920.png"), full_page=False)
    _fits(page, 420)
    box = [pair.locator("div.side").nth(i).bounding_box() for i in range(2)]
    assert box[1]["y"] >= box[0]["y"] + box[0]["height"] - 1, "the sides should stack at 420 px"
    assert all(b["x"] + b["width"] <= 420 for b in box)
    page.locator("#pairs-summary").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "integrity_420.png"), full_page=False)
