"""A hand as the scorer sees it: concealed tiles (winning tile included), called melds and the winning tile.

``build_hand`` is the one door from notation to a ``Hand``: every later stage may assume the tile counts are
possible, the melds have legal shapes and the winning tile is in the hand, so every such mistake is reported here,
once, with a message that names the offending tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from operator import attrgetter

from engine.core.errors import EngineError, InvalidHand
from engine.core.tiles import (
    KIND_OF,
    KINDS,
    RED_BASE,
    RED_FIVE_KINDS,
    format_kind,
    format_tiles,
    is_red,
    kind_of,
    parse_tile,
    parse_tiles,
    tile_codes,
)
from ruledsl.caches import register
from ruledsl.record import record
from ruledsl.tiles import KIND_BYTES, ONE_TILE, SORT_RANK, digit_run_codes
from ruledsl.typing_names import cast

MELD_TYPES = ("chi", "pon", "daiminkan", "kakan", "ankan")
KAN_TYPES = frozenset({"daiminkan", "kakan", "ankan"})
MAX_MELDS = 4
_CLOSED_ONLY = {"ankan"}  # the one meld type that keeps a hand closed
HAND_SIZE = 14  # every kan counted as three tiles
_NO_CALLS = (True, False, False)  # ``Hand.call_shape`` of a hand with no melds
_NEW = object.__new__
_SET = object.__setattr__  # a ``Hand`` is frozen: its fields and known properties are set as its ``__dict__``


@record(slots=False)
class Meld:
    """A called or declared group: a chi, a pon, or one of the three kans."""

    type: str
    tiles: tuple[int, ...]

    @property
    def kinds(self) -> tuple[int, ...]:
        return tuple(map(KIND_OF.__getitem__, self.tiles))

    @cached_property
    def code_bytes(self) -> bytes:
        """The tiles' codes as bytes, which a request's hand is read in (``hand_of_parts``)."""
        return bytes(self.tiles)

    @property
    def is_kan(self) -> bool:
        return self.type in KAN_TYPES

    @property
    def is_open(self) -> bool:
        """A concealed kan keeps the hand closed; every other meld opens it."""
        return self.type != "ankan"


@record(slots=False)
class Hand:
    """Concealed tiles (winning tile included, sorted), melds in the order given, and the winning tile's code."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win: int

    @cached_property
    def counts(self) -> tuple[int, ...]:
        """34-bin kind counts of the concealed tiles: the key every decomposition is cached on."""
        counts = [0] * KINDS
        for kind in map(KIND_OF.__getitem__, self.concealed):
            counts[kind] = counts[kind] + 1  # not ``+=``: two bytecodes fewer a tile (``hand_of_parts``)
        return tuple(counts)

    @property
    def win_kind(self) -> int:
        return kind_of(self.win)

    @cached_property
    def is_closed(self) -> bool:
        return not self.melds or {meld.type for meld in self.melds} == _CLOSED_ONLY

    @cached_property
    def call_shape(self) -> tuple[bool, bool, bool]:
        """(closed, holds a kan, has melds): all a situation check asks of the melds."""
        return (self.is_closed, any(m.is_kan for m in self.melds), bool(self.melds))

    def all_tiles(self) -> tuple[int, ...]:
        """Concealed and meld tiles together, for counting red fives and indicators."""
        return self.concealed + tuple(code for meld in self.melds for code in meld.tiles)


