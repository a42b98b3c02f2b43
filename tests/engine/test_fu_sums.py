"""Fu items of the shape ``c * count(g in sets: ...)`` are summed in one pass over a reading's sets; the sums are
the items' own values (the conformance suites check whole scores; these check the recognition and the sums)."""

from __future__ import annotations

from engine.core.tiles import parse_tiles
from engine.scoring.facts import PLAIN_GROUPS, RON_GROUPS, meld_group
from engine.scoring.library import rulebook, scorer
from ruledsl.fast import closure, element_counter


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
