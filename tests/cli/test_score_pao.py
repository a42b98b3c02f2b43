"""Pao on one hand: `riichi score ... --liable W [--from N]` and the request's `liable` and `from` (contract, "Score
request"). The split is the one a played round uses (`engine.scoring.pao.pay_win`): the same hand settled in a played
round and asked as one request pays the same seats the same points, under each rulebook's liability item."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.round.rules import round_rules
from engine.round.witness import SCRIPTS, play
from engine.scoring.library import scorer

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
DRAGONS = ["--pon", "555z", "--pon", "666z", "--pon", "777z"]
DAISANGEN = {"hand": "345m99p", "win": "3m", "seat_wind": "S", "melds": [{"type": "pon", "tiles": t} for t in ("555z", "666z", "777z")]}
WINDS = "ESWN"


def _score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_daisangen_ron_with_a_liable_feeder_is_golden(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _score(capsys, "345m99p", "--win", "3m", *DRAGONS, "--seat", "S", "--liable", "N", "--from", "E", "--honba", "1")
    assert code == 0, err
    golden = GOLDEN / "score_pao_ron.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("rulebook", "extra", "payments"),
    [
        # house and wrc2025: a ron is shared half and half, the discarder pays the honba; a tsumo is the feeder's alone,
        # each player paying his own honba share
        ("house", ["--from", "E"], {"E": 16300, "N": 16000}),
        ("house", ["--tsumo"], {"E": 100, "W": 100, "N": 32100}),
        ("wrc2025", ["--from", "E"], {"E": 16300, "N": 16000}),
        ("wrc2025", ["--tsumo"], {"E": 100, "W": 100, "N": 32100}),
        # mleague: the feeder pays the honba
        ("mleague", ["--from", "E"], {"E": 16000, "N": 16300}),
        ("mleague", ["--tsumo"], {"N": 32300}),
        # the liable player who deals in himself pays the whole ron
        ("house", ["--from", "N"], {"N": 32300}),
    ],
)
def test_each_rulebooks_liability_split(capsys: pytest.CaptureFixture[str], rulebook: str, extra: list[str], payments: dict[str, int]) -> None:
    args = ["345m99p", "--win", "3m", *DRAGONS, "--seat", "S", "--liable", "N", "--honba", "1", "--rulebook", rulebook, *extra, "--json"]
    code, out, err = _score(capsys, *args)
    assert code == 0, err
    response = json.loads(out)
    assert response["payments"] == payments
    assert response["liable"] == "N" and response["liability_clause"]
    assert response["total"] == 32300


@pytest.mark.parametrize("rulebook", ["house", "wrc2025", "mleague"])
@pytest.mark.parametrize("key", ["pao_ron", "pao_tsumo", "pao_double"])
def test_one_hand_pays_as_the_played_round_does(rulebook: str, key: str) -> None:
    """The scripted pao rounds of `engine.round.witness` (South's three dragon pons, the last from North), played
    through the round engine, and the same win asked as one score request."""
    script = next(s for s in SCRIPTS if s.key == key)
    played = play(round_rules(scorer(rulebook)), script)
    tsumo = key != "pao_ron"
    hand, win = ("11122z", "1z") if key == "pao_double" else ("345m99p", "3m")  # South's wait and winning tile
    request = {**DAISANGEN, "hand": hand, "win": win, "tsumo": tsumo, "honba": script.honba, "liable": "N", **({} if tsumo else {"from": "E"})}
    response = scorer(rulebook).score(request)
    paid = {WINDS[seat]: -delta for seat, delta in enumerate(played["deltas"]) if delta < 0}
    assert response["payments"] == paid, (played, response)


def test_four_kans_pao_is_wrc2025s_not_houses(capsys: pytest.CaptureFixture[str]) -> None:
    """wrc2025's liability also covers four kans: the fourth kan called off North makes North liable there; house's
    covers only the dragons and winds, so the request is refused, naming the rule."""
    args = ["55z", "--win", "5z", "--ankan", "1111m", "--ankan", "2222p", "--ankan", "3333s", "--daiminkan", "9999s", "--seat", "S", "--tsumo", "--liable", "N"]
    code, out, err = _score(capsys, *args, "--rulebook", "wrc2025", "--json")
    assert code == 0, err
    assert json.loads(out)["payments"] == {"N": 32000}
    code, out, err = _score(capsys, *args)
    assert code == 2
    assert "invalid_situation" in err and "`liability pao` covers daisangen, daisuushii" in err


def test_liable_on_a_hand_no_liability_covers_names_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _score(capsys, "123m456p789s55p", "--win", "5p", "--pon", "777z", "--seat", "S", "--tsumo", "--liable", "W")
    assert code == 2
    assert err.startswith("riichi score: invalid_situation: `liable` W: no liability rule covers this hand: `liability pao`")


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"liable": "N"}, "`liable` on a ron needs `from`"),
        ({"liable": "S", "from": "E"}, "`liable` is the winner's own seat"),
        ({"liable": "N", "from": "S"}, "`from` is the winner's own seat"),
        ({"liable": "N", "tsumo": True, "from": "E"}, "a tsumo has none"),
        ({"liable": "X", "from": "E"}, "`liable`"),
    ],
)
def test_impossible_pao_requests_are_invalid_requests(fields: dict[str, object], words: str) -> None:
    response = scorer("house").score_json({**DAISANGEN, **fields})
    assert response["ok"] is False and response["error"]["code"] == "invalid_request"
    assert words in response["error"]["message"]


def test_json_lines_requests_take_liable_and_from(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [{**DAISANGEN, "liable": "N", "from": "E"}, {**DAISANGEN, "liable": "N"}, {**DAISANGEN, "from": "E"}]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(line) + "\n" for line in lines)))
    assert main(["score", "--json"]) in (0, 1, 2)
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert answers[0]["payments"] == {"E": 16000, "N": 16000} and answers[0]["liable"] == "N"
    assert answers[1]["error"]["code"] == "invalid_request"
    assert answers[2]["payments"] == {"ron": 32000} and "liable" not in answers[2]  # `from` alone: the discarder pays
