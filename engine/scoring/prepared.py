"""A rulebook prepared for scoring: its rules as closures in plain tables, narrowed per situation.

Scoring is the hot path, so a scorer prepares once what every hand would otherwise recompute: each rule's nodes as
closures (``ruledsl.fast``), the yaku, bonus and fu items as parallel tuples of entries and conditions that C-level
loops walk, the value functions of items without exceptions, the per-element fu sums, and what the limit and
payment rules read (so their results can be kept per han, fu and base). ``Tables`` then drops, per distinct
situation, the rules its facts already decide. Every shortcut computes exactly what the straightforward path would
(``reference=True`` keeps the rules as the reference evaluator's nodes and skips them all, for the tests).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from functools import cached_property, partial
from itertools import compress, repeat
from operator import call

from engine.core import tiles as T
from engine.core.hand import allowed_codes
from engine.core.memo import BoundedCache, Memo
from engine.core.situation import Situation
from engine.scoring.facts import (
    AHEAD_HAND,
    AHEAD_READING,
    WAIT_FACTS,
    plan_ahead,
    situation_facts,
    successor_table,
)
from ruledsl.fast import (
    PACKED_FACTS,
    Chain,
    Pack,
    any_of,
    build,
    closure,
    disjunct,
    element_counter,
    is_constant_true,
    may_raise,
    mentioned,
    packs_read,
    reads,
    simplify,
    valued_when,
)
from ruledsl.nodes import Const, Rule, Rulebook, Variant
from ruledsl.record import field, record, replace
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

# Caches of a prepared rulebook, bounded: emptied when they reach this many entries (real traffic repeats far less).
SETTLE_CACHE_LIMIT = 4096


@record(slots=False)
class FastRule:
    """A compiled rule with its conditions and fields turned into closures (``ruledsl.fast``) for the hot path."""

    kind: str
    name: str
    title: str
    clause: str | None
    when: Any
    fields: dict[str, Any]
    variants: tuple[Variant, ...]  # exceptions, with closures in place of their nodes
    always: bool = False  # the condition is the constant true: the tables skip calling it
    source: Rule | None = None  # the compiled rule, whose nodes ``Tables`` and ``_summed_per_element`` analyse
    simple: Any = None  # its condition simplified (``ruledsl.fast.simplify``), which ``_static_test`` reads

    # What preparing a rulebook works out about each rule, kept with the rule: a rulebook with one change compiled
    # and prepared from another (``prepare(like=...)``) shares the other's fast rules, so only its changed item is
    # analysed again (``riichi diff`` prepares dozens of such mixes). Each is a function of the rule alone.

    @cached_property
    def static_test(self) -> tuple[Any, frozenset[str], bool] | None:
        """``_static_test`` of this rule."""
        return _static_test(self)

    @cached_property
    def mentions(self) -> frozenset[str]:
        """The facts the compiled rule's nodes name (``_rule_mentions``)."""
        return _rule_mentions(self.source) if self.source is not None else frozenset()

    @cached_property
    def reads(self) -> frozenset[str] | None:
        """Every fact the compiled rule's nodes may read, None when that cannot be told (``_rule_reads``)."""
        return _rule_reads(self.source) if self.source is not None else frozenset()

    @cached_property
    def reads_wait(self) -> bool:
        """Whether the rule's condition may read the wait (``facts.WAIT_FACTS``): what ``Tables.again`` asks of
        it. Only conditions count: a rule with exceptions keeps no lines, and is valued by
        ``Valuer._valuate_general``. A rule not made from nodes, or whose reads cannot be told, may read it."""
        if self.source is None:
            return True
        when = self.source.when
        found = reads(when) if callable(when) else frozenset()
        return found is None or not WAIT_FACTS.isdisjoint(found)

    @cached_property
    def disjunct(self) -> tuple[Any, ...]:
        """How ``ruledsl.fast.any_of`` tests the simplified condition among others (``ruledsl.fast.disjunct``): a
        situation's tables combine the yakuman conditions it leaves, and each one's analysis is the same in all."""
        return disjunct(self.simple)

    @cached_property
    def fu_counter(self) -> tuple[str, int, Callable[[Any], int]] | None:
        """For an unconditional fu item without exceptions worth ``c * count(g in FACT: ...)``: (fact, c, counter)
        (``ruledsl.fast.element_counter``); None for any other rule."""
        value = self.source.fields.get("fu") if self.source is not None else None
        return element_counter(value) if self.always and not self.variants and callable(value) else None


def _fast_fields(fields: dict[str, Any], evaluator: Callable[[Any], Any]) -> dict[str, Any]:
    return {k: (evaluator(v) if callable(v) else v) for k, v in fields.items()}


def _reference(node: Any) -> Any:
    """The reference evaluator: the compiled node itself (``ruledsl.compile``), called as it is."""
    return node


