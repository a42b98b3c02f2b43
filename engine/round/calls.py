"""The answers to a tile given up: the response window after a discard, a kan or a North, its resolution (ron,
calls by ``settings calls precedence``, passes), the call itself, and the abortive checks once a discard passed.
Which answers a seat may give is ``engine.round.legal``'s (``responses``, ``may_call``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.situation import WINDS
from engine.core.tiles import KIND_OF, KINDS
from engine.round import endings, kans, legal, riichi, scoring, turns
from engine.round.actions import Action, held_sorted
from engine.round.events import Meld
from engine.round.facts import (
    FACTS,
    FRESH_KEY,
    MOVED_BY_CALL,
    MOVED_BY_KAN,
    NOTHING_KNOWN,
    decisions,
    learn,
    recall,
    round_facts,
)
from engine.round.state import MeldRecord
from engine.scoring.pao import WinClaim
from ruledsl.caches import register
from ruledsl.memo import BoundedCache

if TYPE_CHECKING:
    from engine.round.state import RoundState


# the word of each call in ``settings calls precedence``
CALL_WORD = {"pon": "pon", "daiminkan": "kan", "chi": "chi"}


def _others_in_turn(players: int, source: int) -> tuple[int, ...]:
    """The other seats in turn order after ``source`` (asked after every discard: built once per table size)."""
    key = (players, source)
    order = _ORDERS.get(key)
    if order is None:
        order = _ORDERS[key] = tuple((source + k) % players for k in range(1, players))
    return order


_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}


def orders_of(players: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the others in turn order after it: a round indexes this by the discarder instead of
    building or looking up a key at every discard. One table per table size (3 or 4 players: never more)."""
    table = _ORDER_TABLES.get(players)
    if table is None:
        table = _ORDER_TABLES[players] = tuple(_others_in_turn(players, source) for source in range(players))
    return table


_ORDER_TABLES: dict[int, tuple[tuple[int, ...], ...]] = {}
# both bounded by their domain (a table seats at most four; both refill after ``clear_all``)
register("engine.round.calls.orders", _ORDERS.clear, _ORDERS.__len__, len(WINDS) * len(WINDS))
register("engine.round.calls.order_tables", _ORDER_TABLES.clear, _ORDER_TABLES.__len__, len(WINDS))


def open_window(r: RoundState, event: str, tile: int, source: int) -> None:
    """Ask every other seat what it answers to ``tile``; with nobody to ask the tile passes at once. A discard's
    window is ``discard_window``; a kan's or a North's asks only the hands that wait on the tile (no call is made
    of it)."""
    if event == "dahai":
        discard_window(r, tile, source)
        return
    r.window = (event, tile, source)
    if r.pending:
        r.pending = {}
    if r.answers:
        r.answers = {}
    kind = KIND_OF[tile]
    seats = r.seats
    pending = r.pending
    for seat in r.orders[source]:
        if kind in seats[seat].waits:
            options = legal.responses(r, seat, tile, source, event)
            if options:
                pending[seat] = options
    if pending:
        r.phase = "respond"
    else:
        resolve(r)


def discard_window(r: RoundState, tile: int, source: int) -> None:
    """The window after a discard, the window of nearly every turn: a seat is asked only when the tile is one of its
    waits, or it may pon it (a pair held) or, the seat on the left, chi it (two tiles of a run held) and
    ``legal.may_call`` does not rule the call out. A discard nobody may answer passes at once, without building
    any list, to the abortive checks and the next draw."""
    # the window's dicts are empty on an own turn (its opening, ``turns.begin_turn`` or ``turns.live_draw``, left
    # them so, and nothing asks a seat before its discard): kept, not replaced by new empty ones; the window itself is
    # written only when some seat is asked (its readers read it only then: ``Round.legal_actions``, ``pass_waiting``,
    # ``resolve``), and a discard nobody is asked about leaves the last draw's None
    kind = KIND_OF[tile]
    seats = r.seats
    pending = r.pending
    waited = False  # some seat waits on the kind: a pass makes it furiten (``passed_unasked``)
    left = True  # the first seat in turn order after the discarder is the one on its left: the only one to chi
    for seat in r.orders[source]:
        s = seats[seat]
        waits = s.waits
        if waits and kind in waits:  # most hands wait on nothing: an empty set asked first, no hash looked up
            waited = True
            options = legal.responses(r, seat, tile, source, "dahai")
            if options:
                pending[seat] = options
        elif not s.riichi:  # in riichi: no call
            counts = s.counts
            if counts[kind] >= 2 or (
                left
                and kind < 27  # no chi of an honour
                and r.rules.chi
                and (
                    # ``legal.chi_near``, written in place (the seat on the left, at nearly every discard), the
                    # kind's number read from a table rather than by a modulo each time
                    (NUMBER_OF[kind] >= 2 and counts[kind - 2] and counts[kind - 1])
                    or (1 <= NUMBER_OF[kind] <= 7 and counts[kind - 1] and counts[kind + 1])
                    or (NUMBER_OF[kind] <= 6 and counts[kind + 1] and counts[kind + 2])
                )
            ):
                # no ron: whether a call is offered is known without building the calls, and most seats asked pass
                callable_now = legal.may_call(r, seat, tile, source)
                if callable_now is None:
                    options = legal.responses(r, seat, tile, source, "dahai")
                    if options:
                        pending[seat] = options
                elif callable_now:
                    pending[seat] = None
        left = False
    if pending:
        r.window = _DISCARD_WINDOWS[source][tile]
        r.phase = "respond"
    elif waited or seats[source].riichi_declared:
        passed_unasked(r, kind, source)
    else:  # most discards: nobody waits on it nor may call it, and no riichi stands on it
        r.phase = "own"
        quiet = r.quiet
        if quiet is not None and quiet[0] == r.steady_changes and (quiet[1] is None or quiet[1] == source) and r.wall.remaining:
            # ``discard_passed`` when its shortcut holds and the wall goes on (nearly every discard): the next draw
            turns.live_draw(r, (source + 1) % r.rules.players)
        else:
            discard_passed(r, source)


