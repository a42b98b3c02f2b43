"""The facts a rulebook reads about a win, computed from the tiles and the situation.

Facts that depend only on the hand (its tiles, dora, wait count) are computed once per hand; facts of one
reading (its groups, its wait) are set per reading. Either kind is computed on first use, so a rulebook that
never asks for ura dora never pays for counting them; the cheap ones a rulebook does read may be computed ahead
(``plan_ahead``), so that each reading's table starts with them.

Groups are interned (one object per distinct group), which lets rule loops memoise per group and read a group's
properties from tables.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from itertools import chain, compress, repeat
from types import MemberDescriptorType

from engine.core import tiles as T
from engine.core.decompose import (
    CANNOT_SPLIT,
    HOLDERS,
    RELATIVE_SPLITS,
    SEVEN_PAIRS,
    STANDARD,
    TANKI,
    THIRTEEN_ORPHANS,
    honour_split,
    is_thirteen_orphans,
    read_counts,
)
from engine.core.decompose import PAIR as D_PAIR
from engine.core.decompose import SEQ as D_SEQ
from engine.core.decompose import TRIP as D_TRIP
from engine.core.hand import Hand
from engine.core.memo import Memo
from engine.core.situation import COUNTER_FIELDS, FLAG_FIELDS, Situation
from engine.scoring.situation_facts_display import (
    situation_facts as situation_facts,  # generated: see its source
)
from ruledsl.caches import register
from ruledsl.record import fields
from ruledsl.typing_names import TYPE_CHECKING
from ruledsl.values import KAN, PAIR, SEQUENCE, TRIPLET, Group
from ruledsl.vocabulary import SEQUENCE_STARTS, TRIPLET_KINDS

if TYPE_CHECKING:
    from typing import Any


class Env(dict):
    """A fact table: a dict that computes a missing fact through its hand's providers and keeps it.

    It starts as a copy of the hand-level facts known so far, so the readings after the first find them without a
    second lookup.
    """

    __slots__ = ("hand_facts",)

    def __init__(self, hand_facts: HandFacts, *args: Any) -> None:
        self.update(hand_facts)  # what ``super().__init__`` would merge, without a ``super`` object per reading
        if args:
            self.update(*args)
        self.hand_facts = hand_facts

    def __missing__(self, key: str) -> Any:
        provider = READING_PROVIDERS.get(key)
        if provider is not None:
            value = provider(self)
        else:
            facts = self.hand_facts
            value = facts[key]  # computed by its provider if need be (and kept for the other readings)
            for companion in COMPANIONS.get(key, ()):  # computed together: take them along
                self[companion] = facts[companion]
        self[key] = value
        return value


def successor_table(cycles: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """Each kind's successor (the dora when that kind is the indicator), from a rulebook's ``dora_cycles``;
    public because the scorer builds it once per rulebook and hands it to every ``HandFacts``."""
    table: dict[int, int] = {}
    for cycle in cycles:
        kinds = [T.kind_of(c) for c in cycle]
        for i, kind in enumerate(kinds):
            table[kind] = kinds[(i + 1) % len(kinds)]
    return table


_WIND_KINDS = {letter: T.wind_kind(letter) for letter in T.WIND_LETTERS}


# the situation's flags and counters are facts of the same names and values (``engine.core.situation``)
_PLAIN_FACTS = FLAG_FIELDS + COUNTER_FIELDS
_PLAIN_VALUES = operator.attrgetter(*_PLAIN_FACTS)
_CODE_BYTES_OF = operator.attrgetter("code_bytes")


def situation_facts_of_fields(situation: Situation, players: int) -> dict[str, Any]:
    """``situation_facts`` as the situation's field lists (``FLAG_FIELDS``, ``COUNTER_FIELDS``) define it, and
    ``_said_of`` the six facts said of them: what the generated display (``situation_facts``, from
    ``engine.scoring.situation_facts_source``) writes in one build, kept as its definition for the tests."""
    facts = dict(zip(_PLAIN_FACTS, _PLAIN_VALUES(situation), strict=True))
    facts.update(_said_of(situation, players))
    return facts


def _said_of(s: Situation, players: int) -> dict[str, Any]:
    """The situation's facts that are not plain fields (``situation_facts``), kept per the few fields they come
    from: a hand's fact table takes them in one C-level update instead of six assignments."""
    key = (_SAID_OF_FIELDS(s), players)
    said = _SAID.get(key)
    if said is None:
        said = {
            "ron": not s.tsumo,
            "dealer": s.dealer,
            "riichi": s.riichi or s.double_riichi,
            "players": players,
            "seat_wind": _WIND_KINDS[s.seat_wind],
            "round_wind": _WIND_KINDS[s.round_wind],
        }
        if len(_SAID) >= _SAID_LIMIT:
            _SAID.clear()
        _SAID[key] = said
    return said


_SAID_OF_FIELDS = operator.attrgetter("tsumo", "riichi", "double_riichi", "seat_wind", "round_wind")
# bounded by the fields' domain (2 x 2 x 2 x 4 x 4) times the player counts of the rulebooks in use
_SAID: dict[tuple, dict[str, Any]] = {}
_SAID_LIMIT = 1024
register("engine.scoring.facts.said_of_situation", _SAID.clear, _SAID.__len__, _SAID_LIMIT)


