"""The state of a hand as declared records: ``RoundState`` (the table, the turn, the response window, the
events and the caches) and ``Seat`` (what each seat holds and has done, and the waits of its resting hand).

Every field is declared once, typed, here; the behaviour that changes them lives in the sibling modules
(``turns``, ``calls``, ``riichi``, ``kans``, ``endings``), as functions over a ``RoundState``. Both records are
slotted, so a misspelt field is an ``AttributeError`` where it is written, not a new field nobody reads.

A hand is kept both as tile codes (red fives matter for scoring) and as 34-bin kind counts (for shanten and
calls). ``waits`` are recomputed whenever the hand rests at 3n+1 tiles, once per change, so that every later
question (may this seat ron? is it tenpai? furiten?) is a set lookup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import tiles as T
from engine.core.analysis import KEYED_BOUND, SHANTEN_OF_KEYS, HandKey, shanten, waits_of_keys
from engine.core.situation import WINDS
from engine.core.tiles import KIND_OF
from engine.round.shanten_floor import PLACE, SUIT_OF, floor_of
from ruledsl.caches import register
from ruledsl.record import field, record

if TYPE_CHECKING:
    from engine.round.actions import Action
    from engine.round.events import RoundEvent
    from engine.round.facts import QuietKey
    from engine.round.round import RoundSetup
    from engine.round.rules import RoundRules
    from engine.round.settlement import Settlement
    from engine.round.wall import WallState
    from engine.scoring.result import ScoreResult


@record
class MeldRecord:
    """A meld as the round keeps it: its type, tiles, the called tile and the seat it came from (None: own)."""

    type: str
    tiles: tuple[int, ...]
    called: int | None = None
    source: int | None = None


@record(frozen=False)
class Seat:
    """One seat's state during the hand."""

    hand: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0] * T.KINDS)
    # the four suit keys of ``counts`` (``engine.round.shanten_floor.suit_keys``), changed with them tile by tile:
    # the hand's shanten floor is then four look-ups (``floor_of``), where counting it from ``counts`` built the keys
    suit_keys: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    melds: list[MeldRecord] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    discard_kinds: set[int] = field(default_factory=set)
    discards_called: bool = False  # another player called one of this seat's discards
    made_calls: bool = False  # chi, pon or open kan made by this seat
    riichi: bool = False  # established
    riichi_declared: bool = False  # declared (its discard may still be ronned)
    double_riichi: bool = False
    open_riichi: bool = False  # the riichi was declared open (`settings riichi open_riichi`): the hand is shown
    ippatsu: bool = False
    furiten_temporary: bool = False
    furiten_riichi: bool = False
    draws: int = 0  # live draws
    kita: int = 0
    waits: frozenset[int] = frozenset()  # kinds completing the resting hand, within the tile set
    # of the resting hand, or a lower bound of it (see ``rest``): one draw lowers it by one at most, so it bounds
    # what a turn can do
    shanten: int = 8
    # a lower bound of the shanten of every hand a discard can leave this turn, found by the riichi check from the
    # drawn hand (its shanten, or the bound of its isolated tiles); -1 when not asked: set back at every draw
    drawn_floor: int = -1
    # the kind of each pon among the melds, in meld order (an added kan takes one out): what may become a kakan
    pon_kinds: list[int] = field(default_factory=list)
    # what ``rest`` last saw (the hand's suit keys and melds as ``hand_key`` gives them, the melds, the tile set):
    # the same again needs no new count
    rested: tuple[HandKey, tuple[MeldRecord, ...], frozenset[int]] | None = None
    # the distinct tile codes, in code order, of the hand less the tile drawn this turn (the discards the own-turn
    # listing offers from the hand), kept once the listing has asked and updated by each discard (``turns.own_dahai``);
    # None when not kept: a call, a kan or a North (``add``, ``remove``) drops it
    rest_codes: list[int] | None = None

    @classmethod
    def empty(cls) -> Seat:
        """``Seat()``, a seat before the deal, made with its fields set directly: four per hand dealt, where the
        record's keyword ``__init__`` cost more than the deal itself. ``tests/round/test_round_state.py`` compares
        the two field by field."""
        seat = object.__new__(cls)
        seat.hand = []
        seat.counts = [0] * T.KINDS
        seat.suit_keys = [0, 0, 0, 0]
        seat.melds = []
        seat.discards = []
        seat.discard_kinds = set()
        seat.discards_called = seat.made_calls = seat.riichi = seat.riichi_declared = seat.double_riichi = False
        seat.open_riichi = seat.ippatsu = seat.furiten_temporary = seat.furiten_riichi = False
        seat.draws = seat.kita = 0
        seat.waits = _NO_WAITS
        seat.shanten = 8
        seat.drawn_floor = -1
        seat.pon_kinds = []
        seat.rested = seat.rest_codes = None
        return seat

    def add(self, code: int) -> None:
        self.hand.append(code)
        kind = KIND_OF[code]
        self.counts[kind] += 1
        self.suit_keys[SUIT_OF[kind]] += PLACE[kind]
        self.rest_codes = None

    def remove(self, code: int) -> None:
        self.hand.remove(code)
        kind = KIND_OF[code]
        self.counts[kind] -= 1
        self.suit_keys[SUIT_OF[kind]] -= PLACE[kind]
        self.rest_codes = None

    @property
    def closed(self) -> bool:
        return all(m.type == "ankan" for m in self.melds)

    @property
    def furiten_permanent(self) -> bool:
        return not self.discard_kinds.isdisjoint(self.waits)

    @property
    def furiten(self) -> bool:
        return self.furiten_temporary or self.furiten_riichi or self.furiten_permanent

    def rest(self, kinds: frozenset[int], bound: int = -1) -> None:
        """Recompute the waits of the resting (3n+1) hand, keeping only kinds of the tile set (whether they make
        the hand tenpai is the rulebook's karaten rule: ``engine.round.karaten``).

        ``bound`` is a lower bound of the new hand's shanten the caller knows (a live draw and a discard since
        the last rest: the old value minus one). Below 1, the bound of the hand's isolated tiles
        (``engine.round.shanten_floor``: a few integer operations, no cache to miss) is asked next; it settles
        nine in ten of the hands a random player rests with a bound below 1 (a dealt hand, a hand after a call,
        a bound run down turn by turn). At 1 or more the hand cannot be tenpai, so the shanten count is skipped
        and ``shanten`` keeps the bound: its readers only ask whether it exceeds 1, and the next rest starts
        from it.

        A hand that rests as it rested last time (the drawn tile discarded again: every turn of a riichi, a third
        of all discards) keeps what was found then: the same tiles and melds have the same waits, and the kept
        shanten is a lower bound at least as high as ``bound``."""
        melds = tuple(self.melds)
        keys = self.suit_keys
        hand = (keys[0], keys[1], keys[2], keys[3], len(melds))
        rested = self.rested
        if rested is not None and rested[0] == hand and rested[1] == melds and rested[2] is kinds:
            return
        self.rested = (hand, melds, kinds)
        if bound < 1:
            bound = floor_of(keys, len(melds), True)
        if bound >= 1:
            self.shanten = bound
            self.waits = _NO_WAITS
            return
        self.shanten = SHANTEN_OF_KEYS[hand]
        self.waits = WAITS_WITHIN[hand, kinds] if self.shanten == 0 else _NO_WAITS

    def rest_after_discard(self, kinds: frozenset[int], bound: int) -> None:
        """``rest`` for the hand a discard leaves, which is never the hand of the seat's last rest (a discard of
        the drawn kind keeps that rest: ``turns.own_dahai`` does not ask): the same waits and the same bound,
        without the comparison with the last rest, so a hand the bound settles (most discards) is not copied.
        The next ``rest`` has nothing to compare with and counts afresh. The floor is four look-ups of the seat's
        suit keys (``Seat.suit_keys``), so ``turns.own_dahai`` asks it here rather than in place; the exact count
        and the waits are read by the same keys (``hand_key``)."""
        self.rested = None
        n_melds = len(self.melds)
        keys = self.suit_keys
        if bound < 1:
            bound = floor_of(keys, n_melds, True)
        if bound >= 1:
            self.shanten = bound
            self.waits = _NO_WAITS
            return
        hand = (keys[0], keys[1], keys[2], keys[3], n_melds)
        self.shanten = SHANTEN_OF_KEYS[hand]
        self.waits = WAITS_WITHIN[hand, kinds] if self.shanten == 0 else _NO_WAITS