def build_hand(
    concealed: str | Sequence[int],
    melds: Sequence[tuple[str, str | Sequence[int]]] | Sequence[Mapping[str, str]],
    win: str | int,
    *,
    allowed_kinds: frozenset[int] | None = None,
    red_fives: frozenset[int] | None = None,
    copies: int = 4,
) -> Hand:
    """Parse and validate a hand from notation, or from tile codes (``engine.core.tiles``) for programs that hold them.

    ``melds`` holds ``(type, tiles)`` pairs or ``{"type", "tiles"}`` objects. ``allowed_kinds`` limits the tile
    set (a three-player game has no 2m..8m); ``red_fives`` lists the red fives in play, as red codes (34..36) or as
    the five kinds (4, 13, 22), ``None`` meaning all three. Raises ``NotationError`` for unreadable text and
    ``InvalidHand`` for a hand that cannot exist.
    """
    codes = tile_codes(concealed) if type(concealed) is str else _given_codes(concealed, "concealed tiles")
    win_code = parse_tile(win) if type(win) is str else _given_codes((win,), "the winning tile", one=True)[0]
    if not isinstance(melds, (list, tuple)):
        try:
            melds = cast(Sequence[tuple[str, str | Sequence[int]]], list(melds))
        except TypeError:
            raise InvalidHand("`melds` must be a sequence of (type, tiles) pairs") from None
    if len(melds) > MAX_MELDS:
        raise InvalidHand(f"{len(melds)} melds given; a hand has at most {MAX_MELDS}")
    parsed = [_parse_meld(item, index) for index, item in enumerate(melds)] if melds else []

    # the concealed tiles alone when there is no meld (most hands): read, never changed, so not copied
    everything: Sequence[int] = [*codes, *(code for meld in parsed for code in meld.tiles)] if parsed else codes
    if not _within_tile_set(everything, allowed_kinds, red_fives):
        _check_tile_set(everything, allowed_kinds, red_fives)
    if win_code not in everything and not _within_tile_set((win_code,), allowed_kinds, red_fives):
        _check_tile_set((win_code,), allowed_kinds, red_fives)
    counts, concealed_counts = _kind_counts(codes, parsed)
    if max(counts) > copies or (max(everything, default=0) >= RED_BASE and not _one_of_each_red(everything)):
        _check_copies(everything, copies)
    if len(codes) != HAND_SIZE - 3 * len(parsed):
        _check_size(len(codes), len(parsed))
    if win_code not in codes:  # a plain five may name the red five held, else the tile is missing
        win_code = _find_win(codes, win_code)
    return _assembled(codes, parsed, win_code, concealed_counts)


def _assembled(codes: Sequence[int], parsed: list[Meld], win_code: int, concealed_counts: tuple[int, ...]) -> Hand:
    """The ``Hand`` of checked tiles and melds, with the properties already known set (``build_hand`` and
    ``hand_from_notation`` make every hand here, so both make the same)."""
    # without a red five a code is its kind, so codes sort as ``SORT_RANK`` sorts them, with no call per tile
    ordered = sorted(codes)
    if ordered and ordered[-1] >= RED_BASE:
        ordered.sort(key=SORT_RANK.__getitem__)
    hand = Hand(tuple(ordered), tuple(parsed), win_code)  # positional: the fast path of a record
    known = hand.__dict__  # the cached properties, already known here
    known["counts"] = concealed_counts
    if parsed:
        closed = all(meld.type in _CLOSED_ONLY for meld in parsed)
        known["is_closed"] = closed
        known["call_shape"] = (closed, any(meld.type in KAN_TYPES for meld in parsed), True)
    else:
        known["is_closed"] = True
        known["call_shape"] = _NO_CALLS
    return hand


def made_hand(codes: Sequence[int], counts: Sequence[int], win: int, melds: Iterable[tuple[str, tuple[int, ...]]]) -> Hand:
    """``build_hand(codes, melds, win)`` of a hand a round holds, which is well formed by construction (its tiles
    dealt and drawn from the rulebook's wall, its melds made by legal calls, the winning tile among ``codes``):
    the same ``Hand`` without reading or checking anything. ``counts`` are the concealed tiles' kind counts (the
    round keeps them). A round asks this at every possible win, most of which it then refuses or nobody takes."""
    parsed = [_MADE_MELDS.get(meld) or _made_meld(meld) for meld in melds]
    return _assembled(codes, parsed, win, tuple(counts))


def _made_meld(meld: tuple[str, tuple[int, ...]]) -> Meld:
    """The ``Meld`` ``build_hand`` makes of a well-formed (type, codes) pair, kept: a round's melds repeat."""
    if len(_MADE_MELDS) >= 4096:
        _MADE_MELDS.clear()
    made = _MADE_MELDS[meld] = Meld(meld[0], tuple(sorted(meld[1], key=SORT_RANK.__getitem__)))
    return made


