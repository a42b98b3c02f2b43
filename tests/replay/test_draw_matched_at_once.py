"""The replay driver matches the draw a discard led to with the log's next event at once, in the discard's own step
(``_Driver._loop``), instead of scanning the round's events for it at the next step; and a logged draw after a
discard some seat was asked about has the asked seats pass in the loop itself, not through ``_draw``. A driver
given an observer takes the plain path for both (the observer must see the round before every event), so every
vendored round is replayed both ways, with some draws and discards changed so that mismatches are met too, and
the rounds' events, settlements, counters and mismatches compared (a sixth of the logs by default, all under
``-m slow``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.replay import through_round
from engine.replay.compare import rulebook_for
from engine.replay.events import Dahai, Tsumo
from engine.replay.rounds import read_events, split_rounds
from engine.round import Round
from engine.round.rules import round_rules
from engine.scoring import library
from ruledsl.record import replace

MJLOG = Path(__file__).resolve().parent.parent / "data" / "tenhou" / "mjlog"
PARTS = 6


def _view(played: through_round.RoundReplay) -> tuple[object, ...]:
    rnd = played.round
    state = () if rnd is None else (rnd.events, rnd.settlement, rnd.scores, rnd.phase)
    return (*state, played.actions, played.decisions, played.mismatches, played.outcome)


def _changed(body: list[Any], rng: random.Random) -> list[Any]:
    """One draw in forty for another seat or tile, one discard in forty dropped."""
    out = []
    for event in body:
        roll = rng.random()
        if type(event) is Tsumo and roll < 1 / 40:
            event = replace(event, actor=(event.actor + 1) % 4) if roll < 1 / 80 else replace(event, pai=(event.pai + 1) % 34)
        elif type(event) is Dahai and roll < 1 / 40:
            continue
        out.append(event)
    return out


def _plain_observer(i: int, rnd: Round) -> None:
    """Sees nothing: only there so that the driver takes the plain path."""


@pytest.mark.no_cover  # an equivalence check over many cases: run outside the coverage tracer (.ci/run)
@pytest.mark.parametrize("part", [pytest.param(p, marks=pytest.mark.slow) if p else p for p in range(PARTS)])
def test_the_vendored_logs_replay_alike_with_the_draw_matched_at_once(part: int) -> None:
    rng = random.Random(part)
    rounds = mismatched = 0
    for path in sorted(MJLOG.iterdir())[part::PARTS]:
        start_game, parts, _end = split_rounds(read_events(path))
        rules = round_rules(library.scorer(rulebook_for(start_game)))
        for k, (index, start, body) in enumerate(parts):
            for events in (body, _changed(body, rng)):
                fast = through_round.replay_round(rules, start, events, index + 1, k == 0)
                plain = through_round.replay_round(rules, start, events, index + 1, k == 0, _plain_observer)
                assert _view(fast) == _view(plain), (path.name, start.label)
                rounds += 1
                mismatched += bool(fast.mismatches)
    assert rounds > 2000 // PARTS and mismatched > 50 // PARTS
