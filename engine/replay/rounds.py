"""Replaying whole games against a rulebook: every win, every draw, and the table counters between rounds.

For each round we recompute what the rulebook says should have happened and compare it with the log: each
win's han, fu, yaku, value and point changes (liability included); exhaustive-draw payments (noten payments or
nagashi mangan); whether the rulebook allows the abortive draw the log shows; and the honba and riichi sticks
the next round starts with. The round engine of a later issue will replace the counter logic with its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.replay.compare import compare_win, rulebook_for
from engine.replay.events import (
    AbortiveDraw,
    Event,
    ExhaustiveDraw,
    GameStart,
    RiichiDeclared,
    RoundStart,
    Win,
)
from engine.replay.mjlog import read_mjlog
from engine.replay.situation import win_cases
from engine.replay.tenhou6 import read_tenhou6
from engine.score import Scorer


@dataclass
class RoundReport:
    file: str
    label: str
    mismatches: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class ReplayReport:
    games: int = 0
    rounds: int = 0
    rounds_matched: int = 0
    wins: int = 0
    mismatches: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "rounds": self.rounds,
            "rounds_matched": self.rounds_matched,
            "wins": self.wins,
            "mismatches": self.mismatches,
        }


@cache
def _abortive_items() -> dict[str, str]:
    data = json.loads(resources.files("rulebooks").joinpath("log_rules.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data["abortive"].items() if k != "about"}


def read_events(path: Path) -> list[Event]:
    return read_tenhou6(path) if path.suffix == ".json" else read_mjlog(path)


def log_files(paths: Iterable[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".mjlog", ".xml", ".json")))
        else:
            files.append(path)
    return files


def replay_file(path: Path, scorer_for: Callable[[GameStart], Scorer], report: ReplayReport) -> None:
    events = read_events(path)
    rules = next((e for e in events if isinstance(e, GameStart)), None)
    if rules is None:
        raise EngineError(f"{path}: no game start found")
    scorer = scorer_for(rules)
    cases = {id(c.win): c for c in win_cases(events, str(path))}
    report.games += 1
    rounds: list[tuple[RoundStart, list[Event]]] = []
    for event in events:
        if isinstance(event, RoundStart):
            rounds.append((event, []))
        elif rounds:
            rounds[-1][1].append(event)
    for index, (start, body) in enumerate(rounds):
        nxt = rounds[index + 1][0] if index + 1 < len(rounds) else None
        round_report = RoundReport(str(path), start.label)
        _check_round(start, body, nxt, scorer, cases, round_report, report)
        report.rounds += 1
        if not round_report.mismatches:
            report.rounds_matched += 1
        for mismatch in round_report.mismatches:
            report.mismatches.append({"file": str(path), "round": start.label, **mismatch})


def _check_round(start, body, nxt, scorer: Scorer, cases, out: RoundReport, report: ReplayReport) -> None:
    rb = scorer.rulebook
    established = sum(1 for e in body if isinstance(e, RiichiDeclared) and e.step == 2)
    wins = [e for e in body if isinstance(e, Win)]
    outcome = next((e for e in body if isinstance(e, (ExhaustiveDraw, AbortiveDraw))), None)
    for win in wins:
        report.wins += 1
        case = cases.get(id(win))
        if case is None:
            continue
        diff = compare_win(case, scorer)
        if diff is not None:
            out.mismatches.append({"what": f"win by seat {win.who}", **diff})
        else:
            deltas = _win_deltas(case, scorer, start)
            if deltas is not None and list(deltas) != list(win.deltas):
                out.mismatches.append({"what": f"point changes of the win by seat {win.who}", "expected": list(win.deltas), "got": deltas})
    if isinstance(outcome, ExhaustiveDraw):
        got = _draw_deltas(outcome, scorer, start)
        if got is not None and list(got) != list(outcome.deltas):
            out.mismatches.append({"what": "exhaustive draw payments", "expected": list(outcome.deltas), "got": got})
    if isinstance(outcome, AbortiveDraw):
        item = _abortive_items().get(outcome.kind)
        allowed = {name for (kind, name) in rb.resolved.items if kind == "abortive_draw"}
        if item not in allowed:
            out.mismatches.append({"what": "abortive draw", "expected": outcome.kind, "got": "not an abortive draw under this rulebook"})
    if nxt is not None:
        expected = (nxt.honba, nxt.sticks)
        got = _next_counters(rb, start, established, wins, outcome)
        if got is not None and got != expected:
            out.mismatches.append({"what": "honba and riichi sticks of the next round", "expected": list(expected), "got": list(got)})


def _players(start: RoundStart) -> int:
    return len(start.scores)


def _win_deltas(case, scorer: Scorer, start: RoundStart) -> list[int] | None:
    try:
        result = scorer.score(case.request)
    except EngineError:
        return None
    win = case.win
    n = _players(start)
    deltas = [0] * n
    payments = result["payments"]
    liability = _liability(scorer, result, win)
    if win.tsumo:
        for seat in range(n):
            if seat == win.who:
                continue
            deltas[seat] -= payments.get("dealer" if seat == start.dealer else "non_dealer", 0)
        if liability is not None:
            liable, share = liability
            owed = -sum(deltas) * share // 100
            deltas = [0] * n
            deltas[liable] -= owed
    else:
        amount = payments.get("ron", 0)
        if liability is not None and liability[0] != win.from_who:
            liable, share = liability
            honba = case.request.get("honba", 0)
            bonus = _honba_ron(scorer, honba)
            core = amount - bonus
            deltas[liable] -= core * share // 100
            deltas[win.from_who] -= core - core * share // 100 + bonus
        else:
            deltas[win.from_who] -= amount
    deltas[win.who] += result["total"]
    return deltas


def _honba_ron(scorer: Scorer, honba: int) -> int:
    if not honba:
        return 0
    with_honba = scorer.settle(1, 30, dealer=False, tsumo=False, honba=honba)["total"]
    without = scorer.settle(1, 30, dealer=False, tsumo=False, honba=0)["total"]
    return with_honba - without


def _liability(scorer: Scorer, result: dict[str, Any], win: Win) -> tuple[int, int] | None:
    """(liable seat, percent) when a liability rule covers one of the hand's yakuman and the log names a feeder."""
    if win.pao_who is None or win.pao_who == win.who:
        return None
    ids = {line["id"] for line in result["yaku"]}
    for rule in scorer.rulebook.of("liability"):
        affects = set(rule.fields.get("affects", ()))
        if ids & affects:
            key = "tsumo_liable" if win.tsumo else "ron_liable"
            return win.pao_who, rule.fields[key]({})
    return None


