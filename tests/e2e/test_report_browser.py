"""The class report in a real browser: it renders offline, and the numbers it shows are the results'."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.frontends.report import class_stats, failed_gradings
from tests.synthetic_class import write_synthetic_class

pytestmark = pytest.mark.e2e
DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "img" / "class_report.png"


def test_class_report_renders_and_matches_the_results(tmp_path, page, artifacts):
    results = tmp_path / "results"
    records = write_synthetic_class(results)
    run = subprocess.run([sys.executable, "-m", "autograder", "report", str(results), "--out", str(tmp_path / "r.html")],
                         capture_output=True, text=True, timeout=300)
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
        section = page.locator(f'section[data-assignment="{name}"]')
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
    section = page.locator('section[data-assignment="02_rebuild_vs_feed"]')
    top, bottom = section.bounding_box(), section.locator("table.pass-rates").bounding_box()
    page.screenshot(path=str(artifacts / "class_report_section.png"), full_page=True,
                    clip={"x": top["x"] - 10, "y": top["y"] - 10, "width": top["width"] + 20,
                          "height": bottom["y"] + bottom["height"] - top["y"] + 20})
    if not DOCS_SCREENSHOT.exists():  # the docs' picture: made here, from the synthetic class, once
        shutil.copy(artifacts / "class_report_section.png", DOCS_SCREENSHOT)
