"""``Round.pass_waiting`` (every seat still asked passes, the window resolved once) plays what ``apply`` of each
seat's pass plays, one after the other in seat order: the replay answers every unlogged pass with it. Every round
of the vendored Tenhou logs (a sixth of them by default, all under ``-m slow``) is replayed both ways, and the rounds' events, settlements, counters and mismatches
compared; so are self-played rounds passed at every window both ways."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.replay import through_round
from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.round import Round
from engine.round.legal import pass_action
from engine.round.rules import round_rules
from engine.scoring import library
from engine.scoring.library import rulebook

MJLOG = Path(__file__).resolve().parent.parent / "data" / "tenhou" / "mjlog"


class _SeatBySeat(through_round._Driver):
    """The replay with every unlogged pass played by ``apply``, one seat after the other (the reference)."""

    def _pass_all(self, keep: int | None = None) -> bool:
        rnd = self.rnd
        while not rnd.finished and rnd.phase != "own":
            waiting = rnd.waiting()
            if not waiting:
                break
            if rnd.phase == "declare":
                return True
            for seat in sorted(waiting):
                if rnd.finished:
                    break
                if not self._move(pass_action(seat)):
                    return False
        return True


def _view(played: through_round.RoundReplay) -> tuple[object, ...]:
    rnd = played.round
    assert rnd is not None
    return (rnd.events, rnd.settlement, rnd.scores, rnd.phase, played.actions, played.decisions, played.mismatches)


PARTS = 6  # the default run replays one part: every sixth game (some 290 rounds); ``-m slow`` adds the others


@pytest.mark.no_cover  # an equivalence check over many cases: run outside the coverage tracer (.ci/run)
@pytest.mark.parametrize("part", [pytest.param(p, marks=pytest.mark.slow) if p else p for p in range(PARTS)])
def test_the_vendored_logs_replay_alike_with_the_window_passed_at_once(part: int) -> None:
    rounds = 0
    for path in sorted(MJLOG.iterdir())[part::PARTS]:
        events = read_events(path)
        start_game, parts, _end = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start_game)))
        for k, (index, start, body) in enumerate(parts):
            fast = through_round._Driver(rules, start, body, index + 1, k == 0, None).run()
            plain = _SeatBySeat(rules, start, body, index + 1, k == 0, None).run()
            assert _view(fast) == _view(plain), (path.name, start.label)
            rounds += 1
    assert rounds > 1000 // PARTS


def test_self_played_windows_pass_alike() -> None:
    """At every response window of self-played rounds, a copy of the round is passed seat by seat and the round
    itself at once: the same events and state after."""
    rng = random.Random(7)
    windows = 0
    for name in ("tenhou", "mleague", "house"):
        rules = round_rules(rulebook(name))
        for seed in range(6):
            fast, plain = Round(rules, seed=seed), Round(rules, seed=seed)
            while not fast.finished:
                if fast.phase == "respond":
                    waiting = sorted(fast.waiting())
                    assert fast.pass_waiting() == len(waiting)
                    for seat in waiting:
                        plain.apply(pass_action(seat))
                    windows += 1
                else:
                    seat = fast.waiting()[0]
                    options = fast.legal_actions(seat)
                    choice = rng.randrange(len(options))
                    fast.apply(options[choice])
                    plain.apply(plain.legal_actions(seat)[choice])
                assert fast.events == plain.events
                assert (fast.phase, fast.actor, fast.scores, fast.settlement) == (plain.phase, plain.actor, plain.scores, plain.settlement)
    assert windows > 50
    assert Round(round_rules(rulebook("tenhou")), seed=1).pass_waiting() == 0  # no window: nothing passes
