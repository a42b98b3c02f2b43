"""The shanten table of every suit a hand can hold, shipped precomputed: one byte per suit.

``engine.core.analysis`` counts a hand suit by suit: each suit's nine counts give a table (the most held tiles
that s sets and p pairs built in that suit can use), and the hand's count merges the tables. Computing a suit's
table (cut into runs, each run's table built kind by kind, merged) costs some twenty microseconds, and a replay
or a batch of self-played games meets thousands of suits it has not seen: a cold replay of the vendored logs
built some 9,000 of them, about half of its shanten work. Yet the 405,350 suits of at most ``SUIT_LIMIT`` tiles
have only 126 distinct tables. So every suit's table is computed once, by the same code, and shipped: the
suit's base-5 index (``engine.core.analysis_tables.index_of``) picks a byte in a string of 5**9 bytes, and the
byte the table (0, or a byte past the tables: no table shipped, count it). A suit not seen before then costs an index and a byte look-up.

Encoding (``engine/core/suit_tables.json``): the tables in order of first appearance (by index), each as ten hex
digits (values 0..14), and the bytes compressed with LZMA and written in base64 (about 24 KB). The file is read on the first suit not seen before
(about ten milliseconds, 1.9 MB of bytes kept), never at import, so start-up and the scoring commands (which
count no shanten) do not pay for it. A process that cannot read it (no file, no ``lzma`` module, another
format) computes every suit, which is slower but gives the same tables.

Fingerprinted: the file records a hash of the code the tables are computed from (and of the exact tables of
``engine.core.analysis_tables`` that code reads); ``python -m ruledsl.regenerate`` rebuilds it when that has
changed (some ten seconds) and ``--check`` says it is stale. While the fingerprint is current the committed
encoding is kept as it stands, so that another build of the compressor cannot make a current file look stale.
"""

from __future__ import annotations

import binascii
import json
from pathlib import Path

from engine.core.analysis_tables import POWERS, SUIT_LIMIT, index_of
from ruledsl.caches import once

FILE_NAME = "suit_tables.json"
PATH = Path(__file__).resolve().parent / FILE_NAME
_FORMAT = 1  # bumped when the encoding changes
_LINE = 76  # base64 characters per line of the file
_SUIT_KINDS = 9
_SUITS = 5**_SUIT_KINDS  # every nine counts of 0..4, by ``index_of``

Table = tuple[int, ...]
# the bytes and the tables in order (table n is byte n): the file's data, and what ``compute`` counts
Shipped = tuple[bytes, tuple[Table, ...]]
# the bytes and every byte's table (``by_byte``): what ``tables`` reads once and the look-ups index
Read = tuple[bytes, tuple[Table | None, ...]]


def table_of(vec: tuple[int, ...]) -> Table | None:
    """The shipped table of a suit's nine counts, or None (no usable file, or a suit outside the shipped range:
    more than ``SUIT_LIMIT`` tiles, or a count outside 0..4)."""
    shipped = tables()
    if shipped is None or len(vec) != _SUIT_KINDS:
        return None
    index = index_in_range(vec)
    return None if index is None else shipped[1][shipped[0][index]]


def with_one_more(vec: tuple[int, ...]) -> list[Table | None] | None:
    """Per kind, the shipped table of the suit with one more copy of it (None for a kind held four times), or
    None when the file does not cover every such suit. One more copy of kind i adds ``POWERS[i]`` to the suit's
    index, so the nine tables are nine byte look-ups from one index."""
    shipped = tables()
    if shipped is None or len(vec) != _SUIT_KINDS or sum(vec) >= SUIT_LIMIT:
        return None
    index = index_in_range(vec)
    if index is None:
        return None
    numbers, of_byte = shipped
    found: list[Table | None] = [None] * _SUIT_KINDS
    for kind, count in enumerate(vec):
        if count < 4:
            table = of_byte[numbers[index + POWERS[kind]]]
            if table is None:
                return None
            found[kind] = table
    return found


def index_in_range(vec: tuple[int, ...]) -> int | None:
    """``index_of`` of nine counts, or None when a count is outside 0..4 (no shipped suit holds it).

    The counts as bytes, last first, each 0..4 made its ASCII digit and any other an ``x``, read by ``int`` in
    base 5: four C-level calls that never compare a count as a Python object, where ``min``, ``max`` and
    ``index_of`` compared and multiplied each of the nine (about 9,000 of a first look-up's 10,600
    instructions). ``bytes`` refuses a count outside 0..255, ``int`` an ``x``: both are ValueError."""
    try:
        return int(bytes(vec)[::-1].translate(_DIGITS), 5)
    except ValueError:
        return None


# per byte value, the ASCII base-5 digit of a count 0..4, and ``x`` (no digit in any base ``int`` reads) otherwise
_DIGITS = bytes(ord("0") + count if count < 5 else ord("x") for count in range(256))


