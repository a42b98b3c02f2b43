"""Scoring a win under any compiled rulebook.

Every reading of the hand (each decomposition, each group the winning tile may have completed) is valued by
the rulebook's items in order: yakuman, yaku, bonus han, fu, limits, payments. The best reading wins: most
yakuman, then most points, then han, then fu. Nothing here knows a yaku or a number of any ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import tiles as T
from engine.decompose import SEVEN_PAIRS, STANDARD, TANKI, THIRTEEN_ORPHANS, decompose, win_placements
from engine.errors import EngineError, InvalidHand, InvalidSituation, NotAWin, NoYaku
from engine.facts import Env, HandFacts, _successor_table, concealed_group
from engine.hand import Hand, build_hand
from engine.request import ScoreRequest, Situation, parse_request
from ruledsl.compile import Rule, Rulebook
from ruledsl.fast import closure
from ruledsl.values import Group

PAYER_KEYS = {"discarder": "ron", "dealer": "dealer", "non_dealer": "non_dealer"}


@dataclass(frozen=True)
class Valuation:
    """One reading's value; ``sort_key`` orders readings best last."""

    yakuman: int
    han: int
    fu: int
    limit: str | None
    base: int
    yaku: tuple[dict[str, Any], ...]
    fu_items: tuple[dict[str, Any], ...]
    payments: dict[str, int]
    paid: int
    shape: str = STANDARD

    @property
    def sort_key(self) -> tuple[int, int, bool, int, int]:
        # at equal points a yakuman pattern outranks the same value reached by counting han
        real_yakuman = any("yakuman" in line for line in self.yaku)
        return (self.yakuman, self.paid, real_yakuman, self.han, self.fu)


@dataclass(frozen=True)
class FastVariant:
    name: str
    title: str | None
    clause: str | None
    when: Any
    fields: dict[str, Any]


@dataclass(frozen=True)
class FastRule:
    """A compiled rule with its conditions and fields turned into closures (``ruledsl.fast``) for the hot path."""

    kind: str
    name: str
    title: str
    clause: str | None
    when: Any
    fields: dict[str, Any]
    variants: tuple[FastVariant, ...]


def _fast_fields(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: (closure(v) if callable(v) else v) for k, v in fields.items()}


def fast(rule: Rule) -> FastRule:
    return FastRule(
        rule.kind,
        rule.name,
        rule.title,
        rule.clause,
        closure(rule.when),
        _fast_fields(rule.fields),
        tuple(FastVariant(v.name, v.title, v.clause, closure(v.when), _fast_fields(v.fields)) for v in rule.variants),
    )


def _fast_all(rules) -> tuple[FastRule, ...]:
    return tuple(fast(r) for r in rules)


@dataclass
class Prepared:
    """What a rulebook needs precomputed to score quickly: its tile set and dora successor table."""

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
    yakuman_rules: tuple[FastRule, ...] = field(default=())
    yaku_rules: tuple[FastRule, ...] = field(default=())
    standalone_rules: tuple[FastRule, ...] = field(default=())
    bonus_rules: tuple[FastRule, ...] = field(default=())
    fu_rules: tuple[FastRule, ...] = field(default=())
    fixed_fu_rules: tuple[FastRule, ...] = field(default=())
    limit_rules: tuple[FastRule, ...] = field(default=())
    payment_rules: tuple[FastRule, ...] = field(default=())


def prepare(rulebook: Rulebook) -> Prepared:
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
        successors=_successor_table(scoring.get("dora_cycles", ())),
        players=int(table.get("players", 4)),
        fu_rounding=int(scoring.get("fu_rounding", 1)),
        stacking=str(scoring.get("yakuman_stacking", "add")),
        yakuman_excludes_yaku=bool(scoring.get("yakuman_excludes_yaku", True)),
        bonus_needs_yaku=bool(scoring.get("bonus_needs_yaku", True)),
        deposit=int(table.get("riichi_deposit", 0)),
        kita_allowed=bool(table.get("kita", False)),
        yakuman_rules=_fast_all(rulebook.of("yakuman")),
        yaku_rules=_fast_all(r for r in yaku if not _const_true(r.fields.get("standalone"))),
        standalone_rules=_fast_all(r for r in yaku if _const_true(r.fields.get("standalone"))),
        bonus_rules=_fast_all(rulebook.of("bonus")),
        fu_rules=_fast_all(r for r in fu if "fu" in r.fields),
        fixed_fu_rules=_fast_all(r for r in fu if "fixed" in r.fields),
        limit_rules=_fast_all(rulebook.of("limit")),
        payment_rules=_fast_all(rulebook.of("payment")),
    )


