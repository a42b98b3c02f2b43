"""``RoundReplay.started`` (one per replayed round) sets every field itself: each is the default the record's own
``RoundReplay(label)`` gives, and no two reports share their list of mismatches."""

from __future__ import annotations

from engine.replay.through_round import RoundReplay
from ruledsl.record import fields


def test_a_started_report_is_the_record_built_with_its_defaults() -> None:
    built, started = RoundReplay("E1-0"), RoundReplay.started("E1-0")
    for f in fields(RoundReplay):
        assert getattr(started, f.name) == getattr(built, f.name), f.name
        assert type(getattr(started, f.name)) is type(getattr(built, f.name)), f.name
    assert started == built and vars(started) == vars(built)
    assert RoundReplay.started("E1-0").mismatches is not started.mismatches
