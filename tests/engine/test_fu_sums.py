"""Fu items of the shape ``c * count(g in sets: ...)`` are summed in one pass over a reading's sets; the sums are
the items' own values (the conformance suites check whole scores; these check the recognition and the sums)."""

from __future__ import annotations

from operator import add

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.tiles import parse_tiles
from engine.scoring.facts import PLAIN_GROUPS, RON_GROUPS, meld_group
from engine.scoring.library import rulebook, scorer
from ruledsl.fast import closure, element_counter
from ruledsl.rulebook_files import bundled_names


def test_the_per_set_fu_items_of_house_are_recognised_and_the_others_not():
    recognised = {}
    for rule in rulebook("house").of("fu"):
        if "fu" in rule.fields:
            found = element_counter(rule.fields["fu"])
            recognised[rule.name] = None if found is None else found[:2]
    assert recognised["open_triplet_simple"] == ("sets", 2)
    assert recognised["closed_kan_yaochuu"] == ("sets", 32)
    assert recognised["base"] is None and recognised["value_pair"] is None and recognised["wait"] is None
    assert sum(v is not None for v in recognised.values()) == 8


def test_summed_shares_equal_each_item_evaluated_alone():
    groups = list(PLAIN_GROUPS.values()) + list(RON_GROUPS.values())
    groups += [meld_group(kind, tuple(parse_tiles(tiles))) for kind, tiles in (("pon", "555z"), ("daiminkan", "2222m"), ("ankan", "9999p"), ("chi", "345s"))]
    items = [r for r in rulebook("house").of("fu") if "fu" in r.fields and element_counter(r.fields["fu"])]
    for group in groups:
        for rule in items:
            _fact, coefficient, counts = element_counter(rule.fields["fu"])
            assert coefficient * counts(group) == closure(rule.fields["fu"])({"sets": (group,)}), (rule.name, group)


def test_a_scorer_sums_them_per_element_in_every_situation():
    s = scorer("house")
    s.score({"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True})
    s.score({"hand": "222m567m789p55s", "win": "5s", "melds": [{"type": "pon", "tiles": "777z"}], "tsumo": True})
    assert s.prepared.tables_cache and all(t.fu_per_element is s.prepared.fu_per_element for t in s.prepared.tables_cache.values())
    assert s.prepared.fu_per_element[0] == "sets"


_GROUPS = list(PLAIN_GROUPS.values()) + list(RON_GROUPS.values()) + [
    meld_group(kind, tuple(parse_tiles(tiles)))
    for kind, tiles in (("pon", "555z"), ("pon", "222m"), ("daiminkan", "2222m"), ("ankan", "9999p"), ("ankan", "1111z"), ("chi", "345s"))
]


def _item_shares(rules: tuple, fact: str, element: object) -> list[int]:
    """Each item's own share of one element: ``c * count`` for the items summed over ``fact``, 0 for the others."""
    row = []
    for rule in rules:
        found = rule.fu_counter
        row.append(found[1] * found[2](element) if found is not None and found[0] == fact else 0)
    return row


@settings(max_examples=15, deadline=None)  # each example draws for every bundled rulebook: 15 x 21 cases
@given(data=st.data())
def test_rows_of_nonzero_shares_added_one_by_one_are_the_column_sums_under_every_bundled_rulebook(data: st.DataObject) -> None:
    """``Valuer._fu`` adds only the rows of elements with a share (the others' rows are empty): the same values as
    summing every element's full row per item, and an empty row exactly where every share is zero."""
    for name in bundled_names():
        per_element = scorer(name).prepared.fu_per_element
        if per_element is None:
            continue
        fact, shares = per_element
        rules = scorer(name).prepared.fu_rules
        width = len(rules)
        elements = data.draw(st.lists(st.sampled_from(_GROUPS), max_size=5), label=f"{name} elements")
        values = data.draw(st.lists(st.integers(0, 1000), min_size=width, max_size=width), label=f"{name} values")
        full = [_item_shares(rules, fact, e) for e in elements]
        for element, row, own in zip(elements, map(shares.fn, elements), full, strict=True):
            assert list(row) == own if any(own) else row == (), (name, element)
        expected = list(map(sum, zip(values, *full, strict=True)))
        found = list(values)
        for row in filter(None, map(shares.__getitem__, elements)):
            found = list(map(add, found, row))
        assert found == expected, (name, fact, elements)
