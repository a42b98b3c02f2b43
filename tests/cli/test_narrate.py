"""`--narrate` on `riichi play` and `riichi replay`: each round in words (golden), built by ``engine.protocol.narrate`` from
the round engine's events and settlement, so a self-played game and a replayed Tenhou log read alike.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 python -m pytest tests/cli/test_narrate.py`` and review
the diff.
"""

from __future__ import annotations

import pytest

from engine.protocol.narrate import final_lines, round_lines
from tests.ruledsl.golden import ROOT, compare_golden, run

GOLDEN = ROOT / "tests" / "golden"
# two rounds: a riichi, a chi and a pon, an exhaustive draw with one seat in tenpai, a sanbaiman ron with ura dora
LOG = "tests/data/tenhou/mjlog/2020052212gm-00a9-0000-3c7fe026.mjlog"


def test_play_narrates_a_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["play", "--rulebook", "house", "--games", "1", "--seed", "7", "--narrate"], capsys, monkeypatch)
    assert code == 0
    compare_golden(GOLDEN / "play_narrate_house_seed7.txt", out)
    assert "declares riichi" in out and "wins by" in out and "Yaku (han): " in out and "Final table" in out
    assert "Exhaustive draw" in out and "{" not in out


def test_replay_narrates_a_tenhou_log(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["replay", LOG, "--narrate"], capsys, monkeypatch)
    assert code == 0
    compare_golden(GOLDEN / "replay_narrate_tenhou.txt", out)
    assert "calls chi on" in out and "calls pon on" in out and "Sanbaiman" not in out and "sanbaiman" in out
    assert out.rstrip().endswith("0 mismatches")  # the report still follows the story


def test_discards_lists_every_discard(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["replay", LOG, "--discards"], capsys, monkeypatch)
    assert code == 0
    assert "East (seat 0) discards: " in out and "Discards: " not in out


def test_three_player_game_narrates_kita(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["play", "--rulebook", "tenhou_sanma", "--games", "2", "--seed", "1", "--narrate"], capsys, monkeypatch)
    assert code == 0
    assert "sets aside a kita" in out and "North (seat" not in out  # three seats: East, South, West
    assert out.count("Final table") == 2


@pytest.mark.parametrize("command", ["play", "replay"])
def test_narrate_and_json_exclude_each_other(command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [command, "--narrate", "--json"] + ([LOG] if command == "replay" else [])
    code, out, err = run(argv, capsys, monkeypatch)
    assert code == 2 and "choose one" in err and "Traceback" not in err


def test_abortive_draw_and_unfinished_round_read_as_words() -> None:
    from engine.round.events import Dahai, Ryukyoku, StartKyoku
    from engine.round.settlement import NextHand, Settlement

    white, east = 31, 27
    start = StartKyoku("S", 2, 1, 2, 1, white, (25000,) * 3, ((),) * 3)
    events = [start, Dahai(1, east, False), Ryukyoku("kyuushu_kyuuhai", (0, 0, 0))]
    settled = Settlement("abortive", "kyuushu_kyuuhai", (), (0, 0, 0), NextHand(2, 2, 1, True), (25000,) * 3, ())
    lines = round_lines(events, settled)
    assert lines[0] == "South 2, honba 1, riichi sticks 2: dealer East (seat 1), dora indicator White dragon."
    assert "  Abortive draw (kyuushu_kyuuhai): nine different terminals and honours." in lines
    assert round_lines(events[:2], None)[-1].endswith("could not be played to its end.")
    assert final_lines([30000, 20000, 25000])[1:] == ["  1. seat 0: 30,000 points", "  2. seat 2: 25,000 points", "  3. seat 1: 20,000 points"]