def hand_from_notation(concealed: str, win: str, melds: Sequence[Mapping[str, str]], tile_set: frozenset[int], copies: int) -> Hand | None:
    """``build_hand`` of a request's notation when nothing in it is wrong or unusual (most requests): the same
    ``Hand``, or None, and then ``build_hand`` reads it and names whatever is wrong.

    ``tile_set`` is ``allowed_codes`` of the rulebook's tile set; ``melds`` are ``{"type", "tiles"}`` objects
    already known to hold a meld type and a string (a plain request's). A meld is taken only as ``build_hand``
    kept it before (``_MELDS``, its notation repeats), and a winning tile only as written in the hand."""
    parsed: list[Meld] = []
    if melds:
        for item in melds:
            meld = _MELDS.get((item["type"], item["tiles"]))
            if meld is None:
                return None
            parsed.append(meld)
    return hand_of_parts(concealed, win, parsed, tile_set, copies)


def kept_meld(meld_type: object, tiles: object) -> Meld | None:
    """The ``Meld`` of this notation (its type and tiles, both strings) as ``build_hand`` reads and keeps it, or None
    when it is not one (``build_hand`` then names the mistake): only well-shaped melds are kept, so a meld found
    among them needs no check."""
    if type(meld_type) is not str or type(tiles) is not str:
        return None
    meld = _MELDS.get((meld_type, tiles))
    if meld is None:
        if meld_type not in MELD_TYPES:
            return None
        try:
            meld = _meld_of(meld_type, tiles, 0)
        except EngineError:
            return None
    return meld


def hand_of_parts(concealed: str, win: str, parsed: list[Meld], tile_set: frozenset[int], copies: int, shown: bytes = b"") -> Hand | None:
    """``hand_from_notation`` with its melds already found among the kept ones (``kept_meld``).

    A request's hand is a new text nearly every time, so it is read in one pass, without the notation cache: each
    run of digits becomes its tile codes by one C-level ``translate`` into bytes, the kinds likewise, and the
    ``Hand`` is made with its known properties in one dict. The hand is taken only written without separators, and
    the winning tile only as one tile written plainly (``1m``); any other spelling, and anything wrong, goes to
    ``build_hand``.

    ``shown``: indicator codes revealed beside the hand (at most five dora and five ura), counted with its tiles
    against the copies of each kind and of each red five, and held to the tile set. The hand is then returned only
    when the indicators too are possible with it, which is all ``SituationChecks.check_indicators`` asks, so its
    caller may skip that check; when they are not (or the hand is not), None, and the long way names the fault."""
    win_code = ONE_TILE.get(win)
    if win_code is None or len(parsed) > MAX_MELDS:
        return None
    codes, whole = digit_run_codes(concealed)
    # the runs cover the text (no separator, nothing unread) and every code is in the tile set (``8z`` is not)
    if not whole or len(codes) != HAND_SIZE - 3 * len(parsed) or win_code not in codes:
        return None
    if parsed:  # their tiles and types by C-level maps, where generators cost a frame each
        called = b"".join(map(_CODE_BYTES_OF, parsed)) + shown
        types = set(map(_TYPE_OF, parsed))
        closed = types <= _CLOSED_ONLY
        shape = (closed, not KAN_TYPES.isdisjoint(types), True)
    else:
        called = shown
        closed, shape = True, _NO_CALLS
    everything = codes + called  # meld tiles and indicators count against the copies with the concealed tiles
    # tests on bytes, each one C-level pass: ``max`` over 34 counts or 14 codes compares ints one by one; the tile
    # set first, which also refuses a byte no tile has (``8z``'s) before it is counted as a kind
    try:
        flags = everything.translate(_TILE_FLAGS[tile_set])
        past = _PAST_COPIES[copies]
    except KeyError:  # the first hand of a tile set or a number of copies
        flags = everything.translate(tile_flags(tile_set))
        past = past_copies(copies)
    if _OUTSIDE in flags:
        return None
    counts = [0] * KINDS
    # indexing in the loop: the interpreter specialises it; and ``counts[kind] = counts[kind] + 1``, not ``+=``,
    # which copies and swaps its operands on the stack: two bytecodes more a tile
    for kind in codes.translate(KIND_BYTES):
        counts[kind] = counts[kind] + 1
    concealed_counts = tuple(counts)
    if called:
        for kind in called.translate(KIND_BYTES):
            counts[kind] = counts[kind] + 1
    if 1 in bytes(counts).translate(past) or (_RED in flags and max(map(everything.count, _RED_CODES)) > 1):
        return None
    ordered = sorted(codes)
    if ordered[-1] >= RED_BASE:
        ordered.sort(key=SORT_RANK.__getitem__)
    hand = _NEW(Hand)
    # the fields and the properties known, as ``_assembled`` sets them
    _SET(hand, "__dict__", {"concealed": tuple(ordered), "melds": tuple(parsed), "win": win_code, "counts": concealed_counts, "is_closed": closed, "call_shape": shape})
    return hand


