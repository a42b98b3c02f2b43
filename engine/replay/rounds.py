"""Replaying whole games through the round engine: every move legal, every round settled as the log says.

For each log (mjlog, tenhou.net/6 JSON or mjai JSON lines) every round is played by ``engine.round.Round`` under
the rulebook (``through_round``); then its settlement is compared with the log: the outcome (a win, an exhaustive
draw, which abortive draw), each win's han, fu and yaku where the log gives them, the point changes, and the
honba, riichi sticks, dealer and scores the next round starts with. The last round's scores must be the game's
final points, and where the log gives the final table with uma and oka (mjlog ``owari``) the game engine's uma
and oka must give the same. Nothing here knows a rule: every number comes from the round and game engines.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from operator import add
from pathlib import Path
from typing import Any, Protocol

from engine.core.errors import EngineError, InternalError
from engine.game.progression import GameState, advance
from engine.game.result import final_points, final_scores
from engine.game.rules import GameRules
from engine.replay.compare import yaku_view
from engine.replay.events import (
    AbortiveDraw,
    Dahai,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    RoundStart,
    Tsumo,
    Win,
)
from engine.replay.positions import Places
from engine.replay.reading import read_source
from engine.replay.through_round import ROUND_WINDS, Mismatch, RoundReplay, replay_round
from engine.replay.win_situations import logged_yaku
from engine.round.rules import RoundRules, round_rules
from engine.round.settlement import Settlement
from engine.scoring.score import Scorer
from ruledsl.caches import lru, once
from ruledsl.record import field, record, replace

# the names a folder's logs go by, gzipped or not: a file given by its path is read whatever its name, and every
# log's format (and whether it is gzipped) is read from its content (``engine.replay.reading``)
_PLAIN_LOG_NAMES = (".mjlog", ".xml", ".json", ".mjson", ".jsonl")
LOG_NAMES = (*_PLAIN_LOG_NAMES, *(suffix + ".gz" for suffix in _PLAIN_LOG_NAMES))


@record(frozen=False, slots=False)
class ReplayReport:
    """Counts and mismatches over every file replayed; ``skipped`` and ``errors`` name files not replayed."""

    games: int = 0
    rounds: int = 0
    rounds_matched: int = 0
    wins: int = 0
    actions: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, str]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    notes: list[dict[str, str]] = field(default_factory=list)  # what a log could not be compared on, and why

    def merge(self, part: ReplayReport) -> None:
        """Add the report of more files (a file's part, replayed here or in a worker process) after the files
        already counted: the one place that knows how parts combine, so a run on one core and a run on many give
        the same report when the parts are merged in the order of the files."""
        self.games += part.games
        self.rounds += part.rounds
        self.rounds_matched += part.rounds_matched
        self.wins += part.wins
        self.actions += part.actions
        self.mismatches.extend(part.mismatches)
        self.errors.extend(part.errors)
        self.skipped.extend(part.skipped)
        self.notes.extend(part.notes)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "rounds": self.rounds,
            "rounds_matched": self.rounds_matched,
            "wins": self.wins,
            "actions": self.actions,
            "mismatches": self.mismatches,
            "errors": self.errors,
            "skipped": self.skipped,
            "notes": self.notes,
        }


@once
def _private_lobbies() -> dict[str, str]:
    data = json.loads(resources.files("rulebooks").joinpath("log_rules.json").read_text(encoding="utf-8"))
    return dict(data.get("private_lobbies", {}))


def _final_scores_unknown(start: GameStart) -> str | None:
    """Why the log's final table with uma and oka cannot be compared (a private lobby sets its own uma, which the
    log does not record: ``private_lobbies`` in ``rulebooks/log_rules.json``), or None when it can."""
    if start.lobby == 0 or _private_lobbies().get("final_scores") != "not_compared":
        return None
    lobby = f"lobby {start.lobby}" if start.lobby > 0 else "a lobby"
    return f"final scores with uma and oka not compared: {lobby} is a private lobby, whose uma and return the log does not record"


@once
def _abortive_items() -> dict[str, str]:
    data = json.loads(resources.files("rulebooks").joinpath("log_rules.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data["abortive"].items() if k != "about"}


def _named_as_log(path: Path) -> bool:
    """Whether a folder's file is taken for a log, by its name alone: its content decides its format."""
    return path.name.lower().endswith(LOG_NAMES)