def _draw_deltas(outcome: ExhaustiveDraw, scorer: Scorer, start: RoundStart) -> list[int] | None:
    n = _players(start)
    deltas = [0] * n
    draws = scorer.rulebook.of("draw")
    if outcome.kind == "nagashi_mangan":
        rule = next((r for r in draws if "pays_as" in r.fields), None)
        if rule is None:
            return None
        tier = rule.fields["pays_as"]({})
        # the log marks the nagashi seats by their gains; recompute each one's tsumo payment
        winners = [seat for seat, d in enumerate(outcome.deltas) if d > 0]
        for seat in winners:
            paid = scorer.pay_tier(tier, dealer=seat == start.dealer)
            for other in range(n):
                if other != seat:
                    amount = paid["payments"].get("dealer" if other == start.dealer else "non_dealer", 0)
                    deltas[other] -= amount
                    deltas[seat] += amount
        return deltas
    rule = next((r for r in draws if "total" in r.fields), None)
    if rule is None:
        return deltas
    total = rule.fields["total"]({})
    tenpai = set(outcome.tenpai)
    if 0 < len(tenpai) < n:
        for seat in range(n):
            if seat in tenpai:
                deltas[seat] += total // len(tenpai)
            else:
                deltas[seat] -= total // (n - len(tenpai))
    return deltas


def _next_counters(rb, start: RoundStart, established: int, wins: list[Win], outcome) -> tuple[int, int] | None:
    game = rb.settings.get("game", {})
    increase = set(game.get("honba_increase", ()))
    reset = set(game.get("honba_reset", ()))
    honba, sticks = start.honba, start.sticks + established
    if wins:
        dealer_won = any(w.who == start.dealer for w in wins)
        if dealer_won and "dealer_win" in increase:
            honba += 1
        elif not dealer_won and "non_dealer_win" in reset:
            honba = 0
        sticks = 0
    elif isinstance(outcome, ExhaustiveDraw):
        if "exhaustive" in increase:
            honba += 1
    elif isinstance(outcome, AbortiveDraw):
        if "abortive" in increase:
            honba += 1
    else:
        return None
    return honba, sticks


def replay(paths: Iterable[str], rulebook: str | None, scorer_of: Callable[[str], Scorer]) -> ReplayReport:
    """Replay every log under ``paths``; ``rulebook`` None means each log's own rules."""
    report = ReplayReport()

    def scorer_for(rules: GameStart) -> Scorer:
        return scorer_of(rulebook or rulebook_for(rules))

    for path in log_files(paths):
        replay_file(path, scorer_for, report)
    return report
