"""``riichi diff``'s engine half: the item differences of ``ruledsl.rulebook_changes``, each shown on a hand it changes.

A file with several changes (open hands losing a yaku, a rounded-up limit and a local yaku, say) moves many hands for several reasons
at once, so "a hand that scores differently and mentions the item" blames the wrong rule. A witness for one
change must differ *because of that change*: ``isolated`` builds A with only that change applied (A + c) and B
with only that change undone (B - c), and a hand is blamed on c only when its result moves with c. The best
witness is one no other change touches: A + c scores it as B does and B - c as A does. When none exists the
report says so. Rare rules that random hands never show are searched for with hands built from the changed
item's own condition (``engine.diff.steer``).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from engine.core import tiles as T
from engine.core.errors import EngineError
from engine.diff.change_scenarios import (
    REFUSED,
    ROUND_ITEM_KINDS,
    plus_change,
    scenario_or_reason,
    with_change,
)
from engine.diff.steer import Hints, SteeredHands, hints_of, suit_swaps
from engine.diff.witness import Candidate, Outcome, Pooled, Search, complexity, fitted, outcome
from engine.scoring.example_notation import request_from_example
from engine.scoring.score import Scorer
from ruledsl.compile import compile_rulebook
from ruledsl.record import record
from ruledsl.resolve import ResolvedItem
from ruledsl.rulebook_changes import Change, diff

# How many differing pooled hands are tried per change (simplest first), and how many hands a steered search
# builds for a change the pool did not show, in rounds of STEER_ROUND.
SCAN_LIMIT = 400
STEER_BUDGET = 1200
STEER_ROUND = 150


Involved = Callable[[dict[str, Any], Outcome, Outcome], bool]


@record(frozen=False, slots=False)
class DiffReport:
    a: str
    b: str
    changes: list[tuple[Change, dict[str, Any] | None]]
    searched: int
    counts: dict[str, int] | None = None  # searched hands by origin: example, random, steered
    # per change (by position): a game-flow setting's scenario, a round's end or a final table that this change alone
    # settles differently (`engine.game.witness`); None where there is none or the change is not a game setting
    scenarios: list[dict[str, Any] | None] | None = None
    # per change: why a flow change has no scenario, in words (None where it has one, or is a scoring change)
    reasons: list[str | None] | None = None

    def scenario(self, index: int) -> dict[str, Any] | None:
        return self.scenarios[index] if self.scenarios else None

    def reason(self, index: int) -> str | None:
        return self.reasons[index] if self.reasons else None

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "changes": [
                {
                    "item": change.item,
                    "change": change.change,
                    "a": change.a,
                    "b": change.b,
                    "clause_a": change.clause_a,
                    "clause_b": change.clause_b,
                    "affects_score": change.affects_score,
                    "witness": witness,
                    "scenario": self.scenario(index),
                    **({"no_scenario": self.reason(index)} if self.reason(index) else {}),
                }
                for index, (change, witness) in enumerate(self.changes)
            ],
            "searched": self.searched,
            "searched_by_origin": self.counts or {},
        }


# ---- one change applied alone ------------------------------------------------------------------------------------


def isolated(a: Scorer, b: Scorer, change: Change) -> tuple[Scorer | None, Scorer | None]:
    """(A + change, B - change) as scorers; None for a side whose mix is not a valid rulebook (an exception left
    without the item it refines, say)."""
    out: list[Scorer | None] = []
    for base, other in ((a, b), (b, a)):
        try:
            mixed = with_change(base.rulebook.resolved, other.rulebook.resolved, change)
            # every rule but the changed one is the base's: compiled and prepared once, for the base
            out.append(Scorer(compile_rulebook(mixed, like=base.rulebook), like=base))
        except REFUSED:  # a mix the checker or compiler refuses: that side cannot attribute
            out.append(None)
    return out[0], out[1]


# ---- which hands a change could be blamed for at all (a cheap filter before the flip test) -------------------


def involved_test(change: Change, a: Scorer, b: Scorer) -> Involved:
    """A cheap necessary condition: the hands a change can move at all (its yaku among the scored ones, its fu
    item among the fu, its limit tier reached, a red five only one side has...); the flip test decides."""
    names = _ids(change)
    kind = change.target[0] if change.target else change.kind
    if change.kind == "settings":
        return _setting_test(change, a, b)
    # a hand rule is blamed only where both rulebooks accept the hand: a tile-set difference is its own change
    if kind in ("yaku", "yakuman", "bonus"):
        return lambda req, oa, ob: oa.ok and ob.ok and bool((oa.yaku | ob.yaku) & names)
    if kind == "fu":
        return lambda req, oa, ob: oa.ok and ob.ok and bool((oa.fu_items | ob.fu_items) & names) and oa.fu != ob.fu
    if kind == "limit":
        tiers = {_tier(s, change.name) for s in (a, b)} - {None}
        return lambda req, oa, ob: oa.ok and ob.ok and (oa.limit in tiers or ob.limit in tiers)
    return lambda req, oa, ob: oa.ok and ob.ok


def _tier(scorer: Scorer, name: str) -> str | None:
    for rule in scorer.rulebook.of("limit"):
        if rule.name == name:
            tier = rule.fields.get("tier")
            return tier({}) if tier is not None else rule.name
    return None


@record(slots=False)
class ByRequest:
    """An involvement test that reads the hand alone (a red five, an indicator, a tile kind): ``ranked`` can set a
    hand aside with it before scoring the hand."""

    test: Callable[[dict[str, Any]], bool]

    def __call__(self, req: dict[str, Any], oa: Outcome, ob: Outcome) -> bool:
        return self.test(req)


def _setting_test(change: Change, a: Scorer, b: Scorer) -> Involved:
    if change.name == "red_fives":
        differing_reds = a.prepared.red_fives ^ b.prepared.red_fives

        def reds(req: dict[str, Any]) -> bool:
            codes = T.parse_tiles(req["hand"]) + [c for m in req.get("melds", []) for c in T.parse_tiles(m["tiles"])]
            return any(c in differing_reds for c in codes)

        return ByRequest(reds)
    if change.name == "dora_cycles":
        differing = {k for k in range(T.KINDS) if a.prepared.successors.get(k) != b.prepared.successors.get(k)}

        def dora(req: dict[str, Any]) -> bool:
            shown = T.parse_tiles(req.get("dora_indicators", "")) + T.parse_tiles(req.get("ura_indicators", ""))
            return any(T.kind_of(c) in differing for c in shown)

        return ByRequest(dora)
    if change.name == "tiles":
        differing_kinds = a.prepared.allowed_kinds ^ b.prepared.allowed_kinds

        def tiles(req: dict[str, Any]) -> bool:
            codes = T.parse_tiles(req["hand"]) + [c for m in req.get("melds", []) for c in T.parse_tiles(m["tiles"])]
            return any(T.kind_of(c) in differing_kinds for c in codes)

        return ByRequest(tiles)
    if change.name == "players":
        return lambda req, oa, ob: oa.ok and ob.ok and bool(req.get("tsumo"))
    if change.name == "kita":
        return ByRequest(lambda req: bool(req.get("kita")))
    # a setting may decide whether a hand wins at all (atozuke, shibari_han): one side accepting it is enough
    return lambda req, oa, ob: oa.ok or ob.ok


# ---- blame -------------------------------------------------------------------------------------------------------


@record(slots=False)
class Blame:
    """How one differing hand relates to one change: does its result move when only that change moves?"""

    moves_a: bool  # A + c scores it differently from A
    moves_b: bool  # B - c scores it differently from B
    alone: bool  # A + c scores it as B, and B - c as A: no other change contributes

    @property
    def rank(self) -> int | None:
        if self.alone:
            return 0
        if self.moves_a and self.moves_b:
            return 1
        if self.moves_a or self.moves_b:
            return 2
        return None


def blame(candidate: Candidate, plus: Scorer | None, minus: Scorer | None) -> Blame:
    moves_a = moves_b = False
    alone = plus is not None or minus is not None
    if plus is not None:
        o = outcome(plus, fitted(candidate.request, plus.prepared.red_fives))
        moves_a = o.key != candidate.a.key
        alone = alone and o.key == candidate.b.key
    if minus is not None:
        o = outcome(minus, fitted(candidate.request, minus.prepared.red_fives))
        moves_b = o.key != candidate.b.key
        alone = alone and o.key == candidate.a.key
    return Blame(moves_a, moves_b, alone)


def _ids(change: Change) -> set[str]:
    names = {change.name}
    if change.group:
        names.add(change.group)  # examples written under a settings group exercise its keys
    if change.target:
        names.add(change.target[1])
    return names


def _order(change: Change) -> Callable[[Candidate], tuple[int, ...]]:
    """How ``pick`` orders differing hands: the item's own examples first, then hands whose points differ (not only
    their yaku), then the simplest."""
    prefer = _ids(change)
    return lambda c: (0 if c.item in prefer else 1, int(c.a.total == c.b.total and c.a.ok == c.b.ok), *complexity(c.request))


def pick(
    candidates: list[Candidate], change: Change, plus: Scorer | None, minus: Scorer | None, involved: Involved
) -> tuple[Candidate, Blame] | None:
    """The best-blamed, then simplest, differing hand: the item's own examples first, then fewest calls and flags."""
    ordered = sorted((c for c in candidates if c.differs and involved(c.request, c.a, c.b)), key=_order(change))
    return _scan(ordered, change, plus, minus)


