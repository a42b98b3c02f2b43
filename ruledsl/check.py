"""Static checks of a resolved rulebook: names, types, fields per kind, ranges, references, conflicts.

Every finding is a positioned diagnostic; the checker keeps going after an error so that one run shows an
organiser every mistake in the file, not just the first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from operator import attrgetter
from typing import assert_never, cast

from ruledsl import ast, limits
from ruledsl import vocabulary as V
from ruledsl.check_settings import check_settings
from ruledsl.clause_checks import check_clauses
from ruledsl.diagnostics import Diagnostic, Reporter, did_you_mean, printable
from ruledsl.memo import BoundedCache
from ruledsl.record import record
from ruledsl.render import render_expr
from ruledsl.resolve import (
    MAX_ERRORS,
    RULEBOOK_SUFFIX,
    ResolvedItem,
    ResolvedRulebook,
    _Diagnostics,
    item_kind,
)
from ruledsl.tiles import NotationError, kind_of, parse_tiles

SCORING_ITEM_KINDS = ("yaku", "yakuman")
HAN_FLOOR = 1

VALUE_FACTS_FOR_FU = {"raw_fu"}
VALUE_FACTS_FOR_LIMIT = {"han", "fu", "raw_fu", "yakuman", "basic_points"}


@record(slots=False)
class Scope:
    """What an expression may read: which facts, and whether it may ask which yaku were scored."""

    facts: frozenset[str]
    yaku_refs: bool


def _facts(*scopes: str, extra: set[str] | None = None) -> frozenset[str]:
    names = {n for n, f in V.FACTS.items() if f.scope in scopes}
    return frozenset(names | (extra or set()))


HAND_SCOPE = Scope(_facts(V.HAND), False)
FU_SCOPE = Scope(_facts(V.HAND), True)
FU_TOTAL_SCOPE = Scope(_facts(V.HAND, extra=VALUE_FACTS_FOR_FU), True)
LIMIT_SCOPE = Scope(_facts(V.HAND, extra=VALUE_FACTS_FOR_LIMIT), True)
PAYMENT_SCOPE = Scope(_facts(V.HAND, V.VALUE, V.TABLE), True)
ROUND_SCOPE = Scope(_facts(V.ROUND, V.TABLE), False)

FIELD_SCOPES: dict[tuple[str, str], Scope] = {
    ("fu", "fu"): FU_SCOPE,
    ("fu", "fixed"): FU_TOTAL_SCOPE,
    ("fu", "when"): FU_TOTAL_SCOPE,
    ("limit", "when"): LIMIT_SCOPE,
    ("limit", "base"): LIMIT_SCOPE,
    ("limit", "yakuman"): LIMIT_SCOPE,
    ("payment", "when"): PAYMENT_SCOPE,
    ("payment", "amount"): PAYMENT_SCOPE,
}
KIND_SCOPES = {"draw": ROUND_SCOPE, "abortive_draw": ROUND_SCOPE, "liability": ROUND_SCOPE}
# Fields the engine reads once, when it loads the rulebook (which yaku stand alone, a limit's name on the payment
# tables, when an abortive draw is checked), never for a hand or a round: each must be written as a constant, with
# an example of one.
CONSTANT_FIELDS: dict[tuple[str, str], str] = {
    ("yaku", "standalone"): "`standalone = true`",
    ("limit", "tier"): '`tier = "mangan"`',
    ("abortive_draw", "at"): '`at = "discard_passed"`',
}

RESULT_KEYS = {
    "han": "int",
    "fu": "int",
    "yakuman": "int",
    "limit": "str",
    "total": "int",
    "yaku": "list",
    "error": "str",
    "payments": "record",
    "base_points": "int",
}


def check(rulebook: ResolvedRulebook, *, reuse: bool = False) -> list[Diagnostic]:
    """All diagnostics for a resolved rulebook (warnings included), in source order.

    ``reuse``: the rulebook shares most of its item objects with rulebooks checked before with ``reuse`` (`riichi
    diff` checks A with one item of B in place, once per change), and an item's findings are those found for the
    very same object before, when everything else its check reads is the same (``_ItemFindings``): a one-change
    mix costs the changed item and the checks across items, not the whole rulebook again.
    """
    diags = _Diagnostics()
    for file, text in rulebook.texts.items():
        diags.add_file(file, text)
    for error in rulebook.errors:  # the fold's own errors (``resolve(..., keep_going=True)``) count towards the cap
        diags.items.append(error)
        diags.errors += 1
    checker = _Checker(rulebook, diags, reuse=reuse)
    checker.run()
    _check_file_name(rulebook, diags)
    found = list(rulebook.warnings) + diags.items
    return sorted(found, key=lambda d: (d.span.file, d.span.line, d.span.column))


@record(slots=False)
class _ItemFindings:
    """What checking one item found, kept for ``check(..., reuse=True)``: the item itself (held, so that its
    identity names it while the entry lives), what else the check read (``context``: the leaf file, the han
    ceiling, the item's decorators; ``names``: the rulebook's yaku names, when the check asked for them), the
    diagnostics it gave and the evaluation cost it added to the rulebook's total."""

    item: ResolvedItem
    context: tuple[object, ...]
    names: frozenset[str] | None
    found: tuple[Diagnostic, ...]
    cost: int


_FINDINGS: BoundedCache[int, _ItemFindings] = BoundedCache(4096)


class _ScoringNames:
    """The rulebook's yaku and yakuman names, and whether an item's check has read them since ``read`` was reset:
    an item whose check read them is reused only under the same names (``_ItemFindings``)."""

    __slots__ = ("names", "read")

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.read = False


def _report_finding(diags: _Diagnostics, finding: limits.Finding) -> None:
    """A finding of the static bounds (``ruledsl.limits``) as a diagnostic."""
    (diags.error if finding.severity == "error" else diags.warning)(finding.message, finding.span, finding.help)


