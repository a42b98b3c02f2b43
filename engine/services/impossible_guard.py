"""The search that guards the checker's "can never apply" proofs: a warning is dropped when a hand steered by the
item's condition does score the item.

The checker's proof (``ruledsl.check.unsatisfiable``) is meant to be sound, and this search is its guard: a warning
that a rule an organiser wrote can never apply, when a hand shows it does, would mislead them more than saying
nothing. The search runs in the engine, not in ``ruledsl`` (which never imports the engine), and it only ever
removes a warning: a search that finds no hand proves nothing.

A hand can list the item only if the item's own condition holds on one of the hand's readings: nothing else puts
its name in a score's yaku list when no other item of the rulebook bears that name (an exception is listed under
its own name, and only where its target's condition holds). So each steered hand is first read under the
rulebook's settings alone and the item's condition tested on its readings, and only a hand where it holds (or
where that cannot be told: an error, a fact the valuation sets) is scored under the whole rulebook, whose scorer
is built the first time such a hand comes. For a condition that indeed no hand meets, no hand is scored and no
scorer of the whole rulebook is built; and when the condition's part that reads only the situation's flags is
false whatever their values (``tsumo and ron``), no hand is even drawn. ``tests/cli/test_impossible_guard.py`` holds the outcome equal to scoring
every hand under the whole rulebook (``fast=False``).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

from engine.core import tiles as T
from engine.core.errors import EngineError
from engine.core.situation import FLAG_FIELDS, Situation
from engine.scoring.facts import READING_FACTS, HandFacts, reading_key, reading_tables, situation_facts
from engine.scoring.prepared import LIMIT_INPUTS, PAYMENT_INPUTS, FastRule, fast_rule
from engine.scoring.score import Scorer
from ruledsl.compile import compile_expr, compile_rulebook, compile_settings
from ruledsl.diagnostics import Diagnostic, RulebookError
from ruledsl.fast import reads
from ruledsl.nodes import Rule
from ruledsl.resolve import ResolvedItem, ResolvedRulebook

GUARD_HANDS = 200  # steered hands tried per flagged item: a small budget, `riichi check` stays quick

# The facts a valuation writes into a reading's table as it values it (``engine.scoring.valuation``: the yaku found,
# han, fu, the base and payers): a condition reading one may see a value another valuation of the same table left,
# so the item's condition is not tested alone then and every hand is scored under the whole rulebook.
VALUATION_FACTS = LIMIT_INPUTS | PAYMENT_INPUTS | {"__yaku__", "raw_fu"}


class WholeScorer:
    """The scorer of the whole rulebook, built the first time it is asked for: the guard asks only when a hand
    passes the item's own test, and the examples step then takes the same scorer instead of building a second."""

    def __init__(self, resolved: ResolvedRulebook) -> None:
        self.resolved = resolved
        self.scorer: Scorer | None = None
        self.failed = False

    def get(self) -> Scorer | None:
        """The scorer, or None when the rulebook cannot make one (the examples step reports why)."""
        if self.scorer is None and not self.failed:
            try:
                self.scorer = Scorer(compile_rulebook(self.resolved, checked=True))  # a file the checker found clean
            except (RulebookError, EngineError):
                self.failed = True
        return self.scorer


def guard_impossible(
    resolved: ResolvedRulebook, diagnostics: list[Diagnostic], flagged: list[Diagnostic], whole: WholeScorer, *, fast: bool = True
) -> None:
    """Remove from ``diagnostics`` each of its "can never apply" warnings ``flagged`` whose item a steered hand
    scores. ``fast=False``: every steered hand scored under the whole rulebook (the full search, which the fast one
    must equal)."""
    probe = _settings_scorer(resolved) if fast else None
    items = _flagged_items(resolved)
    for diagnostic in flagged:
        item = items.get(diagnostic.span)
        if item is None:
            continue
        test = _condition_test(resolved, item, probe) if probe is not None else None
        found = _scores_somewhere(whole, item, test, probe or whole.get())
        if found is None:  # the whole rulebook cannot score: no warning is dropped
            return
        if found:
            diagnostics.remove(diagnostic)


def _settings_scorer(resolved: ResolvedRulebook) -> Scorer | None:
    """A scorer of the rulebook's settings and no rule: it reads a request and builds its facts as the whole
    rulebook's scorer does (both come from the settings alone), at a fraction of the cost."""
    try:
        return Scorer(compile_settings(resolved))
    except (RulebookError, EngineError):  # the whole rulebook's scorer refuses it too: the full search decides
        return None


def _flagged_items(resolved: ResolvedRulebook) -> dict[Any, ResolvedItem]:
    """The yaku and yakuman by the place of their `when` (only those show in a score's yaku list), the first
    where two share one: a warning points at the condition it concerns."""
    found: dict[Any, ResolvedItem] = {}
    for item in resolved.items.values():
        when = item.fields.get("when")
        if item.kind in ("yaku", "yakuman") and when is not None:
            found.setdefault(when.value.span, item)
    return found


