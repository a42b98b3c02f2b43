"""riichienv's self-play games through the public path: each game written as an mjai log (its final points on
``end_game``), replayed by ``riichi replay --rulebook R --json`` in a child process, and the first disagreement of
every game classified by the rule that decides it (``riichienv_known``).

The classification looks at the round the first mismatch names as ``check_game`` replays it in-process (which seats
wait on a fifth copy, where the copies are, how many tiles are left): the CLI says *that* and *where* the log and
the rulebook part ways, the round says *why*. The CLI's mismatches must be the in-process ones, text for text.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.round.rules import RoundRules
from tests.oracle.riichienv_known import FOLLOW_ON, category_of_decision, category_of_mismatch
from tests.oracle.riichienv_oracle import GameCheck, check_game

ROOT = Path(__file__).resolve().parents[2]


def write_log(game: dict[str, Any], folder: Path) -> Path:
    """The game as an mjai JSON-lines file; riichienv's ``end_game`` carries no scores, ours adds its final points."""
    events = list(game["events"])
    if events and events[-1]["type"] == "end_game":
        events[-1] = {"type": "end_game", "scores": list(game["scores"])}
    path = folder / f"seed{game['seed']:04d}.mjson"
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events), encoding="utf-8")
    return path


def cli_replay(folder: Path, rulebook: str) -> dict[str, Any]:
    """``riichi replay --rulebook RULEBOOK --json FOLDER`` as a user runs it; its JSON report."""
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "replay", "--rulebook", rulebook, "--json", str(folder)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    if done.returncode not in (0, 1):
        raise AssertionError(f"riichi replay exited {done.returncode}: {done.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@dataclass
class FirstDisagreements:
    """Per game: the first disagreement and its category; the figures of the whole run."""

    games: int = 0
    rounds: int = 0
    rounds_matched: int = 0
    actions: int = 0
    agreeing_games: int = 0
    categories: Counter[str] = field(default_factory=Counter)
    unexplained: list[dict[str, Any]] = field(default_factory=list)
    cli_differs: list[str] = field(default_factory=list)  # games whose first CLI mismatch is not the in-process one

    def line(self) -> str:
        return (
            f"{self.games} games through `riichi replay`, {self.rounds} rounds ({self.rounds_matched} matched), "
            f"{self.actions} moves; {self.agreeing_games} games agree in full; first disagreements "
            f"{dict(self.categories)}; unexplained {len(self.unexplained)}"
        )


def first_disagreement(check: GameCheck) -> tuple[str, dict[str, Any]] | None:
    """The game's first disagreement (a mismatch or a differing legal set, in round order) and its category
    (``"unexplained"`` when no known rule decides it); None when the game agrees in full."""
    for record in check.rounds:
        for d in record["differing"]:
            category = category_of_decision(d)
            if category != "unplayed":  # a decision after the round's mismatch is no disagreement of its own
                return category or "unexplained", d
        for m in record["mismatches"]:
            category = category_of_mismatch(m, record)
            if category is None and m["what"] in FOLLOW_ON and m["what"] == "end of the game":
                category = "tenpai_yame" if _dealer_tenpai_draw(record) else None
            return category or "unexplained", m
    for m in check.end:
        if m["what"] == "end of the game" and check.rounds and _dealer_tenpai_draw(check.rounds[-1]):
            return "tenpai_yame", m
        return "unexplained", m
    return None


def _dealer_tenpai_draw(record: dict[str, Any]) -> bool:
    settlement = record["settlement"] or {}
    return settlement.get("kind") == "exhaustive" and bool(settlement.get("renchan"))


def _texts(items: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """A mismatch without its position: the CLI counts a file's lines, the in-process check its parsed events."""
    return [(m["round"], m["what"], json.dumps(m["expected"]), json.dumps(m["got"])) for m in items]


def run(games: list[dict[str, Any]], rulebook: str, rules: RoundRules, folder: Path) -> FirstDisagreements:
    """Replay ``games`` through the CLI under ``rulebook``; classify each game's first disagreement."""
    paths = {str(write_log(game, folder)): game for game in games}
    report = cli_replay(folder, rulebook)
    assert not report["errors"], report["errors"][:3]
    by_file: dict[str, list[dict[str, Any]]] = {}
    for m in report["mismatches"]:
        by_file.setdefault(m["file"], []).append(m)
    out = FirstDisagreements(
        games=report["games"], rounds=report["rounds"], rounds_matched=report["rounds_matched"], actions=report["actions"]
    )
    for path, game in paths.items():
        check = check_game(game, rules)
        if _texts(by_file.get(path, []))[:1] != _texts(check.report.mismatches)[:1]:
            out.cli_differs.append(path)
        found = first_disagreement(check)
        if found is None:
            out.agreeing_games += 1
            continue
        category, item = found
        out.categories[category] += 1
        if category == "unexplained":
            out.unexplained.append({"seed": game["seed"], **item})
    return out
