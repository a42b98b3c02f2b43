"""tenhou.net/6 JSON to events: the same table events as the mjlog parser, rebuilt from per-seat arrays.

The JSON keeps, per seat, the tiles it took (draws and calls) and the tiles it let go (discards and kans), but no
global order. Play order is mostly forced (draw, discard, next seat), except at a discard another seat could call:
the caller may have taken this copy or a later one. We replay the round and, at each such fork, try "called here"
first and "not yet" second, backtracking when the arrays stop fitting (a seat must draw but its next take is a
call, a seat discards a tile it does not hold, the arrays run out at the wrong moment, the wall count is off, the
end does not match the result). The tile tracking makes wrong orders die quickly.

Kan indicators are placed as the mjlog writes them (decisions D13): a closed kan's right after the call; an open
or added kan's just before the kan-maker's discard, or right after a following kan's call.

Three-player logs (``三`` in the room name) keep four seats of arrays, the fourth empty, and seat numbers of a
four-seat table: a call's letter position still counts seats round a table of four (seat 2 sits "across" from
seat 0), so the same decoding names the right discarder. ``f44`` in the discards sets a North aside (kita); the
seat then draws its replacement, which, as after a kan, shortens the live wall by one.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from engine.core.errors import InvalidRequest
from engine.core.tiles import format_tiles, kind_of
from engine.protocol.log_bounds import check_events, check_json
from engine.replay.events import (
    AbortiveDraw,
    AbortiveKind,
    Call,
    CallKind,
    Event,
    ExhaustiveDraw,
    ExhaustiveKind,
    GameEnd,
    GameStart,
    NewDoraIndicator,
    Reach,
    RiichiStick,
    RoundStart,
    Win,
    round_label,
)
from engine.replay.mjlog import read_log
from engine.replay.positions import Places
from engine.replay.tenhou_yaku import tenhou_table
from engine.round.events import dahai_event, tsumo_event
from ruledsl.caches import once
from ruledsl.record import record

WIN_WORD = "和了"
EXHAUSTIVE_WORDS = {"流局": None, "全員聴牌": "all", "全員不聴": "none"}
NAGASHI_WORD = "流し満貫"
ABORTIVE_WORDS: dict[str, AbortiveKind] = {
    "九種九牌": "nine_terminals",
    "四家立直": "four_riichi",
    "四風連打": "four_winds",
    "四槓散了": "four_kans",
    "三家和了": "triple_ron",
}
LIMIT_WORDS = {"満貫": 1, "跳満": 2, "倍満": 3, "三倍満": 4, "役満": 5, "数え役満": 5}
VALUE_RE = re.compile(r"^(?:(\d+)符(\d+)飜|(満貫|跳満|倍満|三倍満|数え役満|役満))(\d+)(?:-(\d+))?点(∀)?$")
YAKU_RE = re.compile(r"^(.+)\((?:(\d+)飜|(役満))\)$")
TSUMOGIRI = 60
KAN_PLACEHOLDER = 0
LIVE_WALL = 136 - 14 - 52
KITA_LETTER = "f"
MAX_ORDERINGS = 20000
# tile position of the call letter -> seats counted to the right of the caller (3 = left, 2 = across, 1 = right)
CALL_SOURCE = {"c": {0: 3}, "p": {0: 3, 1: 2, 2: 1}, "k": {0: 3, 1: 2, 2: 1}, "m": {0: 3, 1: 2, 3: 1}}
CALL_KINDS: dict[str, CallKind] = {"c": "chi", "p": "pon", "m": "daiminkan", "k": "kakan", "a": "ankan"}


@once
def _yaku_numbers() -> dict[str, int]:
    return {name: int(number) for number, name in tenhou_table()["names"].items()}


class _Dead(Exception):
    """This ordering does not fit the arrays; ``decisions`` lets the search try the next one."""

    def __init__(self, reason: str, decisions: list[tuple[int, int]], progress: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.decisions = decisions
        self.progress = progress


def json_tile(value: Any, red_fives: bool) -> int:
    """tenhou.net/6 tile number (11-19 m, 21-29 p, 31-39 s, 41-47 honours, 51-53 red fives) to a tile code."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRequest(f"tile {value!r} is not a number")
    if 51 <= value <= 53:
        return 34 + value - 51 if red_fives else (4, 13, 22)[value - 51]
    suit, number = divmod(value, 10)
    if 1 <= suit <= 3 and 1 <= number <= 9:
        return (suit - 1) * 9 + number - 1
    if suit == 4 and 1 <= number <= 7:
        return 26 + number
    raise InvalidRequest(f"tile number {value} does not exist in tenhou.net/6 notation")


