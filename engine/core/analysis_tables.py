"""The suits whose quick shanten table is wrong, with their exact tables, shipped precomputed.

``engine.core.analysis`` counts a suit's table by cutting it into runs and looking each run up by its shape
(``_runs_table``: a few cached look-ups). That count assumes a group can always take one more copy of a kind from
the wall, which is false when the hand holds all four: then only the exact count (``_exact_suit_table``, a
dynamic programme over the suit's kinds, about a millisecond) is right. Yet the quick count agrees with the exact
one on about 98% of the suits holding four copies, and a cold replay of the vendored logs met some 800 such
suits. So the exact count is run once over every suit that holds four copies of a kind and at most
``SUIT_LIMIT`` tiles (every suit a hand can hold: 244,002 suits), and the suits where the two counts differ are
shipped with their exact tables in ``engine/core/analysis_tables.json``; a suit not listed has the quick table.

Encoding: each listed suit is eight bytes, its base-5 index (``index_of``) in three, then its ten table values
(0..14) in four bits each, sorted by index and written in base64. The file is read on the first suit with four
copies (a few milliseconds), never at import, so start-up does not pay for it.

Fingerprinted: the file records a hash of the code of both counts (``fingerprint``), and
``python -m ruledsl.regenerate`` rebuilds it (a few minutes: the exact count over every suit) when that code has
changed; ``--check`` says it is stale. A process that cannot read the file, or reads one made for another
``SUIT_LIMIT``, counts every such suit exactly, which is slower but gives the same answers.
"""

from __future__ import annotations

import binascii
import json
from operator import mul
from pathlib import Path

from ruledsl.caches import once

FILE_NAME = "analysis_tables.json"
PATH = Path(__file__).resolve().parent / FILE_NAME
SUIT_LIMIT = 14  # the most tiles of one suit in a hand (14 tiles, all of one suit)
_FORMAT = 1  # bumped when the encoding changes
_RECORD = 8  # bytes per listed suit
_LINE = 76  # base64 characters per line of the file
_SUIT_KINDS = 9

Table = tuple[int, ...]


def index_of(vec: tuple[int, ...]) -> int:
    """A suit's nine counts (0..4) as one number in base 5, the first kind the lowest digit: one C-level sum of
    products (a suit met for the first time asks it, where a loop of nine Python steps cost about a
    microsecond). Only the first nine counts are read."""
    return sum(map(mul, vec, POWERS))


# the place value of each of a suit's nine counts in ``index_of``: one more copy of kind i adds ``POWERS[i]``
POWERS = tuple(5**i for i in range(_SUIT_KINDS))


@once
def exceptions() -> dict[int, Table] | None:
    """The shipped exact tables by the suit's ``index_of``, read on first use; None without a usable file."""
    from importlib import resources  # here: it costs start-up time, and most processes never read the file

    try:
        text = resources.files(__package__ or "engine.core").joinpath(FILE_NAME).read_text(encoding="utf-8")
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("suit_limit") != SUIT_LIMIT:
            return None
        return decode("".join(data["exceptions"]))
    except (OSError, ValueError, KeyError, TypeError):  # a damaged or foreign file is no table, never an error
        return None


def decode(text: str) -> dict[int, Table]:
    """The base64 records as a dict: index to table."""
    raw = binascii.a2b_base64(text)
    out: dict[int, Table] = {}
    for at in range(0, len(raw), _RECORD):
        index = int.from_bytes(raw[at : at + 3], "big")
        values = []
        for byte in raw[at + 3 : at + _RECORD]:
            values.append(byte >> 4)
            values.append(byte & 15)
        out[index] = tuple(values)
    return out


def encode(listed: dict[int, Table]) -> str:
    """The inverse of ``decode``, records sorted by index."""
    raw = bytearray()
    for index in sorted(listed):
        table = listed[index]
        if len(table) != 10 or not all(0 <= v < 16 for v in table):
            raise ValueError(f"table {table} of suit {index} does not fit four bits a value")
        raw += index.to_bytes(3, "big")
        raw += bytes(table[k] << 4 | table[k + 1] for k in range(0, 10, 2))
    return binascii.b2a_base64(bytes(raw), newline=False).decode("ascii")


# --- building the file (``python -m ruledsl.regenerate``) -------------------------------------------------------


def fingerprint() -> str:
    """A hash of the code the file is computed from: both counts and every helper they call."""
    import hashlib
    import inspect

    from engine.core import analysis

    parts = [
        inspect.getsource(fn)
        for fn in (
            analysis._runs_table, analysis._pattern_table, analysis._strip, analysis._merge,
            analysis._exact_suit_table, analysis._cells, analysis._choices, analysis._monotone,
        )
    ]
    parts.append(f"MAX_SETS={analysis.MAX_SETS} SUIT_LIMIT={SUIT_LIMIT} FORMAT={_FORMAT}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def suits_with_four() -> list[tuple[int, ...]]:
    """Every suit (nine counts 0..4) holding four copies of some kind and at most ``SUIT_LIMIT`` tiles."""
    import itertools

    return [vec for vec in itertools.product(range(5), repeat=_SUIT_KINDS) if 4 in vec and sum(vec) <= SUIT_LIMIT]


def compute() -> dict[int, Table]:
    """The suits where the quick count differs from the exact one, with the exact table (the slow part)."""
    from engine.core import analysis

    listed: dict[int, Table] = {}
    for vec in suits_with_four():
        exact = analysis._exact_suit_table(vec)
        if analysis._runs_table(vec) != exact:
            listed[index_of(vec)] = exact
    return listed


def dumps(listed: dict[int, Table], stamp: str) -> str:
    encoded = encode(listed)
    data = {
        "regenerate": "python -m ruledsl.regenerate",
        "about": "generated from engine/core/analysis.py (see engine/core/analysis_tables.py); do not edit",
        "format": _FORMAT,
        "fingerprint": stamp,
        "suit_limit": SUIT_LIMIT,
        "suits": len(listed),
        "exceptions": [encoded[at : at + _LINE] for at in range(0, len(encoded), _LINE)],
    }
    return json.dumps(data, indent=1) + "\n"


def render() -> str:
    """The file's text. While the committed file's fingerprint is current its tables are taken from it (the exact
    count over every suit takes minutes, and ``--check`` asks this of every generated file) and written again, so
    a change of layout still shows; else they are computed afresh."""
    stamp = fingerprint()
    try:
        shipped = json.loads(PATH.read_text(encoding="utf-8"))
        if shipped.get("fingerprint") == stamp and shipped.get("format") == _FORMAT:
            return dumps(decode("".join(shipped["exceptions"])), stamp)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return dumps(compute(), stamp)


if __name__ == "__main__":  # ``python -m ruledsl.regenerate`` asks for the file's text this way (see its docstring)
    import sys

    sys.stdout.write(render())
