"""Witness hands: concrete wins that score differently under two rulebooks.

A diff that only says "these items differ" leaves an organiser guessing what it does at the table. The search
scores a shared pool of candidate hands under both rulebooks once: the rulebooks' own inline examples (they
exercise exactly their item), random complete hands, and hands steered towards one rule (``engine.diff.steer``).
Which change a differing hand is blamed on is decided by ``engine.diff.change_witnesses``. Nothing is ever claimed
equivalent: when no witness turns up, the caller reports how many hands were searched.

A hand holding a red five is scored under a rulebook without red fives as the same hand with a plain five, so
that a red-five rule shows its real effect (the aka dora han) instead of "invalid hand" on one side.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engine.core import tiles as T
from engine.core.errors import EngineError
from engine.core.situation import FLAG_FIELDS as SITUATION_FLAGS
from engine.diff import random_table
from engine.scoring.example_notation import request_from_example
from engine.scoring.score import Scorer
from ruledsl.compile import Rulebook
from ruledsl.record import record

# every situation flag but ``tsumo`` (a ron or a tsumo is counted on its own in ``complexity``)
FLAG_FIELDS = tuple(name for name in SITUATION_FLAGS if name != "tsumo")


@record(slots=False)
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
    """Smaller is simpler: fewer melds, flags, red fives, indicators and counters; a non-dealer ron first."""
    tiles = request["hand"] + "".join(m["tiles"] for m in request.get("melds", []))
    return (
        len(request.get("melds", [])),
        sum(1 for f in FLAG_FIELDS if request.get(f)),
        tiles.count("0"),  # red fives: a plain five reads more easily
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
        expanded = _written(T.parse_tiles(hand))
        if five[0] in _digits_of(expanded, five[1]):
            codes = T.parse_tiles(hand)
            kind = T.parse_tile(five)
            if kind in codes:
                codes[codes.index(kind)] = T.parse_tile(red)
                win = request["win"]
                changed = dict(request, hand=_written(codes))
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


# How ``T.format_tiles`` writes each tile code: its place in the sorted order (kind, then the red five first) as one
# number, its digit and its suit. Random hands are written thousands of times per diff; ``_written`` gives the
# same text (tests/cli/test_diff_shortcuts.py compares them) with a table instead of four calls per tile.
_CODES = range(T.RED_BASE + len(T.RED_FIVE_KINDS))
_ORDER = [2 * T.kind_of(c) + (0 if T.is_red(c) else 1) for c in _CODES]
_DIGIT_SUIT = [("0" if T.is_red(c) else str(T.number_of(T.kind_of(c))), T.suit_of(T.kind_of(c))) for c in _CODES]
_ONE = [digit + suit for digit, suit in _DIGIT_SUIT]


def _written(codes: list[int]) -> str:
    """``T.format_tiles(codes)``, sorted, from the tables above."""
    out: list[str] = []
    run = ""
    for code in sorted(codes, key=_ORDER.__getitem__):
        digit, suit = _DIGIT_SUIT[code]
        if suit != run and run:
            out.append(run)
        out.append(digit)
        run = suit
    if run:
        out.append(run)
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
                    melds.append({"type": "chi", "tiles": _written(tiles)})
                elif call < 0.2 and shape == "trip":
                    melds.append({"type": "pon", "tiles": _written(tiles)})
                elif call < 0.25 and shape == "trip" and counts[tiles[0]] == 3:
                    counts[tiles[0]] += 1
                    kan = rng.choice(("ankan", "daiminkan", "kakan"))
                    melds.append({"type": kan, "tiles": _written(tiles + [tiles[0]])})
                else:
                    concealed += tiles
            pair = self._pair(counts)
            if pair is None:
                return None
            counts[pair] += 2
            concealed += [pair, pair]
        if not concealed:
            return None
        concealed = self._reds(concealed)
        win = rng.choice(concealed)
        closed = all(m["type"] == "ankan" for m in melds)
        tsumo = rng.random() < 0.4
        riichi = closed and rng.random() < 0.5
        request: dict[str, Any] = {
            "hand": _written(concealed),
            "win": _ONE[win],
            "melds": melds,
            "tsumo": tsumo,
            "seat_wind": rng.choice("ESWN"),
            "round_wind": rng.choice("ES"),
            "riichi": riichi,
            "dora_indicators": _ONE[rng.choice(self.kinds)],
        }
        if riichi:
            request["ura_indicators"] = _ONE[rng.choice(self.kinds)]
            request["ippatsu"] = rng.random() < 0.15
        return request

    def _pair(self, counts: list[int]) -> int | None:
        """The pair's kind: any kind with two tiles left."""
        pair = [k for k in self.kinds if counts[k] <= 2]
        return self.rng.choice(pair) if pair else None

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


