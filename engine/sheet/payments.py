"""The payment tables of the players' handout, computed by the rulebook's own scorer, never copied from a table.

A printed table that disagrees with the scorer is worse than none: players settle by it. So every cell is what
``Scorer.settle`` pays for that han and fu, and every limit row is the tier's base points put through the
rulebook's payment rules, the same path a scored hand takes. The grid (1 to 4 han, 20 to 110 fu) is the one
players know; from 5 han on every rulebook pays a limit, listed by tier.
"""

from __future__ import annotations

from typing import Any

from engine.scoring.score import Scorer
from ruledsl.record import record

HANS = (1, 2, 3, 4)
FUS = (20, 25, *range(30, 120, 10))
# (dealer, tsumo) in the order the tables are printed
WINS = ((False, False), (False, True), (True, False), (True, True))


@record
class Paid:
    """What one win pays: each payer's amount (``ron``, ``dealer``, ``non_dealer``) and the limit it reached."""

    payments: tuple[tuple[str, int], ...]
    limit: str | None

    def words(self, *, dealer: bool, tsumo: bool) -> str:
        """As players write it: ``3,900`` for a ron, ``1,000/2,000`` (non-dealers/dealer) or ``2,000 all``."""
        paid = dict(self.payments)
        if not tsumo:
            return f"{paid.get('ron', 0):,}"
        if dealer:
            return f"{paid.get('non_dealer', 0):,} all"
        return f"{paid.get('non_dealer', 0):,}/{paid.get('dealer', 0):,}"


@record
class Tier:
    """A limit tier: its name, base points and what each kind of win pays at it."""

    name: str
    base: int
    paid: tuple[tuple[tuple[bool, bool], Paid], ...]  # ((dealer, tsumo), paid)

    def at(self, dealer: bool, tsumo: bool) -> Paid:
        return dict(self.paid)[(dealer, tsumo)]


def _paid(answer: dict[str, Any]) -> Paid:
    return Paid(tuple(sorted(answer["payments"].items())), answer.get("limit"))


def grid(scorer: Scorer) -> dict[tuple[bool, bool, int, int], Paid]:
    """Every cell: ``(dealer, tsumo, han, fu)`` -> what the scorer pays."""
    return {
        (dealer, tsumo, han, fu): _paid(scorer.settle(han, fu, dealer=dealer, tsumo=tsumo))
        for dealer, tsumo in WINS
        for fu in FUS
        for han in HANS
    }


def _pay_base(scorer: Scorer, base: int, *, dealer: bool, tsumo: bool) -> Paid:
    """A win of these base points through the payment rules (the way ``Scorer.pay_tier`` pays a tsumo)."""
    env = {"dealer": dealer, "tsumo": tsumo, "ron": not tsumo, "honba": 0, "riichi_sticks": 0, "base": base, "closed": True}
    payments, _ = scorer.payment_rules.payments(env)
    return Paid(tuple(sorted(payments.items())), None)


def tiers(scorer: Scorer, multiples: int = 1) -> list[Tier]:
    """The rulebook's limit tiers, smallest first (one row per tier name, however many items reach it), then a
    row per yakuman multiple up to ``multiples`` (double yakuman and beyond, when a yakuman of the rulebook is
    worth that much)."""
    bases: dict[str, int] = {}
    for rule in scorer.prepared.limit_rules:
        tier_field = rule.fields.get("tier")
        name = tier_field({}) if tier_field is not None else rule.name
        if name not in bases:
            bases[name] = rule.fields["base"]({"yakuman": 1, "han": 0, "fu": 0, "basic_points": 0})
    rows = [
        Tier(name, base, tuple(((d, t), _pay_base(scorer, base, dealer=d, tsumo=t)) for d, t in WINS))
        for name, base in sorted(bases.items(), key=lambda kv: kv[1])
    ]
    for multiple in range(2, multiples + 1):
        answers = {(d, t): _paid(scorer.settle(0, 0, dealer=d, tsumo=t, yakuman=multiple)) for d, t in WINS}
        base = scorer.settle(0, 0, dealer=False, tsumo=False, yakuman=multiple)["base_points"]
        rows.append(Tier(_multiple_words(multiple), base, tuple(answers.items())))
    return rows


def _multiple_words(multiple: int) -> str:
    return {2: "double yakuman", 3: "triple yakuman"}.get(multiple, f"{multiple}× yakuman")


__all__ = ["FUS", "HANS", "WINS", "Paid", "Tier", "grid", "tiers"]
