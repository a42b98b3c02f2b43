"""Rules a file writes that can never change an outcome, because another rule of the rulebook decides first.

An organiser who writes ``triple_ron = "head_bump"`` on top of a rulebook whose ``abortive_draw sanchahou`` still
aborts every hand with three rons has written a line that does nothing; nothing told them. ``riichi check`` now
compares the file with the rulebook it extends, one change at a time, with the scenario machinery of ``riichi
diff`` (``engine.diff.change_witnesses``): under this rulebook, with only that change undone (the parent's value, the
item absent), does a scripted round, a round's end or a final table settle differently? When nothing moves, the
rulebook's other flow rules are tried one at a time (an abortive draw, draw or liability item left out, a setting
given another value its kind allows) on the rounds scripted for this change; the first that lets the change move
is the rule that decides first, and the warning names it with its location.

Only what the scripted rounds can show is judged: a change of a kind no script was built for, or one whose
shadowing rule is not found within the budget, gets no warning (a search that finds nothing proves nothing, and
a warning an organiser cannot act on would teach them to ignore warnings). A value that is what the rulebook does
anyway is left to the checker. The search is bounded by work, not by time, so that the same file draws the same
warnings on any machine: at most ``SHADOW_TRIES`` rulebook pairs, fewer for a large file (``SHADOW_ITEM_WORK``
items compiled in all); ``SHADOW_SECONDS`` of processor time is only a last guard against a file whose rounds are
unusually costly, far above what any file within the work bound needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from engine.core.errors import InternalError
from engine.diff.change_scenarios import ROUND_ITEM_KINDS, plus_change, scenario_or_reason, with_change
from engine.round.rules import ROUND_RULE_FIELDS, round_rules
from engine.round.witness import ALIKE, SCRIPTS, Cache, NotPlayable, Script, played, topic_of
from engine.scoring.score import Scorer
from ruledsl import ast
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.compile import compile_rulebook
from ruledsl.diagnostics import Diagnostic, RulebookError
from ruledsl.record import record, replace
from ruledsl.resolve import ResolvedRulebook, parent_of
from ruledsl.rulebook_changes import Change, diff
from ruledsl.user_error import EngineError
from ruledsl.vocabulary import BOOL, INT, SETTINGS, STR, list_of

SHADOW_TRIES = 60  # pairs of rulebooks (each compiled and played on a change's scripts) one check may build
SHADOW_ITEM_WORK = 12_000  # items compiled in all: a file of thousands of items gets a few pairs, not sixty
SHADOW_SECONDS = 30.0  # a last guard only (the work bound keeps a check to seconds); hitting it drops warnings

# What a mix of rules may fail with and still be no evidence either way: the checker's or compiler's verdict, a
# rule meeting a value it cannot use, a table the scripted rounds cannot be dealt at, or the engine refusing the
# rules. Anything else is a fault of this search, a bug of ours: an internal error, never a silent pass.
UNPLAYABLE: tuple[type[Exception], ...] = (RulebookError, EngineError, RuleEvaluationError, NotPlayable)
SHADOW_KINDS = ROUND_ITEM_KINDS  # items whose absence may let a change act: they settle rounds by their own fields
FIXED_GROUPS = ("table", "scoring")  # the tile set, the table size and hand scoring: not a flow rule's shadow

Modify = Callable[[ResolvedRulebook], ResolvedRulebook]


@record(slots=False)
class Shadow:
    """The rule that decides first: its name, how it is written, where, and the round where it shows."""

    rule: str  # "abortive_draw sanchahou", "setting multiple_ron"
    written: str  # "`abortive_draw sanchahou`", "`multiple_ron = 1`"
    fix: str  # what would let the change act: "write `remove abortive_draw sanchahou`", "set `multiple_ron = 2`"
    span: ast.Span
    situation: str
    others: tuple[str, ...] = ()  # other abortive draws that also end the change's rounds by their own fields


class Budget:
    """How many more rulebook pairs the search may build (shared by every change of one file)."""

    def __init__(self, tries: int = SHADOW_TRIES, seconds: float = SHADOW_SECONDS) -> None:
        self.left = tries
        self.until = time.process_time() + seconds

    def spend(self) -> bool:
        """One more pair, if the budget allows it (a spent budget ends every search of the file: no warning)."""
        self.left -= 1
        return self.left >= 0 and not self.expired

    @property
    def expired(self) -> bool:
        return time.process_time() >= self.until


# ---- what moves a change's scripted rounds -------------------------------------------------------------------------


def scripts_for(change: Change) -> list[Script]:
    """The scripted rounds built to show this kind of change (none: the search has nothing to judge it by)."""
    topic, kind = topic_of(change.kind, change.name, change.group)
    return [s for s in SCRIPTS if (topic and topic in s.topics) or (kind and kind in s.topics)]


def _moves(a: Scorer, b: Scorer, scripts: list[Script], cache: Cache | None) -> Script | None:
    """The first script the two rulebooks settle differently, if any."""
    ra, rb = round_rules(a), round_rules(b)
    for script in scripts:
        out_a, out_b = played(ra, script, cache), played(rb, script, cache)
        if out_a is not None and out_b is not None and out_a != out_b:
            return script
    return None


def find_shadow(
    base: ResolvedRulebook, other: ResolvedRulebook, change: Change, budget: Budget | None = None, cache: Cache | None = None
) -> Shadow | None:
    """The rule of ``base`` that keeps ``change`` from acting: with it left out (or set otherwise), ``base`` and
    ``base`` with the change taken as ``other`` has it settle one of the change's scripted rounds differently."""
    scripts = scripts_for(change)
    if not scripts:
        return None
    budget = budget or Budget()
    toggled = with_change(base, other, change)
    try:
        rules = round_rules(Scorer(compile_rulebook(base)))
    except UNPLAYABLE:  # a rulebook that cannot be played has no shadow to find
        return None
    outcomes = [played(rules, script, cache) for script in scripts]
    if all(o is None for o in outcomes):
        return None  # none of them can be dealt at this table (a three-player script under four players, say)
    acting = {o["abortive"] for o in outcomes if o is not None and o["abortive"]}
    for shadow, modify in _candidates(base, change, acting):
        if not budget.spend():
            return None
        try:
            a, b = Scorer(compile_rulebook(modify(base))), Scorer(compile_rulebook(modify(toggled)))
            moved = _moves(a, b, scripts, None)
        except UNPLAYABLE:  # a mix the checker or compiler refuses is no evidence either way
            continue
        if moved is not None:
            others = tuple(sorted(acting - {shadow.rule.split(" ", 1)[-1]})) if shadow.rule.startswith("abortive_draw") else ()
            return replace(shadow, situation=moved.words, others=others)
    return None


