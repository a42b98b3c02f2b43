"""The shipped parser tables (``ruledsl/grammar_tables.json``) are current and parse exactly like a parser built
from ``grammar.lark``: the same trees with the same positions and placeholders, the same syntax errors."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import lark
import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from ruledsl import grammar_tables, lark_parser, parser
from ruledsl.diagnostics import RulebookError
from ruledsl.parser import grammar_text

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = sorted(ROOT.glob("rulebooks/*.rulebook")) + sorted(ROOT.glob("rulebooks/examples/*.rulebook"))
SYNTAX_FIXTURES = sorted((Path(__file__).resolve().parent / "fixtures" / "bad").glob("syntax_*.rulebook"))
BROKEN = {
    "empty": "",
    "header_only_keyword": "rulebook",
    "field_without_value": 'rulebook x\nyaku a "A" {\n  han =\n}\n',
    "eof_in_block": 'rulebook x\nyaku a "A" {\n  when = closed and (',
    "assign_in_condition": "rulebook x\nyaku a { when = han = 2 }\n",
    "stray_character": "rulebook x\nyaku a { when = closed § open }\n",
    "unclosed_string": 'rulebook x "title\n',
    "bad_record": "rulebook x\nyaku a { han = {closed 2} }\n",
}
STALE = f"stale; regenerate it with `{grammar_tables.COMMAND}`"
TABLES_LARK = grammar_tables.decode(grammar_tables.shipped() or "{}").get("lark_version")
OTHER_LARK = (
    f"lark {lark.__version__} is installed but the shipped tables were built with lark {TABLES_LARK}: install the "
    f"test extra (it pins that lark), or regenerate the tables with `{grammar_tables.COMMAND}` and move the pin"
)


def test_the_test_extra_pins_the_lark_that_built_the_tables() -> None:
    """Under any other lark the tables are ignored and every test below would compare the built parser with itself;
    so the pin, the tables and the installed lark must agree, and a mismatch fails here instead of skipping."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = [re.fullmatch(r"lark\[interegular\]==(\S+)", d) for d in project["optional-dependencies"]["test"]]
    assert [m.group(1) for m in pins if m] == [TABLES_LARK], "the test extra must pin lark[interegular]==" + str(TABLES_LARK)
    assert lark.__version__ == TABLES_LARK, OTHER_LARK


@pytest.fixture(scope="module")
def loaded() -> Lark:
    tables = grammar_tables.load(grammar_text())
    assert tables is not None, OTHER_LARK if lark.__version__ != TABLES_LARK else f"the shipped tables are {STALE}"
    return tables


@pytest.fixture(scope="module")
def built() -> Lark:
    return grammar_tables.build(grammar_text())


def test_shipped_tables_match_the_grammar() -> None:
    shipped = grammar_tables.shipped()
    assert shipped is not None, (
        f"ruledsl/grammar_tables.json is missing; generate it with `{grammar_tables.COMMAND}`"
    )
    stamp = grammar_tables.fingerprint(grammar_text())
    assert grammar_tables.decode(shipped)["grammar_sha256"] == stamp["grammar_sha256"], (
        f"grammar.lark changed: {STALE}"
    )
    assert lark.__version__ == TABLES_LARK, OTHER_LARK
    assert grammar_tables.dumps(grammar_text()) == shipped, f"ruledsl/grammar_tables.json is {STALE}"
    assert grammar_tables.main(["--check"]) == 0


def test_the_parser_is_loaded_from_the_tables() -> None:
    assert lark_parser._parser().source_path == "<deserialized>"


def _shape(node: object) -> object:
    """A tree with everything Lark records: rule names, token types and values, positions, ``None`` placeholders."""
    if isinstance(node, Tree):
        meta = node.meta
        where = (
            None
            if meta.empty
            else (meta.line, meta.column, meta.end_line, meta.end_column, meta.start_pos, meta.end_pos)
        )
        return (str(node.data), where, [_shape(child) for child in node.children])
    if isinstance(node, Token):
        return (
            node.type,
            str(node),
            node.line,
            node.column,
            node.end_line,
            node.end_column,
            node.start_pos,
            node.end_pos,
        )
    return node