_CODE_BYTES_OF = attrgetter("code_bytes")
_TYPE_OF = attrgetter("type")
_RED_CODES = range(RED_BASE, RED_BASE + len(RED_FIVE_KINDS))
_RED, _OUTSIDE = 1, 2


def tile_flags(tile_set: frozenset[int]) -> bytes:
    """Per tile set (``allowed_codes``), the ``bytes.translate`` table of every byte: 0 for a plain tile of the set,
    ``_RED`` for a red five of it, ``_OUTSIDE`` for anything else (a tile the set lacks, a byte no tile has); kept
    in ``_TILE_FLAGS``."""
    table = _TILE_FLAGS.get(tile_set)
    if table is None:
        if len(_TILE_FLAGS) >= 64:
            _TILE_FLAGS.clear()
        flags = bytearray((_OUTSIDE,)) * 256
        for code in tile_set:
            flags[code] = _RED if code >= RED_BASE else 0
        table = _TILE_FLAGS[tile_set] = bytes(flags)
    return table


def past_copies(copies: int) -> bytes:
    """Per number of copies, the ``bytes.translate`` table of counts that marks a count past it as 1; kept in
    ``_PAST_COPIES``."""
    table = _PAST_COPIES.get(copies)
    if table is None:
        if len(_PAST_COPIES) >= 64:
            _PAST_COPIES.clear()
        below = min(max(copies + 1, 0), 256)  # counts up to ``copies`` (a count is a byte: 0..255)
        table = _PAST_COPIES[copies] = bytes(below) + b"\x01" * (256 - below)
    return table


# Plain dicts, not dict subclasses with ``__missing__``: a subscript of a subclass's instance goes through the
# generic ``__getitem__`` slot (a method look-up and a call), about twice a plain dict's, counted by callgrind;
# ``hand_of_parts`` subscripts them and falls back to the functions above on a ``KeyError`` (a table not made yet).
_TILE_FLAGS: dict[frozenset[int], bytes] = {}
_PAST_COPIES: dict[int, bytes] = {}
register("engine.core.hand.tile_flags", _TILE_FLAGS.clear, _TILE_FLAGS.__len__, 64)
register("engine.core.hand.past_copies", _PAST_COPIES.clear, _PAST_COPIES.__len__, 64)


def _kind_counts(codes: Sequence[int], parsed: list[Meld]) -> tuple[list[int], tuple[int, ...]]:
    """(every tile's kind counts, the concealed tiles' alone), for the copies check and the hand's ``counts``."""
    counts = [0] * KINDS
    for code in codes:  # indexing in the loop: the interpreter specialises it, where a mapped __getitem__ is a call
        counts[KIND_OF[code]] += 1
    concealed_counts = tuple(counts)
    for meld in parsed:
        for code in meld.tiles:
            counts[KIND_OF[code]] += 1
    return counts, concealed_counts


def _one_of_each_red(codes: Sequence[int]) -> bool:
    reds = [code for code in codes if code >= RED_BASE]
    return len(reds) == len(set(reds))


