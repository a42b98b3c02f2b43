"""A win's value: the rulebook's scorer asked with the round's situation (tsumo or ron, haitei, chankan ...).

The ``Situation`` given to the scorer is built here from the round's state, once per possible win: a drawn
tile in the waits, and each ron offered (kept for the window: the offer and the win ask the same question).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import tiles as T
from engine.core.errors import InternalError, NotAWin, NoYaku
from engine.core.hand import made_hand
from engine.core.memo import BoundedCache
from engine.core.situation import Situation, checked_situation
from engine.round.state import UNSCORED
from ruledsl.record import replace

if TYPE_CHECKING:
    from engine.round.state import RoundState
    from engine.scoring.result import ScoreResult


def score(r: RoundState, seat: int, tile: int, source: int, event: str, honba: int | None = None, sticks: int | None = None, explain: bool = False
) -> ScoreResult | None:
    """The scorer's answer for ``seat`` winning on ``tile``, or None when it is no win (no yaku); ``explain``
    raises the scorer's refusal instead, whose message names the rule (a refused ``hora`` quotes it).

    ``score_reference`` asks the same through the scorer's checked entries; here the hand is made from the seat's
    codes and kind counts as they are (``made_hand``), the situation from its values in the fields' order, and
    the scorer asked by ``score_made``: a round's hand, situation and indicators are well formed by
    construction, and every offered win is asked, most of them refused or passed."""
    s = r.seats[seat]
    rules = r.rules
    tsumo = source == seat
    setup = r.setup
    wall = r.wall
    last = wall.remaining == 0
    if tsumo:
        concealed = s.hand
        counts = s.counts
        first = not r.any_call and s.draws == 1 and not s.discards
        dealer = seat == setup.dealer
        values = (
            True, r.seat_wind(seat), setup.round_wind, s.riichi, s.double_riichi, s.ippatsu and s.riichi,
            last and not r.replacement, False, r.rinshan, event == "kakan" or event == "ankan",
            first and dealer, first and not dealer, False, s.riichi and s.open_riichi, False,
        )  # fmt: skip
    else:
        concealed = [*s.hand, tile]
        counts = s.counts.copy()
        counts[T.KIND_OF[tile]] += 1
        dahai = event == "dahai"
        values = (
            False, r.seat_wind(seat), setup.round_wind, s.riichi, s.double_riichi, s.ippatsu and s.riichi,
            False, dahai and last, False, event == "kakan" or event == "ankan", False, False,
            dahai and not r.any_call and s.draws == 0 and seat != setup.dealer, s.riichi and s.open_riichi,
            r.seats[source].riichi,
        )  # fmt: skip
    fields = (*values, s.kita, setup.honba if honba is None else honba, r.sticks if sticks is None else sticks, setup.dealer_consecutive_wins)
    situation = _SITUATIONS.get(fields)
    if situation is None:
        situation = _SITUATIONS.put(fields, checked_situation(fields))
    scorer = rules.scorer
    ura = wall.ura_indicators() if s.riichi and rules.ura_dora else ()
    try:
        result = scorer.score_made(made_hand(concealed, counts, tile, [(m.type, m.tiles) for m in s.melds]), situation, wall.dora_indicators(), ura)
    except (NoYaku, NotAWin):
        if explain:
            raise
        return None
    if s.riichi and rules.ura_dora:
        return replace(result, ura_indicators=T.format_tiles(ura, sort=False))
    return result


# The situations of the wins asked, by their fields in order: equal fields make an equal situation, and the same
# object lets the scorer find what it keeps per situation (its facts, its verdicts) by identity, where a new one is
# built, checked and read afresh. A round asks the same few situations over and over (each seat's tsumo and ron,
# turn after turn).
_SITUATIONS: BoundedCache[tuple, Situation] = BoundedCache(4096)


def score_reference(r: RoundState, seat: int, tile: int, source: int, event: str, honba: int | None = None, sticks: int | None = None, explain: bool = False
) -> ScoreResult | None:
    """The scorer's answer for ``seat`` winning on ``tile``, or None when it is no win (no yaku); ``explain``
    raises the scorer's refusal instead, whose message names the rule (a refused ``hora`` quotes it)."""
    s = r.seats[seat]
    rules = r.rules
    tsumo = source == seat
    concealed = s.hand if tsumo else [*s.hand, tile]
    first = not r.any_call
    dealer = seat == r.setup.dealer
    situation = Situation(
        tsumo=tsumo,
        seat_wind=r.seat_wind(seat),
        round_wind=r.setup.round_wind,
        riichi=s.riichi,
        double_riichi=s.double_riichi,
        ippatsu=s.ippatsu and s.riichi,
        haitei=tsumo and not r.replacement and r.wall.remaining == 0,
        houtei=not tsumo and event == "dahai" and r.wall.remaining == 0,
        rinshan=tsumo and r.rinshan,
        chankan=event == "kakan" or event == "ankan",
        tenhou=tsumo and dealer and first and s.draws == 1 and not s.discards,
        chiihou=tsumo and not dealer and first and s.draws == 1 and not s.discards,
        renhou=not tsumo and not dealer and first and s.draws == 0 and event == "dahai",
        open_riichi=s.riichi and s.open_riichi,
        discarder_in_riichi=not tsumo and r.seats[source].riichi,
        kita=s.kita,
        honba=r.setup.honba if honba is None else honba,
        riichi_sticks=r.sticks if sticks is None else sticks,
        dealer_consecutive_wins=r.setup.dealer_consecutive_wins,
    )
    ura = r.wall.ura_indicators() if s.riichi and rules.ura_dora else ()
    try:
        hand = rules.scorer.hand(list(concealed), win=tile, melds=[(m.type, m.tiles) for m in s.melds])
        result = rules.scorer.score_result(hand, situation, dora=r.wall.dora_indicators(), ura=ura)
    except (NoYaku, NotAWin):
        if explain:
            raise
        return None
    if s.riichi and rules.ura_dora:
        return replace(result, ura_indicators=T.format_tiles(ura, sort=False))
    return result


