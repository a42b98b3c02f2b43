"""Riichi: the declaration (its discard follows) and the moment it stands, when that discard passed unclaimed.

Which riichi is legal is ``engine.round.legal``'s (``riichi_bar``, ``_riichi_ok_after``); this is what it does to
the round: the flag for the coming discard, then the stick, the ippatsu window and the ``reach_accepted`` event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.round.actions import Action
from engine.round.events import Reach, ReachAccepted
from engine.round.facts import MOVED_BY_RIICHI

if TYPE_CHECKING:
    from engine.round.state import RoundState


def own_reach(r: RoundState, a: Action) -> None:
    """Riichi declared: its discard comes next; the stick is paid once that discard passes
    (``establish_riichi``)."""
    r.reach_pending = True
    r.reach_open = a.open
    r.log.append(Reach(a.actor, a.open))


def establish_riichi(r: RoundState, seat: int) -> None:
    """The riichi discard passed unclaimed: the riichi stands, the stick is paid and ippatsu begins."""
    s = r.seats[seat]
    if s.riichi_declared and not s.riichi:
        s.riichi = True
        s.ippatsu = True
        deposit = r.rules.riichi_deposit
        r.scores[seat] -= deposit
        r.deposits[seat] += deposit
        r.sticks += 1
        r.steady_changes += 1
        r.moved |= MOVED_BY_RIICHI
        deltas = [0] * r.rules.players
        deltas[seat] = -deposit
        r.log.append(ReachAccepted(seat, tuple(deltas), tuple(r.scores)))
