"""Follow the tiles through each round and say, for every win, what the table looked like at that moment.

A log's win tag gives the hand and the score, but not the situation a scorer needs: was it the last tile, a
replacement draw, a robbed kan, still the ippatsu turn, a first-turn win? Those come from the order of play, so we
replay the round's events here (kept apart from parsing: the tenhou.net/6 parser feeds the same events).

The result of a win is a contract score request plus the log's own result in contract terms, so the engine can
be checked against what the site actually paid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from operator import itemgetter
from pathlib import Path
from typing import Any

from engine.core.errors import InvalidRequest
from engine.core.tiles import format_tiles, kind_of
from engine.replay.events import (
    AbortiveDraw,
    Call,
    Dahai,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    NewDoraIndicator,
    Reach,
    RiichiStick,
    RoundStart,
    Tsumo,
    Win,
    round_label,
)
from engine.replay.tenhou_yaku import tenhou_limit_names, tenhou_yaku_ids
from ruledsl.record import field, record

WINDS = "ESWN"
DEAD_WALL = 14


@record(slots=False)
class WinCase:
    """One win from a log: the request to score, what the log says it scored, and how we know.

    ``tracked_dora`` are the indicators the log had revealed by the time of the win (round start plus each
    kan indicator tag); ``rule_dora_count`` is how many decisions D13's kan timing says should be showing. Both
    should agree with the request's ``dora_indicators`` (taken from the win tag itself).
    """

    file: str
    round_label: str
    request: dict[str, Any]
    expected: dict[str, Any]
    rules: GameStart
    win: Win
    tracked_dora: tuple[int, ...]
    rule_dora_count: int


@record(frozen=False, slots=False)
class _Round:
    """Mutable bookkeeping for one round; lives only inside ``win_cases``."""

    start: RoundStart
    players: int
    live_left: int
    hands: list[Counter[int]]
    melds: list[list[Call]]
    indicators: list[int]
    discards: list[int]
    any_call: bool = False
    riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    double_riichi: list[bool] = field(default_factory=lambda: [False] * 4)
    double_candidate: list[bool] = field(default_factory=lambda: [False] * 4)
    open_riichi: list[bool] = field(default_factory=lambda: [False] * 4)  # declared open (shown hand)
    ippatsu: list[bool] = field(default_factory=lambda: [False] * 4)
    ippatsu_break_pending: bool = False
    replacement_due: list[bool] = field(default_factory=lambda: [False] * 4)
    last_draw_replacement: list[bool] = field(default_factory=lambda: [False] * 4)
    last_event: Event | None = None
    last_discard_live_left: int = -1
    # D13 bookkeeping: an open/added kan's indicator is owed until the kan-maker's discard, or until the
    # replacement draw of a following kan (``due_at_draw``); a robbed kan never draws, so it is never flipped
    rule_dora_count: int = 1
    owed_dora: int = 0
    due_at_draw: int = 0
    wins: int = 0


def win_cases(events: Iterable[Event], source: str = "<log>") -> Iterator[WinCase]:
    """Replay a game's events and yield one ``WinCase`` per win, in table order."""
    rules: GameStart | None = None
    rnd: _Round | None = None
    for index, event in enumerate(events):
        try:
            if isinstance(event, GameStart):
                rules = event
            elif isinstance(event, RoundStart):
                if rules is None:
                    raise InvalidRequest("a round starts before the game's rules are known")
                rnd = _new_round(event, rules)
            elif isinstance(event, GameEnd):
                rnd = None
            elif rnd is None or rules is None:
                raise InvalidRequest(f"{type(event).__name__} outside a round")
            elif isinstance(event, Win):
                yield _win_case(rnd, event, rules, source)
                rnd.wins += 1
            elif not isinstance(event, (ExhaustiveDraw, AbortiveDraw)):
                _apply(rnd, event)
            if rnd is not None and not isinstance(event, (Win, NewDoraIndicator)):
                rnd.last_event = event
        except InvalidRequest as exc:
            label = rnd.start.label if rnd else "before the first round"
            raise InvalidRequest(f"{source}: {label}, event #{index + 1}: {exc.message}") from None


def iter_wins(path: str | Path) -> Iterator[WinCase]:
    """Every win of one log file as a ``WinCase``: ``.json`` is tenhou.net/6, anything else mjlog XML."""
    from engine.replay.mjlog import read_mjlog
    from engine.replay.tenhou6 import read_tenhou6

    path = Path(path)
    events = read_tenhou6(path) if path.suffix.lower() == ".json" else read_mjlog(path)
    yield from win_cases(events, source=str(path))


def _new_round(start: RoundStart, rules: GameStart) -> _Round:
    players = rules.players
    wall = 136 if players == 4 else 108
    return _Round(
        start=start,
        players=players,
        live_left=wall - DEAD_WALL - 13 * players,
        hands=[Counter(h) for h in start.hands],
        melds=[[] for _ in range(players)],
        indicators=[start.dora_indicator],
        discards=[0] * players,
    )


