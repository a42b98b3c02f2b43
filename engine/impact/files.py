"""One log file re-settled: every round with a win re-scored, and the game's final scores carried forward under B.

A file is read whole (one game is small) and handed back as a ``FileImpact`` holding only what the report needs:
counts, the changed rounds, the rounds left out and why, and the game's placements under A and B. The game is
compared only while its rounds stay comparable: a win B refuses (the round would have gone on), a changed
liability win, a round A does not reproduce, or a score that goes below zero under B alone (the game could have
ended there) stops the comparison, and the report names the round where it stopped.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.errors import EngineError
from engine.impact.rescore import WinImpact, reproduces, rescore
from engine.impact.variants import Rules
from engine.replay.events import Event, GameEnd, RoundStart, round_label
from engine.replay.rounds import read_events
from engine.replay.win_situations import WinCase, win_cases
from ruledsl.record import field, record

if TYPE_CHECKING:  # the round engine is imported only when rounds are re-settled (see ``impact_of_file``)
    from engine.impact.flow import FlowFile, FlowRules


@record(slots=False)
class RoundImpact:
    """A round with at least one win whose result B changes (a double ron lists both wins)."""

    file: str
    label: str
    wins: tuple[WinImpact, ...]

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "round": self.label, "wins": [w.to_json() for w in self.wins]}


@record(slots=False)
class GameImpact:
    """A game's final scores and placements under A (the log) and B; ``diverged`` says where comparison stopped."""

    file: str
    scores_a: tuple[int, ...]
    scores_b: tuple[int, ...] | None
    diverged: str | None  # "S2-1: the win of seat 3 has no yaku under B", say
    left_out: bool = False  # A does not play the game as the log did (``diverged`` says where): not compared

    @property
    def placements_a(self) -> tuple[int, ...]:
        return placements(self.scores_a)

    @property
    def placements_b(self) -> tuple[int, ...] | None:
        return placements(self.scores_b) if self.scores_b is not None else None

    @property
    def placement_changed(self) -> bool:
        return self.placements_b is not None and self.placements_b != self.placements_a

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "scores_a": list(self.scores_a),
            "scores_b": list(self.scores_b) if self.scores_b is not None else None,
            "placements_a": list(self.placements_a),
            "placements_b": list(self.placements_b) if self.placements_b is not None else None,
            "placement_changed": self.placement_changed,
            "diverged": self.diverged,
            "left_out": self.left_out,
        }


def placements(scores: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's place (1 = top); equal scores go to the seat nearer the first dealer (seat 0), as on Tenhou."""
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    places = [0] * len(scores)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return tuple(places)


@record(frozen=False, slots=False)
class FileImpact:
    """What one log file contributes to the report."""

    file: str
    rounds: int = 0
    win_rounds: int = 0
    wins: list[WinImpact] = field(default_factory=list)  # every re-scored win, changed or not
    changed: list[RoundImpact] = field(default_factory=list)
    left_out: list[dict[str, Any]] = field(default_factory=list)  # rounds A does not reproduce
    game: GameImpact | None = None
    error: str | None = None  # the file could not be read at all (or stopped part-way)
    flow: FlowFile | None = None  # whole rounds re-settled through the round engine (None: wins only)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "rounds": self.rounds,
            "rounds_with_wins": self.win_rounds,
            "wins": [w.to_json() for w in self.wins],
            "changed_rounds": [r.to_json() for r in self.changed],
            "left_out": self.left_out,
            "game": self.game.to_json() if self.game is not None else None,
            "error": self.error,
            "flow_rounds": [r.to_json() for r in self.flow.changed or []] if self.flow is not None else None,
        }


def impact_of_file(rules: Rules, path: str | Path, flow: FlowRules | None = None) -> FileImpact:
    """Re-score every win of one log under A and B and, given ``flow``, re-settle every round through the round
    engine; never raises for a bad log (``error`` says what went wrong)."""
    path = Path(path)
    out = FileImpact(file=str(path))
    try:
        events = read_events(path)
    except EngineError as exc:
        out.error = exc.message
        return out
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        out.error = f"cannot read the log: {type(exc).__name__}: {exc}"
        return out
    out.rounds = sum(1 for e in events if isinstance(e, RoundStart))
    cases: list[WinCase] = []
    try:
        cases = list(win_cases(events, source=str(path)))
    except EngineError as exc:
        out.error = exc.message
    _rounds(rules, cases, out)
    if flow is not None and out.error is None:
        from engine.impact.flow import flow_of_file

        rescored = {r.label: tuple(dict.fromkeys(c.item for w in r.wins for c in w.charges)) for r in out.changed}
        out.flow = flow_of_file(flow, events, out.file, rescored)
        out.game = _flow_game(events, out)
    else:
        out.game = _game(events, out)
    return out


