"""Rules read aloud: conditions in plain English from the vocabulary's meanings, and explanations that never
fail, whatever a rulebook contains."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings

from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.diagnostics import RulebookError
from ruledsl.explain import English, english, explain_query, explain_rulebook, find
from ruledsl.parser import parse
from ruledsl.render import render
from ruledsl.resolve import resolve
from tests.rulebook_params import bundled_params
from tests.ruledsl import strategies as S


def expr(text: str) -> ast.Expr:
    return parse(f"rulebook r\nyaku y {{ when = {text} }}").items[0].fields[0].value


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("all(t in tiles: is_simple(t))", "every tile t of the hand is a number tile 2 to 8"),
        ("not all(t in tiles: is_simple(t))", "some tile t of the hand is not a number tile 2 to 8"),
        ("not any(g in sets: is_kan(g))", "no set g of the hand is a kan"),
        ("tsumo", "the winning tile was self-drawn"),
        ("not dealer", "the winner is not the dealer (East seat)"),
        ("wait == tanki", "the wait the winning tile completed is tanki (single (pair) wait)"),
        ("wait in [kanchan, penchan]", "the wait the winning tile completed is one of kanchan (closed (middle) wait) or penchan (edge wait)"),
        ("not (tsumo and riichi)", "the winning tile was not self-drawn or the winner had not declared riichi (double riichi included)"),
        ("count(g in sets: is_kan(g)) >= 3", "the number of sets g of the hand where g is a kan is at least 3"),
        ("has_triplet(5z)", "the hand has a triplet or kan of 5z (White)"),
        ("any(n in 1..7: has_sequence(m, n))", "for some number n from 1 to 7, the hand has the sequence of suit m starting at n"),
        ("if closed then 2 > 1 else false", "2 is more than 1 if no chi, pon or open kan was made (closed kans keep a hand closed), otherwise never"),
    ],
)
def test_conditions_in_english(text: str, words: str) -> None:
    assert english(expr(text)) == words


def test_values_in_english() -> None:
    say = English()
    assert say.noun(expr("round_up(4 * base, 100) + 300 * honba")) == (
        "((4 × the base points after the limit table) rounded up to a multiple of 100) + (300 × honba counters on the table)"
    )
    assert say.noun(expr("sum(g in sets: number(g))")) == "the sum over sets g of the hand of (the number of g)"


def test_every_function_reads_with_all_its_arguments() -> None:
    say = English()
    for fn in V.FUNCTIONS.values():
        args = ", ".join(f"arg{i}" for i in range(len(fn.params)))
        call = expr(f"{fn.name}({args})")
        text = say.condition(call) if fn.returns == V.BOOL else say.noun(call)
        for i in range(len(fn.params)):
            assert f"arg{i}" in text, (fn.name, text)


def _is_one_negation(sentence: str, negated: str) -> bool:
    """``negated`` is ``sentence`` with exactly one negation: a "not" after its verb, "no" turned to "some", or a
    negating prefix; anything else (a dropped word, an unrelated sentence, a double negation) is not."""
    verb = re.search(r" (?:is|was|had|has|are|were) not ", negated)
    return (
        (verb is not None and negated[: verb.end() - 4] + negated[verb.end() :] == sentence)
        or (sentence.startswith("no ") and negated == "some " + sentence[3:])
        or negated in (f"not {sentence}", f"it is not true that {sentence}")
    )


def test_every_bool_fact_has_a_negation() -> None:
    facts = [fact for fact in V.FACTS.values() if fact.type == V.BOOL]
    assert len(facts) >= 10
    for fact in facts:
        negated = English().condition(expr(f"not {fact.name}"))
        assert _is_one_negation(fact.meaning, negated), (fact.name, negated)
        assert English().condition(expr(f"not (not {fact.name})")) == fact.meaning
    assert English().condition(expr("not dealer")) == "the winner is not the dealer (East seat)"
    assert English().condition(expr("not closed")).startswith("some chi, pon or open kan was made")


@pytest.mark.parametrize("name", bundled_params())
def test_every_bundled_rulebook_explains(name: str) -> None:
    rulebook = resolve(name)
    text = explain_rulebook(rulebook)
    for item in rulebook.items.values():
        assert f" {item.name}" in text
        assert explain_query(rulebook, f"{item.kind} {item.name}")
    for removal in rulebook.removed:
        assert f"removed by {removal.rulebook}" in text


def test_find_by_name_finds_every_kind() -> None:
    rulebook = resolve("rb", text='rulebook rb\n@clause("a")\nyaku same { han = 1 when = closed }\n@clause("b")\nfu same { fu = 2 }\n')
    items, removals = find(rulebook, "same")
    assert [i.kind for i in items] == ["yaku", "fu"] and removals == []


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(S.vocabulary_rulebooks().map(render))
def test_explaining_never_fails(text: str) -> None:
    try:
        rulebook = resolve("fuzz", text=text, file="fuzz.rulebook")
    except RulebookError:
        return
    explain_rulebook(rulebook)
    for item in rulebook.items.values():
        explain_query(rulebook, f"{item.kind} {item.name}")
