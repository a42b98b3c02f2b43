"""A round told in words: the play-by-play that ``riichi play --narrate`` and ``riichi replay --narrate`` print.

Both commands end each round with the same two things: the round engine's events (``Round.events``: mjai-style,
tiles in mpsz) and its settlement (the contract's round result, whose wins carry the score response's yaku). This
module reads only those, so a self-played round and a replayed log read alike. It tells what a player at the table
would say (the deal, calls, riichi, kita, new dora, each win with its yaku and value, each draw, the payments) and
counts the discards instead of listing them, unless asked to list them. Nothing here knows a rule: every number is
one the engine already settled.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.core import tiles as T

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
    code = T.parse_tile(tile)
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


def round_lines(events: Sequence[Mapping[str, Any]], settlement: Mapping[str, Any] | None, *, discards: bool = False) -> list[str]:
    """The play-by-play of one round from its events and settlement (None: the round did not finish)."""
    start = next((e for e in events if e.get("type") == "start_kyoku"), None)
    if start is None:
        return ["(a round without a deal)"]
    scores = list(start.get("scores", ()))
    table = Table(int(start["oya"]), len(scores))
    lines = [_deal(start, table)]
    lines += [f"  {line}" for line in _play(events, table, discards)]
    if settlement is None:
        lines.append("  The round stops here: it could not be played to its end.")
        return lines
    lines += [f"  {line}" for line in _outcome(events, settlement, table)]
    lines.append(f"  Points this round (riichi sticks included): {table.each(settlement['deltas'], points)}.")
    lines.append(f"  Scores: {table.each(settlement['scores'], lambda v: f'{v:,}')}.")
    return lines


def _deal(start: Mapping[str, Any], table: Table) -> str:
    wind = str(start.get("bakaze", "E"))
    wind_name = WINDS["ESWN".index(wind)] if wind in "ESWN" else tile_words(wind).removesuffix(" wind")
    number = (table.dealer % table.players) + 1
    return (
        f"{wind_name} {number}, honba {start.get('honba', 0)}, riichi sticks {start.get('kyotaku', 0)}: "
        f"dealer {table.name(table.dealer)}, dora indicator {tile_words(str(start['dora_marker']))}."
    )


def _play(events: Sequence[Mapping[str, Any]], table: Table, discards: bool) -> Iterator[str]:
    """Calls, riichi, kita and new dora in order; the discards counted (or listed) at the end."""
    thrown: dict[int, list[str]] = {s: [] for s in range(table.players)}
    for e in events:
        kind = e.get("type")
        actor = e.get("actor")
        if kind == "dahai" and isinstance(actor, int):
            thrown[actor].append(tile_words(str(e["pai"])))
        elif kind in CALLS and isinstance(actor, int):
            with_ = ", ".join(tile_words(str(t)) for t in e.get("consumed", ()))
            yield f"{table.name(actor)} calls {CALLS[str(kind)]} on {table.name(int(e['target']))}'s {tile_words(str(e['pai']))} (with {with_})."
        elif kind == "ankan" and isinstance(actor, int):
            four = T.format_kind(T.kind_of(T.parse_tile(str(e["consumed"][0]))))  # the kind, red five or not
            yield f"{table.name(actor)} declares a closed kan of {tile_words(four)}."
        elif kind == "kakan" and isinstance(actor, int):
            yield f"{table.name(actor)} adds {tile_words(str(e['pai']))} to a pon: an added kan."
        elif kind == "nukidora" and isinstance(actor, int):
            yield f"{table.name(actor)} sets aside a kita (North wind)."
        elif kind == "reach_accepted" and isinstance(actor, int):
            yield f"{table.name(actor)} declares riichi."
        elif kind == "dora":
            yield f"New dora indicator: {tile_words(str(e['dora_marker']))}."
    if discards:
        for seat in _order(table):
            yield f"{table.name(seat)} discards: {' '.join(thrown[seat]) or 'nothing'}."
    else:
        yield "Discards: " + ", ".join(f"{table.name(s)} {len(thrown[s])}" for s in _order(table)) + "."


def _order(table: Table) -> list[int]:
    return [(table.dealer + k) % table.players for k in range(table.players)]


def _outcome(events: Sequence[Mapping[str, Any]], settlement: Mapping[str, Any], table: Table) -> Iterator[str]:
    kind = settlement.get("kind")
    if kind == "win":
        ura = {int(e["actor"]): e.get("ura_markers") for e in events if e.get("type") == "hora"}
        for win in settlement.get("wins", ()):
            yield from _win(win, table, ura.get(int(win["seat"])))
    elif kind == "exhaustive":
        flags = list(settlement.get("tenpai", ()))
        tenpai = [s for s in _order(table) if s < len(flags) and flags[s]]
        who = ", ".join(table.name(s) for s in tenpai) if tenpai else "nobody"
        yield f"Exhaustive draw: the wall is empty; in tenpai: {who}."
        for seat in settlement.get("nagashi", ()):
            yield f"{table.name(seat)} has nagashi mangan."
    else:
        item = str(settlement.get("abortive") or "triple_ron")
        yield f"Abortive draw ({item}): {ABORTIVE_WORDS.get(item, item.replace('_', ' '))}."


def _win(win: Mapping[str, Any], table: Table, ura: Any) -> Iterator[str]:
    seat, source = int(win["seat"]), int(win["from"])
    how = "tsumo" if seat == source else f"ron from {table.name(source)}"
    yield f"{table.name(seat)} wins by {how} on {tile_words(str(win['win_tile']))}."
    yaku = []
    for y in win.get("yaku", ()):
        if y.get("yakuman"):
            yaku.append(f"{y['name']} (yakuman" + (f" x{y['yakuman']})" if y["yakuman"] > 1 else ")"))
        else:
            yaku.append(f"{y['name']} {y['han']}")
    yield f"  Yaku (han): {', '.join(yaku)}."
    if win.get("yakuman"):
        value = f"yakuman x{win['yakuman']}" if win["yakuman"] > 1 else "yakuman"
    else:
        value = f"{win['han']} han {win['fu']} fu" + (f", {win['limit']}" if win.get("limit") else "")
    markers = _ura(ura)
    yield f"  {value}: {win['total']:,} points" + (f" (ura indicators {markers})" if markers else "") + "."


def _ura(ura: Any) -> str:
    """Ura indicators (an mpsz string or a list of tiles) in words; empty when none were shown."""
    if not ura:
        return ""
    codes = T.parse_tiles(ura) if isinstance(ura, str) else [T.parse_tile(str(t)) for t in ura]
    return " ".join(tile_words(T.format_tiles([c])) for c in codes)


def final_lines(final_points: Sequence[int], scores: Sequence[float] | None = None, ended_by: str | None = None) -> list[str]:
    """The final table, first place first: each seat's points (and its score with uma and oka where known)."""
    order = sorted(range(len(final_points)), key=lambda s: (-final_points[s], s))
    lines = ["Final table" + (f" (the game ended: {ended_by.replace('_', ' ')})" if ended_by else "") + ":"]
    for place, seat in enumerate(order, 1):
        score = f", score {scores[seat]:+.1f}" if scores is not None else ""
        lines.append(f"  {place}. seat {seat}: {final_points[seat]:,} points{score}")
    return lines


def game_rounds(events: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """A game's events split into rounds, each from its ``start_kyoku`` (events before the first are dropped)."""
    rounds: list[list[Mapping[str, Any]]] = []
    for e in events:
        if e.get("type") == "start_kyoku":
            rounds.append([])
        if rounds:
            rounds[-1].append(e)
    return rounds
