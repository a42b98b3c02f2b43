"""How one win is paid: the payers' shares of a ron or a tsumo, split by a liability (pao) item when one applies.

The one settlement of pao, for a round's win (``engine.round.settle``) and for a single scored hand with
``liable`` (``engine.scoring.liability``): every amount comes from the scorer's answer (its ``payments``) and the
rulebook's ``liability`` items. It reads a round's melds only through ``Called`` (the round's ``MeldRecord`` is
one), so that scoring never imports the round engine, which imports the scorer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from engine.scoring.facts import meld_group
from ruledsl.record import record
from ruledsl.values import KAN, SEQUENCE, TRIPLET

if TYPE_CHECKING:
    from engine.scoring.result import ScoreResult
    from ruledsl.compile import Rule


class Called(Protocol):
    """A called (or declared) meld as pao reads it: its type, its tiles and the seat that fed it (None: own)."""

    @property
    def type(self) -> str: ...

    @property
    def tiles(self) -> tuple[int, ...]: ...

    @property
    def source(self) -> int | None: ...


@record
class WinClaim:
    """One winner: the seat, the seat it won from (itself for tsumo), the tile and the scorer's answer."""

    seat: int
    source: int
    tile: int
    result: ScoreResult
    chankan: bool = False


def field(item: Rule, name: str, env: dict[str, Any], default: Any = None) -> Any:
    f = item.fields.get(name)
    return f(env) if f is not None else default




@record
class Table:
    """What a win's payment needs of the table: its size and the dealer's seat."""

    players: int
    dealer: int


@record
class Liable:
    """The liability that applies to one win: the item, the liable seat, the facts its fields read, and the part
    of the win it covers (1.0, or the completed yakuman's share with ``covers = "completed"``)."""

    item: Rule
    payer: int
    env: dict[str, Any]
    part: float


def pay_win(table: Table, claim: WinClaim, liable: Liable | None) -> tuple[list[int], list[str]]:
    """Point changes of one win under a liability (or none), and its clause: the one settlement of pao, for a
    round's win and for a single scored hand (``engine.scoring.liability``)."""
    deltas = [0] * table.players
    payments = claim.result.payments
    winner = claim.seat
    if claim.source != winner:
        if liable is None:
            deltas[claim.source] -= payments.total("ron")
            return _rebalance(deltas, winner), []
        item, payer, env, part = liable.item, liable.payer, liable.env, liable.part
        base, honba_part = payments.value["ron"], payments.honba_of("ron")
        covered = base * part
        pay_l = int(covered * field(item, "ron_liable", env, 0) // 100)
        pay_d = int(covered * field(item, "ron_discarder", env, 0) // 100) + base - int(covered)
        liable_honba = field(item, "honba_payer", env, "discarder") == "liable"
        deltas[payer] -= pay_l + (honba_part if liable_honba else 0)
        deltas[claim.source] -= pay_d + (0 if liable_honba else honba_part)
        return _rebalance(deltas, winner), [item.clause or item.name]
    key_of = {seat: "dealer" if seat == table.dealer else "non_dealer" for seat in range(table.players) if seat != winner}
    if liable is None:
        for seat, key in key_of.items():
            deltas[seat] -= payments.total(key)
        return _rebalance(deltas, winner), []
    item, payer, env, part = liable.item, liable.payer, liable.env, liable.part
    honba_of = {seat: payments.honba_of(key) for seat, key in key_of.items()}
    base_of = {seat: payments.value.get(key, 0) for seat, key in key_of.items()}
    whole = sum(base_of.values())
    covered = whole * part * field(item, "tsumo_liable", env, 0) / 100
    rest = 1 - covered / whole if whole else 1
    liable_honba = field(item, "honba_payer", env, "liable") == "liable"
    for seat in key_of:
        deltas[seat] -= int(base_of[seat] * rest) + (0 if liable_honba else honba_of[seat])
    deltas[payer] -= int(covered) + (sum(honba_of.values()) if liable_honba else 0)
    return _rebalance(deltas, winner), [item.clause or item.name]


def _rebalance(deltas: list[int], winner: int) -> list[int]:
    """The winner gains exactly what the others pay (percentage splits may round a point away)."""
    deltas[winner] = 0  # the others' sum by one C-level ``sum``, the winner's own entry counted as nothing
    deltas[winner] = -sum(deltas)
    return deltas


def find_liability(
    liabilities: Sequence[Rule], yakuman: Sequence[Rule], claim: WinClaim, melds: Sequence[Called], facts: Callable[[str], dict[str, Any]]
) -> Liable | None:
    """The liability item that applies to this win, the liable seat and the item's environment, if any.

    A call is liable for a yakuman when that yakuman's condition holds on the winner's melds alone after the
    call and did not before it (the last dragon or wind set, the fourth kan): the rulebook's own condition decides.
    ``melds`` are in the order they were made, each with the seat it was called from; ``facts(call)`` gives the
    facts the item's fields read, with ``completing_call`` set.
    """
    multipliers = claim.result.yakuman_multipliers()
    scored = set(multipliers)
    if not scored:
        return None
    by_name = {rule.name: rule for rule in yakuman}
    for item in liabilities:
        for name in item.fields.get("affects", ()):
            if name not in scored or name not in by_name:
                continue
            found = _completing_call(melds, by_name[name])
            if found is None:
                continue
            call, payer = found
            if payer == claim.seat:
                continue
            env = facts(call)
            if item.when(env):
                if claim.source != claim.seat and payer == claim.source:
                    continue  # the liable player dealt in himself: he pays the whole ron as discarder
                part = 1.0
                if field(item, "covers", env, "whole") == "completed":
                    part = multipliers[name] / (sum(multipliers.values()) or 1)
                return Liable(item, payer, env, part)
    return None


def _completing_call(made: Sequence[Called], yakuman: Rule) -> tuple[str, int] | None:
    """The call after which the yakuman holds on the melds alone (and not before), and the seat that fed it."""
    for count in range(1, len(made) + 1):
        melds = list(made[:count])
        before = _holds_on_melds(yakuman, melds[:-1])
        after = _holds_on_melds(yakuman, melds)
        if after and not before:
            last = melds[-1]
            if last.source is None:
                return None
            call = last.type
            if last.type == "kakan":
                call = "kakan"
            return call, last.source
    return None


def _holds_on_melds(yakuman: Rule, melds: list[Called]) -> bool:
    """The yakuman's own condition evaluated on a hand of these melds only (a fact it needs that melds cannot
    supply means no)."""
    if not melds:
        return False
    groups = tuple(meld_group(m.type, m.tiles) for m in melds)
    env = {
        "sets": groups,
        "groups": groups,
        "pairs": (),
        "pair": None,
        "__triplet_kinds__": frozenset(g.kind for g in groups if g.shape in (TRIPLET, KAN)),
        "__sequence_starts__": frozenset(g.kind for g in groups if g.shape == SEQUENCE),
        "tiles": tuple(k for g in groups for k in g.tiles),
        "closed": False,
    }
    try:
        return bool(yakuman.when(env))
    except (KeyError, TypeError, AttributeError):
        return False
