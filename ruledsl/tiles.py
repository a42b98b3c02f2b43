"""Tiles and the mpsz notation that players, logs, rulebooks and the contract all use.

It lives in the rule language, the lowest layer, because rulebooks name tiles too and ``ruledsl`` never imports
the engine; ``engine.core.tiles`` re-exports these very functions (not wrappers: scoring's hot paths call them).

A tile is an ``int`` code: ``0..33`` are the 34 kinds (0-8 man, 9-17 pin, 18-26 sou, 27-33 East South West North
White Green Red) and ``34, 35, 36`` are the red fives of man, pin and sou. Codes are plain ints so that counting a
hand into 34 bins is a tight loop; ``kind_of`` folds a red five onto its kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ruledsl.caches import register
from ruledsl.user_error import EngineError

KINDS = 34
RED_BASE = 34
SUITS = "mpsz"
RED_FIVE_KINDS = (4, 13, 22)
HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
WIND_LETTERS = "ESWN"


def kind_of(code: int) -> int:
    """The kind (0..33) of a tile code; a red five counts as a five."""
    return code if code < RED_BASE else RED_FIVE_KINDS[code - RED_BASE]


KIND_OF: tuple[int, ...] = tuple(kind_of(code) for code in range(RED_BASE + len(RED_FIVE_KINDS)))  # code -> kind


def is_red(code: int) -> bool:
    return code >= RED_BASE


def suit_of(kind: int) -> str:
    return SUITS[kind // 9] if kind < 27 else "z"


def number_of(kind: int) -> int:
    """1..9 for number tiles, 1..7 for honours (East=1 ... Red=7)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def make_kind(suit: str, number: int) -> int:
    return _KIND_BEFORE[suit] + number  # a rule's tile asks this at every reading: one look-up, no branch


class _KindBefore(dict[str, int]):
    """Per suit letter, the kind before its 1 (``make_kind`` adds the number): ``z`` after the three suits, whose
    nine numbers each follow in ``SUITS``' order. Any other value is read as ``SUITS.index`` reads it (the same
    kind, or the same error), and not kept."""

    def __missing__(self, suit: str) -> int:
        return SUITS.index(suit) * 9 - 1


