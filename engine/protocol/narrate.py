"""A round told in words: the play-by-play that ``riichi play --narrate`` and ``riichi replay --narrate`` print.

Both commands end each round with the same two things: the round engine's typed events (``Round.log``) and its
typed settlement (``Round.settled``, whose wins carry the scorer's answer with its yaku). This
module reads only those, so a self-played round and a replayed log read alike. It tells what a player at the table
would say (the deal, calls, riichi, kita, new dora, each win with its yaku and value, each draw, the payments) and
counts the discards instead of listing them, unless asked to list them. Nothing here knows a rule: every number is
one the engine already settled.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.core import tiles as T
from engine.round.events import (
    Ankan,
    Dahai,
    Dora,
    Hora,
    Kakan,
    Meld,
    Nukidora,
    ReachAccepted,
    RoundEvent,
    StartKyoku,
)
from engine.round.settlement import Settlement, Win

WINDS = ("East", "South", "West", "North")
HONOURS = ("East wind", "South wind", "West wind", "North wind", "White dragon", "Green dragon", "Red dragon")
CALLS = {"chi": "chi", "pon": "pon", "daiminkan": "an open kan"}
# a log's abortive-draw kinds (``rulebooks/log_rules.json``), and the rulebook item ids that allow them, in words
ABORTIVE_WORDS = {
    "nine_terminals": "nine different terminals and honours", "kyuushu_kyuuhai": "nine different terminals and honours",
    "four_riichi": "four riichi", "suucha_riichi": "four riichi",
    "triple_ron": "three players call ron", "sanchahou": "three players call ron",
    "four_kans": "four kans", "suukaikan": "four kans",
    "four_winds": "four of the same wind discarded first", "suufon_renda": "four of the same wind discarded first",
}


def tile_words(tile: str) -> str:
    """One mpsz tile for a reader: ``6m``, ``red 5p``, ``White dragon``."""
    return code_words(T.parse_tile(tile))


def code_words(code: int) -> str:
    """One tile (an ``engine.core.tiles`` code) for a reader: ``6m``, ``red 5p``, ``White dragon``."""
    if T.is_red(code):
        return f"red 5{T.format_tiles([code])[-1]}"
    if code >= 27:
        return HONOURS[code - 27]
    return T.format_tiles([code])


def points(value: int) -> str:
    return f"{value:+,}" if value else "0"


class Table:
    """The seats of one round, named by their wind in this round and their number: ``East (seat 0)``."""

    def __init__(self, dealer: int, players: int) -> None:
        self.dealer = dealer
        self.players = players

    def name(self, seat: int) -> str:
        return f"{WINDS[(seat - self.dealer) % self.players]} (seat {seat})"

    def each(self, values: Sequence[Any], show: Any = str) -> str:
        """``East (seat 1) +1,000, South (seat 2) -1,000, ...``: one value per seat, from the dealer on."""
        order = [(self.dealer + k) % self.players for k in range(self.players)]
        return ", ".join(f"{self.name(s)} {show(values[s])}" for s in order)


def round_lines(log: Sequence[RoundEvent], settlement: Settlement | None, *, discards: bool = False) -> list[str]:
    """The play-by-play of one round from its records (``Round.log``) and settlement (None: the round did not
    finish)."""
    start = next((e for e in log if isinstance(e, StartKyoku)), None)
    if start is None:
        return ["(a round without a deal)"]
    table = Table(start.oya, len(start.scores))
    lines = [_deal(start, table)]
    lines += [f"  {line}" for line in _play(log, table, discards)]
    if settlement is None:
        lines.append("  The round stops here: it could not be played to its end.")
        return lines
    lines += [f"  {line}" for line in _outcome(log, settlement, table)]
    lines.append(f"  Points this round (riichi sticks included): {table.each(settlement.deltas, points)}.")
    lines.append(f"  Scores: {table.each(settlement.scores, lambda v: f'{v:,}')}.")
    return lines


def _deal(start: StartKyoku, table: Table) -> str:
    wind = start.bakaze
    wind_name = WINDS["ESWN".index(wind)] if wind in "ESWN" else tile_words(wind).removesuffix(" wind")
    number = (table.dealer % table.players) + 1
    return (
        f"{wind_name} {number}, honba {start.honba}, riichi sticks {start.kyotaku}: "
        f"dealer {table.name(table.dealer)}, dora indicator {code_words(start.dora_marker)}."
    )


def _play(log: Sequence[RoundEvent], table: Table, discards: bool) -> Iterator[str]:
    """Calls, riichi, kita and new dora in order; the discards counted (or listed) at the end."""
    thrown: dict[int, list[str]] = {s: [] for s in range(table.players)}
    for e in log:
        if isinstance(e, Dahai):
            thrown[e.actor].append(code_words(e.pai))
        elif isinstance(e, Meld):
            with_ = ", ".join(code_words(t) for t in e.consumed)
            yield f"{table.name(e.actor)} calls {CALLS[e.type]} on {table.name(e.target)}'s {code_words(e.pai)} (with {with_})."
        elif isinstance(e, Ankan):
            four = T.format_kind(T.kind_of(e.consumed[0]))  # the kind, red five or not
            yield f"{table.name(e.actor)} declares a closed kan of {tile_words(four)}."
        elif isinstance(e, Kakan):
            yield f"{table.name(e.actor)} adds {code_words(e.pai)} to a pon: an added kan."
        elif isinstance(e, Nukidora):
            yield f"{table.name(e.actor)} sets aside a kita (North wind)."
        elif isinstance(e, ReachAccepted):
            yield f"{table.name(e.actor)} declares riichi."
        elif isinstance(e, Dora):
            yield f"New dora indicator: {code_words(e.marker)}."
    if discards:
        for seat in _order(table):
            yield f"{table.name(seat)} discards: {' '.join(thrown[seat]) or 'nothing'}."
    else:
        yield "Discards: " + ", ".join(f"{table.name(s)} {len(thrown[s])}" for s in _order(table)) + "."


def _order(table: Table) -> list[int]:
    return [(table.dealer + k) % table.players for k in range(table.players)]


def _outcome(log: Sequence[RoundEvent], settlement: Settlement, table: Table) -> Iterator[str]:
    kind = settlement.kind
    if kind == "win":
        ura = {e.actor: e.ura_markers for e in log if isinstance(e, Hora)}
        for win in settlement.wins:
            yield from _win(win, table, ura.get(win.seat, ""))
    elif kind == "exhaustive":
        flags = settlement.tenpai or ()
        tenpai = [s for s in _order(table) if s < len(flags) and flags[s]]
        who = ", ".join(table.name(s) for s in tenpai) if tenpai else "nobody"
        yield f"Exhaustive draw: the wall is empty; in tenpai: {who}."
        for seat in settlement.nagashi or ():
            yield f"{table.name(seat)} has nagashi mangan."
    else:
        item = settlement.abortive or "triple_ron"
        yield f"Abortive draw ({item}): {ABORTIVE_WORDS.get(item, item.replace('_', ' '))}."


def _win(win: Win, table: Table, ura: str) -> Iterator[str]:
    seat, source = win.seat, win.source
    how = "tsumo" if seat == source else f"ron from {table.name(source)}"
    yield f"{table.name(seat)} wins by {how} on {code_words(win.tile)}."
    answer = win.result.answer  # the scorer's answer: its yaku lines, han, fu, limit and total
    yaku = []
    for y in answer.get("yaku", ()):
        if y.get("yakuman"):
            yaku.append(f"{y['name']} (yakuman" + (f" x{y['yakuman']})" if y["yakuman"] > 1 else ")"))
        else:
            yaku.append(f"{y['name']} {y['han']}")
    yield f"  Yaku (han): {', '.join(yaku)}."
    if answer.get("yakuman"):
        value = f"yakuman x{answer['yakuman']}" if answer["yakuman"] > 1 else "yakuman"
    else:
        value = f"{answer['han']} han {answer['fu']} fu" + (f", {answer['limit']}" if answer.get("limit") else "")
    markers = " ".join(code_words(c) for c in T.parse_tiles(ura)) if ura else ""
    yield f"  {value}: {answer['total']:,} points" + (f" (ura indicators {markers})" if markers else "") + "."


def final_lines(final_points: Sequence[int], scores: Sequence[float] | None = None, ended_by: str | None = None) -> list[str]:
    """The final table, first place first: each seat's points (and its score with uma and oka where known)."""
    order = sorted(range(len(final_points)), key=lambda s: (-final_points[s], s))
    lines = ["Final table" + (f" (the game ended: {ended_by.replace('_', ' ')})" if ended_by else "") + ":"]
    for place, seat in enumerate(order, 1):
        score = f", score {scores[seat]:+.1f}" if scores is not None else ""
        lines.append(f"  {place}. seat {seat}: {final_points[seat]:,} points{score}")
    return lines
