"""A lower bound of a hand's shanten from its isolated and loose tiles, a few C-level calls instead of a shanten count.

The round rests every hand after every discard and needs its waits only when it is tenpai; a random or weak
player's hand nearly never is. A count of ``engine.core.analysis.shanten`` is exact but costs tens of microseconds
when its tables are not cached (a fresh hand: every deal, every call); this bound costs a look-up per suit (each
suit counted once, the first time it is met, by some twenty operations on one small integer, its key) and three additions, and
it settles most hands (``Seat.rest``, ``legal.reach_bar``): when it is 1 or more the hand is not tenpai and has no
waits, and the exact count is not needed.

How it is counted. The bound is a sum over the suits: a tile's neighbours are in its own suit, so each suit's nine
counts (an honour's seven) decide its isolated tiles, its loose tiles, its pairs and its held terminals alone.
Each suit's share is looked up by the suit's key (its counts as the octal digits of an integer, which a seat keeps
as its tiles come and go: ``Seat.suit_keys``) in a table filled as suits are met (a few thousand distinct suits in
a whole replay; bounded, ``SHARES_BOUND``) and packed into one integer, a byte per quantity, so that the shares
of the four suits add up by three integer additions; the rest is a few shifts and comparisons. The isolated- and
loose-tile counts are the very sums of ``tests/round/test_shanten_floor.py``'s kind-by-kind count, which holds
the two equal.

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

from collections.abc import Sequence
from operator import mul

from engine.core.analysis import KeyedMemo
from ruledsl.caches import register

# the byte of each quantity in a suit's share (and in the sum of the four shares: none passes 14 in a hand)
_LOOSE = 8
_PAIRS = 16
_TERMINALS = 24  # the terminal and honour kinds held
_TERMINAL_PAIR = 32  # the terminal and honour kinds held twice or more

# A suit's counts are read from its key (below: three bits a count, number n of the suit its digit n) in place, as
# bit masks of one bit a number (the digit's low bit): bit 0, 1 and 2 of each count apart, each kept at its digit's
# low bit. A count of 0 to 7 is then held when any of its three bits is set, twice or more (a pair) when bit 1 or 2
# is, once only when bit 0 alone is, three times or more (a triplet) when bit 2 is or bits 0 and 1 both are.
_ONES = int("1" * 9, 8)  # the low bit of each of the nine digits of a number suit
_HONOUR_ONES = int("1" * 7, 8)  # of the seven of the honours


def _honour_share(key: int) -> int:
    """The honours' share, from their key: they have no neighbours and no runs, so a kind held once is isolated
    and loose, one held twice loose and a pair; every honour is a terminal kind."""
    b0 = key & _HONOUR_ONES
    b1 = key >> 1 & _HONOUR_ONES
    b2 = key >> 2 & _HONOUR_ONES
    paired = b1 | b2
    ones = (b0 & ~paired).bit_count()
    twos = (b1 & ~(b0 | b2)).bit_count()
    pairs = paired.bit_count()
    return ones | (ones + 2 * twos) << _LOOSE | pairs << _PAIRS | (b0 | paired).bit_count() << _TERMINALS | pairs << _TERMINAL_PAIR


# A suit's key: its counts as the octal digits of an integer (number n of the suit, or honour n: digit n, the
# lowest first), so that a tile in or out of a hand adds or takes its kind's place value: a seat keeps its four keys
# (``Seat.suit_keys``) as its tiles come and go, and its floor is four look-ups (``floor_of``) with no key to build.
# Three bits a count keep every key below 2**27: one machine digit, so the additions and the hashing stay cheap.
SUIT_OF = tuple(kind // 9 for kind in range(34))  # the four suits: three of numbers, the honours last
PLACE = tuple(1 << 3 * (kind % 9) for kind in range(34))  # an honour's place: 27 % 9 == 0, so east is digit 0
# the most shares either table holds before it starts over: a whole replay of the vendored logs meets a few thousand
# suits, a self-play run of thousands of games a few hundred thousand (each counted again from its key after a start-over)
SHARES_BOUND = 1 << 16


class _NumberShares(dict[int, int]):
    """The number suits' shares by key, each counted on first sight from the key alone: isolated tiles, loose
    tiles, pairs, terminal kinds held, and those held twice, each in its byte. Every step is an operation on one
    small integer (27 bits), the neighbours of a number one and two digits away a shift by three and six bits; the
    count is written in the miss itself, so a suit not seen before (thousands in a replay's first pass) costs one
    Python call. Emptied when it reaches ``SHARES_BOUND``, as a ``KeyedMemo``. ``tests/round/test_shanten_floor.py``
    compares it with the share counted number by number."""

    __slots__ = ()

    def __missing__(self, key: int) -> int:
        if len(self) >= SHARES_BOUND:
            self.clear()
        ones = _ONES
        b0 = key & ones
        b1 = key >> 1 & ones
        b2 = key >> 2 & ones
        paired = b1 | b2
        held = b0 | paired
        # a number held once is isolated when no number one or two away is held (a shift past the suit's nine
        # digits leaves the mask; one below its first drops off)
        spread = held | held << 3
        isolated = (b0 & ~(paired | spread << 3 | spread >> 6)).bit_count()
        # the tiles outside complete sets: the counts of the numbers in no triplet and no run whose three numbers
        # are held, added up bit by bit (a number in no triplet holds two copies at most: bit 2 is never set there)
        starts = held & held >> 3 & held >> 6
        outside = ~(starts | starts << 3 | starts << 6 | b2 | b0 & b1)
        share = self[key] = (
            isolated
            | ((b0 & outside).bit_count() + 2 * (b1 & outside).bit_count()) << _LOOSE
            | paired.bit_count() << _PAIRS
            | _END_FIELDS[key & 7 | key >> 21 & 56]  # digit 0's count, and digit 8's three places up
        )
        return share


# the terminal fields of a number suit's share (its numbers 1 and 9 held, and held twice or more), by the counts of
# the two (number 1's in the low three bits, number 9's in the next three): one subscript in ``_NumberShares``'s
# miss where masks and two ``bit_count`` calls were some 1,300 of its 12,000 instructions
_END_FIELDS = tuple(
    ((one > 0) + (nine > 0)) << _TERMINALS | ((one > 1) + (nine > 1)) << _TERMINAL_PAIR for nine in range(8) for one in range(8)
)


_SHARES = _NumberShares()  # the three number suits
_HONOUR_SHARES: KeyedMemo[int, int] = KeyedMemo("engine.round.shanten_floor.honour_shares", _honour_share, SHARES_BOUND)
register("engine.round.shanten_floor.shares", _SHARES.clear, _SHARES.__len__, SHARES_BOUND)


def suit_keys(counts: Sequence[int]) -> list[int]:
    """The four suit keys of a hand's 34 kind counts (what ``Seat.suit_keys`` keeps as the hand changes)."""
    places = PLACE[:9]  # map stops at the shorter: the honours' seven take the first seven
    return [sum(map(mul, counts[:9], places)), sum(map(mul, counts[9:18], places)), sum(map(mul, counts[18:27], places)), sum(map(mul, counts[27:], places))]


def _sum_of_shares(keys: Sequence[int]) -> int:
    """The four suits' shares added up: every quantity of the hand in its byte."""
    shares = _SHARES
    return shares[keys[0]] + shares[keys[1]] + shares[keys[2]] + _HONOUR_SHARES[keys[3]]


def isolated_tiles(counts: Sequence[int]) -> int:
    """The isolated tiles of a hand's 34 kind counts (see the module's docstring)."""
    return _sum_of_shares(suit_keys(counts)) & 255


def shanten_floor(counts: Sequence[int], n_melds: int, resting: bool) -> int:
    """A lower bound of ``engine.core.analysis.shanten(counts, n_melds)`` (never above it) of a resting hand (3n+1
    tiles: 0 at least) or of one that has drawn (3n+2 tiles: -1 at least)."""
    return floor_of(suit_keys(counts), n_melds, resting)


def floor_of(keys: Sequence[int], n_melds: int, resting: bool) -> int:
    """``shanten_floor`` of the hand of these four suit keys (``suit_keys``; a seat keeps its own)."""
    shares = _SHARES  # ``_sum_of_shares``, without its call: most discards ask this
    total = shares[keys[0]] + shares[keys[1]] + shares[keys[2]] + _HONOUR_SHARES[keys[3]]
    isolated = total & 255
    floor = isolated // 2 if resting else (isolated + 1) // 2 - 1
    if floor < 1 and n_melds < 4:
        # the tiles outside complete sets: of the kinds in no triplet and no run whose three kinds are held
        if (total >> _LOOSE & 255) >= (5 if resting else 6) and (n_melds or (total >> _PAIRS & 255) < 6):
            floor = 1
    if n_melds == 0 and floor > 0:
        # thirteen orphans: the terminal and honour kinds not held, less one when one of them is held twice
        orphans = 13 - (total >> _TERMINALS & 255) - (1 if total >> _TERMINAL_PAIR else 0)
        if orphans < floor:
            floor = orphans
    least = 0 if resting else -1
    return floor if floor > least else least