_ALLOWED: dict[tuple[frozenset[int] | None, frozenset[int] | None], frozenset[int]] = {}
register("engine.core.hand.allowed_codes", _ALLOWED.clear, _ALLOWED.__len__, 64)


def allowed_codes(allowed_kinds: frozenset[int] | None, red_fives: frozenset[int] | None) -> frozenset[int]:
    """Every tile code the tile set allows, so a hand within it is accepted by one subset test.

    A hand with a code outside goes through ``_check_tile_set``, which reports the first offender.
    """
    key = (allowed_kinds, red_fives)
    codes = _ALLOWED.get(key)
    if codes is None:
        allowed_red = None if red_fives is None else {_red_code(value) for value in red_fives}
        codes = frozenset(
            code
            for code in range(RED_BASE + len(RED_FIVE_KINDS))
            if (allowed_kinds is None or kind_of(code) in allowed_kinds)
            and (allowed_red is None or not is_red(code) or code in allowed_red)
        )
        if len(_ALLOWED) >= 64:
            _ALLOWED.clear()
        _ALLOWED[key] = codes
    return codes


def _within_tile_set(codes: Sequence[int], allowed_kinds: frozenset[int] | None, red_fives: frozenset[int] | None) -> bool:
    try:
        return allowed_codes(allowed_kinds, red_fives).issuperset(codes)
    except TypeError:  # an unhashable tile set (a plain set): let the full check decide
        return False


def _parse_meld(item: tuple[str, str | Sequence[int]] | Mapping[str, str], index: int) -> Meld:
    text: str | Sequence[int]
    if isinstance(item, Mapping):
        if "type" not in item or "tiles" not in item:
            raise InvalidHand(f"meld {index + 1} needs both `type` and `tiles`")
        meld_type, text = item["type"], item["tiles"]
    else:
        try:
            meld_type, text = item
        except (TypeError, ValueError):
            raise InvalidHand(f"meld {index + 1} must be a (type, tiles) pair") from None
    if meld_type not in MELD_TYPES:
        raise InvalidHand(f"unknown meld type `{meld_type}`; expected one of {', '.join(MELD_TYPES)}")
    return _meld_of(meld_type, text, index)


def _meld_of(meld_type: str, text: str | Sequence[int], index: int) -> Meld:
    """The ``Meld`` of a known meld type and its tiles (notation, or tile codes), checked and kept by its notation."""
    key = (meld_type, text) if type(text) is str and len(text) <= 16 else None
    meld = _MELDS.get(key) if key is not None else None
    if meld is None:
        tiles = parse_tiles(text) if isinstance(text, str) else _given_codes(text, f"meld {index + 1}")
        meld = _new_meld(meld_type, tuple(sorted(tiles, key=SORT_RANK.__getitem__)))
        _check_meld_shape(meld)  # only well-shaped melds are kept
        if key is not None:
            if len(_MELDS) >= 4096:
                _MELDS.clear()
            _MELDS[key] = meld
    return meld


def _new_meld(meld_type: str, tiles: tuple[int, ...]) -> Meld:
    """``Meld(meld_type, tiles)``: the same object, its fields set as its ``__dict__`` at once (as a ``Hand``'s are,
    ``hand_of_parts``) rather than through the record's constructor, which binds its arguments and sets each field
    in turn. Every new meld of a stream of requests is made here (``tests/scoring/test_new_melds.py``)."""
    meld = _NEW(Meld)
    _SET(meld, "__dict__", {"type": meld_type, "tiles": tiles})
    return meld


def _given_codes(value: object, what: str, one: bool = False) -> tuple[int, ...]:
    """Tile codes given as such (a sequence of ints in range), as a tuple; anything else is an ``InvalidHand``."""
    if not isinstance(value, (list, tuple)) or not all(type(code) is int and 0 <= code < len(KIND_OF) for code in value):
        expected = "a tile in mpsz notation or a tile code" if one else "tiles in mpsz notation or a sequence of tile codes"
        raise InvalidHand(f"{what}: expected {expected} (0..{len(KIND_OF) - 1})")
    return tuple(value)


