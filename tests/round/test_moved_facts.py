"""Every steady change names the facts it may move (``engine.round.facts.MOVED_BY_...``, gathered in
``RoundState.moved``), and the check after a discard is skipped while none of the facts it read is named there
(``calls.abortive_after``). These tests hold the names to the values: between two checks of a round, every steady
fact whose value changed, for any seat, is in ``moved``, and before a round's first check every fact that differs
from the values a hand starts with (``FRESH``); on real games and in self-play under several rulebooks, with players
that favour riichi, calls and kans."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.game import Game
from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round import Round, calls, facts
from engine.round.facts import FACTS, FRESH, STEADY_FACTS
from engine.round.rules import round_rules
from engine.scoring import library
from engine.scoring.library import rulebook
from tests.round.test_abortive_shortcut import _BoldAgent

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"
NEVER_MOVED = frozenset({"players", "honba"})  # the table's size and the hand's counter: fixed for the hand


def _steady_values(rnd: Round) -> dict[tuple[str, int], Any]:
    return {(name, seat): FACTS[name](rnd, seat) for name in STEADY_FACTS for seat in range(len(rnd.seats))}


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Wraps ``calls.abortive_after``: what a round's steady facts were after its last check, against now."""
    original = calls.abortive_after
    last: dict[int, tuple[Round, dict[tuple[str, int], Any]]] = {}
    seen: list[int] = []

    def checking(rnd: Round, source: int) -> Any:
        now = _steady_values(rnd)
        before = last.get(id(rnd))
        if before is not None and before[0] is rnd:
            changed = {name for (name, seat), value in now.items() if before[1][(name, seat)] != value}
            assert changed <= rnd.moved, f"{sorted(changed - rnd.moved)} changed but no steady change named them"
            seen.append(len(changed))
        else:  # the round's first check: against the values every hand starts with
            changed = {name for (name, _seat), value in now.items() if name in FRESH and FRESH[name] != value}
            assert changed <= rnd.moved, f"{sorted(changed - rnd.moved)} changed since the deal but no change named them"
        found = original(rnd, source)
        last[id(rnd)] = (rnd, _steady_values(rnd))
        return found

    monkeypatch.setattr(calls, "abortive_after", checking)
    return seen


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> list[Round]:
    """Wraps ``Round.__init__``: every round made, as it stands before its first move."""
    original = Round.__init__
    made: list[Round] = []

    def making(rnd: Round, *args: Any, **kwargs: Any) -> None:
        original(rnd, *args, **kwargs)
        for name, value in FRESH.items():
            for seat in range(len(rnd.seats)):
                assert FACTS[name](rnd, seat) == value, f"a hand starts with {name} = {FACTS[name](rnd, seat)!r}"
        made.append(rnd)

    monkeypatch.setattr(Round, "__init__", making)
    return made


@pytest.mark.parametrize("name", ["tenhou", "tenhou_sanma", "ema2012"])
def test_every_hand_starts_with_the_fresh_values(name: str, dealt: list[Round]) -> None:
    for seed in range(2):
        Game(rulebook(name), seed, "random").play()
    assert len(dealt) > 4
    assert set(FRESH) <= STEADY_FACTS - NEVER_MOVED


def test_the_moving_facts_are_named_by_some_change() -> None:
    named = frozenset().union(*(value for name, value in vars(facts).items() if name.startswith("MOVED_BY_")))
    assert named == STEADY_FACTS - NEVER_MOVED


def test_every_changed_fact_is_named_on_real_games(watched: list[int]) -> None:
    for path in sorted(MJLOG.iterdir())[1::4]:
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for index, round_start, body in parts:
            replay_round(rules, round_start, body, index + 1)
    assert len(watched) > 1000 and sum(1 for n in watched if n) > 100  # the facts do change, and are named


@pytest.mark.parametrize("name", ["tenhou", "house", "mleague", "tenhou_sanma", "wrc2025", "ema2012"])
def test_every_changed_fact_is_named_in_self_play(name: str, watched: list[int]) -> None:
    rb = rulebook(name)
    players = round_rules(library.scorer(name)).players
    for seed in range(3):
        Game(rb, seed, [_BoldAgent(seed * 10 + k) for k in range(players)]).play()  # type: ignore[list-item]
    assert any(watched)
