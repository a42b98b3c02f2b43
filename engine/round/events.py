"""The words of a round's events: tiles as mjai writes them (mpsz), one name per tile code, and a hand in compact
mpsz for ``start_kyoku``. Every module that records an event (turns, calls, kans, riichi, endings) names its
tiles here, so the log a round writes reads the same whichever module wrote a line.
"""

from __future__ import annotations

from typing import Any

from engine.core import tiles as T
from engine.core.tiles import KIND_OF
from ruledsl.record import filling, record
from ruledsl.tiles import SORT_RANK

NAME = tuple(T.format_tiles([code]) for code in range(len(KIND_OF)))  # mpsz of each tile code, for events


def dealt_order(codes: list[int] | tuple[int, ...]) -> list[int]:
    """A hand in the order a dealt hand is shown (by kind, a red five before its plain copies): the order of
    ``format_tiles``' text, which the mjai writer lists tile by tile."""
    return sorted(codes, key=SORT_RANK.__getitem__)


# ---- the round's events, typed ----------------------------------------------------------------------------------
# A round records what happened as these frozen records (``Round.log``), tiles as codes, and everything inside the
# engine reads them so. They become JSON only at the edges: ``engine.protocol.mjai.round_to_mjai`` writes mjai
# (mjai's tile names) straight from them, and ``Round.events`` writes them as mjai-style dicts (``write``: tiles
# named in mpsz, mjai's field names) for an embedder who asks, only when somebody reads them.
# The records a round makes on every move (draws, discards, calls, indicators, riichi) write their ``__init__``
# out: ``record``'s own binds arguments generically for a class's first constructions, which every fresh process
# (a self-play or replay worker) would pay again, and a round makes thousands of them.
_SET = object.__setattr__


@record
class StartKyoku:
    """The deal: round wind, hand number (1 for the first dealer), counters, the first dora indicator, the scores
    before the hand and each seat's thirteen tiles."""

    bakaze: str
    kyoku: int
    honba: int
    kyotaku: int
    oya: int
    dora_marker: int
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]

    def json(self) -> dict[str, Any]:
        return {
            "type": "start_kyoku", "bakaze": self.bakaze, "kyoku": self.kyoku, "honba": self.honba, "kyotaku": self.kyotaku,
            "oya": self.oya, "dora_marker": NAME[self.dora_marker], "scores": list(self.scores), "tehais": [T.format_tiles(h) for h in self.hands],
        }


_START_FILLING = filling(StartKyoku)  # a ``StartKyoku`` being filled in by ``start_kyoku`` (``ruledsl.record.filling``)


def start_kyoku(bakaze: str, kyoku: int, honba: int, kyotaku: int, oya: int, dora_marker: int, scores: tuple[int, ...], hands: tuple[tuple[int, ...], ...]) -> StartKyoku:
    """``StartKyoku(bakaze, kyoku, ...)``, one per hand dealt, its fields set by plain assignments on a
    twin of ``StartKyoku`` that then becomes one: half of what the record's ``__init__`` costs, a
    setter call per field. ``tests/round/test_filled_records.py`` holds the two equal."""
    if _START_FILLING is None:
        return StartKyoku(bakaze, kyoku, honba, kyotaku, oya, dora_marker, scores, hands)
    made: Any = _START_FILLING()
    made.bakaze, made.kyoku, made.honba, made.kyotaku = bakaze, kyoku, honba, kyotaku
    made.oya, made.dora_marker, made.scores, made.hands = oya, dora_marker, scores, hands
    made.__class__ = StartKyoku
    return made


@record
class Tsumo:
    """A draw (live wall or replacement)."""

    actor: int
    pai: int

    def __init__(self, actor: int, pai: int) -> None:
        _SET(self, "actor", actor)
        _SET(self, "pai", pai)

    def json(self) -> dict[str, Any]:
        return {"type": "tsumo", "actor": self.actor, "pai": NAME[self.pai]}


@record
class Dahai:
    """A discard; ``tsumogiri`` when it is the tile just drawn."""

    actor: int
    pai: int
    tsumogiri: bool

    def __init__(self, actor: int, pai: int, tsumogiri: bool) -> None:
        _SET(self, "actor", actor)
        _SET(self, "pai", pai)
        _SET(self, "tsumogiri", tsumogiri)

    def json(self) -> dict[str, Any]:
        return {"type": "dahai", "actor": self.actor, "pai": NAME[self.pai], "tsumogiri": self.tsumogiri}


@record
class Meld:
    """A call of another seat's discard: ``type`` is ``chi``, ``pon`` or ``daiminkan``."""

    type: str
    actor: int
    target: int
    pai: int
    consumed: tuple[int, ...]

    def __init__(self, type: str, actor: int, target: int, pai: int, consumed: tuple[int, ...]) -> None:  # noqa: A002
        _SET(self, "type", type)
        _SET(self, "actor", actor)
        _SET(self, "target", target)
        _SET(self, "pai", pai)
        _SET(self, "consumed", consumed)

    def json(self) -> dict[str, Any]:
        return {"type": self.type, "actor": self.actor, "target": self.target, "pai": NAME[self.pai], "consumed": [NAME[c] for c in self.consumed]}