def tsumo_offer(r: RoundState) -> ScoreResult | None:
    """The tsumo the drawn tile offers (``RoundState.tsumo_result``), scored the first time it is asked.

    A draw that completes the hand marks it ``UNSCORED`` instead of scoring it: a replay asks nothing of a tsumo
    the log does not declare (a third of the drawn waits of the vendored logs: no yaku, or the win let go), and a
    listing or a declared tsumo asks here. Nothing the score reads changes between the draw and the turn's end
    (the hand, the counters, the wall and its indicators, the flags of the draw; a riichi declared pays its stick
    after the discard), so the score is the one the draw would have found:
    ``tests/round/test_lazy_tsumo.py`` compares the two at every draw of replayed logs and self-played games."""
    result = r.tsumo_result
    if result is UNSCORED:
        seat, tile = r.actor, r.drawn
        assert tile is not None
        result = r.tsumo_result = score(r, seat, tile, seat, "tsumo")
    return result  # type: ignore[return-value]


def ron_result(r: RoundState, seat: int, tile: int, source: int, event: str) -> ScoreResult | None:
    """``score`` of a ron, kept while nothing happens in the round: the offer and the win ask the same."""
    key = (seat, tile, source, event, len(r.log))
    if key not in r.ron_cache:
        if len(r.ron_cache) > 64:
            r.ron_cache.clear()
        r.ron_cache[key] = score(r, seat, tile, source, event)
    return r.ron_cache[key]


def ron_won(r: RoundState, seat: int, tile: int, source: int, event: str) -> ScoreResult:
    """``ron_result`` of a ron the round has accepted (its offer was checked a win with the same question)."""
    result = ron_result(r, seat, tile, source, event)
    if result is None:
        raise InternalError(f"seat {seat} declared a ron the round had not offered")
    return result
