"""A replay is each file's own part of the report merged in the order of the files (``ReplayReport.merge``): the
same report as every file replayed into one shared report, which is how a run used to count."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import EngineError
from engine.replay.compare import rulebook_for
from engine.replay.reading import read_source
from engine.replay.rounds import (
    ReplayReport,
    _rules_named,
    game_start,
    replay,
    replay_events,
    replay_file,
)
from engine.scoring import library

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "tenhou"
LOGS = [*sorted((DATA / "mjlog").glob("*.mjlog"))[:6], *sorted((DATA / "json").glob("*.json"))[:2]]
LOGS += [DATA / "excerpts" / name for name in ("confusing_nakis_1.json", "double_ron.json", "kyushukyuhai.json")]


def _shared(paths: list[Path]) -> ReplayReport:
    """Every file replayed into one report, as the loop did before files had parts of their own."""
    report = ReplayReport()
    for path in paths:
        try:
            events, places, kind = read_source(str(path), path)
            rules = _rules_named(rulebook_for(game_start(events), log_id=None if kind == "mjai" else path.name), library.scorer)
        except (EngineError, OSError, ValueError) as exc:
            report.errors.append({"file": str(path), "message": str(exc)})
            continue
        replay_events(events, rules, str(path), report, places)
    return report


def test_the_parts_merged_in_order_are_the_shared_report() -> None:
    shared = _shared(LOGS).to_json()
    assert shared["mismatches"] and shared["games"] == len(LOGS)
    assert replay([str(p) for p in LOGS], None, library.scorer).to_json() == shared
    assert replay([str(p) for p in LOGS], None, library.scorer, workers=2).to_json() == shared


def test_a_part_is_one_file_and_holds_no_parsed_events() -> None:
    done = replay_file(str(LOGS[0]), None, library.scorer)
    assert done.path == str(LOGS[0]) and done.story == "" and done.part.games == 1
    assert set(vars(done.part)) == set(ReplayReport().to_json())  # counts and lists of small dicts, nothing else


@cache
def _parts() -> tuple[ReplayReport, ...]:
    """Four files' parts, a part with an error and one with a skipped file and a note: replayed when first asked,
    not when the module is collected."""
    parts = [replay_file(str(p), None, library.scorer).part for p in LOGS[:4]]
    parts.append(ReplayReport(errors=[{"file": "x.mjlog", "code": "invalid_request", "message": "x.mjlog: cannot read"}]))
    parts.append(ReplayReport(skipped=[{"file": "a.txt", "reason": "not a game log"}], notes=[{"file": "n.mjlog", "note": "n"}]))
    return tuple(parts)


_PART_COUNT = 6


def _merged(parts: list[ReplayReport]) -> ReplayReport:
    whole = ReplayReport()
    for part in parts:
        whole.merge(part)
    return whole


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(range(_PART_COUNT)), max_size=6), st.integers(0, 6))
def test_merging_is_associative_with_the_empty_report_as_identity(picks: list[int], cut: int) -> None:
    """Whatever way the files are grouped (one per worker task, or all in one), the merged report is the same."""
    assert len(_parts()) == _PART_COUNT
    parts = [_parts()[i] for i in picks]
    cut = min(cut, len(parts))
    grouped = _merged([_merged(parts[:cut]), ReplayReport(), _merged(parts[cut:])])
    assert grouped.to_json() == _merged(parts).to_json()
