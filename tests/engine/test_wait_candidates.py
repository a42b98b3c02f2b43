"""The kinds that can complete a hand, gathered from a table of each kind's neighbours, are the kinds worked out
one by one: every held kind, every number within two of a held one in its suit, and (no melds) every terminal and
honour."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.scoring import facts as F


def _reference(held: list[int], no_melds: bool) -> list[int]:
    near: set[int] = set()
    for kind in range(T.KINDS):
        if held[kind]:
            if kind < 27:
                base = kind - kind % 9
                near.update(range(max(base, kind - 2), min(base + 8, kind + 2) + 1))
            else:
                near.add(kind)
    if no_melds:
        near.update(T.YAOCHUU_KINDS)
    return sorted(near)


def test_each_single_kind_held_has_the_reference_candidates() -> None:
    for kind in range(T.KINDS):
        for count in (1, 4):
            held = [0] * T.KINDS
            held[kind] = count
            for no_melds in (False, True):
                assert F._wait_candidates(list(held), no_melds) == _reference(held, no_melds), (kind, count, no_melds)


def test_no_tiles_held_has_only_the_orphans_without_melds() -> None:
    assert F._wait_candidates([0] * T.KINDS, False) == []
    assert F._wait_candidates([0] * T.KINDS, True) == sorted(T.YAOCHUU_KINDS)


@settings(max_examples=500)
@given(st.lists(st.integers(0, 4), min_size=T.KINDS, max_size=T.KINDS), st.booleans())
def test_any_held_counts_have_the_reference_candidates(held: list[int], no_melds: bool) -> None:
    assert F._wait_candidates(list(held), no_melds) == _reference(held, no_melds)
