"""The round facts of the rule language, computed from a round's state.

``abortive_draw``, ``draw`` and ``liability`` items read these through their compiled fields
(``rule.fields["when"](env)``), so every name here is one of ``ruledsl.vocabulary.FACTS`` of scope ``round``;
player-scoped facts (``terminal_kinds``, ``all_discards_yaochuu``, ``discards_called``, ``made_calls``) are about
the seat the item is evaluated for. The environment computes a fact only when an item reads it: most items read
two or three. They are asked after every discard, but looked at again only when a fact they last read has moved
(``MOVED_BY_...``): most facts change only at a call, a kan, a riichi or the end of the first go-around. Even then
the conditions are rarely evaluated: their answer is recalled from the values of the facts they read (``recall``),
as learned from an earlier evaluation (``learn``).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from engine.core import tiles as T
from ruledsl.caches import register
from ruledsl.memo import BoundedCache

if TYPE_CHECKING:
    from engine.round.state import RoundState

_YAOCHUU = frozenset(T.YAOCHUU_KINDS)
_RIICHI = attrgetter("riichi")


def _first_discards_same_wind(r: RoundState, seat: int) -> bool:
    # seat by seat, false at the first seat without a discard or whose first discard differs: asked after each
    # discard of the first go-around, when most seats have not discarded yet or the first two differ
    wind = -1
    for s in r.seats:
        if not s.discards:
            return False
        kind = T.KIND_OF[s.discards[0]]
        if kind != wind:
            if wind != -1 or not T.is_wind(kind):
                return False
            wind = kind
    return wind != -1


FACTS: dict[str, Callable[[RoundState, int], Any]] = {
    "first_go_around": lambda r, seat: not r.second_draw,
    "any_call": lambda r, seat: r.any_call,
    "riichi_count": lambda r, seat: sum(map(_RIICHI, r.seats)),  # each flag a 0 or 1, added up at C level
    "kan_count": lambda r, seat: len(r.kan_makers),
    "kan_makers": lambda r, seat: len(set(r.kan_makers)),
    "first_discards_same_wind": _first_discards_same_wind,
    "terminal_kinds": lambda r, seat: sum(1 for k in _YAOCHUU if r.seats[seat].counts[k]),
    "all_discards_yaochuu": lambda r, seat: all(T.KIND_OF[c] in _YAOCHUU for c in r.seats[seat].discards),
    "discards_called": lambda r, seat: r.seats[seat].discards_called,
    "made_calls": lambda r, seat: r.seats[seat].made_calls,
    "players": lambda r, seat: r.rules.players,
    "honba": lambda r, seat: r.setup.honba,
    "riichi_sticks": lambda r, seat: r.sticks,
}


# Facts whose value changes only where the round counts a "steady change" (``RoundState.steady_changes``: the end of
# the first go-around, a call, a kan, a riichi stick, the last seat's first discard) or never during a hand; the others (discards, a hand's
# tiles) change with every discard. A fact missing here counts as changing at every discard, so a new fact is safe.
STEADY_FACTS = frozenset(
    {"first_go_around", "any_call", "riichi_count", "kan_count", "kan_makers", "discards_called", "made_calls", "players", "honba", "riichi_sticks",
     # false until every seat has discarded, then fixed: the last seat's first discard counts as a steady change
     # (``turns.own_dahai``)
     "first_discards_same_wind"}
)
SEAT_FACTS = frozenset({"terminal_kinds", "all_discards_yaochuu", "discards_called", "made_calls"})  # about one seat

# The steady facts each steady change may move, added to ``RoundState.moved`` where the round counts the change: a
# check that read none of them gives the same answer after it (``calls.abortive_after``). ``players`` and ``honba``
# never move during a hand.
MOVED_BY_SECOND_DRAW = frozenset({"first_go_around"})  # ``turns.live_draw``: the first go-around is over
MOVED_BY_FIRST_DISCARDS = frozenset({"first_discards_same_wind"})  # ``turns.own_dahai``: the last seat's first discard
MOVED_BY_INTERRUPTION = frozenset({"any_call"})  # ``turns.break_first_turn``: a call, a kan, a North
MOVED_BY_CALL = frozenset({"made_calls", "discards_called"})  # ``calls.call``: the caller's and the discarder's
MOVED_BY_KAN = frozenset({"kan_count", "kan_makers"})  # ``kans.kan_declared`` and ``calls.call``'s open kan
MOVED_BY_RIICHI = frozenset({"riichi_count", "riichi_sticks"})  # ``riichi.establish_riichi``: a riichi stands

# The steady facts of a hand before its first move, for every seat, the same in every hand (not ``players``, ``honba``
# or ``riichi_sticks``): a round starts its checks after a discard knowing them (``FRESH_KEY``), so that its first
# check computes only those a change moved since the deal (never written to)
FRESH: dict[str, Any] = {
    "first_go_around": True, "any_call": False, "riichi_count": 0, "kan_count": 0, "kan_makers": 0,
    "first_discards_same_wind": False, "discards_called": False, "made_calls": False,
}
# the quiet key a round starts with (``RoundState.quiet``): no check made yet (a count of steady changes no round
# reaches, so the shortcut of a discard never takes it), for any seat, ``FRESH`` known
FRESH_KEY: tuple[int, int | None, dict[str, Any]] = (-1, None, FRESH)
GIVEN = frozenset({"ron_count", "completing_call"})  # set by the caller, not computed from the round
_GIVEN_COUNT = len(GIVEN)


class RoundFacts(dict):
    """The round facts for one seat, each computed on first read (``ron_count`` and ``completing_call`` are given).
    Made by ``round_facts`` (the dict's own constructor, then the two slots: no Python ``__init__`` to run, for
    the abortive checks build one after many discards)."""

    __slots__ = ("round", "seat")
    round: RoundState
    seat: int

    def __missing__(self, key: str) -> Any:
        compute = FACTS.get(key)
        if compute is None:
            raise KeyError(key)
        value = self[key] = compute(self.round, self.seat)
        return value


def round_facts(r: RoundState, seat: int | None = None, ron_count: int = 0, completing_call: str = "") -> RoundFacts:
    """Every round fact, for ``seat`` where a fact is about one player (``None``: the seat whose turn it is)."""
    env = RoundFacts(ron_count=ron_count, completing_call=completing_call)
    env.round = r
    env.seat = r.actor if seat is None else seat
    return env


# what a check that read only steady facts keeps (``steady_key``): the round's count of steady changes then, the seat
# when a fact read is about a seat (else None), and each fact read with its value, in the order read
QuietKey = tuple[int, int | None, tuple[tuple[str, Any], ...]]


def steady_key(env: RoundFacts) -> QuietKey | None:
    """What decides every fact ``env`` has computed so far, when all of them are steady: the round's count of
    steady changes, the seat when one of them is about a seat, and the facts with their values (``still_quiet``);
    None when one changes at every discard.

    Conditions are pure and are evaluated in a fixed order, so a condition that read only these facts reads the
    same ones with the same values, and gives the same answer, for as long as the key stays the same: an
    abortive check after a discard need not be run again (short-circuits count: once the first go-around is over,
    a condition that starts with it reads nothing else)."""
    read = env.keys() - GIVEN
    if not read <= STEADY_FACTS:
        return None
    # the given facts are the first entries of every ``RoundFacts`` (``round_facts`` makes it with them): the rest
    # are the facts read, in the order read
    reads = tuple(env.items())[_GIVEN_COUNT:]
    return (env.round.steady_changes, None if read.isdisjoint(SEAT_FACTS) else env.seat, reads)


def still_quiet(r: RoundState, quiet: QuietKey, seat: int) -> bool:
    """Whether every fact the check that left ``quiet`` read has the value it read then (about ``seat``: the seat
    of ``quiet``, or any when it read no seat's fact), asked when a steady change came since.

    A steady change moves only some facts (a call after the first go-around moves none that four winds, four riichi
    and four kans read by then), and conditions are pure and evaluated in a fixed order: the same values read give
    the same reads and the same answer, so a few facts recounted spare evaluating every condition again."""
    for name, value in quiet[2]:
        if FACTS[name](r, seat) != value:
            return False
    return True


# What the checks of one moment answered, learned by value (``recall``, ``learn``): under the tuple of the values
# read so far, in the order read, either the name of the fact the conditions read next or, once they are done, an
# ``Answer``. Conditions are pure and evaluated in a fixed order over the same given facts, so the values read so far
# decide the next read and, at the end, the answer: a round whose facts have the values another round had reads the
# same facts and gets the same answer, whatever else differs. Each entry is true on its own, so emptying a full memo
# (``BoundedCache``) only means learning again. Every fact's value is a number or a truth value: a key.
Decisions = BoundedCache[tuple[Any, ...], "str | Answer"]
# the first item that held (None: none did), whether every fact read is steady (``STEADY_FACTS``), whether one is
# about the seat the check was made for (``SEAT_FACTS``), and the facts read with their values (never written to:
# one dict per path, shared by every round that takes it)
Answer = tuple[Any, bool, bool, dict[str, Any]]
_DECISIONS_KEPT = 512  # entries a moment's memo keeps: a path per combination of the few steady values met
NOTHING_KNOWN: dict[str, Any] = {}  # no value known beforehand (never written to)


def recall(memo: Decisions, r: RoundState, seat: int, known: dict[str, Any] = NOTHING_KNOWN) -> Answer | None:
    """The answer of the checks ``memo`` learned, for ``seat`` now: the facts they read taken one by one as the
    memo names them, each fact's value choosing the next, until an answer; None when this path was never learned
    (``learn`` it from a full evaluation). A fact ``known`` holds is not computed: the values an earlier check read
    for the same seat, less (or recomputed) those a steady change moved since (``calls.abortive_after``)."""
    values: tuple[Any, ...] = ()
    step = memo.get(values)
    while isinstance(step, str):
        values += (known[step] if step in known else FACTS[step](r, seat),)
        step = memo.get(values)
    return step


def learn(memo: Decisions, env: RoundFacts, item: Any) -> Answer:
    """Keep in ``memo`` what a full evaluation on ``env`` read, in order, and its answer ``item``; the ``Answer``."""
    reads = tuple(env.items())[_GIVEN_COUNT:]  # the given facts come first (``round_facts``), then the reads
    values: tuple[Any, ...] = ()
    for name, value in reads:
        memo.put(values, name)
        values += (value,)
    read = dict(reads)
    answer = (item, read.keys() <= STEADY_FACTS, not read.keys().isdisjoint(SEAT_FACTS), read)
    memo.put(values, answer)
    return answer


# one memo per tuple of (item, condition) pairs checked at one moment (``RoundRules.abortives_at``), keyed by its
# identity: the entry holds the tuple, so the identity cannot be reused while the entry lives (``decisions``)
DECISIONS: dict[int, tuple[object, Decisions]] = {}
_DECISIONS_TABLES = 64
register("engine.round.facts.decisions", DECISIONS.clear, DECISIONS.__len__, _DECISIONS_TABLES)


def decisions(items: object) -> Decisions:
    """The memo of the checks ``items`` (with no given fact set: no ron, no completing call), made on first use."""
    found = DECISIONS.get(id(items))
    if found is not None and found[0] is items:
        return found[1]
    if len(DECISIONS) >= _DECISIONS_TABLES:
        DECISIONS.clear()
    memo: Decisions = BoundedCache(_DECISIONS_KEPT)
    DECISIONS[id(items)] = (items, memo)
    return memo