def read_events(path: Path) -> list[Event]:
    return read_events_at(path)[0]


def read_events_at(path: Path) -> tuple[list[Event], Places]:
    """The log's events and where in the file each is written (``engine.replay.positions``); its format is read
    from its content (``engine.replay.reading``), as ``riichi replay`` reads it."""
    events, places, _ = read_source(str(path), Path(path))
    return events, places


def log_files(paths: Iterable[str], report: ReplayReport | None = None) -> list[Path]:
    """Every log under ``paths`` (folders searched recursively); other files in a folder are noted as skipped."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for p in sorted(path.rglob("*")):
                if not p.is_file():
                    continue
                if _named_as_log(p):
                    files.append(p)
                elif report is not None and not p.name.startswith("."):
                    report.skipped.append({"file": str(p), "reason": "not a game log (by its name)"})
        else:
            files.append(path)
    return files


def game_start(events: list[Event]) -> GameStart:
    """The log's game start (its first event, as every reader writes it), without splitting the rounds: what
    choosing the rulebook needs before the replay splits them."""
    start = next((e for e in events if isinstance(e, GameStart)), None)
    if start is None:
        raise EngineError("no game start found")
    return start


def _positions(kinds: list[type], kind: type) -> list[int]:
    """Where ``kind`` stands in ``kinds``, by C-level searches (``list.index``) rather than a Python loop over every
    event."""
    found: list[int] = []
    at = -1
    try:
        while True:
            at = kinds.index(kind, at + 1)
            found.append(at)
    except ValueError:
        return found


def split_rounds(events: list[Event]) -> tuple[GameStart, list[tuple[int, RoundStart, list[Event]]], GameEnd | None]:
    """The game start, each round as (index of its start, start, body), and the game end when the log has one."""
    start = next((e for e in events if isinstance(e, GameStart)), None)
    if start is None:
        raise EngineError("no game start found")
    # the round starts and the game's end found by exact type (no event kind has subclasses) in C-level searches of
    # the events' types, each body then cut as one slice: a game is some 1,500 events, of which a dozen start a round
    kinds = list(map(type, events))
    starts = _positions(kinds, RoundStart)
    ends = _positions(kinds, GameEnd)  # once, at the end of a whole log
    end: GameEnd | None = events[ends[-1]] if ends else None  # type: ignore[assignment]
    rounds: list[tuple[int, RoundStart, list[Event]]] = []
    for number, index in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else len(events)
        body = events[index + 1 : stop]
        if ends and ends[-1] > index and ends[0] < stop:  # the game's end is no round's event
            body = [e for e in body if type(e) is not GameEnd]
        rounds.append((index, events[index], body))  # type: ignore[arg-type]
    return start, rounds, end


def compare_settlement(
    played: RoundReplay, start: RoundStart, body: list[Event], nxt: RoundStart | None, event: int,
    outcome: tuple[list[Win], ExhaustiveDraw | AbortiveDraw | None] | None = None,
) -> list[Mismatch]:
    """The finished round against the log: outcome, wins, point changes, and what the next round starts with
    (``outcome``: the body's ``outcome_events`` when the caller has them already)."""
    rnd = played.round
    assert rnd is not None and rnd.settled is not None
    s = rnd.settled
    out: list[Mismatch] = []

    def differ(what: str, expected: Any, got: Any, note: str = "") -> None:
        out.append(Mismatch(start.label, event, what, expected, got, note))  # the label worded only for a mismatch

    wins, draw = outcome if outcome is not None else outcome_events(body)
    if wins:
        kind = "win"
    elif isinstance(draw, AbortiveDraw):
        kind = "abortive"
    else:
        kind = "exhaustive"
    if s.kind != kind:
        differ("outcome", kind, s.kind)
        return out
    if isinstance(draw, AbortiveDraw):
        want = _abortive_items().get(draw.kind, draw.kind)
        item = s.abortive or "triple_ron"
        if item != want and not (draw.kind == "triple_ron" and s.abortive is None):
            differ("abortive draw", want, item)
    if wins:
        engine_wins = {w.seat: w.result.answer for w in s.wins}  # each win's score response
        for win in wins:
            mine = engine_wins.get(win.who)
            if mine is None:
                differ(f"win by seat {win.who}", "a win", "no win")
                continue
            if win.yaku or win.yakuman:
                diff = _compare_value(win, mine)
                if diff is not None:
                    differ(f"value of the win by seat {win.who}", diff[0], diff[1])
    players = len(start.scores)
    logged = _logged_deltas(wins, draw, players)
    if logged is not None:
        got = list(map(add, s.deltas, rnd.deposits))[:players]  # players: the log's scores, 0 when it gives none
        if got != logged:
            differ("point changes", logged, got, "before the riichi deposits of this round")
    if nxt is not None:
        n = s.next
        if nxt.honba != n.honba_next:
            differ("honba of the next round", nxt.honba, n.honba_next)
        if nxt.sticks != n.sticks_next:
            differ("riichi sticks of the next round", nxt.sticks, n.sticks_next)
        if nxt.dealer != n.dealer_next:
            differ("dealer of the next round", nxt.dealer, n.dealer_next)
        if list(nxt.scores) != list(s.scores):
            differ("scores of the next round", list(nxt.scores), list(s.scores))
    return out


def outcome_events(body: list[Event]) -> tuple[list[Win], ExhaustiveDraw | AbortiveDraw | None]:
    """The log's wins of a round and its first draw event (exhaustive or abortive), in one pass that steps over
    the draws and discards (nearly every event) without an isinstance test: asked of every replayed round."""
    wins: list[Win] = []
    draw: ExhaustiveDraw | AbortiveDraw | None = None
    for e in body:
        kind = type(e)
        if kind is Dahai or kind is Tsumo:
            continue
        if isinstance(e, Win):
            wins.append(e)
        elif draw is None and isinstance(e, (ExhaustiveDraw, AbortiveDraw)):
            draw = e
    return wins, draw


def _logged_deltas(wins: list[Win], draw: Event | None, players: int) -> list[int] | None:
    if wins:
        if len(wins) == 1:  # nearly every win: its own deltas, as the sum over one win gives them
            deltas = wins[0].deltas
            return list(deltas) if len(deltas) == players else None
        if any(len(w.deltas) != players for w in wins):
            return None
        return [sum(w.deltas[i] for w in wins) for i in range(players)]
    if isinstance(draw, (ExhaustiveDraw, AbortiveDraw)) and len(draw.deltas) == players:
        return list(draw.deltas)
    return None


def _compare_value(win: Win, mine: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The log's han, fu and yaku against the round's score response, as ``expected_result`` reads them off the
    log (only the parts compared, not the whole result); None when they agree. A yakuman hand compares its yakuman
    count, any other its han, and its fu where the log gives them."""
    got = {"yaku": yaku_view(mine), "yakuman": mine.get("yakuman", 0)}
    want = {"yaku": logged_yaku(win), "yakuman": len(win.yakuman)}
    if not win.yakuman:
        got["han"], want["han"] = mine["han"], sum(han for _, han in win.yaku)
        if win.fu is not None:
            got["fu"], want["fu"] = mine["fu"], win.fu
    else:
        got["yakuman"] = sum(1 for y in got["yaku"] if "yakuman" in y)
    return None if got == want else (want, got)


class GameFollower:
    """Follows the game engine's progression round by round: the next round's wind and dealer, the end of the
    game exactly where the log ends, and the final points (leftover sticks, uma and oka) of the game engine."""

    def __init__(self, rules: RoundRules, first: RoundStart) -> None:
        self.rules = GameRules.of(rules.rulebook)
        wind = ROUND_WINDS[first.round_index // 4 % 4]
        index = self.rules.winds.index(wind) if wind in self.rules.winds else 0
        self.state: GameState | None = GameState(index, first.dealer, first.honba, first.sticks, tuple(first.scores))

    def after(self, settlement: Settlement, nxt: RoundStart | None, label: str, event: int) -> list[Mismatch]:
        """Advance by one settled round; compare with the round the log plays next (None: the log's last)."""
        if self.state is None:
            return []
        try:
            self.state = advance(self.rules, self.state, settlement)
        except ValueError as exc:
            self.state = None
            return [Mismatch(label, event, "game progression", "the game goes on", str(exc))]
        state = self.state
        if nxt is None:
            return []
        if state.finished:
            return [Mismatch(label, event, "end of the game", "the game goes on", f"the game ends here ({state.ended_by})")]
        want = (ROUND_WINDS[nxt.round_index // 4 % 4], nxt.dealer)
        got = (state.round_wind(self.rules), state.dealer)
        if want != got:
            return [Mismatch(label, event, "next round", f"{want[0]}{want[1] + 1}", f"{got[0]}{got[1] + 1}")]
        return []

    def end(self, end: GameEnd, label: str, with_scores: bool = True) -> list[Mismatch]:
        """The log's final table against the game engine's: the game must have ended, on the same points, and
        (``with_scores``) the same scores after uma and oka."""
        state = self.state
        if state is None:
            return []
        out: list[Mismatch] = []
        if not state.finished:
            out.append(Mismatch(label, None, "end of the game", "the game ends here", "the game goes on"))
        points = list(final_points(self.rules, state))
        if end.scores and list(end.scores) != points:
            out.append(Mismatch(label, None, "final points", list(end.scores), points))
        elif with_scores and end.placement_points and len(end.placement_points) == len(points):
            got = [float(x) for x in final_scores(self.rules, points)]
            want = [float(x) for x in end.placement_points]
            if any(abs(a - b) > 1e-6 for a, b in zip(got, want, strict=True)):
                out.append(Mismatch(label, None, "final scores with uma and oka", want, got))
        return out


RoundObserver = Callable[[str, RoundReplay], None]


def replay_events(
    events: list[Event], rules: RoundRules, source: str, report: ReplayReport, places: Places | None = None,
    on_round: RoundObserver | None = None,
) -> None:
    """Replay one parsed game into ``report``; ``places`` (the reader's, one per event) name each mismatch's place
    in the file; ``on_round`` sees each round as played (``riichi replay --narrate`` tells it in words)."""
    start_game, rounds, end = split_rounds(events)
    here = _Locator(places, rounds, len(events))
    report.games += 1
    game = GameFollower(rules, rounds[0][1]) if rounds else None
    for k, (index, start, body) in enumerate(rounds):
        nxt = rounds[k + 1][1] if k + 1 < len(rounds) else None
        try:
            played = replay_round(rules, start, body, index + 1, first_round=k == 0)
        except EngineError as exc:
            played = RoundReplay(start.label, mismatches=[Mismatch(start.label, index, "replay", "the round replays", exc.message)])
        except InternalError:
            raise
        except Exception as exc:  # a bug of the round engine, not a log that differs: never counted as a mismatch
            raise InternalError.of(exc, f"replaying {start.label} of {source}") from exc
        if on_round is not None:
            on_round(source, played)
        mismatches = played.mismatches  # read, never changed here: a new list when more are added
        settled = played.round.settled if played.round is not None else None
        outcome = played.outcome or outcome_events(body)  # gathered by the replay when it went through the body
        if not mismatches and settled is not None:
            mismatches = compare_settlement(played, start, body, nxt, index + 1 + len(body), outcome)
        if game is not None:
            if settled is not None:
                # the round's label as the replay worded it (``start.label`` words it anew at each read)
                followed = game.after(settled, nxt, played.label, index + 1 + len(body))
                if followed:
                    mismatches = mismatches + followed
            else:
                game.state = None  # a round the engine could not settle: the game cannot be followed further
        report.rounds += 1
        report.actions += played.actions
        report.wins += len(outcome[0])
        if not mismatches:
            report.rounds_matched += 1
        else:
            report.mismatches.extend(_entry(source, here.locate(m, k)) for m in mismatches)
    if end is not None and game is not None and rounds:
        unknown = _final_scores_unknown(start_game)
        if unknown is not None and end.placement_points:
            report.notes.append({"file": source, "note": unknown})
        for m in game.end(end, rounds[-1][1].label, with_scores=unknown is None):
            report.mismatches.append(_entry(source, here.locate(m, len(rounds) - 1)))


def _entry(source: str, m: Mismatch) -> dict[str, Any]:
    return {"file": source, **m.to_json(), "text": m.text()}


class _Locator:
    """Puts the file's place on a game's mismatches: the event's own, or for a mismatch past a round's last event
    (its settlement, the next round's counters) that last event, where the log writes the outcome; a mismatch of
    the game's end (no event) the log's final table."""

    def __init__(self, places: Places | None, rounds: list[tuple[int, RoundStart, list[Event]]], count: int) -> None:
        self.places = places
        self.last = [index + len(body) for index, _, body in rounds]  # each round's last event
        self.end = count - 1

    def locate(self, m: Mismatch, round_number: int) -> Mismatch:
        if self.places is None or not self.last:
            return m
        index = self.end if m.event is None else min(m.event, self.last[round_number])
        at = self.places.at(index)
        return m if at is None else replace(m, at=at)


@lru(64)
def _rules_named(name: str, scorer_of: Callable[[str], Scorer]) -> RoundRules:
    return round_rules(scorer_of(name))


class Narrator(Protocol):
    """Tells replayed rounds in words (``riichi replay --narrate``): called with each round as it is played, then
    asked once per file for the words of that file's rounds. It keeps words, not rounds, so that a worker process
    sends back only text; it must pickle to be used with several workers (each file gets a fresh copy there)."""

    def __call__(self, source: str, played: RoundReplay) -> None: ...

    def told(self) -> str:
        """The words for the rounds seen since the last call (empty when none), then forgotten."""
        ...


@record(frozen=True)
class FileReplay:
    """One file's share of a replay: its part of the report and, when narrated, its story. All that a worker
    process sends back: the parsed events stay (and die) where the file was replayed."""

    path: str
    part: ReplayReport
    story: str = ""


def replay_file(path: str, rulebook: str | None, scorer_of: Callable[[str], Scorer], narrator: Narrator | None = None) -> FileReplay:
    """Replay one log file into a report of its own (``rulebook`` None: the log's own rules), as ``replay`` does
    each file (``engine.replay.batch``). A file that cannot be read is in its ``errors``; an engine failure raises
    ``InternalError``, naming the round."""
    from engine.replay.batch import replay_source  # at call time: the batch module builds on this one

    return replay_source((path, Path(path)), rulebook, scorer_of, narrator)


def replay(
    paths: Iterable[str],
    rulebook: str | None,
    scorer_of: Callable[[str], Scorer],
    progress: Callable[[int, int, str], None] | None = None,
    narrator: Narrator | None = None,
    on_story: Callable[[str], None] | None = None,
    workers: int | None = 1,
) -> ReplayReport:
    """Replay every log under ``paths``; ``rulebook`` None means each log's own rules. A folder's files are chosen
    by name (``LOG_NAMES``), but each file's format is read from its content (``engine.replay.batch``, as for a log
    held in memory). A file that cannot be read is reported in ``errors`` and skipped; every other file is still
    replayed.

    ``workers`` above 1 (None: all cores) replays the files in that many processes (``engine.core.pool``; never
    more than there are files, so one file is replayed here, with no pool to start), each loading its rulebooks
    through ``scorer_of`` (which must then pickle: a module-level function); the parts are merged in the order of
    the files, so the report is the one a single process gives. ``progress`` is called as each file is done (files
    done, files in all, the file); ``narrator`` tells the rounds, and ``on_story`` receives each file's words, in
    the order of the files."""
    from engine.replay.batch import replay_sources  # at call time: the batch module builds on this one

    report = ReplayReport()
    sources = [(str(path), path) for path in log_files(paths, report)]
    return replay_sources(sources, rulebook, scorer_of, report, progress, narrator, on_story, workers)
