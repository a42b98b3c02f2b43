"""The abortive checks' answers recalled by the values of the facts they read (``engine.round.facts.recall`` and
``learn``) are the answers of evaluating every condition: for the checks of every bundled rulebook, and for all of
them in one list (longer paths), over random values of every round fact, a memo that learns each new path from a
full evaluation answers every later assignment as a full evaluation does, with the same steady and seat flags and the
same facts read, also when the values an earlier answer read stand in for the facts no change moved."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.round import facts
from engine.round.facts import FACTS, SEAT_FACTS, STEADY_FACTS, RoundFacts, learn, recall, round_facts
from engine.round.rules import round_rules
from engine.scoring import library
from ruledsl.memo import BoundedCache
from ruledsl.rulebook_files import bundled_names

# the values each fact takes in these tests: a round's own ranges, the rare ends included
DOMAINS: dict[str, tuple[Any, ...]] = {
    "first_go_around": (True, False),
    "any_call": (True, False),
    "riichi_count": (0, 1, 2, 3, 4),
    "kan_count": (0, 1, 2, 3, 4),
    "kan_makers": (0, 1, 2, 3, 4),
    "first_discards_same_wind": (True, False),
    "terminal_kinds": tuple(range(14)),
    "all_discards_yaochuu": (True, False),
    "discards_called": (True, False),
    "made_calls": (True, False),
    "players": (3, 4),
    "honba": (0, 1, 5),
    "riichi_sticks": (0, 1, 4),
}


def _checks() -> list[tuple[str, tuple[Any, ...]]]:
    """Every bundled rulebook's checks of the moments asked with no given fact set, then all of them in one list."""
    found: dict[str, tuple[Any, ...]] = {}
    for name in bundled_names():
        rules = round_rules(library.scorer(name))
        for moment in ("discard_passed", "player_choice"):
            items = rules.abortives_at.get(moment, ())
            if items:
                found[f"{name}:{moment}"] = items
    return [*found.items(), ("all", tuple(pair for items in found.values() for pair in items))]


def _full(items: tuple[Any, ...], env: RoundFacts) -> Any:
    return next((item for item, when in items if when(env)), None)


def test_every_fact_has_a_domain() -> None:
    assert set(DOMAINS) == set(FACTS)


def _fake_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each fact read off the assignment the round stands for (a dict of values)."""
    for name in FACTS:
        monkeypatch.setitem(FACTS, name, lambda r, seat, name=name: r[name])


@pytest.mark.parametrize(("label", "items"), _checks(), ids=lambda value: value if isinstance(value, str) else "")
def test_recalled_answers_are_full_evaluations(label: str, items: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each assignment recalled twice: from nothing known, and knowing the values the previous assignment's answer
    read of the facts that kept their values (a few left out at random, as a change may name a fact it left
    unchanged)."""
    _fake_facts(monkeypatch)
    rng = random.Random(label)
    memo: facts.Decisions = BoundedCache(4096)
    recalled = 0
    before: dict[str, Any] = {}
    last: facts.Answer | None = None
    for _ in range(3000):
        values = {name: rng.choice(domain) for name, domain in DOMAINS.items()}
        env = round_facts(values, 0)  # type: ignore[arg-type]
        expected = _full(items, env)
        read = {name: value for name, value in env.items() if name not in facts.GIVEN}
        flags = (read.keys() <= STEADY_FACTS, not read.keys().isdisjoint(SEAT_FACTS), read)
        if last is not None:  # the facts that kept their values, known; the others computed
            known = {name: value for name, value in last[3].items() if values[name] == before[name] and rng.random() < 0.9}
            again = recall(memo, values, 0, known)  # type: ignore[arg-type]
            assert again is None or again == (expected, *flags), f"{label}: {values} after {before}"
        answer = recall(memo, values, 0)  # type: ignore[arg-type]
        if answer is None:  # learnt from an evaluation of its own, as the round does
            fresh = round_facts(values, 0)  # type: ignore[arg-type]
            answer = learn(memo, fresh, _full(items, fresh))
        else:
            recalled += 1
        assert answer == (expected, *flags), f"{label}: {values}"
        before, last = values, answer
    assert recalled > 2000  # most assignments answered from the memo, not learned


def test_a_memo_emptied_while_learning_still_answers_rightly(monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo too small for one path empties part-way through learning it: what is left stays true."""
    _fake_facts(monkeypatch)
    items = _checks()[-1][1]
    rng = random.Random(3)
    memo: facts.Decisions = BoundedCache(2)
    for _ in range(500):
        values = {name: rng.choice(domain) for name, domain in DOMAINS.items()}
        env = round_facts(values, 0)  # type: ignore[arg-type]
        expected = _full(items, env)
        answer = recall(memo, values, 0)  # type: ignore[arg-type]
        if answer is None:
            answer = learn(memo, env, expected)
        assert answer[0] == expected
