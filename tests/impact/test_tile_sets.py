"""``riichi impact`` from a rulebook with red fives to one without: the logs' red fives play as
plain fives under B, rounds are compared instead of diverging at the deal, the han a red five gave is charged to
``setting red_fives`` (not to a kiriage B adds), and the report says once, in words, how the tiles were mapped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.tiles import parse_tiles
from engine.impact.report import render_markdown, render_text
from engine.impact.tiles import fit_round, mapping_note
from engine.replay.events import RoundStart, Tsumo
from tests.impact.runs import item, report
from tests.spec_files import TENHOU

CLUB = str(Path(__file__).parent / "data" / "no_red_kiriage.rulebook")
LOGS = tuple(TENHOU / "excerpts" / name for name in ("ranked_game.json", "chankan.json", "suukantsu_1.json"))
SENTENCE = "red fives play as plain fives under B"


@pytest.fixture(scope="module")
def club() -> dict:
    return report("house", CLUB, LOGS, workers=1)


def test_rounds_with_red_fives_are_compared_not_diverged(club: dict) -> None:
    resettled = club["rounds_resettled"]
    assert resettled["compared"] >= 5 and resettled["diverged"] == 0
    assert resettled["changed"] >= 4  # every red five lost costs its winner a han
    assert club["games"]["compared"] >= 1


def test_the_red_five_han_drop_is_charged_to_red_fives_not_kiriage(club: dict) -> None:
    reds, kiriage = item(club, "setting red_fives"), item(club, "limit kiriage")
    four_thirty = [e for e in reds["examples"] if (e["a"]["han"], e["a"]["fu"], e["b"]["han"]) == (4, 30, 3)]
    assert four_thirty, "the 4 han 30 fu ron that drops to 3 han 30 fu without its red five"
    assert kiriage["wins"] == 0 and kiriage["examples"] == []
    assert reds["wins"] == club["changed_wins"] and club["points_interaction"] == 0


def test_the_mapping_is_said_once_in_text_markdown_and_json(club: dict, capsys: pytest.CaptureFixture[str]) -> None:
    assert club["tiles"].startswith(SENTENCE) and "0m, 0p, 0s" in club["tiles"]
    assert render_text(club).count(SENTENCE) == 1
    assert render_markdown(club).count(SENTENCE) == 1
    assert main(["impact", "house", CLUB, str(LOGS[1]), "--json", "--workers", "1", "--wins-only"]) == 1
    assert json.loads(capsys.readouterr().out)["tiles"].startswith(SENTENCE)


def test_no_sentence_when_b_holds_every_tile_of_a() -> None:
    assert mapping_note((34, 35, 36), (34, 35, 36)) is None
    assert mapping_note((), (34,)) is None
    assert "no 0p" in (mapping_note((34, 35), (34,)) or "")


def test_a_round_keeps_its_objects_when_no_tile_maps_and_plain_fives_otherwise() -> None:
    hands = tuple(tuple(parse_tiles(h)) for h in ("0m123456789p11z", "1112345678999m", "1112345678999s", "1234567z123456z"))
    start = RoundStart(round_index=0, honba=0, sticks=0, dora_indicator=parse_tiles("0s")[0], scores=(25_000,) * 4, dealer=0, hands=hands)
    body = [Tsumo(0, parse_tiles("0p")[0])]
    assert fit_round(start, body, (34, 35, 36)) == (start, body)
    mapped, moves = fit_round(start, body, ())
    assert mapped.hands[0] == tuple(sorted(parse_tiles("5m123456789p11z"))) and mapped.dora_indicator == parse_tiles("5s")[0]
    assert moves == [Tsumo(0, parse_tiles("5p")[0])]