class HandFacts(dict):
    """Hand-level facts, computed lazily; one per scored hand, shared by all its readings.

    ``known`` may pass ``situation_facts(situation, players)`` already built (a scorer keeps them per situation);
    ``ahead`` lists cheap providers to run at once (``plan_ahead``), for facts the rulebook is known to read: each
    reading's table then starts with them instead of asking for them one by one.
    """

    __slots__ = ("hand", "situation", "dora", "ura", "successors", "meld_groups")

    def __init__(
        self,
        hand: Hand,
        situation: Situation,
        dora: tuple[int, ...],
        ura: tuple[int, ...],
        successors: dict[int, int],
        players: int,
        known: dict[str, Any] | None = None,
        ahead: tuple[Callable[[HandFacts], None], ...] = (),
    ) -> None:
        # filled by ``update``, not ``super().__init__``: the same merge, without building a ``super`` object per hand
        if known is None:  # ``situation_facts``, written into this table directly
            self.update(zip(_PLAIN_FACTS, _PLAIN_VALUES(situation), strict=True))
            self.update(_said_of(situation, players))
        else:
            self.update(known)
        self["closed"] = hand.is_closed
        self["win_tile"] = T.KIND_OF[hand.win]
        self.hand = hand
        self.situation = situation
        self.dora = dora
        self.ura = ura
        self.successors = successors
        melds = hand.melds
        if melds:
            # each meld's group looked up in place, ``meld_group`` called only for one met first: a loop, not a
            # comprehension's frame, and no call per meld met before
            groups = []
            for meld in melds:
                group = _MELD_GROUPS.get((meld.type, meld.tiles))
                groups.append(group if group is not None else meld_group(meld.type, meld.tiles))
            self.meld_groups = tuple(groups)
        else:
            self.meld_groups = ()
        for compute in ahead:
            compute(self)

    def __missing__(self, key: str) -> Any:
        provider: Callable[[Any], Any] | None = HAND_PROVIDERS.get(key)
        if provider is None:
            # a single reading's facts live in the hand's table (a provider reads only what both tables hold)
            reading: Callable[[Any], Any] | None = READING_PROVIDERS.get(key)  # annotated, not ``cast``: no call per hand
            if reading is None:
                raise KeyError(key)
            provider = reading
        value = provider(self)
        self[key] = value
        return value


# ---- groups ------------------------------------------------------------------------------------------------------


class _Group(Group):
    """A group the engine builds, interned: equal groups are one object (``_intern``), so identity is equality.

    Rule loops memoise their body per group (``ruledsl.fast``), so a group is hashed many times per hand; the
    record hash is a Python function that rebuilds a tuple, while the identity hash is computed in C
    and, for interned groups, agrees with equality.
    """

    __slots__ = ("number",)  # its place in ``GROUP_AT``
    __hash__ = object.__hash__
    number: int


def _group_setters() -> tuple[Callable[[Any, Any], None], ...] | None:
    """Each slot's setter of a ``_Group``, its fields' in the record's order then ``number``; None where a group has
    no slots (``RIICHI_RECORD`` makes records dataclasses, for a test of the two)."""
    found = [getattr(_Group, name, None) for name in (*(f.name for f in fields(Group)), "number")]
    slots = [member for member in found if isinstance(member, MemberDescriptorType)]
    return tuple(member.__set__ for member in slots) if len(slots) == len(found) else None


_GROUP_SETTERS = _group_setters()


def _intern(shape: str, kind: int, tiles: tuple[int, ...], called: bool = False, concealed: bool = True) -> _Group:
    key = (shape, kind, tiles, called, concealed)
    group = _INTERNED.get(key)
    if group is None:
        if _GROUP_SETTERS is not None:
            # the group's slots set by one C-level map, its number with them: what ``_Group(...)`` then setting
            # ``number`` make, without binding the record's arguments (``tests/scoring/test_interned_groups.py``)
            group = _NEW(_Group)
            any(map(operator.call, _GROUP_SETTERS, repeat(group), (*key, len(_GROUPS))))
        else:
            group = _Group(shape, kind, tiles, called, concealed)
            object.__setattr__(group, "number", len(_GROUPS))
        _INTERNED[key] = group
        _GROUPS.append(group)
        _SEQUENCE_START_OF[group] = kind if shape == SEQUENCE else -1
        _TRIPLET_KIND_OF[group] = kind if shape == TRIPLET or shape == KAN else -1
        _CONCEALED_START_OF[group] = kind + 1 if shape == SEQUENCE and not called else 0
    return group


_NEW = object.__new__
_INTERNED: dict[tuple, _Group] = {}  # bounded by the distinct groups a hand can hold (a few hundred)
# pinned: emptying it would make equal groups two objects (``GROUP_AT`` and the tables below are by number)
register("engine.scoring.facts.interned_groups", _INTERNED.clear, _INTERNED.__len__, 4096, pinned=True)
_GROUPS: list[_Group] = []  # the interned groups by number
GROUP_AT = _GROUPS.__getitem__
# Per interned group, what the reading facts read off it (-1: nothing), so they are C-level lookups; a concealed
# sequence's start is kept as its kind + 1 (0: nothing), so that ``_peikou`` keeps the starts by a C-level filter.
_SEQUENCE_START_OF: dict[Group, int] = {}
_TRIPLET_KIND_OF: dict[Group, int] = {}
_CONCEALED_START_OF: dict[Group, int] = {}


def meld_group(meld_type: str, codes: tuple[int, ...]) -> Group:
    """The group of a called or declared meld (tile codes, red fives included), interned."""
    key = (meld_type, codes)
    group = _MELD_GROUPS.get(key)
    if group is None:
        kinds = tuple(map(T.KIND_OF.__getitem__, codes))  # a meld's codes are tiles' (``build_hand`` checked them)
        if meld_type == "chi":
            ordered = tuple(sorted(kinds))
            group = _intern(SEQUENCE, ordered[0], ordered, called=True, concealed=False)
        elif meld_type == "pon":
            group = _intern(TRIPLET, kinds[0], kinds, called=True, concealed=False)
        else:
            concealed = meld_type == "ankan"
            group = _intern(KAN, kinds[0], kinds, called=not concealed, concealed=concealed)
        if len(_MELD_GROUPS) >= _MELD_GROUPS_LIMIT:
            _MELD_GROUPS.clear()
        _MELD_GROUPS[key] = group
    return group


