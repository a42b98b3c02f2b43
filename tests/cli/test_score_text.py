"""`riichi score`: the text breakdown a player checks by hand, golden, and the command line's argument checks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.cli import main
from engine.cli.score_text import payment_words

GOLDEN = Path(__file__).resolve().parent.parent / "golden"

# (golden file, arguments): a non-dealer ron with riichi and dora; a dealer tsumo with a call and no --seat; a
# double yakuman; a kiriage mangan with honba and sticks; spaced groups
CASES = [
    ("score_riichi_ron.txt", ["234m567m789p46s88p5s", "--win", "5s", "--seat", "S", "--riichi", "--dora", "4s"]),
    ("score_dealer_tsumo_pon.txt", ["123m456p789s11s", "--pon", "555z", "--win", "1s", "--tsumo"]),
    ("score_double_yakuman.txt", ["19m19p19s1234567z1m", "--win", "1m", "--seat", "S"]),
    (
        "score_kiriage_sticks.txt",
        ["234m456m678p234s55p", "--win", "4s", "--seat", "S", "--riichi", "--dora", "3s", "--rulebook", "wrc2025",
         "--honba", "1", "--sticks", "2"],
    ),
    ("score_spaced_tsumo.txt", ["123m", "456p", "789s", "11s", "555z", "--win", "1s", "--seat", "W", "--tsumo"]),
]


def _score(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("name", "args"), CASES, ids=[c[0] for c in CASES])
def test_score_text_is_golden(capsys, name: str, args: list[str]) -> None:
    code, out, err = _score(capsys, *args)
    assert code == 0, err
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_header_shows_sorted_tiles_calls_seat_and_a_missing_seat(capsys) -> None:
    _, out, _ = _score(capsys, "11s123m456p789s", "--pon", "555z", "--win", "1s", "--tsumo")
    header, situation = out.splitlines()[:2]
    assert header == "123m456p11789s + pon 555z, win 1s (tsumo) under house"
    assert situation.strip() == "seat East (dealer; --seat not given), round East"


def test_a_limit_names_its_item_and_clause(capsys) -> None:
    _, out, _ = _score(capsys, *CASES[3][1])
    assert "4 han 30 fu: mangan, base 2,000  [limit kiriage: " in out
    code = main(["score", *CASES[3][1], "--json"])
    response = json.loads(capsys.readouterr().out)
    assert code == 0 and response["limit"] == "mangan" and response["limit_id"] == "kiriage"
    assert response["limit_clause"]


def test_a_yakuman_shows_no_han_or_fu(capsys) -> None:
    _, out, _ = _score(capsys, *CASES[2][1])
    assert " han " not in out.split("\n", 2)[2] and " fu" not in out


@pytest.mark.parametrize(
    ("payments", "words"),
    [
        ({"ron": 2600}, "ron 2,600 from the discarder"),
        ({"non_dealer": 500}, "tsumo 500 all"),
        ({"dealer": 2000, "non_dealer": 1000}, "tsumo 1,000/2,000 (each non-dealer/the dealer)"),
    ],
)
def test_payments_read_as_players_call_them(payments: dict[str, int], words: str) -> None:
    assert payment_words(payments) == words


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["123m456p789s11s55z", "--win", "1s", "--dora", "8z"], "--dora 8z: honour `8z` does not exist"),
        (["123m456p789s11s", "--pon", "5555", "--win", "1s"], "--pon 5555: digits at the end"),
        (["123m456p789s11s55z", "--win", "1s", "--rulebook", "no/such.rulebook"], "`no/such.rulebook`: no such file"),
    ],
)
def test_bad_arguments_are_named_with_their_text(capsys, args: list[str], message: str) -> None:
    code, out, err = _score(capsys, *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_negative_counters_are_refused(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "123m456p789s11s55z", "--win", "1s", "--honba", "-3"])
    assert exit_info.value.code == 2
    assert "`-3` is negative" in capsys.readouterr().err


def test_a_broken_rulebook_file_is_invalid_rulebook_with_its_diagnostics(capsys, tmp_path: Path) -> None:
    broken = tmp_path / "broken.rulebook"
    broken.write_text('rulebook broken "Broken" extends house\nyaku foo { han = 1 }\n', encoding="utf-8")
    code, _, err = _score(capsys, "123m456p789s11s55z", "--win", "1s", "--rulebook", str(broken))
    assert code == 2
    assert "invalid_rulebook" in err and "broken.rulebook:2:6: error:" in err


def test_version_and_a_misspelt_command(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0 and capsys.readouterr().out.startswith("riichi ")
    assert main(["scor"]) == 2
    assert "unknown command `scor`; did you mean `score`?" in capsys.readouterr().err


def test_the_response_names_the_limit_item_only_when_a_limit_is_reached() -> None:
    from engine.scoring.library import scorer

    plain = scorer("house").score({"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True})
    assert (plain["limit"], plain["limit_id"], plain["limit_clause"]) == (None, None, None)
    same_cell = {"hand": "234m456m678p234s55p", "win": "4s", "seat_wind": "S", "riichi": True, "dora_indicators": "3s"}
    # 4 han 30 fu: no limit under house, the kiriage item under wrc2025
    assert scorer("house").score(same_cell)["limit_id"] is None
    counted = scorer("house").score({"hand": "22334455667788s", "win": "2s", "seat_wind": "N", "tsumo": True})
    assert counted["limit"] == "sanbaiman" and counted["limit_id"] == "sanbaiman"
    assert type(counted["limit"]) is str  # a plain string in the response, whatever carried it inside
