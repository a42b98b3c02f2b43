"""A reading valued from the result lines kept ahead (``Valuer._valuate``'s common path) is the reading valued with
every line built where its item holds (``Valuer._valuate_general``), under every bundled rulebook, and the lines a
response hands out are its own (changing one changes no later answer)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import EngineError
from engine.scoring.library import scorer
from engine.scoring.score import Scorer
from engine.scoring.valuation import Valuation, Valuer
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.rulebook_files import bundled_names
from tests.peer_oracle import random_requests


def _fields(valuation: Valuation | None) -> tuple[Any, ...] | None:
    if valuation is None:
        return None
    return (
        valuation.yakuman, valuation.han, valuation.fu, valuation.limit, getattr(valuation.limit, "rule_id", None),
        valuation.base, valuation.yaku, valuation.fu_items, valuation.payments, valuation.paid, valuation.shape,
        valuation.sort_key,
    )  # fmt: skip


def _outcome(valuate: Any, *args: Any) -> Any:
    try:
        return _fields(valuate(*args))
    except RuleEvaluationError as exc:
        return ("raised", str(exc))


class _BothWays(Valuer):
    """Values every reading both ways, general first (each writes every fact it reads back before reading it); a
    reading whose yaku conditions' results come from another reading with the same groups (``_holds_again``) has
    them asked again, every one, and valued with those too."""

    compared = 0
    kept = 0
    reused = 0

    def _valuate(self, env: dict[str, Any], standalone: Any, tables: Any, need: int = 1, holds: list[bool] | None = None) -> Valuation | None:
        general = _outcome(super()._valuate_general, env, standalone, tables, need)
        kept = _outcome(super()._valuate, env, standalone, tables, need)
        assert kept == general
        if holds is not None:
            assert holds == super()._holds(env, tables)
            assert _outcome(super()._valuate, env, standalone, tables, need, holds) == general
            _BothWays.reused += 1
        _BothWays.compared += 1
        _BothWays.kept += standalone is None and tables.kept is not None
        return super()._valuate(env, standalone, tables, need, holds)


def _both_ways(name: str) -> Scorer:
    fresh = Scorer(scorer(name).rulebook)
    fresh.valuer = _BothWays(fresh.prepared, fresh.payment_rules.payments_kept)
    fresh._best = fresh.valuer.best_valuation
    return fresh


@pytest.mark.parametrize("name", bundled_names())
def test_kept_lines_value_every_reading_as_lines_built_one_by_one(name: str) -> None:
    s = _both_ways(name)
    before = _BothWays.compared
    for request in random_requests(11, 150):
        request = {**request, "rulebook": name}
        try:
            s.score(request)
        except EngineError:
            pass
    assert _BothWays.compared - before > 20  # a three-player tile set refuses most of these hands


def test_the_common_path_is_the_one_taken_under_house() -> None:
    _BothWays.compared = _BothWays.kept = _BothWays.reused = 0
    s = _both_ways("house")
    for request in random_requests(12, 200):
        s.score_json(request)
    assert _BothWays.kept > 0.8 * _BothWays.compared
    assert _BothWays.reused > 5  # hands with several readings of the same groups: the wait told apart


def test_readings_with_the_same_groups_reuse_every_yaku_condition_but_those_reading_the_wait() -> None:
    s = scorer("house")
    assert s.score({"hand": "123m456p789s23455s", "win": "2s", "riichi": True})["ok"]  # 2s: ryanmen, or 234s's 2
    found = [t for t in s.prepared.tables_cache.values() if t.again is not None]
    assert found
    for tables in found:
        ask_yakuman, redo = tables.again
        names = [entry[3] for entry in tables.yaku[0]]
        assert {names[at] for at, _when in redo} == {"pinfu"} & set(names)  # house: only pinfu reads the wait
        assert not ask_yakuman


def test_a_response_line_changed_by_its_caller_changes_no_later_answer() -> None:
    s = scorer("house")
    request = {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True}
    first = s.score(request)
    expected = s.score(request)
    for line in (*first["yaku"], *first["fu_items"]):
        line["id"] = "changed"
        line.pop("clause", None)
    first["yaku"].clear()
    assert s.score(request) == expected
    assert all(line["id"] != "changed" for line in expected["yaku"])