def _take(rnd: _Round, seat: int, tiles: Iterable[int], what: str) -> None:
    hand = rnd.hands[seat]
    for tile in tiles:
        if hand[tile] <= 0:
            raise InvalidRequest(f"seat {seat} {what} {format_tiles([tile])} but does not hold it")
        hand[tile] -= 1


def _apply(rnd: _Round, event: Event) -> None:
    """Advance the round by one non-result event."""
    if isinstance(event, NewDoraIndicator):
        # not an act at the table: it neither completes a kan nor stands between a kan and its robbing
        rnd.indicators.append(event.tile)
        return
    if rnd.ippatsu_break_pending:
        # an added or closed kan that nobody robbed: now it is a completed call and the ippatsu turn is over
        rnd.ippatsu = [False] * 4
        rnd.ippatsu_break_pending = False
    if isinstance(event, Tsumo):
        _on_draw(rnd, event)
    elif isinstance(event, Dahai):
        _on_discard(rnd, event)
    elif isinstance(event, Call):
        _on_call(rnd, event)
    elif isinstance(event, Reach):
        rnd.double_candidate[event.actor] = rnd.discards[event.actor] == 0 and not rnd.any_call
        rnd.open_riichi[event.actor] = event.open
    elif isinstance(event, RiichiStick):
        _on_stick(rnd, event)


def _on_draw(rnd: _Round, event: Tsumo) -> None:
    if rnd.live_left <= 0:
        raise InvalidRequest(f"seat {event.actor} draws but the live wall is empty")
    # a replacement draw comes from the dead wall, which is then topped up from the live wall: one tile less
    rnd.live_left -= 1
    replacement = rnd.replacement_due[event.actor]
    rnd.replacement_due[event.actor] = False
    rnd.last_draw_replacement[event.actor] = replacement
    if replacement:
        rnd.rule_dora_count += rnd.due_at_draw
        rnd.due_at_draw = 0
    rnd.hands[event.actor][event.pai] += 1


def _on_discard(rnd: _Round, event: Dahai) -> None:
    _take(rnd, event.actor, [event.pai], "discards")
    rnd.discards[event.actor] += 1
    rnd.last_discard_live_left = rnd.live_left
    if rnd.riichi[event.actor]:
        rnd.ippatsu[event.actor] = False
    if rnd.owed_dora:
        rnd.rule_dora_count += rnd.owed_dora
        rnd.owed_dora = 0


def _on_call(rnd: _Round, event: Call) -> None:
    seat = event.seat
    rnd.any_call = True
    if event.kind == "kakan":
        pon = next(
            (
                m
                for m in rnd.melds[seat]
                if m.kind == "pon" and kind_of(m.tiles[0]) == kind_of(event.called_tile)
            ),
            None,
        )
        if pon is None:
            raise InvalidRequest(
                f"seat {seat} adds to a pon of {format_tiles([event.called_tile])} it does not have"
            )
        _take(rnd, seat, [event.called_tile], "adds to a kan")
        rnd.melds[seat][rnd.melds[seat].index(pon)] = event
    else:
        own = list(event.tiles)
        if event.kind not in ("ankan", "kita"):
            own.remove(event.called_tile)
        _take(rnd, seat, own, f"calls {event.kind} with")
        rnd.melds[seat].append(event)
    if event.kind in ("kakan", "ankan"):
        # an added kan (and, for one special hand, a closed kan) can still be robbed: ippatsu ends once it stands
        rnd.ippatsu_break_pending = True
    else:
        rnd.ippatsu = [False] * 4
    if event.is_kan:
        rnd.replacement_due[seat] = True
        # D13: a previous open kan's owed indicator is flipped before this kan's replacement draw
        rnd.due_at_draw += rnd.owed_dora
        rnd.owed_dora = 0
        if event.kind == "ankan":
            rnd.rule_dora_count += 1
        else:
            rnd.owed_dora = 1
    elif event.kind == "kita":
        rnd.replacement_due[seat] = False


def _on_stick(rnd: _Round, event: RiichiStick) -> None:
    seat = event.seat
    rnd.riichi[seat] = True
    rnd.double_riichi[seat] = rnd.double_candidate[seat]
    rnd.ippatsu[seat] = True


