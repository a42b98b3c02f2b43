"""What one seat may see at the table, as a typed record: the only thing a bot is given besides its legal moves.

A bot that received the whole ``Round`` could read every hand in ``rnd.seats``. An ``Observation`` holds the
seat's own concealed tiles and draws, and what every player sees in the open: each seat's discards (with the
tsumogiri flag, the riichi tile and who called it), melds, riichi, kita, the indicators, scores, the counters and
the tiles left in the wall, and the game's events so far as mjai sends them to this seat (``engine.protocol.mjai.
masked_for``: other seats' draws and hands as ``?``). ``TableViews`` follows a game's typed events once, writes
each as mjai once, and keeps every seat's history, so that building an observation costs no more than its own
fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import tiles as T
from engine.protocol.mjai import MjaiWriter, masked_for
from engine.round import Action, Round
from engine.round.actions import TILE_CODES
from engine.round.events import Dahai, Meld, Reach, RoundEvent, StartKyoku, Tsumo
from engine.round.state import MeldRecord
from ruledsl.record import record, replace

# a hand is shown by kind, a red five before its plain copies (``sorted_tiles``' order), one look-up per tile
_HAND_ORDER = [(T.kind_of(c), 0 if c >= T.RED_BASE else 1) for c in range(TILE_CODES)]


@record
class Discard:
    """One tile in a seat's pond: the tile, whether it was the tile just drawn, whether it declared riichi, and
    the seat that called it (None while it lies in the pond)."""

    tile: int
    tsumogiri: bool
    riichi: bool = False
    called_by: int | None = None


@record
class Observation:
    """One seat's view of the table when it must decide, and the moves it may make (tiles as ``engine.core.tiles``
    codes, seats as in the game: 0 is the first dealer).

    ``hand``, ``drawn`` and ``draws`` are this seat's own; every other field is public. ``events`` is the game
    so far as this seat's mjai client would have received it, and ``new_events`` the part of it that arrived
    since this seat's previous observation (the whole game for its first). The event dicts are shared, to be
    read, not changed."""

    seat: int
    players: int
    round_wind: str  # "E" .. "N"
    dealer: int
    honba: int
    sticks: int  # riichi sticks on the table
    scores: tuple[int, ...]
    dora_indicators: tuple[int, ...]
    wall_remaining: int  # live tiles left to draw
    hand: tuple[int, ...]  # own concealed tiles, the drawn one included, by kind (a red five before its copies)
    drawn: int | None  # the tile just drawn, on this seat's own turn
    draws: tuple[int, ...]  # every tile this seat drew this round, in order (replacement draws included)
    discards: tuple[tuple[Discard, ...], ...]  # per seat
    melds: tuple[tuple[MeldRecord, ...], ...]  # per seat; ``source`` is the seat called from (None: own kan)
    riichi: tuple[bool, ...]  # per seat, established
    kita: tuple[int, ...]  # per seat, north tiles set aside (three players)
    open_hands: tuple[tuple[int, ...] | None, ...]  # per seat, the hand of an open riichi (None: not shown)
    legal_actions: tuple[Action, ...]
    events: tuple[dict[str, Any], ...]
    new_events: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        """The observation as JSON for a bot in another language: tiles in mpsz (``0m`` a red five), actions as
        ``Action.to_json`` writes them, events as mjai sends them."""
        return {
            "seat": self.seat, "players": self.players, "round_wind": self.round_wind, "dealer": self.dealer,
            "honba": self.honba, "sticks": self.sticks, "scores": list(self.scores),
            "dora_indicators": _tiles(self.dora_indicators), "wall_remaining": self.wall_remaining,
            "hand": _tiles(self.hand), "drawn": None if self.drawn is None else _tiles([self.drawn])[0],
            "draws": _tiles(self.draws),
            "discards": [[_discard(d) for d in pond] for pond in self.discards],
            "melds": [[_meld(m) for m in melds] for melds in self.melds],
            "riichi": list(self.riichi), "kita": list(self.kita),
            "open_hands": [None if hand is None else _tiles(hand) for hand in self.open_hands],
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "events": list(self.events), "new_events": list(self.new_events),
        }


def _tiles(codes: Sequence[int]) -> list[str]:
    return [T.format_tiles([c]) for c in codes]


def _discard(d: Discard) -> dict[str, Any]:
    return {"tile": T.format_tiles([d.tile]), "tsumogiri": d.tsumogiri, "riichi": d.riichi, "called_by": d.called_by}


def _meld(m: MeldRecord) -> dict[str, Any]:
    called = None if m.called is None else T.format_tiles([m.called])
    return {"type": m.type, "tiles": _tiles(m.tiles), "called": called, "from": m.source}


class TableViews:
    """Every seat's view of one game, kept up to date from the game's typed events (``Round.log``), each written
    once as mjai (``engine.protocol.mjai.MjaiWriter``) and masked for each seat.

    Call ``follow`` with the live round's records before asking for an observation, ``close_round`` once the
    round ended, and ``history(seat)`` for a seat's masked mjai stream so far."""

    def __init__(self, players: int, riichi_deposit: int, names: Sequence[str] | None = None) -> None:
        self.players = players
        self.writer = MjaiWriter(riichi_deposit)
        self.done: list[dict[str, Any]] = []  # the full mjai events of the rounds played (start_game first)
        self.live: list[dict[str, Any]] = []  # the live round's, written one at a time
        self.followed = 0  # records of the live round already written
        self.seen = [0] * players  # how much of its history each seat has been shown
        self.histories: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.discards: list[list[Discard]] = []
        self.draws: list[list[int]] = []
        self.reaching = [False] * players
        self._add({"type": "start_game", "names": list(names or (f"seat{s}" for s in range(players)))})

    def follow(self, log: Sequence[RoundEvent]) -> None:
        """Take in the live round's records not yet seen (``Round.log``)."""
        write = self.writer.write
        for event in log[self.followed :]:
            self._track(event)
            converted = write(event)
            self.live.append(converted)
            self._add(converted)
        self.followed = len(log)

    def close_round(self, log: Sequence[RoundEvent]) -> None:
        """The round ended: keep its events (a win's deltas as mjai writes them, with the riichi sticks its winner
        takes: the writer counted them from the deal on)."""
        self.follow(log)
        self.done.extend(self.live)
        self.live, self.followed = [], 0

    def end_game(self, final_points: Sequence[int]) -> None:
        self._add({"type": "end_game", "scores": list(final_points)})

    def history(self, seat: int) -> list[dict[str, Any]]:
        """``seat``'s mjai stream so far: ``engine.protocol.mjai.masked_stream`` of the game's events."""
        return self.histories[seat]

    def _add(self, event: dict[str, Any]) -> None:
        for seat in range(self.players):
            self.histories[seat].append(masked_for(event, seat))

    def _track(self, event: RoundEvent) -> None:
        """The ponds and own draws that ``Round`` does not keep: tsumogiri flags, riichi tiles, who called."""
        if isinstance(event, Tsumo):
            self.draws[event.actor].append(event.pai)
        elif isinstance(event, Dahai):
            actor = event.actor
            self.discards[actor].append(Discard(event.pai, event.tsumogiri, self.reaching[actor]))
            self.reaching[actor] = False
        elif isinstance(event, Reach):
            self.reaching[event.actor] = True
        elif isinstance(event, Meld):  # chi, pon or an open kan: another seat's discard taken
            pond = self.discards[event.target]
            pond[-1] = replace(pond[-1], called_by=event.actor)
        elif isinstance(event, StartKyoku):
            self.discards = [[] for _ in range(self.players)]
            self.draws = [[] for _ in range(self.players)]
            self.reaching = [False] * self.players

    def observe(self, rnd: Round, seat: int) -> Observation:
        """``seat``'s observation of the live round now (``follow`` its records first)."""
        self.follow(rnd.log)
        history = self.histories[seat]
        new = tuple(history[self.seen[seat] :])
        self.seen[seat] = len(history)
        return Observation(
            seat=seat,
            players=self.players,
            round_wind=rnd.setup.round_wind,
            dealer=rnd.setup.dealer,
            honba=rnd.setup.honba,
            sticks=rnd.sticks,
            scores=tuple(rnd.scores),
            dora_indicators=tuple(rnd.wall.dora_indicators()),
            wall_remaining=rnd.wall.remaining,
            hand=tuple(sorted(rnd.seats[seat].hand, key=_HAND_ORDER.__getitem__)),
            drawn=rnd.drawn if rnd.phase == "own" and rnd.actor == seat else None,
            draws=tuple(self.draws[seat]),
            discards=tuple(tuple(pond) for pond in self.discards),
            melds=tuple(tuple(s.melds) for s in rnd.seats),
            riichi=tuple(s.riichi for s in rnd.seats),
            kita=tuple(s.kita for s in rnd.seats),
            open_hands=tuple(tuple(s.hand) if s.open_riichi else None for s in rnd.seats),
            legal_actions=rnd.legal_actions(seat),
            events=tuple(history),
            new_events=new,
        )
