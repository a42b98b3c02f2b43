"""A lower bound of a hand's shanten from its isolated and loose tiles, a few C-level calls instead of a shanten count.

The round rests every hand after every discard and needs its waits only when it is tenpai; a random or weak
player's hand nearly never is. A count of ``engine.core.analysis.shanten`` is exact but costs tens of microseconds
when its tables are not cached (a fresh hand: every deal, every call); this bound costs a few C-level calls and
integer operations, with no cache to miss, and settles most hands (``Seat.rest``, ``legal.reach_bar``): when it is
1 or more the hand is not tenpai and has no waits, and the exact count is not needed.

How it is counted. The hand's counts become one big integer with a byte per kind (``bytes.translate`` maps each
count to two flags, "held" and "exactly one copy"); a kind's neighbours within two numbers of its suit are the held
flags shifted by one and two bytes each way, masked so that no shift crosses from one suit into the next or into
the honours; the isolated tiles are the single copies with no held neighbour, counted by ``int.bit_count``.

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

A second bound, asked when the first is below 1, counts the *loose* tiles: those of the kinds that are in no
triplet (three copies or more) and in no run whose three kinds are all held. A resting hand that is tenpai
completes with one tile into its sets and pair, and at most one of those sets holds that tile, so all its sets but
one are complete in the hand already: of its concealed tiles (13, 10, 7 or 4 with one to three melds) at most four
are outside them, and only tiles of triplet or run kinds are inside them. A hand that has drawn and can leave a
tenpai hand by one discard has at most one tile more outside. So five loose tiles in a resting hand, or six in a
hand that has drawn, mean shanten 1 at least, unless the hand holds six pairs or more (seven pairs: no sets) or
is closer to thirteen orphans (its own count, as above). In random play it settles most of the hands the isolated
tiles leave open: a hand two or three tiles from tenpai with no lone tile, held in pairs and partial runs.
``tests/round/test_shanten_floor.py`` checks the bound against the exact count on random hands and every hand
of self-played games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core.tiles import KINDS, YAOCHUU_KINDS


def _byte_mask(kinds: Iterable[int]) -> int:
    """One bit per kind, the low bit of the kind's byte (kind k: bit 8k), as ``_flags`` lays a hand out."""
    return sum(1 << (8 * k) for k in kinds)


# each count (0 to 4) read as four flags: bit 0 "held", bit 1 "exactly one copy", bit 2 "three copies or more"
# (a triplet), bit 3 "two copies or more" (a pair)
_FLAGS = bytes([0, 0b0011, 0b1001, 0b1101, 0b1101] + [0b1101] * 251)
_LOW = _byte_mask(range(KINDS))
# the number kinds with a neighbour one (two) numbers up, or down, in their suit: a held tile there makes that
# neighbour's single copy not isolated (honours have no neighbours)
_UP1 = _byte_mask(k for k in range(27) if k % 9 <= 7)
_UP2 = _byte_mask(k for k in range(27) if k % 9 <= 6)
_DOWN1 = _byte_mask(k for k in range(27) if k % 9 >= 1)
_DOWN2 = _byte_mask(k for k in range(27) if k % 9 >= 2)
_YAOCHUU = _byte_mask(YAOCHUU_KINDS)
_TOP_BYTE = 8 * (KINDS - 1)  # where a product with ``_LOW`` adds up every byte of a hand's counts


def _flags(counts: Sequence[int]) -> tuple[int, int, int]:
    """(held, single, isolated): the kinds held, those held once, those held once with no held neighbour."""
    flags = int.from_bytes(bytearray(counts).translate(_FLAGS), "little")
    held = flags & _LOW
    single = (flags >> 1) & _LOW
    near = (held & _UP1) << 8 | (held & _UP2) << 16 | (held & _DOWN1) >> 8 | (held & _DOWN2) >> 16
    return held, single, single & ~near


def isolated_tiles(counts: Sequence[int]) -> int:
    """The isolated tiles of a hand's 34 kind counts (see the module's docstring)."""
    return _flags(counts)[2].bit_count()


def shanten_floor(counts: Sequence[int], n_melds: int, resting: bool) -> int:
    """A lower bound of ``engine.core.analysis.shanten(counts, n_melds)`` (never above it) of a resting hand (3n+1
    tiles: 0 at least) or of one that has drawn (3n+2 tiles: -1 at least)."""
    # ``_flags``, written in place: asked at most rests (the counts as bytes made once, for both bounds; a
    # ``bytearray`` of a list of 34 counts is made in about two thirds of the instructions of ``bytes``)
    raw = bytearray(counts)
    flags = int.from_bytes(raw.translate(_FLAGS), "little")
    held = flags & _LOW
    single = (flags >> 1) & _LOW
    near = (held & _UP1) << 8 | (held & _UP2) << 16 | (held & _DOWN1) >> 8 | (held & _DOWN2) >> 16
    isolated = (single & ~near).bit_count()
    floor = isolated // 2 if resting else (isolated + 1) // 2 - 1
    if floor < 1 and n_melds < 4:
        # the tiles outside complete sets: of the kinds in no triplet and no run whose three kinds are held
        starts = held & (held >> 8) & (held >> 16) & _UP2
        covered = starts | starts << 8 | starts << 16 | (flags >> 2) & _LOW
        # the loose kinds' counts added up in the top byte by one product (no byte of a partial sum passes 14)
        loose = ((int.from_bytes(raw, "little") & ~(covered * 255)) * _LOW) >> _TOP_BYTE & 255
        if loose >= (5 if resting else 6) and (n_melds or ((flags >> 3) & _LOW).bit_count() < 6):
            floor = 1
    if n_melds == 0 and floor > 0:
        # thirteen orphans: the terminal and honour kinds not held, less one when one of them is held twice
        orphans = 13 - (held & _YAOCHUU).bit_count() - (1 if held & ~single & _YAOCHUU else 0)
        if orphans < floor:
            floor = orphans
    least = 0 if resting else -1
    return floor if floor > least else least
