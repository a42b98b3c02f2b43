"""Pao on one hand: a score request's ``liable`` (and ``from``) settled by the round's own liability settlement.

A club organiser asks "who pays this yakuman, its last set fed by West, won by ron off North?" without playing a round. The
request's melds, in the order they were called, stand for the winner's melds (the liable seat fed every open
one); the rulebook's ``liability`` items decide whether that seat is liable for a yakuman the hand scores, and
``engine.scoring.pao.pay_win`` splits the payment exactly as a round would (the round's own settlement calls it). The answer's ``payments`` then name
every payer by seat wind and ``liable`` names the seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import tiles as T
from engine.core.errors import InvalidRequest, InvalidSituation
from engine.core.situation import WINDS
from engine.scoring.pao import Liable, Table, WinClaim, find_liability, pay_win
from ruledsl.record import record

if TYPE_CHECKING:
    from engine.scoring.request import ScoreRequest
    from engine.scoring.result import ScoreResult
    from ruledsl.compile import Rule, Rulebook


@record
class _Meld:
    """A request's meld as pao reads a round's (``engine.scoring.pao.Called``): type, tiles and the feeding seat."""

    type: str
    tiles: tuple[int, ...]
    source: int | None


class _HandFacts(dict):
    """The round facts one hand gives (its calls, the table's counters); any other fact is a clear error."""

    def __missing__(self, key: str) -> Any:
        raise InvalidSituation(
            f"`liable`: the rulebook's liability rule reads `{key}`, a fact of the whole round that one hand does not "
            "give; play the round instead (`riichi play`, or the round engine)"
        )


def _seat(request: ScoreRequest, wind: str, field: str, players: int) -> int:
    seat = WINDS.index(wind)
    if seat >= players:
        raise InvalidRequest(f"`{field}`: {wind} has no seat at a {players}-player table")
    return seat


def _seats(request: ScoreRequest, players: int) -> tuple[int, int, int]:
    """(winner, source, liable) as seats, East = 0; ``invalid_request`` for a combination that cannot happen."""
    winner = _seat(request, request.seat_wind, "seat_wind", players)
    liable = _seat(request, request.liable or "E", "liable", players)
    if request.liable == request.seat_wind:
        raise InvalidRequest("`liable` is the winner's own seat: a player is never liable for his own win")
    if request.tsumo:
        if request.from_ is not None:
            raise InvalidRequest("`from` is the discarder of a ron; a tsumo has none (leave `from` out)")
        return winner, winner, liable
    if request.from_ is None:
        raise InvalidRequest("`liable` on a ron needs `from`, the discarder's seat wind: the two share the payment")
    if request.from_ == request.seat_wind:
        raise InvalidRequest("`from` is the winner's own seat: a ron is won off another player's discard")
    return winner, _seat(request, request.from_, "from", players), liable


def _melds(request: ScoreRequest, liable: int) -> list[_Meld]:
    """The request's melds as a round records them: every open one fed by the liable seat, a closed kan by nobody."""
    out = []
    for meld in request.melds:
        kind, tiles = (meld["type"], meld["tiles"]) if isinstance(meld, dict) else (meld.type, meld.tiles)
        out.append(_Meld(kind, tuple(T.tile_codes(tiles)), None if kind == "ankan" else liable))
    return out


def _uncovered(rules: tuple[Rule, ...], wind: str) -> InvalidSituation:
    """The error for a hand no liability item covers, naming the rules there are."""
    if not rules:
        return InvalidSituation(f"`liable` {wind}: this rulebook has no liability rule (pao), so nobody is liable for any hand")
    named = "; ".join(
        f"`liability {rule.name}` covers {', '.join(rule.fields['affects'] or ()) if 'affects' in rule.fields else 'no yakuman'}"
        + (f" ({rule.clause})" if rule.clause else "")
        for rule in rules
    )
    return InvalidSituation(
        f"`liable` {wind}: no liability rule covers this hand: {named}; the hand must score one of those yakuman, "
        "completed by one of its called melds (the melds in the order they were called) as the rule's condition asks"
    )


def settle_liability(players: int, deposit: int, rulebook: Rulebook, request: ScoreRequest, result: ScoreResult) -> dict[str, Any]:
    """The response with the payment split as the rulebook's liability item says (``pay_win``), each payer named
    by seat wind; ``invalid_situation`` naming the rules when none covers the hand. ``players`` is the table's
    size and ``deposit`` a riichi stick's worth (`table riichi_deposit`), which the winner's total takes."""
    response = result.as_json()
    if request.liable is None:  # `from` alone changes nothing: without a liable seat the discarder pays the ron
        if request.tsumo:
            raise InvalidRequest("`from` is the discarder of a ron; a tsumo has none (leave `from` out)")
        if request.from_ == request.seat_wind:
            raise InvalidRequest("`from` is the winner's own seat: a ron is won off another player's discard")
        _seat(request, request.from_ or "E", "from", players)
        return response
    winner, source, liable = _seats(request, players)
    rules = rulebook.of("liability")
    claim = WinClaim(winner, source, 0, result)
    melds = _melds(request, liable)

    def facts(call: str) -> dict[str, Any]:
        return _HandFacts(completing_call=call, ron_count=0 if request.tsumo else 1, players=players, honba=request.honba,
                          riichi_sticks=request.riichi_sticks, any_call=bool(melds), made_calls=bool(melds))

    # a liable discarder pays the whole ron as the discarder (as in a round); the rule must still cover the hand
    covered = find_liability(rules, rulebook.of("yakuman"), WinClaim(winner, winner, 0, claim.result), melds, facts)
    if covered is None:
        raise _uncovered(rules, request.liable)
    found: Liable | None = None if source == liable else find_liability(rules, rulebook.of("yakuman"), claim, melds, facts)
    deltas, _clauses = pay_win(Table(players, 0), claim, found)
    payments = {WINDS[seat]: -delta for seat, delta in enumerate(deltas) if seat != winner and delta < 0}
    return {
        **response,
        "payments": payments,
        "total": deltas[winner] + request.riichi_sticks * deposit,
        "liable": request.liable,
        "liability_clause": covered.item.clause or covered.item.name,
    }
