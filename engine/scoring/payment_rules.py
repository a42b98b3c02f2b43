"""The rulebook's payment rules: who pays what for a win, from its base points.

Each payment rule that holds names a payer (the discarder, the dealer, each non-dealer) and an amount; the points
paid in all follow from how many players each payer stands for at this table. Few bases occur, so a reading's
payments are kept per base and the other facts the payment rules read. The payment API (``settle``: a han and fu;
``pay_tier``: a limit tier, for nagashi mangan) goes through the same rules without a hand.
"""

from __future__ import annotations

from engine.core.errors import EngineError, InvalidRulebook, InvalidSituation, LimitExceeded
from engine.core.memo import BoundedCache
from engine.scoring.prepared import SETTLE_CACHE_LIMIT, Prepared, refine
from engine.scoring.result import Payments
from engine.scoring.valuation import limits, value_facts
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

PAYER_KEYS = {"discarder": "ron", "dealer": "dealer", "non_dealer": "non_dealer"}


class PaymentRules:
    """The payment rules of one prepared rulebook, applied: the amounts a win with a given base asks of each payer."""

    def __init__(self, prepared: Prepared) -> None:
        self.prepared = prepared
        # ``split``'s payments at honba 0, by (base, dealer, tsumo): all its table holds, so they are the same
        # (the rules are pure); a round splits every win it settles after a draw or a dealer's win
        self._plain: BoundedCache[tuple[int, bool, bool], dict[str, int]] = BoundedCache(SETTLE_CACHE_LIMIT)

    def payments(self, env: dict[str, Any]) -> tuple[dict[str, int], int]:
        """(amount per payer, points paid in all) for a win whose ``base`` is set in ``env``."""
        prepared = self.prepared
        players = prepared.players
        dealer = env["dealer"]
        env["payers"] = players - 1
        payments: dict[str, int] = {}
        paid = 0
        for rule in prepared.payment_rules:
            if rule.when(env):
                fields = refine(rule, env)[3] if rule.variants else rule.fields  # ``refine`` of a rule without exceptions
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

    def payments_kept(self, env: dict[str, Any], base: int) -> tuple[dict[str, int], int]:
        """``payments`` of a reading with this base, through a cache by the base and the facts the payment rules
        read (the rules are pure); the facts it would have set are set all the same. The dict may be the one the
        cache keeps, which the caller must never change (a valuer keeps it again with the reading's limits, and
        copies it for each valuation)."""
        prepared = self.prepared
        env["base"] = base
        env["payers"] = prepared.players - 1
        if prepared.payment_reads is None:
            return self.payments(env)
        try:
            key = prepared.payment_key(env)
            paying = prepared.payment_cache.get(key)
        except (KeyError, TypeError):  # a fact this hand lacks, or a value that cannot be a key
            return self.payments(env)
        if paying is None:
            paying = self.payments(env)
            prepared.payment_cache.put(key, paying)
        return paying

    def split(self, payments: dict[str, int], *, base: int, dealer: bool, tsumo: bool, honba: int) -> Payments:
        """``payments`` of a win with this base, each split into its value and its honba part: the value is what
        the same payment rules ask at honba 0 (nothing is asked again at honba 0)."""
        if not honba:
            return Payments(payments, {})
        key = (base, dealer, tsumo)
        plain = self._plain.get(key)
        if plain is None:
            env = {"dealer": dealer, "tsumo": tsumo, "ron": not tsumo, "honba": 0, "riichi_sticks": 0, "base": base, "closed": True}
            try:
                plain = self._plain.put(key, self.payments(env)[0])
            except RuleEvaluationError as exc:
                raise rule_error(exc) from None
        value = {payer: plain.get(payer, 0) for payer in payments}
        return Payments(value, {payer: amount - value[payer] for payer, amount in payments.items()})

    def settle(self, han: int, fu: int, *, dealer: bool, tsumo: bool, yakuman: int = 0, honba: int = 0) -> dict[str, Any]:
        """The payment API: what a win of this han and fu pays, without building a hand (point tables)."""
        env = {"han": han, "fu": fu, "dealer": dealer, "tsumo": tsumo, "ron": not tsumo, "honba": honba, "riichi_sticks": 0, "closed": True}
        try:
            value_facts(env, han, fu, yakuman)
            base, limit, reported = limits(self.prepared.limit_rules, env, yakuman)
            env["base"] = base
            payments, paid = self.payments(env)
        except RuleEvaluationError as exc:
            raise rule_error(exc) from None
        return {"base_points": base, "limit": limit, "yakuman": reported, "payments": payments, "total": paid}

    def pay_tier(self, tier: str, *, dealer: bool, honba: int = 0) -> dict[str, Any]:
        """A tsumo paid like a limit tier (nagashi mangan): the tier's base through the payment rules."""
        base = None
        for rule in self.prepared.limit_rules:
            tier_field = rule.fields.get("tier")
            name = tier_field({}) if tier_field is not None else rule.name
            if name == tier:
                base = rule.fields["base"]({"yakuman": 1, "han": 0, "fu": 0, "basic_points": 0})
                break
        if base is None:
            raise InvalidSituation(f"this rulebook has no limit tier `{tier}`")
        env = {"dealer": dealer, "tsumo": True, "ron": False, "honba": honba, "riichi_sticks": 0, "base": base, "closed": True}
        try:
            payments, paid = self.payments(env)
        except RuleEvaluationError as exc:
            raise rule_error(exc) from None
        return {"base_points": base, "payments": payments, "total": paid}


def rule_error(exc: RuleEvaluationError) -> EngineError:
    """The contract's answer to a rule that computed what the language forbids (its code says which)."""
    error = LimitExceeded if exc.code == LimitExceeded.code else InvalidRulebook
    return error(f"the rulebook cannot score this hand: {exc.message}")
