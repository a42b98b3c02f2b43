"""`POST /score` takes the request's `liable` and `from` (pao on one hand), as `riichi score --json` does, and the
Score page offers them (its selects are drawn by the template)."""

from __future__ import annotations

DRAGONS = {"hand": "345m99p", "win": "3m", "seat_wind": "S", "melds": [{"type": "pon", "tiles": t} for t in ("555z", "666z", "777z")]}


def test_score_splits_a_pao_ron_by_seat(client):
    answer = client.post("/score", json={**DRAGONS, "liable": "N", "from": "E", "rulebook": "wrc2025"}).json()
    assert answer["payments"] == {"E": 16000, "N": 16000}
    assert answer["liable"] == "N" and answer["liability_clause"]


def test_score_pao_errors_carry_their_codes(client):
    missing_from = client.post("/score", json={**DRAGONS, "liable": "N"})
    assert missing_from.status_code == 400 and missing_from.json()["error"]["code"] == "invalid_request"
    uncovered = client.post("/score", json={**DRAGONS, "melds": [], "hand": "345m99p555666777z", "tsumo": True, "liable": "N"})
    assert uncovered.json()["error"]["code"] == "invalid_situation"
    assert "`liability pao`" in uncovered.json()["error"]["message"]


def test_the_score_page_offers_the_liable_seat_and_the_discarder(client):
    page = client.get("/").text
    assert 'id="liable"' in page and 'id="from"' in page