class _Checker:
    def __init__(self, rulebook: ResolvedRulebook, diags: _Diagnostics, *, reuse: bool = False) -> None:
        self.rb = rulebook
        self.d = diags
        self.reuse = reuse
        self._scoring_names = _ScoringNames({name for (kind, name) in rulebook.items if kind in SCORING_ITEM_KINDS})
        self._frozen_names: frozenset[str] | None = None
        self.han_ceiling = self._han_ceiling()
        # the typing notes when it reads the names, so that ``reuse`` knows an item looked them up; neither it nor
        # the bounds hold the checker, which is then freed as soon as it is done (a cycle through it would keep the
        # whole rulebook alive until the collector's next full pass walks it all)
        self.types = _Types(diags, self._scoring_names)
        self.bounds = limits.Bounds(partial(_report_finding, diags))
        # what checking a field's value found when it found nothing to report (``_check_value``), by the field and
        # the value as written, spans aside: a value written again in the same field is not walked again
        self.clean_values: dict[tuple[str, str, ast.Expr | str], tuple[int, bool, str | None]] = {}
        self.sources = _value_sources(rulebook, diags)
        # every decorator written for an item key, across the chain: one pass, so that checking stays linear
        self.decorators: dict[tuple[str, str], list[ast.Decorator]] = {}
        for rb in rulebook.chain:
            for ast_item in rb.items:
                if ast_item.decorators:
                    self.decorators.setdefault(ast_item.key, []).extend(ast_item.decorators)

    def _han_ceiling(self) -> int:
        item = self.rb.items.get(("settings", "scoring"))
        if item and "han_ceiling" in item.fields:
            value = item.fields["han_ceiling"].value
            if isinstance(value, ast.Int):
                return value.value
        return int(V.SETTINGS["scoring"]["han_ceiling"].default)

    def run(self) -> None:
        check_one = self._check_reusing if self.reuse else self.check_item
        for item in self.rb.items.values():
            if self.d.full:  # past the error bound (ruledsl.resolve.MAX_ERRORS): stop looking
                break
            check_one(item)
        self._check_exception_conflicts()
        check_settings(self.rb, self.d)  # consistency across settings (ruledsl/check_settings.py)
        check_clauses(self.rb, self.d)  # inherited clauses and `clauses from` (ruledsl/clause_checks.py)
        if self.rb.chain:
            self.bounds.finish(self.rb.chain[-1].span)

    def _names(self) -> frozenset[str]:
        if self._frozen_names is None:
            self._frozen_names = frozenset(self._scoring_names.names)
        return self._frozen_names

    def _check_reusing(self, item: ResolvedItem) -> None:
        """``check_item``, or its findings for this very object when everything else it reads is the same. Only
        findings made and given back below the error bound are reused, so that the bound cuts them as it would."""
        leaf = self.rb.chain[-1] if self.rb.chain else None
        context = ((leaf.name, leaf.extends) if leaf else None, self.han_ceiling, tuple(self.decorators.get(item.key, ())))
        kept = _FINDINGS.get(id(item))
        if (
            kept is not None
            and kept.item is item
            and kept.context == context
            and (kept.names is None or kept.names == self._names())
            and self.d.errors + sum(d.is_error for d in kept.found) < MAX_ERRORS
        ):
            for d in kept.found:
                if d.is_error:
                    self.d.error(d.message, d.span, d.help, d.settings)
                else:
                    self.d.warning(d.message, d.span, d.help)
            self.bounds.total_cost += kept.cost
            return
        before, cost = len(self.d.items), self.bounds.total_cost
        self._scoring_names.read = False
        self.check_item(item)
        if not self.d.full:
            names = self._names() if self._scoring_names.read else None
            found = tuple(self.d.items[before:])
            _FINDINGS.put(id(item), _ItemFindings(item, context, names, found, self.bounds.total_cost - cost))

    # ---- items
    def check_item(self, item: ResolvedItem) -> None:
        if item.clause is None and item.kind != "settings":
            self.d.warning(
                f"`{item.kind} {item.name}` cites no clause",
                _head_span(item),
                'add `@clause("...")` above it naming the rule it encodes',
            )
        self._check_decorators(item)
        self._check_has_example(item)
        kind = item_kind(item, self.rb)
        if kind not in V.ITEM_KINDS:
            self.d.error(
                f"unknown item kind `{kind}`",
                _kind_span(item),
                did_you_mean(kind, V.ITEM_KINDS) or f"item kinds: {', '.join(V.ITEM_KINDS)}",
            )
            return
        if kind == "settings":
            self._check_settings(item)
            return
        spec = V.ITEM_KINDS[kind]
        for name, f in item.fields.items():
            if name not in spec.fields:
                self.d.error(
                    f"`{kind}` has no field `{name}`",
                    _field_name_span(f),
                    did_you_mean(name, spec.fields) or f"fields of `{kind}`: {', '.join(spec.fields)}",
                )
                continue
            self._check_field(item, kind, name, f, spec.fields[name])
        if item.target is None:
            for name, fspec in spec.fields.items():
                if fspec.required and name not in item.fields:
                    self.d.error(
                        f"`{kind} {item.name}` needs a `{name}` field",
                        _name_span(item),
                        f"{name}: {fspec.meaning}",
                    )
        if kind == "fu" and item.target is None and ("fu" in item.fields) == ("fixed" in item.fields):
            self.d.error(
                f"`fu {item.name}` needs exactly one of `fu` (added) and `fixed` (the total)",
                _name_span(item),
                "write `fu = 2` to add fu, or `fixed = 25` to set the hand's total",
            )
        for example, _ in item.examples:
            self._check_example(example)

    def _check_has_example(self, item: ResolvedItem) -> None:
        """A new item of a variant with no ``example``: `riichi check` scores examples, and seeing the rule at work
        on a hand is what teaches an organiser the most (and catches a rule that does not do what it says).

        Only items the file itself adds (``define`` or ``exception``): an override or a removal changes a rule
        whose examples live in the base, and an inherited item was checked with its own file. Only variants (a
        file that ``extends``): a standalone rulebook must define every yaku, fu and payment before one example
        can score, and its base items are exercised by one another's examples. Not settings, and not the round
        items (draws, abortive draws, liability), which a hand example cannot exercise.
        """
        leaf = self.rb.chain[-1] if self.rb.chain else None
        if leaf is None or leaf.extends is None or item.examples or item.kind == "settings":
            return
        first = item.history[0]
        if first.rulebook != leaf.name or first.action not in ("define", "exception"):
            return
        if item_kind(item, self.rb) in KIND_SCOPES or item_kind(item, self.rb) == "settings":
            return
        self.d.warning(
            f"`{item.kind} {item.name}` has no example",
            _head_span(item),
            'add a line such as `example "234m456m678p234s55p win 4s ron seat S riichi" => {han: 3}`: '
            "`riichi check` scores it and shows the rule at work",
        )

    def _check_decorators(self, item: ResolvedItem) -> None:
        for deco in self.decorators.get(item.key, ()):
            if deco.name not in V.DECORATORS:
                self.d.error(
                    f"unknown decorator `@{deco.name}`",
                    deco.span,
                    did_you_mean(deco.name, V.DECORATORS) or "decorators: @clause, @note",
                )

    def _check_field(self, item: ResolvedItem, kind: str, name: str, f: ast.Field, spec: V.FieldSpec) -> None:
        if spec.type == V.HAN_TYPE:
            self._check_han(item, f)
            return
        if spec.type == V.ITEMS:
            self._check_item_list(f)
            return
        if name == "multiplier":
            if not isinstance(f.value, ast.Int) or not 1 <= f.value.value <= limits.MAX_MULTIPLIER:
                self.d.error(f"`multiplier` must be a whole number from 1 to {limits.MAX_MULTIPLIER}", f.value.span, "e.g. `multiplier = 2`")
            return
        example = CONSTANT_FIELDS.get((kind, name))
        if example is not None and not _is_constant(f.value):
            self.d.error(
                f"`{name}` must be written as a constant",
                f.value.span,
                f"it is read once, when the rulebook is loaded, not for each hand or round: write e.g. {example}",
            )
            return
        if kind == "payment" and name == "from":
            if not isinstance(f.value, ast.Str) or f.value.value not in V.PAYERS:
                written = f.value.value if isinstance(f.value, ast.Str) else "?"
                self.d.error(
                    "`from` must name who pays",
                    f.value.span,
                    did_you_mean(written, V.PAYERS) or f"one of {', '.join(repr(p) for p in V.PAYERS)} (in quotes)",
                )
            return
        # `riichi diff`'s mixes (``reuse``) check a changed item or two each: a value is rarely seen twice there
        key = None if self.reuse else _value_key(self.sources, kind, name, f.value)
        known = None if key is None else self.clean_values.get(key)
        if known is None:
            # (a value kept clean in this field was found not to read `raw_fu` here, as this one would be)
            if name == "fu" and kind == "fu" and _mentions(f.value, "raw_fu"):
                self.d.error("`raw_fu` is the sum of the `fu` fields; a `fu` field cannot read it", f.value.span, "use it in `fixed` or `when`")
                return
            reason = self._check_value(kind, name, f, spec, key)
        else:
            cost, read_names, reason = known
            self.bounds.total_cost += cost
            if read_names:
                self._scoring_names.read = True
        if reason is not None:
            self._never_applies(item, f, reason)

    def _check_value(self, kind: str, name: str, f: ast.Field, spec: V.FieldSpec, key: tuple[str, str, ast.Expr | str] | None = None) -> str | None:
        """A field's value typed, then (well typed) bounded and, for a condition, proved possible or not
        (``unsatisfiable``): why it can never apply, or None.

        None of the three reads where the value is written, only what it is (its field's scope, the rulebook's
        names): a syntax tree compares and hashes without its spans, so when they report nothing, what they found
        (the cost added, whether the names were read, the proof) is kept for the same value in the same field, as
        the items of a big file write their conditions again and again (not in ``reuse`` mode, whose checks see
        an item or two each). ``key``: where to keep it (``_value_key``; None keeps nothing). ``check`` with nothing
        kept gives the same diagnostics (``tests/ruledsl/test_clean_values.py``)."""
        scope = FIELD_SCOPES.get((kind, name)) or KIND_SCOPES.get(kind) or HAND_SCOPE
        before, keep = len(self.d.items), key is not None
        if keep:
            full, read_before, cost_before = self.d.full, self._scoring_names.read, self.bounds.total_cost
            self._scoring_names.read = False
        reason = None
        got = self.types.infer(f.value, scope, {})
        if got is not None and not _compatible(spec.type, got):
            self.d.error(
                f"`{name}` must be {_a(spec.type)}, but this is {_a(got)}",
                f.value.span,
                spec.meaning,
            )
        elif not any(d.is_error for d in self.d.items[before:]):  # well typed: now its cost and its numbers
            self.bounds.field(kind, name, f.value)
            if name == "when":
                reason = unsatisfiable(f.value)
        if keep:
            read_names = self._scoring_names.read
            self._scoring_names.read = read_before or read_names
            if not full and len(self.d.items) == before and key is not None:  # nothing reported (past the bound, nothing would be)
                self.clean_values[key] = (self.bounds.total_cost - cost_before, read_names, reason)
        return reason

    def _never_applies(self, item: ResolvedItem, f: ast.Field, reason: str) -> None:
        """An item whose condition no hand can meet never applies: almost always a mistake (a condition written
        over the wrong shape, a negation too many). Only proofs count (``unsatisfiable``): a warning is given
        when the condition is certainly false, never because a search found no hand."""
        self.d.warning(
            f"`{item.kind} {item.name}` can never apply: {reason}",
            f.value.span,
            "no hand satisfies this `when`; check the condition (a shape, a negation, `and` for `or`)",
        )

    def _check_han(self, item: ResolvedItem, f: ast.Field) -> None:
        value = f.value
        if isinstance(value, ast.Int):
            self._han_range(value)
            return
        if isinstance(value, ast.Record):
            keys = [e.key for e in value.entries]
            for entry in value.entries:
                if entry.key not in ("closed", "open"):
                    self.d.error(
                        f"`han` has no entry `{entry.key}`",
                        entry.span,
                        did_you_mean(entry.key, ["closed", "open"]) or "write `{closed: 2, open: 1}`",
                    )
                elif not isinstance(entry.value, ast.Int):
                    self.d.error("han must be a whole number", entry.value.span, "e.g. `{closed: 2, open: 1}`")
                else:
                    self._han_range(entry.value)
            if "closed" not in keys:
                self.d.error("`han` needs a `closed` value", value.span, "write `{closed: 2, open: 1}`, or `{closed: 1}` for closed only")
            closed, opened = value.get("closed"), value.get("open")
            if isinstance(closed, ast.Int) and isinstance(opened, ast.Int) and opened.value > closed.value:
                self.d.warning(
                    "open han exceed closed han",
                    value.span,
                    "opening a hand normally keeps or lowers its value",
                )
            return
        self.d.error("`han` must be a number or `{closed: n, open: n}`", value.span, "e.g. `han = 1` or `han = {closed: 2, open: 1}`")

    def _han_range(self, value: ast.Int) -> None:
        if not HAN_FLOOR <= value.value <= self.han_ceiling:
            self.d.error(
                f"han `{value.value}` is out of range",
                value.span,
                f"a yaku is worth {HAN_FLOOR} to {self.han_ceiling} han; limit hands are `yakuman` items",
            )

    def _check_item_list(self, f: ast.Field) -> None:
        if not isinstance(f.value, ast.ListLit):
            self.d.error(f"`{f.name}` must be a list of yaku names", f.value.span, f"e.g. `{f.name} = [name_a, name_b]`")
            return
        for entry in f.value.items:
            self.types.item_ref(entry)

    def _check_settings(self, item: ResolvedItem) -> None:
        group = V.SETTINGS.get(item.name)
        if group is None:
            self.d.error(
                f"unknown settings group `{item.name}`",
                _name_span(item),
                did_you_mean(item.name, V.SETTINGS) or f"settings groups: {', '.join(V.SETTINGS)}",
            )
            return
        for name, f in item.fields.items():
            spec = group.get(name)
            retired = V.RETIRED_SETTINGS.get((item.name, name))
            if spec is None and retired is not None:
                self.d.error(f"`settings {item.name}` no longer has the key `{name}`", _field_name_span(f), _retired_help(retired, f))
                continue
            if spec is None:
                self.d.error(
                    f"`settings {item.name}` has no key `{name}`",
                    _field_name_span(f),
                    # a real key of another group is that group's, however close a key of this one is spelled
                    _other_group_hint(name) or did_you_mean(name, group) or f"keys: {', '.join(group)}",
                )
                continue
            self._check_setting_value(name, f, spec)

    def _check_setting_value(self, name: str, f: ast.Field, spec: V.SettingSpec) -> None:
        value = f.value
        got = _literal_type(value)
        if got is None:
            self.d.error(f"setting `{name}` must be a plain value", value.span, f"e.g. `{spec.example}`")
            return
        if isinstance(value, ast.Tiles) or isinstance(value, ast.ListLit):
            self._check_tile_literals(value)
        if not _compatible(spec.type, got):
            self.d.error(f"setting `{name}` must be {_a(spec.type)}, but this is {_a(got)}", value.span, f"e.g. `{spec.example}`")
            return
        self._check_setting_range(name, value)
        if spec.choices and isinstance(value, ast.Str) and value.value not in spec.choices:
            self.d.error(
                f"setting `{name}` cannot be \"{value.value}\"",
                value.span,
                did_you_mean(value.value, spec.choices) or f"choices: {', '.join(spec.choices)}",
            )

    def _check_setting_range(self, name: str, value: ast.Expr) -> None:
        """Settings the scorer divides or multiplies by: a step of 0 would skip rounding, a huge ceiling would let
        one yaku give gigabytes of points."""
        bounds = {"fu_rounding": (1, limits.MAX_FU_ROUNDING), "han_ceiling": (1, limits.MAX_HAN)}.get(name)
        if bounds is None:
            return
        number = value.value if isinstance(value, ast.Int) else -value.operand.value if isinstance(value, ast.Negate) and isinstance(value.operand, ast.Int) else None
        if number is not None and not bounds[0] <= number <= bounds[1]:
            self.d.error(f"setting `{name}` must be {bounds[0]} to {bounds[1]:,}, not {number:,}", value.span, f"e.g. `{V.SETTINGS['scoring'][name].example}`")

    def _check_tile_literals(self, value: ast.Expr) -> None:
        if isinstance(value, ast.Tiles):
            try:
                parse_tiles(value.text)
            except NotationError as exc:
                self.d.error(exc.message, value.span, "tiles are digits followed by m, p, s or z; honours are 1z..7z")
        elif isinstance(value, ast.ListLit):
            for entry in value.items:
                self._check_tile_literals(entry)

    def _check_example(self, example: ast.Example) -> None:
        for entry in example.expected.entries:
            if entry.key not in RESULT_KEYS:
                self.d.error(
                    f"examples cannot expect `{entry.key}`",
                    entry.span,
                    did_you_mean(entry.key, RESULT_KEYS) or f"expected keys: {', '.join(RESULT_KEYS)}",
                )

    def _check_exception_conflicts(self) -> None:
        by_target: dict[tuple[str, str], list[ResolvedItem]] = {}
        for item in self.rb.items.values():
            if item.target is not None:
                by_target.setdefault(item.target, []).append(item)
        for target, exceptions in by_target.items():
            for i, a in enumerate(exceptions):
                for b in exceptions[i + 1 :]:
                    a_when, b_when = a.fields.get("when"), b.fields.get("when")
                    same_condition = (a_when is None and b_when is None) or (
                        a_when is not None and b_when is not None and a_when.value == b_when.value
                    )
                    if not same_condition:
                        continue
                    for name, fa in a.fields.items():
                        fb = b.fields.get(name)
                        if name != "when" and fb is not None and fa.value != fb.value:
                            self.d.error(
                                f"exceptions `{a.name}` and `{b.name}` to `{target[0]} {target[1]}` conflict on `{name}`",
                                _name_span(b),
                                "give them different conditions, or keep one",
                            )


