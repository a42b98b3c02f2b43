"""A reading's check "does any yakuman hold?" is one function per situation's yakuman (``Prepared.yakuman_any``:
their disjunction, like conditions tested together by ``ruledsl.fast``): it must answer what asking each condition
in turn answers, under every bundled rulebook, on every reading of generated hands (which hold yakuman often)."""

from __future__ import annotations

from itertools import repeat
from operator import call

import pytest

from engine.core.errors import EngineError
from engine.scoring import facts as F
from engine.scoring.library import scorer
from engine.scoring.score import plain_request, situation_of
from ruledsl.rulebook_files import bundled_names
from tests.peer_oracle import random_requests


def _readings(name: str, count: int) -> list[tuple[object, dict]]:
    """(tables, reading's facts) of the readings of ``count`` generated requests scored under a rulebook."""
    s = scorer(name)
    prepared = s.prepared
    found = []
    for request in random_requests(24, count):
        q = plain_request(request)
        try:
            hand = s.build_hand(q)
            situation = situation_of(q)
        except EngineError:
            continue
        templates = F.READING_FACTS[F.reading_key(hand.counts, hand.win_kind, not situation.tsumo)]
        if not templates:
            continue
        facts = F.HandFacts(hand, situation, (), (), prepared.successors, prepared.players, None, prepared.hand_ahead)
        tables = prepared.tables(facts)
        for env in F.reading_tables(facts, templates, prepared.reading_ahead):
            found.append((tables, env))
    return found


@pytest.mark.parametrize("name", bundled_names())
def test_the_yakuman_check_in_one_function_answers_each_condition_asked_in_turn(name: str) -> None:
    held = 0
    for tables, env in _readings(name, 120):
        expected = any(map(call, tables.yakuman_whens, repeat(env)))
        assert tables.yakuman_any(env) is expected, (name, env.get("tiles"))
        held += expected
    assert held, f"{name}: no reading held a yakuman"