def _scan(
    ordered: Iterable[Candidate], change: Change, plus: Scorer | None, minus: Scorer | None
) -> tuple[Candidate, Blame] | None:
    """The first hand (of the first ``SCAN_LIMIT``) that only this change moves, else the best-blamed one."""
    prefer = _ids(change)
    best: tuple[Candidate, Blame] | None = None
    for candidate in islice(ordered, SCAN_LIMIT):
        if plus is None and minus is None:  # no mix compiles: fall back to hands whose lines name the item
            named = candidate.a.yaku | candidate.b.yaku | candidate.a.fu_items | candidate.b.fu_items
            if named & prefer:
                return candidate, Blame(False, False, False)
            continue
        found = blame(candidate, plus, minus)
        rank = found.rank
        if rank is None:
            continue
        if best is None or rank < best[1].rank:  # type: ignore[operator]
            best = (candidate, found)
        if rank == 0:
            break
    return best


def ranked(search: Search, change: Change, involved: Involved) -> Iterator[Candidate]:
    """The pool's differing hands that the change may move, in ``pick``'s order, each pooled hand scored only when
    the order reaches it.

    A hand not scored yet stands in the order at the best place it could take (its item's place, then ``0``: its
    points may differ, then its complexity, all known without scoring); when it comes up it is scored and, if it
    differs and the change may move it, put back at its real place, which is never earlier. Ties keep pool order,
    as ``sorted`` does. So the hands come out exactly as ``sorted`` puts them, and a scan that stops early never
    scores the hands behind the one it stops at."""
    order, prefer = _order(change), _ids(change)
    entries, test = search.entries, involved.test if isinstance(involved, ByRequest) else None
    # the random hands not scored yet come from the order every change starts from (``Search.waiting``, sorted),
    # read only as far as the search goes: each is skipped there if scored since or set aside by ``test``; the
    # item examples not scored yet and the hands scored so far wait in a heap, at their places in this change's
    # order, and the two are merged (keys and indices are unique: the order is the one sorting all would give)
    waiting = search.waiting()
    heap: list[tuple[tuple[int, ...], int, Candidate | None]] = []
    for index in search.named:
        entry = entries[index]
        if type(entry) is Pooled and (test is None or test(entry.request)):
            heapq.heappush(heap, ((0 if entry.item in prefer else 1, 0, *search.simplicity[index]), index, None))
    for index in search.scored:
        entry = entries[index]
        if isinstance(entry, Candidate) and entry.differs and involved(entry.request, entry.a, entry.b):
            heapq.heappush(heap, (order(entry), index, entry))
    at, end = 0, len(waiting)
    while True:
        while at < end and not (type(entry := entries[waiting[at][1]]) is Pooled and (test is None or test(entry.request))):
            at += 1
        if at < end and (not heap or waiting[at] < heap[0]):
            key, index, candidate = waiting[at]
            at += 1
        elif heap:
            key, index, candidate = heapq.heappop(heap)
        else:
            return
        if candidate is None:
            candidate = search.candidate(index)
            if not (candidate.differs and involved(candidate.request, candidate.a, candidate.b)):
                continue
            real = order(candidate)
            if real != key:
                heapq.heappush(heap, (real, index, candidate))
                continue
        yield candidate