def fast_rule(rule: Rule, evaluator: Callable[[Any], Any] = closure) -> FastRule:
    """The rule with its nodes turned into closures (or, with ``_reference``, left as the nodes): what the hot
    loops call instead of walking the compiled nodes. The condition is simplified once, for its closure, for
    ``always`` and for ``Tables``."""
    fast = evaluator is closure
    simple = simplify(rule.when) if fast else None
    return FastRule(
        rule.kind,
        rule.name,
        rule.title,
        rule.clause,
        build(simple) if fast else evaluator(rule.when),
        _fast_fields(rule.fields, evaluator),
        tuple(replace(v, when=evaluator(v.when), fields=_fast_fields(v.fields, evaluator)) for v in rule.variants),
        always=fast and is_constant_true(simple),
        source=rule,
        simple=simple,
    )


def _fast_all(rules: Iterable[Rule], evaluator: Callable[[Any], Any] = closure, before: dict[int, FastRule] | None = None) -> tuple[FastRule, ...]:
    """The rules as ``fast_rule`` makes them; ``before``: fast rules made earlier, by their compiled rule's id (a
    rule compiled once and shared by two rulebooks, ``compile_rulebook(like=...)``, is made fast once)."""
    if not before:
        return tuple(fast_rule(r, evaluator) for r in rules)
    return tuple(found if (found := before.get(id(r))) is not None and found.source is r else fast_rule(r, evaluator) for r in rules)


def _fast_rules_of(prepared: Prepared) -> dict[int, FastRule]:
    """Every fast rule of a prepared rulebook, by its compiled rule's id."""
    groups = (prepared.yakuman_rules, prepared.yaku_rules, prepared.standalone_rules, prepared.bonus_rules, prepared.fu_rules,
              prepared.fixed_fu_rules, prepared.limit_rules, prepared.payment_rules)
    return {id(r.source): r for group in groups for r in group}


