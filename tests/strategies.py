"""Hypothesis strategies for tiles and hands, shared by every test package.

Hands are drawn from the real 136-tile set (one red five per suit, four copies of each kind), so a generated
hand is always one that can occur at a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import assume
from hypothesis import strategies as st

from engine.core.decompose import PAIR, SEQ, TRIP, Group
from engine.core.tiles import KINDS, RED_BASE, RED_FIVE_KINDS, format_tiles, kind_of

WALL_SIZE = 136
SEQ_STARTS = tuple(suit * 9 + n for suit in range(3) for n in range(7))


def code_of_index(index: int) -> int:
    """Tile 0..135 to its code: index // 4 is the kind, and copy 0 of each five is the red one."""
    kind = index // 4
    if index % 4 == 0 and kind in RED_FIVE_KINDS:
        return RED_BASE + RED_FIVE_KINDS.index(kind)
    return kind


def counts_of(codes: list[int]) -> tuple[int, ...]:
    counts = [0] * KINDS
    for code in codes:
        counts[kind_of(code)] += 1
    return tuple(counts)


def hands(sizes: tuple[int, ...] = (13, 14)) -> st.SearchStrategy[list[int]]:
    """Tile codes of a random hand: distinct tiles of the 136, as dealt."""
    return st.sampled_from(sizes).flatmap(
        lambda n: st.lists(st.integers(0, WALL_SIZE - 1), min_size=n, max_size=n, unique=True).map(
            lambda indices: [code_of_index(i) for i in indices]
        )
    )


def hand_counts(sizes: tuple[int, ...] = (13, 14)) -> st.SearchStrategy[tuple[int, ...]]:
    return hands(sizes).map(counts_of)


def sets() -> st.SearchStrategy[Group]:
    return st.one_of(
        st.sampled_from(SEQ_STARTS).map(lambda kind: (SEQ, kind)),
        st.integers(0, KINDS - 1).map(lambda kind: (TRIP, kind)),
    )


def group_kinds(group: Group) -> list[int]:
    shape, kind = group
    if shape == SEQ:
        return [kind, kind + 1, kind + 2]
    return [kind] * {TRIP: 3, PAIR: 2}.get(shape, 1)


@dataclass(frozen=True)
class Complete:
    """A complete concealed part built from known groups, with the counts it adds up to."""

    groups: tuple[Group, ...]
    counts: tuple[int, ...]


@st.composite
def complete_hands(draw: st.DrawFn, n_sets: int | None = None) -> Complete:
    """A complete 3n+2 concealed part: random sets and a pair, never more than four copies of a kind."""
    count = draw(st.integers(0, 4)) if n_sets is None else n_sets
    groups = draw(st.lists(sets(), min_size=count, max_size=count))
    groups.append((PAIR, draw(st.integers(0, KINDS - 1))))
    counts = [0] * KINDS
    for group in groups:
        for kind in group_kinds(group):
            counts[kind] += 1
    assume(max(counts) <= 4)
    return Complete(tuple(sorted(groups)), tuple(counts))


@dataclass(frozen=True)
class MeldedHand:
    """Notation for ``build_hand``: concealed tiles, melds as (type, tiles) and the winning tile."""

    concealed: str
    melds: tuple[tuple[str, str], ...]
    win: str


@st.composite
def hands_with_melds(draw: st.DrawFn) -> MeldedHand:
    """A complete 14-tile hand (kans counted as three) with zero to four of its sets called or declared."""
    complete = draw(complete_hands(n_sets=4))
    counts = list(complete.counts)
    sets_ = [g for g in complete.groups if g[0] != PAIR]
    n_melds = draw(st.integers(0, 4))
    melds = []
    for shape, kind in sets_[:n_melds]:
        if shape == SEQ:
            melds.append(("chi", format_tiles([kind, kind + 1, kind + 2])))
            counts[kind] -= 1
            counts[kind + 1] -= 1
            counts[kind + 2] -= 1
            continue
        counts[kind] -= 3
        kinds = ["pon"]
        if complete.counts[kind] == 3:  # a kan needs the fourth copy, which no other group may hold
            kinds += ["daiminkan", "kakan", "ankan"]
        meld_type = draw(st.sampled_from(kinds))
        melds.append((meld_type, format_tiles([kind] * (4 if meld_type != "pon" else 3))))
    concealed = [kind for kind in range(KINDS) for _ in range(counts[kind])]
    win = draw(st.sampled_from(concealed))
    return MeldedHand(format_tiles(concealed), tuple(melds), format_tiles([win]))
