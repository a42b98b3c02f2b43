"""Whether a resting hand is tenpai under the rulebook's karaten rule (`settings tenpai karaten`).

A hand can be one tile from a win and yet wait only on tiles the player holds all four of. Rulebooks disagree on
whether that is tenpai: Tenhou counts only the concealed hand's copies ("concealed"), the site rules also the
player's own melds ("concealed_or_melds"), others any formal tenpai ("never"). The round asks this wherever tenpai
matters: at the exhaustive draw (payments, renchan, tenpai-yame) and of each riichi discard.

``waits`` are the kinds completing the concealed tiles within the tile set, a kind whose four copies are all
concealed never among them (``engine.core.analysis`` counts shanten exactly), so "concealed" is just "has a wait".
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.tiles import KIND_OF
from engine.round.state import MeldRecord, formally_tenpai


def is_tenpai(karaten: str, counts: Sequence[int], melds: Sequence[MeldRecord], waits: frozenset[int]) -> bool:
    """Tenpai of a resting hand (its concealed kind ``counts``, its ``melds`` and its ``waits``) under ``karaten``."""
    if karaten == "concealed" or (karaten == "concealed_or_melds" and not melds):
        return bool(waits)
    if karaten == "concealed_or_melds":
        in_melds = [KIND_OF[c] for m in melds for c in m.tiles]
        return any(counts[k] + in_melds.count(k) < 4 for k in waits)
    return bool(waits) or formally_tenpai(list(counts), len(melds))