def pick_witness(
    search: Search, change: Change, plus: Scorer | None, minus: Scorer | None, involved: Involved, lazy: bool = True
) -> tuple[Candidate, Blame] | None:
    """``pick`` over the whole pool, scoring only the hands that come before the one it settles on
    (``lazy=False``: every hand scored and sorted, the full search the shortcut is tested against)."""
    if not lazy:
        return pick(search.pool, change, plus, minus, involved)
    return _scan(ranked(search, change, involved), change, plus, minus)


def witness_json(candidate: Candidate, found: Blame, plus: Scorer | None = None) -> dict[str, Any]:
    """The witness as the contract has it: ``a``/``b`` and ``whole`` are the hand under the whole of A and of B;
    ``alone``, where the change alone does not explain the difference, is the hand under A with only this change
    (what the change itself does, beside what the whole rulebooks do)."""
    out: dict[str, Any] = {"request": candidate.request_a, "a": candidate.a.response, "b": candidate.b.response}
    if candidate.request_b != candidate.request_a:
        out["request_b"] = candidate.request_b  # the same hand as B's tiles allow (a red five as a plain five)
    out["isolated"] = found.alone
    out["found_by"] = candidate.origin
    out["whole"] = {"a": candidate.a.response, "b": candidate.b.response}
    if not found.alone and plus is not None:
        out["alone"] = outcome(plus, fitted(candidate.request, plus.prepared.red_fives)).response
    return out


