"""Small builders for game-level tests: a rulebook that differs from a bundled one in a few settings, and
settlement dicts in the contract's shape."""

from __future__ import annotations

from typing import Any

from engine.game.rules import GameRules
from ruledsl.compile import Rulebook, load


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    return str(value)


def variant(base: str = "house", table: dict[str, Any] | None = None, **game: Any) -> Rulebook:
    """A compiled rulebook `extends base` overriding the given `settings table` and `settings game` keys."""
    text = f'rulebook variant "a test variant" extends {base}\n'
    for group, values in (("table", table or {}), ("game", game)):
        if values:
            body = "\n".join(f"  {k} = {_literal(v)}" for k, v in values.items())
            text += f'\n@clause("test")\noverride settings {group} {{\n{body}\n}}\n'
    return load("variant", text=text, file="variant.rulebook")


def rules(base: str = "house", table: dict[str, Any] | None = None, **game: Any) -> GameRules:
    return GameRules.of(variant(base, table, **game))


def settlement(
    kind: str = "win",
    deltas: tuple[int, ...] = (0, 0, 0, 0),
    *,
    dealer_next: int,
    renchan: bool,
    winners: tuple[int, ...] = (),
    tenpai: tuple[int, ...] | None = None,
    honba_next: int = 0,
    sticks_next: int = 0,
) -> dict[str, Any]:
    """A round settlement (contract.md, "Round and game") with just what the game reads."""
    out: dict[str, Any] = {
        "kind": kind,
        "abortive": None,
        "wins": [{"seat": s, "from": s} for s in winners],
        "deltas": list(deltas),
        "honba_next": honba_next,
        "sticks_next": sticks_next,
        "dealer_next": dealer_next,
        "renchan": renchan,
        "clauses": [],
    }
    if tenpai is not None:
        out["tenpai"] = [seat in tenpai for seat in range(len(deltas))]  # the round engine's shape
    return out