_MELD_GROUPS: dict[tuple, Group] = {}
_MELD_GROUPS_LIMIT = 4096
register("engine.scoring.facts.meld_groups", _MELD_GROUPS.clear, _MELD_GROUPS.__len__, _MELD_GROUPS_LIMIT)


def _concealed_table() -> dict[tuple[int, int, bool], _Group]:
    """Every concealed group a reading can hold, built once: (decompose shape, kind, completed by ron) -> group."""
    table: dict[tuple[int, int, bool], _Group] = {}
    for kind in range(T.KINDS):
        for ron in (False, True):
            if kind < 27 and kind % 9 <= 6:
                table[(D_SEQ, kind, ron)] = _intern(SEQUENCE, kind, (kind, kind + 1, kind + 2))
            table[(D_TRIP, kind, ron)] = _intern(TRIPLET, kind, (kind, kind, kind), concealed=not ron)
            table[(D_PAIR, kind, ron)] = _intern(PAIR, kind, (kind, kind))
    return table


CONCEALED_GROUPS = _concealed_table()
# The same by a reading's own (shape, kind) group: as held, and as completed by ron.
PLAIN_GROUPS = {(shape, kind): group for (shape, kind, ron), group in CONCEALED_GROUPS.items() if not ron}
RON_GROUPS = {(shape, kind): group for (shape, kind, ron), group in CONCEALED_GROUPS.items() if ron}
_PLAIN_NUMBER = {shape: group.number for shape, group in PLAIN_GROUPS.items()}  # by number: see ``_reading_facts``
_RON_NUMBER = {shape: group.number for shape, group in RON_GROUPS.items()}


def concealed_group(shape: int, kind: int, completed_by_ron: bool) -> _Group:
    group = CONCEALED_GROUPS.get((shape, kind, completed_by_ron))
    if group is not None:
        return group
    if shape == D_SEQ:
        return _intern(SEQUENCE, kind, (kind, kind + 1, kind + 2))
    if shape == D_TRIP:
        return _intern(TRIPLET, kind, (kind, kind, kind), concealed=not completed_by_ron)
    if shape == D_PAIR:
        return _intern(PAIR, kind, (kind, kind))
    return _intern(PAIR, kind, (kind,))  # a lone tile of thirteen orphans


# ---- hand facts --------------------------------------------------------------------------------------------------
# Tile codes and kinds are small ints, so a hand's tiles are a byte string and ``bytes`` methods count in C.


def _byte_table(values: tuple[int, ...]) -> bytes:
    return bytes(values) + bytes(range(len(values), 256))


