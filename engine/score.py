"""Scoring a win under any compiled rulebook.

Every reading of the hand (each decomposition, each group the winning tile may have completed) is valued by
the rulebook's items in order: yakuman, yaku, bonus han, fu, limits, payments. The best reading wins: most
yakuman, then most points, then han, then fu. Nothing here knows a yaku or a number of any ruleset.

Scoring is the hot path, so a scorer prepares what it can once: rules as closures (``ruledsl.fast``) in plain
tables, narrowed per situation (``Tables``); it keeps what repeats between hands (situations, limits and
payments per han and fu) and reads plain JSON requests without a validation round trip when they need none.
Every shortcut computes exactly what the straightforward path would.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import compress, repeat
from operator import call
from typing import TYPE_CHECKING, Any, cast

from engine import tiles as T
from engine.decompose import STANDARD
from engine.errors import (
    EngineError,
    InvalidHand,
    InvalidRequest,
    InvalidRulebook,
    InvalidSituation,
    LimitExceeded,
    NotAWin,
    NoYaku,
)
from engine.facts import (
    AHEAD_HAND,
    AHEAD_READING,
    READING_FACTS,
    Env,
    HandFacts,
    plan_ahead,
    put_reading,
    situation_facts,
    successor_table,
)
from engine.hand import Hand, allowed_codes, build_hand
from engine.memo import BoundedCache, Memo
from engine.plain_request import PlainRequest, plain_request
from engine.situation import SITUATION_FIELDS, Situation, situation_of, situation_problems
from ruledsl import arithmetic
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.compile import Rule, Rulebook, Variant
from ruledsl.fast import Chain, closure, element_counter, is_true, may_raise, mentioned, reads, simplify

if TYPE_CHECKING:
    from engine.request import ScoreRequest

PAYER_KEYS = {"discarder": "ron", "dealer": "dealer", "non_dealer": "non_dealer"}


class Tier(str):
    """A limit tier's name as the response reports it (``mangan``), carrying the limit item that reached it and
    that item's clause: several items may reach one tier (a rounded-up limit item and the plain one), and a player
    checking a score needs to know which. A ``str``, so every comparison, cache and JSON dump of a limit stays
    as it was."""

    rule_id: str
    clause: str | None

    def __new__(cls, name: str, rule_id: str, clause: str | None) -> Tier:
        tier = super().__new__(cls, name)
        tier.rule_id = rule_id
        tier.clause = clause
        return tier

    def __reduce__(self) -> tuple[type[Tier], tuple[str, str, str | None]]:
        return (Tier, (str(self), self.rule_id, self.clause))  # pickled whole, for worker processes


class Valuation:
    """One reading's value; ``sort_key`` orders readings best last (computed once, it is compared often)."""

    __slots__ = ("yakuman", "han", "fu", "limit", "base", "yaku", "fu_items", "payments", "paid", "shape", "sort_key")

    def __init__(
        self,
        yakuman: int,
        han: int,
        fu: int,
        limit: str | None,
        base: int,
        yaku: tuple[dict[str, Any], ...],
        fu_items: tuple[dict[str, Any], ...],
        payments: dict[str, int],
        paid: int,
        shape: str = STANDARD,
        real_yakuman: bool | None = None,
    ) -> None:
        self.yakuman = yakuman
        self.han = han
        self.fu = fu
        self.limit = limit
        self.base = base
        self.yaku = yaku
        self.fu_items = fu_items
        self.payments = payments
        self.paid = paid
        self.shape = shape
        # at equal points a yakuman pattern outranks the same value reached by counting han
        if real_yakuman is None:
            real_yakuman = any("yakuman" in line for line in yaku)
        self.sort_key = (yakuman, paid, real_yakuman, han, fu)


@dataclass(frozen=True)
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


def _fast_fields(fields: dict[str, Any], evaluator: Callable[[Any], Any]) -> dict[str, Any]:
    return {k: (evaluator(v) if callable(v) else v) for k, v in fields.items()}


def _reference(node: Any) -> Any:
    """The reference evaluator: the compiled node itself (``ruledsl.compile``), called as it is."""
    return node


def fast(rule: Rule, evaluator: Callable[[Any], Any] = closure) -> FastRule:
    """The rule with its nodes turned into closures (or, with ``_reference``, left as the nodes)."""
    return FastRule(
        rule.kind,
        rule.name,
        rule.title,
        rule.clause,
        evaluator(rule.when),
        _fast_fields(rule.fields, evaluator),
        tuple(replace(v, when=evaluator(v.when), fields=_fast_fields(v.fields, evaluator)) for v in rule.variants),
        always=evaluator is closure and is_true(rule.when),
        source=rule,
    )


def _fast_all(rules: Iterable[Rule], evaluator: Callable[[Any], Any] = closure) -> tuple[FastRule, ...]:
    return tuple(fast(r, evaluator) for r in rules)


