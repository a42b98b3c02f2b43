"""The words of a round's events: tiles as mjai writes them (mpsz), one name per tile code, and a hand in compact
mpsz for ``start_kyoku``. Every module that records an event (turns, calls, kans, riichi, endings) names its
tiles here, so the log a round writes reads the same whichever module wrote a line.
"""

from __future__ import annotations

from engine import tiles as T
from engine.tiles import KIND_OF

NAME = tuple(T.format_tiles([code]) for code in range(len(KIND_OF)))  # mpsz of each tile code, for events

# ``T.format_tiles`` of a hand, table-driven: every round writes its four dealt hands in its first event, and the
# generic formatter's per-tile calls were a tenth of a round's setup. Same order (kind, a red five first), same text.
_SORT_RANK = tuple(2 * KIND_OF[code] + (0 if code >= T.RED_BASE else 1) for code in range(len(KIND_OF)))
_DIGIT = tuple(name[0] for name in NAME)
_SUIT = tuple(name[1] for name in NAME)


def format_hand(codes: list[int] | tuple[int, ...]) -> str:
    """The hand in compact mpsz, exactly as ``engine.tiles.format_tiles(codes)`` writes it."""
    out: list[str] = []
    run = ""
    for code in sorted(codes, key=_SORT_RANK.__getitem__):
        suit = _SUIT[code]
        if suit != run and run:
            out.append(run)
        out.append(_DIGIT[code])
        run = suit
    if run:
        out.append(run)
    return "".join(out)
