"""The quiet turn written in place (``turns.own_dahai``: a discard nobody may answer, its abortive checks and the
next seat's live draw in one frame) leaves the round exactly as the general path does (``turns.own_dahai_general``:
``calls.discard_window``, ``calls.discard_passed``, ``turns.live_draw``).

Each game or log is played twice, once each way, and after every discard every field of the round and of each seat
is compared (the events by their count and the last few written; the whole record of the hand at its end), then
the results. The default run plays self-played games under four rulebooks (with and without red fives, kita, open
riichi and abortive draws), random players and players that favour riichi, calls and kans, and a sample of the
vendored logs; ``-m slow`` plays more seeds and every vendored log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.game import Game
from engine.replay.compare import rulebook_for
from engine.replay.rounds import ReplayReport, game_start, read_events, replay_events
from engine.round import turns
from engine.round.actions import Action
from engine.round.rules import round_rules
from engine.round.state import RoundState, Seat
from engine.round.wall import WallState
from engine.scoring import library
from engine.scoring.library import rulebook

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"
RULEBOOKS = ("tenhou", "tenhou_sanma", "house", "ema2012")
_SEAT_FIELDS = Seat.__slots__
_WALL_FIELDS = ("next_live", "remaining", "replacements_taken", "revealed")


class _BoldAgent:
    """Random, but declares riichi, kans and calls whenever offered: the windows that are not quiet."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, rnd: Any, seat: int, legal_moves: Sequence[Action]) -> Action:
        bold = [a for a in legal_moves if a.type in ("hora", "reach", "ankan", "kakan", "pon", "chi", "daiminkan")]
        return self.rng.choice(bold or list(legal_moves))


def _value(value: Any) -> Any:
    """A copy of a field's value that later moves do not change: lists, sets and dicts copied (their items are
    values: codes, records, tuples), seats and the wall field by field."""
    kind = type(value)
    if kind is list:
        return ("list", tuple(value))
    if kind is set:
        return ("set", frozenset(value))
    if kind is dict:
        return ("dict", tuple(value.items()))
    if kind is WallState:
        return tuple(getattr(value, name) for name in _WALL_FIELDS)
    return value


def _state(rnd: RoundState) -> dict[str, Any]:
    """Every field of the round after a discard (the events by their count and the last four), and every field of
    each seat."""
    state: dict[str, Any] = {}
    for name in RoundState.__slots__:
        value = getattr(rnd, name, "<unset>")
        if name == "log":
            state[name] = (len(value), tuple(value[-4:]))
        elif name == "seats":
            state[name] = tuple(tuple(_value(getattr(seat, field)) for field in _SEAT_FIELDS) for seat in value)
        elif name != "rules":  # one object per rulebook, compared by the run it belongs to
            state[name] = _value(value)
    return state


@contextmanager
def _recorded(monkeypatch: pytest.MonkeyPatch, play: Callable[..., None], states: list[dict[str, Any]]) -> Iterator[None]:
    """``turns.own_dahai`` is ``play``, and the round's every field is recorded after each discard."""

    def recording(rnd: RoundState, a: Action) -> None:
        play(rnd, a)
        states.append(_state(rnd))

    with monkeypatch.context() as patch:
        patch.setattr(turns, "own_dahai", recording)
        yield


def _both_ways(monkeypatch: pytest.MonkeyPatch, run: Callable[[], Any]) -> int:
    """``run`` with the quiet turn in place and by the general path: the same fields after every discard, the same
    result. Returns the discards compared."""
    quick: list[dict[str, Any]] = []
    general: list[dict[str, Any]] = []
    with _recorded(monkeypatch, turns.own_dahai, quick):
        got = run()
    with _recorded(monkeypatch, turns.own_dahai_general, general):
        expected = run()
    assert len(quick) == len(general)
    for number, (a, b) in enumerate(zip(quick, general, strict=True)):
        if a != b:
            differ = sorted(name for name in a if a[name] != b[name])
            pytest.fail(f"after discard {number}: the fields {differ} differ")
    assert got == expected
    return len(quick)


def _game(name: str, seed: int, bold: bool) -> Callable[[], Any]:
    def run() -> Any:
        rb = rulebook(name)
        if not bold:
            game = Game(rb, seed, "random")
        else:
            players = round_rules(library.scorer(name)).players
            game = Game(rb, seed, [_BoldAgent(seed * 10 + k) for k in range(players)])  # type: ignore[list-item]
        result = game.play()
        return result, [type(e).__name__ + repr(e) for e in game.log]

    return run


def _logs(paths: list[Path]) -> Callable[[], Any]:
    def run() -> Any:
        report = ReplayReport()
        for path in paths:
            events = read_events(path)
            rules = round_rules(library.scorer(rulebook_for(game_start(events))))
            replay_events(events, rules, path.name, report)
        return report.to_json()

    return run


@pytest.mark.parametrize(("name", "bold"), [("tenhou", False), ("tenhou_sanma", True), ("house", True), ("ema2012", False)])
def test_self_played_games_go_alike_both_ways(name: str, bold: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _both_ways(monkeypatch, _game(name, 1, bold)) > 150


def test_a_sample_of_the_vendored_logs_replays_alike_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(MJLOG.iterdir())[::90]  # two logs
    assert _both_ways(monkeypatch, _logs(paths)) > 500


@pytest.mark.slow
@pytest.mark.parametrize("name", RULEBOOKS)
def test_more_self_played_games_go_alike_both_ways(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(8):
        _both_ways(monkeypatch, _game(name, seed, seed % 2 == 1))


@pytest.mark.slow
def test_every_vendored_log_replays_alike_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(MJLOG.iterdir())
    for start in range(0, len(paths), 20):
        _both_ways(monkeypatch, _logs(paths[start : start + 20]))
