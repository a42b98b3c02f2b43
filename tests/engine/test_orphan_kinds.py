"""The kinds that complete held counts as the thirteen orphans, told once per held counts (``_orphan_kinds``),
are those whose one more tile makes counts ``is_thirteen_orphans`` accepts, asked candidate by candidate."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.core.decompose import is_thirteen_orphans
from engine.scoring import facts as F


def _asked_one_by_one(held: list[int]) -> frozenset[int]:
    found = set()
    for kind in range(T.KINDS):
        held[kind] += 1
        if is_thirteen_orphans(held):
            found.add(kind)
        held[kind] -= 1
    return frozenset(found)


def _orphans_like() -> st.SearchStrategy[list[int]]:
    """Terminals and honours, one of each but a few left out, a few doubled, and maybe other tiles: counts of
    about thirteen tiles near the thirteen orphans (and some of them exactly one tile short of it)."""
    yaochuu = sorted(T.YAOCHUU_KINDS)

    def build(left_out: list[int], doubled: list[int], others: list[int]) -> list[int]:
        held = [0] * T.KINDS
        for kind in yaochuu:
            held[kind] = 0 if kind in left_out else 1
        for kind in doubled + others:
            held[kind] = min(held[kind] + 1, 4)
        return held

    return st.builds(
        build,
        st.lists(st.sampled_from(yaochuu), max_size=2, unique=True),
        st.lists(st.sampled_from(yaochuu), max_size=2),
        st.lists(st.sampled_from(range(T.KINDS)), max_size=2),
    )


@settings(max_examples=400)
@given(st.one_of(_orphans_like(), st.lists(st.integers(0, 4), min_size=T.KINDS, max_size=T.KINDS)))
def test_orphan_kinds_are_the_kinds_that_make_the_thirteen_orphans(held: list[int]) -> None:
    assert F._orphan_kinds(held, sum(held) + 1) == _asked_one_by_one(held)


def test_every_shape_of_a_thirteen_orphans_wait() -> None:
    yaochuu = sorted(T.YAOCHUU_KINDS)
    thirteen_sided = [1 if kind in T.YAOCHUU_KINDS else 0 for kind in range(T.KINDS)]
    assert F._orphan_kinds(thirteen_sided, 14) == frozenset(yaochuu)
    for missing in yaochuu:
        for doubled in yaochuu:
            if doubled != missing:
                held = list(thirteen_sided)
                held[missing] = 0
                held[doubled] = 2
                assert F._orphan_kinds(held, 14) == frozenset({missing}) == _asked_one_by_one(held)
