"""Hostile and accidental input: whatever text arrives, reading and checking a rulebook answers with
diagnostics, never with a Python traceback.

Text comes from our own grammar (``hypothesis.extra.lark.from_lark``) and from typo-like mutations of the
bundled rulebooks. The default run is small; ``pytest -m slow`` runs many more cases.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark

from ruledsl.check import check
from ruledsl.compile import compile_rulebook
from ruledsl.diagnostics import Diagnostic, RulebookError
from ruledsl.parser import grammar_text, parse
from ruledsl.render import render, render_expr
from ruledsl.resolve import UnknownRulebookError, resolve
from tests.ruledsl import strategies as S

ROOT = Path(__file__).resolve().parents[2]
BUNDLED_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "rulebooks").glob("*.rulebook"))}
FILE = "fuzz.rulebook"


def read_and_check(text: str) -> list[Diagnostic]:
    """Parse, resolve and check (and compile what checks clean); the only failure allowed is a
    ``RulebookError`` carrying diagnostics."""
    try:
        resolved = resolve("fuzz", text=text, file=FILE)
    except RulebookError as exc:
        assert exc.diagnostics, "a RulebookError must carry at least one diagnostic"
        for d in exc.diagnostics:
            d.render()
        return list(exc.diagnostics)
    except UnknownRulebookError:  # pragma: no cover - only for a missing first file, which text never is
        raise AssertionError("text given, yet the rulebook was looked up") from None
    diagnostics = check(resolved)
    for d in diagnostics:
        assert d.render().startswith(f"{d.span.file}:{d.span.line}:{d.span.column}: {d.severity}: ")
    if not any(d.is_error for d in diagnostics):
        compile_rulebook(resolved)  # what the checker accepts, the compiler builds
    return diagnostics


def test_grammar_is_strict_clean() -> None:
    """No terminal collisions or shift/reduce conflicts: lark's strict mode (needs `interegular`) accepts it."""
    Lark(grammar_text(), parser="lalr", strict=True)


def _expression_texts() -> st.SearchStrategy[str]:
    """Generated expressions dropped into otherwise valid items, so the type checker sees them."""
    kinds = st.sampled_from(
        [
            ("yaku", "han = 1\n  when = {e}"),
            ("yakuman", "when = {e}"),
            ("bonus", "han = {e}"),
            ("fu", "fu = {e}"),
            ("fu", "fixed = {e}\n  when = raw_fu > 20"),
            ("limit", "when = {e}\n  base = {e}"),
            ("payment", 'when = {e}\n  from = "discarder"\n  amount = {e}'),
            ("abortive_draw", "when = {e}"),
            ("settings", "players = {e}"),
        ]
    )
    return st.tuples(kinds, S.expressions.map(render_expr), st.booleans()).map(
        lambda t: (
            ("rulebook fuzz extends house\n" if t[2] else "rulebook fuzz\n")
            + f'@clause("c")\n{t[0][0]} {"table" if t[0][0] == "settings" else "fuzzed"} {{\n  '
            + t[0][1].format(e=t[1])
            + "\n}\n"
        )
    )


FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=4000, deadline=None, suppress_health_check=list(HealthCheck))


@FAST
@given(S.rulebook_texts())
def test_grammar_texts_never_crash(text: str) -> None:
    read_and_check(text)


@FAST
@given(S.structured_texts())
def test_structured_grammar_texts_never_crash(text: str) -> None:
    read_and_check(text)


@FAST
@given(S.vocabulary_rulebooks().map(render))
def test_vocabulary_rulebooks_never_crash(text: str) -> None:
    read_and_check(text)


@FAST
@given(_expression_texts())
def test_grammar_expressions_never_crash(text: str) -> None:
    read_and_check(text)


@FAST
@given(st.sampled_from(sorted(BUNDLED_TEXTS)).flatmap(lambda name: S.mutations(BUNDLED_TEXTS[name])))
def test_mutated_rulebooks_never_crash(text: str) -> None:
    read_and_check(text)


@FAST
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes(text: str) -> None:
    read_and_check(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\x00",
        "rulebook",
        "rulebook x extends x",
        "rulebook x extends nowhere_at_all",
        'rulebook x\nyaku y { when = "unterminated }',
        "rulebook x\nyaku y { when = " + "(" * 500 + "closed" + ")" * 500 + " }",
        "rulebook x\nyaku y { han = 1 when = " + " and ".join(["closed"] * 5000) + " }",
        "rulebook x\nyaku y { han = 1 when = " + "not " * 5000 + "closed }",
        "rulebook x\nyaku y { han = 1 when = " + "-" * 5000 + "1 == 1 }",
        "rulebook x\nyaku y { han = " + "9" * 5000 + " }",
        "rulebook x\nyaku y { han = 1 when = all(t in tiles: t in 99999999999999m) }",
        "rulebook x\nyaku y { han = 1 when = size(1) == size(closed) }",
        "rulebook x\nyaku y { han = {closed: {open: 1}} when = closed }",
        "rulebook x\nyaku y { han = [1] when = [] }",
        "rulebook x\nyaku y { han = 1 when = any(x in x: x) }",
        "rulebook x\nyaku y { han = 1 when = has_yaku(y) excludes = [y, 1, \"z\"] }",
        "rulebook x\nexception e to exception e { when = closed }",
        "rulebook x\nexception e to yaku e { when = closed }",
        "rulebook x\nsettings table { red_fives = [0m, [0p], 5z] players = -4 rounds = [\"E\", 1] }",
        "rulebook x\nsettings scoring { han_ceiling = 0 }\nyaku y { han = 1 when = closed }",
        "rulebook x\nliability l { affects = closed when = closed tsumo_liable = 100 ron_liable = 50 ron_discarder = 50 }",
        'rulebook x\nyaku y { han = 1 when = closed example "" => {} example "1m win" => {han: [], payments: 3} }',
        "rulebook x\n@clause(\"a\")\n@clause(\"b\")\nfu f { fu = 2 fixed = 3 }",
        BUNDLED_TEXTS["house.rulebook"].replace("rulebook house", "rulebook fuzz extends house", 1),
    ],
    ids=lambda t: repr(t[:30]),
)
def test_known_hard_cases(text: str) -> None:
    read_and_check(text)


def test_deep_expressions_are_reported_not_crashed() -> None:
    diagnostics = read_and_check("rulebook x\nyaku y { han = 1 when = " + "not " * 5000 + "closed }")
    assert [d.message for d in diagnostics] == ["the value of `when` is nested more than 100 levels deep"]
    assert (diagnostics[0].span.line, diagnostics[0].span.column) == (2, 18)


def test_parse_raises_only_rulebook_errors_on_bytes_noise() -> None:
    for text in ["\ufeffrulebook x", "rulebook x\r\nyaku y {\r\n}\r\n", "rulebook x\u2028"]:
        try:
            parse(text)
        except RulebookError:
            pass


@pytest.mark.slow
@SLOW
@given(
    st.one_of(
        S.rulebook_texts(),
        S.rulebook_texts(start="expr").map(lambda e: f"rulebook r\nyaku y {{ han = 1 when = {e} }}"),
        S.structured_texts(),
        S.vocabulary_rulebooks().map(render),
        _expression_texts(),
        st.text(max_size=400),
    )
)
def test_fuzz_long_generated(text: str) -> None:
    read_and_check(text)


@pytest.mark.slow
@SLOW
@given(st.sampled_from(sorted(BUNDLED_TEXTS)).flatmap(lambda name: S.mutations(BUNDLED_TEXTS[name])))
def test_fuzz_long_mutations(text: str) -> None:
    read_and_check(text)
