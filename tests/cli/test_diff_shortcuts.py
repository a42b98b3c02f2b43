"""`riichi diff`'s shortcuts give the answer of the full computation.

The witness search scores a pooled hand (an example or a random hand) only when the order of simplicity reaches it (``ranked``): each test here
runs the search both ways on pairs of bundled rulebooks (and rulebooks whose witnesses come from random or steered
hands) and asks for the same hands in the same order, the same witnesses and the same report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.diff.change_scenarios import REFUSED, unread_by_rounds, with_change
from engine.diff.change_witnesses import (
    ByRequest,
    _order,
    diff_with_witnesses,
    flow_scenario,
    involved_test,
    isolated,
    pick,
    pick_witness,
    ranked,
)
from engine.diff.shadowing import Budget
from engine.diff.witness import Candidate, Search, fitted, outcome
from engine.round.rules import ROUND_RULE_FIELDS
from engine.round.witness import READ_BY_NAME
from engine.scoring.library import scorer
from engine.scoring.prepared import _ANSWERS_ZERO, prepare
from engine.scoring.score import Scorer
from ruledsl.compile import compile_rulebook
from ruledsl.rulebook_changes import SCORING_SETTINGS, diff

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[2] / "rulebooks" / "examples"

# (A, B, random hands): bundled pairs, and variants whose witnesses are random or steered hands
PAIRS = [
    ("house", "wrc2025", 600),
    ("house", "sanma", 600),
    ("wrc2025", "mahjchina", 400),
    ("house", str(FIXTURES / "several_changes.rulebook"), 800),
    ("house", str(FIXTURES / "rare_rules.rulebook"), 300),
    ("house", str(EXAMPLES / "atozuke_nashi.rulebook"), 800),
]


def _ids(pair: tuple[str, str, int]) -> str:
    return f"{Path(pair[0]).stem}-{Path(pair[1]).stem}"


def _first_fast(pairs: list[tuple[str, ...]]) -> list[object]:
    """The first pair in the default run, the others behind the ``slow`` marker (each costs seconds of scoring)."""
    return [pairs[0], *(pytest.param(p, marks=pytest.mark.slow) for p in pairs[1:])]


@pytest.mark.parametrize("pair", PAIRS, ids=_ids)
def test_ranked_yields_the_pool_in_the_order_pick_sorts_it(pair: tuple[str, str, int]) -> None:
    """Read to the end, ``ranked`` (scoring random hands as it reaches them) is ``pick``'s sorted order of the
    whole pool scored at once, hand for hand."""
    a, b = scorer(pair[0]), scorer(pair[1])
    lazy, full = Search(a, b, random_hands=pair[2]), Search(a, b, random_hands=pair[2])
    pool = full.pool
    assert lazy.searched == full.searched == len(pool)
    for change in (c for c in diff(a.rulebook.resolved, b.rulebook.resolved) if c.affects_score):
        involved = involved_test(change, a, b)
        expected = [c.request for c in _sorted(pool, change, involved)]
        assert [c.request for c in ranked(lazy, change, involved)] == expected, change.item


def _sorted(pool: list[Candidate], change, involved) -> list[Candidate]:
    return sorted((c for c in pool if c.differs and involved(c.request, c.a, c.b)), key=_order(change))


@pytest.mark.parametrize("pair", PAIRS, ids=_ids)
def test_each_change_gets_the_witness_of_the_full_search(pair: tuple[str, str, int]) -> None:
    a, b = scorer(pair[0]), scorer(pair[1])
    lazy, full = Search(a, b, random_hands=pair[2]), Search(a, b, random_hands=pair[2])
    for change in (c for c in diff(a.rulebook.resolved, b.rulebook.resolved) if c.affects_score):
        plus, minus = isolated(a, b, change)
        involved = involved_test(change, a, b)
        quick = pick_witness(lazy, change, plus, minus, involved)
        whole = pick(full.pool, change, plus, minus, involved)
        assert pick_witness(full, change, plus, minus, involved, lazy=False) == whole
        assert (quick is None) == (whole is None), change.item
        if quick is not None and whole is not None:
            assert quick[0].request == whole[0].request and quick[1] == whole[1], change.item


@pytest.mark.parametrize("pair", [PAIRS[0], PAIRS[3], *(pytest.param(p, marks=pytest.mark.slow) for p in (PAIRS[1], PAIRS[2]))], ids=_ids)
def test_the_report_is_the_full_computations(pair: tuple[str, str, int]) -> None:
    a, b = scorer(pair[0]), scorer(pair[1])
    quick = diff_with_witnesses(a, b, random_hands=pair[2]).to_json()
    assert quick == diff_with_witnesses(a, b, random_hands=pair[2], lazy=False).to_json()


def test_a_hand_only_test_sets_random_hands_aside_unscored() -> None:
    """A red-five change is blamed only on hands holding a red five one side lacks: the search never scores a
    random hand without one, and the house and sanma rulebooks' own examples settle it before any random hand."""
    a, b = scorer("house"), scorer("sanma")
    search = Search(a, b, random_hands=300)
    [change] = [c for c in diff(a.rulebook.resolved, b.rulebook.resolved) if c.name == "red_fives"]
    involved = involved_test(change, a, b)
    assert isinstance(involved, ByRequest)
    unscored = sum(1 for e in search.entries if not isinstance(e, Candidate) and e.origin == "random")
    assert unscored == 300
    list(ranked(search, change, involved))  # read to the end: only hands that may show the change get scored
    left = [e for e in search.entries if not isinstance(e, Candidate)]
    assert left and not any(involved.test(e.request) for e in left)


