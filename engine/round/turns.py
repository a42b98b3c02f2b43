"""A seat's turn: the deal, the draws, the discard and the other own-turn moves that are not riichi or a kan.

Functions over the ``RoundState`` (the record holds the state; this module is behaviour only): ``deal`` and ``draw``
put tiles in hands and open a turn (``begin_turn`` sets every field of a turn; ``live_draw``, the draw of nearly
every turn, writes the same fields in place, held equal to it by ``tests/round/test_seat_shortcuts.py``), the
``own_*`` functions play own-turn moves, and ``reveal``, ``release_on_call`` and ``break_first_turn`` are the
small state changes these moves share with calls and kans.
"""

from __future__ import annotations

from bisect import insort
from operator import attrgetter
from typing import TYPE_CHECKING

from engine.core.tiles import KIND_OF
from engine.round import calls, endings, scoring
from engine.round.actions import Action, Discard
from engine.round.events import DAHAI, TSUMO, Dora, start_kyoku
from engine.round.facts import (
    MOVED_BY_FIRST_DISCARDS,
    MOVED_BY_INTERRUPTION,
    MOVED_BY_SECOND_DRAW,
    round_facts,
)
from engine.round.shanten_floor import PLACE, SUIT_OF
from engine.round.state import UNSCORED
from engine.round.wall import Wall
from engine.scoring.pao import WinClaim

if TYPE_CHECKING:
    from engine.round.state import RoundState


def deal(r: RoundState, wall: Wall) -> None:
    """Thirteen tiles to each seat from the dealer on, the ``start_kyoku`` event, then the dealer's first draw."""
    rules = r.rules
    tiles = wall.tiles
    for k in range(rules.players):
        s = r.seats[(r.setup.dealer + k) % rules.players]
        dealt = tiles[13 * k : 13 * (k + 1)]
        s.hand.extend(dealt)  # ``Seat.add`` of each tile, written in place for the 13 of a deal
        counts = s.counts
        keys = s.suit_keys
        for code in dealt:
            kind = KIND_OF[code]
            counts[kind] += 1
            keys[SUIT_OF[kind]] += PLACE[kind]
    for s in r.seats:
        s.rest(r.kinds)
    r.log.append(
        start_kyoku(
            r.setup.round_wind, r.setup.dealer + 1, r.setup.honba, r.sticks, r.setup.dealer, r.wall.dora_indicator(0), tuple(r.scores),
            tuple(map(tuple, map(_HAND, r.seats))),
        )
    )
    live_draw(r, r.setup.dealer)  # ``draw`` of the first live draw, without its dispatch


def draw(r: RoundState, seat: int, replacement: bool = False, rinshan: bool = False) -> None:
    """A draw from the live wall or, after a kan or a North, a replacement; the drawn tile is scored at once
    when it is a wait (the tsumo offer)."""
    if not replacement:
        live_draw(r, seat)
        return
    s = r.seats[seat]
    tile = r.wall.replacement()
    s.drawn_floor = -1
    if r.release_on_draw:  # a replacement draw is the player's own draw too
        s.furiten_temporary = False
    r.log.append(TSUMO[seat][tile])
    kind = KIND_OF[tile]
    s.hand.append(tile)  # ``Seat.add``, written in place
    s.counts[kind] += 1
    s.suit_keys[SUIT_OF[kind]] += PLACE[kind]
    begin_turn(r, seat, tile, rinshan=rinshan, replacement=True)
    if kind in s.waits:  # the waits of the hand before the draw (``begin_turn`` does not change them)
        r.tsumo_result = UNSCORED  # scored when asked (``scoring.tsumo_offer``)


def live_draw(r: RoundState, seat: int) -> None:
    """``draw`` from the live wall, the draw of nearly every turn: the wall's ``draw`` and ``begin_turn`` written in
    place (a turn after a live draw: no rinshan, no replacement, no call, no riichi pending), so that the common
    turn is one call from the discard that passed to the next player's move.

    A live draw comes only at the deal or once a discard passed (``calls.discard_passed``), when ``begin_turn``'s
    phase, call flag, riichi flag and response window's dicts are as it would set them already: the round is in
    its own phase, the discard (``own_dahai``) cleared the call and the pending riichi, and the window's dicts are
    empty (nobody was asked, or the window was resolved). Those are not written again here."""
    s = r.seats[seat]
    wall = r.wall
    tile = wall.live[wall.next_live]
    wall.next_live += 1
    wall.remaining -= 1
    s.draws += 1
    if not r.second_draw and s.draws == 2:
        r.second_draw = True  # the first go-around is over
        r.steady_changes += 1
        r.moved |= MOVED_BY_SECOND_DRAW
    s.drawn_floor = -1
    if r.release_on_draw:
        s.furiten_temporary = False
    r.log.append(TSUMO[seat][tile])
    kind = KIND_OF[tile]
    s.hand.append(tile)
    s.counts[kind] += 1
    s.suit_keys[SUIT_OF[kind]] += PLACE[kind]
    # ``begin_turn(r, seat, tile)``: every field of the turn it would change, as it sets them
    r.actor = seat
    r.drawn = tile
    r.rinshan = False
    r.replacement = False
    r.kuikae_forbidden = _NONE_FORBIDDEN
    r.window = None
    r.own_cache = None
    # a wait: scored when asked (``scoring.tsumo_offer``); most hands wait on nothing, an empty set asked first
    waits = s.waits
    r.tsumo_result = UNSCORED if waits and kind in waits else None


