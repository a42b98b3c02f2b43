"""``engine.round.scoring.score`` (the hand made from the seat's codes, the situation from its values in order, the
scorer asked without the checks a round's inputs cannot fail) answers what ``score_reference`` (the scorer's
checked entries, the situation by keywords) answers: at every win offered, declared or explained in the vendored
Tenhou logs and in self-played games under several rulebooks, the same ``ScoreResult`` or the same refusal, from
the same hand and situation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import EngineError
from engine.core.situation import Situation
from engine.game import Game
from engine.replay.compare import rulebook_for
from engine.replay.rounds import ReplayReport, game_start, read_events, replay_events
from engine.round import scoring
from engine.round.rules import round_rules
from engine.scoring import library
from engine.scoring.library import rulebook

MJLOG = Path(__file__).resolve().parent.parent / "data" / "tenhou" / "mjlog"


def _outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[object, ...]:
    try:
        return ("answer", fn(*args, **kwargs))
    except EngineError as exc:
        return ("refused", type(exc), str(exc))


@contextmanager
def _both_ways(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[object, ...]]]:
    """Every ``scoring.score`` of the round answered both ways and compared (with the hands and situations each
    built, or found kept: a situation the round asked before is handed to the scorer again, and must equal the one
    built from the round's state by keyword); yields the outcomes seen."""
    seen: list[tuple[object, ...]] = []
    fast, reference = scoring.score, scoring.score_reference
    real_made, real_checked = scoring.made_hand, scoring.checked_situation
    built: dict[str, Any] = {}

    def made(*args: Any) -> Any:
        built["hand"] = real_made(*args)
        return built["hand"]

    def checked(values: tuple[Any, ...]) -> Situation:
        built["situation"] = real_checked(values)
        return built["situation"]

    def both(*args: Any, **kwargs: Any) -> Any:
        r, seat, tile, source = args[:4]
        expected = _outcome(reference, *args, **kwargs)
        got = _outcome(fast, *args, **kwargs)
        assert got == expected, (args, kwargs)
        s = r.seats[seat]
        concealed = s.hand if source == seat else [*s.hand, tile]
        hand = r.rules.scorer.hand(list(concealed), win=tile, melds=[(m.type, m.tiles) for m in s.melds])
        made_hand = built.pop("hand")
        assert made_hand == hand
        assert (made_hand.counts, made_hand.is_closed, made_hand.call_shape) == (hand.counts, hand.is_closed, hand.call_shape)
        situation = built.pop("situation")
        event = args[4]
        assert situation == _keyword_situation(r, seat, tile, source, event, *args[5:7], **{k: v for k, v in kwargs.items() if k != "explain"})
        seen.append(expected)
        return fast(*args, **kwargs)

    class Kept(dict):  # the round's kept situations, each one it hands to the scorer recorded as built
        def get(self, key: Any, default: Any = None) -> Any:
            found = super().get(key, default)
            if found is not None:
                built["situation"] = found
            return found

        def put(self, key: Any, value: Any) -> Any:
            self[key] = value
            return value

    monkeypatch.setattr(scoring, "made_hand", made)
    monkeypatch.setattr(scoring, "checked_situation", checked)
    monkeypatch.setattr(scoring, "_SITUATIONS", Kept())
    monkeypatch.setattr(scoring, "score", both)
    yield seen


def _keyword_situation(r: Any, seat: int, tile: int, source: int, event: str, honba: int | None = None, sticks: int | None = None) -> Situation:
    """The situation ``score_reference`` builds (by keywords, checked by ``Situation`` itself)."""
    captured: list[Situation] = []

    class _Scorer:
        def hand(self, *args: Any, **kwargs: Any) -> None:
            return None

        def score_result(self, hand: Any, situation: Situation, **kwargs: Any) -> Any:
            captured.append(situation)
            raise scoring.NoYaku("captured")

    class _Rules:
        scorer = _Scorer()
        ura_dora = False

    class _Round:
        def __getattr__(self, name: str) -> Any:
            return _Rules() if name == "rules" else getattr(r, name)

    scoring.score_reference(_Round(), seat, tile, source, event, honba, sticks)  # type: ignore[arg-type]
    return captured[0]


PARTS = 6  # the default run replays one part: every sixth game (some 290 rounds); ``-m slow`` adds the others


@pytest.mark.no_cover  # an equivalence check over many cases: run outside the coverage tracer (.ci/run)
@pytest.mark.parametrize("part", [pytest.param(p, marks=pytest.mark.slow) if p else p for p in range(PARTS)])
def test_the_vendored_logs_score_alike(monkeypatch: pytest.MonkeyPatch, part: int) -> None:
    with _both_ways(monkeypatch) as seen:
        report = ReplayReport()
        for path in sorted(MJLOG.iterdir())[part::PARTS]:
            events = read_events(path)
            replay_events(events, round_rules(library.scorer(rulebook_for(game_start(events)))), path.name, report)
    assert report.rounds > 1000 // PARTS
    assert sum(kind == "answer" and result is not None for kind, result, *_ in seen) > 1000 // PARTS
    assert sum(kind == "answer" and result is None for kind, result, *_ in seen) > 0  # some 50 in the whole folder


@pytest.mark.parametrize("name", ["tenhou", "mleague", "house", "sanma", "tenhou_sanma", "ema2016", "mahjchina"])
def test_self_played_games_score_alike(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    with _both_ways(monkeypatch) as seen:
        for seed in range(3):
            Game(rulebook(name), seed, "shanten").play()
    assert sum(kind == "answer" and result is not None for kind, result, *_ in seen) > 10