def _candidates(base: ResolvedRulebook, change: Change, acting: set[str]) -> Iterator[tuple[Shadow, Modify]]:
    """The rules that may decide first, most likely first: the abortive draws that end the change's scripted rounds
    under ``base`` (``acting``), the draw and liability items, then the settings of the change's own group."""
    own = (change.kind, change.name)
    for key, item in base.items.items():
        if key == own or item.target is not None or item.kind not in SHADOW_KINDS:
            continue
        if item.kind == "abortive_draw" and item.name not in acting:
            continue
        span = item.definition.name_span if item.definition is not None else item.span
        fix = f"write `remove {item.kind} {item.name}`"
        yield Shadow(f"{item.kind} {item.name}", f"`{item.kind} {item.name}`", fix, span, ""), _without(key)
    if change.kind != "settings":
        return
    for item in base.of_kind("settings"):
        if item.name != change.group or item.name in FIXED_GROUPS:
            continue
        for name, fld in item.fields.items():
            if name == change.name or name not in ROUND_RULE_FIELDS:
                continue  # a setting no round reads (uma, tie-break...) cannot decide a round first
            for value, text in _alternatives(item.name, name, fld.value):
                written = f"`{name} = {_source(base, fld.value.span) or setting_text(fld.value)}`"
                shadow = Shadow(f"setting {name}", written, f"set `{name} = {text}`", fld.span, "")
                yield shadow, _set(item.name, name, value)


def _without(key: tuple[str, str]) -> Modify:
    def modify(rb: ResolvedRulebook) -> ResolvedRulebook:
        return replace(rb, items={k: v for k, v in rb.items.items() if k != key and v.target != key}, warnings=[])

    return modify


