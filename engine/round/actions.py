"""One vocabulary of moves for every seat: mjai's action names, tiles as ``engine.core.tiles`` codes.

The same ``Action`` is what ``Round.legal_actions`` offers, what ``Round.apply`` takes and what a log replay or an
agent builds, so legality is a plain membership test.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from engine.core import tiles as T
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


class Discard(Protocol):
    """A discard as the own-turn discard reads it (``legal.own_discard_ok``, ``turns.own_dahai``): the seat, the tile
    and whether it is the tile just drawn. A discard ``Action`` is one, and so is a log's discard event
    (``engine.round.events.Dahai``), which a replay plays as it stands, without looking up the action it equals."""

    @property
    def actor(self) -> int: ...

    @property
    def pai(self) -> int | None: ...

    @property
    def tsumogiri(self) -> bool: ...


def sorted_tiles(codes: Iterable[int]) -> tuple[int, ...]:
    """Tiles in the order ``consumed`` uses: by kind, a red five before its plain copies."""
    return tuple(sorted(codes, key=lambda c: (T.kind_of(c), 0 if c >= T.RED_BASE else 1)))


TILE_CODES = T.RED_BASE + len(T.RED_FIVE_KINDS)  # every tile code: the 34 kinds, then the red fives
# ``sorted_tiles``' key of each tile code, looked up: a meld or a call's tiles are sorted at every chi and pon
# offered and made, and a key function called per tile was most of that
TILE_ORDER = tuple((T.KIND_OF[c], 0 if c >= T.RED_BASE else 1) for c in range(TILE_CODES))


def held_sorted(codes: Iterable[int]) -> tuple[int, ...]:
    """``sorted_tiles`` of tiles a seat holds or called (valid codes by construction), by the looked-up key."""
    return tuple(sorted(codes, key=TILE_ORDER.__getitem__))
MAX_CONSUMED = 4  # an ankan takes the most tiles from a hand


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tile_problem(value: object, what: str) -> str | None:
    if not _is_int(value):
        return f"{what} must be a tile code (an int from 0 to {TILE_CODES - 1}), not {_shown(value)}"
    if not 0 <= value < TILE_CODES:  # type: ignore[operator]
        return f"{what} {_shown(value)} is no tile code (0 to {TILE_CODES - 1})"
    return None


def _shown(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int past the digits Python will print
        return "a huge number"
    return text if len(text) <= 40 else text[:37] + "..."


def seat_problem(seat: object, players: int, what: str = "seat") -> str | None:
    """Why ``seat`` is not a seat of a table of ``players``, or None."""
    if not _is_int(seat) or not 0 <= seat < players:  # type: ignore[operator]
        return f"{what} must be a seat number from 0 to {players - 1}, not {_shown(seat)}"
    return None


def shape_problem(action: Action, players: int) -> str | None:
    """Why ``action`` cannot be a move at all (a type, seat or tile code out of range, a field of the wrong type),
    or None. ``Round.apply`` asks this before any rule is consulted, so that a hand-built action with a bad code is
    an ``IllegalAction`` naming the field, never an ``IndexError`` deep in the engine."""
    if _plain_shape(action, players):  # nearly every move: fields of the exact types, in range
        return None
    return shape_problem_checked(action, players)


def shape_problem_checked(action: Action, players: int) -> str | None:
    """``shape_problem`` field by field, in the order its message names them: the reference of its quick yes."""
    if not isinstance(action.type, str) or action.type not in TYPES:
        return f"type must be one of {', '.join(sorted(TYPES))}, not {_shown(action.type)}"
    problem = seat_problem(action.actor, players, "actor")
    if problem is None and action.pai is not None:
        problem = _tile_problem(action.pai, "pai")
    if problem is None and action.target is not None:
        problem = seat_problem(action.target, players, "target")
    if problem is None:
        problem = _consumed_problem(action.consumed)
    if problem is None and not (isinstance(action.tsumogiri, bool) and isinstance(action.open, bool)):
        problem = "tsumogiri and open must be true or false"
    return problem


def _plain_shape(action: Action, players: int) -> bool:
    """No ``shape_problem``, told by exact types and ranges: every field a plain ``str``, ``int``, ``tuple`` of
    ``int`` or ``bool`` as declared (never a subclass, whose checks take the long way), every code in range. A
    logged call or riichi is asked this at every move; ``tests/round/test_actions_validation.py`` holds it to the full check."""
    pai, target, consumed = action.pai, action.target, action.consumed
    return (
        type(action.type) is str
        and action.type in TYPES
        and type(action.actor) is int
        and 0 <= action.actor < players
        and (pai is None or type(pai) is int and 0 <= pai < TILE_CODES)
        and (target is None or type(target) is int and 0 <= target < players)
        and type(consumed) is tuple
        and len(consumed) <= MAX_CONSUMED
        and all([type(c) is int and 0 <= c < TILE_CODES for c in consumed])
        and type(action.tsumogiri) is bool
        and type(action.open) is bool
    )


def _consumed_problem(consumed: object) -> str | None:
    if not isinstance(consumed, (tuple, list)):
        return f"consumed must be a tuple of tile codes, not {_shown(consumed)}"
    if len(consumed) > MAX_CONSUMED:
        return f"consumed holds at most {MAX_CONSUMED} tiles, not {len(consumed)}"
    for tile in consumed:
        problem = _tile_problem(tile, "consumed tile")
        if problem is not None:
            return problem
    return None
