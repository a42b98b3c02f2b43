"""The hand-written parser (``ruledsl.fast_parser``) against lark: whatever it reads, lark reads the same, to the
last span; whatever it gives up on is left to lark, whose diagnostics are the ones the golden files hold.

The property checked on every text: the fast parser returns None, or a tree whose stored form
(``parsed_cache.encode``: every node and every span) is the lark parser's. Texts: every rulebook of the
repository, text drawn from the grammar (names drawn from the keywords too, since lark's contextual lexer reads a
keyword as a name in some parser states), typo-like mutations of the bundled rulebooks, and trees at the depth
bound.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruledsl import fast_parser, lark_parser, parsed_cache, parser
from ruledsl.diagnostics import Reporter, RulebookError
from ruledsl.parser import MAX_DEPTH, MAX_NESTING, grammar_keywords, grammar_text
from tests.ruledsl import strategies as S

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("rulebooks/**/*.rulebook"), *ROOT.glob("tests/**/*.rulebook"), *ROOT.glob("docs/**/*.rulebook")})
BUNDLED_TEXTS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "rulebooks").glob("*.rulebook"))]
FILE = "fast.rulebook"
WORD = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")


def lark_tree(text: str, file: str = FILE) -> object | None:
    try:
        return lark_parser.parse_tree(text, file, Reporter(file, text))
    except RulebookError:
        return None


def lark_diagnostics(text: str, file: str = FILE) -> list[tuple[object, ...]]:
    try:
        lark_parser.parse_tree(text, file, Reporter(file, text))
    except RulebookError as exc:
        return [(d.message, d.span, d.help) for d in exc.diagnostics]
    return []


def agree(text: str, file: str = FILE) -> bool:
    """Assert the property; True when the fast parser read the text."""
    text = parser.normalise(text)
    try:
        fast = fast_parser.parse(text, file)
    except fast_parser.TooDeep as deep:  # lark reads the text and reports that depth, there
        reporter = Reporter(file, text)
        parser.report_too_deep(reporter, deep.line, deep.column, deep.field)
        assert lark_diagnostics(text, file) == [(d.message, d.span, d.help) for d in reporter.diagnostics], text
        return False
    if fast is None:
        return False
    slow = lark_tree(text, file)
    assert slow is not None, f"the fast parser read a text lark refuses:\n{text}"
    assert parsed_cache.encode(fast) == parsed_cache.encode(slow), f"the trees differ:\n{text}"
    return True


def test_the_fast_parser_follows_this_grammar() -> None:
    """After editing grammar.lark, update ruledsl/fast_parser.py to it and then its GRAMMAR_SHA256; until then
    every text is parsed by lark (correct, slower)."""
    assert fast_parser.grammar_matches(grammar_text()), "grammar.lark changed: update ruledsl/fast_parser.py"
    assert set(grammar_keywords()) == fast_parser._KEYWORDS


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rulebook_of_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    read = agree(text, str(path))
    if lark_tree(parser.normalise(text), str(path)) is not None:
        assert read, "a well-formed rulebook of the repository must not need lark"


def test_parse_takes_the_fast_path_and_leaves_mistakes_to_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "rulebooks" / "house.rulebook").read_text(encoding="utf-8")
    expected = parsed_cache.encode(lark_tree(text, "house.rulebook"))
    calls: list[str] = []
    real = lark_parser.parse_tree
    monkeypatch.setattr(lark_parser, "parse_tree", lambda *a: calls.append("lark") or real(*a))
    tree = parser.parse_uncached(text, "house.rulebook")
    assert calls == [] and parsed_cache.encode(tree) == expected
    with pytest.raises(RulebookError):
        parser.parse_uncached(text.replace("yaku pinfu", "yaku pinfu pinfu", 1), "house.rulebook")
    assert calls == ["lark"]
    monkeypatch.setenv("RIICHI_LARK_ONLY", "1")
    parser.parse_uncached(text, "house.rulebook")
    assert calls == ["lark", "lark"]


@pytest.mark.parametrize(
    ("wrap", "sizes"),
    [
        ("not {}", range(MAX_DEPTH - 12, MAX_DEPTH - 2)),
        ("-{}", range(MAX_DEPTH - 12, MAX_DEPTH - 2)),
        ("a and {}", range(MAX_DEPTH - 12, MAX_DEPTH - 2)),
        ("{} or a", range(MAX_DEPTH - 12, MAX_DEPTH - 2)),
        ("2 ^ {}", range(MAX_DEPTH - 12, MAX_DEPTH - 2)),
        # brackets nest at most MAX_NESTING deep before any parser runs
        ("({}) and x", range(MAX_NESTING - 8, MAX_NESTING)),
        ("[{}]", range(MAX_NESTING - 8, MAX_NESTING)),
        ("f({})", range(MAX_NESTING - 8, MAX_NESTING)),
        ("{{k: {}}}", range(MAX_NESTING - 8, MAX_NESTING - 1)),
        ("any(v in {}: not v)", range(MAX_NESTING - 8, MAX_NESTING)),
    ],
)
def test_the_depth_bound_is_lark_s(wrap: str, sizes: range) -> None:
    """Around MAX_DEPTH, a field's value and an example's record are read by the fast parser exactly when lark
    reads them (beyond it, lark's reader reports the depth)."""
    for n in sizes:
        value = "y"
        for _ in range(n):
            value = wrap.format(value)
        field = f'rulebook r\nyaku a {{\n  x = {value}\n}}\n'
        example = f'rulebook r\nyaku a {{\n  example "h" => {{k: {value}}}\n}}\n'
        for text in (field, example):
            assert agree(text) == (lark_tree(text) is not None), (n, text)


def test_keywords_where_lark_reads_names() -> None:
    """Words that are keywords in one parser state and names in another, as the bundled rulebooks use them."""
    texts = [
        'rulebook r\nremove exception kokushi\nyaku if "t" {\n  from = a and b\n  to = 1\n}\n',
        'rulebook r\nexception exception to examples for {\n  x = count(g in sets: g)\n}\n',
        'rulebook r\nexamples for yaku clauses {\n  example "h" => {then: 1, if: 2}\n}\n',
        'rulebook r\n@clause("c")\nyaku source {\n  x = y\n  then = 1\n}\n',
        'rulebook r\nyaku a {\n  x = y\n  and = 1\n}\n',
        'rulebook r\nyaku a {\n  x = a < if\n}\n',
    ]
    for text in texts:
        agree(text)
    assert agree(texts[0]) and agree(texts[1])


# Every operator of the language, and what may stand before an operand (``fast_parser._Parser.expr`` reads them
# all in one loop, by how tightly each binds).
_OPERATORS = ("or", "and", "==", "<", "in", "not in", "..", "+", "-", "*", "/", "^")
_PREFIXES = ("", "not ", "-")


@pytest.mark.parametrize("first", _OPERATORS)
def test_every_pair_of_operators_binds_as_lark_reads_it(first: str) -> None:
    operator_pairs(first, _PREFIXES)


@pytest.mark.slow
@pytest.mark.parametrize("first", _OPERATORS)
def test_every_pair_of_operators_binds_as_lark_reads_it_after_if(first: str) -> None:
    operator_pairs(first, (*_PREFIXES, "if a then "))


def operator_pairs(first: str, prefixes: tuple[str, ...]) -> None:
    """Three operands joined by two operators, each operand alone, negated, made negative or an `if`'s branch, and
    the first two bracketed or not: the fast parser's tree is lark's whenever it reads the text (operators that
    do not chain, such as `a < b < c`, a `not` or an `if` where the grammar has none, are left to lark), and it
    reads every text lark reads that holds no `if` (the parser's one loop refuses nothing the grammar allows)."""
    for second in _OPERATORS:
        for p1 in prefixes:
            for p2 in prefixes:
                for p3 in prefixes:
                    for template in ("{}{} {} {}{} {} {}{}", "({}{} {} {}{}) {} {}{}"):
                        value = template.format(p1, "x", first, p2, "y", second, p3, "z")
                        if "if" in value:
                            value += " else w"
                        text = f"rulebook r\nyaku a {{\n  x = {value}\n}}\n"
                        read = agree(text)
                        if "if" not in value:
                            assert read == (lark_tree(text) is not None), text


_KEYWORD_NAMES = st.sampled_from(sorted(grammar_keywords()))


# Each drawn text is parsed twice (lark's side is the slow one): the default run draws a sample,
# the `slow` run (``pytest -m slow``) the full count.
_LOOSE = [HealthCheck.too_slow, HealthCheck.filter_too_much]


@settings(max_examples=8, suppress_health_check=_LOOSE)
@given(st.data())
def test_text_from_the_grammar(data: st.DataObject) -> None:
    agree(data.draw(S.rulebook_texts()))


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=_LOOSE)
@given(st.data())
def test_text_from_the_grammar_at_length(data: st.DataObject) -> None:
    agree(data.draw(S.rulebook_texts()))


@settings(max_examples=8, suppress_health_check=_LOOSE)
@given(st.data())
def test_structured_text(data: st.DataObject) -> None:
    agree(data.draw(S.structured_texts()))


@pytest.mark.slow
@settings(max_examples=200, suppress_health_check=_LOOSE)
@given(st.data())
def test_structured_text_at_length(data: st.DataObject) -> None:
    agree(data.draw(S.structured_texts()))


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BUNDLED_TEXTS).flatmap(S.mutations))
def test_typos(text: str) -> None:
    agree(text)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BUNDLED_TEXTS[:8]), st.lists(st.tuples(st.integers(0, 10**6), _KEYWORD_NAMES), min_size=1, max_size=3))
def test_keywords_put_where_names_were(text: str, swaps: list[tuple[int, str]]) -> None:
    """A word of a bundled rulebook replaced by a keyword: lark decides by its parser state whether it is one."""
    for at, keyword in swaps:
        words = list(WORD.finditer(text))
        match = words[at % len(words)]
        text = text[: match.start()] + keyword.ljust(len(match.group())) + text[match.end() :]
    agree(text)