def _set(group: str, name: str, value: ast.Expr) -> Modify:
    def modify(rb: ResolvedRulebook) -> ResolvedRulebook:
        item = rb.items[("settings", group)]
        fields = {**item.fields, name: ast.Field(name, value)}
        return replace(rb, items={**rb.items, ("settings", group): replace(item, fields=fields)}, warnings=[])

    return modify


def _alternatives(group: str, name: str, value: ast.Expr) -> list[tuple[ast.Expr, str]]:
    """Other values the setting's kind allows (from the vocabulary): the other truth value, the other choices, the
    whole list of choices and none, one more and one less."""
    spec = SETTINGS.get(group, {}).get(name)
    if spec is None:
        return []
    out: list[tuple[ast.Expr, str]] = []
    if spec.type == BOOL and isinstance(value, ast.Bool):
        out.append((ast.Bool(not value.value), str(not value.value).lower()))
    elif spec.type == STR and isinstance(value, ast.Str):
        out += [(ast.Str(c), f'"{c}"') for c in spec.choices if c != value.value]
    elif spec.type == INT and isinstance(value, ast.Int):
        out += [(ast.Int(n), str(n)) for n in (value.value + 1, value.value - 1) if n >= 0]
    elif spec.type == list_of(STR) and spec.choices and isinstance(value, ast.ListLit):
        now = [e.value for e in value.items if isinstance(e, ast.Str)]
        for choice in (list(spec.choices), []):
            if choice != now:
                text = "[" + ", ".join(f'"{c}"' for c in choice) + "]"
                out.append((ast.ListLit(tuple(ast.Str(c) for c in choice)), text))
    return out


def setting_text(expr: ast.Expr) -> str:
    """A simple setting value as it is written (for a value with no source to quote)."""
    if isinstance(expr, ast.Bool):
        return str(expr.value).lower()
    if isinstance(expr, ast.Str):
        return f'"{expr.value}"'
    if isinstance(expr, ast.Int):
        return str(expr.value)
    if isinstance(expr, ast.ListLit):
        return "[" + ", ".join(setting_text(e) for e in expr.items) + "]"
    return "..."


def _source(rb: ResolvedRulebook, span: ast.Span) -> str | None:
    """The text a one-line span covers in its file."""
    lines = rb.texts.get(span.file, "").split("\n")
    if span.line != span.end_line or not 1 <= span.line <= len(lines) or span.end_column <= span.column:
        return None
    return lines[span.line - 1][span.column - 1 : span.end_column - 1]


# ---- the warnings of one file ---------------------------------------------------------------------------------------


