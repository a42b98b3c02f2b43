"""The semantic difference of two rulebooks: items aligned by kind and name through both ``extends`` chains.

Settings are compared key by key (``setting start_points``), other items field by field. Each change carries
the clause on both sides, so an organiser sees which rule text justifies each difference.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ruledsl import ast
from ruledsl.explain import describe_field, describe_item, setting_value
from ruledsl.record import field, record
from ruledsl.resolve import ResolvedItem, ResolvedRulebook

# Item kinds whose changes can move a hand's score; the others are table flow (calls, draws, game end).
HAND_KINDS = ("yaku", "yakuman", "bonus", "fu", "limit", "payment")
SCORING_SETTINGS = {("table", "red_fives"), ("table", "tiles"), ("table", "copies"), ("table", "riichi_deposit"), ("table", "players"), ("table", "kita")}
SCORING_SETTING_GROUPS = {"scoring"}


@record(frozen=False, slots=False)
class Change:
    """One difference: ``item`` like ``yaku kokushi_13`` or ``setting start_points``."""

    kind: str
    name: str
    change: str  # added, removed, changed
    a: Any
    b: Any
    clause_a: str | None
    clause_b: str | None
    fields: list[str] = field(default_factory=list)
    group: str | None = None  # settings group
    target: tuple[str, str] | None = None  # exceptions: what they refine

    @property
    def item(self) -> str:
        if self.kind == "settings":
            return f"setting {self.name}"
        return f"{self.kind} {self.name}"

    @property
    def affects_score(self) -> bool:
        if self.kind == "settings":
            return (self.group, self.name) in SCORING_SETTINGS or self.group in SCORING_SETTING_GROUPS
        kind = self.target[0] if self.target else self.kind
        return kind in HAND_KINDS


def _value(expr: ast.Expr) -> Any:
    """A setting's value with its JSON type (the contract: ``1000``, not ``"1,000"``; lists as lists; an
    expression in plain English, never rule-language source). The text formats print it for people."""
    return setting_value(expr)


def _item_text(item: ResolvedItem) -> str:
    """A whole item in plain English: what it is worth and when it applies."""
    return describe_item(item)


def _removal_clause(rb: ResolvedRulebook, key: tuple[str, str]) -> str | None:
    for removal in rb.removed:
        if removal.key == key:
            return removal.clause
    return None


def diff(a: ResolvedRulebook, b: ResolvedRulebook, *, kinds: Collection[str] | None = None) -> list[Change]:
    """Every difference, in the order of A's items then B's new ones. ``kinds``: only the items of these kinds
    (``settings`` for the settings), the same changes as the rest left out afterwards: each item's change is found
    from that item alone, and a caller that reads a few kinds is spared putting thousands of others into English
    (``riichi check`` of a big file, whose flow rules alone are searched for shadowing)."""
    changes: list[Change] = []
    keys = list(a.items) + [k for k in b.items if k not in a.items]
    if kinds is not None:
        keys = [key for key in keys if key[0] in kinds]
    for key in keys:
        ia, ib = a.items.get(key), b.items.get(key)
        kind, name = key
        if kind == "settings":
            changes.extend(_settings_changes(name, ia, ib))
            continue
        either = ia or ib
        assert either is not None  # the key is an item of one of the two
        target = either.target
        if ia is None and ib is not None:
            changes.append(Change(kind, name, "added", None, _item_text(ib), _removal_clause(a, key), ib.clause, target=target))
        elif ib is None and ia is not None:
            changes.append(Change(kind, name, "removed", _item_text(ia), None, ia.clause, _removal_clause(b, key) , target=target))
        elif ia is not None and ib is not None:
            differing = [
                f
                for f in sorted(set(ia.fields) | set(ib.fields))
                if (ia.fields.get(f) and ia.fields[f].value) != (ib.fields.get(f) and ib.fields[f].value)
            ]
            if ia.title != ib.title:
                differing.append("title")
            if differing:
                a_text = {f: describe_field(ia, f) for f in differing if f != "title"}
                b_text = {f: describe_field(ib, f) for f in differing if f != "title"}
                if "title" in differing:
                    a_text["title"], b_text["title"] = ia.title, ib.title
                clause_b = next((ib.field_clauses.get(f) for f in differing if ib.field_clauses.get(f)), ib.clause)
                clause_a = next((ia.field_clauses.get(f) for f in differing if ia.field_clauses.get(f)), ia.clause)
                changes.append(Change(kind, name, "changed", a_text, b_text, clause_a, clause_b, differing, target=target))
    return changes


def _settings_changes(group: str, ia: ResolvedItem | None, ib: ResolvedItem | None) -> list[Change]:
    fa = ia.fields if ia else {}
    fb = ib.fields if ib else {}
    out = []
    for key in list(fa) + [k for k in fb if k not in fa]:
        va, vb = fa.get(key), fb.get(key)
        if va is not None and vb is not None and va.value == vb.value:
            continue
        change = "changed" if va is not None and vb is not None else ("added" if va is None else "removed")
        out.append(
            Change(
                "settings",
                key,
                change,
                _value(va.value) if va is not None else None,
                _value(vb.value) if vb is not None else None,
                ia.field_clauses.get(key, ia.clause) if ia else None,
                ib.field_clauses.get(key, ib.clause) if ib else None,
                group=group,
            )
        )
    return out
