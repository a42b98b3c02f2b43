"""Text to syntax tree. Never raises anything but ``RulebookError`` carrying diagnostics.

A bundled rulebook's tree comes from ``parsed_cache`` (generated JSON, keyed by the sha256 of the text), so a
process that only loads bundled rulebooks never imports lark. Any other text is parsed by ``lark_parser``,
imported on first use; the grammar is LALR and loaded once per process from prebuilt tables (``grammar_tables``).
Size limits keep a hostile file from costing much.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import TYPE_CHECKING, Any

from ruledsl import ast, parsed_cache
from ruledsl.diagnostics import Reporter, RulebookError

if TYPE_CHECKING:
    from lark import Tree  # served by __getattr__ below, so that importing this module does not import lark

MAX_SOURCE_BYTES = 1_000_000
MAX_NESTING = 64
# Operators nest without brackets too (`not not ...`, long `and` chains); the syntax tree's depth is bounded so
# that reading, checking and evaluating a rule never exhausts Python's recursion limit.
MAX_DEPTH = 100
MAX_INT_DIGITS = 18


@functools.cache
def grammar_text() -> str:
    return resources.files("ruledsl").joinpath("grammar.lark").read_text(encoding="utf-8")


def parse(text: str, file: str = "<input>") -> ast.Rulebook:
    """Parse one rulebook file; syntax mistakes become a ``RulebookError`` with positioned diagnostics."""
    # A cached tree came from a successful parse of exactly this text by this code, so the checks below, which
    # only ever reject text, would pass: skipping them changes nothing but the time taken.
    cached = parsed_cache.lookup(text, file)
    if cached is not None:
        return cached
    return parse_uncached(text, file)


def parse_uncached(text: str, file: str = "<input>") -> ast.Rulebook:
    """``parse`` without the shipped cache: what the cache is generated from, and checked against."""
    reporter = Reporter(file, text)
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        reporter.error(
            f"rulebook is larger than {MAX_SOURCE_BYTES:,} bytes",
            ast.Span(file, 1, 1, 1, 2),
            "split it into files that `extends` one another",
        )
        raise RulebookError(reporter.diagnostics)
    _check_nesting(text, reporter)
    if reporter.has_errors:
        raise RulebookError(reporter.diagnostics)
    from ruledsl import lark_parser  # here, not above: importing lark is the cost the cache exists to avoid

    return lark_parser.parse_tree(text, file, reporter)


def _code_brackets(text: str):
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


def _check_nesting(text: str, reporter: Reporter) -> None:
    """Bound bracket depth before parsing so evaluation and recursion stay bounded."""
    depth = 0
    for ch, line, col in _code_brackets(text):
        if ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                reporter.error(
                    f"brackets nested more than {MAX_NESTING} deep",
                    ast.Span(reporter.file, line, col, line, col + 1),
                    "split the expression into simpler items",
                )
                return
        else:
            depth -= 1


def __getattr__(name: str) -> Any:
    """``Tree`` is still importable from here, as before; lark is imported only when it is asked for."""
    if name == "Tree":
        from lark import Tree

        return Tree
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["parse", "parse_uncached", "grammar_text", "MAX_SOURCE_BYTES", "MAX_NESTING", "MAX_DEPTH", "Tree"]
