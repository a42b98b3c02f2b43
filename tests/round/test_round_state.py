"""The state of a hand is one declared record: ``RoundState`` (engine/round/state.py) declares every field of a
round once, typed, and ``Round`` adds only its public API. Both it and ``Seat`` are slotted, so a misspelt field
is an ``AttributeError`` where it is written; and, read from the source, every field a module of the round
engine writes is one the record declares, and ``Round.__init__`` gives every declared field its first value."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.api import rulebook
from engine.round import Round
from engine.round.state import RoundState, Seat

ROUND_PACKAGE = Path(__file__).resolve().parents[2] / "engine" / "round"
DECLARED = frozenset(RoundState.__slots__)


def test_the_record_declares_its_fields_as_slots_and_round_adds_none() -> None:
    annotated = [name for name in RoundState.__annotations__ if not name.startswith("__")]
    assert sorted(DECLARED) == sorted(annotated)
    assert Round.__slots__ == ()
    r = Round(rulebook("tenhou"), seed=1)
    assert not hasattr(r, "__dict__")
    with pytest.raises(AttributeError):
        r.reach_pendng = True  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        r.seats[0].ipatsu = True  # type: ignore[attr-defined]
    assert not hasattr(Seat(), "__dict__")


def _round_params(function: ast.FunctionDef) -> set[str]:
    """The parameters of ``function`` annotated as a round (``RoundState`` or ``Round``)."""
    args = function.args
    return {
        a.arg
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
        if isinstance(a.annotation, ast.Name) and a.annotation.id in ("RoundState", "Round")
    }


def _written_fields() -> dict[str, set[str]]:
    """Every attribute written on a round in the round package: on a parameter annotated as a round, and on
    ``self`` in the methods of ``Round``; by field name, with the places."""
    written: dict[str, set[str]] = {}
    for path in sorted(ROUND_PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        round_methods = {
            id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name == "Round" for f in c.body if isinstance(f, ast.FunctionDef)
        }
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            names = _round_params(function) | ({"self"} if id(function) in round_methods else set())
            for node in ast.walk(function):
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id in names:
                    written.setdefault(node.attr, set()).add(f"{path.name}:{node.lineno}")
    return written


def test_every_field_written_on_a_round_is_declared() -> None:
    written = _written_fields()
    assert {"phase", "actor", "pending", "steady_changes"} <= set(written)  # the walk found the writers
    undeclared = {name: sorted(places) for name, places in written.items() if name not in DECLARED}
    assert not undeclared, f"fields written on a round that RoundState does not declare: {undeclared}"


def test_round_init_gives_every_declared_field_its_first_value() -> None:
    tree = ast.parse((ROUND_PACKAGE / "round.py").read_text(encoding="utf-8"))
    init = next(
        f for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and c.name == "Round" for f in c.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"
    )
    assigned = {
        node.attr for node in ast.walk(init) if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id == "self"
    }
    assert assigned == DECLARED, f"declared but not set: {sorted(DECLARED - assigned)}; set but not declared: {sorted(assigned - DECLARED)}"


def test_an_empty_seat_is_the_record_built_with_its_defaults() -> None:
    """``Seat.empty`` (four per hand dealt) sets every field itself: each is the default ``Seat()`` gives, of the
    same type, and no two seats share a mutable value."""
    built, empty = Seat(), Seat.empty()
    for name in Seat.__slots__:
        assert getattr(empty, name) == getattr(built, name), name
        assert type(getattr(empty, name)) is type(getattr(built, name)), name
    assert empty == built
    other = Seat.empty()
    for name in ("hand", "counts", "melds", "discards", "discard_kinds", "pon_kinds"):
        assert getattr(other, name) is not getattr(empty, name), name


def test_the_rounds_of_a_rulebook_share_one_kind_set_equal_to_the_rulebooks_kinds() -> None:
    """``Round.kinds`` is the tile set's kinds as a frozenset, the same object in every round of a rulebook (the
    waits cache matches it by identity): the one its ``RoundRules`` holds."""
    from engine.round.rules import round_rules

    for name in ("tenhou", "house"):
        rules = round_rules(rulebook(name))
        first, second = Round(rules, seed=1), Round(rules, seed=2)
        assert first.kinds == frozenset(rules.kinds)
        assert first.kinds is second.kinds is rules.kind_set