@dataclass
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
        # the hot loops walk plain tuples: the rules (for yaku with their han) and, beside them, their conditions;
        # ``Tables`` narrows them down per situation
        self.yakuman_whens = tuple(_condition(r) for r in self.yakuman_rules)
        self.yaku_closed = _yaku_table(self.yaku_rules, closed=True)
        self.yaku_open = _yaku_table(self.yaku_rules, closed=False)
        self.standalone_tables = {id(r): (_yaku_table((r,), closed=True), _yaku_table((r,), closed=False)) for r in self.standalone_rules}
        self.bonus_table = _valued_table(self.bonus_rules, "han")
        self.fu_table = _valued_table(self.fu_rules, "fu")
        self.bonus_values = None if self.reference else _values(self.bonus_rules, "han")
        self.fu_values = None if self.reference else _values(self.fu_rules, "fu")
        self.fu_per_element = None
        if self.fu_values is not None:
            self.fu_values, self.fu_per_element = _summed_per_element(self.fu_values, self.fu_rules)
        self.fixed_fu_table = tuple((r.when, r) for r in self.fixed_fu_rules)
        # bounded and registered (``ruledsl.memo``): ``clear_all`` empties them with every other cache
        self.limit_cache: dict[tuple, tuple] = BoundedCache(SETTLE_CACHE_LIMIT)
        self.payment_cache: dict[tuple, tuple] = BoundedCache(SETTLE_CACHE_LIMIT)
        self.allowed_codes = frozenset(code for code, kind in enumerate(T.KIND_OF) if kind in self.allowed_kinds)
        self.hand_codes = allowed_codes(self.allowed_kinds, self.red_fives)  # red fives only those in play
        self.limit_key = _key_of(self.limit_reads or ())
        self.payment_key = _key_of(self.payment_reads or ())
        hand_rules = (*self.yakuman_rules, *self.yaku_rules, *self.bonus_rules, *self.fu_rules, *self.fixed_fu_rules)
        self.static_tests = {id(r): None if self.reference else _static_test(r) for r in hand_rules}
        names = sorted({n for test in self.static_tests.values() if test is not None for n in test[1]} | {"closed"})
        self.static_key = operator.itemgetter(*names)
        self.tables_cache: dict[tuple, Tables] = BoundedCache(TABLES_CACHE_LIMIT)

    def tables(self, facts: dict[str, Any]) -> Tables:
        """The rule tables for hands with these situation facts (``Tables``), built on first use."""
        key = self.static_key(facts)
        tables = self.tables_cache.get(key)
        if tables is None:
            if len(self.tables_cache) >= TABLES_CACHE_LIMIT:
                self.tables_cache.clear()
            tables = self.tables_cache[key] = Tables(self, facts)
        return tables


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
    node = rule.source.when if rule.source is not None else None
    if node is None or rule.always:
        return None
    simple = simplify(node)
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

    def __init__(self, p: Prepared, facts: dict[str, Any]) -> None:
        decided = {}
        for key, test in p.static_tests.items():
            if test is not None:
                decided[key] = _decide(test, facts)
        self.yakuman_rules, self.yakuman_whens = _pruned(p.yakuman_rules, p.yakuman_whens, decided)
        entries, whens = p.yaku_closed if facts["closed"] else p.yaku_open
        self.yaku = _pruned(entries, whens, decided, rule_of=lambda entry: entry[2])
        self.bonus_values = _pruned_values(p.bonus_values, p.bonus_rules, decided)
        self.fu_values = _pruned_values(p.fu_values, p.fu_rules, decided)
        self.fu_per_element = p.fu_per_element
        self.fixed_fu_table = tuple(
            (ALWAYS if decided.get(id(rule)) is True else when, rule)
            for when, rule in p.fixed_fu_table
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


def _pruned(entries: tuple, whens: tuple, decided: dict[int, bool | None], rule_of: Callable[[Any], Any] = lambda entry: entry) -> tuple[tuple, tuple]:
    kept = [(entry, ALWAYS if decided.get(id(rule_of(entry))) is True else when) for entry, when in zip(entries, whens, strict=True) if decided.get(id(rule_of(entry))) is not False]
    return tuple(e for e, _w in kept), tuple(w for _e, w in kept)


def _pruned_values(
    values: tuple[tuple[Any, ...], tuple[Any, ...]] | None, rules: tuple[FastRule, ...], decided: dict[int, bool | None]
) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
    """The value functions of one situation: a rule that cannot hold answers 0 (C-level, and its line is left out
    like any item worth 0), one that always holds is its value. Every situation keeps every rule's place, so the
    per-element sums (``_summed_per_element``) line up with any of them."""
    if values is None:
        return None
    fns, about = values
    kept = []
    for fn, rule in zip(fns, rules, strict=True):
        verdict = decided.get(id(rule))
        kept.append(_ANSWERS_ZERO if verdict is False else rule.fields[_VALUE_FIELD[rule.kind]] if verdict is True else fn)
    return tuple(kept), about


_VALUE_FIELD = {"fu": "fu", "bonus": "han"}


def _summed_per_element(values: tuple[tuple, tuple], rules: tuple[FastRule, ...]) -> tuple[tuple[tuple, tuple], Any]:
    """Unconditional items worth ``c * count(g in FACT: ...)`` over one fact (the fu of each kind of set), summed
    in one pass over the fact's elements instead of one loop per item: (the values with those items' functions
    answering 0, (fact, per-element memo of every item's share)), or the values unchanged and None.

    An element's shares form a row as long as the values, zero outside the summed items, so a reading's values
    are the column sums of its elements' rows and the other items' values (``Scorer._fu``)."""
    fns, about = values
    found: dict[str, list[tuple[int, int, Callable[[Any], int]]]] = {}
    for position, rule in enumerate(rules):
        value = rule.source.fields.get("fu") if rule.source is not None else None
        counter = element_counter(value) if rule.always and not rule.variants and callable(value) else None
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
        return tuple(row)

    placeholders = {position for position, _c, _f in summed}
    fns = tuple(_ANSWERS_ZERO if position in placeholders else fn for position, fn in enumerate(fns))
    return (fns, about), (fact, Memo(shares, SETTLE_CACHE_LIMIT))


_ANSWERS_ZERO: Callable[[Any], int] = [].count  # a C-level function of one argument that answers 0


def _valued_table(rules: tuple[FastRule, ...], value: str) -> tuple[tuple[tuple[Any, ...], ...], tuple[Any, ...]]:
    """(rule, id, title, clause, value field) per rule, what a matching rule reports, and beside them the
    conditions."""
    return tuple((r, r.name, r.title, r.clause, r.fields[value]) for r in rules), tuple(_condition(r) for r in rules)


def _values(rules: tuple[FastRule, ...], value: str) -> tuple[tuple[Any, ...], tuple[tuple[str, str, str | None], ...]] | None:
    """For rules that add a value (fu, bonus han) and have no exceptions: per rule one function giving its value,
    0 when its condition fails, and beside them (id, title, clause); None when a rule has exceptions."""
    if any(r.variants for r in rules):
        return None
    fns = tuple(r.fields[value] if r.always else _value_when(r.when, r.fields[value]) for r in rules)
    return fns, tuple((r.name, r.title, r.clause) for r in rules)


def _value_when(when: Any, value: Any) -> Any:
    return lambda env: value(env) if when(env) else 0


def _yaku_table(rules: tuple[FastRule, ...], closed: bool) -> tuple[tuple[tuple[int, int | None, FastRule], ...], tuple[Any, ...]]:
    """The yaku that can score in a closed (or open) hand, as (closed han, open han, rule) entries and, beside
    them, their conditions; those with no open value are left out of the open table."""
    table = []
    for rule in rules:
        closed_han, open_han = rule.fields["han"]
        if closed or open_han is not None:
            table.append((closed_han, open_han, rule))
    return tuple(table), tuple(_condition(rule) for _h, _o, rule in table)


# The scorer selects the rules that hold with C-level loops: ``compress(rules, map(call, conditions, repeat(env)))``.
# A condition that is always true becomes this C-level callable (``None is not env``), so it needs no Python call.
ALWAYS = partial(operator.is_not, None)


def _condition(rule: FastRule) -> Any:
    return ALWAYS if rule.always else rule.when


def prepare(rulebook: Rulebook, reference: bool = False) -> Prepared:
    """What scoring under this rulebook needs ahead; ``reference`` keeps the rules as the reference evaluator's
    nodes and skips every shortcut (the tests compare whole responses of both ways)."""
    evaluator = _reference if reference else closure
    table = rulebook.settings.get("table", {})
    scoring = rulebook.settings.get("scoring", {})
    kinds = table.get("tiles") or tuple(range(T.KINDS))
    yaku = rulebook.of("yaku")
    fu = rulebook.of("fu")
    return Prepared(
        rulebook=rulebook,
        allowed_kinds=frozenset(T.kind_of(k) for k in kinds),
        red_fives=frozenset(table.get("red_fives", ())),
        copies=int(table.get("copies", 4)),
        successors=successor_table(scoring.get("dora_cycles", ())),
        players=int(table.get("players", 4)),
        fu_rounding=int(scoring.get("fu_rounding", 1)),
        stacking=str(scoring.get("yakuman_stacking", "add")),
        yakuman_excludes_yaku=bool(scoring.get("yakuman_excludes_yaku", True)),
        bonus_needs_yaku=bool(scoring.get("bonus_needs_yaku", True)),
        shibari_han=int(scoring.get("shibari_han", 1)),
        shibari_honba=int(scoring.get("shibari_honba", 0)),
        deposit=int(table.get("riichi_deposit", 0)),
        kita_allowed=bool(table.get("kita", False)),
        yakuman_rules=_fast_all(rulebook.of("yakuman"), evaluator),
        yaku_rules=_fast_all([r for r in yaku if not _const_true(r.fields.get("standalone"))], evaluator),
        standalone_rules=_fast_all([r for r in yaku if _const_true(r.fields.get("standalone"))], evaluator),
        bonus_rules=_fast_all(rulebook.of("bonus"), evaluator),
        fu_rules=_fast_all([r for r in fu if "fu" in r.fields], evaluator),
        fixed_fu_rules=_fast_all([r for r in fu if "fixed" in r.fields], evaluator),
        limit_rules=_fast_all(rulebook.of("limit"), evaluator),
        payment_rules=_fast_all(rulebook.of("payment"), evaluator),
        limit_reads=None if reference else _settle_reads(rulebook.of("limit"), LIMIT_INPUTS),
        payment_reads=None if reference else _settle_reads(rulebook.of("payment"), PAYMENT_INPUTS),
        hand_ahead=plan_ahead(_mentioned(rulebook), AHEAD_HAND),
        reading_ahead=plan_ahead(_mentioned(rulebook), AHEAD_READING),
        reference=reference,
    )


def _mentioned(rulebook: Rulebook) -> frozenset[str]:
    """The facts the rulebook's hand rules name (or their functions declare reading)."""
    names: set[str] = set()
    for kind in ("yakuman", "yaku", "bonus", "fu", "limit", "payment"):
        for rule in rulebook.of(kind):
            for node in [rule.when, *rule.fields.values()] + [n for v in rule.variants for n in (v.when, *v.fields.values())]:
                if callable(node):
                    names |= mentioned(node)
    return frozenset(names)


# The facts ``_settle`` sets before the limit rules read them (so their cache key holds han, fu and yakuman
# instead), and the facts it sets before the payment rules read them (keyed by the base; payers is constant).
LIMIT_INPUTS = frozenset({"han", "fu", "yakuman", "basic_points"})
PAYMENT_INPUTS = frozenset({"base", "payers"})


def _settle_reads(rules: tuple[Rule, ...], inputs: frozenset[str]) -> tuple[str, ...] | None:
    """Every other fact these limit (or payment) rules may read, sorted; None when that cannot be told.

    With these, limits are a function of han, fu and yakuman, and payments of the base, so the scorer keeps their
    results per combination instead of running the rules for every hand.
    """
    names: set[str] = set()
    for rule in rules:
        for node in [rule.when, *rule.fields.values()] + [n for v in rule.variants for n in (v.when, *v.fields.values())]:
            found = reads(node) if callable(node) else frozenset()
            if found is None:
                return None
            names |= found
    if inputs is LIMIT_INPUTS and names & PAYMENT_INPUTS:
        return None  # limits that read the base or payers read what is not set yet: not cached
    return tuple(sorted(names - inputs))


def _key_of(names: tuple[str, ...]) -> Callable[[dict], Any]:
    """The values of these facts, as one hashable key (a C-level getter where there are any)."""
    if not names:
        return _NO_KEY
    return operator.itemgetter(*names)  # one name gives its value, several a tuple: either is a key


def _NO_KEY(env: dict) -> tuple:
    return ()


def _const_true(node: Any) -> bool:
    return node is not None and bool(node({}))


# Caches of a scorer, bounded: emptied when they reach this many entries (real traffic repeats far less).
SETTLE_CACHE_LIMIT = 4096
SITUATION_CACHE_LIMIT = 4096

_HAN = operator.itemgetter("han")  # of a result line
_ID = operator.itemgetter("id")
_UNCHECKED = object()
# Every request field ``situation_of`` reads: equal inputs give an equal situation.
_SITUATION_INPUTS = operator.attrgetter(*SITUATION_FIELDS)
# Every situation field ``check_situation`` reads (``situation_problems``, and ``kita``, whose check is not kept).
_CHECKED_INPUTS = operator.attrgetter(
    "tsumo", "seat_wind", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou", "kita"
)


class Scorer:
    """Scores requests under one compiled rulebook; build once, call many times."""

    def __init__(self, rulebook: Rulebook, *, reference: bool = False) -> None:
        """``reference=True``: every rule runs as the reference evaluator's nodes, through the plain paths (slow;
        for tests that hold the fast path equal to it)."""
        self.rulebook = rulebook
        self.p = prepare(rulebook, reference)
        # bounded and registered caches (``ruledsl.memo``), emptied when full and by ``clear_all``
        self._situations: dict[tuple, tuple[Situation, dict[str, Any], dict[tuple, str | None]]] = BoundedCache(SITUATION_CACHE_LIMIT)
        self._by_situation: dict[Situation, tuple[dict[str, Any], dict[tuple, str | None]]] = BoundedCache(SITUATION_CACHE_LIMIT)
        self._checks: dict[tuple, dict[tuple, str | None]] = BoundedCache(SITUATION_CACHE_LIMIT)

    # ---- public API
    def score(self, request: ScoreRequest | dict[str, Any]) -> dict[str, Any]:
        """Score one request; the contract's response dict. Raises ``EngineError`` for bad input."""
        # a ``PlainRequest`` holds a ``ScoreRequest``'s fields as plain attributes, and is read as one
        request = cast("ScoreRequest", plain_request(request) or _validated(request))
        hand = self.build_hand(request)
        situation, known, checked = self._situation(request)
        dora = T.tile_codes(request.dora_indicators) if request.dora_indicators else ()
        ura = T.tile_codes(request.ura_indicators) if request.ura_indicators else ()
        return self._score(hand, situation, known, checked, dora, ura)

    def score_json(self, data: Any) -> dict[str, Any]:
        """Like ``score`` but never raises for bad input: errors become ``ok: false`` responses."""
        try:
            return self.score(data)
        except EngineError as exc:
            return {"ok": False, "error": exc.to_json()}

    def score_hand(self, hand: Hand, situation: Situation, dora: tuple[int, ...] = (), ura: tuple[int, ...] = ()) -> dict[str, Any]:
        """Score a hand from ``Scorer.hand`` in a ``Situation``, indicators as tile codes (``engine.tiles``): the
        entry for programs that already hold tiles as codes (a simulator, a log replay), which skips notation and
        request validation. Same answers and errors as ``score``."""
        if type(hand) is not Hand:
            raise InvalidRequest("`hand` must be a Hand from `Scorer.hand` or `build_hand`")
        if type(situation) is not Situation:  # a Situation checks its fields when built
            raise InvalidRequest("`situation` must be an engine.situation.Situation")
        tile_set = self.p.hand_codes  # a hand built under another rulebook may hold tiles this one lacks
        if not tile_set.issuperset(hand.concealed) or (hand.melds and not all(tile_set.issuperset(m.tiles) for m in hand.melds)):
            raise InvalidHand("`hand` holds tiles outside this rulebook's tile set; build it with this scorer's `hand`")
        found = self._by_situation.get(situation)
        if found is None:
            found = (situation_facts(situation, self.p.players), self._checks_for(situation))
            if len(self._by_situation) >= SITUATION_CACHE_LIMIT:
                self._by_situation.clear()
            self._by_situation[situation] = found
        dora = _indicator_codes(dora, "dora_indicators")
        ura = _indicator_codes(ura, "ura_indicators")
        try:
            return self._score(hand, situation, found[0], found[1], dora, ura)
        except EngineError:
            raise
        except Exception as exc:  # noqa: BLE001 - only a Hand built around ``build_hand`` gets here
            raise InvalidHand(f"`hand` is not a hand `build_hand` would build ({type(exc).__name__})") from None

    def _score(self, hand: Hand, situation: Situation, known: dict[str, Any], checked: dict[tuple, str | None], dora: tuple[int, ...], ura: tuple[int, ...]) -> dict[str, Any]:
        self._check_situation_cached(hand, situation, checked)
        self._check_indicators(dora, "dora_indicators")
        self._check_indicators(ura, "ura_indicators")
        if dora or ura:
            self._check_indicator_copies(hand, dora + ura)
        try:
            return self.response(self.best_valuation(hand, situation, dora, ura, known), situation)
        except RuleEvaluationError as exc:  # a rule computed what the language forbids: the rulebook's fault
            raise rule_error(exc) from None

    # ---- steps
    def _situation(self, request: ScoreRequest) -> tuple[Situation, dict[str, Any], dict[tuple, str | None]]:
        """The request's situation, its facts and its checks by kind of hand (``_check_situation_cached``), built
        once per distinct situation (they are immutable)."""
        key = _SITUATION_INPUTS(request)
        found = self._situations.get(key)
        if found is None:
            situation = situation_of(request)
            found = (situation, situation_facts(situation, self.p.players), self._checks_for(situation))
            if len(self._situations) >= SITUATION_CACHE_LIMIT:
                self._situations.clear()
            self._situations[key] = found
        return found

    def _checks_for(self, s: Situation) -> dict[tuple, str | None]:
        """The verdicts of ``check_situation`` by kind of hand, shared by the situations that differ only in what
        it does not read (round wind, honba, riichi sticks)."""
        key = _CHECKED_INPUTS(s)
        checks = self._checks.get(key)
        if checks is None:
            if len(self._checks) >= SITUATION_CACHE_LIMIT:
                self._checks.clear()
            checks = self._checks[key] = {}
        return checks

    def _check_situation_cached(self, hand: Hand, s: Situation, checked: dict[tuple, str | None]) -> None:
        """``check_situation``, whose verdict depends on the hand only through whether it is closed, holds a kan
        and has melds (and on North tiles held, with ``kita``): kept per situation by those three."""
        if s.kita:
            self.check_situation(hand, s)
            return
        key = hand.call_shape
        problem = checked.get(key, _UNCHECKED)
        if problem is _UNCHECKED:
            try:
                self.check_situation(hand, s)
                problem = None
            except InvalidSituation as exc:
                problem = exc.message
            checked[key] = problem
        if problem is not None:
            raise InvalidSituation(cast(str, problem))  # a stored verdict: a message, or None when it holds

    def hand(self, concealed: str | Sequence[int], win: str | int, melds: Sequence[tuple[str, str | Sequence[int]]] = ()) -> Hand:
        """A hand checked against this rulebook's tile set, for ``score_hand``: tiles in notation or as codes,
        melds as ``(type, tiles)`` pairs. Raises ``EngineError`` (``invalid_hand``, ``invalid_notation``)."""
        return build_hand(concealed, melds, win, allowed_kinds=self.p.allowed_kinds, red_fives=self.p.red_fives, copies=self.p.copies)

    def build_hand(self, request: ScoreRequest) -> Hand:
        return build_hand(
            request.hand,
            request.melds if isinstance(request, PlainRequest) else [(m.type, m.tiles) for m in request.melds],
            request.win,
            allowed_kinds=self.p.allowed_kinds,
            red_fives=self.p.red_fives,
            copies=self.p.copies,
        )

    def check_situation(self, hand: Hand, s: Situation) -> None:
        problems = situation_problems(hand, s)
        if s.kita and not self.p.kita_allowed:
            problems.append("`kita` is set, but this rulebook sets no North tiles aside")
        if s.kita:
            north_held = sum(1 for k in hand.concealed if T.kind_of(k) == T.wind_kind("N"))
            north_held += sum(1 for m in hand.melds for k in m.kinds if k == T.wind_kind("N"))
            if north_held + s.kita > self.p.copies:
                problems.append(f"{s.kita} North tiles set aside and {north_held} in the hand exceed the {self.p.copies} copies")
        if problems:
            raise InvalidSituation("; ".join(problems))

    def _check_indicators(self, codes: tuple[int, ...], name: str) -> None:
        if len(codes) <= 5 and self.p.allowed_codes.issuperset(codes):
            return
        allowed = self.p.allowed_kinds
        for code in codes:
            if T.KIND_OF[code] not in allowed:
                raise InvalidHand(f"`{name}`: `{T.format_tiles([code])}` is not part of this rulebook's tile set")
        if len(codes) > 5:
            raise InvalidSituation(f"`{name}`: {len(codes)} indicators; at most 5 can be revealed")

    def _check_indicator_copies(self, hand: Hand, indicators: tuple[int, ...]) -> None:
        """Indicators are tiles of the same set as the hand: with the hand and its melds they count against the
        copies of each kind (and the one copy of each red five); five East indicators are not fifteen dora."""
        copies, kind_of = self.p.copies, T.KIND_OF
        counts = list(hand.counts)
        reds = {code for code in hand.concealed if code >= T.RED_BASE}
        for meld in hand.melds:
            for code in meld.tiles:
                counts[kind_of[code]] += 1
                if code >= T.RED_BASE:
                    reds.add(code)
        for code in indicators:
            kind = kind_of[code]
            counts[kind] += 1
            if counts[kind] > copies:
                raise InvalidSituation(
                    f"`{T.format_kind(kind)}` appears {counts[kind]} times across the hand, its melds and the indicators; "
                    f"there are only {copies} copies"
                )
            if code >= T.RED_BASE:
                if code in reds:
                    raise InvalidSituation(f"red five `{T.format_tiles([code])}` appears twice across the hand, its melds and the indicators")
                reds.add(code)

    def best_valuation(
        self, hand: Hand, situation: Situation, dora: tuple[int, ...] = (), ura: tuple[int, ...] = (), known: dict[str, Any] | None = None
    ) -> Valuation:
        templates = READING_FACTS[(hand.counts, T.KIND_OF[hand.win], not situation.tsumo)]
        if not templates:
            raise NotAWin(f"`{T.format_tiles(hand.concealed)}` is not a complete hand")
        facts = HandFacts(hand, situation, dora, ura, self.p.successors, self.p.players, known, self.p.hand_ahead)
        tables = self.p.tables(facts)
        best: Valuation | None = None
        standalone = self.p.standalone_rules
        need = self.p.shibari_han if situation.honba >= self.p.shibari_honba else 1
        for env in self._environments(facts, templates):
            valuation = self._valuate(env, None, tables, need)
            if valuation is not None and (best is None or valuation.sort_key > best.sort_key):
                best = valuation
            for rule in standalone:
                valuation = self._valuate(env, rule, tables, need)
                if valuation is not None and (best is None or valuation.sort_key > best.sort_key):
                    best = valuation
        if best is None:
            if need > 1:
                raise NoYaku(f"the hand is complete but, with {situation.honba} honba, this rulebook needs {need} han from yaku (dora and other bonus han do not count)")
            raise NoYaku("the hand is complete but has no yaku under this rulebook")
        return best

    def _environments(self, facts: HandFacts, templates: tuple[tuple, ...]) -> tuple[dict[str, Any], ...]:
        """One fact table per reading (``READING_FACTS``): the hand's facts with the reading's added.

        A hand with a single reading (most hands) takes its reading's facts into the hand's own table, which then
        answers for reading facts too; only several readings need a table each.
        """
        melds = facts.meld_groups
        ahead = self.p.reading_ahead
        if len(templates) == 1:
            put_reading(facts, templates[0], melds)
            for compute in ahead:
                compute(facts)
            return (facts,)
        envs = []
        for template in templates:
            env = Env(facts)
            put_reading(env, template, melds)
            for compute in ahead:
                compute(env)
            envs.append(env)
        return tuple(envs)

    def _valuate(self, env: dict[str, Any], standalone: FastRule | None, tables: Tables, need: int = 1) -> Valuation | None:
        """One valuation of one reading (``standalone``: that yaku alone), or None when it is no win: no yaku, or
        fewer than ``need`` han from yaku without a yakuman (``shibari_han``)."""
        p = self.p
        yakuman_lines: list[dict[str, Any]] = []
        if standalone is None:
            yakuman_lines = self._yakuman(env, tables)
        yaku_lines: list[dict[str, Any]] = []
        if not (yakuman_lines and p.yakuman_excludes_yaku):
            if standalone is None:
                yaku_lines = self._yaku(env, tables.yaku)
            else:
                closed_table, open_table = p.standalone_tables[id(standalone)]
                yaku_lines = self._yaku(env, closed_table if env["closed"] else open_table)
                if not yaku_lines:
                    return None
        if not yakuman_lines and not yaku_lines and p.bonus_needs_yaku:
            return None
        if need > 1 and not yakuman_lines and sum(map(_HAN, yaku_lines)) < need:
            return None
        yakuman = 0
        if yakuman_lines:
            mults = [line["yakuman"] for line in yakuman_lines]
            yakuman = sum(mults) if p.stacking == "add" else max(mults)
        if standalone is None and (yaku_lines or not p.bonus_needs_yaku) and not yakuman_lines:
            yaku_lines += self._bonus(env, tables)
            if not yaku_lines:  # no yaku and no bonus either (``bonus_needs_yaku = false``): no win
                return None
        han = sum(map(_HAN, yaku_lines))
        env["__yaku__"] = frozenset(map(_ID, yaku_lines)).union(map(_ID, yakuman_lines))
        fu, fu_lines = self._fu(env, tables)
        base, limit, reported_yakuman, payments, paid = self._settle_cached(env, han, fu, yakuman)
        return Valuation(
            reported_yakuman,
            han,
            fu,
            limit,
            base,
            tuple(yakuman_lines + yaku_lines),
            tuple(fu_lines),
            payments,
            paid,
            env["shape"],
            bool(yakuman_lines),  # the lines with a yakuman multiple
        )

    def _settle_cached(self, env: dict[str, Any], han: int, fu: int, yakuman: int) -> tuple[int, str | None, int, dict[str, int], int]:
        """``_settle`` through two caches: limits by han, fu, yakuman and the facts the limit rules read;
        payments by the base and the facts the payment rules read (few bases occur, so few payments).

        The rules are pure, so equal inputs give equal results; the facts ``_settle`` would have set are set
        all the same, and each caller gets its own payments dict.
        """
        p = self.p
        if p.limit_reads is None or p.payment_reads is None:
            return self._settle(env, han, fu, yakuman)
        env["han"] = han
        env["fu"] = fu
        env["yakuman"] = yakuman
        env["basic_points"] = basic_points(han, fu)
        key: tuple[Any, ...] | None  # the limit cache's key, then the payment cache's (None: not cacheable)
        try:
            key = (han, fu, yakuman, p.limit_key(env))
            limited = p.limit_cache.get(key)
        except (KeyError, TypeError):  # a fact this hand lacks, or a value that cannot be a key
            return self._settle(env, han, fu, yakuman)
        if limited is None:
            limited = self._limits(env, han, fu, yakuman)
            if len(p.limit_cache) >= SETTLE_CACHE_LIMIT:
                p.limit_cache.clear()
            p.limit_cache[key] = limited
        base, limit, reported_yakuman = limited
        env["base"] = base
        env["payers"] = p.players - 1
        try:
            key = (base, p.payment_key(env))
            paying = p.payment_cache.get(key)
        except (KeyError, TypeError):
            paying = None
            key = None
        if paying is None:
            paying = self._payments(env)
            if key is not None:
                if len(p.payment_cache) >= SETTLE_CACHE_LIMIT:
                    p.payment_cache.clear()
                p.payment_cache[key] = paying
        return base, limit, reported_yakuman, dict(paying[0]), paying[1]

    def _settle(self, env: dict, han: int, fu: int, yakuman: int) -> tuple[int, str | None, int, dict[str, int], int]:
        """Limits then payments: (base, limit, reported yakuman, payments per payer, points paid)."""
        env["han"] = han
        env["fu"] = fu
        env["yakuman"] = yakuman
        env["basic_points"] = basic_points(han, fu)
        base, limit, reported_yakuman = self._limits(env, han, fu, yakuman)
        env["base"] = base
        payments, paid = self._payments(env)
        return base, limit, reported_yakuman, payments, paid

    def _limits(self, env: dict, han: int, fu: int, yakuman: int) -> tuple[int, str | None, int]:
        """(base, limit, reported yakuman): the highest limit tier that holds, else the basic points."""
        base, limit, reported_yakuman = env["basic_points"], None, yakuman
        best_base = -1
        for rule in self.p.limit_rules:
            if rule.when(env):
                fields = rule.fields
                value = fields["base"](env)
                if value > best_base:
                    best_base = value
                    base = value
                    tier = fields.get("tier")
                    limit = Tier(tier(env) if tier is not None else rule.name, rule.name, rule.clause)
                    ym = fields.get("yakuman")
                    reported_yakuman = ym(env) if ym is not None else yakuman
        return base, limit, reported_yakuman

    def settle(self, han: int, fu: int, *, dealer: bool, tsumo: bool, yakuman: int = 0, honba: int = 0) -> dict[str, Any]:
        """The payment API: what a win of this han and fu pays, without building a hand (point tables)."""
        env = {"han": han, "fu": fu, "dealer": dealer, "tsumo": tsumo, "ron": not tsumo, "honba": honba, "riichi_sticks": 0, "closed": True}
        try:
            base, limit, reported, payments, paid = self._settle(env, han, fu, yakuman)
        except RuleEvaluationError as exc:
            raise rule_error(exc) from None
        return {"base_points": base, "limit": limit, "yakuman": reported, "payments": payments, "total": paid}

    def pay_tier(self, tier: str, *, dealer: bool, honba: int = 0) -> dict[str, Any]:
        """A tsumo paid like a limit tier (nagashi mangan): the tier's base through the payment rules."""
        base = None
        for rule in self.p.limit_rules:
            tier_field = rule.fields.get("tier")
            name = tier_field({}) if tier_field is not None else rule.name
            if name == tier:
                base = rule.fields["base"]({"yakuman": 1, "han": 0, "fu": 0, "basic_points": 0})
                break
        if base is None:
            raise InvalidSituation(f"this rulebook has no limit tier `{tier}`")
        env = {"dealer": dealer, "tsumo": True, "ron": False, "honba": honba, "riichi_sticks": 0, "base": base, "closed": True}
        try:
            payments, paid = self._payments(env)
        except RuleEvaluationError as exc:
            raise rule_error(exc) from None
        return {"base_points": base, "payments": payments, "total": paid}

    # The rules that hold are picked by C-level loops (``compress`` over the conditions' results) and result
    # lines are built only for them, already in their response form (what a line excludes is kept beside it).
    def _yakuman(self, env: dict[str, Any], tables: Tables) -> list[dict[str, Any]]:
        lines = []
        excludes = []
        for rule in compress(tables.yakuman_rules, map(call, tables.yakuman_whens, repeat(env))):
            name, title, clause, fields = _refine(rule, env) if rule.variants else (rule.name, rule.title, rule.clause, rule.fields)
            mult = fields.get("multiplier")
            lines.append({"id": name, "name": title, "yakuman": mult(env) if mult is not None else 1, "clause": clause})
            excludes.append(fields.get("excludes", ()))
        return _apply_excludes(lines, excludes) if lines else lines

    def _yaku(self, env: dict[str, Any], table_and_conditions: tuple[tuple, tuple]) -> list[dict[str, Any]]:
        closed = env["closed"]
        lines = []
        excluded: set[str] = set()
        table, whens = table_and_conditions
        for closed_han, open_han, rule in compress(table, map(call, whens, repeat(env))):
            if rule.variants:
                name, title, clause, fields = _refine(rule, env)
                closed_han, open_han = fields.get("han", (closed_han, open_han))
            else:
                name, title, clause, fields = rule.name, rule.title, rule.clause, rule.fields
            han = closed_han if closed else open_han
            if han is None:
                continue
            lines.append({"id": name, "name": title, "han": han, "clause": clause})
            if "excludes" in fields:
                excluded.update(fields["excludes"])
        return [line for line in lines if line["id"] not in excluded] if excluded else lines

    def _bonus(self, env: dict[str, Any], tables: Tables) -> list[dict[str, Any]]:
        if tables.bonus_values is not None:
            fns, about = tables.bonus_values
            values = list(map(call, fns, repeat(env)))
            return [{"id": a[0], "name": a[1], "han": v, "clause": a[2]} for a, v in compress(zip(about, values, strict=True), values)]
        lines = []
        table, whens = self.p.bonus_table
        for rule, name, title, clause, value in compress(table, map(call, whens, repeat(env))):
            if rule.variants:
                name, title, clause, fields = _refine(rule, env)
                value = fields["han"]
            han = value(env)
            if han:
                lines.append({"id": name, "name": title, "han": han, "clause": clause})
        return lines

    def _fu(self, env: dict[str, Any], tables: Tables) -> tuple[int, list[dict[str, Any]]]:
        if tables.fu_values is not None:
            fns, about = tables.fu_values
            values = list(map(call, fns, repeat(env)))
            if tables.fu_per_element is not None:
                fact, shares = tables.fu_per_element
                elements = env[fact]
                if elements:
                    try:
                        rows = list(map(shares.__getitem__, elements))
                    except TypeError:  # an element that cannot be a key: its shares, computed
                        rows = list(map(shares.fn, elements))
                    values = list(map(sum, zip(values, *rows, strict=True)))
            lines = [{"id": a[0], "fu": v, "clause": a[2]} for a, v in compress(zip(about, values, strict=True), values)]
            return self._fu_total(env, sum(values), lines, tables)
        lines = []
        raw = 0
        table, whens = self.p.fu_table
        for rule, name, _title, clause, value in compress(table, map(call, whens, repeat(env))):
            if rule.variants:
                name, _title, clause, fields = _refine(rule, env)
                value = fields["fu"]
            fu = value(env)
            if fu:
                raw += fu
                lines.append({"id": name, "fu": fu, "clause": clause})
        return self._fu_total(env, raw, lines, tables)

    def _fu_total(self, env: dict[str, Any], raw: int, lines: list[dict[str, Any]], tables: Tables) -> tuple[int, list[dict[str, Any]]]:
        """The hand's fu from the items' sum: a fixed total if a ``fixed`` item holds, else rounded up."""
        env["raw_fu"] = raw
        for when, rule in tables.fixed_fu_table:
            if when(env):
                name, _title, clause, fields = _refine(rule, env)
                value = fields["fixed"](env)
                return value, [{"id": name, "fu": value, "clause": clause}]
        step = self.p.fu_rounding
        return (-(-raw // step) * step if step > 1 else raw), lines

    def _payments(self, env: dict[str, Any]) -> tuple[dict[str, int], int]:
        players = self.p.players
        dealer = env["dealer"]
        env["payers"] = players - 1
        payments: dict[str, int] = {}
        paid = 0
        for rule in self.p.payment_rules:
            if rule.when(env):
                _name, _title, _clause, fields = _refine(rule, env)
                payer = fields["from"](env)
                amount = fields["amount"](env)
                if amount < 0:
                    raise RuleEvaluationError(f"payment `{rule.name}` asks {amount} points; a payment is never negative")
                key = PAYER_KEYS.get(payer, payer)
                payments[key] = amount
                if payer == "non_dealer":
                    count = players - 1 if dealer else players - 2
                elif payer == "dealer":
                    count = 0 if dealer else 1
                else:
                    count = 1
                paid += amount * max(count, 0)
        return payments, paid

    def response(self, best: Valuation, situation: Situation) -> dict[str, Any]:
        return {
            "ok": True,
            "rulebook": self.rulebook.name,
            "han": best.han,
            "fu": best.fu,
            "yakuman": best.yakuman,
            "limit": str(best.limit) if best.limit is not None else None,
            "limit_id": getattr(best.limit, "rule_id", None),  # the limit item that set the base, and its clause
            "limit_clause": getattr(best.limit, "clause", None),
            "yaku": list(best.yaku),
            "fu_items": list(best.fu_items),
            "base_points": best.base,
            "payments": best.payments,
            "total": best.paid + situation.riichi_sticks * self.p.deposit,
        }


def basic_points(han: int, fu: int) -> int:
    """fu × 2^(han + 2), in the language's integer bounds; negative han or fu is the rulebook's error (it would
    make fractions of points, or negative ones), as is a value past the bounds (``ruledsl.arithmetic``)."""
    if 0 <= han <= 56 and 0 <= fu <= 65536:  # every real hand: far inside the bound, no check needed
        return fu << (han + 2)
    if han < 0 or fu < 0:
        raise RuleEvaluationError(f"a reading valued at {han} han and {fu} fu; neither can be negative")
    return arithmetic.multiply(fu, arithmetic.power(2, han + 2))


def rule_error(exc: RuleEvaluationError) -> EngineError:
    """The contract's answer to a rule that computed what the language forbids (its code says which)."""
    error = LimitExceeded if exc.code == LimitExceeded.code else InvalidRulebook
    return error(f"the rulebook cannot score this hand: {exc.message}")


def _refine(rule: FastRule, env: dict[str, Any]) -> tuple[str, str, str | None, dict[str, Any]]:
    """The first exception whose condition also holds replaces the rule's id and the fields it sets."""
    for variant in rule.variants:
        if variant.when(env):
            return variant.name, variant.title or variant.name, variant.clause, {**rule.fields, **variant.fields}
    return rule.name, rule.title, rule.clause, rule.fields


def _apply_excludes(lines: list[dict[str, Any]], excludes: list[tuple[str, ...]]) -> list[dict[str, Any]]:
    """Drop the lines another line excludes (``excludes[i]`` is what ``lines[i]`` excludes)."""
    excluded = {name for names in excludes for name in names}
    if not excluded:
        return lines
    return [line for line in lines if line["id"] not in excluded]


def _validated(data: Any) -> ScoreRequest:
    """A request that is not a plain JSON object pydantic would take as is: validated by the contract's model
    (imported here, on first need: see ``engine.plain_request``)."""
    from engine.request import ScoreRequest, parse_request

    return data if isinstance(data, ScoreRequest) else parse_request(data)


# ---- inputs of ``score_hand`` -----------------------------------------------------------------------------------
# ``score`` gets these from validated requests; ``score_hand`` takes them from Python code, so it checks their
# types itself (a ``Situation`` checks its own when built; indicators are a few ints).

_CODES = frozenset(range(len(T.KIND_OF)))
_INT = frozenset({int})


def _indicator_codes(codes: Any, name: str) -> tuple[int, ...]:
    if type(codes) is tuple and _CODES.issuperset(codes) and _INT.issuperset(map(type, codes)):
        return codes  # 5.0 and True are 5 and 1 to a set, so the types are checked too
    if type(codes) is not tuple:
        if not isinstance(codes, (list, tuple)):
            raise InvalidRequest(f"`{name}`: expected a tuple of tile codes")
        codes = tuple(codes)
    for code in codes:
        if type(code) is not int or not 0 <= code < len(T.KIND_OF):
            raise InvalidRequest(f"`{name}`: `{code!r}` is not a tile code")
    return codes
