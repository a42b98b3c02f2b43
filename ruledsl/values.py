"""The values a rule talks about: tiles (kind ints), groups, suits and wait names.

Shared by the vocabulary's functions and by the engine that builds the facts, so both agree on one shape.
"""

from __future__ import annotations

from ruledsl.record import record

SEQUENCE = "sequence"
TRIPLET = "triplet"
KAN = "kan"
PAIR = "pair"


@record
class Group:
    """One group of a hand reading: a sequence, triplet, kan or pair, as tile kinds.

    ``called`` means it came from a chi, pon or open kan. ``concealed`` means no tile of it came from
    another player: a triplet completed by ron is not concealed, a closed kan is.
    """

    shape: str
    kind: int
    tiles: tuple[int, ...]
    called: bool = False
    concealed: bool = True