@record
class Ankan:
    """A closed kan."""

    actor: int
    consumed: tuple[int, ...]

    def json(self) -> dict[str, Any]:
        return {"type": "ankan", "actor": self.actor, "consumed": [NAME[c] for c in self.consumed]}


@record
class Kakan:
    """A tile added to a pon."""

    actor: int
    pai: int
    consumed: tuple[int, ...]

    def json(self) -> dict[str, Any]:
        return {"type": "kakan", "actor": self.actor, "pai": NAME[self.pai], "consumed": [NAME[c] for c in self.consumed]}


@record
class Nukidora:
    """A North set aside (three players)."""

    actor: int
    pai: int

    def json(self) -> dict[str, Any]:
        return {"type": "nukidora", "actor": self.actor, "pai": NAME[self.pai]}


@record
class Reach:
    """A riichi declared (``open``: an open riichi); its discard follows."""

    actor: int
    open: bool = False

    def __init__(self, actor: int, open: bool = False) -> None:  # noqa: A002
        _SET(self, "actor", actor)
        _SET(self, "open", open)

    def json(self) -> dict[str, Any]:
        return {"type": "reach", "actor": self.actor, "open": True} if self.open else {"type": "reach", "actor": self.actor}


@record
class ReachAccepted:
    """The riichi discard passed: the stick paid (``deltas``), the scores after it."""

    actor: int
    deltas: tuple[int, ...]
    scores: tuple[int, ...]

    def __init__(self, actor: int, deltas: tuple[int, ...], scores: tuple[int, ...]) -> None:
        _SET(self, "actor", actor)
        _SET(self, "deltas", deltas)
        _SET(self, "scores", scores)

    def json(self) -> dict[str, Any]:
        return {"type": "reach_accepted", "actor": self.actor, "deltas": list(self.deltas), "scores": list(self.scores)}


@record
class Dora:
    """A dora indicator turned."""

    marker: int

    def __init__(self, marker: int) -> None:
        _SET(self, "marker", marker)

    def json(self) -> dict[str, Any]:
        return {"type": "dora", "dora_marker": NAME[self.marker]}


@record
class Hora:
    """A win off ``target`` (the winner itself for tsumo): its point changes (riichi sticks excluded) and the ura
    indicators shown (mpsz, empty when none)."""

    actor: int
    target: int
    pai: int
    deltas: tuple[int, ...]
    ura_markers: str

    def json(self) -> dict[str, Any]:
        return {"type": "hora", "actor": self.actor, "target": self.target, "pai": NAME[self.pai], "deltas": list(self.deltas), "ura_markers": self.ura_markers}


@record
class Ryukyoku:
    """A draw: ``reason`` is ``exhaustive`` (with each seat's tenpai), the abortive item's id, or ``triple_ron``."""

    reason: str
    deltas: tuple[int, ...]
    tenpais: tuple[bool, ...] | None = None

    def json(self) -> dict[str, Any]:
        if self.tenpais is None:
            return {"type": "ryukyoku", "reason": self.reason, "deltas": list(self.deltas)}
        return {"type": "ryukyoku", "reason": self.reason, "tenpais": list(self.tenpais), "deltas": list(self.deltas)}


@record
class EndKyoku:
    """The hand is over (its settlement is ``Round.settled``)."""

    def json(self) -> dict[str, Any]:
        return {"type": "end_kyoku"}


# Every draw and discard event there can be, made once (seats of the largest table, every tile code): a frozen
# record is a value, so a round appends the shared one, a table lookup, instead of building one per move.
SEATS = 4
TSUMO = tuple(tuple(Tsumo(seat, code) for code in range(len(NAME))) for seat in range(SEATS))
DAHAI = tuple(tuple((Dahai(seat, code, False), Dahai(seat, code, True)) for code in range(len(NAME))) for seat in range(SEATS))
END_KYOKU = EndKyoku()  # the one end of a hand: it has no field


def tsumo_event(seat: int, code: int) -> Tsumo:
    """The draw event of ``seat`` and ``code``: the shared one of ``TSUMO`` (a log reader's draws are then the very
    objects a round appends, so that a replay matches a logged draw with the round's by identity), a new one for a
    seat or code outside the table."""
    if type(seat) is int and type(code) is int and 0 <= seat < SEATS and 0 <= code < len(NAME):
        return TSUMO[seat][code]
    return Tsumo(seat, code)


def dahai_event(seat: int, code: int, tsumogiri: bool) -> Dahai:
    """The discard event of ``seat``, ``code`` and ``tsumogiri``: the shared one of ``DAHAI`` (as ``tsumo_event``),
    a new one outside the table."""
    if type(seat) is int and type(code) is int and type(tsumogiri) is bool and 0 <= seat < SEATS and 0 <= code < len(NAME):
        return DAHAI[seat][code][tsumogiri]
    return Dahai(seat, code, tsumogiri)

RoundEvent = StartKyoku | Tsumo | Dahai | Meld | Ankan | Kakan | Nukidora | Reach | ReachAccepted | Dora | Hora | Ryukyoku | EndKyoku


def write(event: RoundEvent) -> dict[str, Any]:
    """The event as the round's mjai-style dict (``Round.events``): mjai's field names, tiles in mpsz, a dealt hand
    in compact mpsz. Nothing in the engine reads these; mjai itself is ``engine.protocol.mjai.round_to_mjai``."""
    return event.json()