_KIND_BEFORE = _KindBefore({"m": -1, "p": 8, "s": 17, "z": 26})


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_yaochuu(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def is_simple(kind: int) -> bool:
    return kind < 27 and kind % 9 not in (0, 8)


def is_wind(kind: int) -> bool:
    return 27 <= kind <= 30


def is_dragon(kind: int) -> bool:
    return kind >= 31


YAOCHUU_KINDS: tuple[int, ...] = tuple(k for k in range(KINDS) if is_yaochuu(k))


class NotationError(EngineError):
    """Bad mpsz text; ``position`` is the 0-based index of the offending character.

    An ``EngineError`` (``ruledsl.user_error``, the engine's base of user errors), so that every interface
    reports bad notation like any other user error; the engine re-exports this very class (``engine.core.tiles``).
    """

    code = "invalid_notation"

    def __init__(self, message: str, text: str, position: int) -> None:
        super().__init__(message)
        self.text = text
        self.position = position


def parse_tiles(text: str) -> list[int]:
    """Parse mpsz notation (``123m0p 55z``, ``6m7m8m``) into tile codes, in the order written."""
    return list(tile_codes(text))


def tile_codes(text: str) -> tuple[int, ...]:
    """``parse_tiles`` as a tuple (shared: the same text gives the same tuple)."""
    if not isinstance(text, str):
        raise NotationError("tiles must be given as a string in mpsz notation", repr(text), 0)
    codes = _PARSED.get(text)
    if codes is None:
        codes = _parse_well_formed(text)
        if codes is None:
            return tuple(_parse_checked(text))  # malformed: the careful parser names the first offending character
        if type(text) is str and len(text) <= _PARSED_KEY_LIMIT:
            if len(_PARSED) >= _PARSED_LIMIT:
                _PARSED.clear()
            _PARSED[text] = codes
    return codes


# Most notation is well formed and repeats (winning tiles, melds, indicators), so parsed text is kept, bounded.
_PARSED: dict[str, tuple[int, ...]] = {}
_PARSED_LIMIT = 8192
_PARSED_KEY_LIMIT = 64
register("ruledsl.tiles.parsed", _PARSED.clear, _PARSED.__len__, _PARSED_LIMIT)
# The codes of notation read before, or None: ``tile_codes``'s cache without its call, for a reader whose text is
# known to be a str (anything else, and text not met, goes to ``tile_codes``).
KEPT_CODES = _PARSED.get
# Notation's runs of digits, each closed by a suit letter (``digit_run_codes``): when the runs cover the whole text
# (their digits and letters add up to its length) and every code is a tile's (``8z`` is not: its byte stays a
# digit's), the text is well formed; anything else is decided by ``_WELL_FORMED.fullmatch(text)`` (None for text
# that is not nothing but such runs and separators).
_WELL_FORMED = re.compile(r"(?:[0-9]+[mps]|[1-7]+z|[ \t,])*")
# No run starts after a digit: a run closed by a letter is matched whole from its first digit, and one that is not
# has no tail that is; without the look-behind, ``findall`` tried every digit of an unclosed run in turn, each
# reading the rest of the run again (quadratic: a request's hand of 64 KiB of digits took minutes).
_DIGIT_RUNS = re.compile(rb"(?<![0-9])([0-9]+)([mpsz])").findall


def digit_run_codes(text: str) -> tuple[bytes, bool]:
    """The tile codes of the text's runs of digits each closed by a suit letter (``123m``), as bytes, in the order
    written, and whether those runs are the whole text (no separator, nothing else). A code past every tile's
    (``8z``'s digit byte) is left for the caller to refuse. The one reader of runs: ``tile_codes``, a request's hand
    (``engine.core.hand.hand_of_parts``) and its indicators (``engine.scoring.inputs.indicator_codes``) all read
    notation through it.

    The text is encoded once (ASCII, any other character one ``?``, which no run holds, so lengths stay the
    text's) and its runs found in the bytes: each run's digits are then codes by one C-level ``translate`` under
    its suit letter's table, with no encoding per run."""
    raw = text.encode("ascii", "replace")
    runs = _DIGIT_RUNS(raw)
    codes = b""
    for digits, suit in runs:
        codes += digits.translate(_SUIT_BYTES[suit])
    return codes, len(codes) + len(runs) == len(raw)


def _parse_well_formed(text: str) -> tuple[int, ...] | None:
    """The codes of text that is nothing but digit runs each closed by a valid suit letter (and separators)."""
    codes, whole = digit_run_codes(text)
    if not whole or (codes and max(codes) > _LAST_CODE):
        if _WELL_FORMED.fullmatch(text) is None:  # separators are well formed, and add nothing to the runs
            return None
    return tuple(codes)


def _parse_checked(text: str) -> list[int]:
    """Character by character, raising ``NotationError`` at the first character that cannot be read."""
    codes: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for pos, ch in enumerate(text):
        if ch.isdigit() and ch.isascii():
            pending.append((int(ch), pos))
        elif ch in SUITS:
            if not pending:
                raise NotationError(f"suit letter `{ch}` at position {pos} has no digits before it", text, pos)
            for digit, dpos in pending:
                codes.append(_code(digit, ch, text, dpos))
            pending = []
        elif ch in " \t,":
            if pending:
                raise NotationError(
                    f"digits before position {pos} have no suit letter (m, p, s or z)", text, pending[0][1]
                )
        else:
            raise NotationError(
                f"unexpected character `{ch}` at position {pos}; tiles are digits followed by m, p, s or z",
                text,
                pos,
            )
    if pending:
        raise NotationError("digits at the end have no suit letter (m, p, s or z)", text, pending[0][1])
    return codes


def _code(digit: int, suit: str, text: str, pos: int) -> int:
    if suit == "z":
        if not 1 <= digit <= 7:
            raise NotationError(f"honour `{digit}z` at position {pos} does not exist; honours are 1z..7z", text, pos)
        return 26 + digit
    base = SUITS.index(suit) * 9
    if digit == 0:
        return RED_BASE + SUITS.index(suit)
    return base + digit - 1


# Per suit letter, each digit's tile code; ``_WELL_FORMED`` admits only the digits listed for ``z``.
_DIGIT_CODES: dict[str, dict[str, int]] = {
    suit: {str(digit): _code(digit, suit, str(digit), 0) for digit in (range(1, 8) if suit == "z" else range(10))}
    for suit in SUITS
}


# The same as ``bytes.translate`` tables: a digit's byte to its code under each suit letter (a digit that is no
# tile under that letter, ``8z``, stays its own byte, past every code).
def _translate_table(codes: dict[str, int]) -> bytes:
    table = bytearray(range(256))
    for digit, code in codes.items():
        table[ord(digit)] = code
    return bytes(table)


SUIT_CODES: dict[str, bytes] = {suit: _translate_table(codes) for suit, codes in _DIGIT_CODES.items()}
_SUIT_BYTES: dict[bytes, bytes] = {suit.encode(): table for suit, table in SUIT_CODES.items()}  # by the letter's byte
# Every tile written plainly as one tile (``1m``, ``0p``, ``7z``) and its code.
ONE_TILE: dict[str, int] = {digit + suit: code for suit, codes in _DIGIT_CODES.items() for digit, code in codes.items()}
# ``KIND_OF`` as a ``bytes.translate`` table: a code's byte to its kind's.
KIND_BYTES = bytes(KIND_OF) + bytes(range(len(KIND_OF), 256))
_LAST_CODE = len(KIND_OF) - 1


def parse_tile(text: str) -> int:
    """Parse exactly one tile."""
    codes = parse_tiles(text)
    if len(codes) != 1:
        raise NotationError(f"expected exactly one tile, got {len(codes)} in `{text}`", text, 0)
    return codes[0]


def _sort_key(code: int) -> tuple[int, int]:
    return (kind_of(code), 0 if is_red(code) else 1)


def format_tiles(codes: Iterable[int], sort: bool = True) -> str:
    """Render codes as compact mpsz, sorted m p s z with red fives written ``0`` (contract: output form)."""
    seq = list(codes)
    try:
        tiles_only = _TILE_CODES.issuperset(seq)
    except TypeError:  # an unhashable code: ``_format_each`` raises as it would
        tiles_only = False
    if not tiles_only:  # a code no tile has: read by the functions that define each part
        return _format_each(seq, sort)
    # a tile's digit, suit and order from tables (``_format_each``'s, per code), with no call per tile
    if sort:
        seq.sort(key=SORT_RANK.__getitem__)
    out: list[str] = []
    run_suit = ""
    for code in seq:
        suit = _SUIT_OF_CODE[code]
        if suit != run_suit and run_suit:
            out.append(run_suit)
        out.append(_DIGIT_OF_CODE[code])
        run_suit = suit
    if run_suit:
        out.append(run_suit)
    return "".join(out)


def _format_each(seq: list[int], sort: bool) -> str:
    """``format_tiles`` written out through ``kind_of``, ``suit_of`` and ``number_of``: its definition, which the
    tables below follow and the tests hold ``format_tiles`` equal to."""
    if sort:
        seq = sorted(seq, key=_sort_key)
    out: list[str] = []
    run_suit = ""
    for code in seq:
        kind = kind_of(code)
        suit = suit_of(kind)
        digit = "0" if is_red(code) else str(number_of(kind))
        if suit != run_suit and run_suit:
            out.append(run_suit)
        out.append(digit)
        run_suit = suit
    if run_suit:
        out.append(run_suit)
    return "".join(out)


_TILE_CODES = frozenset(range(len(KIND_OF)))
# per tile code: ``_sort_key`` as one int (kind, then a red five before the plain fives), its suit letter and digit;
# the rank is the order every hand is shown and kept in (``engine.core.hand``, the round's dealt hands)
SORT_RANK = tuple(2 * kind_of(code) + (0 if is_red(code) else 1) for code in range(len(KIND_OF)))
_SUIT_OF_CODE = tuple(suit_of(kind_of(code)) for code in range(len(KIND_OF)))
_DIGIT_OF_CODE = tuple("0" if is_red(code) else str(number_of(kind_of(code))) for code in range(len(KIND_OF)))


def format_kind(kind: int) -> str:
    return f"{number_of(kind)}{suit_of(kind)}"


def counts_of(codes: Sequence[int]) -> list[int]:
    """34-bin kind counts (red fives counted as fives)."""
    counts = [0] * KINDS
    for code in codes:
        counts[kind_of(code)] += 1
    return counts


def wind_kind(letter: str) -> int:
    """``E``/``S``/``W``/``N`` to the wind's kind."""
    return 27 + WIND_LETTERS.index(letter)
