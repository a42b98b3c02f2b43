"""The shanten table of every suit a hand can hold, shipped precomputed: one byte per suit.

``engine.core.analysis`` counts a hand suit by suit: each suit's nine counts give a table (the most held tiles
that s sets and p pairs built in that suit can use), and the hand's count merges the tables. Computing a suit's
table (cut into runs, each run's table built kind by kind, merged) is many Python steps, and a replay or a batch
of self-played games meets thousands of suits it has not seen, so a cold replay spent much of its shanten work
building them. Yet the 405,350 suits of at most ``SUIT_LIMIT`` tiles
have only 126 distinct tables. So every suit's table is computed once, by the same code, and shipped: the
suit's base-5 index (``engine.core.analysis_tables.index_of``) picks a byte in a string of 5**9 bytes, and the
byte the table (0, or a byte past the tables: no table shipped, count it). A suit not seen before then costs an index and a byte look-up.

Encoding (``engine/core/suit_tables.json``): the tables in order of first appearance (by index), each as ten hex
digits (values 0..14), and the bytes cut into blocks of ``BLOCK`` suits (the first three kinds' counts vary
within a block), each distinct block kept once: per block of the index its number (two bytes, little-endian),
then the distinct blocks, compressed with zlib and written in base64 (about 29 KB). Of the 15,625 blocks only
1,024 differ (most are all zeros: more than ``SUIT_LIMIT`` tiles), so reading the file expands 159 KB rather
than the 1.9 MB of every byte, with zlib: it expands them in a third of LZMA's time (0.35 ms against 1.0 ms on
this project's machine, 2026-12-05) for 7 KB more (21.5 KB against 14.5 KB before base64). The file is
read on the first suit not seen before, never at import, so start-up and the scoring commands (which count no
shanten) do not pay for it. A process that cannot read it (no file, another format) computes every suit, which
is slower but gives the same tables.

Fingerprinted: the file records a hash of the code the tables are computed from (and of the exact tables of
``engine.core.analysis_tables`` that code reads); ``python -m ruledsl.regenerate`` rebuilds it when that has
changed (some ten seconds) and ``--check`` says it is stale. While the fingerprint is current the committed
encoding is kept as it stands, so that another build of the compressor cannot make a current file look stale.
"""

from __future__ import annotations

import binascii
import json
import sys
from pathlib import Path

from engine.core.analysis_tables import POWERS, SUIT_LIMIT, index_of
from ruledsl.caches import once
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from array import array

FILE_NAME = "suit_tables.json"
PATH = Path(__file__).resolve().parent / FILE_NAME
_FORMAT = 2  # bumped when the encoding changes
_LINE = 76  # base64 characters per line of the file
_SUIT_KINDS = 9
_SUITS = 5**_SUIT_KINDS  # every nine counts of 0..4, by ``index_of``
BLOCK = 5**3  # suits per block: the counts of a suit's first three kinds, the lowest digits of its index
_BLOCKS = _SUITS // BLOCK

Table = tuple[int, ...]
# the bytes and the tables in order (table n is byte n): what ``compute`` counts
Shipped = tuple[bytes, tuple[Table, ...]]
# the file's data: each block's number, the distinct blocks, and the tables in order
Blocked = tuple["array[int]", bytes, tuple[Table, ...]]
# each block's number, the distinct blocks and every byte's table (``by_byte``): what ``tables`` reads once and
# the look-ups index (the byte of index i is ``blocks[block_of[i // BLOCK] * BLOCK + i % BLOCK]``)
Read = tuple["array[int]", bytes, tuple[Table | None, ...]]


def table_of(vec: tuple[int, ...]) -> Table | None:
    """The shipped table of a suit's nine counts, or None (no usable file, or a suit outside the shipped range:
    more than ``SUIT_LIMIT`` tiles, or a count outside 0..4)."""
    shipped = tables()
    if shipped is None or len(vec) != _SUIT_KINDS:
        return None
    index = index_in_range(vec)
    return None if index is None else _table_at(shipped, index)


def table_at_index(index: int) -> Table | None:
    """``table_of`` of the suit at ``index`` (``index_of``, which a caller may read off the suit's counts another
    way: the octal digits of a round's suit key, read in base 5), or None as ``table_of`` gives it."""
    shipped = tables()
    return None if shipped is None else _table_at(shipped, index)


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
    found: list[Table | None] = [None] * _SUIT_KINDS
    for kind, count in enumerate(vec):
        if count < 4:
            table = _table_at(shipped, index + POWERS[kind])
            if table is None:
                return None
            found[kind] = table
    return found