@record(frozen=False, slots=False)
class Prepared:
    """What a rulebook needs precomputed to score quickly: its tile set, dora successor table and rule tables."""

    rulebook: Rulebook
    allowed_kinds: frozenset[int]
    red_fives: frozenset[int]
    copies: int
    successors: dict[int, int]
    players: int
    fu_rounding: int
    stacking: str
    yakuman_excludes_yaku: bool
    bonus_needs_yaku: bool
    deposit: int
    kita_allowed: bool
    # `settings scoring shibari_han` / `shibari_honba`: han a win needs from yaku alone (bonus han not counted) once
    # that many honba are on the table (ryanhan shibari); 1 asks nothing beyond the one yaku every win needs
    shibari_han: int = 1
    shibari_honba: int = 0
    # `settings scoring atozuke = false`: a win needs a yaku on every tile of its wait (``Valuer._atozuke_refusal``);
    # true (the default) costs nothing per hand
    atozuke: bool = True
    atozuke_clause: str = ""
    yakuman_rules: tuple[FastRule, ...] = field(default=())
    yaku_rules: tuple[FastRule, ...] = field(default=())
    standalone_rules: tuple[FastRule, ...] = field(default=())
    bonus_rules: tuple[FastRule, ...] = field(default=())
    fu_rules: tuple[FastRule, ...] = field(default=())
    fixed_fu_rules: tuple[FastRule, ...] = field(default=())
    limit_rules: tuple[FastRule, ...] = field(default=())
    payment_rules: tuple[FastRule, ...] = field(default=())
    limit_reads: tuple[str, ...] | None = None  # other facts the limit rules read (``_settle_reads``)
    payment_reads: tuple[str, ...] | None = None  # other facts the payment rules read
    hand_ahead: tuple[Any, ...] = ()  # providers of the hand facts the hand rules read (``facts.plan_ahead``)
    reading_ahead: tuple[Any, ...] = ()  # the same for reading facts
    reference: bool = False  # rules run as the reference nodes, through the plain paths: no shortcut, no cache

    def __post_init__(self) -> None:
        # ``clause_from`` of each inherited clause, by the (id, clause) a response's line carries: result lines are
        # built with it, so that a response takes them as they are
        self.origins = origins = self.rulebook.clause_origins()
        # the hot loops walk plain tuples: the rules (for yaku with their han) and, beside them, their conditions;
        # ``Tables`` narrows them down per situation
        self.yakuman_whens = tuple(_condition(r) for r in self.yakuman_rules)
        self.yaku_closed = _yaku_table(self.yaku_rules, True, origins)
        self.yaku_open = _yaku_table(self.yaku_rules, False, origins)
        self.standalone_tables = {id(r): (_yaku_table((r,), True, origins), _yaku_table((r,), False, origins)) for r in self.standalone_rules}
        self.bonus_table = _valued_table(self.bonus_rules, "han")
        self.fu_table = _valued_table(self.fu_rules, "fu")
        self.bonus_values = None if self.reference else _values(self.bonus_rules, "han", origins)
        self.fu_values = None if self.reference else _values(self.fu_rules, "fu", origins)
        # the result lines of bonus and fu items by (the item's place, its value), made once each: values are ints
        # (the checker's type), and few of them occur per item
        self.bonus_lines: Memo[tuple[int, int], dict[str, Any]] = Memo(partial(_value_line, _about(self.bonus_values), "han"), SETTLE_CACHE_LIMIT)
        self.fu_lines: Memo[tuple[int, int], dict[str, Any]] = Memo(partial(_value_line, _about(self.fu_values), "fu"), SETTLE_CACHE_LIMIT)
        self.bonus_positions = tuple(range(len(self.bonus_rules)))
        self.fu_positions = tuple(range(len(self.fu_rules)))
        self.fu_per_element = None
        if self.fu_values is not None:
            self.fu_values, self.fu_per_element = _summed_per_element(self.fu_values, self.fu_rules)
        # the same shares as (item's place, share) pairs, the nonzero ones only: what ``Valuer._valuate`` adds to
        # the few items a reading's sets reach, instead of adding whole rows
        self.fu_share_pairs = None if self.fu_per_element is None else (self.fu_per_element[0], Memo(partial(_share_pairs, self.fu_per_element[1]), SETTLE_CACHE_LIMIT))
        self.fixed_fu_table = tuple((r.when, r) for r in self.fixed_fu_rules)
        # bounded and registered (``ruledsl.memo``): ``clear_all`` empties them with every other cache
        self.limit_cache: BoundedCache[tuple, tuple] = BoundedCache(SETTLE_CACHE_LIMIT)
        self.payment_cache: BoundedCache[tuple, tuple] = BoundedCache(SETTLE_CACHE_LIMIT)
        self.allowed_codes = frozenset(code for code, kind in enumerate(T.KIND_OF) if kind in self.allowed_kinds)
        self.hand_codes = allowed_codes(self.allowed_kinds, self.red_fives)  # red fives only those in play
        # the caches' keys, each one flat tuple read off the reading's table (where han, fu and yakuman, or the base,
        # are set before): a key is kept with every entry, and a nested tuple would be one more object per entry
        self.limit_key = _key_of(("han", "fu", "yakuman", *(self.limit_reads or ())))
        self.payment_key = _key_of(("base", *(self.payment_reads or ())))
        # a reading's limits and payments together, by han, fu, yakuman and every other fact either reads (the base
        # follows from those): one lookup per reading where both can be told (``Valuer._valuate``)
        self.settled_cache: BoundedCache[tuple, tuple] = BoundedCache(SETTLE_CACHE_LIMIT)
        both = None if self.limit_reads is None or self.payment_reads is None else tuple(sorted({*self.limit_reads, *self.payment_reads}))
        self.settled_key = None if both is None else _key_of(("han", "fu", "yakuman", *both))
        hand_rules = (*self.yakuman_rules, *self.yaku_rules, *self.bonus_rules, *self.fu_rules, *self.fixed_fu_rules)
        self.static_tests = {id(r): None if self.reference else r.static_test for r in hand_rules}
        # what ``Tables`` reads to prune the rules of a situation: the tests to decide, and each table's rule ids
        self.decidable = tuple((key, test) for key, test in self.static_tests.items() if test is not None)
        self.yakuman_ids = tuple(map(id, self.yakuman_rules))
        self.yaku_closed_ids = tuple(id(entry[2]) for entry in self.yaku_closed[0])
        self.yaku_open_ids = tuple(id(entry[2]) for entry in self.yaku_open[0])
        # each yaku table's columns that ``Tables`` keeps for the entries a situation leaves (``_kept_lines``):
        # (result lines, what each excludes, whether each excludes anything), picked C-level by the same mask
        self.yaku_closed_columns = _columns(self.yaku_closed[0])
        self.yaku_open_columns = _columns(self.yaku_open[0])
        self.bonus_decided = tuple((id(r), r.fields.get(_VALUE_FIELD[r.kind])) for r in self.bonus_rules)
        self.fu_decided = tuple((id(r), r.fields.get(_VALUE_FIELD[r.kind])) for r in self.fu_rules)
        names = sorted({n for test in self.static_tests.values() if test is not None for n in test[1]} | {"closed"})
        self.static_key = operator.itemgetter(*names)
        self.tables_cache: BoundedCache[tuple, Tables] = BoundedCache(TABLES_CACHE_LIMIT)
        self._yakuman_any: dict[tuple[int, ...], Callable[[dict[str, Any]], bool]] = {}  # ``yakuman_any``

    def yakuman_any(self, rules: tuple[FastRule, ...], whens: tuple[Any, ...]) -> Callable[[dict[str, Any]], bool]:
        """Whether any of these yakuman conditions (a situation's, ``Tables``) holds in a reading, as one function:
        their disjunction, whose like operands ``ruledsl.fast`` tests together (most readings hold none, and each
        condition asked alone is a call). The same answer, raising the same error, as asking each in turn; kept per
        list of conditions (a few per rulebook: the situations prune the same few rules)."""
        key = tuple(map(id, whens))
        found = self._yakuman_any.get(key)
        if found is None:
            if self.reference or not whens or any(r.simple is None for r in rules):
                found = partial(_any_holds, whens)
            else:
                # a condition the situation already decides (``ALWAYS``) is the constant true, in its place
                parts = tuple(_TRUE if w is ALWAYS else r.simple for r, w in zip(rules, whens, strict=True))
                kinds = tuple(_TRUE_KIND if w is ALWAYS else r.disjunct for r, w in zip(rules, whens, strict=True))
                found = any_of(parts, whens, kinds)
            self._yakuman_any[key] = found
        return found

    @cached_property
    def reads_wait(self) -> tuple[tuple[bool, ...], tuple[bool, ...], tuple[bool, ...]]:
        """Whether each yakuman, closed-table yaku and open-table yaku condition reads the wait
        (``FastRule.reads_wait``), in the tables' order: what ``_again_plan`` picks for a situation's rules."""
        def flags(rules: Iterable[FastRule]) -> tuple[bool, ...]:
            return tuple(rule.reads_wait for rule in rules)

        return flags(self.yakuman_rules), flags(e[2] for e in self.yaku_closed[0]), flags(e[2] for e in self.yaku_open[0])

    def tables(self, facts: dict[str, Any]) -> Tables:
        """The rule tables for hands with these situation facts (``Tables``), built on first use."""
        key = self.static_key(facts)
        tables = self.tables_cache.get(key)
        if tables is None:
            tables = self.tables_cache.put(key, Tables(self, facts))
        return tables


