"""The wall of one hand: the tile set of the rulebook in a fixed order, the live wall and the dead wall.

Layout (ours, stated once so that a given wall is readable): the tiles are dealt 13 to each seat in turn from
the front, starting with the dealer; the live wall follows; the last ``dead_wall`` tiles are the dead wall. Of the
dead wall, tile ``2i`` is the i-th dora indicator and ``2i + 1`` its ura indicator (five pairs); the rest are the
replacement tiles drawn after a kan or a set-aside North. Each replacement draw moves the last live tile into the
dead wall, so the dead wall keeps its size and the live wall gets one tile shorter, as at a real table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from engine.core import tiles as T
from engine.core.errors import InvalidRequest
from engine.round.rules import INDICATOR_PAIRS, RoundRules
from ruledsl.memo import Memo
from ruledsl.record import record


def tile_set(rules: RoundRules) -> list[int]:
    """Every tile of the rulebook's set, sorted: ``copies`` of each kind, one copy of a five replaced by its red.
    A fresh list each call (callers take tiles out of it); built once per tile set (every replayed or dealt hand
    asks for it, several times)."""
    return list(_TILE_SETS[(rules.kinds, rules.red_fives, rules.copies)])


def _build_tile_set(key: tuple[tuple[int, ...], tuple[int, ...], int]) -> tuple[int, ...]:
    kinds, red_fives, copies = key
    out: list[int] = []
    reds = {T.RED_FIVE_KINDS[c - T.RED_BASE]: c for c in red_fives}
    for kind in kinds:
        red = reds.get(kind)
        out.extend([red] if red is not None else [])
        out.extend([kind] * (copies - (1 if red is not None else 0)))
    return tuple(out)


# a tile set per (kinds, reds, copies) of the rulebooks in use, and the same tiles in code order (a given wall is
# checked against it); values only in the key, so no state of one round reaches another
_TILE_SETS: Memo = Memo(_build_tile_set, 64)
_SORTED_SETS: Memo = Memo(lambda key: tuple(sorted(_TILE_SETS[key])), 64)


@record
class Wall:
    """One hand's tiles in order (see the module docstring for the layout)."""

    tiles: tuple[int, ...]

    @classmethod
    def shuffled(cls, rules: RoundRules, seed: int | str | None) -> Wall:
        """The tile set shuffled by ``random.Random(seed)``: the same seed always gives the same wall."""
        tiles = tile_set(rules)
        _shuffle(random.Random(seed), tiles)
        return cls(tuple(tiles))

    @classmethod
    def build(
        cls,
        rules: RoundRules,
        hands: Mapping[int, str | Sequence[int]],
        draws: str | Sequence[int] = (),
        *,
        dealer: int = 0,
        dora: str | Sequence[int] = (),
        ura: str | Sequence[int] = (),
        replacements: str | Sequence[int] = (),
        fill: int | None = 0,
        tail: str | Sequence[int] = (),
    ) -> Wall:
        """A wall arranged for a scenario: each seat's 13 dealt tiles, then the live draws in order (every seat's
        draws interleaved as they happen), dora and ura indicators and replacement tiles; the remaining tiles of
        the set fill the rest in sorted order (or shuffled by ``fill`` when it is a seed other than 0). ``tail`` are
        the last live draws, in order (the last tile of the hand is its last tile)."""
        players = rules.players
        left = tile_set(rules)

        def take(spec: str | Sequence[int], what: str) -> list[int]:
            codes = list(T.tile_codes(spec) if isinstance(spec, str) else spec)
            for code in codes:
                if code in left:
                    left.remove(code)
                elif code < T.KINDS and _red_of(code) in left:
                    raise InvalidRequest(f"{what}: no plain `{T.format_tiles([code])}` left (only the red one)")
                else:
                    raise InvalidRequest(f"{what}: no `{T.format_tiles([code])}` left in the tile set")
            return codes

        dealt: list[list[int]] = [[] for _ in range(players)]
        for seat in range(players):
            if seat in hands:
                dealt[seat] = take(hands[seat], f"hand of seat {seat}")
                if len(dealt[seat]) != 13:
                    raise InvalidRequest(f"hand of seat {seat}: {len(dealt[seat])} tiles, 13 expected")
        given = list(T.tile_codes(draws) if isinstance(draws, str) else draws)
        live_head: list[int | None] = [None if c is None else take((c,), "draws")[0] for c in given]  # None: any tile
        dora_codes = take(dora, "dora")
        ura_codes = take(ura, "ura")
        rep = take(replacements, "replacements")
        tail_codes = take(tail, "tail")
        rest = sorted(left, key=lambda c: (T.kind_of(c), c))
        if fill:
            random.Random(fill).shuffle(rest)
        for seat in range(players):
            while len(dealt[seat]) < 13:
                dealt[seat].append(rest.pop(0))
        dead_size = rules.dead_wall
        dead = dead_wall_layout(dead_size, dora_codes, ura_codes, rep)
        live_size = len(tile_set(rules)) - dead_size - 13 * players
        if len(live_head) + len(tail_codes) > live_size:
            raise InvalidRequest(f"draws: {len(live_head) + len(tail_codes)} tiles given, the live wall holds {live_size}")
        # dead-wall places nobody fixed take the last tiles of the rest, so the live wall keeps the given order
        for i in range(dead_size):
            if dead[i] is None:
                dead[i] = rest.pop()
        live_head = [rest.pop(0) if c is None else c for c in live_head]
        live = live_head + rest + tail_codes
        order = [dealt[(dealer + k) % players] for k in range(players)]
        return cls(tuple(t for hand in order for t in hand) + tuple(live) + tuple(dead))  # type: ignore[arg-type]


