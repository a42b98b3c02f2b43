"""How a hand was won and what lies on the table: everything about a win except its tiles.

A plain frozen record (``ruledsl.record``), the engine's inside form of a request's flags; it checks its own field types when built,
because Python code (``Scorer.score_hand``) may build one directly. Kept apart from the pydantic models of
``engine.scoring.request`` so that scoring never needs to import pydantic for a request that needs no validation.
"""

from __future__ import annotations

import operator

from engine.core.errors import InvalidRequest
from ruledsl.record import fields, filling, record
from ruledsl.typing_names import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from typing import Any

    from engine.core.hand import Hand


@record
class Situation:
    """Everything about a win except the tiles: how it was won and what lies on the table."""

    tsumo: bool = False
    seat_wind: str = "E"
    round_wind: str = "E"
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    open_riichi: bool = False  # the winner's riichi was declared with the hand shown (`settings riichi open_riichi`)
    discarder_in_riichi: bool = False  # a ron: the player who gave the winning tile was in riichi (established)
    kita: int = 0
    honba: int = 0
    riichi_sticks: int = 0
    dealer_consecutive_wins: int = 0  # wins in a row of the current dealer before this hand (a game-level count)

    def __post_init__(self) -> None:
        # a Situation may come from Python code (``Scorer.score_hand``), so it checks itself once, when built: the
        # types all at once (C-level), and field by field only to name the first that is wrong
        if tuple(map(type, _FIELD_VALUES(self))) != _FIELD_TYPES:
            for name, expected in _SITUATION_TYPES.items():
                value = getattr(self, name)
                if type(value) is not expected:
                    raise InvalidRequest(f"`{name}`: expected {expected.__name__}, got {type(value).__name__}")
        if self.seat_wind not in WINDS or self.round_wind not in WINDS:
            raise InvalidRequest("`seat_wind` and `round_wind` must each be one of E, S, W, N")
        if self.kita < 0 or self.honba < 0 or self.riichi_sticks < 0 or self.dealer_consecutive_wins < 0:
            raise InvalidRequest("`kita`, `honba`, `riichi_sticks` and `dealer_consecutive_wins` must not be negative")

    @property
    def dealer(self) -> bool:
        return self.seat_wind == "E"


WINDS = ("E", "S", "W", "N")
# What the rule language says of each field, in its fact of the same name: the meaning and an example condition
# (the language reference shows both), and "table" for the counters that lie on the table ("hand" for the rest).
# ``python -m ruledsl.regenerate`` reads this table and the fields above (as text: the rule language never imports
# the engine) into ``ruledsl/situation_words.py``, whence come the vocabulary's facts and the example notation's flag
# words. A literal, so that it can be read without running this module.
FACT_WORDS: dict[str, tuple[str, str, str]] = {
    "tsumo": ("the winning tile was self-drawn", "closed and tsumo", "hand"),
    "seat_wind": ("the winner's seat wind", "has_triplet(seat_wind)", "hand"),
    "round_wind": ("the round wind", "has_triplet(round_wind)", "hand"),
    "riichi": ("the winner had declared riichi (double riichi included)", "riichi", "hand"),
    "double_riichi": ("riichi was declared on the first discard, uninterrupted", "double_riichi", "hand"),
    "ippatsu": ("won within the uninterrupted go-around after riichi", "ippatsu", "hand"),
    "haitei": ("self-drawn on the last tile of the live wall", "haitei", "hand"),
    "houtei": ("won on the last discard of the hand", "houtei", "hand"),
    "rinshan": ("self-drawn on the replacement tile after one's own kan", "rinshan", "hand"),
    "chankan": ("won on a tile robbed from another player's kan", "chankan", "hand"),
    "tenhou": ("the dealer's initial hand was complete", "tenhou", "hand"),
    "chiihou": ("a non-dealer won on the first draw, uninterrupted", "chiihou", "hand"),
    "renhou": ("a non-dealer won by ron before the first draw, uninterrupted", "renhou", "hand"),
    "open_riichi": (
        "the winner's riichi was declared open, the hand shown (`settings riichi open_riichi`)",
        "open_riichi",
        "hand",
    ),
    "discarder_in_riichi": (
        "a ron whose discarder was in riichi (established before the winning tile)",
        "ron and not discarder_in_riichi",
        "hand",
    ),
    "kita": ("North tiles set aside (three-player)", "kita", "hand"),
    "honba": ("honba counters on the table", "300 * honba", "table"),
    "riichi_sticks": ("riichi sticks on the table", "riichi_sticks", "table"),
    "dealer_consecutive_wins": (
        "wins in a row of the current dealer before this hand, as the game counts them (`settings game dealer_win_streak_breaks`)",
        "dealer_consecutive_wins >= 7",
        "hand",
    ),
}
# The largest value a request may give each counter (the contract's JSON Schema says it; ``engine.scoring.request``).
COUNTER_LIMITS: dict[str, int] = {"kita": 4, "honba": 1000, "riichi_sticks": 1000, "dealer_consecutive_wins": 1000}
# What players call each counter: the CLI's breakdown says "honba 2", the web form labels its inputs and the
# comparison page its scenarios with these words.
COUNTER_LABELS: dict[str, str] = {
    "kita": "kita",
    "honba": "honba",
    "riichi_sticks": "riichi sticks",
    "dealer_consecutive_wins": "dealer's wins in a row",
}
# The command line's option for each counter (``riichi score``) and its help line; the option's attribute is its
# name without the dashes, a dash read as ``_`` (``counter_dest``).
COUNTER_OPTIONS: dict[str, tuple[str, str]] = {
    "kita": ("--kita", "north tiles set aside (three-player)"),
    "honba": ("--honba", "honba counters on the table"),
    "riichi_sticks": ("--sticks", "riichi sticks on the table"),
    "dealer_consecutive_wins": ("--dealer-wins", "wins in a row of the current dealer before this hand (paarenchan)"),
}


