"""``riichi diff``'s engine half: the item differences of ``ruledsl.diff`` with witness hands attached.

Each scoring change gets an "involved" test saying which differing hands it can be blamed for (its yaku among
the scored ones, its fu item among the fu, its limit tier reached, a red five in the hand...), so a witness
shows the change itself at work, not some other difference between the two rulebooks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import tiles as T
from engine.score import Scorer
from engine.witness import Outcome, Search
from ruledsl.diff import Change, diff

Involved = Callable[[dict[str, Any], Outcome, Outcome], bool]


@dataclass
class DiffReport:
    a: str
    b: str
    changes: list[tuple[Change, dict[str, Any] | None]]
    searched: int

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
                }
                for change, witness in self.changes
            ],
            "searched": self.searched,
        }


def _ids(change: Change) -> set[str]:
    names = {change.name}
    if change.group:
        names.add(change.group)  # examples written under a settings group exercise its keys
    if change.target:
        names.add(change.target[1])
    return names


def involved_test(change: Change, a: Scorer, b: Scorer) -> Involved:
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


def _setting_test(change: Change, a: Scorer, b: Scorer) -> Involved:
    if change.name == "red_fives":
        differing_reds = a.p.red_fives ^ b.p.red_fives

        def reds(req, oa, ob) -> bool:
            codes = T.parse_tiles(req["hand"]) + [c for m in req.get("melds", []) for c in T.parse_tiles(m["tiles"])]
            return any(c in differing_reds for c in codes)

        return reds
    if change.name == "dora_cycles":
        differing = {k for k in range(T.KINDS) if a.p.successors.get(k) != b.p.successors.get(k)}

        def dora(req, oa, ob) -> bool:
            shown = T.parse_tiles(req.get("dora_indicators", "")) + T.parse_tiles(req.get("ura_indicators", ""))
            return any(T.kind_of(c) in differing for c in shown)

        return dora
    if change.name == "tiles":
        differing_kinds = a.p.allowed_kinds ^ b.p.allowed_kinds

        def tiles(req, oa, ob) -> bool:
            codes = T.parse_tiles(req["hand"]) + [c for m in req.get("melds", []) for c in T.parse_tiles(m["tiles"])]
            return any(T.kind_of(c) in differing_kinds for c in codes)

        return tiles
    if change.name == "players":
        return lambda req, oa, ob: oa.ok and ob.ok and bool(req.get("tsumo"))
    if change.name == "kita":
        return lambda req, oa, ob: bool(req.get("kita"))
    return lambda req, oa, ob: oa.ok and ob.ok


def diff_with_witnesses(a: Scorer, b: Scorer, random_hands: int = 4000) -> DiffReport:
    changes = diff(a.rulebook.resolved, b.rulebook.resolved)
    scoring = [c for c in changes if c.affects_score]
    search = Search(a, b, random_hands=random_hands) if scoring else None
    out: list[tuple[Change, dict[str, Any] | None]] = []
    for change in changes:
        witness = None
        if change.affects_score and search is not None:
            witness = search.find(involved_test(change, a, b), _ids(change))
        out.append((change, witness))
    return DiffReport(a.rulebook.name, b.rulebook.name, out, search.searched if search else 0)