def _table_at(shipped: Read, index: int) -> Table | None:
    """The shipped table of the suit at ``index`` (``index_of``), or None: no table shipped for it, or a byte past
    the tables or a block number past the blocks (a damaged file), so that such a suit is counted, never read
    wrong."""
    block_of, blocks, of_byte = shipped
    try:
        return of_byte[blocks[block_of[index // BLOCK] * BLOCK + index % BLOCK]]
    except IndexError:
        return None


def index_in_range(vec: tuple[int, ...]) -> int | None:
    """``index_of`` of nine counts, or None when a count is outside 0..4 (no shipped suit holds it).

    The counts as bytes, last first, each 0..4 made its ASCII digit and any other an ``x``, read by ``int`` in
    base 5: four C-level calls that never compare a count as a Python object, where ``min``, ``max`` and
    ``index_of`` compared and multiplied each of the nine (most of a first look-up's instructions). ``bytes``
    refuses a count outside 0..255, ``int`` an ``x``: both are ValueError."""
    try:
        return int(bytes(vec)[::-1].translate(_DIGITS), 5)
    except ValueError:
        return None


# per byte value, the ASCII base-5 digit of a count 0..4, and ``x`` (no digit in any base ``int`` reads) otherwise
_DIGITS = bytes(ord("0") + count if count < 5 else ord("x") for count in range(256))


@once
def tables() -> Read | None:
    """The shipped bytes (a table number per suit index, 0 for none) as each block's number and the distinct
    blocks, and each byte's table (``by_byte``), read on first use; None without a usable file."""
    from importlib import resources  # here: it costs start-up time, and most processes never read the file

    try:
        text = resources.files(__package__ or "engine.core").joinpath(FILE_NAME).read_text(encoding="utf-8")
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("suit_limit") != SUIT_LIMIT:
            return None
        block_of, blocks, listed = decode(data)
    except (OSError, ValueError, KeyError, TypeError, ImportError):
        return None
    return block_of, blocks, by_byte(listed)


def by_byte(listed: tuple[Table, ...]) -> tuple[Table | None, ...]:
    """The table each of the 256 byte values names: None for 0 (no table shipped) and for a byte past the
    tables, so that a byte is read by one index and a damaged byte makes its suit counted, never read wrong,
    without a check of every suit's byte when the file is read (that check cost as much as decompressing
    them)."""
    return (None, *listed) + (None,) * (255 - len(listed))


def decode(data: dict) -> Blocked:
    """The file's data as block numbers, blocks and tables; ValueError when they do not fit together (a byte
    past the tables is left to ``by_byte``, a block number past the blocks to the look-ups)."""
    import zlib  # here: only a process that reads the file needs it
    from array import array

    try:
        raw = zlib.decompress(binascii.a2b_base64("".join(data["numbers"])))
    except zlib.error as exc:
        raise ValueError(f"the shipped suit tables cannot be read: {exc}") from exc
    listed = tuple(tuple(int(v, 16) for v in table) for table in data["tables"])
    blocks = raw[2 * _BLOCKS :]
    if len(raw) < 2 * _BLOCKS or len(blocks) % BLOCK or len(listed) > 255 or any(len(table) != 10 for table in listed):
        raise ValueError("the shipped suit tables do not fit their numbers")
    block_of = array("H")
    block_of.frombytes(raw[: 2 * _BLOCKS])
    if block_of.itemsize != 2:  # pragma: no cover - no platform of ours has another short
        raise ValueError("no two-byte array type")
    if sys.byteorder != "little":  # pragma: no cover - the file is little-endian
        block_of.byteswap()
    return block_of, blocks, listed


def blocked(numbers: bytes) -> tuple[bytes, bytes]:
    """Every suit's byte as each block's number (two bytes, little-endian) and the distinct blocks in order of
    first appearance: the data the file compresses."""
    found: dict[bytes, int] = {}
    block_of = bytearray()
    for at in range(0, _SUITS, BLOCK):
        number = found.setdefault(numbers[at : at + BLOCK], len(found))
        block_of += number.to_bytes(2, "little")
    return bytes(block_of), b"".join(found)


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
    """Every suit's byte in blocks (``blocked``), compressed and in base64 lines."""
    import zlib

    block_of, blocks = blocked(numbers)
    text = binascii.b2a_base64(zlib.compress(block_of + blocks, 9), newline=False).decode("ascii")
    return [text[at : at + _LINE] for at in range(0, len(text), _LINE)]


def render() -> str:
    """The file's text: the committed one's data while its fingerprint is current (its encoding kept as it
    stands), else computed afresh."""
    stamp = fingerprint()
    try:
        shipped = json.loads(PATH.read_text(encoding="utf-8"))
        if shipped.get("fingerprint") == stamp and shipped.get("format") == _FORMAT:
            return dumps(shipped["numbers"], decode(shipped)[2], stamp)
    except (OSError, ValueError, KeyError, TypeError, ImportError):
        pass
    numbers, listed = compute()
    return dumps(encode(numbers), listed, stamp)


if __name__ == "__main__":  # ``python -m ruledsl.regenerate`` asks for the file's text this way (see its docstring)
    import sys

    sys.stdout.write(render())
