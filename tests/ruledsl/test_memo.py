"""One cache registry: every memo (the engine's and the rule closures') is in it while alive, none after, and
``clear_all`` empties them all."""

from __future__ import annotations

import gc

import pytest

from engine.scoring.score import Scorer
from ruledsl.compile import load
from ruledsl.memo import REGISTRY, BoundedCache, Memo, clear_all, live_caches


def test_building_20_scorers_does_not_grow_the_registry() -> None:
    rulebook = load("house")
    kept = Scorer(rulebook)  # one scorer alive: its caches are registered
    gc.collect()
    with_one = live_caches()
    for _ in range(20):
        Scorer(rulebook).score_json({"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S"})
    gc.collect()
    assert live_caches() == with_one  # before this registry: 13 memos grew by one per scorer built
    del kept
    gc.collect()
    assert live_caches() < with_one  # the scorer's own memos (its rule loops) left with it


def test_clear_all_reaches_the_memos_of_rule_loops() -> None:
    scorer = Scorer(load("house"))
    scorer.score_json({"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S"})
    filled = [cache for cache in REGISTRY.values() if len(cache)]
    assert any(type(cache).__module__ == "ruledsl.memo" and cache.limit == 4096 for cache in filled)
    live = list(REGISTRY.values())
    assert any(cache is scorer.inputs.situations for cache in live) and any(cache is scorer.prepared.tables_cache for cache in live)
    clear_all()
    assert all(len(cache) == 0 for cache in REGISTRY.values())
    again = scorer.score_json({"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S"})
    assert again["ok"] and again["han"] == 1  # emptied memos refill: the same answer


def test_a_memo_is_bounded() -> None:
    calls = []
    memo = Memo(lambda key: calls.append(key) or key * 2, 3)
    assert [memo[k] for k in (1, 2, 3, 1)] == [2, 4, 6, 2]
    assert calls == [1, 2, 3]
    assert memo[4] == 8 and len(memo) == 1  # full: emptied, then the new value kept
    cache = BoundedCache(2)
    for k in range(5):
        cache.put(k, k)
    assert len(cache) <= 2
    with pytest.raises(ValueError):
        BoundedCache(0)


def test_put_keeps_the_value_given_as_a_dict_store_does() -> None:
    """``put`` stores by ``setdefault``: a key put again holds the new value, as ``dict[key] = value`` would, whether
    the old value is equal, identical or different; a full cache is emptied only for a key it lacks."""
    cache: BoundedCache[str, object] = BoundedCache(2)
    plain: dict[str, object] = {}
    first, equal, other = [1], [1], [2]
    for key, value in (("a", first), ("a", equal), ("a", first), ("b", other), ("a", other), ("b", None), ("b", None)):
        assert cache.put(key, value) is value
        plain[key] = value
        assert dict(cache) == plain and all(cache[k] is plain[k] for k in plain)
    cache.put("c", 3)  # full and new: emptied first
    assert dict(cache) == {"c": 3}
    cache.put("c", 4)
    assert dict(cache) == {"c": 4}
