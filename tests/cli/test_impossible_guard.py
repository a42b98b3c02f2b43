"""The guard of "can never apply" (``engine.services.impossible_guard``) scores under the whole rulebook only the
steered hands on whose readings the item's own condition holds: it keeps and drops exactly the warnings that
scoring every steered hand under the whole rulebook (``fast=False``, the full search) keeps and drops.

The files: each bundled rulebook extended with yaku and yakuman the checker proves impossible (several shapes),
and the same with the proof made to flag every condition (``unsatisfiable`` patched, as a flawed proof would), so
that the search finds hands for most items, misses some, and meets an item whose name an exception bears too."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl.check as checker
from engine.services import check as check_service
from engine.services import impossible_guard as guard
from ruledsl.check import check
from ruledsl.resolve import bundled_names, resolve

ROOT = Path(__file__).resolve().parents[2]

# Conditions no hand meets, of the shapes ``ruledsl.check.unsatisfiable`` proves, each beside a term that steers.
IMPOSSIBLE_CONDITIONS = (
    "has_triplet(1z) and (tsumo and ron)",
    "closed and (shape == standard and size(sets) == 0)",
    "count(g in sets: is_kan(g)) == 5",
    "count_of(5p) >= 1 and (wait_count >= 5 and closed and wait_count <= 2)",
    "shape == seven_pairs and count(g in sets: is_triplet(g)) >= 1",
    "haitei and ((tsumo and ron) or (closed and not closed))",
    "riichi and (wait_count == 3 and wait_count != 3)",
    "rinshan and not rinshan",
)
# Conditions hands do meet, some often (found at once), some rarely (the search may miss them), one that may raise.
POSSIBLE_CONDITIONS = (
    "closed and tsumo",
    "has_triplet(5z) and riichi",
    "count(g in sets: is_kan(g)) >= 1 and haitei",
    "shape == seven_pairs and tsumo",
    "shape == thirteen_orphans and ron",
    "all(t in tiles: t in 123456789p) and count(g in sets: is_kan(g)) >= 2",
    "count(t in tiles: is_honor(t)) * 2 >= 6",
    "ippatsu and renhou",
)


# Every bundled rulebook takes seconds (the full search scores hundreds of hands under it): the default run takes
# two (four and three players), ``-m slow`` the others.
_DEFAULT_BUNDLED = ("house", "sanma")
BASES = [name if name in _DEFAULT_BUNDLED else pytest.param(name, marks=pytest.mark.slow) for name in bundled_names()]


def _text(base: str, conditions: tuple[str, ...], *, exception: bool = False) -> str:
    lines = [f'rulebook guarded "Guard test" extends {base}', 'source "test"']
    for i, when in enumerate(conditions):
        if i % 3 == 2:
            lines += [f'@clause("G{i}")', f'yakuman g{i} "G{i}" {{', f"  when = {when}", "}"]
        else:
            lines += [f'@clause("G{i}")', f'yaku g{i} "G{i}" {{', f"  han = {i % 4 + 1}", f"  when = {when}", "}"]
    if exception:  # an exception of `g0` named as the item `g1`: a hand may list `g1` without `g1`'s condition
        lines += ['@clause("E")', 'exception g1 to yaku g0 "E" {', "  when = closed", "}"]
    return "\n".join(lines) + "\n"


def _guarded(text: str, fast: bool) -> list[str]:
    resolved = resolve("guarded.rulebook", text=text, file="guarded.rulebook", keep_going=True)
    diagnostics = check(resolved)
    assert not any(d.is_error for d in diagnostics), [d.render() for d in diagnostics if d.is_error]
    flagged = [d for d in diagnostics if not d.is_error and check_service.IMPOSSIBLE in d.message]
    assert flagged
    guard.guard_impossible(resolved, diagnostics, flagged, guard.WholeScorer(resolved), fast=fast)
    return [d.render() for d in diagnostics]


def _flag_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    proof = checker.unsatisfiable
    monkeypatch.setattr(checker, "unsatisfiable", lambda expr: proof(expr) or "a flawed proof")


@pytest.mark.parametrize("base", BASES)
def test_impossible_items_keep_their_warnings(base: str) -> None:
    text = _text(base, IMPOSSIBLE_CONDITIONS)
    kept = _guarded(text, fast=True)
    assert kept == _guarded(text, fast=False)
    assert sum(check_service.IMPOSSIBLE in d for d in kept) == len(IMPOSSIBLE_CONDITIONS)


@pytest.mark.parametrize("base", BASES)
def test_a_flawed_proof_is_guarded_as_the_full_search_guards_it(monkeypatch: pytest.MonkeyPatch, base: str) -> None:
    _flag_everything(monkeypatch)
    text = _text(base, IMPOSSIBLE_CONDITIONS + POSSIBLE_CONDITIONS)
    kept = _guarded(text, fast=True)
    assert kept == _guarded(text, fast=False)
    ours = sum(check_service.IMPOSSIBLE in d and ("`yaku g" in d or "`yakuman g" in d) for d in kept)
    assert len(IMPOSSIBLE_CONDITIONS) <= ours < len(IMPOSSIBLE_CONDITIONS + POSSIBLE_CONDITIONS)  # hands found for some


def test_an_exception_bearing_the_items_name_is_scored_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """`g1` can never apply, but the exception `g1` of `g0` lists its name where `g0` holds: the test of `g1`'s own
    condition does not bound that, so every hand is scored, and the warning goes as the full search drops it."""
    text = _text("house", ("closed and tsumo", "tsumo and ron"), exception=True)
    kept = _guarded(text, fast=True)
    assert kept == _guarded(text, fast=False)
    assert not any("`yaku g1` can never apply" in d for d in kept)


def test_riichi_check_with_the_guard_sharing_its_scorer_with_the_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file with examples whose flagged item a hand scores: the examples step takes the scorer the guard built,
    and the report is the one of a check that builds its own (``shared`` left out)."""
    _flag_everything(monkeypatch)
    example = 'example "123m456p789s234m55z win 3m tsumo" => {han: 2}'
    text = _text("house", ("closed and tsumo",)).replace("  when = closed and tsumo\n", f"  when = closed and tsumo\n  {example}\n")
    shared = check_service.check_source("guarded.rulebook", text)
    alone = _alone(monkeypatch, text)
    assert shared.examples_run == 1
    assert (shared.summary(), [d.render() for d in shared.diagnostics]) == alone