def parse_call(text: str, seat: int, red_fives: bool = True) -> Call:
    """A call written as in the arrays: ``c131415`` chi, ``45p4545`` pon, ``m39393939`` open kan (takes),
    ``151515a51`` closed kan, ``3636k3636`` added kan (discards). The letter stands before the called tile, its
    position says which seat it came from (first: left, second: across, last: right)."""
    tiles: list[int] = []
    letter = ""
    position = -1
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isalpha():
            if letter:
                raise InvalidRequest(f"call {text!r} has two letters")
            letter, position = ch, len(tiles)
            i += 1
        elif text[i : i + 2].isdigit():
            tiles.append(json_tile(int(text[i : i + 2]), red_fives))
            i += 2
        else:
            raise InvalidRequest(f"call {text!r} is not tiles around one letter")
    if letter not in CALL_KINDS:
        raise InvalidRequest(f"call {text!r}: unknown call letter {letter!r}")
    kind = CALL_KINDS[letter]
    size = 3 if kind in ("chi", "pon") else 4
    if len(tiles) != size or position >= size:
        raise InvalidRequest(f"call {text!r}: a {kind} needs {size} tiles")
    if kind == "ankan":
        from_seat = seat
    else:
        rel = CALL_SOURCE[letter].get(position)
        if rel is None:
            raise InvalidRequest(f"call {text!r}: the letter's position names no seat")
        from_seat = (seat + rel) % 4
    kinds = {kind_of(t) for t in tiles}
    if kind == "chi":
        ordered = sorted(kind_of(t) for t in tiles)
        if ordered[0] >= 27 or ordered != list(range(ordered[0], ordered[0] + 3)) or ordered[0] % 9 > 6:
            raise InvalidRequest(f"call {text!r}: not a sequence")
    elif len(kinds) != 1:
        raise InvalidRequest(f"call {text!r}: tiles of different kinds")
    return Call(
        seat=seat, kind=kind, tiles=tuple(sorted(tiles)), called_tile=tiles[position], from_seat=from_seat
    )


def read_tenhou6(path: str | Path) -> list[Event]:
    """Read a tenhou.net/6 JSON file: one game object, or one object per line (one round each). A file that is
    not a readable log within the bounds of ``engine.replay.mjlog`` (size; JSON nesting) raises ``EngineError``."""
    return read_tenhou6_at(path)[0]


def read_tenhou6_at(path: str | Path) -> tuple[list[Event], Places]:
    """``read_tenhou6`` with the array entry each event was read from (``engine.replay.positions``)."""
    return read_log(Path(path), lambda text, source: parse_tenhou6_at(text, source=source), "tenhou.net/6 log", gzipped=False)


def _objects(text: str, source: str) -> list[tuple[int | None, dict[str, Any]]]:
    """The file's game objects, each with its line when the file has one object per line (else None)."""
    stripped = text.strip()
    check_json(stripped, source)  # values and nesting, before any object is made
    try:
        objects: list[tuple[int | None, Any]] = [(None, json.loads(stripped))]
    except json.JSONDecodeError as whole_error:
        check_events(stripped.count("\n") + 1, source, "lines")
        lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise InvalidRequest(
                f"{source}: not valid JSON at line {whole_error.lineno}, column {whole_error.colno} "
                f"({whole_error.msg}; truncated or not a tenhou.net/6 log)"
            ) from None
        objects = []
        for number, line in lines:
            try:
                objects.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise InvalidRequest(f"{source}: line {number} is not valid JSON ({exc.msg})") from None
    for _, obj in objects:
        if not isinstance(obj, dict) or not isinstance(obj.get("log"), list):
            raise InvalidRequest(f'{source}: not a tenhou.net/6 log (no "log" list)')
    return objects


