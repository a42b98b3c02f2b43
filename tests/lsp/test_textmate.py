"""The editors' TextMate grammar is generated from the grammar's keywords and the vocabulary: each word
the language knows is coloured, each pattern compiles, and a keyword the generator cannot place stops it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ruledsl import textmate
from ruledsl import vocabulary as V
from ruledsl.parser import grammar_keywords

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "editors" / "vscode" / "syntaxes" / "rulebook.tmLanguage.json"


def _scopes_of(word: str, patterns: list[dict]) -> list[str]:
    return [p["name"] for p in patterns if "match" in p and re.search(p["match"], word)]


def test_every_keyword_and_vocabulary_name_is_coloured() -> None:
    patterns = json.loads(SHIPPED.read_text(encoding="utf-8"))["patterns"]
    for word in [*grammar_keywords(), *V.ITEM_KINDS, *V.FACTS, *V.CONSTANTS]:
        assert _scopes_of(f"{word}(" if word in V.QUANTIFIERS else word, patterns), word
    for name in V.FUNCTIONS:
        assert "support.function.rulebook" in _scopes_of(f"{name}(x)", patterns), name
    assert "constant.other.tiles.rulebook" in _scopes_of("123m456p", patterns)
    assert "comment.line.number-sign.rulebook" in _scopes_of("# a note", patterns)


def test_the_shipped_grammar_is_what_the_generator_gives() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == textmate.generate()
    assert json.loads(textmate.generate())["scopeName"] == "source.rulebook"


def test_a_keyword_without_a_colour_stops_the_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textmate, "grammar_keywords", lambda: (*grammar_keywords(), "unless"))
    with pytest.raises(ValueError, match="unless"):
        textmate.grammar()


def test_the_vscode_extension_names_the_grammar_and_the_server() -> None:
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    (grammar,) = package["contributes"]["grammars"]
    assert (ROOT / "editors" / "vscode" / grammar["path"]).resolve() == SHIPPED.resolve()
    assert package["contributes"]["languages"][0]["extensions"] == [".rulebook"]
    assert '"lsp"' in (ROOT / "editors" / "vscode" / "extension.js").read_text(encoding="utf-8")
