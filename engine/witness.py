"""Witness hands: concrete wins that score differently under two rulebooks.

A diff that only says "these items differ" leaves an organiser guessing what it does at the table. For each
change that can move a score we search for a hand whose result differs and that actually involves the changed
item, starting from the rulebooks' own inline examples (targeted: they exercise exactly their item) and then
from random complete hands, and keep the simplest one found. Nothing is ever claimed equivalent: when no
witness turns up, the caller reports how many hands were searched.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine import tiles as T
from engine.errors import EngineError
from engine.examples import request_from_example
from engine.score import Scorer
from ruledsl.compile import Rulebook

FLAG_FIELDS = ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou")


@dataclass(frozen=True)
class Outcome:
    """What a request scores to under one rulebook, reduced to what a player would compare."""

    ok: bool
    total: int
    han: int
    fu: int
    yakuman: int
    limit: str | None
    yaku: frozenset[str]
    fu_items: frozenset[str]
    error: str | None
    response: dict[str, Any]

    @property
    def key(self) -> tuple:
        return (self.ok, self.total, self.han, self.fu, self.yakuman, self.yaku, self.error)


def outcome(scorer: Scorer, request: dict[str, Any]) -> Outcome:
    try:
        r = scorer.score(request)
    except EngineError as exc:
        return Outcome(False, 0, 0, 0, 0, None, frozenset(), frozenset(), exc.code, {"ok": False, "error": exc.to_json()})
    return Outcome(
        True,
        r["total"],
        r["han"],
        r["fu"],
        r["yakuman"],
        r["limit"],
        frozenset(y["id"] for y in r["yaku"]),
        frozenset(f["id"] for f in r["fu_items"]),
        None,
        r,
    )


def complexity(request: dict[str, Any]) -> tuple[int, ...]:
    """Smaller is simpler: fewer melds, flags, indicators and counters; a non-dealer ron first."""
    return (
        len(request.get("melds", [])),
        sum(1 for f in FLAG_FIELDS if request.get(f)),
        len(request.get("dora_indicators", "")) + len(request.get("ura_indicators", "")),
        request.get("honba", 0) + request.get("riichi_sticks", 0) + request.get("kita", 0),
        int(bool(request.get("tsumo"))),
        int(request.get("seat_wind", "E") == "E"),
    )


def example_requests(rulebook: Rulebook) -> Iterator[tuple[str, dict[str, Any]]]:
    """(item name, request) for every inline example of a rulebook's items, and simple variations of it."""
    for item in rulebook.resolved.items.values():
        for example, _source in item.examples:
            try:
                base = request_from_example(example.text)
            except EngineError:
                continue
            yield item.name, base
            for variant in _variations(base):
                yield item.name, variant


def _variations(request: dict[str, Any]) -> Iterator[dict[str, Any]]:
    seat = request.get("seat_wind", "E")
    yield dict(request, seat_wind="S" if seat == "E" else "E")
    yield dict(request, tsumo=not request.get("tsumo", False))
    if not request.get("melds") and not request.get("riichi"):
        yield dict(request, riichi=True)
    for five, red in (("5m", "0m"), ("5p", "0p"), ("5s", "0s")):
        hand = request["hand"]
        expanded = T.format_tiles(T.parse_tiles(hand))
        if five[0] in _digits_of(expanded, five[1]):
            codes = T.parse_tiles(hand)
            kind = T.parse_tile(five)
            if kind in codes:
                codes[codes.index(kind)] = T.parse_tile(red)
                win = request["win"]
                changed = dict(request, hand=T.format_tiles(codes))
                if win == five and kind not in codes:
                    changed["win"] = red
                yield changed


def _digits_of(text: str, suit: str) -> str:
    out = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            if ch == suit:
                out.append(digits)
            digits = ""
    return "".join(out)