_JOINS = {"and": "`and` joins conditions", "or": "`or` joins conditions"}  # the help of a side that is no condition


class _Types:
    """The type of each expression, by the vocabulary's names and signatures, with a diagnostic at every mismatch:
    the checker's reading of expressions, apart from its checks of items, fields and settings (``_Checker``)."""

    def __init__(self, diags: _Diagnostics, scoring_names: _ScoringNames) -> None:
        self.d = diags
        self._scoring_names = scoring_names

    @property
    def scoring_names(self) -> set[str]:
        """The rulebook's yaku and yakuman names, noted as read at each use (``check(reuse=True)``)."""
        self._scoring_names.read = True
        return self._scoring_names.names

    def infer(self, expr: ast.Expr, scope: Scope, bound: dict[str, str]) -> str | None:
        """The type of an expression, reporting errors; None when it cannot be known (already reported)."""
        match expr:  # the kinds of node most written first: a ``match`` tries its cases in order
            case ast.BinOp():
                return self._binop(expr, scope, bound)
            case ast.Name():
                return self._name(expr, scope, bound)
            case ast.Call():
                return self._call(expr, scope, bound)
            case ast.Int():
                return V.INT
            case ast.Quantifier():
                return self._quantifier(expr, scope, bound)
            case ast.Bool():
                return V.BOOL
            case ast.Str():
                return V.STR
            case ast.Tiles():
                try:
                    codes = parse_tiles(expr.text)
                except NotationError as exc:
                    self.d.error(exc.message, expr.span, "tiles are digits followed by m, p, s or z")
                    return None
                if any(kind_of(c) != c for c in codes):
                    self.d.error("red fives (`0`) only appear in `settings table`", expr.span, "write the five as `5`")
                return V.TILE if len(codes) == 1 else V.TILES
            case ast.ListLit():
                types = [self.infer(e, scope, bound) for e in expr.items]
                known = {t for t in types if t is not None}
                if len(known) > 1:
                    self.d.error("a list mixes values of different types", expr.span, f"found {', '.join(sorted(known))}")
                    return None
                return V.list_of(known.pop() if known else V.ANY)
            case ast.Record():
                for entry in expr.entries:
                    self.infer(entry.value, scope, bound)
                return V.RECORD
            case ast.Range():
                self._expect(expr.low, V.INT, scope, bound, "a range runs between whole numbers")
                self._expect(expr.high, V.INT, scope, bound, "a range runs between whole numbers")
                return V.INTS
            case ast.Not():
                self._expect(expr.operand, V.BOOL, scope, bound, "`not` applies to a condition")
                return V.BOOL
            case ast.Negate():
                self._expect(expr.operand, V.INT, scope, bound, "`-` applies to a number")
                return V.INT
            case ast.Conditional():
                self._expect(expr.condition, V.BOOL, scope, bound, "`if` needs a condition")
                a = self.infer(expr.then, scope, bound)
                b = self.infer(expr.otherwise, scope, bound)
                if a is not None and b is not None and a != b:
                    self.d.error(f"`then` is {_a(a)} but `else` is {_a(b)}", expr.span, "both branches must have one type")
                    return None
                return a or b
        assert_never(expr)

    def _expect(self, expr: ast.Expr, want: str, scope: Scope, bound: dict[str, str], help: str) -> None:
        got = self.infer(expr, scope, bound)
        if got is not None and not _compatible(want, got):
            self.d.error(f"expected {_a(want)}, found {_a(got)}", expr.span, help)

    def _name(self, expr: ast.Name, scope: Scope, bound: dict[str, str]) -> str | None:
        name = expr.id
        if name in bound:
            return bound[name]
        if name in V.CONSTANTS:
            return V.CONSTANTS[name].type
        fact = V.FACTS.get(name)
        if fact is not None:
            if name not in scope.facts:
                self.d.error(
                    f"`{name}` cannot be used here",
                    expr.span,
                    f"`{name}` ({fact.meaning}) is known only in {_scope_words(name)}",
                )
                return None
            return fact.type
        if name in V.FUNCTIONS:
            self.d.error(f"`{name}` is a function", expr.span, f"call it: `{V.FUNCTIONS[name].example}`")
            return None
        if name in self.scoring_names:
            self.d.error(f"`{name}` is a yaku, not a value", expr.span, f"to ask whether it was scored write `has_yaku({name})`")
            return None
        candidates = set(scope.facts) | set(V.CONSTANTS) | set(bound)
        self.d.error(f"unknown name `{name}`", expr.span, did_you_mean(name, candidates) or "see docs/language.md for every name")
        return None

    def _call(self, expr: ast.Call, scope: Scope, bound: dict[str, str]) -> str | None:
        fn = V.FUNCTIONS.get(expr.func)
        if fn is None:
            self.d.error(
                f"unknown function `{expr.func}`",
                expr.func_span,
                did_you_mean(expr.func, V.FUNCTIONS) or "see docs/language.md for every function",
            )
            for arg in expr.args:
                self.infer(arg, scope, bound)
            return None
        if fn.name == "has_yaku":
            if not scope.yaku_refs:
                self.d.error("`has_yaku` cannot be used here", expr.func_span, "yaku are decided first; fu, limit and payment items may ask which were scored")
                return V.BOOL
            if len(expr.args) != 1:
                self.d.error("`has_yaku` takes one yaku name", expr.span, "e.g. `has_yaku(my_local_yaku)`")
                return V.BOOL
            self.item_ref(expr.args[0])
            return V.BOOL
        if len(expr.args) != len(fn.params):
            self.d.error(
                f"`{fn.name}` takes {len(fn.params)} argument{'s' if len(fn.params) != 1 else ''}, got {len(expr.args)}",
                expr.span,
                f"e.g. `{fn.example}`",
            )
            return fn.returns
        for param, arg in zip(fn.params, expr.args, strict=True):
            got = self.infer(arg, scope, bound)
            if got is None:
                continue
            if fn.name == "size" and not got.startswith("list of ") and got != V.TILES:
                self.d.error(f"`size` counts the elements of a list, found {_a(got)}", arg.span, f"e.g. `{fn.example}`")
                continue
            if "|" not in param:  # one type allowed (most parameters)
                if _compatible(param, got):
                    continue
            elif any(_compatible(p, got) for p in param.split("|")):
                continue
            self.d.error(
                f"`{fn.name}` expects {' or '.join(_a(p) for p in param.split('|'))}, found {_a(got)}",
                arg.span,
                f"e.g. `{fn.example}`",
            )
        return fn.returns

    def _quantifier(self, expr: ast.Quantifier, scope: Scope, bound: dict[str, str]) -> str | None:
        domain = self.infer(expr.domain, scope, bound)
        element: str | None = None
        if domain is not None:
            if domain.startswith("list of "):
                element = domain[len("list of ") :]
            else:
                self.d.error(f"`{expr.kind}` needs a list to run over, found {_a(domain)}", expr.domain.span, "e.g. `sets`, `tiles`, `[m, p, s]` or `1..9`")
        if expr.var in V.FACTS or expr.var in V.CONSTANTS or expr.var in V.FUNCTIONS:
            self.d.error(f"`{expr.var}` is a vocabulary name and cannot be a loop variable", expr.span, "pick another name, e.g. `g` or `t`")
        inner = dict(bound)
        inner[expr.var] = element if element and element != V.ANY else V.ANY
        want = V.BOOL if expr.kind in ("any", "all", "count") else V.INT
        body = self.infer(expr.body, scope, inner)
        if body is not None and not _compatible(want, body):
            self.d.error(f"the body of `{expr.kind}` must be {_a(want)}, found {_a(body)}", expr.body.span, V.QUANTIFIERS[expr.kind])
        return V.BOOL if expr.kind in ("any", "all") else V.INT

    def _binop(self, expr: ast.BinOp, scope: Scope, bound: dict[str, str]) -> str | None:
        op = expr.op
        if op in _JOINS:
            self._expect(expr.left, V.BOOL, scope, bound, _JOINS[op])
            self._expect(expr.right, V.BOOL, scope, bound, _JOINS[op])
            return V.BOOL
        if op in ("+", "-", "*", "/", "^"):
            self._expect(expr.left, V.INT, scope, bound, "arithmetic is on whole numbers")
            self._expect(expr.right, V.INT, scope, bound, "arithmetic is on whole numbers")
            return V.INT
        left = self.infer(expr.left, scope, bound)
        right = self.infer(expr.right, scope, bound)
        if left is None or right is None:
            return V.BOOL
        if op in ("in", "notin"):
            if right == V.TILE:
                right = V.TILES
            if not right.startswith("list of "):
                self.d.error(f"`in` needs a list on its right, found {_a(right)}", expr.right.span, "e.g. `wait in [kanchan, penchan]`")
            elif not _compatible(right[len("list of ") :], left):
                self.d.error(f"cannot look for {_a(left)} in {_a(right)}", expr.span, "both sides must talk about the same kind of value")
            return V.BOOL
        if op in ("<", "<=", ">", ">="):
            if left != V.INT or right != V.INT:
                self.d.error(f"`{op}` compares numbers, found {_a(left)} and {_a(right)}", expr.span, "compare numbers, or use `==`")
            return V.BOOL
        if not (_compatible(left, right) or _compatible(right, left)):
            self.d.error(f"cannot compare {_a(left)} with {_a(right)}", expr.span, "both sides of `==` must be the same kind of value")
        return V.BOOL

    def item_ref(self, expr: ast.Expr) -> bool:
        """Whether ``expr`` names a yaku or yakuman of this rulebook (an error when not)."""
        if not isinstance(expr, ast.Name):
            self.d.error("expected the name of a yaku or yakuman", expr.span, "write the item's name, without quotes")
            return False
        if expr.id not in self.scoring_names:
            self.d.error(
                f"no yaku or yakuman `{expr.id}` in this rulebook",
                expr.span,
                did_you_mean(expr.id, self.scoring_names) or "define it, or check its name",
            )
            return False
        return True


