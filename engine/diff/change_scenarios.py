"""A change between two rulebooks applied alone: the mixed rulebook (A with one item taken as B has it), and the
round or game scenario that A with only that change settles differently from A.

``riichi diff`` (``engine.diff.change_witnesses``) and the search for a rule that keeps another from acting
(``engine.diff.shadowing``) both build these; they live here, below both, so that neither imports the other's module
to get them.
"""

from __future__ import annotations

from typing import Any, overload

from engine.core.errors import EngineError
from engine.scoring.score import Scorer
from ruledsl.compile import Rulebook, compile_rulebook
from ruledsl.diagnostics import RulebookError
from ruledsl.record import replace
from ruledsl.resolve import ResolvedRulebook
from ruledsl.rulebook_changes import Change

ROUND_ITEM_KINDS = ("draw", "abortive_draw", "liability")


def with_change(base: ResolvedRulebook, other: ResolvedRulebook, change: Change) -> ResolvedRulebook:
    """``base`` with the one item (or setting) of ``change`` taken as ``other`` has it; everything else kept."""
    items = dict(base.items)
    if change.kind == "settings":
        key = ("settings", change.group or "")
        mine, theirs = base.items.get(key), other.items.get(key)
        holder = mine or theirs
        if holder is None:
            return base
        fields = dict(mine.fields) if mine else {}
        if theirs is not None and change.name in theirs.fields:
            fields[change.name] = theirs.fields[change.name]
        else:
            fields.pop(change.name, None)
        items[key] = replace(holder, fields=fields)
    else:
        key = (change.kind, change.name)
        if key in other.items:
            items[key] = other.items[key]
        else:
            items.pop(key, None)
    return replace(base, items=items, warnings=[])


# What refusing an invalid mix of two rulebooks raises: the checker's diagnostics, or the scorer's refusal of a
# compiled rulebook. Anything else is a bug, and is not taken for "this side cannot attribute".
REFUSED = (RulebookError, EngineError)


def refusal(e: RulebookError | EngineError) -> str:
    """Why a mix is refused, in words without a file path: the first diagnostic's message, or the error's."""
    if isinstance(e, RulebookError) and e.diagnostics:
        return e.diagnostics[0].message
    return e.message.splitlines()[0] if e.message else type(e).__name__


def _with_changes(a: Scorer, b: Scorer, changes: list[Change], rounds_only: bool = False) -> Scorer | Rulebook:
    """A with these changes taken as B has them (raises what the checker or compiler raises for an invalid mix).
    ``rounds_only``: the mix is wanted for its rounds and game, so a mix of settings no scorer reads is returned as
    a compiled rulebook, to be scored by A's scorer (``scores_as_parent``), with no scorer prepared for it."""
    resolved = a.rulebook.resolved
    for change in changes:
        resolved = with_change(resolved, b.rulebook.resolved, change)
    rulebook = compile_rulebook(resolved, like=a.rulebook)  # A's other rules, compiled once for A
    if rounds_only and scores_as_parent(changes):
        return rulebook  # its scorer would be A's: the same scoring settings and hand rules
    return Scorer(rulebook, like=a)


def scores_as_parent(changes: list[Change]) -> bool:
    """Whether A with these changes scores every hand as A does: each is a setting no scorer reads (the premise of
    ``unread_by_rounds`` too)."""
    return all(c.kind == "settings" and not c.affects_score for c in changes)


@overload
def plus_change(a: Scorer, b: Scorer, change: Change, changes: list[Change]) -> tuple[Scorer, list[Change]]: ...


@overload
def plus_change(a: Scorer, b: Scorer, change: Change, changes: list[Change], *, rounds_only: bool) -> tuple[Scorer | Rulebook, list[Change]]: ...


def plus_change(
    a: Scorer, b: Scorer, change: Change, changes: list[Change], *, rounds_only: bool = False
) -> tuple[Scorer | Rulebook, list[Change]]:
    """A + change; when that mix is refused because the change needs another setting (``target_points`` and
    ``extension_rounds`` only work together, say), A + change + the changes the refusal names, as long as each
    round names a new one. Returns the scorer (with ``rounds_only``, for a mix A's scorer scores, the compiled
    rulebook: ``_with_changes``) and the partner changes taken along."""
    partners: list[Change] = []
    while True:
        try:
            return _with_changes(a, b, [change, *partners], rounds_only), partners
        except RulebookError as e:  # the checker's errors between settings name the settings they are about
            named = {name for d in e.diagnostics for name in d.settings}
            more = [c for c in changes if c.kind == change.kind and c.name in named and c is not change and c not in partners]
            if not more or len(partners) > 4:
                raise
            partners += more


