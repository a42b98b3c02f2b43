"""The regular expressions that read untrusted text (a request's tiles, a rulebook's lines, an editor's document)
carry look-behinds or narrower classes, or run only over the part of the text that can match, so that a long run of digits or blanks is read in linear time; each reads
exactly what the plain pattern it replaced reads (the plain patterns are kept here as the reference)."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.lsp.context import DECORATOR, without_decorators
from engine.lsp.documents import EXTENDS
from ruledsl.fast_parser import _LEXEME
from ruledsl.parser import MAX_SOURCE_BYTES
from ruledsl.tiles import _DIGIT_RUNS, tile_codes

PLAIN_DIGIT_RUNS = re.compile(rb"([0-9]+)([mpsz])").findall
PLAIN_LEXEME = re.compile(_LEXEME.pattern.replace(r"(?<![ \t\f\r])", "", 1))
PLAIN_EXTENDS = re.compile(EXTENDS.pattern.replace(r"^[ \t]*", r"^\s*", 1), re.M)

TILE_TEXT = st.text(alphabet="0123456789mpsz ,\tx", max_size=60)
LINE = st.text(alphabet=' \t\f\r19mz#"\\ab_=()@.<>-', max_size=60)
DOCUMENT = st.lists(st.sampled_from(["", "  ", "\t", "rulebook a extends b", 'rulebook a "T" extends house', "rulebook",
                                     "  rulebook x\n  extends y", "extends z", "\n"]), max_size=8).map("\n".join)


@settings(max_examples=500)
@given(TILE_TEXT)
def test_digit_runs_are_the_plain_patterns(text: str) -> None:
    raw = text.encode()
    assert _DIGIT_RUNS(raw) == PLAIN_DIGIT_RUNS(raw)


@settings(max_examples=500)
@given(LINE)
def test_a_lines_lexemes_are_the_plain_patterns(line: str) -> None:
    assert _LEXEME.findall(line) == PLAIN_LEXEME.findall(line)


@settings(max_examples=300)
@given(DOCUMENT)
def test_the_extended_rulebook_is_the_plain_patterns(text: str) -> None:
    found, plain = EXTENDS.search(text), PLAIN_EXTENDS.search(text)
    assert (found and found.group(1)) == (plain and plain.group(1))


@settings(max_examples=300)
@given(st.text(alphabet="@a_(), ", max_size=40))
def test_a_header_loses_the_decorators_the_plain_pattern_removes(head: str) -> None:
    assert without_decorators(head) == DECORATOR.sub("", head)


def test_long_runs_of_digits_and_blanks_are_read_promptly() -> None:
    """Each of these took from seconds to minutes when the patterns were quadratic (CPU seconds, generous)."""
    start = time.process_time()
    digits = "1" * 65536
    assert tile_codes(digits + "m") is not None
    _DIGIT_RUNS(digits.encode())
    assert _LEXEME.findall(" " * (MAX_SOURCE_BYTES // 2)) == []
    EXTENDS.search("\n" * (MAX_SOURCE_BYTES // 2))
    assert without_decorators("@a(" * 60000) == "@a(" * 60000
    assert time.process_time() - start < 10
