"""Hands built to satisfy one rule: the search that finds witnesses for rare rules.

Random complete hands almost never show a rule like "seven pairs of 2p-8p" or "a 1p won on the last tile": a
diff that only searched them would report "no witness" for exactly the local rules an organiser most needs to
see. So the search reads what the changed item's condition names (``Hints``): the tiles it mentions, the hand
shapes, the situation flags (haitei, renhou...), whether calls or counters matter; and builds hands made of those
tiles, in those shapes, with those flags set consistently (a renhou is a non-dealer's closed ron, a haitei a
tsumo). Nothing here knows a yaku: only the rule language's own names.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

from engine.core import tiles as T
from engine.diff.witness import RandomHands
from ruledsl import ast
from ruledsl.record import field, record

# Situation flags of a request, and how each must be won to be legal (None: either way).
FLAG_WIN = {
    "riichi": None, "double_riichi": None, "ippatsu": None, "haitei": "tsumo", "houtei": "ron", "rinshan": "tsumo",
    "chankan": "ron", "tenhou": "tsumo", "chiihou": "tsumo", "renhou": "ron",
}
CLOSED_FLAGS = {"riichi", "double_riichi", "ippatsu", "tenhou", "chiihou", "renhou"}
DEALER_FLAGS = {"tenhou": True, "chiihou": False, "renhou": False}
COUNTERS = ("kita", "honba", "riichi_sticks")
SUITS = ("m", "p", "s", "z")


@record(frozen=False, slots=False)
class Hints:
    """What a rule's expressions name, read from its syntax tree."""

    kinds: set[int] = field(default_factory=set)
    flags: set[str] = field(default_factory=set)
    shapes: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)

    @property
    def empty(self) -> bool:
        return not (self.kinds or self.flags or self.shapes or self.names)


def hints_of(exprs: Iterable[ast.Expr]) -> Hints:
    """The tiles, flags, shapes and fact names that appear anywhere in ``exprs``."""
    hints = Hints()
    for expr in exprs:
        _walk(expr, hints)
    return hints


def _walk(node: ast.Expr, hints: Hints) -> None:
    if isinstance(node, ast.Tiles):
        try:
            hints.kinds.update(T.kind_of(c) for c in T.parse_tiles(node.text))
        except T.NotationError:
            pass
        return
    if isinstance(node, ast.Name):
        name = node.id
        hints.names.add(name)
        if name in FLAG_WIN:
            hints.flags.add(name)
        elif name in ("seven_pairs", "thirteen_orphans"):
            hints.shapes.add(name)
        elif name in SUITS:  # `suit(t) == p`: the tiles of that suit
            hints.kinds.update(k for k in range(T.KINDS) if T.suit_of(k) == name)
        return
    if isinstance(node, ast.Call):
        hints.names.add(node.func)
    for child in ast.children(node):
        _walk(child, hints)


SUIT_ORDERS = (("m", "p", "s"), ("m", "s", "p"), ("p", "m", "s"), ("p", "s", "m"), ("s", "m", "p"), ("s", "p", "m"))


