"""Plain references the round's cached shortcuts are compared with: each counts afresh, with no cache."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.analysis import waits


def waits_of(counts: Sequence[int], n_melds: int, kinds: frozenset[int]) -> frozenset[int]:
    """The kinds completing the 3n+1 hand of these 34 counts (``analysis.waits``, the plain count) within the tile
    set ``kinds``: what ``Seat.waits`` must hold for a tenpai hand (``engine.round.state.WAITS_WITHIN``)."""
    return frozenset(k for k in waits(tuple(counts), n_melds) if k in kinds)