# ---- satisfiability: sound and cheap (constant folding, contradictory conjuncts, bounds of counts) -------------

# What a hand's shape implies about the size of its readings (``engine.scoring.facts.put_reading``): a standard reading
# has four sets (called melds included) and one pair; seven pairs has no set and seven pairs; thirteen orphans
# has no set. Bounds for any shape: 0..4 sets, 0..7 pairs.
_SHAPE_SIZES: dict[str, dict[str, tuple[int, int]]] = {
    "standard": {"sets": (4, 4), "pairs": (1, 1)},
    "seven_pairs": {"sets": (0, 0), "pairs": (7, 7)},
    "thirteen_orphans": {"sets": (0, 0)},
}
_SIZE_BOUNDS = {"sets": (0, 4), "pairs": (0, 7)}
# Facts of which exactly one holds for every win: a win is self-drawn or on another player's tile.
_EXACTLY_ONE = (("tsumo", "ron"),)
_Const = tuple[str, object]  # ("int", 3), ("str", "x"), ("name", "standard"): a value known without a hand


def unsatisfiable(expr: ast.Expr) -> str | None:
    """Why no hand can make ``expr`` true, or None when that is not certain.

    Sound by construction: constant folding; an ``or`` is false only when both sides are; an ``and`` when one
    side is, or when its conjuncts contradict (``x`` and ``not x``; ``tsumo`` and ``ron``; two values for one
    term; number bounds that leave nothing, including the sizes a shape implies). Anything else is "maybe".
    """
    if _fold(expr) is False:
        return "it is always false"
    if isinstance(expr, ast.BinOp) and expr.op == "or":
        if unsatisfiable(expr.left) is not None and unsatisfiable(expr.right) is not None:
            return "neither side of `or` can hold"
        return None
    conjuncts = [_Conjunct(c) for c in _conjuncts(expr)]
    if len(conjuncts) == 1:
        return _lone_contradiction(conjuncts[0])
    for c in conjuncts:
        reason = _unsatisfiable_alone(c)
        if reason is not None:
            return reason
    return None if _independent(conjuncts) else _contradiction(conjuncts)


