"""A game's rounds cut as slices at their starts (``split_rounds``) are the rounds read event by event."""

from __future__ import annotations

from pathlib import Path

from engine.core.tiles import parse_tiles
from engine.replay.events import Event, GameEnd, GameStart, RoundStart, Tsumo
from engine.replay.rounds import read_events, split_rounds

DATA = Path(__file__).resolve().parent.parent / "data" / "tenhou"


def _one_by_one(events: list[Event]) -> tuple[GameStart, list[tuple[int, RoundStart, list[Event]]], GameEnd | None]:
    """The plain reading: every event after a round start belongs to that round, but the game's end."""
    start = next(e for e in events if isinstance(e, GameStart))
    rounds: list[tuple[int, RoundStart, list[Event]]] = []
    end: GameEnd | None = None
    body: list[Event] | None = None
    for index, event in enumerate(events):
        if isinstance(event, RoundStart):
            body = []
            rounds.append((index, event, body))
        elif isinstance(event, GameEnd):
            end = event
        elif body is not None:
            body.append(event)
    return start, rounds, end


def _start(label_index: int) -> RoundStart:
    return RoundStart(
        round_index=label_index, honba=0, sticks=0, dora_indicator=parse_tiles("1z")[0], scores=(25_000,) * 4, dealer=0,
        hands=((),) * 4,
    )


def test_the_vendored_logs_split_as_read_one_by_one() -> None:
    paths = sorted((DATA / "mjlog").iterdir())[::8]
    assert paths
    for path in paths:
        events = read_events(path)
        assert split_rounds(events) == _one_by_one(events), path.name


def test_events_before_the_first_round_and_a_game_end_inside_a_round_are_no_rounds_events() -> None:
    """A game end written before the last round (a broken log) is left out of that round's body, the last one
    read is the game's end, and what comes before the first round start belongs to no round."""
    draw = Tsumo(0, parse_tiles("5m")[0])
    first_end, last_end = GameEnd(scores=(1,), placement_points=()), GameEnd(scores=(2,), placement_points=())
    game = GameStart(red_fives=True, kuitan=True, hanchan=True, players=4, raw_type=0)
    shapes = [
        [game, draw, _start(0), draw, first_end, draw, _start(1), draw, last_end],
        [game, first_end, _start(0), draw, _start(1)],
        [draw, game, _start(0), game, draw, draw, last_end, first_end],
        [game],
    ]
    for events in shapes:
        assert split_rounds(events) == _one_by_one(events)  # type: ignore[arg-type]
