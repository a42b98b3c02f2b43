"""Valuation: what one hand is worth under a prepared rulebook, reading by reading.

Every reading of the hand (each decomposition, each group the winning tile may have completed) is valued by the
rulebook's items in order: yakuman, yaku, bonus han, fu, then the limits that set its base. The best reading wins:
most yakuman, then most points (the payments come from ``engine.scoring.payment_rules``), then han, then fu. Nothing
here knows a yaku or a number of any ruleset.

The rules that hold are picked by C-level loops (``compress`` over the conditions' results) and result lines are
built only for them, already in their response form; limits are kept per han, fu, yakuman and the other facts the
limit rules read, so they run once per combination.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from itertools import compress, repeat
from operator import add, call

from engine.core import tiles as T
from engine.core.decompose import STANDARD
from engine.core.errors import NotAWin, NoYaku
from engine.core.hand import Hand
from engine.core.memo import BoundedCache
from engine.core.situation import Situation
from engine.scoring.facts import (
    READING_FACTS,
    WIN_RON,
    HandFacts,
    other_wait_kinds,
    put_reading,
    reading_key,
    reading_tables,
    same_groups,
    situation_facts,
)
from engine.scoring.prepared import FastRule, Prepared, Tables, origin_of, refine, result_line
from ruledsl import arithmetic
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_HAN = operator.itemgetter("han")  # of a result line
_ID = operator.itemgetter("id")
_NEW_VALUATION = object.__new__  # a ``Valuation`` whose slots ``Valuer._settled`` sets itself
_COPY = dict.copy  # a kept result line, copied for the answer that reports it (``copied``)
# situations whose facts a valuer keeps (``Valuer._situated``): about 1.3 KiB each. As many as a request reader
# keeps situations (``engine.scoring.checks.SITUATION_CACHE_LIMIT``): with fewer, a stream of requests whose
# situations repeat (a few thousand distinct ones in 100,000 random requests) emptied this table again and again,
# and most hands built their situation's facts anew (256 entries: 3,391 builds in 5,000 random requests, against
# 1,184 distinct situations)
SITUATED_LIMIT = 4096

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
        limit: Tier | None,
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




def copied(valuation: Valuation) -> Valuation:
    """The same valuation with result lines of its own: a valuation's lines may be the ones a rulebook keeps for
    every answer (``Valuer._valuate``), which a caller that changes what it is given must not reach."""
    v = valuation
    return Valuation(
        v.yakuman, v.han, v.fu, v.limit, v.base, tuple(map(_COPY, v.yaku)), tuple(map(_COPY, v.fu_items)), v.payments, v.paid, v.shape, v.sort_key[2]
    )


class Valuer:
    """Values hands under one prepared rulebook; ``pay`` gives a reading's payments from its base
    (``PaymentRules.payments_kept``: its dict may be one a cache keeps, never changed here and copied for each
    valuation)."""

    def __init__(self, prepared: Prepared, pay: Callable[[dict[str, Any], int], tuple[dict[str, int], int]]) -> None:
        self.prepared = prepared
        self._pay = pay
        # the situation's facts (``situation_facts``) by the situation object's id, beside the object itself (which
        # keeps the id from being reused while the entry lives): a request reader hands the same object for every
        # request of a situation met before, and a hand's table is then a copy of this one (one C-level clone of
        # the dict) instead of twenty-five facts written one by one
        self._situated: BoundedCache[int, tuple[Situation, dict[str, Any]]] = BoundedCache(SITUATED_LIMIT)

    def best_valuation(
        self, hand: Hand, situation: Situation, dora: tuple[int, ...] = (), ura: tuple[int, ...] = (), known: dict[str, Any] | None = None
    ) -> Valuation:
        """The best reading's valuation; raises ``NotAWin`` for an incomplete hand and ``NoYaku`` when no reading
        wins (``RuleEvaluationError`` when a rule computes what the language forbids)."""
        # ``reading_key(hand.counts, win, not situation.tsumo)`` written out: one call fewer for every hand
        win = T.KIND_OF[hand.win]
        templates = READING_FACTS[bytes(hand.counts) + WIN_RON[win + win + (not situation.tsumo)]]
        if not templates:
            raise NotAWin(f"`{T.format_tiles(hand.concealed)}` is not a complete hand")
        prepared = self.prepared
        if known is None:
            situated = self._situated.get(id(situation))
            if situated is not None and situated[0] is situation:
                known = situated[1]
            else:
                known = situation_facts(situation, prepared.players)
                self._situated.put(id(situation), (situation, known))
        facts = HandFacts(hand, situation, dora, ura, prepared.successors, prepared.players, known, prepared.hand_ahead)
        # ``prepared.tables(facts)``, its look-up written out: a call only for a situation met first
        tables = prepared.tables_cache.get(prepared.static_key(facts))
        if tables is None:
            tables = prepared.tables(facts)
        need = prepared.shibari_han if situation.honba >= prepared.shibari_honba else 1
        if len(templates) == 1:
            # one reading (most hands), valued in the hand's own table, filled as ``reading_tables`` fills it
            put_reading(facts, templates[0], facts.meld_groups)
            for compute in prepared.reading_ahead:
                compute(facts)
            best = self._valuate(facts, None, tables, need)
            if prepared.standalone_rules:
                best = self._standalone_best(facts, tables, need, best)
        else:
            best = self._best_reading(reading_tables(facts, templates, prepared.reading_ahead), templates, tables, need)
        if best is None:
            if need > 1:
                raise NoYaku(f"the hand is complete but, with {situation.honba} honba, this rulebook needs {need} han from yaku (dora and other bonus han do not count)")
            raise NoYaku("the hand is complete but has no yaku under this rulebook")
        if not prepared.atozuke:
            refused = self._atozuke_refusal(hand, situation, dora, ura, known, need)
            if refused is not None:
                raise NoYaku(refused)
        return best

    def _best_reading(self, envs: tuple[dict[str, Any], ...], templates: tuple[tuple, ...], tables: Tables, need: int) -> Valuation | None:
        """The best valuation among several readings' tables (``reading_tables``), or None when none wins; a
        reading with the same groups as the first asks again only the conditions that read the wait."""
        best: Valuation | None = None
        first = None  # the yaku conditions' results in the first reading, when another reading may reuse them
        for at, env in enumerate(envs):
            holds = None
            if at == 0:
                if tables.again is not None:
                    holds = first = self._holds(env, tables)
            elif first is not None and same_groups(templates[at], templates[0]):
                holds = self._holds_again(env, tables, first)
            valuation = self._valuate(env, None, tables, need, holds)
            if valuation is not None and (best is None or valuation.sort_key > best.sort_key):
                best = valuation
            best = self._standalone_best(env, tables, need, best)
        return best

    def _standalone_best(self, env: dict[str, Any], tables: Tables, need: int, best: Valuation | None) -> Valuation | None:
        """``best``, or a standalone yaku's valuation of this reading where it is better."""
        for rule in self.prepared.standalone_rules:
            valuation = self._valuate(env, rule, tables, need)
            if valuation is not None and (best is None or valuation.sort_key > best.sort_key):
                best = valuation
        return best

    def _atozuke_refusal(
        self, hand: Hand, situation: Situation, dora: tuple[int, ...], ura: tuple[int, ...], known: dict[str, Any] | None, need: int
    ) -> str | None:
        """Under `settings scoring atozuke = false`, why this win is refused: another tile of its wait, won the
        same way, would give no yaku (or fewer than ``need`` han from yaku). None when every tile of the wait wins.

        Each other wait is scored as the same hand won on that tile in the same situation, by the same test as
        the real win; a kind whose every copy the player holds (melds included) is no wait.
        """
        prepared = self.prepared
        for kind in other_wait_kinds(hand, prepared.copies, prepared.allowed_kinds):
            concealed = list(hand.concealed)
            concealed.remove(hand.win)
            concealed.append(kind)  # a kind's plain tile has the kind's code
            other = Hand(tuple(sorted(concealed, key=T.kind_of)), hand.melds, kind)
            templates = READING_FACTS[reading_key(other.counts, kind, not situation.tsumo)]
            facts = HandFacts(other, situation, dora, ura, prepared.successors, prepared.players, known, prepared.hand_ahead)
            tables = prepared.tables(facts)
            wins = False
            for env in reading_tables(facts, templates, prepared.reading_ahead):
                if self._valuate(env, None, tables, need) is not None or any(self._valuate(env, rule, tables, need) is not None for rule in prepared.standalone_rules):
                    wins = True
                    break
            if not wins:
                return (
                    f"atozuke: the hand would have no yaku won on {T.format_kind(kind)}, another tile of its wait "
                    f"(`settings scoring atozuke = false`: every tile of the wait must give a yaku; {prepared.atozuke_clause})"
                )
        return None

    def _holds(self, env: dict[str, Any], tables: Tables) -> list[bool] | None:
        """What ``_valuate``'s common path asks first of a reading: None when a yakuman holds in it, else whether
        each yaku condition of ``tables`` holds (the tables keep their lines: ``Tables.again``)."""
        if tables.yakuman_whens and tables.yakuman_any(env):
            return None
        return [when(env) for when in tables.kept[3]]  # type: ignore[index]

    def _holds_again(self, env: dict[str, Any], tables: Tables, first: list[bool]) -> list[bool] | None:
        """``_holds`` of a reading with the same groups as the one whose results are ``first`` (in which no
        yakuman held): only the conditions that read the wait (``facts.WAIT_FACTS``) are asked again, the others
        answer as they did, rules being pure. Most hands with several readings differ only so: the winning tile
        completed one group or another. ``tests/engine/test_kept_lines.py`` holds this equal to ``_holds``."""
        ask_yakuman, redo = tables.again  # type: ignore[misc]
        if ask_yakuman and tables.yakuman_any(env):
            return None
        holds = list(first)
        for at, when in redo:
            holds[at] = when(env)
        return holds

    def _valuate(
        self, env: dict[str, Any], standalone: FastRule | None, tables: Tables, need: int = 1, holds: list[bool] | None = None
    ) -> Valuation | None:
        """One valuation of one reading (``standalone``: that yaku alone), or None when it is no win: no yaku, or
        fewer than ``need`` han from yaku without a yakuman (``shibari_han``).

        The common reading (no yakuman holds; no item with exceptions) takes every result line from the lines
        kept ahead (``Tables.kept``, ``Prepared.bonus_lines``, ``Prepared.fu_lines``), picked by C-level loops: no
        Python loop or call per line. The valuation holds the kept lines themselves, shared by every valuation
        that reports them: only the best reading's are copied, for the answer a caller may change
        (``Scorer.response``, ``copied``). Anything else is valued by ``_valuate_general``, which
        ``tests/engine/test_kept_lines.py`` holds equal to this on every reading of generated hands. ``holds``: the
        yaku conditions' results in this reading, asked already (``_holds``, ``_holds_again``: no yakuman holds).
        """
        kept = tables.kept
        if standalone is not None or kept is None:
            return self._valuate_general(env, standalone, tables, need)
        if holds is None:
            if tables.yakuman_whens and tables.yakuman_any(env):
                return self._valuate_general(env, None, tables, need)  # a yakuman holds (few hands)
            # the conditions are called from Python, not by ``map(call, ...)``: a call made from bytecode runs in the
            # interpreter loop already running, one from C enters it anew, the costlier of the two per condition
            holds = [when(env) for when in kept[3]]
        prepared = self.prepared
        yaku_lines, excluding, excludes, _whens, bonus_values, fu_values = kept
        lines = list(compress(yaku_lines, holds))
        if excluding is not None:  # the ids of the lines that exclude others (``Tables.kept``)
            for line in lines:
                if line["id"] in excluding:
                    excluded = set().union(*compress(excludes, holds))
                    lines = [line for line in lines if line["id"] not in excluded]
                    break
        if not lines and prepared.bonus_needs_yaku:
            return None
        if need > 1 and sum(map(_HAN, lines)) < need:
            return None
        # only the value functions that may answer other than 0 are asked (``prepared._live``): an item worth 0
        # has no line, and adds nothing to the sum; the lines of the few values that are not 0, by (place, value),
        # are taken in the same loop (in 3.11 a comprehension is a frame of its own)
        bonus_lines = prepared.bonus_lines
        for place, value in bonus_values:
            worth = value(env)
            if worth:
                lines.append(bonus_lines[place, worth])
        if not lines:  # no yaku and no bonus either (``bonus_needs_yaku = false``): no win
            return None
        han = 0
        for line in lines:
            han += line["han"]
        env["__yaku__"] = frozenset(map(_ID, lines))
        raw = 0
        pairs = []
        for place, value in fu_values:
            worth = value(env)
            if worth:
                raw += worth
                pairs.append((place, worth))
        share_pairs = prepared.fu_share_pairs
        if share_pairs is not None:
            rows = _per_set_rows(share_pairs, env)
            if rows:  # the per-set items the sets reach (no live value has their places), added in place order
                raw, pairs = _with_shares(raw, pairs, rows)
        fu_lines = prepared.fu_lines
        item_lines = []  # a loop, not a comprehension: the few items' lines, without a frame of their own
        for pair in pairs:
            item_lines.append(fu_lines[pair])
        env["raw_fu"] = raw  # ``_fu_total`` written out: one call fewer for every reading
        for when, rule in tables.fixed_fu_table:
            if when(env):
                fu, item_lines = self._fixed_fu(env, rule)
                break
        else:
            step = prepared.fu_rounding
            fu = -(-raw // step) * step if step > 1 else raw
        return self._settled(env, han, fu, 0, lines, item_lines, False)

    def _valuate_general(self, env: dict[str, Any], standalone: FastRule | None, tables: Tables, need: int = 1) -> Valuation | None:
        """``_valuate`` of any reading, every line built where its item holds."""
        prepared = self.prepared
        yakuman_lines: list[dict[str, Any]] = []
        if standalone is None:
            held = list(compress(tables.yakuman_rules, map(call, tables.yakuman_whens, repeat(env))))
            if held:  # most readings hold none: their lines are built only for those that do
                yakuman_lines = self._yakuman(env, held)
        yaku_lines: list[dict[str, Any]] = []
        if not (yakuman_lines and prepared.yakuman_excludes_yaku):
            if standalone is not None:
                closed_table, open_table = prepared.standalone_tables[id(standalone)]
                yaku_lines = self._yaku(env, closed_table if env["closed"] else open_table)
                if not yaku_lines:
                    return None
            else:
                yaku_lines = self._yaku(env, tables.yaku)
        if not yakuman_lines and not yaku_lines and prepared.bonus_needs_yaku:
            return None
        if need > 1 and not yakuman_lines and sum(map(_HAN, yaku_lines)) < need:
            return None
        yakuman = 0
        if yakuman_lines:
            mults = [line["yakuman"] for line in yakuman_lines]
            yakuman = sum(mults) if prepared.stacking == "add" else max(mults)
        elif standalone is None and (yaku_lines or not prepared.bonus_needs_yaku):
            yaku_lines += self._bonus(env, tables)
            if not yaku_lines:  # no yaku and no bonus either (``bonus_needs_yaku = false``): no win
                return None
        han = sum(map(_HAN, yaku_lines))
        env["__yaku__"] = frozenset(map(_ID, yaku_lines)).union(map(_ID, yakuman_lines))
        fu, fu_lines = self._fu(env, tables)
        return self._settled(env, han, fu, yakuman, yakuman_lines + yaku_lines, fu_lines, bool(yakuman_lines))

    def _settled(
        self, env: dict[str, Any], han: int, fu: int, yakuman: int, lines: list[dict[str, Any]], fu_lines: list[dict[str, Any]], real_yakuman: bool
    ) -> Valuation:
        """The reading's valuation from its han, fu and lines: its limit and payments, kept per han, fu, yakuman
        and the other facts their rules read (the rules are pure, so equal inputs give equal results).

        A kept settlement leaves ``base`` and ``payers`` unset: only payment rules may read them (the checker's
        scopes), and every evaluation of payment rules sets both first (``PaymentRules.payments_kept``)."""
        prepared = self.prepared
        env["han"] = han
        env["fu"] = fu
        env["yakuman"] = yakuman
        # ``basic_points``, its common case written out; four comparisons, not two chained ones, which copy and
        # swap their operands on the stack
        env["basic_points"] = fu << (han + 2) if han >= 0 and han <= 56 and fu >= 0 and fu <= 65536 else basic_points(han, fu)
        settled_key = prepared.settled_key
        key = settled = None
        if settled_key is not None:
            try:
                key = settled_key(env)  # han, fu and yakuman (set above), and the other facts read
                settled = prepared.settled_cache.get(key)
            except (KeyError, TypeError):  # a fact this hand lacks, or a value that cannot be a key: not kept
                key = None
        if settled is not None:
            base, limit, reported_yakuman, kept, paid = settled
        else:
            base, limit, reported_yakuman = self._limits(env, han, fu, yakuman)
            kept, paid = self._pay(env, base)
            if key is not None:
                # the payments dict the payment cache keeps, kept again here: a dict of ints, which the garbage
                # collector does not follow, and no new object per entry
                prepared.settled_cache.put(key, (base, limit, reported_yakuman, kept, paid))
        # ``Valuation(reported_yakuman, han, fu, limit, base, tuple(lines), tuple(fu_lines), dict(kept), paid,
        # env["shape"], real_yakuman)``, its slots set here: calling the class binds eleven arguments in a frame of
        # its own, for the valuation of nearly every request (``tests/engine/test_settled_valuation.py``)
        valuation = _NEW_VALUATION(Valuation)
        valuation.yakuman = reported_yakuman
        valuation.han = han
        valuation.fu = fu
        valuation.limit = limit
        valuation.base = base
        valuation.yaku = tuple(lines)
        valuation.fu_items = tuple(fu_lines)
        valuation.payments = dict(kept)  # each valuation its own dict: the kept one is shared by every reading settled alike
        valuation.paid = paid
        valuation.shape = env["shape"]
        valuation.sort_key = (reported_yakuman, paid, real_yakuman, han, fu)
        return valuation

    def _limits(self, env: dict[str, Any], han: int, fu: int, yakuman: int) -> tuple[int, Tier | None, int]:
        """``limits`` through a cache by han, fu, yakuman and the other facts the limit rules read (``value_facts``
        set before)."""
        prepared = self.prepared
        if prepared.limit_reads is None:
            return limits(prepared.limit_rules, env, yakuman)
        try:
            key = prepared.limit_key(env)  # han, fu and yakuman (set before), and the other facts read
            limited = prepared.limit_cache.get(key)
        except (KeyError, TypeError):  # a fact this hand lacks, or a value that cannot be a key: not kept
            return limits(prepared.limit_rules, env, yakuman)
        if limited is None:
            limited = limits(prepared.limit_rules, env, yakuman)
            prepared.limit_cache.put(key, limited)
        return limited

    # The rules that hold are picked by C-level loops (``compress`` over the conditions' results) and result
    # lines are built only for them, already in their response form (what a line excludes is kept beside it).
    def _yakuman(self, env: dict[str, Any], held: list[FastRule]) -> list[dict[str, Any]]:
        lines = []
        excludes = []
        origins = self.prepared.origins
        for rule in held:
            name, title, clause, fields = refine(rule, env) if rule.variants else (rule.name, rule.title, rule.clause, rule.fields)
            mult = fields.get("multiplier")
            lines.append(
                {"id": name, "name": title, "yakuman": mult(env) if mult is not None else 1, "clause": clause, "clause_from": origin_of(origins, name, clause)}
            )
            excludes.append(fields.get("excludes", ()))
        return _apply_excludes(lines, excludes) if lines else lines

    def _yaku(self, env: dict[str, Any], table_and_conditions: tuple[tuple, tuple]) -> list[dict[str, Any]]:
        closed = env["closed"]
        origins = self.prepared.origins
        lines = []
        excluded: set[str] = set()
        table, whens = table_and_conditions
        for closed_han, open_han, rule, name, title, clause, excludes, _line in compress(table, map(call, whens, repeat(env))):
            if rule.variants:
                name, title, clause, fields = refine(rule, env)
                closed_han, open_han = fields.get("han", (closed_han, open_han))
                excludes = fields.get("excludes", ())
            han = closed_han if closed else open_han
            if han is None:
                continue
            lines.append(result_line(name, title, han, clause, origins))
            if excludes:
                excluded.update(excludes)
        return [line for line in lines if line["id"] not in excluded] if excluded else lines

    def _bonus(self, env: dict[str, Any], tables: Tables) -> list[dict[str, Any]]:
        if tables.bonus_values is not None:
            fns, about = tables.bonus_values
            values = list(map(call, fns, repeat(env)))
            return [{"id": a[0], "name": a[1], "han": v, "clause": a[2], "clause_from": a[3]} for a, v in compress(zip(about, values, strict=True), values)]
        origins = self.prepared.origins
        lines = []
        table, whens = self.prepared.bonus_table
        for rule, name, title, clause, value in compress(table, map(call, whens, repeat(env))):
            if rule.variants:
                name, title, clause, fields = refine(rule, env)
                value = fields["han"]
            han = value(env)
            if han:
                lines.append(result_line(name, title, han, clause, origins))
        return lines

    def _fu(self, env: dict[str, Any], tables: Tables) -> tuple[int, list[dict[str, Any]]]:
        if tables.fu_values is not None:
            fns, about = tables.fu_values
            values = list(map(call, fns, repeat(env)))
            if tables.fu_per_element is not None:
                values = _per_set_added(values, tables.fu_per_element, env)
            lines = [{"id": a[0], "fu": v, "clause": a[2], "clause_from": a[3]} for a, v in compress(zip(about, values, strict=True), values)]
            return self._fu_total(env, sum(values), lines, tables)
        origins = self.prepared.origins
        lines = []
        raw = 0
        table, whens = self.prepared.fu_table
        for rule, name, _title, clause, value in compress(table, map(call, whens, repeat(env))):
            if rule.variants:
                name, _title, clause, fields = refine(rule, env)
                value = fields["fu"]
            fu = value(env)
            if fu:
                raw += fu
                lines.append({"id": name, "fu": fu, "clause": clause, "clause_from": origin_of(origins, name, clause)})
        return self._fu_total(env, raw, lines, tables)

    def _fu_total(self, env: dict[str, Any], raw: int, lines: list[dict[str, Any]], tables: Tables) -> tuple[int, list[dict[str, Any]]]:
        """The hand's fu from the items' sum: a fixed total if a ``fixed`` item holds, else rounded up."""
        env["raw_fu"] = raw
        for when, rule in tables.fixed_fu_table:
            if when(env):
                return self._fixed_fu(env, rule)
        step = self.prepared.fu_rounding
        return (-(-raw // step) * step if step > 1 else raw), lines

    def _fixed_fu(self, env: dict[str, Any], rule: FastRule) -> tuple[int, list[dict[str, Any]]]:
        """The fixed total of a ``fixed`` fu item that holds, and its line (the only fu line reported)."""
        name, _title, clause, fields = refine(rule, env)
        value = fields["fixed"](env)
        return value, [{"id": name, "fu": value, "clause": clause, "clause_from": origin_of(self.prepared.origins, name, clause)}]


def _per_set_added(values: list[int], per_element: tuple[str, Any], env: dict[str, Any]) -> list[int]:
    """The fu items' values with each element's share of the per-set items added (``prepared._summed_per_element``).

    Most elements add nothing (their row is empty): the others' rows are added to the values one by one, C-level,
    instead of summing a column of every element per item."""
    for row in _per_set_rows(per_element, env):
        values = list(map(add, values, row))
    return values


def _with_shares(raw: int, pairs: list[tuple[int, int]], rows: list[tuple[tuple[int, int], ...]]) -> tuple[int, list[tuple[int, int]]]:
    """The raw fu and the (place, value) pairs of the items worth something, the elements' per-set shares
    (``Prepared.fu_share_pairs``: each element's nonzero ones) added: an item reached by several elements gets
    their sum, and the pairs are in place order, as the items' lines are. The live values never hold a per-set
    item's place (``_summed_per_element`` makes those answer 0)."""
    if len(rows) == 1 and len(rows[0]) == 1:  # one set with a share (most readings that have one)
        pair = rows[0][0]
        pairs.append(pair)
        pairs.sort()
        return raw + pair[1], pairs
    summed: dict[int, int] = {}
    for row in rows:
        for place, share in row:
            summed[place] = summed.get(place, 0) + share
    raw += sum(summed.values())
    pairs += [pair for pair in summed.items() if pair[1]]
    pairs.sort()
    return raw, pairs


def _per_set_rows(per_element: tuple[str, Any], env: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The rows of shares of the elements that add something to the per-set fu items (``_per_set_added``)."""
    fact, shares = per_element
    elements = env[fact]
    if not elements:
        return []
    try:
        return list(filter(None, map(shares.__getitem__, elements)))
    except TypeError:  # an element that cannot be a key: its shares, computed
        return list(filter(None, map(shares.fn, elements)))


def value_facts(env: dict[str, Any], han: int, fu: int, yakuman: int) -> None:
    """Set the facts the limit rules read: han, fu, yakuman and the basic points."""
    env["han"] = han
    env["fu"] = fu
    env["yakuman"] = yakuman
    env["basic_points"] = basic_points(han, fu)


def limits(rules: tuple[FastRule, ...], env: dict[str, Any], yakuman: int) -> tuple[int, Tier | None, int]:
    """(base, limit, reported yakuman): the highest limit tier that holds, else the basic points (``value_facts``
    set before)."""
    base, limit, reported_yakuman = env["basic_points"], None, yakuman
    best_base = -1
    for rule in rules:
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


def basic_points(han: int, fu: int) -> int:
    """fu × 2^(han + 2), in the language's integer bounds; negative han or fu is the rulebook's error (it would
    make fractions of points, or negative ones), as is a value past the bounds (``ruledsl.arithmetic``)."""
    if 0 <= han <= 56 and 0 <= fu <= 65536:  # every real hand: far inside the bound, no check needed
        return fu << (han + 2)
    if han < 0 or fu < 0:
        raise RuleEvaluationError(f"a reading valued at {han} han and {fu} fu; neither can be negative")
    return arithmetic.multiply(fu, arithmetic.power(2, han + 2))


def _apply_excludes(lines: list[dict[str, Any]], excludes: list[tuple[str, ...]]) -> list[dict[str, Any]]:
    """Drop the lines another line excludes (``excludes[i]`` is what ``lines[i]`` excludes)."""
    excluded = {name for names in excludes for name in names}
    if not excluded:
        return lines
    return [line for line in lines if line["id"] not in excluded]