_TRUE = Const(True)
_TRUE_KIND = disjunct(_TRUE)


# ---- tables per situation --------------------------------------------------------------------------------------
# Many conditions are settled by how the hand was won before any tile is looked at: ``riichi`` (or a rule that
# starts ``tsumo and ...``) is false for every reading of a ron without riichi. A rule's *static part*, the
# conjuncts of its condition that read only situation facts and ``closed``, is evaluated once per distinct
# situation; a rule whose static part is false is left out of that situation's tables, and one whose whole
# condition is static and true is kept without its condition. What is left is evaluated per reading as before.

STATIC_FACTS = frozenset(situation_facts(Situation(), 4)) | {"closed"}
TABLES_CACHE_LIMIT = 1024


def _static_test(rule: FastRule) -> tuple[Any, frozenset[str], bool] | None:
    """(closure of the static conjuncts, the facts they read, whether they are the whole condition), or None."""
    if rule.source is None or rule.always:
        return None
    simple = rule.simple if rule.simple is not None else simplify(rule.source.when)
    parts = simple.parts if isinstance(simple, Chain) and simple.conjunction else (simple,)
    static = []
    names: set[str] = set()
    for part in parts:
        if may_raise(part):  # a conjunct that may raise is met first when it comes first: none after it decides
            break
        found = reads(part)
        if found is not None and found <= STATIC_FACTS:
            static.append(part)
            names |= found
    if not static:
        return None
    test = Chain(True, tuple(static)) if len(static) > 1 else static[0]
    return closure(test), frozenset(names), len(static) == len(parts)


class Tables:
    """The rule tables of one situation: statically false rules left out, statically true ones unconditioned."""

    def __init__(self, prepared: Prepared, facts: dict[str, Any]) -> None:
        decided = {key: _decide(test, facts) for key, test in prepared.decidable}
        verdict = decided.get
        yakuman_verdicts = list(map(verdict, prepared.yakuman_ids))
        self.yakuman_rules, self.yakuman_whens = _pruned(prepared.yakuman_rules, prepared.yakuman_whens, yakuman_verdicts)
        self.yakuman_any = prepared.yakuman_any(self.yakuman_rules, self.yakuman_whens)
        closed = facts["closed"]
        entries, whens = prepared.yaku_closed if closed else prepared.yaku_open
        yaku_verdicts = list(map(verdict, prepared.yaku_closed_ids if closed else prepared.yaku_open_ids))
        self.yaku = _pruned(entries, whens, yaku_verdicts)
        self.bonus_values = _pruned_values(prepared.bonus_values, prepared.bonus_decided, decided)
        self.fu_values = _pruned_values(prepared.fu_values, prepared.fu_decided, decided)
        self.fu_per_element = prepared.fu_per_element
        # the lines kept ahead for ``Valuer._valuate``'s common path; None where an item has exceptions
        columns = prepared.yaku_closed_columns if closed else prepared.yaku_open_columns
        self.kept = _kept_lines(self.yaku, columns, yaku_verdicts, self.bonus_values, self.fu_values)
        # what a reading with the same groups as the hand's first asks again (``Valuer._holds_again``)
        self.again = None
        if self.kept is not None:
            yakuman_waits, closed_waits, open_waits = prepared.reads_wait
            self.again = _again_plan(self.yaku[1], closed_waits if closed else open_waits, yaku_verdicts, yakuman_waits, yakuman_verdicts)
        self.fixed_fu_table = tuple(
            (ALWAYS if decided.get(id(rule)) is True else when, rule)
            for when, rule in prepared.fixed_fu_table
            if decided.get(id(rule)) is not False
        )