def unread_by_rounds(a: Scorer, changes: list[Change]) -> bool:
    """Whether A with these changes plays every round as A does: each is a setting of a group A writes (so that its
    clauses stay A's) that neither a round (``RoundRules``, ``READ_BY_NAME``) nor a scorer (the scoring settings)
    reads, such as a tie-break or the uma."""
    from engine.round.rules import ROUND_RULE_FIELDS
    from engine.round.witness import READ_BY_NAME

    return all(
        c.kind == "settings"
        and not c.affects_score
        and c.name not in ROUND_RULE_FIELDS
        and c.name not in READ_BY_NAME
        and ("settings", c.group or "") in a.rulebook.resolved.items
        for c in changes
    )


def scenario_or_reason(
    a: Scorer,
    b: Scorer,
    change: Change,
    cache: dict[tuple[int, str], Any],
    changes: list[Change] | None = None,
    *,
    shortcuts: bool = True,
) -> tuple[dict[str, Any] | None, str | None]:
    """For a change no hand can show: a scenario that A with only this change settles differently from A, and
    otherwise why there is none, in words. A setting of the game's (end of game, placement, uma...) is tried on a
    round's end or a final table (`engine.game.witness`); a round's flow rule (and a game setting those leave
    unmoved, such as renchan) on a short scripted round (`engine.round.witness`). ``shortcuts=False`` plays every
    round a change no round reads would play, and under A with the change every script whatever it read under A (the
full computation the shortcuts are tested against)."""
    if change.affects_score:
        return None, None
    from engine.game.witness import same_game
    from engine.game.witness import witness_for as game_witness_for
    from engine.round.rules import ROUND_RULE_FIELDS
    from engine.round.witness import ALIKE, topic_of
    from engine.round.witness import witness_for as round_witness_for

    try:  # A + change (B - change is not needed: a scenario is shown as A against A with this change)
        plus, partners = plus_change(a, b, change, changes or [], rounds_only=shortcuts)
    except REFUSED as e:  # a mix the checker or compiler refuses, as in `isolated`
        why = refusal(e)
        return None, f"{a.rulebook.name} with only this change is not a valid rulebook ({why}), so no scenario shows it alone"
    plus_rulebook = plus.rulebook if isinstance(plus, Scorer) else plus
    game = change.kind == "settings" and change.group in ("game", "table")
    if game:
        found = game_witness_for(a.rulebook, plus_rulebook, b.rulebook)
        if found is not None:
            if partners:  # valid only together: the scenario is of them all, and says so
                found = {**found, "together_with": [c.item for c in partners]}
            return found, None
    if change.kind != "settings" and change.kind not in ROUND_ITEM_KINDS:
        return None, "a rule neither a hand, a round nor a game's end can show on its own"
    topic, kind = topic_of(change.kind, change.name, change.group)
    unread = shortcuts and unread_by_rounds(a, [change, *partners])
    scorer_alike = scores_as_parent([change, *partners])
    played = round_witness_for(  # the scorers: prepared once
        a, plus, topic, kind, cache, whole=b, unread=unread, skip_alike=shortcuts, scorer_alike=scorer_alike,
        scored_by=None if isinstance(plus, Scorer) else a,
    )
    if isinstance(played, dict):
        if partners:
            played = {**played, "together_with": [c.item for c in partners]}
        return played, None
    if game:
        round_field = change.name in ROUND_RULE_FIELDS
        if same_game(a.rulebook, plus_rulebook) and (not round_field or played == ALIKE):
            return None, ALIKE
        if played.startswith("where it would matter"):  # a round's own rule decides instead: the better reason
            return None, played
        return None, (
            "no round's end, final table or scripted round settles differently with this change alone: "
            "it matters only together with the other differences"
        )
    return None, played


__all__ = ["REFUSED", "ROUND_ITEM_KINDS", "plus_change", "refusal", "scenario_or_reason", "scores_as_parent", "unread_by_rounds", "with_change"]