def game_rules(rule: Any) -> GameStart:
    """The table's rules from ``rule``: ``disp`` is the room name (東/南 length, 喰 kuitan, 赤 red, 三 players),
    ``aka`` (or ``aka51..53``) the red fives. ``raw_type`` is the equivalent mjlog GO type word."""
    rule = rule if isinstance(rule, dict) else {}
    disp = str(rule.get("disp", ""))
    red = bool(rule.get("aka") or rule.get("aka51") or rule.get("aka52") or rule.get("aka53") or "赤" in disp)
    kuitan = "喰" in disp or not disp
    hanchan = "南" in disp
    players = 3 if "三" in disp else 4
    raw = (
        0x01
        | (0 if red else 0x02)
        | (0 if kuitan else 0x04)
        | (0x08 if hanchan else 0)
        | (0x10 if players == 3 else 0)
    )
    raw |= 0x40 if "速" in disp else 0
    raw |= {"鳳": 0xA0, "特": 0x20, "上": 0x80}.get(disp[:1], 0)
    return GameStart(red_fives=red, kuitan=kuitan, hanchan=hanchan, players=players, raw_type=raw)


def parse_tenhou6(text: str, source: str = "<tenhou6>") -> list[Event]:
    """Parse tenhou.net/6 JSON text into the event list, in table order."""
    return parse_tenhou6_at(text, source)[0]


def parse_tenhou6_at(text: str, source: str = "<tenhou6>") -> tuple[list[Event], Places]:
    """The events and, per event, the entry of the ``log`` arrays it was read from (``log[2][6][7]``: round 2,
    0-based, seat 0's discards, the eighth), with the object's line in a file of one object per line."""
    objects = _objects(text, source)
    game = game_rules(objects[0][1].get("rule"))
    events: list[Event] = [game]
    paths: list[tuple[int | None, str] | None] = [(objects[0][0], "rule")]
    for line, obj in objects:
        for number, raw in enumerate(obj["log"], 1):
            try:
                found, where = _round_events(_RawRound.read(raw, game.red_fives, game.players), game, f"log[{number - 1}]")
            except InvalidRequest as exc:
                raise InvalidRequest(f"{source}: round #{number}: {exc.message}") from None
            events += found
            paths += [(line, path) for path in where]
    final = objects[-1][1].get("sc")
    if isinstance(final, list) and len(final) >= 8:
        paths.append((objects[-1][0], "sc"))
        events.append(
            GameEnd(
                scores=tuple(int(final[2 * s]) for s in range(game.players)),  # already in points, unlike mjlog
                placement_points=tuple(float(final[2 * s + 1]) for s in range(game.players)),
            )
        )
    return events, Places.of_paths(paths)