def _alone(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[str, list[str]]:
    run = check_service._run_examples

    def without_shared(resolved, report, *, whole=False, shared=None):  # type: ignore[no-untyped-def]
        return run(resolved, report, whole=whole)

    with monkeypatch.context() as patch:
        patch.setattr(check_service, "_run_examples", without_shared)
        report = check_service.check_source("guarded.rulebook", text)
    return report.summary(), [d.render() for d in report.diagnostics]


@pytest.mark.parametrize(
    ("when", "never"),
    [
        ("tsumo and ron", True),
        ("has_triplet(1z) and (tsumo and ron)", True),
        ("(tsumo and ron) or (closed and not closed)", True),
        ("riichi and not closed", False),  # refused by the situation checks, not by the facts: the hands decide
        ("double_riichi and not riichi", True),  # `riichi` is said of both flags
        ("dealer and renhou and ron", False),
        ("closed and tsumo", False),
        ("haitei and (wait_count == 3 and wait_count != 3)", False),  # the flags can hold: the hands decide
        ("seat_wind == round_wind and tsumo and ron", False),  # reads the winds: not told here
        ("seat_wind == round_wind and tsumo", False),
    ],
)
def test_a_condition_false_whatever_the_flags_draws_no_hand(when: str, never: bool) -> None:
    from engine.scoring.prepared import fast_rule
    from ruledsl.compile import compile_expr
    from ruledsl.nodes import Rule

    text = f'rulebook t "T"\n@clause("c")\nyaku t "T" {{\n  han = 1\n  when = {when}\n}}\n'
    value = resolve("t.rulebook", text=text, file="t.rulebook").items[("yaku", "t")].fields["when"].value
    rule = fast_rule(Rule("yaku", "t", "T", None, compile_expr(value), {}))
    assert guard._false_whatever_the_flags(rule, 4) is never


def test_each_yes_or_no_fact_of_a_situation_reads_only_its_own_flag_and_those_said_from() -> None:
    """What ``_false_whatever_the_flags`` rests on: a yes-or-no fact of a situation is the same in any situation
    with the same flag of its name (if it is one), the same ``SAID_FROM`` flags and the same seat wind (dealer or
    not), whatever the other fields hold."""
    import random

    from engine.core.situation import COUNTER_FIELDS, FLAG_FIELDS, Situation
    from engine.scoring.facts import situation_facts

    rng = random.Random(5)
    for _ in range(3000):
        flags = {name: rng.random() < 0.5 for name in FLAG_FIELDS}
        counters = {name: rng.randint(0, 3) for name in COUNTER_FIELDS}
        seat, round_wind = rng.choice("ESWN"), rng.choice("ESWN")
        players = rng.choice((3, 4))
        facts = situation_facts(Situation(seat_wind=seat, round_wind=round_wind, **flags, **counters), players)
        for name in guard.FLAG_FACTS - {"closed"}:
            kept = {n: flags[n] for n in (*guard.SAID_FROM, name) if n in flags}
            alone = situation_facts(Situation(seat_wind="E" if seat == "E" else "S", **kept), players)
            assert alone[name] == facts[name], (name, flags, seat)
