"""The players' handout over HTTP: ``GET /sheet`` (the page the Compare page links to) and ``POST /sheet`` (a
rulebook sent as text, the Write page's), with the contract's errors for bad input."""

from __future__ import annotations

from tests.cli.test_sheet import HOSTILE


def test_get_sheet_is_a_printable_page(client) -> None:
    response = client.get("/sheet", params={"rulebook": "mleague", "against": "wrc2025"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    page = response.text
    assert page.startswith("<!DOCTYPE html>") and "@media print" in page
    assert "<h3>Non-dealer ron</h3>" in page and "<td>3,900</td>" in page
    assert '<span class="mark">≠ wrc2025: 30,000</span>' in page


def test_get_sheet_as_markdown(client) -> None:
    response = client.get("/sheet", params={"rulebook": "house", "format": "md"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/markdown")
    assert response.text.startswith("# Site house rules (four-player riichi)") and "### Dealer tsumo" in response.text


def test_get_sheet_of_an_unknown_rulebook(client) -> None:
    response = client.get("/sheet", params={"rulebook": "nosuch"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_rulebook"
    assert client.get("/sheet", params={"rulebook": "house", "format": "pdf"}).status_code == 400


def test_post_sheet_of_text_escapes_it(client) -> None:
    response = client.post("/sheet", json={"rulebook": {"text": HOSTILE, "file": "hostile.rulebook"}, "against": "house"})
    assert response.status_code == 200
    answer = response.json()
    assert answer["ok"] and answer["format"] == "html"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in answer["text"] and "<script" not in answer["text"]
    assert "≠ house: 1 han, open or closed" in answer["text"]


def test_post_sheet_of_a_rulebook_with_errors(client) -> None:
    response = client.post("/sheet", json={"rulebook": {"text": 'rulebook x "x" extends house\nyaku a {', "file": "x.rulebook"}})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_rulebook"