def _independent(conjuncts: list[_Conjunct]) -> bool:
    """Whether conjuncts that hold each alone certainly hold together, told from their heads: no two assert the
    same head (so no term is both true and false), at most one compares a term with a value (two could bound one
    term, a shape bounds the sizes, a size bounds a count), and not both of the facts of which every win has
    exactly one. Anything else is left to the whole proof (``_contradiction``)."""
    compared = 0
    heads = set()
    for c in conjuncts:
        if c.comparison is not None:
            compared += 1
            if compared > 1:
                return False
        atom = c.atom
        cls = atom.__class__
        head = _HEADS.get(cls)
        key = (cls, head(atom) if head is not None else None)
        if key in heads:
            return False
        heads.add(key)
    return not any((ast.Name, a) in heads and (ast.Name, b) in heads for a, b in _EXACTLY_ONE)


def _unsatisfiable_alone(c: _Conjunct) -> str | None:
    """``unsatisfiable`` of one conjunct (never an ``and``), from what was read of it once for the whole. No
    conjunct folds to false here: the whole would have (an ``and`` folds to false when either side does)."""
    expr = c.expr
    if isinstance(expr, ast.BinOp) and expr.op == "or":
        return unsatisfiable(expr)
    return _lone_contradiction(c)


def _lone_contradiction(c: _Conjunct) -> str | None:
    """``_contradiction([c])``, without its tables: alone, a conjunct contradicts itself only when it bounds the size
    of `sets` or `pairs`, or a count over them, past what a hand holds."""
    comparison = c.comparison
    if comparison is None or comparison[2][0] != "int":
        return None
    term, op, value = comparison
    low, high = _BOUNDS_OF[op](cast(int, value[1]))
    size = _size_of(term)
    if size is not None:  # bounded by the size of the list first
        has_low, has_high = _SIZE_BOUNDS[size]
        low, high = max(has_low, low), min(has_high, high)
    if low > high:
        return f"no number meets every bound on `{_words(term)}`"
    domain = _counted(term) if size is None else None
    if domain is not None and low > _SIZE_BOUNDS[domain][1]:  # a count over sets or pairs is at most their size
        return f"no number meets every bound on `{_words(term)}`"
    return None