def _decide(test: tuple[Any, frozenset[str], bool], facts: dict[str, Any]) -> bool | None:
    """False: the rule cannot hold in this situation; True: it always does; None: it depends on the reading."""
    check, _names, whole = test
    try:
        holds = bool(check(facts))
    except Exception:  # noqa: BLE001 - not decidable ahead: evaluated per reading, as written
        return None
    if not holds:
        return False
    return True if whole else None


def _columns(entries: tuple[tuple, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[bool, ...]]:
    """A yaku table's columns that ``_kept_lines`` reads: each entry's result line, what it excludes, and whether
    it excludes anything."""
    excludes = tuple(entry[6] for entry in entries)
    return tuple(entry[7] for entry in entries), excludes, tuple(map(bool, excludes))


def _kept_lines(
    yaku: tuple[tuple, tuple],
    columns: tuple[tuple[Any, ...], tuple[Any, ...], tuple[bool, ...]],
    verdicts: list[bool | None],
    bonus: tuple[tuple, tuple] | None,
    fu: tuple[tuple, tuple] | None,
) -> tuple[Any, ...] | None:
    """What ``Valuer._valuate``'s common path reads of one situation's tables: (each yaku entry's result line,
    the ids of the lines that exclude anything (None when none does: a reading holds a few lines, whose ids are
    looked up there, where a C-level pass over every entry's flag cost more), what each excludes, the yaku's conditions, the bonus
    items' value functions, the fu items', each as ``_live`` gives them); None when an item has exceptions (a yaku's line, a bonus or fu value, is then not fixed
    ahead). The valuer copies the lines of the items that hold, C-level, instead of building each in a loop.
    ``columns``: the table's (``Prepared.yaku_closed_columns``), of which ``verdicts`` (one per entry, as
    ``_pruned`` reads them) keep the entries the situation keeps."""
    all_lines, all_excludes, all_excluding = columns
    kept = list(map(_NOT_FALSE, verdicts))
    lines = tuple(compress(all_lines, kept))
    if None in lines or bonus is None or fu is None:
        return None
    excluding = frozenset(line["id"] for line in compress(lines, compress(all_excluding, kept)))
    return lines, (excluding or None), tuple(compress(all_excludes, kept)), yaku[1], _live(bonus[0]), _live(fu[0])


def _live(fns: tuple[Any, ...]) -> tuple[tuple[int, Any], ...]:
    """Value functions as ``Valuer._valuate`` asks them: (place among ``fns``, function) of those that may answer
    other than 0, in place order, paired ahead so that a reading walks one tuple instead of zipping two. A
    situation's tables answer 0 for the items that cannot hold in it, and the per-set fu items are summed per
    element (``_summed_per_element``): the rest, a few of the fu items, are the only ones worth a call.
    ``tests/engine/test_kept_lines.py`` holds the valuations equal to those of every item asked."""
    return tuple((at, fn) for at, fn in enumerate(fns) if fn is not _ANSWERS_ZERO)


def _again_plan(
    whens: tuple[Any, ...], waits: tuple[bool, ...], verdicts: list[bool | None], yakuman_waits: tuple[bool, ...], yakuman_verdicts: list[bool | None]
) -> tuple[bool, tuple[tuple[int, Any], ...]]:
    """What a reading with the same groups as one valued before must ask again (``Valuer._holds_again``): whether
    any yakuman condition reads the wait (``facts.WAIT_FACTS``), and the yaku conditions that do, by their place
    in the table; a condition whose reads cannot be told counts as reading it. ``waits``: whether each condition
    of the whole table reads it (``Prepared.reads_wait``), of which ``verdicts`` keep the situation's, and
    ``whens`` are the situation's conditions; the same for the yakuman."""
    kept_waits = compress(waits, map(_NOT_FALSE, verdicts))
    redo = tuple(compress(enumerate(whens), kept_waits))
    return any(compress(yakuman_waits, map(_NOT_FALSE, yakuman_verdicts))), redo


def _pruned(entries: tuple, whens: tuple, verdicts: list[bool | None]) -> tuple[tuple, tuple]:
    """The entries (and their conditions) of the rules whose verdict (``_decide``, one per entry) is not False, a
    rule decided True with the constant condition ``ALWAYS``: C-level passes, as a new situation's tables are
    built on the first pass over a stream's hands."""
    kept = list(map(_NOT_FALSE, verdicts))
    return tuple(compress(entries, kept)), tuple(compress(map(_ALWAYS_IF_TRUE.get, verdicts, whens), kept))


_NOT_FALSE = partial(operator.is_not, False)  # a verdict that keeps its rule (True or None)


def _pruned_values(
    values: tuple[tuple[Any, ...], tuple[Any, ...]] | None, rules: tuple[tuple[int, Any], ...], decided: dict[int, bool | None]
) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
    """The value functions of one situation: a rule that cannot hold answers 0 (C-level, and its line is left out
    like any item worth 0), one that always holds is its value. Every situation keeps every rule's place, so the
    per-element sums (``_summed_per_element``) line up with any of them. ``rules``: each rule's id and its value
    where it always holds (``Prepared.bonus_decided``, ``fu_decided``)."""
    if values is None:
        return None
    fns, about = values
    kept = []
    verdict = decided.get
    for fn, (key, always) in zip(fns, rules, strict=True):
        found = verdict(key)
        kept.append(fn if found is None else always if found else _ANSWERS_ZERO)
    return tuple(kept), about


_VALUE_FIELD = {"fu": "fu", "bonus": "han"}


def _summed_per_element(values: tuple[tuple, tuple], rules: tuple[FastRule, ...]) -> tuple[tuple[tuple, tuple], Any]:
    """Unconditional items worth ``c * count(g in FACT: ...)`` over one fact (the fu of each kind of set), summed
    in one pass over the fact's elements instead of one loop per item: (the values with those items' functions
    answering 0, (fact, per-element memo of every item's share)), or the values unchanged and None.

    An element's shares form a row as long as the values, zero outside the summed items, so a reading's values
    are the column sums of its elements' rows and the other items' values (``Valuer._fu``). An element whose
    shares are all zero has the empty row, left out of the sum: fu values are ints (the checker's type), so
    adding the other rows one by one gives the column sums."""
    fns, about = values
    found: dict[str, list[tuple[int, int, Callable[[Any], int]]]] = {}
    for position, rule in enumerate(rules):
        counter = rule.fu_counter
        if counter is not None:
            fact, coefficient, counts = counter
            found.setdefault(fact, []).append((position, coefficient, counts))
    if not found:
        return values, None
    fact, summed = max(found.items(), key=lambda item: len(item[1]))
    if len(summed) < 2:
        return values, None
    width = len(fns)

    def shares(element: Any) -> tuple[int, ...]:
        row = [0] * width
        for position, coefficient, counts in summed:
            row[position] = coefficient * counts(element)
        # a row of zeros (a sequence, a pair: most elements) is the empty tuple, which the sum skips
        return tuple(row) if any(row) else ()

    placeholders = {position for position, _c, _f in summed}
    fns = tuple(_ANSWERS_ZERO if position in placeholders else fn for position, fn in enumerate(fns))
    return (fns, about), (fact, Memo(shares, SETTLE_CACHE_LIMIT))


def _share_pairs(shares: Memo, element: Any) -> tuple[tuple[int, int], ...]:
    """An element's nonzero shares of the per-set fu items (``_summed_per_element``'s row) as (place, share)
    pairs, by place; the empty tuple for an element that adds nothing."""
    try:
        row = shares[element]
    except TypeError:  # an element that cannot be a key: its shares, computed
        row = shares.fn(element)
    return tuple(compress(enumerate(row), row))  # the nonzero shares by place, one C-level pass


def _any_holds(whens: tuple[Any, ...], env: dict[str, Any]) -> bool:
    return any(map(call, whens, repeat(env)))


_ANSWERS_ZERO: Callable[[Any], int] = [].count  # a C-level function of one argument that answers 0


def _valued_table(rules: tuple[FastRule, ...], value: str) -> tuple[tuple[tuple[Any, ...], ...], tuple[Any, ...]]:
    """(rule, id, title, clause, value field) per rule, what a matching rule reports, and beside them the
    conditions."""
    return tuple((r, r.name, r.title, r.clause, r.fields[value]) for r in rules), tuple(_condition(r) for r in rules)


def _values(rules: tuple[FastRule, ...], value: str, origins: dict[tuple[str, str | None], Any]) -> tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...]] | None:
    """For rules that add a value (fu, bonus han) and have no exceptions: per rule one function giving its value,
    0 when its condition fails, and beside them (id, title, clause, clause_from); None when a rule has exceptions."""
    if any(r.variants for r in rules):
        return None
    fns = tuple(r.fields[value] if r.always else _value_when(r, value) for r in rules)
    return fns, tuple((r.name, r.title, r.clause, origin_of(origins, r.name, r.clause)) for r in rules)


