"""Consistency checks across settings: what each value means only together with others.

`check.py` validates each setting alone (its type, its enumerated choices); here the checks that need two or
more settings, or the elements of a list: uma has one entry per player and sums to 0, the oka return is not
below the start points, a list names only outcomes the engine knows, and no setting is written that the others
make inert (an extension without a target, a target without an extension, a yame threshold without yame).
Every finding points at the value to change, with a help line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.diagnostics import did_you_mean
from ruledsl.resolve import ResolvedRulebook

# What a round can end with, as `renchan`/`honba_increase`/`honba_reset` name it (the round engine's tags).
ROUND_OUTCOMES = ("dealer_win", "non_dealer_win", "dealer_tenpai", "dealer_noten", "exhaustive", "abortive")
OUTCOME_LISTS = {
    "renchan": ("dealer_win", "dealer_tenpai", "abortive"),
    "honba_increase": ROUND_OUTCOMES,
    "honba_reset": ROUND_OUTCOMES,
}
WINDS = ("E", "S", "W", "N")
WIND_LISTS = {("table", "rounds"), ("game", "extension_rounds")}
# (setting that is inert, the setting(s) that give it an effect, how to say it)
NEEDS: tuple[tuple[tuple[str, str], tuple[tuple[str, str], ...], str], ...] = (
    (("game", "extension_rounds"), (("game", "target_points"),), "extension rounds are played only while nobody holds `target_points`"),
    (("game", "extension_ends"), (("game", "extension_rounds"),), "`extension_ends` says how `extension_rounds` end"),
    (("game", "target_points"), (("game", "extension_rounds"),), "below the target the game goes on into `extension_rounds`"),
    (("game", "yame_min_points"), (("game", "agari_yame"), ("game", "tenpai_yame")), "the threshold applies to agari-yame and tenpai-yame"),
)


class Sink(Protocol):
    """Where diagnostics go (the checker's collector)."""

    def error(self, message: str, span: ast.Span, help: str | None = None, settings: tuple[str, ...] = ()) -> None: ...


def check_settings(rulebook: ResolvedRulebook, sink: Sink) -> None:
    """Report every inconsistency between the settings of a resolved rulebook."""
    fields = _setting_fields(rulebook)
    _check_uma(fields, sink)
    _check_floating_uma(fields, sink)
    _check_oka(fields, sink)
    _check_lists(fields, sink)
    _check_inert(fields, sink)
    _check_rounds(fields, sink)


def _setting_fields(rulebook: ResolvedRulebook) -> dict[tuple[str, str], ast.Field]:
    out: dict[tuple[str, str], ast.Field] = {}
    for (kind, group), item in rulebook.items.items():
        if kind == "settings":
            for name, f in item.fields.items():
                out[(group, name)] = f
    return out


def _value(expr: ast.Expr) -> Any:
    """A plain literal's value (None for anything else: `check.py` already reports it)."""
    match expr:
        case ast.Int() | ast.Bool() | ast.Str():
            return expr.value
        case ast.Negate(operand=ast.Int() as inner):
            return -inner.value
        case ast.ListLit():
            return [_value(item) for item in expr.items]
    return None


def _get(fields: dict[tuple[str, str], ast.Field], group: str, name: str) -> Any:
    f = fields.get((group, name))
    return None if f is None else _value(f.value)


def _ints(values: Any) -> list[int] | None:
    if isinstance(values, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return values
    return None


def _check_uma(fields: dict[tuple[str, str], ast.Field], sink: Sink) -> None:
    f = fields.get(("game", "uma"))
    uma = _ints(_get(fields, "game", "uma"))
    if f is None or not uma:
        return
    players = _get(fields, "table", "players")
    if isinstance(players, int) and len(uma) != players:
        sink.error(
            f"`uma` has {len(uma)} entries for {players} players",
            f.value.span,
            "write one entry per place, first to last (or `uma = []` for none)",
        )
    if sum(uma) != 0:
        sink.error(
            f"`uma` sums to {sum(uma)}, not 0",
            f.value.span,
            "what the top places gain the bottom places pay: the entries must sum to 0",
        )


def _check_floating_uma(fields: dict[tuple[str, str], ast.Field], sink: Sink) -> None:
    f = fields.get(("game", "floating_uma"))
    table = _get(fields, "game", "floating_uma")
    players = _get(fields, "table", "players")
    if f is None or not isinstance(table, list) or not isinstance(f.value, ast.ListLit):
        return
    if isinstance(players, int) and len(table) > players - 1:
        sink.error(
            f"`floating_uma` has {len(table)} entries; at most {players - 1} players can float at a table of {players}",
            f.value.span,
            "entry k is the uma when k players finish at or above the return points, from 1 to players - 1",
        )
    for k, (entry, expr) in enumerate(zip(table, f.value.items, strict=True), 1):
        uma = _ints(entry)
        if uma is None:
            continue
        if isinstance(players, int) and len(uma) != players:
            sink.error(f"`floating_uma` entry {k} has {len(uma)} entries for {players} players", expr.span, "write one entry per place, first to last")
        if sum(uma) != 0:
            sink.error(f"`floating_uma` entry {k} sums to {sum(uma)}, not 0", expr.span, "what the top places gain the bottom places pay: the entries must sum to 0")


def _check_oka(fields: dict[tuple[str, str], ast.Field], sink: Sink) -> None:
    f = fields.get(("game", "oka_return"))
    ret, start = _get(fields, "game", "oka_return"), _get(fields, "table", "start_points")
    if f is not None and isinstance(ret, int) and isinstance(start, int) and ret < start:
        sink.error(
            f"`oka_return` ({ret}) is below `start_points` ({start})",
            f.value.span,
            "the oka is what every player returns above the start points: use at least the start points",
        )


def _check_lists(fields: dict[tuple[str, str], ast.Field], sink: Sink) -> None:
    for (group, name), f in fields.items():
        allowed: Iterable[str] | None = None
        if group == "game" and name in OUTCOME_LISTS:
            allowed = OUTCOME_LISTS[name]
        elif (group, name) in WIND_LISTS:
            allowed = WINDS
        elif name in V.SETTINGS.get(group, {}) and V.SETTINGS[group][name].type.startswith("list of"):
            allowed = V.SETTINGS[group][name].choices or None  # a list setting's enumerated elements
        if allowed is None or not isinstance(f.value, ast.ListLit):
            continue
        for item in f.value.items:
            if isinstance(item, ast.Str) and item.value not in allowed:
                sink.error(
                    f"`{name}` cannot contain \"{item.value}\"",
                    item.span,
                    did_you_mean(item.value, allowed) or f"choices: {', '.join(allowed)}",
                )


def _check_inert(fields: dict[tuple[str, str], ast.Field], sink: Sink) -> None:
    for (group, name), needs, why in NEEDS:
        f = fields.get((group, name))
        if f is None or _get(fields, group, name) in (None, [], False):
            continue
        if any(_get(fields, g, n) not in (None, [], False) for g, n in needs):
            continue
        wanted = " or ".join(f"`{n}`" for _g, n in needs)
        sink.error(f"`{name}` has no effect without {wanted}", f.value.span, why, settings=(name, *(n for _g, n in needs)))


def _check_rounds(fields: dict[tuple[str, str], ast.Field], sink: Sink) -> None:
    f = fields.get(("table", "rounds"))
    if f is not None and _get(fields, "table", "rounds") == []:
        sink.error("`rounds` is empty", f.value.span, "a game plays at least one prevailing wind, e.g. `rounds = [\"E\"]`")