def _item_hints(change: Change, a: Scorer, b: Scorer) -> Hints:
    key = ("settings", change.group or "") if change.kind == "settings" else (change.kind, change.name)
    exprs = []
    for scorer in (a, b):
        item: ResolvedItem | None = scorer.rulebook.resolved.items.get(key)
        if item is not None:
            exprs += [f.value for name, f in item.fields.items() if change.kind != "settings" or name == change.name]
        if change.target is not None:
            target = scorer.rulebook.resolved.items.get(change.target)
            if target is not None:
                exprs += [f.value for f in target.fields.values()]
    return hints_of(exprs)


def _own_examples(change: Change, search: Search) -> list[dict[str, Any]]:
    """The examples of the changed item (and of the item an exception refines), in every arrangement of the
    number suits: near-misses that often only need another suit to be legal under both rulebooks."""
    keys = {(change.kind, change.name)} | ({change.target} if change.target else set())
    out = []
    for scorer in (search.a, search.b):
        for key in keys:
            item = scorer.rulebook.resolved.items.get(key)
            for example, _writer in item.examples if item is not None else ():
                try:
                    request = request_from_example(example.text)
                except EngineError:
                    continue
                out += [request, *suit_swaps(request)]
    return out


def steered(
    search: Search, change: Change, plus: Scorer | None, minus: Scorer | None, involved: Involved
) -> tuple[Candidate, Blame] | None:
    """Build hands from the change's own condition until one shows it, within ``STEER_BUDGET`` hands."""
    batch = [c for request in _own_examples(change, search) for c in [search.add(change.name, "steered", request)] if c]
    found = pick(batch, change, plus, minus, involved)
    if found is not None:
        return found
    hints = _item_hints(change, search.a, search.b)
    if hints.empty:
        return None
    kinds = search.a.prepared.allowed_kinds & search.b.prepared.allowed_kinds or search.a.prepared.allowed_kinds
    generator = iter(SteeredHands(hints, kinds, search.a.prepared.red_fives | search.b.prepared.red_fives, seed=search.searched))
    built = 0
    while built < STEER_BUDGET:
        batch = []
        for _ in range(STEER_ROUND):
            built += 1
            added = search.add(change.name, "steered", next(generator))
            if added is not None:
                batch.append(added)
        found = pick(batch, change, plus, minus, involved)
        if found is not None:
            return found
    return None