@record(slots=False)
class Candidate:
    """One pooled hand: where it came from, the request as scored under each rulebook, and both outcomes."""

    item: str | None  # the item whose example it is, or the item a steered search aimed at
    origin: str  # "example", "random" or "steered"
    request: dict[str, Any]  # as generated (red fives kept)
    request_a: dict[str, Any]
    request_b: dict[str, Any]
    a: Outcome
    b: Outcome

    @property
    def differs(self) -> bool:
        """A witness candidate: the two rulebooks answer differently and at least one accepts the hand."""
        return self.a.key != self.b.key and (self.a.ok or self.b.ok)


def plain_fives(codes: tuple[int, ...] | list[int], red_fives: frozenset[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Tile codes as a tile set with only ``red_fives`` holds them: any other red five becomes a plain five (the
    one mapping between tile sets the engine makes; a witness hand and a logged round under B both use it)."""
    return tuple(T.kind_of(c) if T.is_red(c) and c not in red_fives else c for c in codes)


def fitted(request: dict[str, Any], red_fives: frozenset[int]) -> dict[str, Any]:
    """The request as a rulebook with only ``red_fives`` sees it: any other red five written as a plain five."""
    fields: list[tuple[str | int, str]] = [("hand", request["hand"]), ("win", request["win"])]
    fields += [(i, m["tiles"]) for i, m in enumerate(request.get("melds", []))]
    changed = False
    out = dict(request)
    melds = [dict(m) for m in request.get("melds", [])]
    for key, text in fields:
        codes = T.parse_tiles(text)
        plain = list(plain_fives(codes, red_fives))
        if plain != codes:
            changed = True
            new = T.format_tiles(plain, sort=False)
            if isinstance(key, int):
                melds[key]["tiles"] = new
            else:
                out[key] = new
    if not changed:
        return request
    out["melds"] = melds
    return out


@record(slots=False)
class Pooled:
    """A hand in the pool not scored yet: where it came from and the request as generated."""

    item: str | None
    origin: str
    request: dict[str, Any]


class Search:
    """The shared pool of candidate hands, each scored under both rulebooks at most once.

    ``random_hands`` is exactly the number of distinct random hands added (fewer only if the tile set cannot
    make that many); examples and steered hands come on top, and ``searched`` counts every hand pooled. The
    examples and random hands are pooled at once (so that the pool, its order and its count are what they always
    were) but each is scored only when a search first reaches it (``candidate``): a witness search in order of
    simplicity (``engine.diff.change_witnesses.ranked``) that stops at a simpler hand never needs the hands after it.
    Steered hands are scored as they are pooled.
    """

    def __init__(
        self, a: Scorer, b: Scorer, random_hands: int = 4000, seed: int = 2025, tick: Callable[..., None] | None = None, *, shipped: bool = True
    ) -> None:
        self.a, self.b = a, b
        self.shipped = shipped  # the random hands read from ``engine.diff.random_table`` where it has them (False: drawn)
        self._unkeyed: list[dict[str, Any]] = []  # pooled hands whose key ``seen`` does not hold yet
        self._shipped_order: tuple[int, list[int]] | None = None  # (first random index, the shipped order of them)
        self.entries: list[Candidate | Pooled] = []  # in pool order, scored or not yet
        self.simplicity: list[tuple[int, ...]] = []  # ``complexity`` of each entry's request, worked out once
        self.seen: set[str] = set()
        self.counts = {"example": 0, "random": 0, "steered": 0}
        self.tick = tick or (lambda n=1, total=None: None)
        self.scored: list[int] = []  # the indices of the entries scored, in the order they were
        self._waiting: list[tuple[tuple[int, ...], int, None]] | None = None
        self.named: list[int] = []  # the indices of the pooled examples of an item (set with ``waiting``)
        examples = [(item, req) for rb in (a.rulebook, b.rulebook) for item, req in example_requests(rb)]
        self.tick(0, total=len(examples) + random_hands)
        for item, request in examples:
            self._pool(item, "example", request)
            self.tick()
        self._random(random_hands, seed)

    def _random(self, wanted: int, seed: int) -> None:
        kinds = self.a.prepared.allowed_kinds & self.b.prepared.allowed_kinds
        reds = self.a.prepared.red_fives | self.b.prepared.red_fives
        table = random_table.shipped(kinds or self.a.prepared.allowed_kinds, reds, seed) if self.shipped else None
        if table is not None and self._pool_shipped(table, wanted):
            return
        generator = iter(RandomHands(kinds or self.a.prepared.allowed_kinds, reds, seed))
        attempts = 0
        while self.counts["random"] < wanted and attempts < wanted * 5:
            attempts += 1
            if self._pool(None, "random", next(generator)):
                self.tick()

    def _pool_shipped(self, table: random_table.Shipped, wanted: int) -> bool:
        """Pool the shipped random hands (``engine.diff.random_table``) as ``_random`` pools the drawn ones: the
        same hands, left out where an example or an earlier hand is the same, within the same number of draws;
        False, pooling nothing, when the table is too short for that. A shipped hand equals an example only if
        its tiles and winning tile are an example's, so only those have their key written; the keys of the others
        are written when a steered hand first asks (``_new``)."""
        rows = table.rows
        examples = {(e.request["hand"], e.request["win"]) for e in self.entries if isinstance(e, Pooled)}
        chosen: list[tuple[int, dict[str, Any]]] = []
        at = attempts = 0
        while len(chosen) < wanted and attempts < wanted * 5:
            if at == len(rows):
                return False
            row = rows[at]
            attempts += 1
            if not row[1]:  # else an earlier hand is the same: pooled already, or left out for the same example
                request = random_table.request_of(row)
                if (row[2], row[3]) not in examples or self._new(request):
                    chosen.append((at, request))
            at += 1
        first = len(self.entries)
        place = {}
        for at, request in chosen:
            place[at] = len(self.entries)
            self.entries.append(Pooled(None, "random", request))
            self.simplicity.append(tuple(rows[at][0]))
            self._unkeyed.append(request)
            self.counts["random"] += 1
            self.tick()
        # the shipped order of simplicity, ties in draw order: the order ``waiting`` sorts them in
        self._shipped_order = (first, [place[at] for at in table.order if at in place])
        return True

    def _pool(self, item: str | None, origin: str, request: dict[str, Any]) -> bool:
        """Pool a hand, to be scored when a search reaches it; False for a hand already pooled."""
        if not self._new(request):
            return False
        self.entries.append(Pooled(item, origin, request))
        self.simplicity.append(complexity(request))
        self.counts[origin] += 1
        return True

    def candidate(self, index: int) -> Candidate:
        """The pooled hand at ``index``, scored (here, the first time)."""
        entry = self.entries[index]
        if isinstance(entry, Candidate):
            return entry
        candidate = self.entries[index] = self._scored(entry.item, entry.origin, entry.request)
        self.scored.append(index)
        return candidate

    def waiting(self) -> list[tuple[tuple[int, ...], int, None]]:
        """The pooled hands of no item (the random ones), each at the best place it could take in a change's order
        of simplicity while not scored (``(1, 0, *complexity)``: not an item's own, points that may differ), with
        its index; in that order, worked out once for every change (a sorted list is a heap). Hands scored since
        are still listed: the caller skips them."""
        if self._waiting is None:
            random = [i for i, e in enumerate(self.entries) if isinstance(e, Pooled) and e.item is None]
            order = self._shipped_order
            if order is not None and random == list(range(order[0], order[0] + len(order[1]))):
                self._waiting = [((1, 0, *self.simplicity[i]), i, None) for i in order[1]]  # sorted when shipped
            else:
                self._waiting = sorted(((1, 0, *self.simplicity[i]), i, None) for i in random)
            self.named = [i for i, e in enumerate(self.entries) if isinstance(e, Pooled) and e.item is not None]
        return self._waiting

    @property
    def pool(self) -> list[Candidate]:
        """Every pooled hand, scored, in pool order (scoring every hand not scored yet)."""
        return [self.candidate(i) for i in range(len(self.entries))]

    @property
    def searched(self) -> int:
        return len(self.entries)

    def _new(self, request: dict[str, Any]) -> bool:
        if self._unkeyed:
            self.seen.update(repr(sorted(r.items())) for r in self._unkeyed)
            self._unkeyed.clear()
        key = repr(sorted(request.items()))
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def _scored(self, item: str | None, origin: str, request: dict[str, Any]) -> Candidate:
        request_a, request_b = fitted(request, self.a.prepared.red_fives), fitted(request, self.b.prepared.red_fives)
        return Candidate(item, origin, request, request_a, request_b, outcome(self.a, request_a), outcome(self.b, request_b))

    def add(self, item: str | None, origin: str, request: dict[str, Any]) -> Candidate | None:
        """Score a new hand under both rulebooks and pool it; None for a hand already pooled."""
        if not self._new(request):
            return None
        candidate = self._scored(item, origin, request)
        self.scored.append(len(self.entries))
        self.entries.append(candidate)
        self.simplicity.append(complexity(request))
        self.counts[origin] += 1
        return candidate
