"""The replay driver decides a logged discard on an own turn as ``Round.apply``'s first case does: it plays it
directly (``turns.own_dahai``, given the log's event) exactly when ``legal.own_discard_ok`` accepts the built
discard, and ``own_discard_ok`` answers the event as it answers that discard; otherwise ``apply`` has it.

Checked at every own-turn discard of a sample of the vendored logs, with some discards changed (the tsumogiri flag
turned, another tile code) so that refusals are met too; ``-m slow`` takes every log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round import Round, turns
from engine.round.actions import Action
from engine.round.events import Dahai
from engine.round.legal import dahai_action, own_discard_ok
from engine.round.rules import round_rules
from engine.scoring import library
from ruledsl.record import replace

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


def _changed(body: list[Any], rng: random.Random) -> list[Any]:
    """One discard in eight with its flag turned, one in sixteen with another tile code."""
    out = []
    for event in body:
        if type(event) is Dahai:
            roll = rng.random()
            if roll < 1 / 8:
                event = replace(event, tsumogiri=not event.tsumogiri)
            elif roll < 3 / 16:
                event = replace(event, pai=rng.randrange(37))
        out.append(event)
    return out


def _replayed(monkeypatch: pytest.MonkeyPatch, paths: list[Path]) -> Iterator[tuple[bool, bool]]:
    """(``own_discard_ok``'s verdict, whether the driver played the discard itself) for each own-turn discard."""
    state: dict[str, Any] = {"in_apply": False, "direct": False}
    original_apply, original_dahai = Round.apply, turns.own_dahai

    def apply(rnd: Round, action: Action) -> None:
        state["in_apply"] = True
        try:
            original_apply(rnd, action)
        finally:
            state["in_apply"] = False

    def own_dahai(rnd: Round, action: Action) -> None:
        if not state["in_apply"]:
            state["direct"] = True
        original_dahai(rnd, action)

    monkeypatch.setattr(Round, "apply", apply)
    monkeypatch.setattr(turns, "own_dahai", own_dahai)
    rng = random.Random(7)
    found: list[tuple[bool, bool]] = []
    for path in paths:
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for index, round_start, body in parts:
            body = _changed(list(body), rng)
            expected: list[bool] = []

            def observer(i: int, rnd: Round, body: list[Any] = body, expected: list[bool] = expected) -> None:
                if expected:  # the discard before this event: played directly exactly when accepted
                    found.append((expected.pop(), state["direct"]))
                state["direct"] = False
                event = body[i]
                if type(event) is Dahai and rnd.phase == "own" and rnd.own_cache is None and not rnd.finished:
                    verdict = own_discard_ok(rnd, dahai_action(event.actor, event.pai, event.tsumogiri))
                    # the driver asks it of the event itself (``Discard``): the same answer as the built discard's
                    assert own_discard_ok(rnd, event) == verdict, (event, verdict)
                    expected.append(verdict)

            replay_round(rules, round_start, body, index + 1, observer=observer)
            if expected:
                found.append((expected.pop(), state["direct"]))
    yield from found


def _check(monkeypatch: pytest.MonkeyPatch, paths: list[Path]) -> None:
    seen = list(_replayed(monkeypatch, paths))
    wrong = [pair for pair in seen if pair[0] != pair[1]]
    assert not wrong, f"{len(wrong)} of {len(seen)} discards decided otherwise than own_discard_ok"
    assert sum(ok for ok, _ in seen) > 100 and sum(not ok for ok, _ in seen) > 10  # both verdicts met


def test_the_driver_plays_a_discard_exactly_when_own_discard_ok_accepts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    _check(monkeypatch, sorted(MJLOG.iterdir())[::80])  # three logs


@pytest.mark.slow
def test_every_vendored_log_with_changed_discards(monkeypatch: pytest.MonkeyPatch) -> None:
    _check(monkeypatch, sorted(MJLOG.iterdir()))