@once
def tables() -> Read | None:
    """The shipped bytes (a table number per suit index, 0 for none) and each byte's table (``by_byte``), read on
    first use; None without a usable file."""
    from importlib import resources  # here: it costs start-up time, and most processes never read the file

    try:
        text = resources.files(__package__ or "engine.core").joinpath(FILE_NAME).read_text(encoding="utf-8")
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("suit_limit") != SUIT_LIMIT:
            return None
        numbers, listed = decode(data)
    except (OSError, ValueError, KeyError, TypeError, ImportError):
        return None
    return numbers, by_byte(listed)


def by_byte(listed: tuple[Table, ...]) -> tuple[Table | None, ...]:
    """The table each of the 256 byte values names: None for 0 (no table shipped) and for a byte past the
    tables, so that a byte is read by one index and a damaged byte makes its suit counted, never read wrong,
    without a check of the 1.9 million bytes when the file is read (that check cost as much as decompressing
    them: 17.6 M instructions of a replay's first pass)."""
    return (None, *listed) + (None,) * (255 - len(listed))


def decode(data: dict) -> Shipped:
    """The file's data as bytes and tables; ValueError when they do not fit together (a byte past the tables
    is left to ``by_byte``)."""
    import lzma  # here: only a process that reads the file needs it

    try:
        numbers = lzma.decompress(binascii.a2b_base64("".join(data["numbers"])))
    except lzma.LZMAError as exc:
        raise ValueError(f"the shipped suit tables cannot be read: {exc}") from exc
    listed = tuple(tuple(int(v, 16) for v in table) for table in data["tables"])
    if len(numbers) != _SUITS or len(listed) > 255 or any(len(table) != 10 for table in listed):
        raise ValueError("the shipped suit tables do not fit their numbers")
    return numbers, listed


def suits() -> list[tuple[int, ...]]:
    """Every suit a hand can hold: nine counts of 0..4, at most ``SUIT_LIMIT`` tiles."""
    import itertools

    return [vec for vec in itertools.product(range(5), repeat=_SUIT_KINDS) if sum(vec) <= SUIT_LIMIT]


def compute() -> Shipped:
    """Every suit's table, from the code that counts it (``engine.core.analysis._computed_suit_table``)."""
    from engine.core import analysis

    numbers = bytearray(_SUITS)
    found: dict[Table, int] = {}
    for vec in suits():
        table = analysis._computed_suit_table(vec)
        number = found.setdefault(table, len(found) + 1)
        numbers[index_of(vec)] = number
    if len(found) > 255:
        raise ValueError(f"{len(found)} distinct suit tables do not fit one byte each")  # pragma: no cover
    return bytes(numbers), tuple(found)


def fingerprint() -> str:
    """A hash of the code the tables come from: the suit's count and everything it reads (the exact tables of
    ``engine.core.analysis_tables`` by their own fingerprint)."""
    import hashlib
    import inspect

    from engine.core import analysis, analysis_tables

    parts = [inspect.getsource(fn) for fn in (analysis._computed_suit_table, analysis._four_copies_table, index_of, suits, compute)]
    parts.append(analysis_tables.fingerprint())
    parts.append(f"SUIT_LIMIT={SUIT_LIMIT} FORMAT={_FORMAT}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def dumps(numbers_text: list[str], listed: tuple[Table, ...], stamp: str) -> str:
    data = {
        "regenerate": "python -m ruledsl.regenerate",
        "about": "generated from engine/core/analysis.py (see engine/core/suit_tables.py); do not edit",
        "format": _FORMAT,
        "fingerprint": stamp,
        "suit_limit": SUIT_LIMIT,
        "tables": ["".join(f"{v:x}" for v in table) for table in listed],
        "numbers": numbers_text,
    }
    return json.dumps(data, indent=1) + "\n"


def encode(numbers: bytes) -> list[str]:
    """The bytes compressed and in base64 lines."""
    import lzma

    text = binascii.b2a_base64(lzma.compress(numbers, preset=9), newline=False).decode("ascii")
    return [text[at : at + _LINE] for at in range(0, len(text), _LINE)]


def render() -> str:
    """The file's text: the committed one's data while its fingerprint is current (its encoding kept as it
    stands), else computed afresh."""
    stamp = fingerprint()
    try:
        shipped = json.loads(PATH.read_text(encoding="utf-8"))
        if shipped.get("fingerprint") == stamp and shipped.get("format") == _FORMAT:
            return dumps(shipped["numbers"], decode(shipped)[1], stamp)
    except (OSError, ValueError, KeyError, TypeError, ImportError):
        pass
    numbers, listed = compute()
    return dumps(encode(numbers), listed, stamp)


if __name__ == "__main__":  # ``python -m ruledsl.regenerate`` asks for the file's text this way (see its docstring)
    import sys

    sys.stdout.write(render())