def _conjuncts(expr: ast.Expr) -> list[ast.Expr]:
    if isinstance(expr, ast.BinOp) and expr.op == "and":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _fold(expr: ast.Expr) -> object | None:
    """The value of an expression that needs no hand (bool, int or str), else None."""
    match expr:  # the kinds of node most written first, and those that never fold
        case ast.BinOp():
            return _fold_binop(expr)
        case ast.Name() | ast.Call() | ast.Quantifier():
            return None
        case ast.Bool() | ast.Int() | ast.Str():
            return expr.value
        case ast.Not():
            inner = _fold(expr.operand)
            return (not inner) if isinstance(inner, bool) else None
        case ast.Negate():
            inner = _fold(expr.operand)
            return -inner if isinstance(inner, int) and not isinstance(inner, bool) else None
        case ast.Conditional():
            cond = _fold(expr.condition)
            if isinstance(cond, bool):
                return _fold(expr.then if cond else expr.otherwise)
            return None
    return None


def _fold_binop(expr: ast.BinOp) -> object | None:
    left, right = _fold(expr.left), _fold(expr.right)
    if expr.op == "and":
        if left is False or right is False:
            return False
        return True if left is True and right is True else None
    if expr.op == "or":
        if left is True or right is True:
            return True
        return False if left is False and right is False else None
    if left is None or right is None or type(left) is not type(right):
        return None
    if isinstance(left, int) and isinstance(right, int) and not isinstance(left, bool):
        if expr.op in ("+", "-", "*"):
            value = {"+": left + right, "-": left - right, "*": left * right}[expr.op]
            return value if abs(value) < 10**12 else None
        if expr.op in ("<", "<=", ">", ">="):
            return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[expr.op]
    if expr.op == "==":
        return left == right
    if expr.op == "!=":
        return left != right
    return None


def _const(expr: ast.Expr) -> _Const | None:
    if isinstance(expr, ast.Name) and expr.id in V.CONSTANTS:
        return ("name", expr.id)
    value = _fold(expr)
    if isinstance(value, bool) or value is None:
        return None
    return ("int", value) if isinstance(value, int) else ("str", value)


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _comparison(expr: ast.Expr) -> tuple[ast.Expr, str, _Const] | None:
    """``term OP constant`` (either way round), or None."""
    if not isinstance(expr, ast.BinOp) or expr.op not in _FLIP:
        return None
    right, left = _const(expr.right), _const(expr.left)
    if right is not None and left is None:
        return expr.left, expr.op, right
    if left is not None and right is None:
        return expr.right, _FLIP[expr.op], left
    return None


def _size_of(term: ast.Expr) -> str | None:
    """``sets`` or ``pairs`` when the term counts the elements of that list: ``size(L)`` or ``count(v in L: true)``."""
    if isinstance(term, ast.Call) and term.func == "size" and len(term.args) == 1:
        arg = term.args[0]
        return arg.id if isinstance(arg, ast.Name) and arg.id in _SIZE_BOUNDS else None
    if isinstance(term, ast.Quantifier) and term.kind == "count" and _fold(term.body) is True:
        return term.domain.id if isinstance(term.domain, ast.Name) and term.domain.id in _SIZE_BOUNDS else None
    return None


