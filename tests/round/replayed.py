"""The vendored mjlog logs replayed through the round engine, for tests that watch the engine's work at every real
move (a function wrapped in place for the run): none of the rounds may differ from its log."""

from __future__ import annotations

from pathlib import Path

from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round.rules import round_rules
from engine.scoring import library

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


def replay_vendored_logs(count: int) -> None:
    """Replay the first ``count`` vendored mjlog logs, each round under its game's rulebook; every round must play
    as its log does."""
    for path in sorted(MJLOG.iterdir())[:count]:
        start_game, parts, _end = split_rounds(read_events(path))
        rules = round_rules(library.scorer(rulebook_for(start_game)))
        for k, (index, start, body) in enumerate(parts):
            assert not replay_round(rules, start, body, index + 1, k == 0).mismatches