@pytest.mark.parametrize("pair", [("house", "wrc2025"), ("house", "tenhou"), ("tenhou", "mleague")], ids="-".join)
def test_a_setting_no_round_reads_gets_the_scenario_or_reason_of_every_round_played(pair: tuple[str, str]) -> None:
    """A tie-break, an uma or a score rounding: the round scripts are not played under A with that change, and
    the scenario (or the reason there is none) is the one playing them all gives."""
    a, b = scorer(pair[0]), scorer(pair[1])
    changes = diff(a.rulebook.resolved, b.rulebook.resolved)
    unread = [c for c in changes if unread_by_rounds(a, [c])]
    assert unread, pair
    quick_cache: dict = {}
    full_cache: dict = {}
    for change in unread:
        quick = flow_scenario(a, b, change, quick_cache, changes, Budget())
        assert quick == flow_scenario(a, b, change, full_cache, changes, Budget(), shortcuts=False), change.item


def test_the_round_reads_by_name_only_the_settings_the_shortcut_knows() -> None:
    """``unread_by_rounds`` trusts that a round reads its settings through ``RoundRules`` and ``READ_BY_NAME`` (and its
    scorer the scoring settings): a round module reading another setting by name must be listed there."""
    allowed = ROUND_RULE_FIELDS | READ_BY_NAME | {name for _group, name in SCORING_SETTINGS}
    root = Path(__file__).resolve().parents[2] / "engine" / "round"
    read = {m.group(2) for path in root.rglob("*.py") for m in re.finditer(r'\.setting\(\s*"(\w+)",\s*"(\w+)"', path.read_text())}
    assert read and read <= allowed, read - allowed


@pytest.mark.parametrize(
    "pair", _first_fast([("house", str(FIXTURES / "several_changes.rulebook")), ("house", "wrc2025"), ("house", "sanma")]), ids=lambda p: Path(p[1]).stem
)
def test_a_mix_compiled_from_a_is_the_mix_compiled_alone(pair: tuple[str, str]) -> None:
    """A with one change, compiled and prepared with A's rules reused (``like``), has equal rules and scores every
    pooled hand as the same mix compiled from nothing."""
    a, b = scorer(pair[0]), scorer(pair[1])
    hands = [c.request for c in Search(a, b, random_hands=40).pool]
    for change in diff(a.rulebook.resolved, b.rulebook.resolved):
        mixed = with_change(a.rulebook.resolved, b.rulebook.resolved, change)
        try:
            alone = compile_rulebook(mixed)
        except REFUSED:
            continue
        reused = compile_rulebook(mixed, like=a.rulebook)
        assert reused.rules == alone.rules and reused.settings == alone.settings, change.item
        fresh, shared = Scorer(alone), Scorer(reused, like=a)
        for request in hands:
            assert outcome(shared, fitted(request, shared.prepared.red_fives)).key == outcome(fresh, fitted(request, fresh.prepared.red_fives)).key


def test_random_hands_are_written_as_format_tiles_writes_them() -> None:
    """The pool's random hands are written from tables (``engine.diff.witness._written``): the same text as the
    tile notation's own writer, on every tile and on random lists of tiles (red fives among them)."""
    import random

    from engine.core import tiles as T
    from engine.diff.witness import _CODES, _ONE, _written

    for code in _CODES:
        assert _ONE[code] == T.format_tiles([code]) == T.format_tiles([code], sort=False)
    rng = random.Random(7)
    for _ in range(3000):
        codes = [rng.choice(_CODES) for _ in range(rng.randint(0, 18))]
        assert _written(list(codes)) == T.format_tiles(codes)