_KIND_TABLE = _byte_table(T.KIND_OF)  # code -> kind, for ``bytes.translate``
_SUIT_TABLE = _byte_table(tuple(k // 9 if k < 27 else 3 for k in range(T.KINDS)))  # kind -> 0 1 2 (m p s), 3
_HONOR_KINDS = bytes(range(27, T.KINDS))
_RED_CODES = bytes(range(T.RED_BASE, len(T.KIND_OF)))
# 1 for an honour kind (for a red five's code), 0 otherwise: counted by ``bytes.count`` after one plain ``translate``
# (a ``translate`` that deletes builds its table of deleted bytes at every call)
_HONOR_FLAGS = bytes(1 if k >= 27 and k < T.KINDS else 0 for k in range(256))
_RED_FLAGS = bytes(1 if T.RED_BASE <= c < len(T.KIND_OF) else 0 for c in range(256))
_NO_KIND = 255  # a byte no kind has: an indicator that points at no dora counts nothing


def _tile_facts(f: HandFacts) -> None:
    """``tiles`` and the counts read off the hand's tiles (``honors``, ``number_suits``, ``red_fives``), together."""
    hand = f.hand
    codes = bytes(hand.concealed)
    for m in hand.melds:
        codes += bytes(m.tiles)
    kinds = codes.translate(_KIND_TABLE)
    suits = set(kinds.translate(_SUIT_TABLE))
    suits.discard(3)
    f["tiles"] = tuple(kinds)
    f["honors"] = len(kinds) - len(kinds.translate(None, _HONOR_KINDS))
    f["number_suits"] = len(suits)
    f["red_fives"] = len(codes) - len(codes.translate(None, _RED_CODES))


def _hits(indicators: tuple[int, ...], f: HandFacts) -> int:
    if not indicators:
        return 0
    return sum(map(f["tiles"].count, map(successor_codes(f.successors).__getitem__, indicators)))


def successor_codes(successors: dict[int, int]) -> tuple[int, ...]:
    """The dora each indicator code points at (-1: none), per successor table, so counting hits is C-level; kept
    per table by its contents (a few distinct ones: one per set of ``dora_cycles`` in use)."""
    key = tuple(sorted(successors.items()))
    known = _SUCCESSOR_CODES.get(key)
    if known is None:
        if len(_SUCCESSOR_CODES) >= 64:
            _SUCCESSOR_CODES.clear()
        known = _SUCCESSOR_CODES[key] = tuple(successors.get(kind, -1) for kind in T.KIND_OF)
    return known


# the successor table's (kind, successor) pairs, sorted -> the successor of each code
_SUCCESSOR_CODES: dict[tuple[tuple[int, int], ...], tuple[int, ...]] = {}
register("engine.scoring.facts.successor_codes", _SUCCESSOR_CODES.clear, _SUCCESSOR_CODES.__len__, 64)


def _kita_dora(f: HandFacts, indicators: tuple[int, ...]) -> int:
    """Set-aside North tiles that ``indicators`` (dora or ura) make dora: each North once per indicator at it."""
    kita = f.situation.kita
    if not kita:
        return 0
    north = T.wind_kind("N")
    per = sum(1 for i in indicators if f.successors.get(T.kind_of(i)) == north)
    return per * kita


def _dora_facts(f: HandFacts) -> None:
    f["dora_hits"] = _hits(f.dora, f)
    f["kita_dora_hits"] = _kita_dora(f, f.dora)


def _ura_facts(f: HandFacts) -> None:
    f["ura_hits"] = _hits(f.ura, f)
    f["kita_ura_hits"] = _kita_dora(f, f.ura)


def _wait_count(f: HandFacts) -> int:
    """How many kinds completed the hand before the win: ``analysis.waits``, by ``completing_kinds``, kept per held
    counts (``WAIT_COUNTS``): a hand scored again asks its twenty-odd candidate hands no second time."""
    hand = f.hand
    held = bytearray(hand.counts)
    held[hand.win_kind] -= 1
    return WAIT_COUNTS[bytes(held) + (_NO_MELDS if not hand.melds else _WITH_MELDS)]


def _count_waits(key: bytes) -> int:
    """``_wait_count`` of held counts (34 bytes, then whether the hand has no melds): the kinds that complete it."""
    held = list(key[: T.KINDS])
    # a listcomp: compress over a map of the counts counted more instructions (callgrind) for twenty-odd kinds
    candidates = [kind for kind in _wait_candidates(held, key[T.KINDS] == 1) if held[kind] < 4]
    return len(completing_kinds(held, candidates))


def completing_kinds(held: list[int], candidates: list[int]) -> list[int]:
    """The kinds of ``candidates`` one more of which makes held counts complete (a hand with some reading), in
    order, without reading any hand whole.

    Seven pairs and the thirteen orphans are told by the counts. A standard reading needs every part of the hand
    (each suit and the honours, looked up in the scorer's per-part tables ``_SUIT_PARTS`` and ``_HONOUR_PARTS``,
    keyed by their few bytes) to split, with one pair in all. A candidate changes one part, so each part is looked
    up once as held and only the candidate's own part again with it; a candidate of a hand with another part that
    cannot split, or whose other parts already hold two pairs, fails without a look-up, and no entry of 34 counts
    is added to any cache. ``tests/engine/test_reading_facts.py`` holds this to the readings of each candidate's
    whole hand."""
    total = sum(held) + 1
    orphans = _orphan_kinds(held, total)
    as_held = [(start, _part_status(known[bytes(held[start : start + 9])], held[start : start + 9])) for start, known in _SUIT_PARTS]
    as_held.append((27, _part_status(_HONOUR_PARTS[bytes(held[27:])], held[27:])))
    cannot = sum(status is None for _start, status in as_held)
    pairs = sum(status for _start, status in as_held if status is not None)
    # per part, told once for all its candidates: None when another part cannot split or the others already hold
    # two pairs, else (its first kind, the pairs the others hold, its table)
    chances = [
        (start, pairs - (status or 0), table) if cannot - (status is None) == 0 and pairs - (status or 0) <= 1 else None
        for (start, status), table in zip(as_held, _PART_TABLES, strict=True)
    ]
    # thirteen tiles hold at most six pairs: with six, a seventh made of a lone tile is seven pairs
    seven = total == 14 and held.count(2) == 6
    found = []
    for kind in candidates:
        if seven and held[kind] == 1 or kind in orphans:
            found.append(kind)
            continue
        chance = chances[_PART_OF[kind]]
        if chance is None:
            continue
        start, other_pairs, table = chance
        piece = held[start : start + 9]
        piece[kind - start] += 1
        now = table[bytes(piece)]
        if now is CANNOT_SPLIT:
            continue
        if other_pairs + ((sum(piece) % 3 == 2) if now is _SEVERAL_WAYS else now[0]) == 1:
            found.append(kind)
    return found


def _orphan_kinds(held: list[int], total: int) -> frozenset[int]:
    """The kinds one more of which makes held counts the thirteen orphans, told once for every candidate: only a
    terminal or honour can, and only when the thirteen tiles held are all terminals and honours, so most hands are
    turned away by one sum; then only a terminal or honour not held can (any of them when every one is held, the
    fourteenth tile pairing one), and ``is_thirteen_orphans`` decides."""
    if total != 14 or sum(map(held.__getitem__, _YAOCHUU)) != 13:
        return _NO_KINDS
    found = []
    for kind in [kind for kind in _YAOCHUU if not held[kind]] or _YAOCHUU:
        held[kind] += 1
        if is_thirteen_orphans(held):
            found.append(kind)
        held[kind] -= 1
    return frozenset(found)


_YAOCHUU = tuple(T.YAOCHUU_KINDS)
_NO_KINDS: frozenset[int] = frozenset()


def _part_status(found: Any, counts: list[int]) -> int | None:
    """A part's share in a complete hand: None when it cannot split, else the pairs it holds (0 or 1)."""
    if found is CANNOT_SPLIT:
        return None
    return (sum(counts) % 3 == 2) if found is _SEVERAL_WAYS else found[0]


_NO_MELDS, _WITH_MELDS = b"\x01", b"\x00"
# Only hands whose rulebook asks for the wait count (a double yakuman on a nine- or thirteen-sided wait, say) come
# here, a few in a hundred: an entry is a 35-byte key and a small int.
WAIT_COUNTS = Memo(_count_waits, 4096)


def other_wait_kinds(hand: Hand, copies: int, allowed: frozenset[int]) -> list[int]:
    """The kinds other than the winning one that would also have completed the hand (its other waits), for
    `settings scoring atozuke = false`. A kind of which the player holds every copy (melds included) or that the
    tile set lacks cannot be drawn, so it is no wait."""
    held = list(hand.counts)
    win_kind = hand.win_kind
    held[win_kind] -= 1
    owned = list(held)
    for meld in hand.melds:
        for kind in meld.kinds:
            owned[kind] += 1
    candidates = [kind for kind in _wait_candidates(held, not hand.melds) if kind != win_kind and owned[kind] < copies and kind in allowed]
    return completing_kinds(held, candidates)


def _wait_candidates(held: list[int], no_melds: bool) -> list[int]:
    """Every kind that can complete the hand: a held kind, a number within two of a held one of its suit, and
    (thirteen orphans, no melds) every terminal and honour. A completing tile joins a pair, triplet or sequence
    with held tiles, so nothing else can. The kinds near each held kind are a table's, gathered by one C-level pass
    (``tests/engine/test_wait_candidates.py`` holds it to the kinds worked out one by one)."""
    near = set(chain.from_iterable(compress(_NEAR, held)))
    if no_melds:
        near.update(_YAOCHUU)
    return sorted(near)


def _near(kind: int) -> tuple[int, ...]:
    """The kinds a tile of ``kind`` can make a group with: a number within two of it in its suit, an honour itself."""
    if kind >= 27:
        return (kind,)
    base = kind - kind % 9
    return tuple(range(max(base, kind - 2), min(base + 8, kind + 2) + 1))


_NEAR = tuple(_near(kind) for kind in range(T.KINDS))


def _together(compute: Callable[[Any], None], key: str) -> Callable[[Any], Any]:
    """The provider of one fact that ``compute`` stores with others."""

    def provide(facts: Any) -> Any:
        compute(facts)
        return facts[key]

    return provide


HAND_PROVIDERS: dict[str, Callable[[HandFacts], Any]] = {
    "tiles": _together(_tile_facts, "tiles"),
    "honors": _together(_tile_facts, "honors"),
    "number_suits": _together(_tile_facts, "number_suits"),
    "red_fives": _together(_tile_facts, "red_fives"),
    "dora_hits": _together(_dora_facts, "dora_hits"),
    "kita_dora_hits": _together(_dora_facts, "kita_dora_hits"),
    "ura_hits": _together(_ura_facts, "ura_hits"),
    "kita_ura_hits": _together(_ura_facts, "kita_ura_hits"),
    "wait_count": _wait_count,
}

# Hand facts one provider computes together; an environment that asks for one copies the others along.
COMPANIONS: dict[str, tuple[str, ...]] = {
    "tiles": ("honors", "number_suits", "red_fives"),
    "honors": ("tiles", "number_suits", "red_fives"),
    "number_suits": ("tiles", "honors", "red_fives"),
    "red_fives": ("tiles", "honors", "number_suits"),
    "dora_hits": ("kita_dora_hits",),
    "kita_dora_hits": ("dora_hits",),
    "ura_hits": ("kita_ura_hits",),
    "kita_ura_hits": ("ura_hits",),
}


# ---- reading facts -----------------------------------------------------------------------------------------------


def _set_kinds(env: Env) -> None:
    """The kinds that start a sequence and the kinds held as a triplet or kan, read off the interned groups; in a
    closed hand, ``peikou`` too where the starts alone tell it."""
    sets = env["sets"]
    # one plain loop over the four-odd sets: counted by callgrind, two C-level passes (a frozenset of a map, less
    # the -1 of the other shapes) cost more than half as much again
    starts = []
    triplets = []
    try:
        for group in sets:
            kind = _SEQUENCE_START_OF[group]
            if kind >= 0:
                starts.append(kind)
            else:
                kind = _TRIPLET_KIND_OF[group]
                if kind >= 0:
                    triplets.append(kind)
    except KeyError:  # a group the engine did not build
        starts = [g.kind for g in sets if g.shape == SEQUENCE]
        triplets = [g.kind for g in sets if g.shape == TRIPLET or g.shape == KAN]
        env[SEQUENCE_STARTS] = frozenset(starts)
        env[TRIPLET_KINDS] = frozenset(triplets)
        return
    env[SEQUENCE_STARTS] = held = frozenset(starts)
    env[TRIPLET_KINDS] = frozenset(triplets)
    if env["closed"]:
        # no called sequence: every start is a concealed one, so ``peikou`` is read off these starts where
        # ``_peikou``'s shortcut answers (fewer than two starts met twice), sparing its provider's calls
        twice = len(starts) - len(held)
        if twice < 2:
            env["peikou"] = twice


def _peikou(env: Env) -> int:
    """How many pairs of identical concealed sequences the sets hold (a start met three times makes one pair)."""
    sets = env["sets"]
    try:
        starts = list(filter(None, map(_CONCEALED_START_OF.__getitem__, sets)))  # each start's kind + 1
    except KeyError:  # a group the engine did not build
        starts = [g.kind + 1 for g in sets if g.shape == SEQUENCE and not g.called]
    # starts met more than once, counted past their first: 0 or 1 is the answer itself (no start met thrice);
    # only 2 or more (two pairs, or a start met three or four times) needs each start's count
    twice = len(starts) - len(set(starts))
    if twice < 2:
        return twice
    return sum(starts.count(k) // 2 for k in set(starts))


def reading_key(counts: tuple[int, ...], win: int, ron: bool) -> bytes:
    """The key of ``READING_FACTS``: the 34 concealed kind counts, the winning kind and whether it was a ron, as
    36 bytes. A tuple of 34 counts takes about 330 bytes a key where these take 69 (a long batch keeps thousands
    of them), and a bytes key hashes once (a tuple's hash is recomputed at each lookup)."""
    return bytes(counts) + WIN_RON[win + win + ron]


# reading_key's last two bytes, by win + win + ron (public: the valuer writes the key out for every hand)
WIN_RON = tuple(bytes((kind, ron)) for kind in range(T.KINDS) for ron in (0, 1))
# where a key holds its counts, its winning kind and its ron byte (read without attribute look-ups on a new hand)
_COUNTS_OF_KEY, _WIN_AT, _RON_AT = slice(0, T.KINDS), T.KINDS, T.KINDS + 1


def _reading_facts(key: bytes) -> tuple[tuple, ...]:
    """The facts of each reading of concealed kind counts, won on a kind by tsumo or ron (``reading_key``): one
    entry per reading and, in a standard reading, per group the winning tile may have completed; none when the
    tiles are not a complete hand. ``put_reading`` writes an entry into a fact table.

    An entry names its groups by number (``GROUP_AT``), so it holds only ints and strings: a table of them is
    one the garbage collector stops following, however many hands it keeps.
    """
    counts, win, ron = key[_COUNTS_OF_KEY], key[_WIN_AT], key[_RON_AT] == 1
    entries = _one_way(counts, win, ron)
    if entries is not None:
        if counts.count(2) == 7:  # fourteen tiles in seven pairs: read as seven pairs too, after the standard reading
            entries.append(_seven_pairs(counts, win))
            return tuple(entries)
        if not all(counts[27:]) or not is_thirteen_orphans(counts):
            return tuple(entries)
    return read_whole(counts, win, ron)


def read_whole(counts: bytes | tuple[int, ...], win: int, ron: bool) -> tuple[tuple, ...]:
    """``_reading_facts`` read off the whole hand (``read_counts``): the general path, for a hand with a suit that
    splits several ways or the thirteen orphans; the parts' path gives the same readings in the same order
    (``tests/engine/test_reading_facts.py``)."""
    entries = []
    for reading_shape, shapes in read_counts(tuple(counts)):  # uncached: this table is the cache
        if reading_shape == STANDARD:
            # groups sort by shape, sets first: the one pair of a standard reading is its last group
            numbers = tuple(map(_PLAIN_NUMBER.__getitem__, shapes))
            entries += _placed(numbers, numbers[:-1], (), numbers[-1], win, ron)
        else:
            pairs = [concealed_group(shape, kind, False) for shape, kind in shapes]
            win_group = next((g.number for g in pairs if g.kind == win), -1)
            numbers = tuple(g.number for g in pairs) if reading_shape == SEVEN_PAIRS else ()
            entries.append((reading_shape, (), -1, numbers, TANKI, win_group))
    return tuple(entries)


def _seven_pairs(counts: bytes | tuple[int, ...], win: int) -> tuple:
    """The seven pairs entry of fourteen tiles in seven pairs, as ``read_whole`` builds it (pairs by kind): the
    pairs' numbers picked C-level by the kinds held twice, the winning kind's pair among them."""
    numbers = tuple(compress(_PAIR_NUMBERS, map(_TWO, counts)))
    return (SEVEN_PAIRS, (), -1, numbers, TANKI, _PAIR_NUMBERS[win] if counts[win] == 2 else -1)


def _one_way(counts: bytes | tuple[int, ...], win: int, ron: bool) -> list[tuple] | None:
    """``_reading_facts`` of the standard reading when every suit and the honours split one way (most hands),
    built from the parts' splits kept as group numbers (``_parts``); None when some part splits several ways (the
    general path then reads the hand whole). An entry lists its sets part by part: no rule reads their order.
    ``counts`` is bytes in the scorer (its parts' keys are then 9 and 7 bytes, not tuples of ints).

    The parts are looked up in turn, unrolled, each turned away by two identity tests: a part that cannot split,
    or splits several ways, spares the look-up (a first split, on a new hand) of the parts after it; an empty
    suit is a part like any other, with no groups."""
    honours = _HONOUR_PARTS[counts[27:]]
    if honours is CANNOT_SPLIT:
        return []
    man = _MAN_PARTS[counts[0:9]]
    if man is CANNOT_SPLIT:
        return []
    if man is _SEVERAL_WAYS:
        return None
    pin = _PIN_PARTS[counts[9:18]]
    if pin is CANNOT_SPLIT:
        return []
    if pin is _SEVERAL_WAYS:
        return None
    sou = _SOU_PARTS[counts[18:27]]
    if sou is CANNOT_SPLIT:
        return []
    if sou is _SEVERAL_WAYS:
        return None
    if man[0] + pin[0] + sou[0] + honours[0] != 1:
        return []
    # the winning kind's part, and the other parts' sets in the order they are listed (the honours' first, then
    # the suits'), by branches rather than index tuples
    if win < 9:
        part, others = man, honours[2] + pin[2] + sou[2]
    elif win < 18:
        part, others = pin, honours[2] + man[2] + sou[2]
    elif win < 27:
        part, others = sou, honours[2] + man[2] + pin[2]
    else:
        part, others = honours, man[2] + pin[2] + sou[2]
    # the one pair is its part's: every other part's pair number is -1, so the four add up to it less three
    # (additions the interpreter specialises, where ``max`` of four is a C call)
    return _placed(part[1], part[2], others, man[3] + pin[3] + sou[3] + honours[3] + 3, win, ron)


# each kind's part (0, 1, 2: its suit; 3: the honours), as ``completing_kinds`` numbers the parts
_PART_OF = tuple(kind // 9 if kind < 27 else 3 for kind in range(T.KINDS))


def _placed(numbers: tuple[int, ...], sets: tuple[int, ...], others: tuple[int, ...], pair: int, win: int, ron: bool) -> list[tuple]:
    """One standard entry per group of a part (its groups' numbers ``numbers``, sorted, the sets' numbers first)
    the winning kind can have completed: the sets after ``others``, a triplet completed by ron in its open form.

    The groups that can hold the winning kind are found by their numbers (``_HOLDER_NUMBERS``), ints compared by
    identity, in ``decompose.HOLDERS``' order (a reading's own order); a group held twice counts once, at its first
    place."""
    entries = []
    # a plain loop: picking the holders by compress over a map of ``numbers.__contains__`` runs fewer bytecodes
    # but, counted by callgrind, more instructions (three iterator objects a hand for four-odd holders)
    for number, wait, ron_number in _HOLDER_NUMBERS[win]:
        if number in numbers:
            if ron and ron_number >= 0:  # a triplet completed by ron is not concealed
                index = numbers.index(number)
                entries.append((STANDARD, others + sets[:index] + (ron_number,) + sets[index + 1 :], pair, None, wait, ron_number))
            else:
                entries.append((STANDARD, others + sets, pair, None, wait, number))
    return entries


def _holder_numbers(win: int) -> tuple[tuple[int, str, int], ...]:
    """Per group of a standard reading that can hold the kind ``win`` (``decompose.HOLDERS``, in its order): the
    group's number as held, the wait it had, and its number as completed by ron (-1 but for a triplet)."""
    return tuple(
        (_PLAIN_NUMBER[group], wait, _RON_NUMBER[group] if group[0] == D_TRIP else -1) for group, wait in HOLDERS[win] if group in _PLAIN_NUMBER
    )


_HOLDER_NUMBERS = tuple(_holder_numbers(win) for win in range(T.KINDS))
# each kind's pair's number, and whether a count is 2: ``_seven_pairs`` picks its pairs by them
_PAIR_NUMBERS = tuple(_PLAIN_NUMBER[(D_PAIR, kind)] for kind in range(T.KINDS))
_TWO = (2).__eq__


def _part(numbers: tuple[int, ...], with_pair: bool) -> tuple:
    """One part of a hand (a suit, or the honours) split one way, its groups by number, sorted: (1 if it holds the
    pair else 0, their numbers, its sets' numbers, its pair's number or -1). A pair sorts after every set, so it is
    the last group."""
    return (1, numbers, numbers[:-1], numbers[-1]) if with_pair else (0, numbers, numbers, -1)


_NO_PART = _part((), False)  # a suit with no tiles


def _suit_part(start: int, vec: bytes | tuple[int, ...]) -> Any:
    """``suit_splits`` of one suit as a part: only a suit that splits one way is moved to its own kinds (most new
    hands bring suits not met before, so this runs on most first passes)."""
    total = sum(vec)
    if not total:
        return _NO_PART
    rest = total % 3
    if rest == 1:
        return CANNOT_SPLIT
    # keyed by the suit's own bytes in the scorer (decompose's readings key the same memo by tuples): a tuple
    # made of each new suit cost more than the look-ups the two kinds of key could share
    splits = RELATIVE_SPLITS[vec]
    if not splits:
        return CANNOT_SPLIT
    if len(splits) > 1:
        return _SEVERAL_WAYS
    # the suit's groups moved to its kinds by one C-level map over a table, not a Python loop per group
    numbers = tuple(map(_NUMBER_IN_SUIT[start].__getitem__, splits[0]))
    if rest == 2:  # ``_part`` written out: a call per new suit saved
        return (1, numbers, numbers[:-1], numbers[-1])
    return (0, numbers, numbers, -1)


# per suit (by its first kind), each group of a suit's split (``decompose.RELATIVE_SPLITS``, kinds counted from the
# suit's 1) -> the number of that group as held in this suit
_NUMBER_IN_SUIT = {
    start: {(shape, i): _PLAIN_NUMBER[(shape, start + i)] for shape in (D_SEQ, D_TRIP, D_PAIR) for i in range(9) if (shape, start + i) in _PLAIN_NUMBER}
    for start in (0, 9, 18)
}


def _honour_part(honours: bytes | tuple[int, ...]) -> Any:
    found = honour_split(tuple(honours))
    if found is CANNOT_SPLIT:
        return found
    pairs, groups = found
    if pairs > 1:
        return CANNOT_SPLIT
    return _part(tuple(map(_PLAIN_NUMBER.__getitem__, sorted(groups))), bool(pairs))


_SEVERAL_WAYS: Any = ("several ways",)
_PARTS_LIMIT = 65536
# Per suit (by its first kind), its 9 counts -> ``_suit_part``; the honours' 7 counts -> ``_honour_part``.
_SUIT_PARTS = tuple((start, Memo(partial(_suit_part, start), _PARTS_LIMIT)) for start in (0, 9, 18))
_HONOUR_PARTS = Memo(_honour_part, _PARTS_LIMIT)
_MAN_PARTS, _PIN_PARTS, _SOU_PARTS = (known for _start, known in _SUIT_PARTS)
# the same tables by part, as ``completing_kinds`` numbers the parts: each suit, then the honours
_PART_TABLES = (*(known for _start, known in _SUIT_PARTS), _HONOUR_PARTS)


def put_reading(env: dict[str, Any], entry: tuple, melds: tuple[Group, ...]) -> None:
    """Write one ``READING_FACTS`` entry into a fact table, the hand's called melds added to its sets."""
    shape, sets, pair, pairs, wait, win_group = entry
    at = GROUP_AT
    env["shape"] = shape
    sets = tuple(map(at, sets))
    if melds:
        sets += melds
    env["sets"] = sets
    # ``groups`` with the rest: most rulebooks read it (an outside hand's yaku) in most readings, and a tuple
    # joined here costs less than a provider asked for it
    if pair >= 0:
        pair = at(pair)
        env["pair"] = pair
        env["pairs"] = pairs = (pair,)
        env["groups"] = sets + pairs
    else:
        env["pair"] = None
        env["pairs"] = pairs = tuple(map(at, pairs))
        env["groups"] = () if shape == THIRTEEN_ORPHANS else sets + pairs
    env["wait"] = wait
    env["win_group"] = at(win_group) if win_group >= 0 else None


# The facts in which two readings of one hand with the same groups differ: the wait the winning tile completed,
# and the group it completed (``_placed``: one entry per group that can hold it). Every other fact of a reading,
# the ones its providers compute included (``READING_PROVIDERS``: from its groups alone), is the same in both, so
# a rule that reads neither holds in both or in neither (``Valuer.best_valuation``).
WAIT_FACTS = frozenset({"wait", "win_group"})


def same_groups(entry: tuple, other: tuple) -> bool:
    """Whether two ``READING_FACTS`` entries of one hand hold the same groups (and differ at most in
    ``WAIT_FACTS``)."""
    return entry[:4] == other[:4]


# What the scorer looks up for every hand: ``reading_key(concealed kind counts, winning kind, won by ron)`` -> reading
# facts.
READING_FACTS = Memo(_reading_facts, 65536)


def reading_tables(facts: HandFacts, templates: tuple[tuple, ...], ahead: tuple[Callable[[Any], None], ...] = ()) -> tuple[dict[str, Any], ...]:
    """One fact table per reading (``READING_FACTS`` entries): the hand's facts with the reading's added, and the
    reading facts ``ahead`` (``Prepared.reading_ahead``) computed at once. The valuer values each table, and the
    checker's guard of "can never apply" tests an item's condition on each (``engine.services.impossible_guard``):
    both read a hand's readings alike.

    A hand with a single reading (most hands) takes its reading's facts into the hand's own table, which then
    answers for reading facts too; only several readings need a table each.
    """
    melds = facts.meld_groups
    if len(templates) == 1:
        put_reading(facts, templates[0], melds)
        for compute in ahead:
            compute(facts)
        return (facts,)
    envs = []
    for template in templates:
        env = Env(facts)
        put_reading(env, template, melds)
        for compute in ahead:
            compute(env)
        envs.append(env)
    return tuple(envs)


READING_PROVIDERS: dict[str, Callable[[Env], Any]] = {
    SEQUENCE_STARTS: _together(_set_kinds, SEQUENCE_STARTS),
    TRIPLET_KINDS: _together(_set_kinds, TRIPLET_KINDS),
    "peikou": _peikou,
}


# ---- computed ahead ----------------------------------------------------------------------------------------------
# Cheap providers that may run before any rule asks, by the facts they compute (hand facts in this order).

AHEAD_HAND: dict[str, Callable[[HandFacts], None]] = {
    "tiles": _tile_facts,
    "honors": _tile_facts,
    "number_suits": _tile_facts,
    "red_fives": _tile_facts,
    "dora_hits": _dora_facts,
    "kita_dora_hits": _dora_facts,
    "ura_hits": _ura_facts,
    "kita_ura_hits": _ura_facts,
}
AHEAD_READING: dict[str, Callable[[Env], None]] = {SEQUENCE_STARTS: _set_kinds, TRIPLET_KINDS: _set_kinds}


def plan_ahead(names: frozenset[str], table: dict[str, Callable[[Any], None]], successors: dict[int, int] | None = None) -> tuple[Callable[[Any], None], ...]:
    """The providers of ``table`` that compute any of ``names``, once each, in the table's order; with the
    rulebook's ``successors``, a plan of the tile, dora and ura facts together is one provider (``HandTable``)."""
    plan: list[Callable[[Any], None]] = []
    for name, compute in table.items():
        if name in names and compute not in plan:
            plan.append(compute)
    if successors is not None and _tile_facts in plan:
        table_of = HandTable(successor_codes(successors), _dora_facts in plan, _ura_facts in plan)
        plan = [table_of] + [compute for compute in plan if compute not in (_tile_facts, _dora_facts, _ura_facts)]
    return tuple(plan)


class HandTable:
    """The tile facts of a hand (``tiles``, ``honors``, ``number_suits``, ``red_fives``) and, when the rulebook
    reads them, its dora and ura hits, written in one pass: what ``_tile_facts``, ``_dora_facts`` and
    ``_ura_facts`` write, without their nine calls per hand (``tests/engine/test_reading_facts.py`` holds the
    two equal). A value, equal to another of the same codes and choices, so that two rulebooks prepared alike
    have equal plans."""

    __slots__ = ("codes", "dora", "ura", "_kinds")

    def __init__(self, codes: tuple[int, ...], dora: bool, ura: bool) -> None:
        self.codes = codes  # ``successor_codes`` of the rulebook's successor table
        self.dora = dora
        self.ura = ura
        # the same with no dora as a byte no kind has, so that hits are counted in the kinds' bytes
        self._kinds = tuple(kind if 0 <= kind < _NO_KIND else _NO_KIND for kind in codes)

    def __eq__(self, other: object) -> bool:
        return type(other) is HandTable and (self.codes, self.dora, self.ura) == (other.codes, other.dora, other.ura)

    def __hash__(self) -> int:
        return hash((self.codes, self.dora, self.ura))

    def __repr__(self) -> str:
        return f"HandTable(dora={self.dora}, ura={self.ura})"

    def __call__(self, f: HandFacts) -> None:
        hand = f.hand
        codes = bytes(hand.concealed)
        if hand.melds:  # each meld's codes as bytes, kept by the meld (``Meld.code_bytes``)
            codes += b"".join(map(_CODE_BYTES_OF, hand.melds))
        kinds = codes.translate(_KIND_TABLE)
        suits = kinds.translate(_SUIT_TABLE)
        f["tiles"] = tuple(kinds)
        f["honors"] = kinds.translate(_HONOR_FLAGS).count(1)
        f["number_suits"] = (0 in suits) + (1 in suits) + (2 in suits)
        f["red_fives"] = codes.translate(_RED_FLAGS).count(1)
        if self.dora:
            dora = f.dora
            f["dora_hits"] = sum(map(kinds.count, map(self._kinds.__getitem__, dora))) if dora else 0
            f["kita_dora_hits"] = _kita_dora(f, dora) if f.situation.kita else 0
        if self.ura:
            ura = f.ura
            f["ura_hits"] = sum(map(kinds.count, map(self._kinds.__getitem__, ura))) if ura else 0
            f["kita_ura_hits"] = _kita_dora(f, ura) if f.situation.kita else 0
