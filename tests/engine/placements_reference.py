"""The plain placement of a winning tile in a standard reading, which the scorer's placement by group numbers
(``engine.scoring.facts._placed``) is held to: each group the tile can have completed, found by comparing the
reading's (shape, kind) groups with the groups that can hold the kind (``decompose.HOLDERS``)."""

from __future__ import annotations

from engine.core.decompose import HOLDERS, Groups


def placements_of(reading: Groups, win_kind: int) -> tuple[tuple[int, str], ...]:
    """Each group the winning tile can have completed, as ``(group index, wait)``. Identical groups give the same
    interpretation, so only the first of them is listed (readings are sorted, which puts them side by side)."""
    return tuple([(reading.index(group), wait) for group, wait in HOLDERS[win_kind] if group in reading])
