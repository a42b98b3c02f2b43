"""The place of a kan's new dora indicator is the rule ``settings calls kan_dora``: our own mjai output writes it
where the rule reveals it, and replay reports a log that shows it elsewhere (moved, missing or extra) at the event,
naming the rule.

The convention (mjai's reference server, Tenhou's own mjlogs): with ``after_discard`` a closed kan's indicator right
after the kan (``ankan, dora, tsumo``), an open or added kan's after the replacement draw and before the kan-maker's
discard (``daiminkan, tsumo, dora, dahai``); with ``immediately`` right after every kan. Self-play games with
players who make every kan they may give logs full of kans under both values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.game.agents import ShantenAgent
from engine.game.selfplay import Game
from engine.replay.rounds import replay
from engine.round.actions import Action
from engine.scoring import library
from tests.spec_files import TENHOU

KANS = ("ankan", "kakan", "daiminkan")
RULE = {"house": "after_discard", "tenhou": "after_discard", "wrc2025": "immediately", "mleague": "immediately"}


class KanMaker(ShantenAgent):
    """Plays as ``ShantenAgent`` but makes every kan it may (and wins when it may)."""

    def act(self, rnd: Any, seat: int, legal: Sequence[Action]) -> Action:
        if any(a.type == "hora" for a in legal):
            return super().act(rnd, seat, legal)
        kan = next((a for a in legal if a.type in KANS), None)
        return kan if kan is not None else super().act(rnd, seat, legal)


@cache
def selfplay_log(rulebook: str, seed: int = 14, games: int = 3) -> tuple[tuple[str, ...], ...]:
    """mjai lines of a few games under ``rulebook`` with kan-making players."""
    out = []
    for k in range(games):
        scorer = library.scorer(rulebook)
        game = Game(scorer.rulebook, seed + k, [KanMaker((seed + k) * 10 + s) for s in range(4)])
        game.play()
        out.append(tuple(json.dumps(e, separators=(",", ":")) for e in game.mjai_events()))
    return tuple(out)


def _replay(tmp_path: Path, lines: Sequence[str], rulebook: str, name: str = "game.mjson") -> list[dict[str, Any]]:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = replay([str(path)], rulebook, library.scorer)
    assert report.errors == []
    return report.mismatches


def _types(lines: Sequence[str]) -> list[str]:
    return [json.loads(line)["type"] for line in lines]


@pytest.mark.parametrize("rulebook", ["house", "tenhou", "wrc2025", "mleague"])
def test_our_mjai_output_places_each_indicator_by_the_rule_and_replays_clean(tmp_path: Path, rulebook: str) -> None:
    after = RULE[rulebook] == "after_discard"
    seen = {kind: 0 for kind in KANS}
    for number, lines in enumerate(selfplay_log(rulebook)):
        types = _types(lines)
        for i, kind in enumerate(types):
            if kind not in KANS or types[i + 1] == "hora":  # a robbed kan reveals nothing
                continue
            seen[kind] += 1
            rest = types[i + 1 : i + 4]
            if kind == "ankan" or not after:
                assert rest[:2] == ["dora", "tsumo"], (rulebook, i, types[i : i + 4])
            elif rest[1] != "hora":  # a win on the replacement tile never sees an open kan's indicator
                assert rest[0] == "tsumo" and "dora" in types[i + 2 : i + 5], (rulebook, i, types[i : i + 5])
                assert types.index("dora", i) < next(j for j in range(i + 2, len(types)) if types[j] in ("dahai", *KANS))
        assert _replay(tmp_path, lines, rulebook, f"game{number}.mjson") == []
    assert all(seen.values()), seen  # every kind of kan was made


def _moved(lines: Sequence[str], kind: str, shift: int) -> tuple[list[str], int]:
    """The log with the indicator of the first ``kind`` kan (that has one) moved by ``shift`` lines; with the
    1-based line the indicator is on afterwards."""
    types = _types(lines)
    for i, t in enumerate(types):
        if t == kind and "dora" in types[i + 1 : i + 4] and types[i + 2] != "hora":
            d = types.index("dora", i + 1)
            out = list(lines)
            line = out.pop(d)
            out.insert(d + shift, line)
            return out, d + shift + 1
    raise AssertionError(f"no {kind} with an indicator")


@pytest.mark.parametrize("rulebook", ["house", "tenhou"])
@pytest.mark.parametrize(("kind", "shift"), [("daiminkan", -1), ("daiminkan", 1), ("kakan", -1), ("ankan", 1)])
def test_an_indicator_moved_off_its_place_is_a_mismatch_naming_the_rule(
    tmp_path: Path, rulebook: str, kind: str, shift: int
) -> None:
    """Before the replacement draw of an open or added kan (`-1`), after the kan-maker's discard (`+1`), or after
    the replacement draw of a closed kan: each is a mismatch at the indicator's own line."""
    logs = [lines for lines in selfplay_log(rulebook) if kind in _types(lines)]
    lines, line = _moved(logs[0], kind, shift)
    found = _replay(tmp_path, lines, rulebook)
    first = found[0]
    assert first["what"] == "kan dora indicator", first
    assert first["line"] == line and f"line {line}:" in first["text"]
    assert 'kan_dora = "after_discard"' in first["note"]
    assert "after" in first["expected"] and "after" in first["got"]