def _shuffle_inline(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, the same swaps from the same random bits, with the draw of each index written into the
    loop: a round's deal shuffles 136 tiles, and the method call per tile was most of a deal's cost."""
    getrandbits = rng.getrandbits
    bits = _BIT_LENGTHS if len(x) <= len(_BIT_LENGTHS) else [n.bit_length() for n in range(len(x) + 1)]
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


# ``n.bit_length()`` of every index count a wall of up to 256 tiles shuffles (a method call per tile otherwise)
_BIT_LENGTHS = tuple(n.bit_length() for n in range(257))


def _shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)`` by the inline loop where that gives this Python's ``random.shuffle`` result, else by
    ``random.shuffle`` itself: the two are compared once, on first use, so that a Python whose shuffle draws its
    indices otherwise still deals the walls its own shuffle deals."""
    if not _CHOSEN:
        same = True
        for seed in ("0/0", 12345):
            ours, theirs = list(range(136)), list(range(136))
            _shuffle_inline(random.Random(seed), ours)
            random.Random(seed).shuffle(theirs)
            same = same and ours == theirs
        _CHOSEN.append(_shuffle_inline if same else random.Random.shuffle)
    _CHOSEN[0](rng, x)


_CHOSEN: list[Callable[[random.Random, list[int]], None]] = []


def dead_wall_layout(size: int, dora: Sequence[int], ura: Sequence[int], replacements: Sequence[int]) -> list[int | None]:
    """The dead wall's places: dora and ura indicators in pairs (dora at even places, its ura beside it), then the
    replacement tiles in draw order; None where the tile is not known."""
    dead: list[int | None] = [None] * size
    for i, code in enumerate(dora):
        dead[2 * i] = code
    for i, code in enumerate(ura):
        dead[2 * i + 1] = code
    for i, code in enumerate(replacements):
        dead[2 * INDICATOR_PAIRS + i] = code
    return dead


def _red_of(kind: int) -> int:
    return T.RED_BASE + T.RED_FIVE_KINDS.index(kind) if kind in T.RED_FIVE_KINDS else -1


class WallState:
    """The wall while a hand is played: what is left to draw, indicators revealed, replacement tiles taken."""

    __slots__ = ("live", "dead", "replacements_taken", "revealed", "next_live", "remaining")

    def __init__(self, wall: Wall, rules: RoundRules, checked: bool = False) -> None:
        """``checked``: the caller placed each tile of the rulebook's set at most once (``Round``'s
        ``_wall_checked``), so a wall of the set's size holds the set: only the size is compared."""
        tiles = wall.tiles
        full = _SORTED_SETS[(rules.kinds, rules.red_fives, rules.copies)]
        expected = len(full)
        if len(tiles) != expected or not checked and tuple(sorted(tiles)) != full:
            raise InvalidRequest(f"the wall must hold exactly the rulebook's {expected} tiles")
        dealt = 13 * rules.players
        self.live: list[int] = list(tiles[dealt : len(tiles) - rules.dead_wall])
        self.dead: list[int] = list(tiles[len(tiles) - rules.dead_wall :])
        self.replacements_taken = 0
        self.revealed = 1  # dora indicators shown
        self.next_live = 0  # index of the next live draw (``turns.draw`` takes it in place, as ``draw`` does)
        # live tiles left to draw, kept as each draw takes one: read after every discard (a field, not a count)
        self.remaining = len(self.live)

    def hands(self, wall: Wall, players: int) -> list[list[int]]:
        return [list(wall.tiles[13 * k : 13 * (k + 1)]) for k in range(players)]

    def draw(self) -> int:
        tile = self.live[self.next_live]
        self.next_live += 1
        self.remaining -= 1
        return tile

    def replacement(self) -> int:
        """A replacement draw; the last live tile moves into the dead wall to keep its size."""
        tile = self.dead[2 * INDICATOR_PAIRS + self.replacements_taken]
        self.replacements_taken += 1
        self.dead.append(self.live.pop())
        self.remaining -= 1
        return tile

    def dora_indicators(self) -> tuple[int, ...]:
        return tuple(self.dead[2 * i] for i in range(self.revealed))

    def dora_indicator(self, i: int) -> int:
        """The ``i``-th dora indicator (0: the one shown at the deal), revealed or not."""
        return self.dead[2 * i]

    def ura_indicators(self) -> tuple[int, ...]:
        return tuple(self.dead[2 * i + 1] for i in range(self.revealed))

    def reveal(self) -> int:
        """Reveal the next kan dora indicator; returns it."""
        self.revealed = min(self.revealed + 1, INDICATOR_PAIRS)
        return self.dead[2 * (self.revealed - 1)]

    def unseen(self) -> Iterable[int]:
        """Tiles nobody holds or has seen: the rest of the live wall and the dead wall (for conservation checks)."""
        return (*self.live[self.next_live :], *self.dead[2 * INDICATOR_PAIRS + self.replacements_taken :], *self.dead[: 2 * INDICATOR_PAIRS])