def counter_dest(name: str) -> str:
    """The attribute the command line's option of the counter ``name`` sets, as argparse names it."""
    return COUNTER_OPTIONS[name][0][2:].replace("-", "_")


# The one list of situation fields: the request, the plain reader, the CLI and the checks all derive theirs from
# these, grouped by the type of each field's default (a flag is a bool, a wind a str, a counter an int).
SITUATION_FIELDS = tuple(f.name for f in fields(Situation))  # the request fields of the same names
_SITUATION_TYPES: dict[str, type] = {name: type(f.default) for f in fields(Situation) for name in (f.name,)}
FLAG_FIELDS = tuple(name for name in SITUATION_FIELDS if _SITUATION_TYPES[name] is bool)  # tsumo, riichi, ...
WIND_FIELDS = tuple(name for name in SITUATION_FIELDS if _SITUATION_TYPES[name] is str)  # seat and round wind
COUNTER_FIELDS = tuple(name for name in SITUATION_FIELDS if _SITUATION_TYPES[name] is int)  # kita, honba, sticks
SITUATION_DEFAULTS: dict[str, object] = {name: f.default for f in fields(Situation) for name in (f.name,)}
_FIELD_VALUES = operator.attrgetter(*SITUATION_FIELDS)  # a situation's (or a request's) values of those fields
_FIELD_TYPES = tuple(_SITUATION_TYPES.values())
# the flags a player sets beside the way of winning: the example notation's words, the CLI's and the web page's
# switches, the witness search's flags (every flag but ``tsumo``, which is the way of winning itself)
EXTRA_FLAGS = tuple(name for name in FLAG_FIELDS if name != "tsumo")


_FILLING = filling(Situation)  # a situation being filled in by ``checked_situation`` (``ruledsl.record.filling``)


def checked_situation(values: tuple[Any, ...]) -> Situation:
    """The ``Situation`` of every field's value in the fields' order, each already of its field's type and range
    (a plain request's shape checked them, ``engine.scoring.plain_request``): the object ``Situation(*values)``
    makes, without binding arguments or checking them again (``Situation`` itself checks what Python code gives
    it). Its slots are set by plain assignments on a twin of ``Situation`` that then becomes one: a fifth of
    what setting each through its slot's setter cost (a call of a method wrapper per field), and a new situation
    is built for most requests of a first pass. ``tests/engine/test_situation_fields.py`` holds the two equal."""
    if _FILLING is None:
        return Situation(*values)
    made: Any = _FILLING()
    # the fields in ``SITUATION_FIELDS``' order: one more or one fewer fails here, loudly
    (
        made.tsumo, made.seat_wind, made.round_wind, made.riichi, made.double_riichi, made.ippatsu,
        made.haitei, made.houtei, made.rinshan, made.chankan, made.tenhou, made.chiihou,
        made.renhou, made.open_riichi, made.discarder_in_riichi, made.kita, made.honba,
        made.riichi_sticks, made.dealer_consecutive_wins,
    ) = values  # fmt: skip
    made.__class__ = Situation
    return cast(Situation, made)


def situation_of(request: Any) -> Situation:
    """The situation of a request (a ``ScoreRequest`` or a ``PlainRequest``): its fields of the same names, with
    a double riichi counted as a riichi."""
    values = dict(zip(SITUATION_FIELDS, _FIELD_VALUES(request), strict=True))
    values["riichi"] = request.riichi or request.double_riichi
    return Situation(**values)


def situation_problems(hand: Hand, s: Situation) -> list[str]:
    """Mechanical impossibilities in a request (no rule choice involved)."""
    problems = []
    if s.riichi and not hand.is_closed:
        problems.append("riichi needs a closed hand (only closed kans allowed)")
    if s.ippatsu and not s.riichi:
        problems.append("ippatsu needs riichi")
    if s.haitei and not s.tsumo:
        problems.append("haitei is a tsumo on the last tile; this is a ron")
    if s.houtei and s.tsumo:
        problems.append("houtei is a ron on the last discard; this is a tsumo")
    if s.rinshan and not s.tsumo:
        problems.append("rinshan is a tsumo on a kan replacement tile; this is a ron")
    if s.rinshan and not s.kita and not any(m.is_kan for m in hand.melds):
        problems.append("rinshan needs a kan among the melds (or a North set aside)")
    if s.rinshan and s.haitei:
        problems.append("a kan replacement tile is never the last tile of the wall")
    if s.chankan and s.tsumo:
        problems.append("chankan is a ron on a robbed kan; this is a tsumo")
    if s.open_riichi and not s.riichi:
        problems.append("open_riichi is a way of declaring riichi; set riichi too")
    if s.discarder_in_riichi and s.tsumo:
        problems.append("discarder_in_riichi is about the player who gave a ron's winning tile; this is a tsumo")
    if s.chankan and (s.haitei or s.houtei or s.rinshan):
        problems.append("chankan cannot combine with haitei, houtei or rinshan")
    for flag, dealer_needed, tsumo_needed in (("tenhou", True, True), ("chiihou", False, True), ("renhou", False, False)):
        if getattr(s, flag):
            if hand.melds:
                problems.append(f"{flag} is a win with no call made")
            if s.dealer != dealer_needed:
                problems.append(f"{flag} is a {'dealer' if dealer_needed else 'non-dealer'} win")
            if s.tsumo != tsumo_needed:
                problems.append(f"{flag} is won by {'tsumo' if tsumo_needed else 'ron'}")
            if s.riichi:
                problems.append(f"{flag} comes before any riichi could be declared")
    return problems