def test_under_immediately_an_open_kans_indicator_after_the_replacement_draw_is_a_mismatch(tmp_path: Path) -> None:
    lines, line = _moved(selfplay_log("wrc2025")[0], "daiminkan", 1)
    first = _replay(tmp_path, lines, "wrc2025")[0]
    assert (first["what"], first["line"]) == ("kan dora indicator", line)
    assert 'kan_dora = "immediately"' in first["note"]


def test_a_missing_or_extra_indicator_is_a_mismatch(tmp_path: Path) -> None:
    lines = list(selfplay_log("house")[0])
    types = _types(lines)
    d = types.index("dora")
    missing = _replay(tmp_path, lines[:d] + lines[d + 1 :], "house", "missing.mjson")[0]
    assert missing["what"] == "kan dora indicator" and missing["expected"] == "no indicator"
    assert missing["line"] == d + 1  # the move the rulebook reveals it before, now on the indicator's old line
    for tile in ("1m", "9p", "E", "C", "5s"):  # a second indicator the tile set still holds a copy of
        again = json.dumps({"type": "dora", "dora_marker": tile})
        extra = _replay(tmp_path, [*lines[: d + 1], again, *lines[d + 1 :]], "house", "extra.mjson")[0]
        if extra["what"] != "the deal":
            break
    assert extra["what"] == "kan dora indicator" and extra["got"] == "no indicator there" and extra["line"] == d + 2


MJLOG = TENHOU / "mjlog" / "2022060100gm-00a9-0000-853b2cc5.mjlog"
OPEN_KAN = re.compile(r'(<N who="(\d)" m="\d+" ?/>)(<[TUVW]\d+/>)(<DORA hai="\d+" ?/>)')


def test_an_mjlog_dora_tag_moved_before_the_replacement_draw_is_a_mismatch_at_its_column(tmp_path: Path) -> None:
    """Tenhou writes an open or added kan's ``DORA`` after the replacement draw; moved before it, replay names the
    tag's line and column."""
    text = MJLOG.read_text(encoding="utf-8")
    match = OPEN_KAN.search(text)
    assert match is not None
    moved = text[: match.start()] + match.group(1) + match.group(4) + match.group(3) + text[match.end() :]
    path = tmp_path / MJLOG.name
    path.write_text(moved, encoding="utf-8")
    found = replay([str(path)], "tenhou", library.scorer).mismatches
    assert [m["what"] for m in found][:1] == ["kan dora indicator"]
    column = match.start() + len(match.group(1)) + 1
    assert (found[0]["line"], found[0]["column"], found[0]["offset"]) == (1, column, column - 1)
    assert found[0]["text"].startswith(f"{found[0]['round']}, line 1, column {column}: kan dora indicator")
    assert replay([str(MJLOG)], "tenhou", library.scorer).mismatches == []  # as Tenhou wrote it: in place


def test_tenhou6_logs_list_indicators_without_a_place_so_only_their_number_counts() -> None:
    """tenhou.net/6 has no event order for indicators (its reader places them by Tenhou's convention): moved
    elsewhere they still replay clean, as long as the round reveals as many; the same move in a log that does say
    the order (``ordered``) is a mismatch."""
    from engine.replay.events import NewDoraIndicator
    from engine.replay.rounds import ReplayReport, replay_events
    from engine.replay.tenhou6 import read_tenhou6
    from engine.round.rules import round_rules
    from ruledsl.record import replace

    events = read_tenhou6(TENHOU / "json" / "2010122717gm-00a9-0000-8e787e61.json")
    d = next(i for i, e in enumerate(events) if isinstance(e, NewDoraIndicator))
    assert not events[d].ordered  # type: ignore[union-attr]
    rules = round_rules(library.scorer("tenhou"))

    def mismatches(log: list) -> list[str]:
        report = ReplayReport()
        replay_events(log, rules, "x.json", report)
        return [m["what"] for m in report.mismatches if m["what"] == "kan dora indicator"]

    moved = [*events[: d - 1], events[d], events[d - 1], *events[d + 1 :]]
    assert mismatches(events) == [] and mismatches(moved) == []
    placed = [*events[: d - 1], replace(events[d], ordered=True), events[d - 1], *events[d + 1 :]]
    assert mismatches(placed) == ["kan dora indicator"]