def _counted(key: ast.Expr | str) -> str | None:
    """``sets`` or ``pairs`` when the key is ``count(v in L: ...)`` over one of them."""
    if isinstance(key, ast.Quantifier) and key.kind == "count" and isinstance(key.domain, ast.Name):
        return key.domain.id if key.domain.id in _SIZE_BOUNDS else None
    return None


class _Term:
    """An expression as a dictionary key, hashed by its head alone: a syntax tree's own hash walks its whole subtree
    at every lookup, and ``_contradiction`` looks each term up several times. Equal trees have equal heads (their
    type and the operator, name, function or quantifier at the top), so the hash agrees with equality, which still
    compares whole trees; two terms with one head in one condition are merely compared in full."""

    __slots__ = ("expr", "_hash")

    def __init__(self, expr: ast.Expr) -> None:
        self.expr = expr
        cls = expr.__class__
        head = _HEADS.get(cls)
        self._hash = hash((cls, head(expr) if head is not None else None))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Term) and self._hash == other._hash and self.expr == other.expr


# the field naming a node's head, for the kinds of node that have one (the others are told by their class alone)
_HEADS: dict[type, Callable[[ast.Expr], str]] = {
    ast.BinOp: attrgetter("op"),
    ast.Name: attrgetter("id"),
    ast.Call: attrgetter("func"),
    ast.Quantifier: attrgetter("kind"),
}
_SHAPE_TERM = _Term(ast.Name("shape"))
_EXACTLY_ONE_TERMS = tuple((a, b, _Term(ast.Name(a)), _Term(ast.Name(b))) for a, b in _EXACTLY_ONE)


class _Conjunct:
    """One conjunct as ``_contradiction`` reads it, read once: the term it asserts (or denies) and, when it compares
    a term with a constant, that comparison."""

    __slots__ = ("expr", "atom", "truth", "comparison")

    def __init__(self, expr: ast.Expr) -> None:
        self.expr = expr
        self.atom, self.truth = (expr.operand, False) if isinstance(expr, ast.Not) else (expr, True)
        self.comparison = _comparison(expr)


def _contradiction(conjuncts: list[_Conjunct]) -> str | None:
    literals: dict[_Term, bool] = {}
    equal: dict[_Term, _Const] = {}
    unequal: dict[_Term, set[_Const]] = {}
    bounds: dict[_Term | str, tuple[float, float]] = {}
    shown: dict[_Term | str, ast.Expr | str] = {}  # how a message names each key, rendered only for a message

    def bound(key: _Term | str, low: float, high: float) -> bool:
        old_low, old_high = bounds.get(key, _UNBOUNDED)
        bounds[key] = (max(old_low, low), min(old_high, high))
        return bounds[key][0] > bounds[key][1]

    for c in conjuncts:
        atom, truth = c.atom, c.truth
        atom_key = _Term(atom)
        if literals.get(atom_key, truth) != truth:
            return f"`{_words(atom)}` must be both true and false"
        literals[atom_key] = truth
        comparison = c.comparison
        if comparison is None:
            continue
        term, op, value = comparison
        term_key = _Term(term)
        key: _Term | str = _size_of(term) or term_key
        shown.setdefault(key, term)
        if op == "==":
            if term_key in equal and equal[term_key] != value:
                return f"`{_words(term)}` cannot equal both `{_shown(equal[term_key])}` and `{_shown(value)}`"
            if value in unequal.get(term_key, ()):
                return f"`{_words(term)}` cannot both equal and differ from `{_shown(value)}`"
            equal[term_key] = value
            if value[0] == "name" and isinstance(term, ast.Name) and term.id == "shape":
                for size_key, has in _SHAPE_SIZES.get(str(value[1]), {}).items():
                    shown.setdefault(size_key, f"size({size_key})")
                    if bound(size_key, *has):
                        return f"a `{value[1]}` hand has {_range_words(*has)} `{size_key}`"
        elif op == "!=":
            if equal.get(term_key) == value:
                return f"`{_words(term)}` cannot both equal and differ from `{_shown(value)}`"
            unequal.setdefault(term_key, set()).add(value)
        if value[0] != "int":
            continue
        low, high = _BOUNDS_OF[op](cast(int, value[1]))
        if isinstance(key, str):
            bound(key, *_SIZE_BOUNDS[key])
        if bound(key, low, high):
            shape = equal.get(_SHAPE_TERM)
            if isinstance(key, str) and shape is not None and str(shape[1]) in _SHAPE_SIZES:
                has = _SHAPE_SIZES[str(shape[1])].get(key, _SIZE_BOUNDS[key])
                return f"a `{shape[1]}` hand has {_range_words(*has)} `{key}`"
            return f"no number meets every bound on `{_named(shown[key])}`"
    for key, (low, _) in bounds.items():  # a count over sets or pairs is at most their size
        domain = _counted(key if isinstance(key, str) else key.expr)
        if domain is not None and low > bounds.get(domain, _SIZE_BOUNDS[domain])[1]:
            return f"no number meets every bound on `{_named(shown[key])}`"
    for a, b, a_key, b_key in _EXACTLY_ONE_TERMS:
        ta, tb = literals.get(a_key), literals.get(b_key)
        if ta is not None and ta == tb:
            return f"every win is exactly one of `{a}` and `{b}`"
    return None


_UNBOUNDED = (float("-inf"), float("inf"))
# the numbers ``term OP number`` leaves the term, per comparison
_BOUNDS_OF: dict[str, Callable[[int], tuple[float, float]]] = {
    "==": lambda number: (number, number),
    "<": lambda number: (_UNBOUNDED[0], number - 1),
    "<=": lambda number: (_UNBOUNDED[0], number),
    ">": lambda number: (number + 1, _UNBOUNDED[1]),
    ">=": lambda number: (number, _UNBOUNDED[1]),
    "!=": lambda number: _UNBOUNDED,
}


def _named(shown: ast.Expr | str) -> str:
    return shown if isinstance(shown, str) else _words(shown)


def _shown(value: _Const) -> str:
    return f'"{value[1]}"' if value[0] == "str" else str(value[1])


def _range_words(low: int, high: int) -> str:
    return str(low) if low == high else f"{low} to {high}"


def _words(expr: ast.Expr) -> str:
    """The expression as written, for a message (shortened)."""
    return printable(render_expr(expr), limit=60)


