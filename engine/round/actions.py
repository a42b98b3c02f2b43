"""One vocabulary of moves for every seat: mjai's action names, tiles as ``engine.tiles`` codes.

The same ``Action`` is what ``Round.legal_actions`` offers, what ``Round.apply`` takes and what a log replay or an
agent builds, so legality is a plain membership test.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import tiles as T
from ruledsl.record import record

OWN_TURN = frozenset({"dahai", "reach", "ankan", "kakan", "nukidora", "hora", "ryukyoku"})
RESPONSES = frozenset({"hora", "pon", "daiminkan", "chi", "none"})
DECLARATIONS = frozenset({"tenpai", "noten"})  # at an exhaustive draw, where `game voluntary_noten` allows it
TYPES = OWN_TURN | RESPONSES | DECLARATIONS


@record
class Action:
    """A move: ``type`` (mjai name), the acting seat, the tile it concerns, the tiles taken from the hand for a
    call, the seat called from or ronned (``target``), for a discard whether it was the drawn tile, and for a
    ``reach`` whether it is an open riichi (mjai has none: written as ``reach`` with ``"open": true``)."""

    type: str
    actor: int
    pai: int | None = None
    consumed: tuple[int, ...] = ()
    target: int | None = None
    tsumogiri: bool = False
    open: bool = False  # reach only: declared open, the hand shown (`settings riichi open_riichi`)

    def to_json(self) -> dict:
        """The action as an mjai-style dict, tiles in mpsz."""
        out: dict = {"type": self.type, "actor": self.actor}
        if self.pai is not None:
            out["pai"] = T.format_tiles([self.pai])
        if self.consumed:
            out["consumed"] = [T.format_tiles([c]) for c in self.consumed]
        if self.target is not None:
            out["target"] = self.target
        if self.type == "dahai":
            out["tsumogiri"] = self.tsumogiri
        if self.open:
            out["open"] = True
        return out

    def __str__(self) -> str:
        parts = [self.type, f"seat {self.actor}"]
        if self.pai is not None:
            parts.append(T.format_tiles([self.pai]))
        if self.consumed:
            parts.append("with " + T.format_tiles(self.consumed))
        if self.target is not None and self.target != self.actor:
            parts.append(f"from seat {self.target}")
        if self.open:
            parts.append("open")
        return " ".join(parts)


def sorted_tiles(codes: Iterable[int]) -> tuple[int, ...]:
    """Tiles in the order ``consumed`` uses: by kind, a red five before its plain copies."""
    return tuple(sorted(codes, key=lambda c: (T.kind_of(c), 0 if c >= T.RED_BASE else 1)))
