"""Text to syntax tree. Never raises anything but ``RulebookError`` carrying diagnostics.

A bundled rulebook's tree comes from ``parsed_cache`` (generated JSON, keyed by the sha256 of the text), so a
process that only loads bundled rulebooks never imports lark. Any other text is parsed by ``lark_parser``,
imported on first use; the grammar is LALR and loaded once per process from prebuilt tables (``grammar_tables``).
Well-formed text is read first by ``fast_parser`` (the same tree, about ten times sooner, without importing lark);
whatever it is unsure of, a mistake above all, goes to lark, whose diagnostics are the ones reported.
Size limits keep a hostile file from costing much.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from ruledsl import ast, parsed_cache
from ruledsl.caches import once
from ruledsl.diagnostics import UNSAFE_CHARS, Reporter, RulebookError
from ruledsl.package_files import RULEDSL
from ruledsl.rulebook_files import MAX_SOURCE_BYTES, normalise  # the bound and the line ends of every read
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from lark import Tree  # served by __getattr__ below, so that importing this module does not import lark

# Items in one file, and tokens in one item: a long expression is refused before the parser builds its tree.
MAX_ITEMS = 2_000
MAX_ITEM_TOKENS = 10_000
MAX_NESTING = 64
# Operators nest without brackets too (`not not ...`, long `and` chains); the syntax tree's depth is bounded so
# that reading, checking and evaluating a rule never exhausts Python's recursion limit.
MAX_DEPTH = 100
MAX_INT_DIGITS = 18


@once
def grammar_text() -> str:
    with open(os.path.join(RULEDSL, "grammar.lark"), encoding="utf-8") as grammar:  # see ``ruledsl.package_files``
        return grammar.read()


@once
def _fast_grammar() -> bool:
    """Whether ``ruledsl.fast_parser`` follows this ``grammar.lark`` (else every text goes to lark)."""
    from ruledsl import fast_parser

    return fast_parser.grammar_matches(grammar_text())


@once
def grammar_keywords() -> tuple[str, ...]:
    """Every word the grammar spells out literally (``rulebook``, ``examples``, ``if``, ``any``...), read from the
    grammar itself so that the editor's highlighting and the name generators of the tests never lag behind it."""
    return tuple(sorted(set(re.findall(r'"([a-z_]+)"i?', grammar_text()))))


def parse(text: str, file: str = "<input>") -> ast.Rulebook:
    """Parse one rulebook file; syntax mistakes become a ``RulebookError`` with positioned diagnostics."""
    text = normalise(text)
    # A cached tree came from a successful parse of exactly this text by this code, so the checks below, which
    # only ever reject text, would pass: skipping them changes nothing but the time taken.
    cached = parsed_cache.lookup(text, file)
    if cached is not None:
        return cached
    return parse_uncached(text, file)


def parse_uncached(text: str, file: str = "<input>") -> ast.Rulebook:
    """``parse`` without the shipped cache: what the cache is generated from, and checked against."""
    text = normalise(text)
    reporter = Reporter(file, text)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        reporter.error(
            f"rulebook is larger than {MAX_SOURCE_BYTES:,} bytes",
            ast.Span(file, 1, 1, 1, 2),
            "split it into files that `extends` one another",
        )
        raise RulebookError(reporter.diagnostics)
    if _check_characters(text, reporter):
        raise RulebookError(reporter.diagnostics)
    from ruledsl import fast_parser  # here: a bundled rulebook's tree comes from the shipped cache

    fast = fast_parser.enabled() and _fast_grammar()
    try:
        if fast:
            # the size bounds told from the fast parser's tokens when they certainly hold: one pass fewer
            tree, bounded = fast_parser.parse_bounded(text, file, MAX_ITEMS, MAX_ITEM_TOKENS, MAX_NESTING)
            if tree is not None:
                return tree
            fast = bounded is False  # unsure of the bounds: parsed once they are checked below
        if _check_nesting(text, reporter):
            raise RulebookError(reporter.diagnostics)
        if fast:
            tree = fast_parser.parse(text, file)
            if tree is not None:
                return tree
    except fast_parser.TooDeep as deep:  # what lark would report, without lark's parse of the whole file
        report_too_deep(reporter, deep.line, deep.column, deep.field)
        raise RulebookError(reporter.diagnostics) from None
    from ruledsl import lark_parser  # here, not above: importing lark is the cost the cache exists to avoid

    return lark_parser.parse_tree(text, file, reporter)


