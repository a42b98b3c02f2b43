"""What happened at the table, in the order it happened, whatever log format it came from.

A game record is a flat list of these events. The mjlog parser (and later the tenhou.net/6 parser) produce them;
the situation tracker and, later, the round engine consume them. Tiles are ``engine.core.tiles`` codes (0..33 kinds,
34/35/36 red fives), seats are 0..3 in the log's seating (seat 0 is the first dealer), and points are real points
(a log's ``250`` means 25,000).

Every record is frozen: an event is a fact about the past, nothing downstream gets to rewrite it.

A draw, a discard and a riichi declaration are the round engine's own records (``engine.round.events.Tsumo``,
``Dahai`` and ``Reach``: the seat ``actor``, the tile ``pai``): a log's draw is the same fact as a round's, so
replay reads and compares one type.
The other records stay the log's own, because they say more or other than the round's (see docs/round-engine.md,
"Events: typed inside, JSON at the edges"): ``Call`` is the meld as a log states it (all its tiles, the seat a
kakan's pon came from), ``RiichiStick`` carries no scores, ``NewDoraIndicator`` says whether its place
is the log's or a guess, and a win or draw carries the log's own points.
"""

from __future__ import annotations

from typing import Literal

from engine.round.events import Dahai, Reach, Tsumo
from ruledsl.record import record

CallKind = Literal["chi", "pon", "daiminkan", "kakan", "ankan", "kita"]
KAN_KINDS: frozenset[str] = frozenset({"daiminkan", "kakan", "ankan"})
ExhaustiveKind = Literal["exhaustive", "nagashi_mangan"]
AbortiveKind = Literal["nine_terminals", "four_riichi", "triple_ron", "four_kans", "four_winds"]


@record(slots=False)
class GameStart:
    """The table's rules: red fives, ``kuitan`` (Tenhou's "open kuitan" rule bit), length, players.

    ``raw_type`` keeps the log's own rule word (mjlog ``GO type``) for anything we do not model yet; ``lobby`` its
    lobby (mjlog ``GO lobby``: 0 for the public lobbies, another number for a private one, whose owner sets rules
    the log does not record).
    """

    red_fives: bool
    kuitan: bool
    hanchan: bool
    players: int
    raw_type: int
    lobby: int = 0


@record(slots=False)
class RoundStart:
    """A deal: ``round_index`` 0 = East 1, 4 = South 1, ...; ``scores`` before the round; 13 tiles per seat."""

    round_index: int
    honba: int
    sticks: int
    dora_indicator: int
    scores: tuple[int, ...]
    dealer: int
    hands: tuple[tuple[int, ...], ...]

    @property
    def label(self) -> str:
        """``E1-0`` style: round wind, hand number, honba - how players name a hand."""
        return round_label(self.round_index, self.honba)


@record(slots=False)
class Call:
    """A meld made (or, in three-player, a North set aside).

    ``tiles`` are all the meld's tiles (four for a kan, the called one included), sorted.
    ``called_tile`` is the tile that triggered the call: the discard taken for chi/pon/daiminkan, the tile added
    from the hand for kakan, one of the four for ankan, the North for kita. ``from_seat`` is the discarder
    (for kakan: the seat the original pon was called from; for ankan and kita: the caller itself).
    """

    seat: int
    kind: CallKind
    tiles: tuple[int, ...]
    called_tile: int
    from_seat: int

    @property
    def is_kan(self) -> bool:
        return self.kind in KAN_KINDS

    @property
    def is_open(self) -> bool:
        """Open for scoring purposes: everything except a closed kan (and kita, which opens nothing)."""
        return self.kind not in ("ankan", "kita")


@record(slots=False)
class RiichiStick:
    """The riichi discard passed: the stick is on the table (mjlog ``REACH step="2"``, mjai ``reach_accepted``).
    The declaration before the discard is the round's own ``Reach``; this stays the log's record, because a log
    does not always say the deltas and scores the round's ``ReachAccepted`` records (tenhou.net/6 says neither)."""

    seat: int


@record(slots=False)
class NewDoraIndicator:
    """A kan indicator flipped (when exactly depends on the kan kind, see decisions D13).

    Closed kan: right after the call. Open or added kan: mjlog writes it just before the kan-maker's discard
    (it comes with that discard, so a ron on the discard counts it), or before a following kan's replacement
    draw; it never shows for a win on the replacement tile itself.

    ``ordered`` says whether the event's place among the others is the log's own (mjlog's ``DORA`` tag, mjai's
    ``dora`` line) or the reader's guess: tenhou.net/6 lists the indicators with no order, so its reader places
    them by Tenhou's convention and replay checks their place only where the log says it.
    """

    tile: int
    ordered: bool = True


@record(slots=False)
class Win:
    """A win as the log scored it.

    ``hand`` is the concealed tiles including ``win_tile``; ``melds`` are the calls (closed kans included) with
    ``seat == who``. ``fu`` is ``None`` when the log does not say (tenhou.net/6 omits it for limit hands).
    ``points`` is the log's hand value (before honba and sticks; for a tsumo, the sum of all payments);
    ``limit`` the log's limit code (0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman). ``yaku``
    pairs Tenhou's yaku numbers with their han; ``yakuman`` lists Tenhou's yakuman numbers (one per yakuman).
    ``honba``/``sticks`` are the table's counters as the log shows them for this win; ``deltas`` are the real
    point changes per seat.
    """

    who: int
    from_who: int
    pao_who: int | None
    hand: tuple[int, ...]
    melds: tuple[Call, ...]
    win_tile: int
    fu: int | None
    points: int
    limit: int
    yaku: tuple[tuple[int, int], ...]
    yakuman: tuple[int, ...]
    dora_indicators: tuple[int, ...]
    ura_indicators: tuple[int, ...]
    honba: int
    sticks: int
    deltas: tuple[int, ...]

    @property
    def tsumo(self) -> bool:
        return self.who == self.from_who


@record(slots=False)
class ExhaustiveDraw:
    """The wall ran out (``kind`` says whether someone was paid nagashi mangan instead of the tenpai payments).

    ``hands`` pairs each seat that showed its hand (the tenpai seats) with its concealed tiles.
    """

    kind: ExhaustiveKind
    honba: int
    sticks: int
    deltas: tuple[int, ...]
    tenpai: tuple[int, ...]
    hands: tuple[tuple[int, tuple[int, ...]], ...]


@record(slots=False)
class AbortiveDraw:
    """The hand stopped early: nine terminals, four riichi, triple ron, four kans, four winds.

    ``tenpai`` / ``hands``: seats whose hands the log shows (the nine-terminal hand, the would-be ron hands...).
    """

    kind: AbortiveKind
    honba: int
    sticks: int
    deltas: tuple[int, ...]
    tenpai: tuple[int, ...]
    hands: tuple[tuple[int, tuple[int, ...]], ...]


@record(slots=False)
class GameEnd:
    """Final scores in points, and the log's placement score (uma/oka included) per seat when it gives one."""

    scores: tuple[int, ...]
    placement_points: tuple[float, ...]


Event = (
    GameStart
    | RoundStart
    | Tsumo
    | Dahai
    | Call
    | Reach
    | RiichiStick
    | NewDoraIndicator
    | Win
    | ExhaustiveDraw
    | AbortiveDraw
    | GameEnd
)

ROUND_WINDS = "ESWN"


def round_label(round_index: int, honba: int) -> str:
    """``E1-0``, ``S4-2``: the round wind letter, the hand number within it, the honba."""
    return f"{ROUND_WINDS[round_index // 4 % 4]}{round_index % 4 + 1}-{honba}"