def _about(values: tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...]] | None) -> tuple[tuple[Any, ...], ...]:
    return () if values is None else values[1]


def _value_line(about: tuple[tuple[Any, ...], ...], unit: str, key: tuple[int, int]) -> dict[str, Any]:
    """The result line of the bonus (``unit`` han) or fu item at a place of ``about`` worth a value: the keys in
    the response's order, as ``Valuer._bonus`` and ``Valuer._fu`` build them."""
    position, value = key
    name, title, clause, origin = about[position]
    if unit == "han":
        return {"id": name, "name": title, "han": value, "clause": clause, "clause_from": origin}
    return {"id": name, "fu": value, "clause": clause, "clause_from": origin}


def _value_when(rule: FastRule, value: str) -> Any:
    """The rule's value where its condition holds, else 0, as one function (``ruledsl.fast.valued_when``)."""
    amount = rule.fields[value]
    if rule.simple is None or rule.source is None:  # not made by ``fast_rule`` from nodes: called as they are
        when = rule.when
        return lambda env: amount(env) if when(env) else 0
    return valued_when(rule.simple, rule.when, simplify(rule.source.fields[value]), amount)


def _yaku_table(rules: tuple[FastRule, ...], closed: bool, origins: dict[tuple[str, str | None], Any]) -> tuple[tuple[tuple[Any, ...], ...], tuple[Any, ...]]:
    """The yaku that can score in a closed (or open) hand, as (closed han, open han, rule, id, title, clause, what
    it excludes, result line) entries and, beside them, their conditions; those with no open value are left out of
    the open table. What a matching yaku without exceptions reports is in its entry, read with no attribute lookup,
    and its whole line too (None for a yaku with exceptions or without a han in this state: built when it holds)."""
    table = []
    for rule in rules:
        closed_han, open_han = rule.fields["han"]
        if closed or open_han is not None:
            han = closed_han if closed else open_han
            line = None if rule.variants or han is None else result_line(rule.name, rule.title, han, rule.clause, origins)
            table.append((closed_han, open_han, rule, rule.name, rule.title, rule.clause, rule.fields.get("excludes", ()), line))
    return tuple(table), tuple(_condition(entry[2]) for entry in table)