# the number of each kind within its suit (``kind % 9``; an honour's is its place among the honours)
NUMBER_OF = tuple(kind % 9 for kind in range(KINDS))
# ``("dahai", tile, source)`` of every seat and tile code, built once: a discard's window is one of them
_DISCARD_WINDOWS = tuple(tuple(("dahai", tile, source) for tile in range(len(KIND_OF))) for source in range(len(WINDS)))


def passed_unasked(r: RoundState, kind: int, source: int) -> None:
    """A discard nobody could answer passed: what ``resolve`` does with no answers (a passed winning tile
    makes its hand furiten, a riichi stands, then the abortive checks and the next draw), without building the
    lists of rons and calls nobody made. Most discards go this way (``open_window`` skips the first two steps
    when no seat waits on the tile and no riichi was declared with it), and so does a discard's window every asked
    seat passed before any answered (``Round.pass_waiting``): passes alone make no ron and no call either."""
    seats = r.seats
    for seat in r.orders[source]:
        s = seats[seat]
        waits = s.waits
        if waits and kind in waits:
            s.furiten_temporary = True
            if s.riichi:
                s.furiten_riichi = True
    r.phase = "own"
    if seats[source].riichi_declared:
        riichi.establish_riichi(r, source)
    discard_passed(r, source)


def resolve(r: RoundState) -> None:
    """Every asked seat answered: ron first (with the abortive checks of `immediately` and `triple_ron`), then
    the call of highest precedence, else the tile passes."""
    assert r.window is not None
    event, tile, source = r.window
    order = r.orders[source]
    answers = r.answers
    rons = [seat for seat in order if seat in answers and answers[seat].type == "hora"] if answers else []
    kind = KIND_OF[tile]
    robbable = event in ("dahai", "kakan")  # a closed kan or a North: only the hands that could rob it
    for seat in order:  # a passed winning tile: temporary furiten, and for good in riichi
        s = r.seats[seat]
        if seat not in rons and kind in s.waits and (robbable or any(a.type == "hora" for a in r.pending.get(seat) or ())):
            s.furiten_temporary = True
            if s.riichi:
                s.furiten_riichi = True
    r.pending = {}
    r.phase = "own"
    if rons:
        env = round_facts(r, source, ron_count=len(rons))
        for item, when in r.rules.abortives_at.get("immediately", ()):
            if when(env):
                endings.end_abortive(r, item)
                return
        if len(rons) >= 3 and r.rules.triple_ron == "abort":
            endings.end_abortive(r, None)
            return
        winners = rons[: r.rules.multiple_ron]
        claims = [WinClaim(w, source, tile, scoring.ron_won(r, w, tile, source, event), chankan=event in ("kakan", "ankan")) for w in winners]
        endings.end_wins(r, claims)
        return
    calls = [a for a in answers.values() if a.type in CALL_WORD] if answers else []
    r.answers = {}
    if event == "dahai":
        riichi.establish_riichi(r, source)
        if calls:
            prec = r.rules.precedence
            calls.sort(key=lambda a: prec.index(CALL_WORD[a.type]) if CALL_WORD[a.type] in prec else len(prec))
            call(r, calls[0])
        else:
            discard_passed(r, source)
        return
    kans.after_window(r)


