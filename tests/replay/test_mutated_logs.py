"""A log that reads but tells an impossible game (a hand dealt a tile too many, a discard of a tile never drawn, a
call from the wrong seat, an event lost or doubled) is the log's fault: replay answers it with mismatches or a
clear refusal, never as an internal error, which says the engine itself is wrong."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.replay.rounds import ReplayReport, read_events, replay_events
from engine.round.rules import round_rules
from engine.scoring import library
from ruledsl.record import replace

FOLDER = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


def _mutated(events: list[Any], rng: random.Random, codes: list[int]) -> list[Any]:
    """One change a reader lets through: every value stays of its field's type and range (a tile code the log
    uses elsewhere, a seat of the table), only the story is wrong."""
    out = list(events)
    k = rng.randrange(1, len(out))
    event = out[k]
    how = rng.randrange(6)
    if how == 0:
        del out[k]
    elif how == 1:
        out.insert(k, event)
    elif how == 2 and k + 1 < len(out):
        out[k], out[k + 1] = out[k + 1], out[k]
    elif hasattr(event, "pai") and how in (3, 4):
        out[k] = replace(event, pai=rng.choice(codes))
    elif hasattr(event, "actor") and how == 5:
        out[k] = replace(event, actor=rng.randrange(4))
    elif hasattr(event, "from_seat"):
        out[k] = replace(event, from_seat=rng.randrange(4))
    elif hasattr(event, "who"):
        out[k] = replace(event, who=rng.randrange(4), from_who=rng.randrange(4))
    else:
        del out[k]
    return out


LOGS = 8  # the default run mutates the first three logs; ``-m slow`` the other five too


@pytest.mark.parametrize("which", [pytest.param(n, marks=pytest.mark.slow) if n >= 3 else n for n in range(LOGS)])
def test_impossible_games_are_mismatches_never_internal_errors(which: int) -> None:
    rules = round_rules(library.scorer("tenhou"))
    rng = random.Random(11 + which)
    played = 0
    for path in [sorted(FOLDER.iterdir())[which]]:
        events = read_events(path)
        codes = sorted({e.pai for e in events if hasattr(e, "pai")})
        # the round starts, where a wrong deal matters most, get a share of their own
        starts = [i for i, e in enumerate(events) if type(e).__name__ == "RoundStart"]
        for n in range(24):
            if n % 3 == 0:
                mutated = _start_mutated(events, rng.choice(starts), rng, codes)
            else:
                mutated = _mutated(events, rng, codes)
            report = ReplayReport()
            replay_events(mutated, rules, path.name, report)  # an InternalError propagates and fails the test
            played += 1
    assert played == 24


def _start_mutated(events: list[Any], k: int, rng: random.Random, codes: list[int]) -> list[Any]:
    """A round's deal changed: a tile added to, taken from or swapped in one seat's hand."""
    event = events[k]
    hands = [list(h) for h in event.hands]
    seat = rng.randrange(len(hands))
    how = rng.randrange(3)
    if how == 0:
        hands[seat].append(rng.choice(codes))
    elif how == 1:
        hands[seat].pop()
    else:
        hands[seat][rng.randrange(len(hands[seat]))] = rng.choice(codes)
    return [*events[:k], replace(event, hands=tuple(tuple(h) for h in hands)), *events[k + 1:]]
