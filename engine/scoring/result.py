"""A win's value as the engine passes it around: ``ScoreResult`` and its ``Payments``, typed records.

The contract's answer to a score request is a JSON object; inside the engine a round, a liability split and a
game need more than it says: the part of each payment that is honba (pao moves it to the liable player or leaves
it with the discarder), and the honba and riichi sticks the hand was scored with (several winners share them).
The scorer makes these records once (``Scorer.score_result``); the JSON object is written from them only where it
leaves the engine (a settlement's ``wins``, ``riichi score --json``, the web API).
"""

from __future__ import annotations

from collections.abc import Mapping

from ruledsl.record import record
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


@record
class Payments:
    """What each payer of one win pays, keyed as the contract's ``payments`` (``ron``, ``dealer``,
    ``non_dealer``): ``value`` is the win's worth, ``honba`` the counters' bonus on top (empty at honba 0)."""

    value: Mapping[str, int]
    honba: Mapping[str, int]

    def total(self, payer: str) -> int:
        """What ``payer`` pays in all (0 for a payer this win has none of)."""
        return self.value.get(payer, 0) + self.honba.get(payer, 0)

    def honba_of(self, payer: str) -> int:
        """The honba part of what ``payer`` pays."""
        return self.honba.get(payer, 0)


@record
class ScoreResult:
    """One scored win: the contract's answer (``answer``, as ``Scorer.score`` gives it), its payments split into
    value and honba, the honba and riichi sticks it was scored with, and the ura indicators a round revealed for a
    riichi winner (mpsz, or None where there are none to show)."""

    answer: Mapping[str, Any]
    payments: Payments
    honba: int
    sticks: int
    ura_indicators: str | None = None

    def yakuman_multipliers(self) -> dict[str, int]:
        """Each yakuman the win scores, by id, with its multiplier (liability reads which are covered)."""
        return {line["id"]: line["yakuman"] for line in self.answer.get("yaku", ()) if "yakuman" in line}

    def as_json(self) -> dict[str, Any]:
        """The contract's JSON object of this win (with ``ura_indicators`` when a round revealed them)."""
        out = dict(self.answer)
        if self.ura_indicators is not None:
            out["ura_indicators"] = self.ura_indicators
        return out