def shadowed(resolved: ResolvedRulebook, tries: int = SHADOW_TRIES) -> list[Diagnostic]:
    """A warning for each flow setting or item this file writes that no scripted round shows acting, because a rule
    the search names decides first. Nothing for a file that extends nothing, or a rulebook that cannot be played."""
    parent = parent_of(resolved)
    if parent is None or parent.errors:
        return []
    flow = diff(parent, resolved, kinds={"settings", *ROUND_ITEM_KINDS})  # a file's yaku and fu are not described
    changes = [c for c in flow if not c.affects_score and (c.kind == "settings" or c.kind in ROUND_ITEM_KINDS)]
    if not changes:
        return []
    try:
        mine, theirs = Scorer(compile_rulebook(resolved)), Scorer(compile_rulebook(parent))
    except UNPLAYABLE:  # the examples step says why this rulebook cannot be used
        return []
    tries = max(1, min(tries, SHADOW_ITEM_WORK // max(len(resolved.items), 1)))
    budget, cache = Budget(tries), {}  # type: ignore[var-annotated]
    out = []
    for change in changes:
        if budget.expired:  # every change costs a compile and a few rounds: a file of thousands stops here
            break
        try:
            found = _judge(mine, theirs, change, changes, cache, budget)
        except UNPLAYABLE:  # rules that cannot play a round: this search proves nothing, and says nothing
            continue
        except Exception as exc:  # a fault of the search itself: a bug of ours, never a finding about the file
            raise _search_fault(resolved, change, exc) from exc
        if found is not None:
            out.append(_diagnostic(resolved, change, found))
    return out


def _judge(mine: Scorer, theirs: Scorer, change: Change, changes: list[Change], cache: Cache, budget: Budget) -> Shadow | None:
    """The shadow of a change that nothing shows acting alone; None when something does, or none is found.

    The change's own scripts are played first (cheap); only when they do not move and a shadow is found is the
    diff's whole search run (every script, a round's end, a final table), so that a change acting elsewhere is
    never reported."""
    rules = round_rules(mine)
    scripts = [s for s in scripts_for(change) if played(rules, s, cache) is not None]
    if not scripts:
        return None  # the machinery has no round for this kind of change (at this table): say nothing
    try:
        minus, partners = plus_change(mine, theirs, change, changes)
    except UNPLAYABLE:  # valid only with other changes: not judged alone
        return None
    if partners or _alike(mine, minus, change) or _moves(mine, minus, scripts, cache) is not None:
        return None
    shadow = find_shadow(mine.rulebook.resolved, theirs.rulebook.resolved, change, budget, cache)
    if shadow is None or not budget.spend():
        return None
    scenario, reason = scenario_or_reason(mine, theirs, change, cache, changes)
    return shadow if scenario is None and reason not in (None, ALIKE) else None


def _alike(a: Scorer, b: Scorer, change: Change) -> bool:
    """The round rules read the same value either way (a default written out): the checker's business, not ours."""
    ra, rb = round_rules(a), round_rules(b)
    return change.kind == "settings" and change.name in ROUND_RULE_FIELDS and getattr(ra, change.name) == getattr(rb, change.name)


def _diagnostic(rb: ResolvedRulebook, change: Change, shadow: Shadow) -> Diagnostic:
    """The warning at this file's line, with the shadowing rule's own line as a related note."""
    span, written, drop = _written(rb, change)
    note = Diagnostic("note", f"{shadow.written} is written here", shadow.span, source_line=_line(rb, shadow.span))
    return Diagnostic(
        "warning",
        f"{written} can never change an outcome: {_decides(shadow)}",
        span,
        f"{shadow.fix} for this line to apply, or {drop}",
        _line(rb, span),
        related=(note,),
    )


def _search_fault(rb: ResolvedRulebook, change: Change, exc: Exception) -> InternalError:
    """The search stopped on this line through a fault of its own, not of the file: the contract's internal error
    (`riichi check` exits 3, the server answers `internal_error`), as for a fault of the examples step, so that a
    bug of ours never reads as a finding about the organiser's file."""
    _, written, _ = _written(rb, change)
    return InternalError.of(exc, f"judging whether {written} can change an outcome")


def _decides(shadow: Shadow) -> str:
    where = f"(where it would matter: {shadow.situation})"
    if not shadow.rule.startswith("abortive_draw"):
        return f"{shadow.written} decides first {where}"
    words = f"{shadow.written} decides first, settling the round by its own fields {where}"
    if len(shadow.others) == 1:
        words += f"; the abortive draw `{shadow.others[0]}` also settles its rounds by its own fields"
    elif shadow.others:
        words += f"; the abortive draws {', '.join(f'`{n}`' for n in shadow.others)} also settle their rounds by their own fields"
    return words


def _line(rb: ResolvedRulebook, span: ast.Span) -> str | None:
    lines = rb.texts.get(span.file, "").split("\n")
    return lines[span.line - 1] if 1 <= span.line <= len(lines) else None


def _written(rb: ResolvedRulebook, change: Change) -> tuple[ast.Span, str, str]:
    """Where this file writes the change, the change in its own words, and what dropping it means."""
    leaf = rb.chain[-1]
    if change.kind == "settings":
        fld = rb.items[("settings", change.group or "")].fields.get(change.name)
        if fld is not None:
            return fld.span, f"`{change.name} = {_source(rb, fld.value.span) or setting_text(fld.value)}`", "drop this setting"
    if change.change == "removed":
        removal = next((r for r in rb.removed if r.key == (change.kind, change.name) and r.rulebook == leaf.name), None)
        if removal is not None:
            return removal.span, f"`remove {change.kind} {change.name}`", "drop this removal"
    item = rb.items.get((change.kind, change.name))
    if item is not None:
        first = next((item.fields[f].span for f in change.fields if f in item.fields), item.span)
        verb = "override " if change.change == "changed" else ""
        return first, f"`{verb}{change.kind} {change.name}`", "drop this item" if not verb else "drop this override"
    return leaf.span, f"`{change.item}`", "drop it"


__all__ = ["SHADOW_TRIES", "Budget", "Shadow", "find_shadow", "shadowed", "scripts_for"]
