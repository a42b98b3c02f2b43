"""The replay driver plays a logged call or ron as the object the round offers (``through_round._offer_of``), which
``Round.apply`` takes by identity; without it, ``apply`` is given the object built from the log and checks its
shape and legality first. Both must replay every round alike: the same events, settlement, mismatches and counts.

Compared on a sample of the vendored logs, with some calls and wins changed (another seat called from, another
tile, another seat winning) so that answers the round does not offer are met too; ``-m slow`` takes every log.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.replay import through_round
from engine.replay.compare import rulebook_for
from engine.replay.events import Call, Win
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round import Round
from engine.round.actions import Action
from engine.round.rules import round_rules
from engine.scoring import library
from ruledsl.record import replace

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


def _changed(body: list[Any], rng: random.Random) -> list[Any]:
    """One call or win in four changed: the seat called from, the called tile, or the winner."""
    out = []
    for event in body:
        if type(event) is Call and event.kind in ("chi", "pon", "daiminkan") and rng.random() < 1 / 4:
            if rng.random() < 1 / 2:
                event = replace(event, from_seat=rng.randrange(4))
            else:
                event = replace(event, called_tile=rng.choice(event.tiles) if rng.random() < 1 / 2 else rng.randrange(37))
        elif type(event) is Win and not event.tsumo and rng.random() < 1 / 4:
            event = replace(event, who=rng.randrange(4))
        out.append(event)
    return out


def _replays(paths: list[Path]) -> list[Any]:
    """What each round's replay gave, as plain values: mismatches, counts, events and settlement."""
    rng = random.Random(11)
    out: list[Any] = []
    for path in paths:
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for k, (index, round_start, body) in enumerate(parts):
            try:
                played = replay_round(rules, round_start, _changed(list(body), rng), index + 1, first_round=k == 0)
            except ValueError as exc:  # a changed call the reader's record refuses (its tiles no longer hold it)
                out.append(("refused", str(exc)))
                continue
            rnd = played.round
            out.append((
                [m.to_json() for m in played.mismatches], played.actions, played.decisions,
                None if rnd is None else (rnd.events, rnd.settlement),
            ))
    return out


def _same_with_and_without_offers(paths: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    matched: list[bool] = []
    original = through_round._offer_of

    def counted(rnd: Round, action: Action) -> Action:
        found = original(rnd, action)
        # the logged answer is one the round offers (most often the very object: ``legal.claim_action``), or not
        matched.append(any(option is found for option in rnd.legal_actions(action.actor)))
        return found

    monkeypatch.setattr(through_round, "_offer_of", counted)
    fast = _replays(paths)
    monkeypatch.setattr(through_round, "_offer_of", lambda rnd, action: action)
    reference = _replays(paths)
    assert fast == reference
    assert any(matched) and not all(matched)  # offered answers met, and answers the round does not offer


def test_a_logged_answer_played_as_the_offer_replays_as_the_logged_object(monkeypatch: pytest.MonkeyPatch) -> None:
    _same_with_and_without_offers(sorted(MJLOG.iterdir())[:6], monkeypatch)


@pytest.mark.slow
def test_every_vendored_log_replays_alike_with_offers(monkeypatch: pytest.MonkeyPatch) -> None:
    _same_with_and_without_offers(sorted(MJLOG.iterdir()), monkeypatch)
