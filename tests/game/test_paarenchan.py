"""Paarenchan as data: the game counts the dealer's wins in a row (`GameState.dealer_wins`,
reset as `settings game dealer_win_streak_breaks` says), hands the count to each round (`RoundSetup`) and through
it to the scorer as the fact `dealer_consecutive_wins`; a score request carries it as `dealer_consecutive_wins`.
The threshold lives in the rulebook (rulebooks/examples/paarenchan.rulebook: a limit tier at 7 wins before)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.api import scorer
from engine.core.errors import EngineError, InvalidRulebook
from engine.game.progression import advance, start
from engine.round import RoundSetup
from ruledsl.compile import RulebookError, load
from ruledsl.record import replace
from tests.game.helpers import rules, settlement

EXAMPLE = Path(__file__).resolve().parents[2] / "rulebooks" / "examples" / "paarenchan.rulebook"
RIICHI_PINFU = {"hand": "123m456m789p123s99p", "win": "1s", "riichi": True, "seat_wind": "E"}


def _streak(breaks: list[str] | None, *outcomes: dict) -> list[int]:
    r = rules("house") if breaks is None else rules("house", dealer_win_streak_breaks=breaks)
    state = replace(start(r), dealer=1)
    seen = []
    for s in outcomes:
        state = advance(r, state, s)
        seen.append(state.dealer_wins)
    return seen


DEALER_WIN = settlement(dealer_next=1, renchan=True, winners=(1,))
TENPAI_DRAW = settlement("exhaustive", dealer_next=1, renchan=True, tenpai=(1,))
ABORTIVE = settlement("abortive", dealer_next=1, renchan=True)
PASSES = settlement(dealer_next=2, renchan=False, winners=(2,))


def test_the_game_counts_the_dealers_wins_in_a_row() -> None:
    assert _streak(None, DEALER_WIN, DEALER_WIN, DEALER_WIN) == [1, 2, 3]
    assert _streak(None, DEALER_WIN, DEALER_WIN, PASSES) == [1, 2, 0]


def test_draws_break_the_count_as_the_rulebook_says() -> None:
    assert _streak(None, DEALER_WIN, TENPAI_DRAW, DEALER_WIN, ABORTIVE) == [1, 0, 1, 0]
    assert _streak([], DEALER_WIN, TENPAI_DRAW, DEALER_WIN, ABORTIVE) == [1, 1, 2, 2]
    assert _streak(["abortive"], DEALER_WIN, TENPAI_DRAW, DEALER_WIN, ABORTIVE) == [1, 1, 2, 0]


def test_an_unknown_break_is_refused() -> None:
    with pytest.raises((RulebookError, InvalidRulebook), match="dealer_win_streak_breaks"):
        rules("house", dealer_win_streak_breaks=["dealer_noten"])


def test_a_score_request_carries_the_count() -> None:
    s = scorer(str(EXAMPLE))
    assert s.score({**RIICHI_PINFU, "dealer_consecutive_wins": 6})["total"] == 2900
    seventh = s.score({**RIICHI_PINFU, "dealer_consecutive_wins": 7})
    assert seventh["total"] == 48000 and seventh["limit_id"] == "paarenchan"
    assert scorer("house").score({**RIICHI_PINFU, "dealer_consecutive_wins": 7})["total"] == 2900
    for bad in (-1, "7", 1001, True):
        with pytest.raises(EngineError) as caught:
            s.score({**RIICHI_PINFU, "dealer_consecutive_wins": bad})
        assert caught.value.code == "invalid_request"


def test_the_count_needs_a_yaku_first() -> None:
    with pytest.raises(EngineError) as caught:
        scorer(str(EXAMPLE)).score({"hand": "123m456m789p111s99p", "win": "1s", "seat_wind": "E", "dealer_consecutive_wins": 9})
    assert caught.value.code == "no_yaku"


def test_riichi_score_takes_dealer_wins() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "123m456m789p123s99p", "--win", "1s", "--seat", "E", "--riichi", "--dealer-wins", "7",
         "--rulebook", str(EXAMPLE), "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert out.returncode == 0, out.stderr
    assert '"total": 48000' in out.stdout


def test_the_game_hands_the_count_to_the_round_and_the_scorer() -> None:
    from engine.game import Game

    game = Game(load("paarenchan", text=EXAMPLE.read_text(), file=str(EXAMPLE)), seed=1, agents="shanten")
    game.state = replace(game.state, dealer_wins=5)
    assert game.next_round().setup.dealer_consecutive_wins == 5
    with pytest.raises(EngineError):
        RoundSetup(dealer_consecutive_wins=-1)
