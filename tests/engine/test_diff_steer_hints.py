"""The hints a steered search reads from a rule (``engine.diff.steer.hints_of``) reach every expression through
``ruledsl.ast.children``, the one walker of the syntax tree: the same hints as the generic walk over every field
of every node it replaced (kept here as the reference), on every rule of the repository's rulebooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.core import tiles as T
from engine.diff import steer
from ruledsl import ast, parsed_cache
from ruledsl.parser import parse_uncached
from ruledsl.record import fields, is_record

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*parsed_cache.bundled_files(), *(ROOT / "tests" / "ruledsl" / "fixtures" / "good").glob("*.rulebook")})


def reference_walk(node: Any, hints: steer.Hints) -> None:
    """Every field of every record, spans aside, lists and tuples entered: the walk before ``ast.children``."""
    if isinstance(node, ast.Tiles):
        try:
            hints.kinds.update(T.kind_of(c) for c in T.parse_tiles(node.text))
        except T.NotationError:
            pass
        return
    if isinstance(node, ast.Name):
        name = node.id
        hints.names.add(name)
        if name in steer.FLAG_WIN:
            hints.flags.add(name)
        elif name in ("seven_pairs", "thirteen_orphans"):
            hints.shapes.add(name)
        elif name in steer.SUITS:
            hints.kinds.update(k for k in range(T.KINDS) if T.suit_of(k) == name)
        return
    if isinstance(node, ast.Call):
        hints.names.add(node.func)
    if isinstance(node, (list, tuple)) and not isinstance(node, ast.Span):
        for child in node:
            reference_walk(child, hints)
        return
    for name in (f.name for f in fields(node)) if is_record(node) else ():
        if name != "span" and name != "func_span":
            reference_walk(getattr(node, name), hints)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_hints_are_the_generic_walks(path: Path) -> None:
    tree = parse_uncached(path.read_text(encoding="utf-8"), path.name)
    exprs = [f.value for item in tree.items for f in item.fields]
    for expr in exprs:
        want = steer.Hints()
        reference_walk(expr, want)
        assert steer.hints_of([expr]) == want, str(expr.span)
    whole = steer.Hints()
    for expr in exprs:
        reference_walk(expr, whole)
    assert steer.hints_of(exprs) == whole