def discard_passed(r: RoundState, source: int) -> None:
    """The discard passed: the `discard_passed` abortive checks (with their shortcut), the exhaustive draw,
    else the next seat draws."""
    quiet = r.quiet  # ``abortive_after``'s first shortcut, tested here first: most discards need no more
    if quiet is None or quiet[0] != r.steady_changes or (quiet[1] is not None and quiet[1] != source):
        item = abortive_after(r, source)
        if item is not None:
            endings.end_abortive(r, item)
            return
    if r.wall.remaining == 0:
        endings.exhaustive(r)
        return
    turns.live_draw(r, (source + 1) % r.rules.players)  # ``turns.draw`` of a live draw, without its dispatch


def abortive_after(r: RoundState, source: int) -> Any:
    """The first abortive item (`at = "discard_passed"`) that holds now ``source``'s discard passed, or None.

    They are asked after every discard and nearly always hold not. When the last check read only steady facts
    (``engine.round.facts.STEADY_FACTS``) and no steady change came since, or none that moves one of them (a call
    after the first go-around moves none that four winds, four riichi and four kans read by then:
    ``RoundState.moved``), or the facts it moved keep their values, the answer is still None and nothing else is
    read. Else the answer is recalled from what the same checks answered under the same values (``recall``: the
    facts they read taken one by one, as in the evaluation that learned them, those the last check read and no change
    moved not computed again, and no condition evaluated); only values never met before evaluate every condition
    (``learn``)."""
    items = r.rules.abortives_at.get("discard_passed", ())
    if not items:
        r.quiet = (r.steady_changes, None, NOTHING_KNOWN)  # nothing to check, ever: the shortcut holds
        return None
    quiet = r.quiet
    moved = r.moved
    known = NOTHING_KNOWN
    if quiet is not None and (quiet[1] is None or quiet[1] == source):
        if quiet[0] == r.steady_changes:
            return None
        known = quiet[2]  # what the last check read (or a hand starts with): still so, but for the facts moved since
        now = None
        for name in moved.intersection(known):  # each read fact a change may have moved, computed again
            value = FACTS[name](r, source)
            if value != known[name]:
                if now is None:
                    now = known.copy()
                now[name] = value
        moved.clear()
        if now is not None:
            known = now
        elif quiet is not FRESH_KEY:  # every fact read has the value it had: the same answer, kept at the new count
            r.quiet = (r.steady_changes, quiet[1], known)
            return None
    moved.clear()  # the facts moved and not read before are not in ``known``: computed if read now
    memo = decisions(items)
    answer = recall(memo, r, source, known)
    if answer is None:
        env = round_facts(r, source)
        answer = learn(memo, env, next((item for item, when in items if when(env)), None))
    item, steady, about_seat, read = answer
    if item is None:
        # the facts read decide the answer while they keep their values: steady ones keep them until a steady change
        # moves one (about ``source`` when one is about a seat)
        r.quiet = (r.steady_changes, source if about_seat else None, read) if steady else None
    return item


def call(r: RoundState, a: Action) -> None:
    """A chi, pon or open kan: the meld made, the first go-around broken, then the caller's turn (an open
    kan's replacement first)."""
    seat, tile, source = a.actor, a.pai, a.target
    assert tile is not None and source is not None
    s = r.seats[seat]
    for c in a.consumed:
        s.remove(c)
    key = (a.type, a.consumed, tile, source)
    meld = _MELDS.get(key)
    if meld is None:  # a record is an immutable value: one per call made, shared by every round that makes it
        meld = _MELDS.put(key, MeldRecord(a.type, held_sorted((*a.consumed, tile)), tile, source))
    s.melds.append(meld)
    if a.type == "pon":
        s.pon_kinds.append(KIND_OF[tile])
    s.made_calls = True
    r.seats[source].discards_called = True
    r.steady_changes += 1
    r.moved |= MOVED_BY_CALL
    turns.release_on_call(r, seat)
    turns.break_first_turn(r)
    r.log.append(Meld(a.type, seat, source, tile, a.consumed))
    if a.type == "daiminkan":
        r.kan_makers.append(seat)
        r.moved |= MOVED_BY_KAN
        if r.rules.kan_dora == "immediately":
            turns.reveal(r)
        else:
            r.pending_dora += 1
        turns.draw(r, seat, replacement=True, rinshan=True)
        return
    turns.begin_turn(r, seat, None, kuikae=legal.kuikae_forbidden(r.rules.kuikae, tile, a.consumed, a.type))


# the meld each call makes, by (type, tiles taken from the hand, tile called, seat called from): a few thousand calls
# there are, and building a frozen record costs more than a look-up
_MELDS: BoundedCache[tuple[str, tuple[int, ...], int, int], MeldRecord] = BoundedCache(4096)