def report_too_deep(reporter: Reporter, line: int, column: int, field: str | None) -> None:
    """The error of a field's value (``field``: its name, at ``line``:``column``) or of an example (``field``
    None, at its keyword) nested more than ``MAX_DEPTH`` levels deep, as either parser finds it."""
    width = len(field) if field is not None else 1
    what = f"the value of `{field}`" if field is not None else "expression"
    reporter.error(
        f"{what} is nested more than {MAX_DEPTH} levels deep",
        ast.Span(reporter.file, line, column, line, column + width),
        "split it into simpler items; a long chain of `and` or `or` can often be a quantifier such as "
        "`all(x in [...]: ...)`",
    )


def _code_brackets(text: str) -> Iterator[tuple[str, int, int]]:
    """Every bracket outside strings and comments, as (bracket, line, column), in reading order."""
    line, col = 1, 1
    in_string = in_comment = escaped = False
    for ch in text:
        if in_comment:
            in_comment = ch != "\n"
        elif in_string:
            if escaped:
                escaped = False
                in_string = ch != "\n"
            elif ch == "\\":
                escaped = True
            elif ch == '"' or ch == "\n":
                in_string = False
        elif ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        elif ch in "([{)]}":
            yield ch, line, col
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1


def _position(text: str, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of a character offset (columns count characters, as the parser's do)."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _error_at(text: str, offset: int, reporter: Reporter, message: str, help: str) -> bool:
    line, col = _position(text, offset)
    reporter.error(message, ast.Span(reporter.file, line, col, line, col + 1), help)
    return True


def _check_characters(text: str, reporter: Reporter) -> bool:
    """Refuse control characters and the invisible ones that reorder text (a bidi override in a title or clause
    would make `riichi explain` and every diagnostic show something other than what the file says)."""
    found = UNSAFE_CHARS.search(text)
    if found is None:
        return False
    return _error_at(
        text,
        found.start(),
        reporter,
        f"the rulebook contains the control or invisible character U+{ord(found.group()):04X}",
        "remove it: a rulebook is plain text (tabs and line ends are the only control characters allowed)",
    )


# Tokens as far as sizes are concerned: a string (possibly unterminated), a comment, a word or number, a symbol.
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|[A-Za-z0-9_]+|\S')


def _check_nesting(text: str, reporter: Reporter) -> bool:
    """Bound bracket depth, items per file and tokens per item before parsing, in one linear pass, so that
    parsing, checking and evaluation stay bounded and a hostile file is refused before lark builds a tree."""
    depth = items = tokens = item_start = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] == "#":
            continue
        if depth:
            tokens += 1
            if tokens > MAX_ITEM_TOKENS:
                return _error_at(
                    text, item_start, reporter, f"this item is longer than {MAX_ITEM_TOKENS:,} tokens", "split it into simpler items"
                )
        if token in "([{":
            depth += 1
            if depth == 1 and token == "{":
                items, tokens, item_start = items + 1, 0, match.start()
                if items > MAX_ITEMS:
                    return _error_at(
                        text, item_start, reporter, f"a rulebook has at most {MAX_ITEMS:,} items", "split it into files that `extends` one another"
                    )
            if depth > MAX_NESTING:
                return _error_at(text, match.start(), reporter, f"brackets nested more than {MAX_NESTING} deep", "split the expression into simpler items")
        elif token in ")]}":
            depth = max(0, depth - 1)
    return False


def __getattr__(name: str) -> Any:
    """``Tree`` is still importable from here, as before; lark is imported only when it is asked for."""
    if name == "Tree":
        from lark import Tree

        return Tree
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "parse",
    "parse_uncached",
    "normalise",
    "grammar_text",
    "MAX_SOURCE_BYTES",
    "MAX_ITEMS",
    "MAX_ITEM_TOKENS",
    "MAX_NESTING",
    "MAX_DEPTH",
    "report_too_deep",
    "Tree",
]