@record(slots=False)
class _RawRound:
    """One ``log`` entry, tiles converted, shape checked."""

    round_index: int
    honba: int
    sticks: int
    scores: tuple[int, ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    takes: tuple[tuple[int | str, ...], ...]
    discards: tuple[tuple[int | str, ...], ...]
    result: tuple[Any, ...]
    red: bool
    players: int = 4

    @classmethod
    def read(cls, raw: Any, red: bool, players: int = 4) -> _RawRound:
        if not isinstance(raw, list) or len(raw) != 17:
            raise InvalidRequest("a round must be a list of 17 entries")
        try:
            index, honba, sticks = (int(v) for v in raw[0])
            scores = tuple(int(v) for v in raw[1])[:players]
            hands = tuple(tuple(json_tile(t, red) for t in raw[4 + 3 * s]) for s in range(players))
            takes = tuple(tuple(raw[5 + 3 * s]) for s in range(players))
            discards = tuple(tuple(raw[6 + 3 * s]) for s in range(players))
            empty_seats = [s for s in range(players, 4) if any(raw[4 + 3 * s + k] for k in range(3))]
            dora = tuple(json_tile(t, red) for t in raw[2])
            ura = tuple(json_tile(t, red) for t in raw[3])
        except (TypeError, ValueError) as exc:
            raise InvalidRequest(f"malformed round header or arrays ({exc})") from None
        if empty_seats:  # a three-player log's fourth seat holds nothing
            raise InvalidRequest(f"seat {empty_seats[0]} has tiles in a {players}-player log")
        for seat, hand in enumerate(hands):
            if len(hand) != 13:
                raise InvalidRequest(f"seat {seat} starts with {len(hand)} tiles, expected 13")
        if not dora:
            raise InvalidRequest("no dora indicator")
        result = raw[16]
        if not isinstance(result, list) or not result or not isinstance(result[0], str):
            raise InvalidRequest("the result entry is not a list starting with its name")
        return cls(index, honba, sticks, scores, dora, ura, hands, takes, discards, tuple(result), red, players)


def _round_events(raw: _RawRound, game: GameStart, entry: str = "log[0]") -> tuple[list[Event], list[str]]:
    """Depth-first search over the call forks for the one ordering that fits every array and the result; with the
    events, the entry of the round's arrays (``entry`` + ``[k][i]``) each was read from."""
    stack: list[list[int]] = [[]]
    best: _Dead | None = None
    for _ in range(MAX_ORDERINGS):
        if not stack:
            break
        prefix = stack.pop()
        try:
            replay = _Replay(raw, prefix)
            events = replay.run()
            return events, [f"{entry}{at}" for at in replay.paths(len(events))]
        except _Dead as dead:
            if best is None or dead.progress > best.progress:
                best = dead
            # depth first: the latest fork is retried first (pushed last), each fork's options in order
            for k in range(len(prefix), len(dead.decisions)):
                chosen, options = dead.decisions[k]
                base = [c for c, _ in dead.decisions[:k]]
                stack.extend(base + [alt] for alt in range(options - 1, chosen, -1))
    label = round_label(raw.round_index, raw.honba)
    reason = best.reason if best else "too many possible orders"
    raise InvalidRequest(f"{label}: no order of the seats' arrays fits ({reason})")


class _Replay:
    """One attempt at ordering a round, following ``choices`` at the call forks (then "call here" by default)."""

    def __init__(self, raw: _RawRound, choices: list[int]) -> None:
        self.raw = raw
        self.choices = choices
        self.decisions: list[tuple[int, int]] = []
        self.players = raw.players
        self.dealer = raw.round_index % 4  # three-player too: South 1 is index 4
        # 14 tiles stay in the dead wall (replenished from the live wall after a kan or a kita)
        self.live_wall = (136 if self.players == 4 else 108) - 14 - 13 * self.players
        self.hands = [Counter(h) for h in raw.hands]
        self.melds: list[list[Call]] = [[] for _ in range(self.players)]
        self.ti = [0] * self.players
        self.di = [0] * self.players
        self.riichi = [False] * self.players
        self.established = 0
        self.draws = 0
        self.revealed = 1
        self.owed = 0
        self.due_at_draw = 0
        start = RoundStart(
            round_index=raw.round_index,
            honba=raw.honba,
            sticks=raw.sticks,
            dora_indicator=raw.dora[0],
            scores=raw.scores,
            dealer=self.dealer,
            hands=raw.hands,
        )
        self.events: list[Event] = [start]
        self.marks: list[tuple[int, str]] = [(0, "[0]")]  # (first event, array entry) each time the entry changes

    def at(self, array: int, index: int | None = None) -> None:
        """The events appended from now on are read from ``log[r][array][index]`` (or ``[array]``)."""
        self.marks.append((len(self.events), f"[{array}]" if index is None else f"[{array}][{index}]"))

    def paths(self, count: int) -> list[str]:
        """The array entry of each of the first ``count`` events."""
        out: list[str] = []
        for (first, entry), (following, _) in zip(self.marks, [*self.marks[1:], (count, "")], strict=True):
            out += [entry] * (following - first)
        return out[:count]

    def dead(self, reason: str) -> _Dead:
        return _Dead(reason, self.decisions, len(self.events))

    def consumed(self) -> bool:
        return all(
            self.ti[s] == len(self.raw.takes[s]) and self.di[s] == len(self.raw.discards[s])
            for s in range(self.players)
        )

    def flip(self, count: int) -> None:
        for _ in range(count):
            if self.revealed < len(self.raw.dora):
                self.at(2, self.revealed)
                self.events.append(NewDoraIndicator(self.raw.dora[self.revealed], ordered=False))
                self.revealed += 1

    def take(self, seat: int, tiles: list[int], what: str) -> None:
        hand = self.hands[seat]
        for tile in tiles:
            if hand[tile] <= 0:
                raise self.dead(f"seat {seat} {what} {format_tiles([tile])} it does not hold")
            hand[tile] -= 1

    def run(self) -> list[Event]:
        raw = self.raw
        seat = self.dealer
        need_draw = True
        last_draw: int | None = None
        while True:
            if need_draw:
                if self.ti[seat] >= len(raw.takes[seat]):
                    raise self.dead(f"seat {seat} must draw but has no takes left")
                value = raw.takes[seat][self.ti[seat]]
                if isinstance(value, str):
                    raise self.dead(f"seat {seat} must draw but its next take is the call {value}")
                if self.draws >= self.live_wall:  # a replacement draw also shortens the live wall by one
                    raise self.dead("a draw after the wall ran out")
                tile = self._tile(value)
                self.flip(self.due_at_draw)
                self.due_at_draw = 0
                self.at(5 + 3 * seat, self.ti[seat])
                self.ti[seat] += 1
                self.draws += 1
                self.hands[seat][tile] += 1
                last_draw = tile
                self.events.append(tsumo_event(seat, tile))
                if self.di[seat] >= len(raw.discards[seat]):
                    return self._finish_after_draw(seat, tile)
            need_draw = True
            action = raw.discards[seat][self.di[seat]] if self.di[seat] < len(raw.discards[seat]) else None
            if action is None:
                raise self.dead(f"seat {seat} called but has no discard after it")
            self.at(6 + 3 * seat, self.di[seat])
            self.di[seat] += 1
            if isinstance(action, str) and ("a" in action or "k" in action):
                robbed = self._own_kan(seat, action)
                if self.consumed():
                    return self._finish_ron(seat, robbed)
                continue
            if isinstance(action, str) and action[:1] == KITA_LETTER:
                robbed = self._kita(seat, action)
                if self.consumed():
                    return self._finish_ron(seat, robbed)
                continue  # the replacement draw
            riichi = isinstance(action, str) and action[:1] == "r" and action[1:].isdigit()
            if riichi:
                action = int(str(action)[1:])
            if isinstance(action, str) or action == KAN_PLACEHOLDER:
                raise self.dead(f"seat {seat} has {action!r} where a discard belongs")
            if action == TSUMOGIRI:
                if last_draw is None:
                    raise self.dead(f"seat {seat} discards the drawn tile right after a call")
                tile, tsumogiri = last_draw, True
            else:
                tile, tsumogiri = self._tile(action), False
            if riichi:
                self.events.append(Reach(seat))
            self.flip(self.owed)
            self.owed = 0
            self.at(6 + 3 * seat, self.di[seat] - 1)
            self.take(seat, [tile], "discards")
            self.events.append(dahai_event(seat, tile, tsumogiri))
            if self.consumed():
                return self._finish_after_discard(seat, tile, riichi)
            if riichi:
                self.events.append(RiichiStick(seat))
                self.riichi[seat] = True
                self.established += 1
            call = self._reaction(seat, tile)
            last_draw = None
            if call is None:
                seat = (seat + 1) % self.players
                continue
            seat = call.seat
            self.at(5 + 3 * seat, self.ti[seat])
            self.ti[seat] += 1
            own = list(call.tiles)
            own.remove(call.called_tile)
            self.take(seat, own, f"calls {call.kind} with")
            self.melds[seat].append(call)
            self.events.append(call)
            if call.kind == "daiminkan":
                self._after_kan(open_kan=True)
                if (
                    self.di[seat] >= len(raw.discards[seat])
                    or raw.discards[seat][self.di[seat]] != KAN_PLACEHOLDER
                ):
                    raise self.dead(f"seat {seat}'s open kan has no placeholder 0 in its discards")
                self.di[seat] += 1
            else:
                need_draw = False

    def _tile(self, value: int | str) -> int:
        try:
            return json_tile(value, self.raw.red)
        except InvalidRequest as exc:
            raise self.dead(exc.message) from None

    def _reaction(self, seat: int, tile: int) -> Call | None:
        """Calls some seat could make on this discard: a fork between "this copy" and "a later one"."""
        candidates = []
        for other in range(self.players):
            if other == seat or self.ti[other] >= len(self.raw.takes[other]):
                continue
            value = self.raw.takes[other][self.ti[other]]
            if isinstance(value, str):
                try:
                    call = parse_call(value, other, self.raw.red)
                except InvalidRequest as exc:
                    raise self.dead(exc.message) from None
                if (
                    call.kind in ("chi", "pon", "daiminkan")
                    and call.from_seat == seat
                    and call.called_tile == tile
                ):
                    candidates.append(call)
        if not candidates:
            return None
        options: list[Call | None] = [*candidates, None]
        index = len(self.decisions)
        chosen = self.choices[index] if index < len(self.choices) else 0
        self.decisions.append((chosen, len(options)))
        return options[chosen]

    def _after_kan(self, open_kan: bool) -> None:
        """D13: a closed kan's indicator shows at once, an open one's after the discard; a previous open kan's
        is due before this kan's replacement draw (so it never shows if this kan is robbed)."""
        self.due_at_draw += self.owed
        self.owed = 0
        if open_kan:
            self.owed = 1
        else:
            self.flip(1)

    def _own_kan(self, seat: int, text: str) -> int:
        """A closed or added kan from the discards array; returns the tile that could be robbed."""
        try:
            call = parse_call(text, seat, self.raw.red)
        except InvalidRequest as exc:
            raise self.dead(exc.message) from None
        if call.kind == "ankan":
            self.take(seat, list(call.tiles), "makes a closed kan with")
            self.melds[seat].append(call)
            robbed = call.called_tile
        else:
            pon = next(
                (
                    m
                    for m in self.melds[seat]
                    if m.kind == "pon" and kind_of(m.tiles[0]) == kind_of(call.tiles[0])
                ),
                None,
            )
            if pon is None:
                raise self.dead(f"seat {seat} adds to a pon it does not have")
            added = list((Counter(call.tiles) - Counter(pon.tiles)).elements())
            if len(added) != 1:
                raise self.dead(f"seat {seat}'s added kan {text} does not extend its pon")
            self.take(seat, added, "adds")
            call = Call(seat, "kakan", call.tiles, added[0], pon.from_seat)
            self.melds[seat][self.melds[seat].index(pon)] = call
            robbed = added[0]
        self.events.append(call)
        self._after_kan(open_kan=call.kind == "kakan")
        return robbed

    def _kita(self, seat: int, text: str) -> int:
        """``f44``: a North set aside (three-player only); no indicator, a replacement draw follows."""
        tile = self._tile(int(text[1:])) if text[1:].isdigit() else -1
        if self.players != 3 or tile < 0 or kind_of(tile) != kind_of(json_tile(44, False)):
            raise self.dead(f"seat {seat} has {text!r}: only a North is set aside, and only in three-player")
        self.take(seat, [tile], "sets aside")
        call = Call(seat, "kita", (tile,), tile, seat)
        self.melds[seat].append(call)  # the win lists it among the melds, as the mjlog does
        self.events.append(call)
        return tile

    # ---------------------------------------------------------------- endings

    def _finish_after_draw(self, seat: int, tile: int) -> list[Event]:
        if not self.consumed():
            raise self.dead(f"seat {seat} stops after a draw while other arrays go on")
        self.at(16)
        name = self.raw.result[0]
        if name == WIN_WORD:
            wins = self._win_entries()
            if len(wins) != 1 or wins[0][0] != seat or wins[0][1] != seat:
                raise self.dead("the round ends on a draw but the result is no tsumo by that seat")
            self.events.append(self._win(wins[0], tile, tsumo=True, first=True))
            return self.events
        if name == "九種九牌":
            shown = ((seat, self._concealed(seat)),)
            sticks = self.raw.sticks + self.established
            self.events.append(
                AbortiveDraw("nine_terminals", self.raw.honba, sticks, (0,) * self.players, (seat,), shown)
            )
            return self.events
        raise self.dead(f"the round ends on a draw but the result is {name}")

    def _finish_after_discard(self, seat: int, tile: int, riichi: bool) -> list[Event]:
        name = self.raw.result[0]
        if name == WIN_WORD:
            return self._finish_ron(seat, tile)
        if riichi:  # the declaration discard passed: the stick is down before the round ends
            self.events.append(RiichiStick(seat))
            self.established += 1
        self.at(16)
        deltas = self._deltas(1)
        sticks = self.raw.sticks + self.established
        if name in EXHAUSTIVE_WORDS or name == NAGASHI_WORD:
            if self.draws != self.live_wall:
                raise self.dead(f"an exhaustive draw with {self.live_wall - self.draws} tiles left in the wall")
            mode = EXHAUSTIVE_WORDS.get(name)
            everyone = tuple(range(self.players))
            if mode == "all":
                tenpai: tuple[int, ...] = everyone
            elif mode == "none" or name == NAGASHI_WORD:
                tenpai = ()
            else:
                tenpai = tuple(s for s in everyone if deltas[s] > 0) if any(deltas) else everyone
            kind: ExhaustiveKind = "nagashi_mangan" if name == NAGASHI_WORD else "exhaustive"
            shown = tuple((s, self._concealed(s)) for s in tenpai)
            self.events.append(ExhaustiveDraw(kind, self.raw.honba, sticks, deltas, tenpai, shown))
            return self.events
        if name in ABORTIVE_WORDS and name != "九種九牌":
            self.events.append(AbortiveDraw(ABORTIVE_WORDS[name], self.raw.honba, sticks, deltas, (), ()))
            return self.events
        raise self.dead(f"the round ends on a discard but the result is {name}")

    def _finish_ron(self, seat: int, tile: int) -> list[Event]:
        if self.raw.result[0] != WIN_WORD:
            raise self.dead("the round ends on a kan but the result is no win")
        self.at(16)
        wins = self._win_entries()
        if not all(w[1] == seat and w[0] != seat for w in wins):
            raise self.dead(f"the round ends on seat {seat}'s tile but the result is not a ron on it")
        for number, entry in enumerate(wins):
            self.events.append(self._win(entry, tile, tsumo=False, first=number == 0))
        return self.events

    def _concealed(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(self.hands[seat].elements()))

    def _deltas(self, position: int) -> tuple[int, ...]:
        result = self.raw.result
        if len(result) <= position or not isinstance(result[position], list):
            return (0,) * self.players
        return tuple(int(v) for v in result[position])[: self.players]

    def _win_entries(self) -> list[tuple[Any, ...]]:
        result = self.raw.result
        entries = []
        for position in range(2, len(result), 2):
            detail = result[position]
            if (
                not isinstance(detail, list)
                or len(detail) < 5
                or not all(isinstance(v, int) and 0 <= v < 4 for v in detail[:3])
            ):
                raise InvalidRequest(f"win details {detail!r} are not [who, from, pao, value, yaku...]")
            entries.append(
                (detail[0], detail[1], detail[2], detail[3], tuple(detail[4:]), self._deltas(position - 1))
            )
        if not entries:
            raise InvalidRequest("a win result without details")
        return entries

    def _win(self, entry: tuple[Any, ...], tile: int, tsumo: bool, first: bool) -> Win:
        who, from_who, pao, value, yaku_texts, deltas = entry
        held = +self.hands[who]
        if not tsumo:
            held[tile] += 1
        fu, points, limit = _value(value)
        yaku, yakuman = _yaku(yaku_texts)
        dora = self.raw.dora[: self.revealed]
        return Win(
            who=who,
            from_who=from_who,
            pao_who=pao if pao != who else None,
            hand=tuple(sorted(held.elements())),
            melds=tuple(self.melds[who]),
            win_tile=tile,
            fu=fu,
            points=points,
            limit=limit,
            yaku=yaku,
            yakuman=yakuman,
            dora_indicators=dora,
            ura_indicators=self.raw.ura[: len(dora)] if self.riichi[who] else (),
            honba=self.raw.honba,
            sticks=self.raw.sticks + self.established if first else 0,
            deltas=deltas,
        )


def _value(text: Any) -> tuple[int | None, int, int]:
    """``30符2飜2000点``, ``満貫2000-4000点`` (tsumo: non-dealers-dealer), ``1300点∀`` (dealer tsumo, each)."""
    match = VALUE_RE.match(str(text))
    if match is None:
        raise InvalidRequest(f"cannot read the win value {text!r}")
    fu, _han, word, first, second, each = match.groups()
    a = int(first)
    points = 2 * a + int(second) if second else (3 * a if each else a)
    return (int(fu) if fu else None), points, LIMIT_WORDS.get(word, 0) if word else 0


def _yaku(texts: tuple[Any, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    numbers = _yaku_numbers()
    yaku: list[tuple[int, int]] = []
    yakuman: list[int] = []
    for text in texts:
        match = YAKU_RE.match(str(text))
        if match is None or match.group(1) not in numbers:
            raise InvalidRequest(f"unknown yaku entry {text!r}")
        number = numbers[match.group(1)]
        if match.group(3):
            yakuman.append(number)
        else:
            yaku.append((number, int(match.group(2))))
    return tuple(yaku), tuple(yakuman)
