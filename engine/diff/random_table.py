"""The witness search's random hands for the common tile sets, shipped precomputed.

``riichi diff`` searches 4,000 random winning hands (``engine.diff.witness.RandomHands``, seeded), drawn from the
tiles both rulebooks allow and the red fives either does. Drawing them, writing them in tile notation and working
out each one's simplicity was a sixth of the command's processor time, for hands that are the same in every run.
So for the tile sets most pairs of rulebooks share (all 34 kinds, with the three red fives or none) the first hands
the generator gives (``ROWS``, a margin above the 4,000 searched) are shipped in ``engine/diff/random_hands.json``
with, per hand, its simplicity (``engine.diff.witness.complexity``), whether an earlier hand was the same, and the
order of simplicity of them all: ``Search`` pools the same hands in the same order, only read instead of drawn.

Encoding: per tile set, one zlib-compressed JSON document (``{"rows": [...], "order": [...]}``) in base64 lines; a
row is ``[simplicity, repeat, hand, win, melds, tsumo, seat wind, round wind, riichi, dora]`` and, for a riichi,
``ura, ippatsu``. The file is read on the first search that needs it, never at import.

Fingerprinted: the file records a hash of the code it comes from (the generator, the notation tables, the
simplicity and the seed), and ``python -m ruledsl.regenerate`` rebuilds it when that code has changed; ``--check``
says it is stale. A process whose own generator draws another first hand (another Python's ``random``), or that
cannot read the file, draws the hands as before: slower, the same answers.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator
from pathlib import Path

from engine.core import tiles as T
from ruledsl.caches import lru
from ruledsl.record import record
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

FILE_NAME = "random_hands.json"
PATH = Path(__file__).resolve().parent / FILE_NAME
SEED = 2025  # ``Search``'s default seed: the only one shipped
ROWS = 4300  # hands per tile set: 4,000 searched by default, and a margin for those an example or an earlier hand repeats
_FORMAT = 1  # bumped when the encoding changes
_LINE = 76  # base64 characters per line of the file
ALL_KINDS = frozenset(range(T.KINDS))
# the tile sets shipped, as (kinds, red fives): every pair of rulebooks whose common tiles are all 34 kinds
TILE_SETS: tuple[tuple[frozenset[int], frozenset[int]], ...] = (
    (ALL_KINDS, frozenset(T.RED_BASE + i for i in range(len(T.RED_FIVE_KINDS)))),
    (ALL_KINDS, frozenset()),
)


@record(slots=False)
class Shipped:
    """The shipped hands of one tile set: the rows in the generator's order, and their positions in order of
    simplicity (ties in the generator's order)."""

    rows: list[list[Any]]
    order: list[int]


def request_of(row: list[Any]) -> dict[str, Any]:
    """The request of a row, its keys in the order ``RandomHands`` writes them."""
    request: dict[str, Any] = {
        "hand": row[2],
        "win": row[3],
        "melds": [{"type": kind, "tiles": tiles} for kind, tiles in row[4]],
        "tsumo": row[5],
        "seat_wind": row[6],
        "round_wind": row[7],
        "riichi": row[8],
        "dora_indicators": row[9],
    }
    if len(row) > 10:
        request["ura_indicators"] = row[10]
        request["ippatsu"] = row[11]
    return request


def _key(kinds: frozenset[int], red_fives: frozenset[int]) -> str:
    return f"{','.join(map(str, sorted(kinds)))}/{','.join(map(str, sorted(red_fives)))}"


def shipped(kinds: frozenset[int], red_fives: frozenset[int], seed: int) -> Shipped | None:
    """The shipped hands of this tile set and seed, or None (not shipped, no usable file, or this Python's
    generator draws another first hand)."""
    if seed != SEED:
        return None
    return _decoded(_key(kinds, red_fives))


@lru(4)
def _decoded(key: str) -> Shipped | None:
    data = _file()
    encoded = data.get(key) if data is not None else None
    if encoded is None:
        return None
    try:
        payload = json.loads(zlib.decompress(base64.b64decode("".join(encoded))))
        table = Shipped(payload["rows"], payload["order"])
    except (ValueError, KeyError, TypeError, zlib.error):
        return None
    from engine.diff.witness import RandomHands

    kinds, _, reds = key.partition("/")
    first = next(iter(RandomHands(_codes(kinds), _codes(reds), SEED)))
    return table if table.rows and request_of(table.rows[0]) == first else None


def _codes(text: str) -> frozenset[int]:
    return frozenset(int(code) for code in text.split(",")) if text else frozenset()


@lru(1)
def _file() -> dict[str, list[str]] | None:
    """The file's tile sets by key, read on first use; None without a usable file."""
    try:
        data = json.loads(PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("seed") != SEED:
        return None
    sets = data.get("tile_sets")
    return sets if isinstance(sets, dict) else None


# --- building the file (``python -m ruledsl.regenerate``) -------------------------------------------------------


def fingerprint() -> str:
    """A hash of the code the file is computed from: the generator, the notation tables it writes with, the
    simplicity, and this module's constants."""
    import hashlib
    import inspect

    from engine.diff import witness

    parts = [inspect.getsource(witness.RandomHands), inspect.getsource(witness._written), inspect.getsource(witness.complexity)]
    parts += [repr(witness._ORDER), repr(witness._DIGIT_SUIT), repr(witness.FLAG_FIELDS), inspect.getsource(request_of)]
    parts.append(f"SEED={SEED} ROWS={ROWS} FORMAT={_FORMAT} TILE_SETS={[_key(k, r) for k, r in TILE_SETS]}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def rows(kinds: frozenset[int], red_fives: frozenset[int]) -> Iterator[list[Any]]:
    """The generator's first ``ROWS`` hands as rows: simplicity, whether an earlier hand is the same, the request."""
    from engine.diff.witness import RandomHands, complexity

    seen: set[str] = set()
    generator = iter(RandomHands(kinds, red_fives, SEED))
    for _ in range(ROWS):
        request = next(generator)
        key = repr(sorted(request.items()))
        melds = [[m["type"], m["tiles"]] for m in request["melds"]]
        row = [list(complexity(request)), int(key in seen), request["hand"], request["win"], melds, request["tsumo"]]
        row += [request["seat_wind"], request["round_wind"], request["riichi"], request["dora_indicators"]]
        if "ura_indicators" in request:
            row += [request["ura_indicators"], request["ippatsu"]]
        if request_of(row) != request:
            raise AssertionError(f"a random hand does not fit a row: {request}")
        seen.add(key)
        yield row


def encode(table: list[list[Any]]) -> list[str]:
    order = sorted(range(len(table)), key=lambda at: (table[at][0], at))
    text = json.dumps({"rows": table, "order": order}, separators=(",", ":"), ensure_ascii=False)
    encoded = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")
    return [encoded[at : at + _LINE] for at in range(0, len(encoded), _LINE)]


def render() -> str:
    """The file's text. While the committed file's fingerprint is current its hands are taken from it and written
    again (so that ``--check`` does not depend on this machine's zlib writing the same bytes); else every tile set
    is drawn afresh (a second or so)."""
    stamp = fingerprint()
    sets: dict[str, list[str]] | None = None
    try:
        committed = json.loads(PATH.read_text(encoding="utf-8"))
        if committed.get("fingerprint") == stamp and committed.get("format") == _FORMAT:
            sets = committed["tile_sets"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    if sets is None:
        sets = {_key(kinds, reds): encode(list(rows(kinds, reds))) for kinds, reds in TILE_SETS}
    data = {
        "regenerate": "python -m ruledsl.regenerate",
        "about": "generated from engine/diff/witness.py (see engine/diff/random_table.py); do not edit",
        "format": _FORMAT,
        "fingerprint": stamp,
        "seed": SEED,
        "rows": ROWS,
        "tile_sets": sets,
    }
    return json.dumps(data, indent=1) + "\n"


if __name__ == "__main__":  # ``python -m ruledsl.regenerate`` asks for the file's text this way
    import sys

    sys.stdout.write(render())
