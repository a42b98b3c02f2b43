"""A refused move is explained by the very predicate that kept it out of the legal moves (``engine.round.legal``).

Each bar of the listing (``chi_bar``, ``kan_count_bar``, ``reach_bar`` ...) is one function that ``own_turn`` and
``responses`` call to leave a move out and that ``refusal`` (through ``bar_of``) calls to say why. These tests lift
bars by replacing those functions, in random rounds under rulebooks that differ in calls, kuikae, riichi and kita:

- every move the listing offers has no refusal, and every other move has one;
- every move that only bars keep out (offered once every bar is lifted) is refused by a named bar, and lifting the
  named bars one by one, each the reason ``refusal`` gives after the last was lifted, makes the move legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import rulebook
from engine.round import Action, Round, RoundSetup, legal
from engine.round.rules import round_rules
from tests.round.test_round_properties import choose

RULEBOOKS = ["house", "tenhou", "mleague", "sanma", "ema2016", "wrc2025", "mahjchina"]
# the predicates the listing and ``bar_of`` share; a lifted bar makes each of them answer None where it gave that bar
PREDICATES = (
    "chi_bar",
    "last_discard_bar",
    "kan_count_bar",
    "riichi_kan_bar",
    "locked_bar",
    "open_riichi_bar",
    "reach_bar",
    "riichi_bar",
    "riichi_discard_bar",
    "kuikae_bar",
    "furiten_bar",
)
ALL_BARS = frozenset(value for value in vars(legal).values() if isinstance(value, legal.Bar))


@contextmanager
def lifted(bars: frozenset[legal.Bar]) -> Iterator[None]:
    """Every shared predicate answers None where it would have answered one of ``bars``."""
    originals = {name: getattr(legal, name) for name in PREDICATES}

    def lift(original: Callable[..., legal.Bar | None]) -> Callable[..., legal.Bar | None]:
        def predicate(*args: Any) -> legal.Bar | None:
            bar = original(*args)
            return None if bar in bars else bar

        return predicate

    try:
        for name, original in originals.items():
            setattr(legal, name, lift(original))
        yield
    finally:
        for name, original in originals.items():
            setattr(legal, name, original)


def listing(r: Round, seat: int) -> tuple[Action, ...]:
    """The legal moves built afresh by the listing functions (no cache of the round), under the bars in force."""
    if r.phase == "own":
        return legal.own_turn(r, seat)
    assert r.window is not None
    event, tile, source = r.window
    return legal.responses(r, seat, tile, source, event)


def near_misses(r: Round, seat: int) -> list[Action]:
    """Moves a player might try that are often not legal: discards of held and unheld tiles, calls, a riichi."""
    s = r.seats[seat]
    out = [Action("dahai", seat, code, tsumogiri=flag) for code in {*s.hand, 0, 33} for flag in (False, True)]
    out += [Action("reach", seat), Action("reach", seat, open=True), Action("hora", seat, r.drawn, target=seat)]
    if r.window is not None:
        _event, tile, source = r.window
        out += [Action(kind, seat, tile, target=source) for kind in ("pon", "chi", "daiminkan", "hora")]
    return out


def check_decision(r: Round, seat: int) -> int:
    """The two properties at one decision point; the number of moves only bars kept out."""
    offered = set(listing(r, seat))
    assert offered == set(r.legal_actions(seat))
    assert all(legal.refusal(r, seat, a) is None for a in offered)
    assert all(legal.refusal(r, seat, a) is not None for a in near_misses(r, seat) if a not in offered)
    with lifted(ALL_BARS):
        unbarred = set(listing(r, seat))
    explained = 0
    for action in unbarred - offered:
        refused = legal.refusal(r, seat, action)
        assert refused is not None
        lifted_so_far: frozenset[legal.Bar] = frozenset()
        while True:
            with lifted(lifted_so_far):
                if action in listing(r, seat):
                    break
                bar = legal.bar_of(r, seat, action)
            assert bar is not None and bar not in lifted_so_far, f"{action} is kept out by no bar once {lifted_so_far} are lifted"
            if not lifted_so_far:
                assert refused == bar.refusal(r.rules, seat)  # the first reason given is the first bar lifted
            lifted_so_far |= {bar}
        explained += 1
    return explained


def play_and_check(name: str, seed: int) -> int:
    rules = round_rules(rulebook(name))
    rng = random.Random(seed)
    r = Round(rules, RoundSetup(dealer=seed % rules.players, scores=(seed % 3 * 600,) + (25000,) * (rules.players - 1)), seed=seed)
    explained = steps = 0
    while not r.finished and steps < 400:
        waiting = r.waiting()
        seat = waiting[rng.randrange(len(waiting))]
        if r.phase in ("own", "respond"):
            explained += check_decision(r, seat)
        r.apply(choose(r, seat, rng))
        steps += 1
    return explained


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(RULEBOOKS), seed=st.integers(0, 10**6))
def test_every_refusal_names_the_bar_that_kept_the_move_out(name: str, seed: int) -> None:
    play_and_check(name, seed)


def test_the_bars_are_met_in_play() -> None:
    """Fixed rounds in which moves are kept out only by bars, so the property above is not vacuous."""
    assert sum(play_and_check(name, seed) for name in ("house", "tenhou") for seed in range(6)) > 0