# Melds are immutable and their notation repeats (``666z``, ``123m``), so each distinct one is built once.
_MELDS: dict[tuple[str, str], Meld] = {}
register("engine.core.hand.melds", _MELDS.clear, _MELDS.__len__, 4096)
# The melds of ``made_hand``, by their (type, codes) as a round holds them.
_MADE_MELDS: dict[tuple[str, tuple[int, ...]], Meld] = {}
register("engine.core.hand.made_melds", _MADE_MELDS.clear, _MADE_MELDS.__len__, 4096)
# A meld kept by its (type, tiles) notation, or None: ``kept_meld`` without its call, for a reader that tries the
# kept ones first (a key of other types is never among them; an unhashable one raises ``TypeError``).
KEPT_MELD = _MELDS.get


def _check_meld_shape(meld: Meld) -> None:
    # ``meld.is_kan`` and ``meld.kinds`` written out: each new meld of a request stream is checked here, and a
    # property is a call
    size = 4 if meld.type in KAN_TYPES else 3
    if len(meld.tiles) != size:
        shown = format_tiles(meld.tiles)
        raise InvalidHand(f"{meld.type} `{shown}` has {len(meld.tiles)} tiles; a {meld.type} has {size}")
    kinds = tuple(map(KIND_OF.__getitem__, meld.tiles))
    if meld.type == "chi":
        first = kinds[0]
        if first >= 27 or kinds != (first, first + 1, first + 2) or first % 9 > 6:
            shown = format_tiles(meld.tiles)
            raise InvalidHand(f"chi `{shown}` must be three consecutive number tiles of one suit")
    elif len(set(kinds)) != 1:
        shown = format_tiles(meld.tiles)
        raise InvalidHand(f"{meld.type} `{shown}` must be {size} identical tiles")


def _check_tile_set(
    codes: Iterable[int], allowed_kinds: frozenset[int] | None, red_fives: frozenset[int] | None
) -> None:
    allowed_red = None if red_fives is None else {_red_code(value) for value in red_fives}
    for code in codes:
        kind = kind_of(code)
        if allowed_kinds is not None and kind not in allowed_kinds:
            raise InvalidHand(f"`{format_kind(kind)}` is not part of this rulebook's tile set")
        if allowed_red is not None and is_red(code) and code not in allowed_red:
            raise InvalidHand(f"red five `{format_tiles([code])}` is not part of this rulebook's tile set")


def _red_code(value: int) -> int:
    return RED_BASE + RED_FIVE_KINDS.index(value) if value in RED_FIVE_KINDS else value


def _check_copies(codes: Sequence[int], copies: int) -> None:
    counts = [0] * KINDS
    reds: dict[int, int] = {}
    for code in codes:
        counts[kind_of(code)] += 1
        if is_red(code):
            reds[code] = reds.get(code, 0) + 1
    for kind, count in enumerate(counts):
        if count > copies:
            raise InvalidHand(
                f"`{format_kind(kind)}` appears {count} times across hand and melds; there are only {copies} copies"
            )
    for code, count in sorted(reds.items()):
        if count > 1:
            raise InvalidHand(
                f"red five `{format_tiles([code])}` appears {count} times; there is only one red five of each suit"
            )


def _check_size(concealed: int, n_melds: int) -> None:
    expected = HAND_SIZE - 3 * n_melds
    if concealed != expected:
        meld_words = "no melds" if n_melds == 0 else f"{n_melds} meld{'s' if n_melds > 1 else ''}"
        raise InvalidHand(
            f"{HAND_SIZE} tiles expected with {meld_words} (each kan counted as three): "
            f"{expected} concealed tiles expected, found {concealed}"
        )


def _find_win(codes: Sequence[int], win: int) -> int:
    """The winning tile's code as held: a plain five names the red five when that is the only five held."""
    if win in codes:
        return win
    kind = kind_of(win)
    if not is_red(win) and kind in RED_FIVE_KINDS:
        red = RED_BASE + RED_FIVE_KINDS.index(kind)
        if red in codes:
            return red
    raise InvalidHand(f"the winning tile `{format_tiles([win])}` is not among the concealed tiles")