def _const_true(node: Any) -> bool:
    return node is not None and bool(node({}))


class Scorer:
    """Scores requests under one compiled rulebook; build once, call many times."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.p = prepare(rulebook)

    # ---- public API
    def score(self, request: ScoreRequest | dict[str, Any]) -> dict[str, Any]:
        """Score one request; the contract's response dict. Raises ``EngineError`` for bad input."""
        if not isinstance(request, ScoreRequest):
            request = parse_request(request)
        hand = self.build_hand(request)
        situation = situation_of(request)
        self.check_situation(hand, situation)
        dora = tuple(T.parse_tiles(request.dora_indicators)) if request.dora_indicators else ()
        ura = tuple(T.parse_tiles(request.ura_indicators)) if request.ura_indicators else ()
        self._check_indicators(dora, "dora_indicators")
        self._check_indicators(ura, "ura_indicators")
        best = self.best_valuation(hand, situation, dora, ura)
        return self.response(best, situation)

    def score_json(self, data: Any) -> dict[str, Any]:
        """Like ``score`` but never raises for bad input: errors become ``ok: false`` responses."""
        try:
            return self.score(data)
        except EngineError as exc:
            return {"ok": False, "error": exc.to_json()}

    # ---- steps
    def build_hand(self, request: ScoreRequest) -> Hand:
        return build_hand(
            request.hand,
            [(m.type, m.tiles) for m in request.melds],
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
        for code in codes:
            if T.kind_of(code) not in self.p.allowed_kinds:
                raise InvalidHand(f"`{name}`: `{T.format_tiles([code])}` is not part of this rulebook's tile set")
        if len(codes) > 5:
            raise InvalidSituation(f"`{name}`: {len(codes)} indicators; at most 5 can be revealed")

    def best_valuation(self, hand: Hand, situation: Situation, dora=(), ura=()) -> Valuation:
        facts = HandFacts(hand, situation, dora, ura, self.p.successors, self.p.players)
        readings = decompose(hand.counts)
        if not readings:
            raise NotAWin(f"`{T.format_tiles(hand.concealed)}` is not a complete hand")
        best: Valuation | None = None
        for env in self._environments(facts, readings):
            for valuation in self._valuations(env):
                if valuation is not None and (best is None or valuation.sort_key > best.sort_key):
                    best = valuation
        if best is None:
            raise NoYaku("the hand is complete but has no yaku under this rulebook")
        return best

    def _environments(self, facts: HandFacts, readings):
        hand = facts.hand
        win = hand.win_kind
        ron = not facts.situation.tsumo
        melds = facts.meld_groups
        for reading in readings:
            if reading.shape == STANDARD:
                for index, wait in win_placements(reading.groups, win):
                    groups: list[Group] = []
                    pair = None
                    win_group = None
                    for i, (shape, kind) in enumerate(reading.groups):
                        g = concealed_group(shape, kind, ron and i == index)
                        if i == index:
                            win_group = g
                        if g.shape == "pair":
                            pair = g
                        else:
                            groups.append(g)
                    env = Env(facts)
                    env["shape"] = STANDARD
                    env["sets"] = tuple(groups) + melds
                    env["pair"] = pair
                    env["pairs"] = (pair,)
                    env["wait"] = wait
                    env["win_group"] = win_group
                    yield env
            else:
                env = Env(facts)
                env["shape"] = reading.shape
                env["sets"] = ()
                pairs = tuple(concealed_group(shape, kind, False) for shape, kind in reading.groups)
                env["pairs"] = pairs if reading.shape == SEVEN_PAIRS else ()
                env["pair"] = None
                env["wait"] = TANKI
                env["win_group"] = next((g for g in pairs if g.kind == win), None)
                if reading.shape == THIRTEEN_ORPHANS:
                    env["groups"] = ()
                yield env

    def _valuations(self, env: Env):
        yield self._valuate(env, standalone=None)
        for rule in self.p.standalone_rules:
            yield self._valuate(env, standalone=rule)

    def _valuate(self, env: Env, standalone: FastRule | None) -> Valuation | None:
        p = self.p
        yakuman_lines: list[dict[str, Any]] = []
        if standalone is None:
            yakuman_lines = self._yakuman(env)
        yaku_lines: list[dict[str, Any]] = []
        if not (yakuman_lines and p.yakuman_excludes_yaku):
            if standalone is None:
                yaku_lines = self._yaku(env, p.yaku_rules)
            else:
                yaku_lines = self._yaku(env, (standalone,))
                if not yaku_lines:
                    return None
        if not yakuman_lines and not yaku_lines:
            return None
        yakuman = 0
        if yakuman_lines:
            mults = [line["yakuman"] for line in yakuman_lines]
            yakuman = sum(mults) if p.stacking == "add" else max(mults)
        han = sum(line["han"] for line in yaku_lines)
        if standalone is None and (yaku_lines or not p.bonus_needs_yaku) and not yakuman_lines:
            for line in self._bonus(env):
                yaku_lines.append(line)
                han += line["han"]
        env["__yaku__"] = frozenset(line["id"] for line in yaku_lines) | frozenset(line["id"] for line in yakuman_lines)
        fu, fu_lines = self._fu(env)
        base, limit, reported_yakuman, payments, paid = self._settle(env, han, fu, yakuman)
        return Valuation(
            yakuman=reported_yakuman,
            han=han,
            fu=fu,
            limit=limit,
            base=base,
            yaku=tuple(yakuman_lines + yaku_lines),
            fu_items=tuple(fu_lines),
            payments=payments,
            paid=paid,
            shape=env["shape"],
        )

    def _settle(self, env: dict, han: int, fu: int, yakuman: int) -> tuple[int, str | None, int, dict[str, int], int]:
        """Limits then payments: (base, limit, reported yakuman, payments per payer, points paid)."""
        env["han"] = han
        env["fu"] = fu
        env["yakuman"] = yakuman
        basic = fu * 2 ** (han + 2)
        env["basic_points"] = basic
        base, limit, reported_yakuman = basic, None, yakuman
        best_base = -1
        for rule in self.p.limit_rules:
            if rule.when(env):
                fields = rule.fields
                value = fields["base"](env)
                if value > best_base:
                    best_base = value
                    base = value
                    tier = fields.get("tier")
                    limit = tier(env) if tier is not None else rule.name
                    ym = fields.get("yakuman")
                    reported_yakuman = ym(env) if ym is not None else yakuman
        env["base"] = base
        payments, paid = self._payments(env)
        return base, limit, reported_yakuman, payments, paid

    def settle(self, han: int, fu: int, *, dealer: bool, tsumo: bool, yakuman: int = 0, honba: int = 0) -> dict[str, Any]:
        """The payment API: what a win of this han and fu pays, without building a hand (point tables)."""
        env = {"han": han, "fu": fu, "dealer": dealer, "tsumo": tsumo, "ron": not tsumo, "honba": honba, "riichi_sticks": 0, "closed": True}
        base, limit, reported, payments, paid = self._settle(env, han, fu, yakuman)
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
        payments, paid = self._payments(env)
        return {"base_points": base, "payments": payments, "total": paid}

    def _yakuman(self, env: Env) -> list[dict[str, Any]]:
        lines = []
        for rule in self.p.yakuman_rules:
            if rule.when(env):
                name, title, clause, fields = _refine(rule, env)
                mult = fields.get("multiplier")
                lines.append({"id": name, "name": title, "yakuman": mult(env) if mult is not None else 1, "clause": clause, "_excludes": fields.get("excludes", ())})
        return _apply_excludes(lines)

    def _yaku(self, env: Env, rules: tuple[FastRule, ...]) -> list[dict[str, Any]]:
        closed = env["closed"]
        lines = []
        for rule in rules:
            closed_han, open_han = rule.fields["han"]
            if not closed and open_han is None:
                continue
            if rule.when(env):
                name, title, clause, fields = _refine(rule, env)
                han_closed, han_open = fields.get("han", (closed_han, open_han))
                han = han_closed if closed else han_open
                if han is None:
                    continue
                lines.append({"id": name, "name": title, "han": han, "clause": clause, "_excludes": fields.get("excludes", ())})
        return _apply_excludes(lines)

    def _bonus(self, env: Env) -> list[dict[str, Any]]:
        lines = []
        for rule in self.p.bonus_rules:
            if rule.when(env):
                name, title, clause, fields = _refine(rule, env)
                han = fields["han"](env)
                if han:
                    lines.append({"id": name, "name": title, "han": han, "clause": clause})
        return lines

    def _fu(self, env: Env) -> tuple[int, list[dict[str, Any]]]:
        lines = []
        raw = 0
        for rule in self.p.fu_rules:
            if rule.when(env):
                name, _title, clause, fields = _refine(rule, env)
                value = fields["fu"](env)
                if value:
                    raw += value
                    lines.append({"id": name, "fu": value, "clause": clause})
        env["raw_fu"] = raw
        for rule in self.p.fixed_fu_rules:
            if rule.when(env):
                name, _title, clause, fields = _refine(rule, env)
                value = fields["fixed"](env)
                return value, [{"id": name, "fu": value, "clause": clause}]
        step = self.p.fu_rounding
        return (-(-raw // step) * step if step > 1 else raw), lines

    def _payments(self, env: Env) -> tuple[dict[str, int], int]:
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
        yaku = []
        for line in best.yaku:
            entry = {k: v for k, v in line.items() if not k.startswith("_")}
            yaku.append(entry)
        return {
            "ok": True,
            "rulebook": self.rulebook.name,
            "han": best.han,
            "fu": best.fu,
            "yakuman": best.yakuman,
            "limit": best.limit,
            "yaku": yaku,
            "fu_items": list(best.fu_items),
            "base_points": best.base,
            "payments": best.payments,
            "total": best.paid + situation.riichi_sticks * self.p.deposit,
        }


def _refine(rule: FastRule, env: Env) -> tuple[str, str, str | None, dict[str, Any]]:
    """The first exception whose condition also holds replaces the rule's id and the fields it sets."""
    for variant in rule.variants:
        if variant.when(env):
            return variant.name, variant.title or variant.name, variant.clause, {**rule.fields, **variant.fields}
    return rule.name, rule.title, rule.clause, rule.fields


def _apply_excludes(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    excluded = {name for line in lines for name in line.get("_excludes", ())}
    if not excluded:
        return lines
    return [line for line in lines if line["id"] not in excluded]


def situation_of(request: ScoreRequest) -> Situation:
    return Situation(
        tsumo=request.tsumo,
        seat_wind=request.seat_wind,
        round_wind=request.round_wind,
        riichi=request.riichi or request.double_riichi,
        double_riichi=request.double_riichi,
        ippatsu=request.ippatsu,
        haitei=request.haitei,
        houtei=request.houtei,
        rinshan=request.rinshan,
        chankan=request.chankan,
        tenhou=request.tenhou,
        chiihou=request.chiihou,
        renhou=request.renhou,
        kita=request.kita,
        honba=request.honba,
        riichi_sticks=request.riichi_sticks,
    )


def situation_problems(hand: Hand, s: Situation) -> list[str]:
    """Mechanical impossibilities in a request (no rule choice involved)."""
    problems = []
    if s.riichi and not hand.is_closed:
        problems.append("riichi needs a closed hand (only closed kans allowed)")
    if s.ippatsu and not s.riichi:
        problems.append("ippatsu needs riichi")
    if s.haitei and not s.tsumo:
        problems.append("haitei is a tsumo on the last tile; this is a ron")
    if s.houtei and s.tsumo:
        problems.append("houtei is a ron on the last discard; this is a tsumo")
    if s.rinshan and not s.tsumo:
        problems.append("rinshan is a tsumo on a kan replacement tile; this is a ron")
    if s.rinshan and not any(m.is_kan for m in hand.melds):
        problems.append("rinshan needs a kan among the melds")
    if s.rinshan and s.haitei:
        problems.append("a kan replacement tile is never the last tile of the wall")
    if s.chankan and s.tsumo:
        problems.append("chankan is a ron on a robbed kan; this is a tsumo")
    if s.chankan and (s.haitei or s.houtei or s.rinshan):
        problems.append("chankan cannot combine with haitei, houtei or rinshan")
    for flag, dealer_needed, tsumo_needed in (("tenhou", True, True), ("chiihou", False, True), ("renhou", False, False)):
        if getattr(s, flag):
            if hand.melds:
                problems.append(f"{flag} is a win with no call made")
            if s.dealer != dealer_needed:
                problems.append(f"{flag} is a {'dealer' if dealer_needed else 'non-dealer'} win")
            if s.tsumo != tsumo_needed:
                problems.append(f"{flag} is won by {'tsumo' if tsumo_needed else 'ron'}")
            if s.riichi:
                problems.append(f"{flag} comes before any riichi could be declared")
    return problems