def _analyses(prepared: object) -> dict[str, object]:
    """What ``prepare`` works out about a rulebook's rules, as comparable values (closures by their facts)."""
    p: Any = prepared
    rules = [*p.yakuman_rules, *p.yaku_rules, *p.bonus_rules, *p.fu_rules, *p.fixed_fu_rules]
    static = [None if (t := p.static_tests[id(r)]) is None else (r.name, t[1], t[2]) for r in rules]
    shares = None
    if p.fu_per_element is not None:
        fact, memo = p.fu_per_element
        shares = (fact, tuple(fn is _ANSWERS_ZERO for fn in p.fu_values[0]))
    return {
        "static": static,
        "limit_reads": p.limit_reads,
        "payment_reads": p.payment_reads,
        "hand_ahead": p.hand_ahead,
        "reading_ahead": p.reading_ahead,
        "static_key": p.static_key.__reduce__()[1],
        "fu_per_element": shares,
    }


@pytest.mark.parametrize("pair", _first_fast([("house", "wrc2025"), ("house", str(FIXTURES / "several_changes.rulebook")), ("wrc2025", "mahjchina"), ("house", "sanma")]), ids=lambda p: Path(p[1]).stem)
def test_a_mix_prepared_from_a_has_the_analyses_of_the_mix_prepared_alone(pair: tuple[str, str]) -> None:
    """``prepare(like=A)`` takes each shared rule's analyses (static tests, facts read and named, per-element fu
    sums) from A's fast rule: they are those of the mix prepared from nothing, both ways of every change."""
    a, b = scorer(pair[0]), scorer(pair[1])
    for change in diff(a.rulebook.resolved, b.rulebook.resolved):
        for base, other in ((a, b), (b, a)):
            mixed = with_change(base.rulebook.resolved, other.rulebook.resolved, change)
            try:
                reused = compile_rulebook(mixed, like=base.rulebook)
            except REFUSED:
                continue
            assert _analyses(prepare(reused, like=base.prepared)) == _analyses(prepare(compile_rulebook(mixed))), change.item


@pytest.mark.parametrize("pair", [("house", "wrc2025", 4000), ("wrc2025", "mahjchina", 4000), ("house", str(FIXTURES / "several_changes.rulebook"), 900)], ids=_ids)
def test_the_shipped_random_hands_are_the_drawn_ones(pair: tuple[str, str, int]) -> None:
    """The pool read from ``engine.diff.random_table`` is the pool drawn by ``RandomHands``: the same hands in the
    same order, the same simplicity and counts, the same starting order of the search and the same keys of hands
    already pooled (a steered hand equal to a random one is left out as before)."""
    a, b = scorer(pair[0]), scorer(pair[1])
    read, drawn = Search(a, b, random_hands=pair[2]), Search(a, b, random_hands=pair[2], shipped=False)
    assert read._shipped_order is not None and drawn._shipped_order is None
    assert [(e.item, e.origin, e.request) for e in read.entries] == [(e.item, e.origin, e.request) for e in drawn.entries]
    assert [json.dumps(e.request) for e in read.entries] == [json.dumps(e.request) for e in drawn.entries]  # key order too
    assert read.simplicity == drawn.simplicity and read.counts == drawn.counts
    assert read.waiting() == drawn.waiting() and read.named == drawn.named
    some = drawn.entries[-1].request
    assert read.add(None, "steered", dict(some)) is None and drawn.add(None, "steered", dict(some)) is None
    assert read.seen == drawn.seen


def test_the_shipped_random_hands_are_what_the_generator_draws() -> None:
    """Every shipped row is the generator's hand at its place (the file is fresh for this Python's ``random``), with
    its simplicity, and the shipped order is the order of simplicity."""
    from engine.diff import random_table

    for kinds, reds in random_table.TILE_SETS:
        table = random_table.shipped(kinds, reds, random_table.SEED)
        assert table is not None
        assert table.rows == list(random_table.rows(kinds, reds))
        assert table.order == sorted(range(len(table.rows)), key=lambda at: (table.rows[at][0], at))


def test_a_seed_or_tile_set_not_shipped_is_drawn() -> None:
    from engine.diff import random_table

    assert random_table.shipped(random_table.ALL_KINDS, frozenset(), random_table.SEED + 1) is None
    assert random_table.shipped(frozenset(range(27)), frozenset(), random_table.SEED) is None
