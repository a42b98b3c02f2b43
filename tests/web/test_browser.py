"""The pages in a real headless Chromium (Debian's ``/usr/bin/chromium`` driven by Playwright), on a phone-sized
screen: score a hand by tapping tiles, see a diagnostic appear while editing a rulebook, open a diff.

Skipped, with the reason, only where chromium or Playwright's Python package is absent (``.ci/run`` installs
both); never ``playwright install``: the browser is the system's.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no chromium at {CHROMIUM} (Debian's `chromium` package; .ci/run installs it)", allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed")
pytest.importorskip("uvicorn", reason="the web server needs the `web` extra")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``riichi serve`` as an operator starts it, on a free port of 127.0.0.1."""
    port = _free_port()
    process = subprocess.Popen(
        # a generous bound on checks and diffs: these tests check the pages, and a loaded machine slows a diff
        [sys.executable, "-m", "engine.cli", "serve", "--port", str(port), "--timeout", "300"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # start-up imports the web stack: slow on a loaded machine
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(base + "/health", timeout=1):
                    break
            except OSError:
                if process.poll() is not None:
                    pytest.fail(f"riichi serve exited: {process.stderr.read().decode() if process.stderr else ''}")
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, tmp_path):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(180_000)
    yield page
    context.close()


def test_score_a_hand_by_tapping_tiles(server, page, tmp_path):
    page.goto(server + "/")
    for code in ["2m", "3m", "4m", "5m", "6m", "7m", "7p", "8p", "9p", "4s", "6s", "8p", "8p"]:
        page.click(f'#palette [data-tile="{code}"]')
    assert page.get_attribute('[data-target="win"]', "aria-pressed") == "true"  # the hand is full: the win next
    page.click('#palette [data-tile="5s"]')
    page.select_option("#seat", "S")
    page.check('[data-flag="riichi"]')
    page.click('[data-target="dora"]')
    page.click('#palette [data-tile="4s"]')
    page.wait_for_function("document.querySelector('#result .total')?.textContent === '2,600'")
    assert "2 han 40 fu" in page.text_content("#result .head")
    assert "Riichi" in page.text_content("#result table") and "WRC" in page.text_content("#result .clause")
    page.select_option("#compare", "wrc2025")
    page.wait_for_selector('#result-compare [data-rulebook="wrc2025"] .total')
    assert page.text_content("#difference") == "Both rulebooks pay the same."
    # wrc2025 extends house and keeps house's riichi line: its card says whose clause that is
    inherited = page.text_content('#result-compare [data-rulebook="wrc2025"] table')
    assert "from house: " in inherited and "from house: " not in page.text_content("#result table")
    page.click('#hand [aria-label="remove 8 of circles"] >> nth=0')  # take a tile back
    assert page.text_content("#hand-count") == "12/13"
    page.screenshot(path=str(tmp_path / "score.png"), full_page=True)
    assert (tmp_path / "score.png").stat().st_size > 10_000


def test_the_score_form_sends_every_situation_field(server, page):
    """The form offers the request's newer situation fields too: the dealer's wins in a row (paarenchan) and the
    open-riichi flags, sent with the hand."""
    page.goto(server + "/")
    page.fill('[data-counter="dealer_consecutive_wins"]', "3")
    page.fill('[data-counter="honba"]', "2")
    page.check('[data-flag="discarder_in_riichi"]')
    page.check('[data-flag="riichi"]')
    for code in ["2m", "3m", "4m", "5m", "6m", "7m", "7p", "8p", "9p", "4s", "6s", "8p", "8p"]:
        page.click(f'#palette [data-tile="{code}"]')
    with page.expect_request(lambda r: r.url.endswith("/score") and r.method == "POST") as sent:
        page.click('#palette [data-tile="5s"]')
    request = json.loads(sent.value.post_data or "null")[0]
    assert sent.value.headers["content-type"] == "application/json"  # the server answers 415 to anything else
    assert request["dealer_consecutive_wins"] == 3 and request["discarder_in_riichi"] is True
    assert request["honba"] == 2 and request["kita"] == 0 and request["riichi_sticks"] == 0
    assert request["open_riichi"] is False and request["riichi"] is True


def test_the_score_form_scores_pao(server, page):
    """The Score page offers the liable seat and a ron's discarder; the answer names each payer by seat."""
    page.goto(server + "/")
    page.select_option("#seat", "S")
    page.select_option("#from", "N")
    page.select_option("#liable", "W")
    page.click('[data-target="pon"]')
    for code in ["5z"] * 3 + ["6z"] * 3 + ["7z"] * 3:
        page.click(f'#palette [data-tile="{code}"]')
    page.click('[data-target="hand"]')
    for code in ["1m", "2m", "3m", "5p"]:
        page.click(f'#palette [data-tile="{code}"]')
    with page.expect_request(lambda r: r.url.endswith("/score") and r.method == "POST") as sent:
        page.click('#palette [data-tile="5p"]')
    request = json.loads(sent.value.post_data or "null")[0]
    assert request["liable"] == "W" and request["from"] == "N"
    page.wait_for_function("document.querySelector('#result .total')?.textContent === '32,000'")
    pays = page.text_content("#result .pays") or ""
    assert "West (liable) 16,000" in pays and "North 16,000" in pays
    assert "liability:" in (page.text_content("#result .liability") or "")


def test_the_palette_follows_the_rulebooks_tile_set(server, page):
    """No red five under a rulebook without them, no 2m-8m under a three-player one; a placed tile the new
    rulebook does not have goes back, with a notice."""
    page.goto(server + "/")
    assert page.locator('#palette [data-tile="0p"]').count() == 1  # the default rulebook plays with red fives
    page.click('#palette [data-tile="0p"]')
    page.select_option("#rulebook", "tenhou_nored")
    page.wait_for_selector('#palette[data-rulebook="tenhou_nored"]')
    for red in ("0m", "0p", "0s"):
        assert page.locator(f'#palette [data-tile="{red}"]').count() == 0, red
    assert page.locator("#palette .tile-button").count() == 34
    assert page.locator("#hand [data-tile]").count() == 0 and "red 5 of circles" in page.text_content("#result")
    page.select_option("#rulebook", "tenhou_sanma")
    page.wait_for_selector('#palette[data-rulebook="tenhou_sanma"]')
    tiles = set(page.eval_on_selector_all("#palette [data-tile]", "nodes => nodes.map((n) => n.dataset.tile)"))
    assert not {f"{n}m" for n in range(2, 9)} & tiles and {"1m", "9m", "0p", "0s"} <= tiles and "0m" not in tiles
    page.select_option("#rulebook", "tenhou")
    page.wait_for_selector('#palette[data-rulebook="tenhou"]')
    assert page.locator('#palette [data-tile="0m"]').count() == 1 and page.locator('#palette [data-tile="5m"]').count() == 1


def test_a_diagnostic_appears_while_editing_a_rulebook(server, page):
    page.goto(server + "/editor")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#check-summary.good")
    text = page.input_value("#source")
    page.fill("#source", text.replace("has_triplet(tile_of(x, n)) and", "has_triplett(tile_of(x, n)) and", 1))
    diagnostic = page.wait_for_selector("pre.diag.error")
    rendered = diagnostic.text_content() or ""
    assert "myclub.rulebook:8:5: error:" in rendered and "`has_triplett`" in rendered
    assert "^^^" in rendered and "did you mean `has_triplet`" in rendered
    assert "1 error" in (page.text_content("#check-summary") or "")
    assert page.query_selector("#highlight .line-error") is not None
    diagnostic.click()  # to the line: its item explained
    page.wait_for_function("document.querySelector('#explain-item').textContent === 'yaku sanrenkou'")
    assert "club rule 4.2" in (page.text_content("#explain") or "")


def test_open_a_diff_with_witness_hands(server, page):
    page.goto(server + "/compare?a=house&b=wrc2025&hands=300")
    summary = page.wait_for_selector("#diff-summary")
    assert "rules differ" in (summary.text_content() or "")
    card = page.wait_for_selector("article.change:has(.witness-hand)")
    assert len(card.query_selector_all(".witness-hand img.tile")) >= 14
    assert "house" in (card.text_content() or "") and "wrc2025" in (card.text_content() or "")


def test_a_flow_rule_is_shown_on_its_scenario(server, page):
    page.goto(server + "/compare?a=tenhou&b=mleague&hands=50")
    page.wait_for_selector("#diff-summary")
    card = page.wait_for_selector("article.change:has(.scenario)")
    text = card.text_content() or ""
    assert "tenhou" in text and "mleague" in text
    kinds = [e.text_content() for e in page.query_selector_all("article.change:has(.scenario) h3 code")]
    assert "setting multiple_ron" in kinds and "setting uma" in kinds
    assert "no hand shows it" not in (page.text_content("#diff-result") or page.content())


def test_compare_an_uploaded_rulebook(server, page, tmp_path):
    from engine.web.pages import STARTER

    upload = tmp_path / "myclub.rulebook"
    upload.write_text(STARTER)
    page.goto(server + "/compare?hands=100")
    page.select_option("#diff-a", "house")
    page.set_input_files("#upload-b", str(upload))
    # the page reads the file asynchronously, then selects it
    page.wait_for_function("document.getElementById('diff-b').value === '@upload'")
    assert page.input_value("#diff-b") == "@upload"
    page.click("#diff-run")
    page.wait_for_selector("#diff-summary")
    items = [e.text_content() for e in page.query_selector_all("article.change h3 code")]
    assert "yaku sanrenkou" in items and "abortive_draw suufon_renda" in items


def test_compare_labels_one_change_and_the_whole_club_truthfully(server, page, tmp_path):
    """A club file (30,000 points, uma 30-10): the final table's card shows house, "house + `uma` only" and the
    club's own result (+40/+10/-20/-50) under the club's name, never one change alone under it."""
    upload = tmp_path / "myclub.rulebook"
    upload.write_text(
        'rulebook myclub "club" extends house\n@clause("club rule 1")\noverride settings table {\n  start_points = 30000\n}\n'
        '@clause("club rule 2")\noverride settings game {\n  uma = [30, 10, -10, -30]\n}\n'
    )
    page.goto(server + "/compare?hands=10")
    page.select_option("#diff-a", "house")
    page.set_input_files("#upload-b", str(upload))
    page.wait_for_function("document.getElementById('diff-b').value === '@upload'")
    page.click("#diff-run")
    page.wait_for_selector("#diff-summary")
    page.wait_for_selector("article.change .scenario")
    card = next(c for c in page.query_selector_all("article.change") if (c.query_selector("h3 code").text_content() or "") == "setting uma")
    boxes = [b.text_content() or "" for b in card.query_selector_all(".scenario .score-box")]
    assert boxes[1].startswith("house + `uma` only") and "+45.0" in boxes[1]
    assert boxes[2].startswith("myclub") and "+40.0 / +10.0 / -20.0 / -50.0" in boxes[2]


def test_api_docs_open_offline(server, page):
    page.goto(server + "/docs")
    page.wait_for_selector('.opblock-summary-path[data-path="/score"]')
    assert page.query_selector('.opblock-summary-path[data-path="/diff"]') is not None


def test_open_an_impact_report_of_the_sample_games(server, page):
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page.goto(server + "/impact?a=tenhou&b=mleague")
    table = page.wait_for_selector("#impact-table")
    rows = {r.query_selector("td code").text_content(): r.text_content() for r in table.query_selector_all("tbody tr:has(td code)")}
    assert "limit kiriage" in rows and "setting multiple_ron" in rows
    assert "tenhou → mleague" in (page.text_content("#impact-summary") or "")
    card = page.wait_for_selector("article.win-card:has(.witness-hand)")
    assert len(card.query_selector_all(".witness-hand img.tile")) >= 14  # the hand drawn as tiles
    assert "before (tenhou)" in (card.text_content() or "") and "mangan" in (card.text_content() or "")
    assert "diverge" in (page.text_content("#impact-games") or "")
    assert "null" not in (page.text_content("#impact-result") or "")
    assert page.query_selector("#impact-diverged li") is not None
    # on a phone the page does not scroll sideways (the wide table scrolls in its own box)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert missing == [] and errors == []
    assert all(url.startswith(server) for url in requests)  # offline: nothing from elsewhere


def test_open_an_impact_report_file(server, page, tmp_path):
    import json

    from engine.impact import run_impact
    from engine.web.impact import sample_paths

    report = run_impact("tenhou", "mleague", sample_paths(None)[:1], workers=1, flow=False).to_json()
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report))
    page.goto(server + "/impact")
    page.set_input_files("#impact-upload", str(path))
    page.wait_for_selector("#impact-table")
    assert "limit kiriage" in (page.text_content("#impact-table") or "")
    assert page.query_selector("article.win-card .witness-hand img.tile") is not None
    (tmp_path / "not-a-report.json").write_text('{"hello": 1}')
    page.set_input_files("#impact-upload", str(tmp_path / "not-a-report.json"))
    page.wait_for_selector("#impact-result .error")
    assert "not a report" in (page.text_content("#impact-result .error") or "")


def test_the_compare_page_links_to_the_players_handout(server, page):
    """Compare's link opens B's handout with A's differences marked: the payment tables, computed."""
    page.goto(server + "/compare")
    page.select_option("#diff-a", "wrc2025")
    page.select_option("#diff-b", "mleague")
    assert page.get_attribute("#sheet-link", "href") == "/sheet?rulebook=mleague&format=html&against=wrc2025"
    page.click("#sheet-link")
    page.wait_for_selector("h3:text('Non-dealer ron')")
    assert page.title().startswith("M-League")
    ron = page.locator("table.pay").first
    assert "3,900" in (ron.text_content() or "") and page.locator("table.pay").count() == 4
    assert "≠ wrc2025: 30,000" in (page.text_content("body") or "")


def test_the_write_page_opens_the_handout_of_its_text(server, page):
    page.goto(server + "/editor")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#check-summary.good")
    page.click("#sheet")
    page.wait_for_selector("h3:text('Dealer tsumo')")
    assert "Three consecutive triplets" in (page.text_content("body") or "")