def _flow_game(events: list[Event], out: FileImpact) -> GameImpact | None:
    """The game as the round engine followed it under B (``engine.impact.flow``)."""
    end = next((e for e in events if isinstance(e, GameEnd)), None)
    if end is None or out.flow is None:
        return None
    flow = out.flow
    return GameImpact(out.file, tuple(end.scores), flow.game_scores_b, flow.game_diverged, flow.game_left_out)


def _grouped(cases: Iterable[WinCase]) -> list[list[WinCase]]:
    """The wins of each round together (a double ron gives two wins with one label)."""
    groups: list[list[WinCase]] = []
    for case in cases:
        if groups and groups[-1][0].round_label == case.round_label:
            groups[-1].append(case)
        else:
            groups.append([case])
    return groups


def _rounds(rules: Rules, cases: list[WinCase], out: FileImpact) -> None:
    for group in _grouped(cases):
        out.win_rounds += 1
        label = group[0].round_label
        differences = [d for d in (reproduces(rules, case) for case in group) if d is not None]
        if differences:
            out.left_out.append({"file": out.file, "round": label, "reason": _reason(differences[0])})
            continue
        wins = [rescore(rules, case) for case in group]
        out.wins.extend(wins)
        if any(w.changed for w in wins):
            out.changed.append(RoundImpact(out.file, label, tuple(wins)))


def _reason(difference: dict[str, Any]) -> str:
    got, want = difference.get("got", {}), difference.get("expected", {})
    if "error" in got:
        return f"A refuses the win: {got['error'].get('code')}"
    keys = [k for k in want if got.get(k) != want.get(k)]
    return "A does not reproduce the log: " + ", ".join(f"{k} {got.get(k)} (log {want.get(k)})" for k in keys)


def _game(events: list[Event], out: FileImpact) -> GameImpact | None:
    """Without the round engine (``--wins-only``): final scores under A and B, B's carried forward win by win while
    the rounds stay comparable. Flow rules (renchan, game end) are not replayed here; ``engine.impact.flow`` does."""
    starts = [e for e in events if isinstance(e, RoundStart)]
    end = next((e for e in events if isinstance(e, GameEnd)), None)
    if end is None or not starts or out.error:
        return None
    scores_a = tuple(end.scores)
    by_round: dict[str, list[WinImpact]] = {}
    for win in out.wins:
        by_round.setdefault(win.round_label, []).append(win)
    left_out = {entry["round"] for entry in out.left_out}
    shift = [0] * len(scores_a)
    after_each = [nxt.scores for nxt in starts[1:]] + [scores_a]  # A's scores after each round, as the log has them
    for start, after in zip(starts, after_each, strict=True):
        label = round_label(start.round_index, start.honba)
        stop = _stop_reason(label, by_round.get(label, []), label in left_out)
        if stop is None:
            for win in by_round.get(label, []):
                for seat, (a, b) in enumerate(zip(win.a.seat_deltas, win.b.seat_deltas, strict=True)):
                    shift[seat] += b - a
            below = [s for s in range(len(shift)) if after[s] + shift[s] < 0 <= after[s]]
            if below:
                stop = f"{label}: seat {below[0]} goes below zero under B only (the game could have ended there)"
        if stop is not None:
            return GameImpact(out.file, scores_a, None, stop, left_out=label in left_out)
    return GameImpact(out.file, scores_a, tuple(a + s for a, s in zip(scores_a, shift, strict=True)), None)


def _stop_reason(label: str, wins: list[WinImpact], left_out: bool) -> str | None:
    if left_out:
        return f"{label}: A does not reproduce this round, so B cannot be compared from here"
    for win in wins:
        if win.illegal:
            return f"{label}: the win of seat {win.seat} is not a legal win under B (the round would have gone on)"
        if win.liability and win.changed:
            return f"{label}: a changed liability (pao) win; its payers are not re-settled here"
    return None