class RandomHands:
    """Random complete winning hands with plausible situations, drawn from one tile set (seeded)."""

    def __init__(self, kinds: frozenset[int], red_fives: frozenset[int], seed: int = 2025) -> None:
        self.kinds = sorted(kinds)
        self.red_fives = sorted(red_fives)
        self.rng = random.Random(seed)
        self.sequence_starts = [k for k in self.kinds if k < 27 and k % 9 <= 6 and k + 1 in kinds and k + 2 in kinds]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while True:
            request = self._one()
            if request is not None:
                yield request

    def _one(self) -> dict[str, Any] | None:
        rng = self.rng
        counts = [0] * T.KINDS
        concealed: list[int] = []
        melds: list[dict[str, str]] = []
        if rng.random() < 0.06:
            pairs = rng.sample(self.kinds, 7)
            for k in pairs:
                concealed += [k, k]
        else:
            for _ in range(4):
                group = self._group(counts)
                if group is None:
                    return None
                shape, tiles = group
                call = rng.random()
                if call < 0.12 and shape == "seq":
                    melds.append({"type": "chi", "tiles": T.format_tiles(tiles)})
                elif call < 0.2 and shape == "trip":
                    melds.append({"type": "pon", "tiles": T.format_tiles(tiles)})
                elif call < 0.25 and shape == "trip" and counts[tiles[0]] == 3:
                    counts[tiles[0]] += 1
                    kan = rng.choice(("ankan", "daiminkan", "kakan"))
                    melds.append({"type": kan, "tiles": T.format_tiles(tiles + [tiles[0]])})
                else:
                    concealed += tiles
            pair = [k for k in self.kinds if counts[k] <= 2]
            if not pair:
                return None
            k = rng.choice(pair)
            counts[k] += 2
            concealed += [k, k]
        if not concealed:
            return None
        concealed = self._reds(concealed)
        win = rng.choice(concealed)
        closed = all(m["type"] == "ankan" for m in melds)
        tsumo = rng.random() < 0.4
        riichi = closed and rng.random() < 0.5
        request: dict[str, Any] = {
            "hand": T.format_tiles(concealed),
            "win": T.format_tiles([win]),
            "melds": melds,
            "tsumo": tsumo,
            "seat_wind": rng.choice("ESWN"),
            "round_wind": rng.choice("ES"),
            "riichi": riichi,
            "dora_indicators": T.format_tiles([rng.choice(self.kinds)], sort=False),
        }
        if riichi:
            request["ura_indicators"] = T.format_tiles([rng.choice(self.kinds)], sort=False)
            request["ippatsu"] = rng.random() < 0.15
        return request

    def _group(self, counts: list[int]) -> tuple[str, list[int]] | None:
        rng = self.rng
        for _ in range(20):
            if self.sequence_starts and rng.random() < 0.6:
                k = rng.choice(self.sequence_starts)
                if all(counts[k + i] < 4 for i in range(3)):
                    for i in range(3):
                        counts[k + i] += 1
                    return "seq", [k, k + 1, k + 2]
            else:
                k = rng.choice(self.kinds)
                if counts[k] <= 1:
                    counts[k] += 3
                    return "trip", [k, k, k]
        return None

    def _reds(self, concealed: list[int]) -> list[int]:
        out = list(concealed)
        for red in self.red_fives:
            five = T.kind_of(red)
            if five in out and self.rng.random() < 0.3:
                out[out.index(five)] = red
        return out


@dataclass
class Search:
    """Scores a shared pool of candidate hands under both rulebooks once; each change then picks its witness."""

    a: Scorer
    b: Scorer
    random_hands: int = 4000
    seed: int = 2025

    def __post_init__(self) -> None:
        self.pool: list[tuple[str | None, dict[str, Any], Outcome, Outcome]] = []
        seen: set[str] = set()
        for rulebook in (self.a.rulebook, self.b.rulebook):
            for item, request in example_requests(rulebook):
                self._add(item, request, seen)
        kinds = self.a.p.allowed_kinds & self.b.p.allowed_kinds
        reds = self.a.p.red_fives | self.b.p.red_fives
        for scorer in (self.a, self.b):
            generator = iter(RandomHands(kinds if kinds else scorer.p.allowed_kinds, reds, self.seed))
            for _ in range(self.random_hands // 2):
                self._add(None, next(generator), seen)
        self.searched = len(self.pool)

    def _add(self, item: str | None, request: dict[str, Any], seen: set[str]) -> None:
        key = repr(sorted(request.items()))
        if key in seen:
            return
        seen.add(key)
        self.pool.append((item, request, outcome(self.a, request), outcome(self.b, request)))

    def find(self, involved: Callable[[dict[str, Any], Outcome, Outcome], bool], prefer: set[str]) -> dict[str, Any] | None:
        """The simplest pooled hand that scores differently and involves the change; examples of ``prefer`` first."""
        best = None
        best_key = None
        for item, request, oa, ob in self.pool:
            if oa.key == ob.key or not (oa.ok or ob.ok):
                continue
            if not involved(request, oa, ob):
                continue
            rank = (0 if item in prefer else 1, *complexity(request))
            if best_key is None or rank < best_key:
                best, best_key = (request, oa, ob), rank
        if best is None:
            return None
        request, oa, ob = best
        return {"request": request, "a": oa.response, "b": ob.response}