def origin_of(origins: dict[tuple[str, str | None], Any], name: str, clause: str | None) -> Any:
    """A result line's ``clause_from``: where its inherited clause comes from (None: the rulebook's own)."""
    return origins.get((name, clause)) if origins else None


def result_line(name: str, title: str, han: int, clause: str | None, origins: dict[tuple[str, str | None], Any]) -> dict[str, Any]:
    """A yaku's line as a response reports it (the keys in the response's order)."""
    return {"id": name, "name": title, "han": han, "clause": clause, "clause_from": origin_of(origins, name, clause)}


# The scorer selects the rules that hold with C-level loops: ``compress(rules, map(call, conditions, repeat(env)))``.
# A condition that is always true becomes this C-level callable (``None is not env``), so it needs no Python call.
ALWAYS = partial(operator.is_not, None)
_ALWAYS_IF_TRUE: dict[bool | None, Any] = {True: ALWAYS}  # a verdict's condition in a situation's tables: ``ALWAYS`` for True, else its own


def _condition(rule: FastRule) -> Any:
    return ALWAYS if rule.always else rule.when


def prepare(rulebook: Rulebook, reference: bool = False, like: Prepared | None = None) -> Prepared:
    """What scoring under this rulebook needs ahead; ``reference`` keeps the rules as the reference evaluator's
    nodes and skips every shortcut (the tests compare whole responses of both ways). ``like``: a rulebook prepared
    before whose compiled rules this one shares (``compile_rulebook(like=...)``): their fast rules are reused."""
    evaluator = _reference if reference else closure
    before = _fast_rules_of(like) if like is not None and not reference and not like.reference else None
    setting = rulebook.setting  # absent keys take the vocabulary's default
    kinds = setting("table", "tiles")
    yaku = rulebook.of("yaku")
    fu = rulebook.of("fu")
    yakuman_rules = _fast_all(rulebook.of("yakuman"), evaluator, before)
    yaku_rules = _fast_all([r for r in yaku if not _const_true(r.fields.get("standalone"))], evaluator, before)
    standalone_rules = _fast_all([r for r in yaku if _const_true(r.fields.get("standalone"))], evaluator, before)
    bonus_rules = _fast_all(rulebook.of("bonus"), evaluator, before)
    fu_rules = _fast_all([r for r in fu if "fu" in r.fields], evaluator, before)
    fixed_fu_rules = _fast_all([r for r in fu if "fixed" in r.fields], evaluator, before)
    limit_rules = _fast_all(rulebook.of("limit"), evaluator, before)
    payment_rules = _fast_all(rulebook.of("payment"), evaluator, before)
    made = (yakuman_rules, yaku_rules, standalone_rules, bonus_rules, fu_rules, fixed_fu_rules, limit_rules, payment_rules)
    mentioned = _mentioned(rulebook, made)
    packs = () if reference else _packs_of(made)
    successors = successor_table(setting("scoring", "dora_cycles"))
    return Prepared(
        rulebook=rulebook,
        allowed_kinds=frozenset(T.kind_of(k) for k in kinds),
        red_fives=frozenset(setting("table", "red_fives")),
        copies=int(setting("table", "copies")),
        successors=successors,
        players=int(setting("table", "players")),
        fu_rounding=int(setting("scoring", "fu_rounding")),
        stacking=str(setting("scoring", "yakuman_stacking")),
        yakuman_excludes_yaku=bool(setting("scoring", "yakuman_excludes_yaku")),
        bonus_needs_yaku=bool(setting("scoring", "bonus_needs_yaku")),
        shibari_han=int(setting("scoring", "shibari_han")),
        shibari_honba=int(setting("scoring", "shibari_honba")),
        atozuke=bool(setting("scoring", "atozuke")),
        atozuke_clause=_settings_clause(rulebook, "scoring"),
        deposit=int(setting("table", "riichi_deposit")),
        kita_allowed=bool(setting("table", "kita")),
        yakuman_rules=yakuman_rules,
        yaku_rules=yaku_rules,
        standalone_rules=standalone_rules,
        bonus_rules=bonus_rules,
        fu_rules=fu_rules,
        fixed_fu_rules=fixed_fu_rules,
        limit_rules=limit_rules,
        payment_rules=payment_rules,
        limit_reads=None if reference else _settle_reads(limit_rules, LIMIT_INPUTS),
        payment_reads=None if reference else _settle_reads(payment_rules, PAYMENT_INPUTS),
        hand_ahead=plan_ahead(mentioned, AHEAD_HAND, successors),
        reading_ahead=plan_ahead(mentioned, AHEAD_READING) + tuple(pack.put for pack in packs),
        reference=reference,
    )