def hand_key(keys: list[int], n_melds: int) -> HandKey:
    """A hand as its shanten and waits are cached (``SHANTEN_OF_KEYS``, ``WAITS_WITHIN``): its four suit keys
    (``Seat.suit_keys``) and its melds, five small ints cheap to hash, where the 34 counts were a tuple to build and
    hash at every ask."""
    return (keys[0], keys[1], keys[2], keys[3], n_melds)


class Unscored:
    """The mark of a drawn wait whose tsumo is not scored yet: a replay plays a tsumo it will not declare (a
    wait without yaku, a win let go) without asking its value, and the score read later is the one the draw would
    have found, as nothing it reads changes during the turn (``engine.round.scoring.tsumo_offer``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSCORED"


UNSCORED = Unscored()

_NO_WAITS: frozenset[int] = frozenset()


class RoundState:
    """Everything a hand is at one moment, declared once: ``Round`` is this record with its public API, and the
    sibling modules are functions over it. The fields are set by ``Round.__init__`` and then by those modules;
    nothing else adds to them (``__slots__``: a field not declared here cannot be written).

    The state is one mutable record, changed in place by each move, not a frozen value copied per move: a move
    changes a handful of fields of a record of some fifty, and a replay or self-play makes hundreds of moves a
    hand (``docs/round-engine.md``, "The state of a hand")."""

    # ---- the table: fixed for the hand
    rules: RoundRules
    setup: RoundSetup
    kinds: frozenset[int]  # the kinds of the rulebook's tile set
    start_scores: tuple[int, ...]
    orders: tuple[tuple[int, ...], ...]  # the other seats in turn order, by the seat that gave a tile up
    # `furiten temporary_release`: the moments that end same-turn furiten, read at every draw, discard and call
    release_on_draw: bool
    release_on_discard: bool
    release_on_own_call: bool
    release_on_any_call: bool

    # ---- the table: what changes during the hand
    scores: list[int]
    sticks: int  # riichi sticks on the table, this hand's included
    deposits: list[int]  # riichi deposits paid this hand, per seat
    wall: WallState
    kita_tiles: list[int]  # the Norths set aside, in order
    pending_dora: int  # kan indicators still to turn (`calls kan_dora = "after_discard"`)
    kan_makers: list[int]  # the seat of each kan made, in order
    any_call: bool  # a call, a kan (or a North, by `table kita_interrupts`) broke the first go-around
    second_draw: bool  # some player has drawn a second time: the first go-around is over
    # bumped wherever a steady round fact may change (``engine.round.facts.STEADY_FACTS``): the first go-around
    # ends, a call, a kan, a riichi stick, the last seat's first discard
    steady_changes: int
    # the steady facts those changes may have moved since the last check after a discard (``calls.abortive_after``
    # empties it; each change adds its ``engine.round.facts.MOVED_BY_...``)
    moved: set[str]

    # ---- the seats
    seats: list[Seat]

    # ---- the turn: set together by ``turns.begin_turn``
    actor: int  # the seat to move, or the last that moved
    phase: str  # "own" (the actor's move), "respond" (a response window), "declare" (voluntary noten), "finished"
    drawn: int | None  # the tile just drawn (None after a call or a discard)
    rinshan: bool  # the draw was a kan's replacement (or a North's, by `table kita_rinshan`)
    replacement: bool  # the draw came from the dead wall (no haitei)
    after_call: bool  # the turn follows a chi or pon: only a discard, outside ``kuikae_forbidden``
    reach_pending: bool  # riichi declared: its discard comes next
    reach_open: bool  # the pending riichi is an open one (read only while ``reach_pending``)
    kuikae_forbidden: frozenset[int]  # the kinds the caller may not discard now
    # the drawn tile scored as a win, when it completes the hand; ``UNSCORED`` when the drawn tile is a wait and the
    # score is not asked yet (``engine.round.scoring.tsumo_offer`` asks it, and keeps it here)
    tsumo_result: ScoreResult | None | Unscored

    # ---- the response window: the answers to a tile given up (a discard, a kan, a North)
    # the seats asked to answer and what each may answer; None: calls only, built on first ask (``legal_actions``)
    pending: dict[int, tuple[Action, ...] | None]
    answers: dict[int, Action]
    window: tuple[str, int, int] | None  # (event, tile, source) of an open response window
    pending_kan: Action | None  # the kan or North whose window is open; played on when nobody robs it

    # ---- the record of the hand, and its end
    log: list[RoundEvent]  # what happened, typed (``engine.round.events``); ``Round.events`` writes it
    _written: list[dict[str, Any]]  # ``Round.events`` written so far
    tenpai: list[bool]  # each seat's tenpai at the exhaustive draw (empty before it)
    finished: bool
    settled: Settlement | None  # the typed settlement, once finished
    # the contract's settlement, written from ``settled`` when first read (``settlement``): a replay or a game reads
    # the typed record, and most rounds are never asked for the dict
    _settlement: dict[str, Any] | None

    # ---- caches: answers kept while what decides them is unchanged
    # (steady_changes, seat or None, the facts read with their values) under which no abortive item held after a
    # discard (``calls.abortive_after``): while no steady change moves one of those facts, none holds; before the
    # first check, ``engine.round.facts.FRESH_KEY``
    quiet: tuple[int, int | None, dict[str, Any]] | None
    # the same for the abortive draws a player may declare on his turn (``legal._player_choice_draws``)
    choice_quiet: QuietKey | None
    # a ron's score by (seat, tile, source, event, events so far): the offer and the win ask the same
    ron_cache: dict[tuple[int, int, int, str, int], ScoreResult | None]
    own_cache: tuple[Action, ...] | None  # the own-turn moves offered this turn (``Round.legal_actions``)

    __slots__ = tuple(__annotations__)  # every field annotated above, and no other

    @property
    def settlement(self) -> dict[str, Any] | None:
        """The contract's settlement object (``Settlement.as_json`` of ``settled``), None before the hand is over;
        written once, at the first read, and the same dict at every read after it."""
        written = self._settlement
        if written is None and self.settled is not None:
            written = self._settlement = self.settled.as_json()
        return written

    def seat_wind(self, seat: int) -> str:
        """The wind of ``seat`` this hand (the dealer is East)."""
        return WINDS[(seat - self.setup.dealer) % self.rules.players]


class _WaitsWithin(dict[tuple[HandKey, frozenset[int]], frozenset[int]]):
    """The waits of a tenpai hand within the tile set, by ``hand_key`` and the set, found on first sight
    (``waits_of_keys``, called from the miss itself: one Python call fewer a hand not seen before) and emptied at
    ``KEYED_BOUND`` entries, as a ``KeyedMemo``."""

    __slots__ = ()

    def __missing__(self, key: tuple[HandKey, frozenset[int]]) -> frozenset[int]:
        if len(self) >= KEYED_BOUND:
            self.clear()
        # the kinds within the tile set, filtered in C
        found = self[key] = frozenset(filter(key[1].__contains__, waits_of_keys(key[0])))
        return found


# the waits of a tenpai hand within the tile set, by ``hand_key`` and the set (the round's own ``kinds``, whose hash
# a frozenset keeps): the resting hand, each riichi discard and a kan after riichi ask it
WAITS_WITHIN = _WaitsWithin()
register("engine.round.state.waits_within", WAITS_WITHIN.clear, WAITS_WITHIN.__len__, KEYED_BOUND)


def formally_tenpai(counts: list[int], n_melds: int) -> bool:
    """Tenpai counting a wait on a kind whose four copies the player holds (a fifth copy would complete it)."""
    if shanten(tuple(counts), n_melds) == 0:
        return True
    held = list(counts)
    for kind in range(T.KINDS):
        if held[kind] == 4:
            held[kind] += 1
            if _complete_any(held, 4 - n_melds):
                return True
            held[kind] -= 1
    return False


def _complete_any(counts: list[int], sets: int) -> bool:
    """Four sets (or fewer after melds) and a pair, copies unbounded (only asked of a hand with a fifth copy)."""
    for kind in range(T.KINDS):
        if counts[kind] >= 2:
            counts[kind] -= 2
            ok = _sets_only(counts, sets)
            counts[kind] += 2
            if ok:
                return True
    return False


def _sets_only(counts: list[int], sets: int) -> bool:
    first = next((k for k in range(T.KINDS) if counts[k]), None)
    if first is None:
        return sets == 0
    if counts[first] >= 3:
        counts[first] -= 3
        ok = _sets_only(counts, sets - 1)
        counts[first] += 3
        if ok:
            return True
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for k in (first, first + 1, first + 2):
            counts[k] -= 1
        ok = _sets_only(counts, sets - 1)
        for k in (first, first + 1, first + 2):
            counts[k] += 1
        return ok
    return False