def begin_turn(r: RoundState, seat: int, drawn: int | None, *, rinshan: bool = False, replacement: bool = False, kuikae: frozenset[int] | None = None
) -> None:
    """``seat`` is to move: after a draw (``drawn``), or after a chi or pon (``kuikae``: the kinds it may not
    discard now). Every field of the turn is set here, for both, so that a draw and a call cannot drift apart.
    After a call the response window is closed and no riichi waits for its discard, as after a draw; the
    replacement flag is read only for a tsumo, which a call never is."""
    r.actor = seat
    r.phase = "own"
    r.drawn = drawn
    r.rinshan = rinshan
    r.replacement = replacement
    r.after_call = kuikae is not None
    r.reach_pending = False
    r.kuikae_forbidden = kuikae if kuikae is not None else _NONE_FORBIDDEN
    if r.pending:  # empty after most discards (nobody was asked): kept, not replaced by a new empty dict
        r.pending = {}
    if r.answers:
        r.answers = {}
    r.window = None
    r.own_cache = None
    r.tsumo_result = None


_NONE_FORBIDDEN: frozenset[int] = frozenset()
_DISCARDS = attrgetter("discards")  # a seat's discards, read for each seat in C at a seat's first discard
_HAND = attrgetter("hand")  # each seat's dealt hand, copied in C for the deal's event


def own_dahai(r: RoundState, a: Discard) -> None:
    """The discard: a pending riichi declaration recorded, the hand rested, pending kan indicators shown, then
    the other seats asked (``calls.discard_window``). ``a`` is the discard action, or a log's discard event that
    equals it (``Discard``: only its seat, tile and flag are read)."""
    seat, tile = a.actor, a.pai
    assert tile is not None
    s = r.seats[seat]
    kind = KIND_OF[tile]
    hand = s.hand
    counts = s.counts
    # ``Seat.remove``, written in place: every discard. The drawn tile let go (a third of all discards) is the
    # list's last; when it is the one tile of its kind it is its code's only copy too, taken off the end where
    # ``remove`` would compare it with every tile before it
    if counts[kind] == 1 and hand[-1] == tile:
        hand.pop()
    else:
        hand.remove(tile)
    counts[kind] -= 1
    s.suit_keys[SUIT_OF[kind]] -= PLACE[kind]
    s.discards.append(tile)
    if len(s.discards) == 1 and all(map(_DISCARDS, r.seats)):
        r.steady_changes += 1  # the last seat's first discard: the first discards are all known (a steady fact)
        r.moved |= MOVED_BY_FIRST_DISCARDS
    s.discard_kinds.add(kind)
    if r.release_on_discard:  # the player's own discard, the one after his chi or pon included
        s.furiten_temporary = False
    if s.riichi:
        s.ippatsu = False
    if r.reach_pending:
        s.riichi_declared = True
        s.double_riichi = len(s.discards) == 1 and not r.any_call
        s.open_riichi = r.reach_open
        r.reach_pending = False
    # after a live draw the hand changed by one tile in and one out since its last rest: shanten fell by one
    # at most (a call or a kan's replacement draw: counted afresh). A tile of the drawn kind let go again
    # leaves the very counts and melds of that rest (nothing else changes a hand between its rest and its
    # live draw), where ``rest`` keeps what it found: a third of all discards, every turn of a riichi
    drawn = r.drawn
    codes = s.rest_codes
    if codes is not None and tile != drawn:  # the hand less this tile rests now: the drawn tile joins the kept codes
        if drawn is None:
            s.rest_codes = None
        else:
            if tile not in hand:
                codes.remove(tile)
            if drawn not in codes:
                insort(codes, drawn)
    if drawn is None:
        s.rest_after_discard(r.kinds, -1)
    elif r.replacement or KIND_OF[drawn] != kind:
        bound = -1 if r.replacement else s.shanten - 1
        if s.drawn_floor > bound:  # the riichi check bounded the drawn hand (``Seat.drawn_floor``)
            bound = s.drawn_floor
        s.rest_after_discard(r.kinds, bound)
    r.after_call = False
    r.drawn = None
    while r.pending_dora:  # an open or added kan's indicator comes with this discard, written before it
        reveal(r)
        r.pending_dora -= 1
    r.log.append(DAHAI[seat][tile][a.tsumogiri])
    calls.discard_window(r, tile, seat)


def own_hora(r: RoundState, a: Action) -> None:
    """Tsumo: the win scored when the tile was drawn."""
    result = scoring.tsumo_offer(r)
    assert result is not None and a.pai is not None
    endings.end_wins(r, [WinClaim(a.actor, a.actor, a.pai, result)])


def own_ryukyoku(r: RoundState, a: Action) -> None:
    """The abortive draw the player declared (nine terminals and the like): the first `player_choice` item
    that holds."""
    env = round_facts(r, a.actor)
    for item, when in r.rules.abortives_at.get("player_choice", ()):
        if when(env):
            endings.end_abortive(r, item)
            return


def release_on_call(r: RoundState, seat: int) -> None:
    """A chi, pon or kan by ``seat`` ends same-turn furiten: the caller's own by `call`, every player's by
    `any_call` (a closed or added kan too). It runs before the kan's robbing window, so a hand that then lets
    the robbing tile pass is furiten again."""
    if r.release_on_any_call:
        for other in r.seats:
            other.furiten_temporary = False
    elif r.release_on_own_call:
        r.seats[seat].furiten_temporary = False


def break_first_turn(r: RoundState) -> None:
    """A call or a kan: the first go-around is interrupted and every ippatsu ends."""
    r.any_call = True
    r.steady_changes += 1
    r.moved |= MOVED_BY_INTERRUPTION
    for s in r.seats:
        s.ippatsu = False


def reveal(r: RoundState) -> None:
    """The next dora indicator turned, and its event."""
    code = r.wall.reveal()
    r.log.append(Dora(code))