def _condition_test(resolved: ResolvedRulebook, item: ResolvedItem, probe: Scorer) -> Callable[[dict[str, Any]], bool] | None:
    """Whether a request may list the item: False only when the item's condition is false on every reading of
    the hand. None when that test does not bound the listing (another item bears the name, or the condition
    reads what a valuation writes): every hand is then scored under the whole rulebook."""
    if sum(1 for other in resolved.items.values() if other.name == item.name) > 1:
        return None
    when = item.fields["when"]
    rule = Rule(item.kind, item.name, item.title or item.name, item.clause, compile_expr(when.value), {})
    fast = fast_rule(rule)
    condition = fast.when  # the closure the whole rulebook's scorer calls for this item
    read = reads(rule.when)
    if read is None or read & VALUATION_FACTS:
        return None
    prepared = probe.prepared
    if _false_whatever_the_flags(fast, prepared.players):
        return NEVER

    def may_list(request: dict[str, Any]) -> bool:
        try:
            hand, situation, _verdicts, dora, ura = probe.inputs.read(request)
            templates = READING_FACTS[reading_key(hand.counts, T.KIND_OF[hand.win], not situation.tsumo)]
            facts = HandFacts(hand, situation, dora, ura, prepared.successors, prepared.players, situation_facts(situation, prepared.players))
            return any(map(condition, reading_tables(facts, templates, prepared.reading_ahead)))
        except Exception:  # noqa: BLE001 - not told here (bad input, an error of the rule): the whole scorer says
            return True

    return may_list


def _never(request: dict[str, Any]) -> bool:
    return False


NEVER = _never  # the test of an item no hand lists: its steered hands are not even drawn

# The situation's yes-or-no facts (every flag, ``ron``, ``dealer``) and ``closed``: a condition's part that reads
# only these is tried on every situation built from every combination of the flags it names and of those that the
# facts said of the situation read (``ron`` of ``tsumo``, ``riichi`` of ``double_riichi`` too, ``dealer`` of the
# seat wind: ``SAID_FROM``; ``tests/cli/test_impossible_guard.py`` checks that no yes-or-no fact reads another field).
SAID_FROM = ("tsumo", "riichi", "double_riichi")
FLAG_FACTS = frozenset(name for name, value in situation_facts(Situation(), 4).items() if type(value) is bool) | {"closed"}
MAX_FLAGS = 8  # at most 2 x 2^8 x 2 situations tried


def _false_whatever_the_flags(rule: FastRule, players: int) -> bool:
    """Whether the conjuncts of the condition that read only yes-or-no facts of the situation (``static_test``,
    which the whole rulebook's tables decide per situation) are false in every situation, open or closed: then the
    condition is false on every hand (or raises, which no listing follows), so no hand lists the item, whatever
    hands are drawn. ``tsumo and ron`` is; ``haitei and wait_count == 9`` is not told here."""
    test = rule.static_test
    if test is None:
        return False
    check, names, _whole = test
    if not names <= FLAG_FACTS:
        return False
    varied = sorted({*SAID_FROM, *(n for n in names if n in FLAG_FIELDS)})
    if len(varied) > MAX_FLAGS:
        return False
    try:
        for values in product((False, True), repeat=len(varied)):
            flags: dict[str, Any] = dict(zip(varied, values, strict=True))
            for seat in ("E", "S"):
                facts = situation_facts(Situation(seat_wind=seat, **flags), players)
                for closed in (False, True):
                    facts["closed"] = closed
                    if check(facts):
                        return False
    except Exception:  # noqa: BLE001 - not told here: the hands decide
        return False
    return True


def _scores_somewhere(whole: WholeScorer, item: ResolvedItem, test: Callable[[dict[str, Any]], bool] | None, kinds_from: Scorer | None) -> bool | None:
    """Whether one of the item's steered hands scores it under the whole rulebook; None when that rulebook cannot
    score. ``test``: the hands it rejects cannot list the item, and are not scored."""
    if kinds_from is None:
        return None
    if test is NEVER:
        return False
    # here, not at the top: the steered search (and its random tables) serves only a file with such a warning
    from engine.diff.steer import SteeredHands, hints_of

    hints = hints_of([f.value for f in item.fields.values()])
    hands = SteeredHands(hints, kinds_from.prepared.allowed_kinds, kinds_from.prepared.red_fives)
    for _, request in zip(range(GUARD_HANDS), hands, strict=False):
        if test is not None and not test(request):
            continue
        scorer = whole.get()
        if scorer is None:
            return None
        try:
            response = scorer.score(request)
        except EngineError:
            continue
        if any(y["id"] == item.name for y in response["yaku"]):
            return True
    return False


__all__ = ["GUARD_HANDS", "WholeScorer", "guard_impossible"]