def _check_file_name(rulebook: ResolvedRulebook, diags: _Diagnostics) -> None:
    """The header's name should be the file's name: ``extends NAME`` finds a file by its name, so a rulebook
    named otherwise cannot be extended by what it calls itself (and a hyphenated file name cannot be extended at
    all, since a rulebook name is letters, digits and ``_``)."""
    if not rulebook.chain or diags.full:
        return
    leaf = rulebook.chain[-1]
    file = leaf.file if leaf.file != "<input>" else leaf.span.file
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    if not base.endswith(RULEBOOK_SUFFIX):
        return
    stem = base[: -len(RULEBOOK_SUFFIX)]
    if stem == leaf.name:
        return
    span = leaf.name_span if leaf.name_span != ast.NO_SPAN else leaf.span
    if not span.file or span.file == "<input>":
        span = ast.Span(file, span.line, span.column, span.end_line, span.end_column)
    if _NAME.fullmatch(stem) is None:
        fixed = re.sub(r"[^A-Za-z0-9_]", "_", stem)
        if not fixed or fixed[0].isdigit():
            fixed = f"r_{fixed}"
        diags.warning(
            f"the file name `{printable(stem)}` cannot be a rulebook name, so no rulebook can `extends` this file",
            span,
            f"rename the file `{printable(fixed)}{RULEBOOK_SUFFIX}` and call the rulebook `{printable(fixed)}` "
            "(names are letters, digits and `_`)",
        )
        return
    diags.warning(
        f"rulebook `{leaf.name}` is in the file `{printable(base)}`",
        span,
        f"`extends {printable(stem)}` finds this file by its name: write `rulebook {printable(stem)}`, "
        f"or rename the file `{leaf.name}{RULEBOOK_SUFFIX}`",
    )


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a name of the language (grammar.lark, NAME)


def _compatible(want: str, got: str) -> bool:
    if want == got or want == V.ANY or got == V.ANY:
        return True
    if want.startswith("list of ") and got.startswith("list of "):
        return _compatible(want[8:], got[8:])
    if want == V.TILES and got == V.TILE:
        return True
    if want == V.list_of(V.TILES) and got == V.list_of(V.TILE):
        return True
    return False


def _a(t: str) -> str:
    words = {
        V.BOOL: "a condition",
        V.INT: "a number",
        V.STR: "a string",
        V.TILE: "a tile",
        V.GROUP: "a group",
        V.SUIT: "a suit",
        V.WAIT: "a wait",
        V.SHAPE: "a shape",
        V.RECORD: "a record",
        V.ITEM: "a yaku name",
        V.HAN_TYPE: "a han value",
    }
    if t in words:
        return words[t]
    if t.startswith("list of "):
        return f"a list of {t[8:]}s"
    return t


def _literal_type(value: ast.Expr) -> str | None:
    match value:
        case ast.Int() | ast.Negate(operand=ast.Int()):
            return V.INT
        case ast.Bool():
            return V.BOOL
        case ast.Str():
            return V.STR
        case ast.Tiles():
            try:
                return V.TILE if len(parse_tiles(value.text)) == 1 else V.TILES
            except NotationError:
                return V.TILES
        case ast.ListLit():
            types = {_literal_type(e) for e in value.items}
            if None in types or len(types) > 1:
                return None
            return V.list_of(cast(str, types.pop()) if types else V.ANY)  # None was ruled out just above
    return None


def _value_sources(rulebook: ResolvedRulebook, diags: _Diagnostics) -> dict[str, Reporter]:
    """The source of each file of the chain, by the name its spans carry, when each file of the chain has a name of
    its own (else none: a text named twice would show one file's characters at the other's spans)."""
    files = [book.file for book in rulebook.chain]
    if len(set(files)) != len(files):
        return {}
    return {file: reporter for file, reporter in diags.reporters.items() if file in files}


def _value_key(sources: dict[str, Reporter], kind: str, name: str, value: ast.Expr) -> tuple[str, str, ast.Expr | str]:
    """Where ``clean_values`` keeps what a field's value was found to be: by the characters it is written with when
    it fits on one line of its file, else by its syntax tree (which compares and hashes without its spans, node by
    node). Equal characters read by the same parser make equal trees, so a value found under its characters is
    one an equal tree would find; the characters are sliced and hashed in one step each, where hashing and comparing
    a tree is a Python call per node (a fifth of checking a file of thousands of items)."""
    file, line, column, end_line, end_column = value.span
    if line == end_line and column < end_column:
        source = sources.get(file)
        if source is not None:
            text = source.line(line)
            if text is not None and end_column - 1 <= len(text):
                return (kind, name, text[column - 1 : end_column - 1])
    return (kind, name, value)


def _mentions(expr: ast.Expr, name: str) -> bool:
    if isinstance(expr, ast.Name):
        return expr.id == name
    for child in ast.children(expr):
        if _mentions(child, name):
            return True
    return False


def _is_constant(expr: ast.Expr) -> bool:
    """A literal, or a constant of the language (``m``, ``dragons`` ...): what the engine can read with no hand."""
    return isinstance(expr, (ast.Bool, ast.Str, ast.Int)) or (isinstance(expr, ast.Name) and expr.id in V.CONSTANTS)


def _scope_words(name: str) -> str:
    scope = V.FACTS[name].scope
    return {
        V.HAND: "hand items",
        V.VALUE: "limit and payment items (after yaku are decided)",
        V.TABLE: "payment items",
        V.ROUND: "draw, abortive_draw and liability items",
    }[scope]


def _retired_help(retired: V.RetiredSetting, f: ast.Field) -> str:
    """Where the key went, and the new line that means what this file's old value meant."""
    written = f.value.value if isinstance(f.value, ast.Bool) else None
    meant = dict(retired.values).get(str(written).lower()) if written is not None else None
    new = f"settings {retired.group} {{ {retired.key} = {meant} }}" if meant else f"settings {retired.group} {{ {retired.key} = ... }}"
    olds = "; ".join(f"`{old}` meant `{value}`" for old, value in retired.values)
    return f"it was replaced by `{retired.key}` in `settings {retired.group}`: write `{new}` ({olds})"


def _other_group_hint(name: str) -> str | None:
    """Where a key written under the wrong group belongs (``start_points`` is a ``settings table`` key)."""
    groups = [f"`settings {group}`" for group, keys in V.SETTINGS.items() if name in keys]
    if not groups:
        return None
    return f"`{name}` belongs to {' or '.join(groups)}"


def _kind_span(item: ResolvedItem) -> ast.Span:
    """Where the item's kind is written (an exception's target kind), else where the item starts."""
    d = item.definition
    if d is not None:
        span = d.target_span if d.action == "exception" else d.kind_span
        if span != ast.NO_SPAN:
            return span
    return item.history[0].span


def _name_span(item: ResolvedItem) -> ast.Span:
    """Where the item's name is written, else where the item starts."""
    d = item.definition
    if d is not None and d.name_span != ast.NO_SPAN:
        return d.name_span
    return item.history[0].span


def _head_span(item: ResolvedItem) -> ast.Span:
    """The start of the item's head line (after its decorators)."""
    d = item.definition
    if d is not None and d.action != "exception" and d.kind_span != ast.NO_SPAN:
        return d.kind_span
    return _name_span(item)


def _field_name_span(f: ast.Field) -> ast.Span:
    return ast.Span(f.span.file, f.span.line, f.span.column, f.span.line, f.span.column + len(f.name))
