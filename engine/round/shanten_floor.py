"""A lower bound of a hand's shanten from its isolated tiles, a few C-level calls instead of a shanten count.

The round rests every hand after every discard and needs its waits only when it is tenpai; a random or weak
player's hand nearly never is. A count of ``engine.core.analysis.shanten`` is exact but costs tens of microseconds; this
bound costs a couple and settles most hands (``Seat.rest``, ``legal._may_riichi``): when it is 1 or more the hand
is not tenpai and has no waits, and the exact count is not needed.

Why it holds. A tile is *isolated* when it is the only copy of its kind in the hand and no other tile of its suit
lies within two numbers of it (an honour: the only copy of its kind). Completing the hand takes ``d`` draws and
leaves ``d - 1`` tiles out (13-tile form: shanten = ``d - 1``; a 14-tile hand draws after a discard: shanten =
``d - 1`` with ``d`` tiles left out). Every isolated tile either is left out, or sits in a group of the complete
hand (a run, a triplet or a pair, seven pairs included) whose other tiles are not all from the hand (else one of
them would be a copy or a near neighbour): so it has a drawn partner, and one drawn tile partners one isolated
tile at most (two isolated tiles in one group would be neighbours). So ``isolated <= d + (d - 1)`` for a 3n+1
hand and ``isolated <= 2d`` for a 3n+2 one. Thirteen orphans groups no tiles, so its own count (the one
``engine.core.analysis.shanten`` takes for 13 and 14 tiles, with no melds) bounds the hand instead where it is lower. A bound for the
unlimited count bounds the exact count too: the limit on copies only removes complete hands.
``tests/round/test_shanten_floor.py`` checks the bound against the exact count on random hands and every hand
of self-played games.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from engine.core.tiles import YAOCHUU_KINDS
from ruledsl.caches import lru

_YAOCHUU_OF = itemgetter(*YAOCHUU_KINDS)


@lru(65536)
def _suit_isolated(nine: bytes) -> int:
    """The isolated tiles of one suit's nine counts (cached: a game meets a few thousand suit shapes)."""
    return sum(1 for n in range(9) if nine[n] == 1 and not any(nine[m] for m in range(max(n - 2, 0), min(n + 3, 9)) if m != n))


def isolated_tiles(counts: Sequence[int]) -> int:
    """The isolated tiles of a hand's 34 kind counts (see the module's docstring)."""
    b = bytes(counts)
    return _suit_isolated(b[0:9]) + _suit_isolated(b[9:18]) + _suit_isolated(b[18:27]) + b[27:34].count(1)


def shanten_floor(counts: Sequence[int], n_melds: int, resting: bool) -> int:
    """A lower bound of ``engine.core.analysis.shanten(counts, n_melds)`` (never above it) of a resting hand (3n+1
    tiles: 0 at least) or of one that has drawn (3n+2 tiles: -1 at least)."""
    isolated = isolated_tiles(counts)
    floor = isolated // 2 if resting else (isolated + 1) // 2 - 1
    if n_melds == 0 and floor > 0:
        held = _YAOCHUU_OF(counts)
        orphans = held.count(0) - (1 if max(held) > 1 else 0)
        if orphans < floor:
            floor = orphans
    return max(floor, 0 if resting else -1)
