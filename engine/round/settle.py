"""How a hand ends and who pays: wins (with pao and several winners), exhaustive draws, abortive draws, and the
honba, riichi sticks and dealer of the next hand.

Every amount comes from the scorer's answer (its ``payments``) or from the rulebook's ``draw``, ``abortive_draw``
and ``liability`` items (a win's split is ``engine.scoring.pao``'s, shared with a single scored hand); every
next-hand counter from ``settings game`` or the abortive item's own fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.round.facts import round_facts
from engine.round.settlement import NextHand, next_hand
from engine.scoring.pao import Liable, Table, WinClaim, field, find_liability, pay_win

if TYPE_CHECKING:
    from engine.round.state import RoundState
    from ruledsl.compile import Rule


# ---- wins ----------------------------------------------------------------------------------------------------------


def win_deltas(r: RoundState, claim: WinClaim) -> tuple[list[int], list[str]]:
    """Point changes of one win (riichi sticks excluded: the round pays them), and the liability clauses applied."""
    return pay_win(Table(r.rules.players, r.setup.dealer), claim, _liability(r, claim))


def _liability(r: RoundState, claim: WinClaim) -> Liable | None:
    """The liability item that applies to this win in a round (the melds' sources name the feeders)."""
    return find_liability(
        r.rules.liabilities, r.rules.yakuman, claim, r.seats[claim.seat].melds, lambda call: round_facts(r, claim.seat, completing_call=call)
    )


# ---- next hand -----------------------------------------------------------------------------------------------------


def next_counters(r: RoundState, tags: set[str], abortive: Rule | None, kept_sticks: int) -> NextHand:
    """``honba_next``, ``sticks_next``, ``dealer_next`` and ``renchan`` from ``settings game`` (and an abortive
    item's own ``dealer`` and ``honba`` fields, which decide for that draw)."""
    rules = r.rules
    honba = r.setup.honba
    if abortive is not None:
        env = round_facts(r, r.actor)
        dealer_field = field(abortive, "dealer", env)
        renchan = dealer_field == "stays" if dealer_field is not None else "abortive" in rules.renchan
        added = field(abortive, "honba", env)
        if added is not None:
            honba += added
        elif "abortive" in rules.honba_reset:
            honba = 0
        elif "abortive" in rules.honba_increase:
            honba += 1
    else:
        renchan = bool(tags & set(rules.renchan))
        if tags & set(rules.honba_reset):
            honba = 0
        elif tags & set(rules.honba_increase):
            honba += 1
    dealer = r.setup.dealer if renchan else (r.setup.dealer + 1) % rules.players
    return next_hand(honba, kept_sticks, dealer, renchan)