def diff_with_witnesses(
    a: Scorer, b: Scorer, random_hands: int = 4000, tick: Callable[..., None] | None = None, *, lazy: bool = True
) -> DiffReport:
    """Every difference of the two rulebooks; each scoring one with the simplest hand that its own item moves.
    ``lazy=False`` takes no shortcut (the full computation the tests hold the shortcuts equal to)."""
    changes = diff(a.rulebook.resolved, b.rulebook.resolved)
    scoring = [c for c in changes if c.affects_score]
    search = Search(a, b, random_hands=random_hands, tick=tick) if scoring else None
    if tick is not None:
        tick(0, total=(search.searched if search else 0) + len(scoring))
    out: list[tuple[Change, dict[str, Any] | None]] = []
    for change in changes:
        witness = None
        if change.affects_score and search is not None:
            plus, minus = isolated(a, b, change)
            involved = involved_test(change, a, b)
            found = pick_witness(search, change, plus, minus, involved, lazy) or steered(search, change, plus, minus, involved)
            witness = witness_json(*found, plus) if found is not None else None
            if tick is not None:
                tick()
        out.append((change, witness))
    searched = search.searched if search else 0
    cache: dict[tuple[int, str], Any] = {}  # A's scripted rounds, played once for every flow change
    from engine.diff.shadowing import Budget

    budget = Budget()  # the rules of A that keep flow changes from acting alone, looked for within one budget
    found_scenarios = [flow_scenario(a, b, change, cache, changes, budget, shortcuts=lazy) for change, _ in out]
    scenarios = [s for s, _ in found_scenarios]
    reasons = [r for _, r in found_scenarios]
    return DiffReport(a.rulebook.name, b.rulebook.name, out, searched, dict(search.counts) if search else None, scenarios, reasons)


def flow_scenario(
    a: Scorer,
    b: Scorer,
    change: Change,
    cache: dict[tuple[int, str], Any],
    changes: list[Change] | None = None,
    budget: Any = None,
    *,
    shortcuts: bool = True,
) -> tuple[dict[str, Any] | None, str | None]:
    """``scenario_or_reason``; where the reason would only say that the change matters together with other rules,
    the rule of A that decides first is looked for (``engine.diff.shadowing``, within ``budget``: None looks for none)
    and named, so that an organiser knows which other line to change."""
    scenario, reason = scenario_or_reason(a, b, change, cache, changes, shortcuts=shortcuts)
    if scenario is not None or reason is None or budget is None or not reason.endswith(TOGETHER_WORDS):
        return scenario, reason
    if reason.startswith("where it would matter") or reason.startswith(f"{a.rulebook.name} with only this change"):
        return scenario, reason
    from engine.diff.shadowing import find_shadow

    shadow = find_shadow(a.rulebook.resolved, b.rulebook.resolved, change, budget, cache)
    if shadow is None:
        return scenario, reason
    return None, (
        f"where it would matter ({shadow.situation}), {a.rulebook.name}'s {shadow.written} decides first, whatever this "
        f"value: it matters only together with a change of `{shadow.rule}`"
    )


TOGETHER_WORDS = ("it matters only together with other rules", "it matters only together with the other differences")


__all__ = ["DiffReport", "diff_with_witnesses", "with_change", "isolated", "blame", "flow_scenario", "scenario_or_reason", "plus_change", "Outcome", "ROUND_ITEM_KINDS"]