def _packs_of(made: tuple[tuple[FastRule, ...], ...]) -> tuple[Pack, ...]:
    """The packs of set properties (``ruledsl.fast.Pack``) the conditions of these rules read, whose sums each
    reading's table then gets ahead. Conditions only: a rulebook's quantifiers over sets are in its conditions (a
    fu item's ``c * count(...)`` is summed per set, and not packed), and a closure whose sum is not planned
    loops as written; a rule that names no packed fact is not walked."""
    found: list[Pack] = []
    for group in made:
        for rule in group:
            if rule.simple is None or PACKED_FACTS.isdisjoint(rule.mentions):
                continue
            found += [pack for pack in packs_read(rule.simple) if pack not in found]
    return tuple(found)


def _settings_clause(rulebook: Rulebook, group: str) -> str:
    """The clause of a settings group, for refusals that name the setting deciding them."""
    return rulebook.settings_clauses().get(group) or "no clause given"


def _mentioned(rulebook: Rulebook, made: tuple[tuple[FastRule, ...], ...]) -> frozenset[str]:
    """The facts the rulebook's hand rules name (or their functions declare reading); ``made``: the fast rules
    prepared from them, whose ``mentions`` are kept (a rule without one is read here)."""
    fast = {id(r.source): r for group in made for r in group}
    names: set[str] = set()
    for kind in ("yakuman", "yaku", "bonus", "fu", "limit", "payment"):
        for rule in rulebook.of(kind):
            found = fast.get(id(rule))
            names |= found.mentions if found is not None and found.source is rule else _rule_mentions(rule)
    return frozenset(names)


def _nodes(rule: Rule) -> list[Any]:
    """The rule's condition and fields, and those of its exceptions."""
    return [rule.when, *rule.fields.values()] + [n for v in rule.variants for n in (v.when, *v.fields.values())]


def _rule_mentions(rule: Rule) -> frozenset[str]:
    """The facts one compiled rule names (or its functions declare reading)."""
    names: set[str] = set()
    for node in _nodes(rule):
        if callable(node):
            names |= mentioned(node)
    return frozenset(names)


# The facts valuation sets before the limit rules read them (``engine.scoring.valuation.value_facts``: their cache
# key holds han, fu and yakuman instead), and the facts settlement sets before the payment rules read them (keyed
# by the base; payers is constant).
LIMIT_INPUTS = frozenset({"han", "fu", "yakuman", "basic_points"})
PAYMENT_INPUTS = frozenset({"base", "payers"})


def _settle_reads(rules: tuple[FastRule, ...], inputs: frozenset[str]) -> tuple[str, ...] | None:
    """Every other fact these limit (or payment) rules may read, sorted; None when that cannot be told.

    With these, limits are a function of han, fu and yakuman, and payments of the base, so the scorer keeps their
    results per combination instead of running the rules for every hand.
    """
    names: set[str] = set()
    for rule in rules:
        found = rule.reads
        if found is None:
            return None
        names |= found
    if inputs is LIMIT_INPUTS and names & PAYMENT_INPUTS:
        return None  # limits that read the base or payers read what is not set yet: not cached
    return tuple(sorted(names - inputs))


def _rule_reads(rule: Rule) -> frozenset[str] | None:
    """Every fact one compiled rule may read (``ruledsl.fast.reads`` of each node), None when that cannot be told."""
    names: set[str] = set()
    for node in _nodes(rule):
        found = reads(node) if callable(node) else frozenset()
        if found is None:
            return None
        names |= found
    return frozenset(names)


def _key_of(names: tuple[str, ...]) -> Callable[[dict], Any]:
    """The values of these facts, as one hashable key (a C-level getter)."""
    return operator.itemgetter(*names)  # one name gives its value, several a tuple: either is a key


def _const_true(node: Any) -> bool:
    return node is not None and bool(node({}))


def refine(rule: FastRule, env: dict[str, Any]) -> tuple[str, str, str | None, dict[str, Any]]:
    """(id, title, clause, fields) of the rule in this environment: the first exception whose condition also holds
    replaces the rule's id and the fields it sets."""
    for variant in rule.variants:
        if variant.when(env):
            return variant.name, variant.title or variant.name, variant.clause, {**rule.fields, **variant.fields}
    return rule.name, rule.title, rule.clause, rule.fields
