"""The `mahjong` package behind a JSON-lines loop, as `riichi score --json` is: the peer's side of the process rows
of ``benchmarks/score.py`` and ``benchmarks/memory.py``.

Reads score requests (the contract's JSON, one per line) on stdin and writes one JSON line per request with what
our response carries too (han, fu, limit, yaku with han, fu items, payments, total) under the house options, or the
peer's error.

It imports nothing of this project (only the standard library and ``mahjong``), so its time and memory are the
peer's alone: a peer loop that loaded our tile parser would carry our modules' memory and start-up. Its conversion
from notation to the peer's arguments (``peer_arguments``) is a small mpsz reader of its own; it gives the very
arguments of ``tests.peer_oracle.peer_arguments``, the conversion the peer cross-check uses, and
``tests/engine/test_peer_jsonl_independent.py`` checks both facts (no module of ours imported; the same arguments
on thousands of random requests).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

WINDS = "ESWN"
SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
RED_FIVE_KINDS = (4, 13, 22)
_RUN = re.compile(r"([0-9]+)([mpsz])")
_WELL_FORMED = re.compile(r"(?:[0-9]+[mps]|[1-7]+z|[ \t,])*")

# the house rulebook's options, as tests.peer_oracle.HOUSE_OPTIONS gives them to the cross-check
HOUSE_OPTIONS = dict(
    has_open_tanyao=True,
    has_aka_dora=True,
    has_double_yakuman=True,
    kazoe_limit=HandConstants.KAZOE_LIMITED,
    kiriage=False,
    fu_for_open_pinfu=True,
    fu_for_pinfu_tsumo=False,
    renhou_as_yakuman=False,
    limit_to_sextuple_yakuman=False,
)
PEER_MELD = {
    "chi": (Meld.CHI, True),
    "pon": (Meld.PON, True),
    "daiminkan": (Meld.KAN, True),
    "kakan": (Meld.SHOUMINKAN, True),
    "ankan": (Meld.KAN, False),
}


def tiles_of(text: str) -> list[tuple[int, bool]]:
    """(kind 0..33, red) per tile of mpsz text (``0`` is a red five); ValueError for anything else."""
    if not isinstance(text, str) or _WELL_FORMED.fullmatch(text) is None:
        raise ValueError(f"not mpsz notation: {text!r}")
    out = []
    for digits, suit in _RUN.findall(text):
        base = SUIT_BASE[suit]
        out.extend((base + 4, True) if digit == "0" else (base + int(digit) - 1, False) for digit in digits)
    return out


class Tiles136:
    """Hands out distinct 136-format tiles; copy 0 of each five is the red one, as in the ``mahjong`` package."""

    def __init__(self) -> None:
        self.next = [0] * 34

    def take(self, tile: tuple[int, bool]) -> int:
        kind, red = tile
        if red:
            return kind * 4
        if kind in RED_FIVE_KINDS:
            self.next[kind] = max(self.next[kind], 1)
        copy = self.next[kind]
        if copy > 3:
            raise ValueError(f"more than the available copies of kind {kind}")
        self.next[kind] += 1
        return kind * 4 + copy


def peer_arguments(request: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``HandCalculator.estimate_hand_value`` describing ``request`` under house options."""
    pool = Tiles136()
    hand = tiles_of(request["hand"])
    concealed = [pool.take(t) for t in hand]
    melds = []
    tiles = list(concealed)
    for meld in request.get("melds", []):
        meld_type, opened = PEER_MELD[meld["type"]]
        meld_tiles = [pool.take(t) for t in tiles_of(meld["tiles"])]
        tiles.extend(meld_tiles)
        melds.append(Meld(meld_type=meld_type, tiles=meld_tiles, opened=opened))
    win = tiles_of(request["win"])
    if len(win) != 1:
        raise ValueError(f"expected exactly one winning tile, got {request['win']!r}")
    win_tile = next(t for t, code in zip(concealed, hand, strict=True) if code == win[0])
    indicators = Tiles136()  # only the kind of an indicator matters to the peer
    dora = [indicators.take(t) for t in tiles_of(request.get("dora_indicators", ""))]
    ura = [indicators.take(t) for t in tiles_of(request.get("ura_indicators", ""))]
    double = bool(request.get("double_riichi"))
    config = HandConfig(
        is_tsumo=bool(request.get("tsumo")),
        is_riichi=bool(request.get("riichi")) or double,
        is_daburu_riichi=double,
        is_ippatsu=bool(request.get("ippatsu")),
        is_rinshan=bool(request.get("rinshan")),
        is_chankan=bool(request.get("chankan")),
        is_haitei=bool(request.get("haitei")),
        is_houtei=bool(request.get("houtei")),
        is_tenhou=bool(request.get("tenhou")),
        is_chiihou=bool(request.get("chiihou")),
        is_renhou=bool(request.get("renhou")),
        player_wind=EAST + WINDS.index(request.get("seat_wind", "E")),
        round_wind=EAST + WINDS.index(request.get("round_wind", "E")),
        tsumi_number=int(request.get("honba", 0)),
        kyoutaku_number=int(request.get("riichi_sticks", 0)),
        options=OptionalRules(**HOUSE_OPTIONS),
    )
    return {
        "tiles": tiles,
        "win_tile": win_tile,
        "melds": melds or None,
        "dora_indicators": dora or None,
        "ura_dora_indicators": ura or None,
        "config": config,
    }


def answer(line: str) -> dict:
    try:
        request = json.loads(line)
        arguments = peer_arguments(request)
    except (ValueError, KeyError, TypeError, StopIteration) as exc:
        return {"ok": False, "error": str(exc)}
    result = HandCalculator.estimate_hand_value(**arguments)
    if result.error:
        return {"ok": False, "error": result.error}
    cost = result.cost
    opened = any(meld.opened for meld in arguments["melds"] or ())
    return {
        "ok": True,
        "han": result.han,
        "fu": result.fu,
        "limit": cost["yaku_level"] or None,
        "yaku": [{"id": y.name, "han": y.han_open if opened else y.han_closed} for y in result.yaku],
        "fu_items": [{"id": f["reason"], "fu": f["fu"]} for f in result.fu_details or ()],
        "payments": {"main": cost["main"], "additional": cost["additional"]},
        "total": cost["total"],
    }


def main() -> None:
    write = sys.stdout.write
    for line in sys.stdin:
        if line.strip():
            write(json.dumps(answer(line)) + "\n")


if __name__ == "__main__":
    main()