@pytest.mark.parametrize("path", RULEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_bundled_rulebooks_parse_identically(path: Path, loaded: Lark, built: Lark) -> None:
    text = path.read_text(encoding="utf-8")
    tree = loaded.parse(text)
    assert _shape(tree) == _shape(built.parse(text))
    assert lark_parser._ToAst(path.name).transform(tree) == lark_parser._ToAst(path.name).transform(built.parse(text))


def test_placeholders_survive(loaded: Lark) -> None:
    header = loaded.parse("rulebook x\n").children[0]
    assert header.children[1:] == [None, None, None]
    assert (header.meta.line, header.meta.column, header.meta.end_column) == (1, 1, 11)


def _error(lalr: Lark, text: str) -> tuple:
    with pytest.raises(UnexpectedInput) as info:
        lalr.parse(text)
    exc = info.value
    token = getattr(exc, "token", None)
    return (
        type(exc),
        exc.line,
        exc.column,
        sorted(getattr(exc, "expected", None) or ()),
        sorted(getattr(exc, "allowed", None) or ()),
        (token.type, str(token), token.start_pos) if token is not None else None,
    )


def _diagnostics(monkeypatch: pytest.MonkeyPatch, lalr: Lark, text: str) -> list:
    monkeypatch.setattr(lark_parser, "_parser", lambda: lalr)
    lark_parser._terminal_words.cache_clear()
    try:
        with pytest.raises(RulebookError) as info:
            parser.parse(text, "broken.rulebook")
    finally:
        lark_parser._terminal_words.cache_clear()
    return info.value.diagnostics


BROKEN_CASES = [pytest.param(p.read_text(encoding="utf-8"), id=p.stem) for p in SYNTAX_FIXTURES]
BROKEN_CASES += [pytest.param(text, id=name) for name, text in BROKEN.items()]


@pytest.mark.parametrize("text", BROKEN_CASES)
def test_syntax_errors_are_identical(
    text: str, loaded: Lark, built: Lark, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _error(loaded, text) == _error(built, text)
    assert _diagnostics(monkeypatch, loaded, text) == _diagnostics(monkeypatch, built, text)


def test_terminals_are_identical(loaded: Lark, built: Lark) -> None:
    def describe(p: Lark) -> list[tuple]:
        return [
            (t.name, t.pattern.type, t.pattern.value, sorted(t.pattern.flags), t.priority)
            for t in p.terminals
        ]

    assert describe(loaded) == describe(built)


def test_stale_tables_fall_back_to_building(monkeypatch: pytest.MonkeyPatch) -> None:
    grammar = grammar_text()
    shipped = grammar_tables.shipped()
    assert shipped is not None
    assert grammar_tables.load(grammar + "\n") is None
    other_lark = shipped.replace(f'"lark_version": "{lark.__version__}"', '"lark_version": "0.0.0"')
    assert grammar_tables.load(grammar, other_lark) is None
    assert grammar_tables.load(grammar, "not json") is None

    monkeypatch.setattr(lark_parser, "grammar_text", lambda: grammar + "\n// edited\n")
    rebuilt = lark_parser._parser.__wrapped__()
    assert rebuilt.source_path != "<deserialized>"
    assert rebuilt.parse("rulebook x\n").children[0].children[0] == "x"

    monkeypatch.setattr(grammar_tables, "shipped", lambda: None)
    assert grammar_tables.load(grammar) is None


def test_encoding_is_lossless() -> None:
    value = {"states": {0: {3: (0, 7)}, 1: {}}, "names": ["a", ("b", 2)], "flags": None}
    decoded = grammar_tables.decode(json.dumps(grammar_tables.encode(value)))
    assert decoded == {"states": {0: {3: [0, 7]}, 1: {}}, "names": ["a", ["b", 2]], "flags": None}
    with pytest.raises(TypeError):
        grammar_tables.encode({"__int_keys__": 1})


def test_check_command_fails_on_stale_tables(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(grammar_tables, "shipped", lambda: "{}")
    assert grammar_tables.main(["--check"]) == 1
    assert grammar_tables.COMMAND in capsys.readouterr().err
