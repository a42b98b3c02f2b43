"""A reading's fu from the per-set items' nonzero shares (``Prepared.fu_share_pairs``, added by
``valuation._with_shares``) is the fu from whole rows: every item's value in its place, each element's row added
(what ``Valuer._valuate`` did before, and ``_per_set_added`` still does for ``_valuate_general``): the same raw fu
and the same (place, value) pairs, in place order, under every bundled rulebook. ``tests/engine/test_kept_lines.py``
holds whole valuations of both paths equal."""

from __future__ import annotations

from operator import add

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scoring.library import scorer
from engine.scoring.prepared import _ANSWERS_ZERO
from engine.scoring.valuation import _per_set_rows, _with_shares
from ruledsl.rulebook_files import bundled_names
from tests.engine.test_fu_sums import _GROUPS


def _by_rows(live: list[int], places: tuple[int, ...], width: int, rows: list[tuple[int, ...]]) -> tuple[int, list[tuple[int, int]]]:
    values = [0] * width
    for place, value in zip(places, live, strict=True):
        values[place] = value
    for row in rows:
        values = list(map(add, values, row))
    return sum(values), [(place, value) for place, value in enumerate(values) if value]


@settings(max_examples=20, deadline=None)  # each example draws for every bundled rulebook
@given(data=st.data())
def test_share_pairs_give_the_fu_of_whole_rows_under_every_bundled_rulebook(data: st.DataObject) -> None:
    for name in bundled_names():
        prepared = scorer(name).prepared
        if prepared.fu_per_element is None:
            continue
        fact, _shares = prepared.fu_per_element
        places = prepared.fu_positions
        # the places of the items not summed per set: those a live value may hold
        live_places = tuple(at for at, fn in enumerate(prepared.fu_values[0]) if fn is not _ANSWERS_ZERO)
        values = data.draw(st.lists(st.integers(-8, 40), min_size=len(live_places), max_size=len(live_places)), label=f"{name} live values")
        elements = tuple(data.draw(st.lists(st.sampled_from(_GROUPS), max_size=5), label=f"{name} elements"))
        env = {fact: elements}
        rows = _per_set_rows(prepared.fu_per_element, env)
        expected = _by_rows(values, live_places, len(places), rows)
        pairs = [pair for pair in zip(live_places, values, strict=True) if pair[1]]
        raw = sum(values)
        share_rows = _per_set_rows(prepared.fu_share_pairs, env)
        if share_rows:
            raw, pairs = _with_shares(raw, pairs, share_rows)
        assert (raw, pairs) == expected, (name, elements, values)
