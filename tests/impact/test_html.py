"""The HTML report in a real headless Chromium (Debian's ``/usr/bin/chromium`` driven by Playwright): the page opens
from a file with no network, its four charts render with bars, an example round opens, and the console stays clean.

Skipped, with the reason, only where chromium, Playwright's Python package or pygal (the `report` extra) is absent;
never ``playwright install``: the browser is the system's.
"""

from __future__ import annotations

import os

import pytest

from tests.impact.runs import excerpts, report, subset

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

pytest.importorskip("pygal", reason="the `report` extra (pygal) is not installed")


def _page_text() -> str:
    from engine.impact.html import render_html

    # kiriage re-scores wins, double ron and abortive draws change whole rounds: every chart has something to draw
    return render_html(report("house", "mleague", excerpts() + subset()[:3]))


def test_the_page_is_one_offline_file():
    text = _page_text()
    assert text.startswith("<!doctype html>")
    assert text.count("<svg") == 4
    assert "src=" not in text and "<link" not in text  # nothing fetched: no script, stylesheet or image from elsewhere
    assert "limit kiriage" in text and "<details" in text


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no chromium at {CHROMIUM} (Debian's `chromium` package)")
def test_chromium_opens_the_report_and_draws_every_chart(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed")
    page_file = tmp_path / "impact.html"
    page_file.write_text(_page_text(), encoding="utf-8")
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
            page.goto(page_file.as_uri())
            charts = page.locator("svg.pygal-chart")
            assert charts.count() == 4
            for i in range(4):
                box = charts.nth(i).bounding_box()
                assert box is not None and box["width"] > 300 and box["height"] > 100
                bars = charts.nth(i).locator("rect.rect")
                assert bars.count() >= 1
                assert any((bars.nth(j).bounding_box() or {"height": 0})["height"] > 0 for j in range(bars.count()))
            example = page.locator("details.item").first
            example.locator("summary").click()
            assert example.locator("tr").count() >= 2
            assert "rounds change" in page.locator("#summary").inner_text()
        finally:
            browser.close()
    assert errors == []