def _win_case(rnd: _Round, win: Win, rules: GameStart, source: str) -> WinCase:
    start = rnd.start
    who = win.who
    tsumo = win.tsumo
    last = rnd.last_event
    robbed_kan = (
        not tsumo
        and isinstance(last, Call)
        and last.kind in ("kakan", "ankan")
        and last.seat == win.from_who
        and kind_of(last.called_tile) == kind_of(win.win_tile)
    )
    if not tsumo and not robbed_kan and not (isinstance(last, Dahai) and last.actor == win.from_who):
        raise InvalidRequest(
            f"seat {who} wins by ron from seat {win.from_who}, whose last act was no discard"
        )
    _check_tiles(rnd, win)
    no_call_yet = not rnd.any_call
    first_turn = no_call_yet and rnd.discards[who] == 0
    is_dealer = who == start.dealer
    riichi = rnd.riichi[who]
    request: dict[str, Any] = {
        "hand": format_tiles(win.hand),
        "win": format_tiles([win.win_tile]),
        "melds": [{"type": m.kind, "tiles": format_tiles(m.tiles)} for m in win.melds if m.kind != "kita"],
        "tsumo": tsumo,
        "seat_wind": WINDS[(who - start.dealer) % rnd.players],
        "round_wind": WINDS[start.round_index // 4 % 4],
        "riichi": riichi,
        "double_riichi": riichi and rnd.double_riichi[who],
        "ippatsu": riichi and rnd.ippatsu[who],
        "haitei": tsumo and rnd.live_left == 0 and not rnd.last_draw_replacement[who],
        "houtei": not tsumo and not robbed_kan and rnd.last_discard_live_left == 0,
        "rinshan": tsumo and rnd.last_draw_replacement[who],
        "chankan": robbed_kan,
        "tenhou": tsumo and is_dealer and no_call_yet and sum(rnd.discards) == 0,
        "chiihou": tsumo and not is_dealer and first_turn,
        "renhou": not tsumo and not is_dealer and first_turn,
        "dora_indicators": format_tiles(win.dora_indicators, sort=False),
        "ura_indicators": format_tiles(win.ura_indicators, sort=False) if riichi else "",
        # double ron: the winner nearest the discarder takes honba and sticks; Tenhou's second tag still shows
        # the honba but pays it only once, so the later winners collect neither
        "honba": win.honba if rnd.wins == 0 else 0,
        "riichi_sticks": win.sticks if rnd.wins == 0 else 0,
    }
    kita = sum(1 for m in win.melds if m.kind == "kita")
    if kita:
        request["kita"] = kita
    if riichi and rnd.open_riichi[who]:  # only logs of open riichi carry these (mjai `reach` with `open`)
        request["open_riichi"] = True
        request["discarder_in_riichi"] = not tsumo and rnd.riichi[win.from_who]
    return WinCase(
        file=source,
        round_label=round_label(start.round_index, start.honba),
        request=request,
        expected=expected_result(win),
        rules=rules,
        win=win,
        tracked_dora=tuple(rnd.indicators),
        rule_dora_count=rnd.rule_dora_count,
    )


def _check_tiles(rnd: _Round, win: Win) -> None:
    """The tracked hand and melds must be the ones the win tag shows: proof the replay followed the log."""
    held = +rnd.hands[win.who]
    if not win.tsumo:
        held[win.win_tile] += 1
    if held != Counter(win.hand):
        raise InvalidRequest(
            f"seat {win.who}'s tracked hand {format_tiles(held.elements())} differs from the win's "
            f"{format_tiles(win.hand)}"
        )
    tracked = Counter((m.kind, m.tiles) for m in rnd.melds[win.who])
    shown = Counter((m.kind, m.tiles) for m in win.melds)
    if tracked != shown:
        raise InvalidRequest(f"seat {win.who}'s tracked melds differ from the win's")


def expected_result(win: Win) -> dict[str, Any]:
    """The log's result in contract terms: han total, fu, value, limit, yaku ids with han or yakuman count.

    Bonus entries the log lists with 0 han (no ura hit) are dropped, as a scorer does not list them. For a
    yakuman hand ``han`` is 0 (the log gives none) and each yakuman counts 1.
    """
    yaku = logged_yaku(win)
    return {
        "han": sum(han for _, han in win.yaku),
        "fu": win.fu,
        "points": win.points,
        "limit": win.limit,
        "limit_name": tenhou_limit_names().get(win.limit),
        "yaku": yaku,
        "yakuman": len(win.yakuman),
        "who": win.who,
        "from_who": win.from_who,
        "pao_who": win.pao_who,
        "deltas": list(win.deltas),
    }


def logged_yaku(win: Win) -> list[dict[str, Any]]:
    """``expected_result``'s yaku lines alone (contract ids with han, or yakuman 1, sorted by id): what a replay
    compares first for every win, without the rest of the result."""
    ids = tenhou_yaku_ids()
    try:
        yaku: list[dict[str, Any]] = [{"id": ids[n], "han": han} for n, han in win.yaku if han > 0]
        yaku += [{"id": ids[n], "yakuman": 1} for n in win.yakuman]
    except KeyError as exc:
        raise InvalidRequest(f"unknown Tenhou yaku number {exc}") from None
    merged: dict[str, dict[str, Any]] = {}
    for item in yaku:  # defensive: should two log numbers share a contract id, their han add up
        key = item["id"]
        if key in merged:
            for unit in ("han", "yakuman"):
                if unit in item:
                    merged[key][unit] = merged[key].get(unit, 0) + item[unit]
        else:
            merged[key] = item  # a dict made just above, held nowhere else
    return sorted(merged.values(), key=_BY_ID)


_BY_ID = itemgetter("id")