def suit_swaps(request: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The same hand in every other arrangement of the three number suits (an example written in man, replayed
    in pin and sou for a rulebook without most man tiles)."""
    for order in SUIT_ORDERS[1:]:
        table = str.maketrans(dict(zip("mps", order, strict=True)))
        swapped = dict(request)
        for key in ("hand", "win", "dora_indicators", "ura_indicators"):
            if key in swapped:
                swapped[key] = swapped[key].translate(table)
        swapped["melds"] = [dict(m, tiles=m["tiles"].translate(table)) for m in request.get("melds", [])]
        yield swapped


class SteeredHands(RandomHands):
    """Random complete hands biased towards a rule's hints: its tiles for the groups and the winning tile, its
    shapes, its flags set as a legal win would have them."""

    def __init__(self, hints: Hints, kinds: frozenset[int], red_fives: frozenset[int], seed: int = 7) -> None:
        super().__init__(kinds, red_fives, seed)
        self.hints = hints
        focus = sorted(k for k in hints.kinds if k in kinds)
        self.focus = focus
        self.focus_starts = [k for k in focus if k < 27 and k % 9 <= 6 and k + 1 in kinds and k + 2 in kinds]
        self.all_kinds = self.kinds
        self.all_starts = self.sequence_starts

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while True:
            request = self._steered()
            if request is not None:
                yield request

    def _steered(self) -> dict[str, Any] | None:
        rng = self.rng
        try:
            shape = self._shape(rng)
            if shape == "thirteen_orphans":
                request = self._orphans(rng)
            elif shape == "seven_pairs":
                request = self._pairs(rng)
            else:
                request = self._one()
        except ValueError:  # a focus too small for the shape drawn
            request = None
        if request is None:
            return None
        return self._situate(request, rng)

    def _group(self, counts: list[int]) -> tuple[str, list[int]] | None:
        """Each group from the rule's own tiles most of the time, else from any tile: a rule about three wind
        triplets needs a hand with three of them and something else."""
        if self.focus and self.rng.random() < 0.65:
            self.kinds, self.sequence_starts = self.focus, self.focus_starts
            try:
                group = super()._group(counts)
            finally:
                self.kinds, self.sequence_starts = self.all_kinds, self.all_starts
            if group is not None:
                return group
        return super()._group(counts)

    def _pair(self, counts: list[int]) -> int | None:
        """The pair from the rule's own tiles half the time (a wind pair for little four winds), else any."""
        focus = [k for k in self.focus if counts[k] <= 2]
        if focus and self.rng.random() < 0.5:
            return self.rng.choice(focus)
        return super()._pair(counts)

    def _shape(self, rng: random.Random) -> str:
        shapes = sorted(self.hints.shapes)
        if shapes and rng.random() < 0.8:
            return rng.choice(shapes)
        return "standard"

    def _pairs(self, rng: random.Random) -> dict[str, Any] | None:
        narrow = len(self.focus) >= 7 and rng.random() < 0.75
        pool = self.focus if narrow else self.all_kinds
        if len(pool) < 7:
            return None
        concealed = [k for k in rng.sample(pool, 7) for _ in (0, 1)]
        return self._closed(concealed, rng)

    def _orphans(self, rng: random.Random) -> dict[str, Any] | None:
        orphans = [k for k in T.YAOCHUU_KINDS if k in self.all_kinds]
        if len(orphans) < 13:
            return None
        return self._closed(orphans + [rng.choice(orphans)], rng)

    def _closed(self, concealed: list[int], rng: random.Random) -> dict[str, Any]:
        concealed = self._reds(concealed)
        return {
            "hand": T.format_tiles(concealed),
            "win": T.format_tiles([rng.choice(concealed)]),
            "melds": [],
            "tsumo": rng.random() < 0.4,
            "seat_wind": rng.choice("ESWN"),
            "round_wind": rng.choice("ES"),
            "dora_indicators": T.format_tiles([rng.choice(self.all_kinds)], sort=False),
        }

    def _situate(self, request: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        """Set the hinted flags the way a legal win has them; pick the winning tile among the hinted tiles."""
        hints = self.hints
        concealed = T.parse_tiles(request["hand"])
        focus_in_hand = [c for c in concealed if T.kind_of(c) in hints.kinds]
        if focus_in_hand and rng.random() < 0.7:
            request["win"] = T.format_tiles([rng.choice(focus_in_hand)])
        flags = [f for f in sorted(hints.flags) if rng.random() < 0.85]
        closed = all(m["type"] == "ankan" for m in request["melds"])
        if any(f in CLOSED_FLAGS for f in flags) and not closed:
            return None
        for flag in ("riichi", "double_riichi", "ippatsu"):
            request.pop(flag, None)
        request.pop("ura_indicators", None)
        for flag in flags:
            request[flag] = True
            how = FLAG_WIN[flag]
            if how is not None:
                request["tsumo"] = how == "tsumo"
            if flag in DEALER_FLAGS:
                dealer = DEALER_FLAGS[flag]
                request["seat_wind"] = "E" if dealer else rng.choice("SWN")
        if "ippatsu" in flags:
            request["riichi"] = True
        if "rinshan" in flags and not any(m["type"] in ("ankan", "daiminkan", "kakan") for m in request["melds"]):
            return None
        for counter in COUNTERS:
            if counter in hints.names and rng.random() < 0.7:
                request[counter] = rng.randint(1, 3)
        return request
