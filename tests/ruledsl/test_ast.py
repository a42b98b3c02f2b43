"""The syntax tree's own tables agree with its classes: ``ast.STORED`` (what the parsed cache writes of each node)
lists every field of every node class with the type its annotation gives, and ``ast.children`` reaches exactly
the expressions a node holds, in order."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings

from ruledsl import ast, parsed_cache, parser, record
from tests.ruledsl import strategies as S

GOOD_FIXTURES = sorted((Path(__file__).resolve().parent / "fixtures" / "good").glob("*.rulebook"))
NODE_CLASSES = sorted(
    (
        value
        for value in vars(ast).values()
        if isinstance(value, type) and record.is_record(value) and value.__module__ == ast.__name__
        and value not in (ast.Span, ast.Stored)
    ),
    key=lambda cls: cls.__name__,
)


def test_every_node_class_is_stored() -> None:
    assert set(ast.STORED) == set(NODE_CLASSES)


@pytest.mark.parametrize("cls", NODE_CLASSES, ids=lambda cls: cls.__name__)
def test_stored_fields_are_the_class_fields_in_order(cls: type) -> None:
    assert [s.name for s in ast.STORED[cls]] == [f.name for f in record.fields(cls)]


def _expected(cls: type, name: str, hint: object) -> ast.Stored:
    """What an annotation says a field holds, written as a ``Stored``."""
    optional = False
    args = typing.get_args(hint)
    if isinstance(hint, types.UnionType) and type(None) in args:
        optional = True
        (hint,) = [a for a in args if a is not type(None)]
    if cls is ast.Rulebook and name == "file":
        return ast.Stored(name, ast.FILE)
    if hint is ast.Span:
        return ast.Stored(name, ast.SPAN)
    if hint in (int, bool, str):
        return ast.Stored(name, ast.SCALAR, (hint,), optional)
    if typing.get_origin(hint) is tuple:
        element = typing.get_args(hint)[0]
        return ast.Stored(name, ast.NODES, typing.get_args(element) or (element,), optional)
    return ast.Stored(name, ast.NODE, typing.get_args(hint) or (hint,), optional)


@pytest.mark.parametrize("cls", NODE_CLASSES, ids=lambda cls: cls.__name__)
def test_stored_kinds_follow_the_annotations(cls: type) -> None:
    hints = typing.get_type_hints(cls, vars(ast))
    assert list(ast.STORED[cls]) == [_expected(cls, f.name, hints[f.name]) for f in record.fields(cls)]


def _stored_children(expr: ast.Expr) -> list[object]:
    """The expressions inside ``expr`` found from ``STORED`` alone (an entry counts as its value)."""
    found: list[object] = []
    for slot in ast.STORED[type(expr)]:
        value = getattr(expr, slot.name)
        for node in value if slot.kind == ast.NODES else (value,) if slot.kind == ast.NODE else ():
            found.append(node.value if isinstance(node, ast.Entry) else node)
    return found


def _expressions(node: object) -> Iterator[ast.Expr]:
    if isinstance(node, tuple):
        for child in node:
            yield from _expressions(child)
    elif record.is_record(node) and not isinstance(node, ast.Span):
        if isinstance(node, ast.EXPRS):
            yield typing.cast(ast.Expr, node)
        for f in record.fields(node):
            yield from _expressions(getattr(node, f.name))


def test_children_reach_every_expression_a_node_holds() -> None:
    seen: set[str] = set()
    for path in [*parsed_cache.bundled_files(), *GOOD_FIXTURES]:
        for expr in _expressions(parser.parse_uncached(path.read_text(encoding="utf-8"), "a.rulebook")):
            seen.add(type(expr).__name__)
            assert list(ast.children(expr)) == _stored_children(expr)
    assert seen == {cls.__name__ for cls in ast.EXPRS}


@settings(max_examples=25, deadline=None)
@given(S.rulebooks)
def test_children_agree_with_stored_for_any_tree(rulebook: ast.Rulebook) -> None:
    for expr in _expressions(rulebook):
        assert list(ast.children(expr)) == _stored_children(expr)


def test_a_span_reads_as_the_record_it_was() -> None:
    """A span is a tuple made in one step, read by name: the same constructor, defaults, equality, hash, text and
    representation as the record it replaced, and it survives pickling and copying."""
    import copy
    import pickle

    span = ast.Span("a.rulebook", 3, 5, end_line=4, end_column=2)
    assert (span.file, span.line, span.column, span.end_line, span.end_column) == ("a.rulebook", 3, 5, 4, 2)
    assert span == ast.make_span(("a.rulebook", 3, 5, 4, 2)) and type(ast.make_span(tuple(span))) is ast.Span
    assert hash(span) == hash(ast.Span("a.rulebook", 3, 5, 4, 2)) and span != ast.Span("a.rulebook", 3, 5, 4, 3)
    assert ast.NO_SPAN == ast.Span("<input>", 1, 1, 1, 1) == ast.Span()
    assert str(span) == "a.rulebook:3:5"
    assert repr(span) == "Span(file='a.rulebook', line=3, column=5, end_line=4, end_column=2)"
    for again in (pickle.loads(pickle.dumps(span)), copy.copy(span), copy.deepcopy(span)):
        assert again == span and type(again) is ast.Span
