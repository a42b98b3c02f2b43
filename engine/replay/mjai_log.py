"""mjai JSON-lines logs to the replay's events (the same ``engine.replay.events`` the mjlog and tenhou.net/6
readers produce), so one replay path serves every log format.

mjai says less than Tenhou's formats: no rule flags (red fives are inferred from the tiles seen, the game is
taken as a hanchan with Tenhou's kuitan flag on), no yaku or fu on a win, often no tenpai list on a draw. What it does not
say is left empty; the round engine recomputes it and the replay compares what the log does say (the actions,
the point changes, the counters). A log seen from one seat (tiles ``?``) cannot be replayed and is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.core.errors import InvalidRequest, LimitExceeded
from engine.core.tiles import kind_of
from engine.protocol import mjai
from engine.protocol.log_bounds import MAX_VALUES, check_events, json_values
from engine.replay.events import (
    AbortiveDraw,
    Call,
    CallKind,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    NewDoraIndicator,
    Reach,
    RiichiStick,
    RoundStart,
    Win,
)
from engine.replay.mjlog import read_log
from engine.replay.positions import Places
from engine.round.actions import sorted_tiles
from engine.round.events import dahai_event, tsumo_event


def read_mjai_log(path: str | Path) -> list[Event]:
    """Read one mjai log file (``.mjson``/``.jsonl``/``.json``, plain or gzip), within the size and
    decompression bounds of ``engine.replay.mjlog``."""
    return read_mjai_log_at(path)[0]


def read_mjai_log_at(path: str | Path) -> tuple[list[Event], Places]:
    """``read_mjai_log`` with the line each event was read from (``engine.replay.positions``)."""
    return read_log(Path(path), parse_mjai_text_at, "mjai log")


def parse_mjai_text(text: str, source: str = "<mjai>") -> list[Event]:
    return parse_mjai_text_at(text, source)[0]


def parse_mjai_text_at(text: str, source: str = "<mjai>") -> tuple[list[Event], Places]:
    """An mjai log's text to events and their lines, within the shape bounds of ``engine.protocol.log_bounds`` (events per
    file, values per file, and per line values and nesting), checked before any line is parsed."""
    check_events(text.count("\n") + 1, source, "lines")
    if json_values(text) > MAX_VALUES:
        raise LimitExceeded(f"{source}: holds more than {MAX_VALUES:,} JSON values, the bound of a game log")
    return parse_mjai_at(text.splitlines(), source)


def parse_mjai(lines: Iterable[str], source: str = "<mjai>") -> list[Event]:
    return parse_mjai_at(lines, source)[0]


def parse_mjai_at(lines: Iterable[str], source: str = "<mjai>") -> tuple[list[Event], Places]:
    """The events and, per event, the 1-based line of the mjai event it came from (None for the game start the
    reader adds: mjai's ``start_game`` carries no rules). Each line is bounded as it is read (``mjai.read_lines``),
    and so is their count."""
    lines = list(lines)
    numbers = [number for number, line in enumerate(lines, 1) if line.strip()]  # ``read_lines`` skips blank ones
    events: list[dict[str, Any]] = []
    for event in mjai.read_lines(lines, source=source):
        events.append(event)
        check_events(len(events), source)
    reader = _Reader(events, source, numbers)
    found = reader.run()
    return found, Places.of_lines([numbers[o] if o >= 0 else None for o in reader.origins])


def parse_mjai_events(events: list[dict[str, Any]], source: str = "<mjai>") -> tuple[list[Event], list[int]]:
    """Already-parsed mjai events to replay events, with the index of the mjai event each one came from (the
    game start maps to -1): how a test lines the round engine up with another engine's decisions."""
    reader = _Reader([mjai.normalize(e) for e in events], source)
    return reader.run(), reader.origins


class _Reader:
    """Walks the events once, keeping what the format needs: hands and melds (a win's hand), scores, indicators."""

    def __init__(self, events: list[dict[str, Any]], source: str, lines: list[int] | None = None) -> None:
        self.events = events
        self.source = source
        self.lines = lines  # the file's line of each event, when read from one
        self.out: list[Event] = []
        self.hands: list[list[int]] = []
        self.melds: list[list[Call]] = []
        self.indicators: list[int] = []
        self.start: RoundStart | None = None
        self.last_tile: int | None = None
        self.last_draw: list[int | None] = []
        self.accepted = 0
        self.scores: list[int] = []
        self.origins: list[int] = [-1]  # per output event: the index of the mjai event it came from

    def fail(self, index: int, message: str) -> InvalidRequest:
        """A bad event, named as ``mjai.read_lines`` names a bad line (``file:line:``), or by its number."""
        if self.lines is not None and index < len(self.lines):
            return InvalidRequest(f"{self.source}:{self.lines[index]}: {message}")
        return InvalidRequest(f"{self.source}: event {index + 1}: {message}")

    def run(self) -> list[Event]:
        starts = [e for e in self.events if e["type"] == "start_kyoku"]
        if not starts:
            raise InvalidRequest(f"{self.source}: no start_kyoku event: not an mjai game log")
        players = len(starts[0].get("scores") or starts[0].get("tehais") or ())
        if players not in (3, 4):
            raise InvalidRequest(f"{self.source}: start_kyoku must give 3 or 4 players' scores")
        red = any(_mentions_red(e) for e in self.events)
        self.out.append(GameStart(red_fives=red, kuitan=True, hanchan=True, players=players, raw_type=0))
        for index, event in enumerate(self.events):
            try:
                self.feed(event, players)
                self.origins.extend([index] * (len(self.out) - len(self.origins)))
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise self.fail(index, f"`{event.get('type')}` event is missing or has a bad field ({exc})") from None
            except InvalidRequest as exc:
                raise self.fail(index, exc.message) from None
        return self.out

    def feed(self, event: dict[str, Any], players: int) -> None:
        kind = event["type"]
        handler = getattr(self, "_" + kind, None)
        if handler is not None:
            handler(event, players)

    def _start_kyoku(self, e: dict[str, Any], players: int) -> None:
        hands = [[mjai.tile_from_mjai(t) for t in hand] for hand in e["tehais"]]
        if len(hands) != players or any(len(h) != 13 for h in hands):
            raise InvalidRequest("start_kyoku needs 13 tiles for every seat (a log seen from one seat cannot be replayed)")
        wind = mjai.round_wind_index(e)
        self.scores = [int(s) for s in e["scores"]]
        dora = mjai.tile_from_mjai(e["dora_marker"])
        self.hands = hands
        self.melds = [[] for _ in range(players)]
        self.indicators = [dora]
        self.accepted = 0  # riichi sticks put on the table this round (a win collects them with the earlier ones)
        self.last_draw = [None] * players
        self.start = RoundStart(
            round_index=wind * 4 + int(e["kyoku"]) - 1,
            honba=int(e.get("honba", 0)),
            sticks=int(e.get("kyotaku", 0)),
            dora_indicator=dora,
            scores=tuple(self.scores),
            dealer=int(e["oya"]),
            hands=tuple(tuple(h) for h in hands),
        )
        self.out.append(self.start)

    def _tsumo(self, e: dict[str, Any], players: int) -> None:
        seat, tile = mjai._seat(e["actor"]), mjai.tile_from_mjai(e["pai"])
        self.hands[seat].append(tile)
        self.last_draw[seat] = tile
        self.last_tile = tile
        self.out.append(tsumo_event(seat, tile))

    def _dahai(self, e: dict[str, Any], players: int) -> None:
        seat, tile = mjai._seat(e["actor"]), mjai.tile_from_mjai(e["pai"])
        self._take(seat, [tile])
        self.last_tile = tile
        self.out.append(dahai_event(seat, tile, bool(e.get("tsumogiri", False))))

    def _call(self, e: dict[str, Any], kind: CallKind) -> None:
        seat = mjai._seat(e["actor"])
        consumed = [mjai.tile_from_mjai(t) for t in e.get("consumed", ())]
        if kind in ("chi", "pon", "daiminkan"):
            tile = mjai.tile_from_mjai(e["pai"])
            self._take(seat, consumed)
            call = Call(seat, kind, sorted_tiles([*consumed, tile]), tile, mjai._seat(e["target"]))
        elif kind == "kakan":
            tile = mjai.tile_from_mjai(e["pai"])
            self._take(seat, [tile])
            pon = next((m for m in self.melds[seat] if m.kind == "pon" and kind_of(m.called_tile) == kind_of(tile)), None)
            if pon is None:
                raise InvalidRequest("kakan without a pon of that tile")
            self.melds[seat].remove(pon)
            call = Call(seat, kind, sorted_tiles([*pon.tiles, tile]), tile, pon.from_seat)
        elif kind == "ankan":
            self._take(seat, consumed)
            call = Call(seat, kind, sorted_tiles(consumed), consumed[0], seat)
        else:  # nukidora
            tile = mjai.tile_from_mjai(e["pai"])
            self._take(seat, [tile])
            call = Call(seat, "kita", (tile,), tile, seat)
            self.out.append(call)
            return
        self.last_tile = call.called_tile
        self.melds[seat].append(call)
        self.out.append(call)

    def _chi(self, e: dict[str, Any], players: int) -> None:
        self._call(e, "chi")

    def _pon(self, e: dict[str, Any], players: int) -> None:
        self._call(e, "pon")

    def _daiminkan(self, e: dict[str, Any], players: int) -> None:
        self._call(e, "daiminkan")

    def _kakan(self, e: dict[str, Any], players: int) -> None:
        self._call(e, "kakan")

    def _ankan(self, e: dict[str, Any], players: int) -> None:
        self._call(e, "ankan")

    def _nukidora(self, e: dict[str, Any], players: int) -> None:
        self._call(e, "kita")

    def _reach(self, e: dict[str, Any], players: int) -> None:
        self.out.append(Reach(mjai._seat(e["actor"]), open=e.get("open") is True))

    def _reach_accepted(self, e: dict[str, Any], players: int) -> None:
        self.out.append(RiichiStick(mjai._seat(e["actor"])))
        self.accepted += 1

    def _dora(self, e: dict[str, Any], players: int) -> None:
        tile = mjai.tile_from_mjai(e["dora_marker"])
        self.indicators.append(tile)
        self.out.append(NewDoraIndicator(tile))

    def _hora(self, e: dict[str, Any], players: int) -> None:
        assert self.start is not None
        who, from_who = mjai._seat(e["actor"]), mjai._seat(e.get("target", e["actor"]))
        tile = mjai.tile_from_mjai(e["pai"]) if e.get("pai") else self.last_tile
        if tile is None:
            raise InvalidRequest("hora before any tile was played")
        hand = list(self.hands[who]) if who == from_who else [*self.hands[who], tile]
        ura = tuple(mjai.tile_from_mjai(t) for t in e.get("uradora_markers") or ())
        self.out.append(
            Win(
                who=who, from_who=from_who, pao_who=None, hand=sorted_tiles(hand), melds=tuple(self.melds[who]),
                win_tile=tile, fu=e.get("fu"), points=0, limit=0, yaku=(), yakuman=(),
                dora_indicators=tuple(self.indicators), ura_indicators=ura, honba=self.start.honba,
                sticks=self.start.sticks + self.accepted, deltas=_deltas(e, players),  # on the table, as mjlog's
            )
        )

    def _ryukyoku(self, e: dict[str, Any], players: int) -> None:
        assert self.start is not None
        kind = e["kind"]
        deltas = _deltas(e, players)
        tenpais = e.get("tenpais")
        if isinstance(tenpais, list) and len(tenpais) == players:
            tenpai = tuple(seat for seat, flag in enumerate(tenpais) if flag)
        else:
            tenpai = tuple(seat for seat, d in enumerate(deltas) if d > 0)
        if kind in ("exhaustive", "nagashi_mangan"):
            self.out.append(ExhaustiveDraw(kind, self.start.honba, self.start.sticks, deltas, tenpai, ()))
        else:
            self.out.append(AbortiveDraw(kind, self.start.honba, self.start.sticks, deltas, (), ()))

    def _end_game(self, e: dict[str, Any], players: int) -> None:
        scores = e.get("scores")
        self.out.append(GameEnd(tuple(int(s) for s in scores) if isinstance(scores, list) else (), ()))

    def _take(self, seat: int, tiles: list[int]) -> None:
        hand = self.hands[seat]
        for tile in tiles:
            if tile not in hand:
                raise InvalidRequest(f"seat {seat} plays {mjai.tile_to_mjai(tile)}, which is not in its hand")
            hand.remove(tile)


def _deltas(e: dict[str, Any], players: int) -> tuple[int, ...]:
    deltas = e.get("deltas")
    if isinstance(deltas, list) and len(deltas) == players:
        return tuple(int(d) for d in deltas)
    return ()


def _mentions_red(event: dict[str, Any]) -> bool:
    for key in ("pai", "dora_marker"):
        value = event.get(key)
        if isinstance(value, str) and value.endswith("r"):
            return True
    for key in ("consumed", "tehais"):
        value = event.get(key)
        if isinstance(value, list):
            flat = [t for item in value for t in (item if isinstance(item, list) else [item])]
            if any(isinstance(t, str) and t.endswith("r") for t in flat):
                return True
    return False
