"""The per-seat shortcuts of the turn give the answers of the full computation.

- The rest of the hand a discard leaves (``turns.own_dahai``: with the bound of the last rest less one, the bound the
  riichi check found for the drawn hand (``Seat.drawn_floor``), then ``Seat.rest_after_discard`` with the
  isolated-tile bound, without the comparison with the last rest) finds the waits the exact count gives, and keeps
  a lower bound of the shanten.
- The discards listed from the hand after a draw come from the codes kept from turn to turn (``Seat.rest_codes``):
  the same moves as counted from the hand afresh.
- ``Seat.pon_kinds`` is the kind of each pon among the seat's melds, so the own-turn listing skips ``_kans`` only
  when it would list none.
- The listing does not ask ``reach_bar`` of a seat that called a tile (``made_calls``): it would refuse.
- Each seat's suit keys (``Seat.suit_keys``, changed tile by tile by the draws, the discards, the calls and the
  kans) are the keys of its counts (``shanten_floor.suit_keys``) after every discard.
- A live draw (``turns.live_draw``, which opens the turn in place) leaves every field of the turn as
  ``turns.begin_turn`` sets it: asking ``begin_turn`` again changes nothing but the tsumo offer it clears.

Checked at every own turn and every discard of self-played games under rulebooks with and without red fives,
kita, open riichi and abortive draws, with random players and with players that favour riichi, calls and kans; the
live draw at every draw of replayed vendored logs too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.core.analysis import shanten
from engine.core.tiles import KIND_OF
from engine.game import Game
from engine.round import Round, legal, turns
from engine.round.actions import Action
from engine.round.rules import round_rules
from engine.round.shanten_floor import suit_keys
from engine.round.state import RoundState
from engine.scoring import library
from engine.scoring.library import rulebook
from tests.round.reference import waits_of
from tests.round.replayed import replay_vendored_logs

RULEBOOKS = ("tenhou", "tenhou_sanma", "house", "ema2012")


class _BoldAgent:
    """Random, but plays a riichi, a kan or a call whenever one is offered: the moves the shortcuts depend on."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, rnd: Any, seat: int, legal_moves: Sequence[Action]) -> Action:
        bold = [a for a in legal_moves if a.type in ("reach", "ankan", "kakan", "pon", "chi", "daiminkan")]
        return self.rng.choice(bold or list(legal_moves))


def _games(name: str) -> None:
    rb = rulebook(name)
    players = round_rules(library.scorer(name)).players
    for seed in range(3):
        Game(rb, seed, "random").play()
        Game(rb, seed, [_BoldAgent(seed * 10 + k) for k in range(players)]).play()  # type: ignore[list-item]


@pytest.mark.parametrize("name", RULEBOOKS)
def test_the_rest_after_a_discard_finds_the_waits_of_the_full_count(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After every discard (``Seat.rest_after_discard``, or the last rest kept for the drawn kind let go again): the waits are the full count's and the
    shanten kept is a lower bound of the exact count; a kept rest is of this very hand."""
    seen: list[int] = []
    original = turns.own_dahai

    def own_dahai(rnd: Round, a: Action) -> None:
        original(rnd, a)
        s = rnd.seats[a.actor]  # a call or a win of this discard leaves the discarder's hand as it rested
        counts = s.counts
        exact = shanten(tuple(counts), len(s.melds))
        assert s.shanten <= exact  # a lower bound, or the count itself
        assert s.waits == (waits_of(counts, len(s.melds), rnd.kinds) if exact == 0 else frozenset())
        assert s.rested is None or s.rested[0] == (*suit_keys(counts), len(s.melds))  # a kept rest is of this hand
        # every seat's suit keys, changed tile by tile since the deal, are the keys of its counts
        assert [seat.suit_keys for seat in rnd.seats] == [suit_keys(seat.counts) for seat in rnd.seats]
        seen.append(exact)

    monkeypatch.setattr(turns, "own_dahai", own_dahai)
    _games(name)
    assert 0 in seen and max(seen) >= 2 and len(seen) > 1000


def _plain_discards(rnd: Round, seat: int) -> tuple[Action, ...]:
    """Each code of the hand once, in code order, then the drawn tile as tsumogiri, the drawn tile offered only so
    when it is the one copy of its code: counted from the hand, nothing kept."""
    hand = rnd.seats[seat].hand
    drawn = rnd.drawn
    codes = sorted({code for code in hand if code != drawn or hand.count(code) > 1})
    moves = [Action("dahai", seat, code) for code in codes]
    if drawn is not None and drawn in hand:
        moves.append(Action("dahai", seat, drawn, tsumogiri=True))
    return tuple(moves)


@pytest.mark.parametrize("name", RULEBOOKS)
def test_the_own_turn_listing_agrees_with_the_full_checks(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At every own turn after a draw: the pons are those of the melds, the kans listed are ``_kans``' full list,
    and a riichi is offered exactly when ``reach_bar`` (asked in full) allows it."""
    checked: list[bool] = []
    original = legal.own_turn

    def own_turn(rnd: Round, seat: int) -> tuple[Action, ...]:
        got = original(rnd, seat)
        s = rnd.seats[seat]
        assert legal._discards(rnd, seat) == _plain_discards(rnd, seat)
        if s.rest_codes is not None:  # kept: the codes of the hand less the drawn tile
            rest = list(s.hand)
            rest.remove(rnd.drawn)
            assert s.rest_codes == sorted(set(rest))
        assert s.pon_kinds == [KIND_OF[m.tiles[0]] for m in s.melds if m.type == "pon"]
        if rnd.reach_pending or rnd.after_call:
            return got
        kans = [a for a in got if a.type in ("ankan", "kakan")]
        assert kans == legal._kans(rnd, seat)
        offered = any(a.type == "reach" for a in got)
        assert offered == (not s.riichi and legal.reach_bar(rnd, seat) is None), (seat, s.made_calls)
        checked.append(offered)
        return got

    monkeypatch.setattr(legal, "own_turn", own_turn)
    _games(name)
    assert len(checked) > 1000


@pytest.mark.parametrize("name", RULEBOOKS)
def test_a_live_draw_opens_the_turn_as_begin_turn_does(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``live_draw`` writes ``begin_turn``'s fields itself: a field added to the one and not to the other shows here."""
    drawn: list[int] = []
    original = turns.live_draw

    def fields(rnd: Round) -> dict[str, Any]:
        return {name: getattr(rnd, name, None) for name in RoundState.__slots__}

    def live_draw(rnd: Round, seat: int) -> None:
        original(rnd, seat)
        before = fields(rnd)
        offer = rnd.tsumo_result
        turns.begin_turn(rnd, seat, rnd.drawn)
        rnd.tsumo_result = offer
        assert fields(rnd) == before
        drawn.append(seat)

    monkeypatch.setattr(turns, "live_draw", live_draw)
    _games(name)
    assert len(drawn) > 1000
    if name == "tenhou":  # and every live draw of replayed real rounds (passes, calls, riichi, kans, rons)
        replay_vendored_logs(8)
        assert len(drawn) > 8000
