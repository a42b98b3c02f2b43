"""The small commands' edges: `riichi schema`, `riichi rulebooks` on a broken file, `riichi check` and `riichi explain`
on unreadable or unresolvable input, and the settings changes `riichi diff` blames a witness hand on."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cli import check as check_cli
from engine.cli import explain as explain_cli
from engine.cli import main
from engine.cli import rulebooks as rulebooks_cli
from engine.cli.schema import SCHEMAS
from engine.core.errors import EngineError
from engine.diff import change_witnesses
from engine.diff.witness import Outcome
from engine.scoring.library import scorer
from engine.services import check as check_service
from engine.services import rulebooks as rulebooks_service
from ruledsl.diagnostics import RulebookError
from ruledsl.resolve import UnknownRulebookError
from ruledsl.rulebook_changes import Change, diff

# ---------------------------------------------------------------- schema


def test_schema_without_a_name_lists_every_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert capsys.readouterr().out.split() == list(SCHEMAS)


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_schema_prints_the_models_json_schema(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", name]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == SCHEMAS[name].model_json_schema()
    assert printed["type"] == "object" and printed["properties"]


def test_schema_request_names_the_hand_and_the_winning_tile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "score-request"]) == 0
    properties = json.loads(capsys.readouterr().out)["properties"]
    assert {"hand", "win", "rulebook"} <= set(properties)


def test_an_unknown_schema_is_bad_input_naming_the_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "score-requets"]) == 2
    err = capsys.readouterr().err
    assert "unknown schema `score-requets`" in err and all(name in err for name in SCHEMAS)
    assert "Traceback" not in err


# ---------------------------------------------------------------- rulebooks


def test_a_bundled_rulebook_that_cannot_be_read_is_listed_with_its_trouble(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    parse = rulebooks_service.parse

    def broken_sanma(text: str, file: str) -> Any:
        if file.endswith("/sanma.rulebook"):
            raise RulebookError([])
        return parse(text, file)

    monkeypatch.setattr(rulebooks_service, "parse", broken_sanma)
    rows = {row["name"]: row for row in rulebooks_cli.listing()}
    assert rows["sanma"] == {"name": "sanma", "title": "(cannot be read; see `riichi check`)", "extends": None}
    assert rows["house"]["title"] and rows["wrc2025"]["extends"] is not None
    assert main(["rulebooks"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(rows)
    assert any(line.startswith("sanma ") and "cannot be read" in line for line in lines)


# ---------------------------------------------------------------- check and explain


def test_an_unreadable_report_says_so_in_text_and_json() -> None:
    report = check_cli.FileReport("x.rulebook", unreadable="`x.rulebook`: no such file")
    assert not report.ok
    assert report.summary() == "x.rulebook: unreadable"
    data = report.to_json()
    assert data["unreadable"] == "`x.rulebook`: no such file" and data["ok"] is False


def test_a_path_the_system_cannot_open_is_unreadable(capsys: pytest.CaptureFixture[str]) -> None:
    name = "x" * 300 + ".rulebook"  # longer than any file name may be: an OSError that is not "no such file"
    assert main(["check", name]) == 2
    err = capsys.readouterr().err
    assert "cannot be read" in err and "Traceback" not in err


def test_a_rulebook_that_vanishes_before_it_is_resolved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read as a bundled name, then gone (an install changed under the process): one error line, exit 2."""

    def vanished(ref: str, **_: object) -> object:
        raise UnknownRulebookError(ref)

    monkeypatch.setattr(check_service, "resolve", vanished)
    monkeypatch.setattr(explain_cli, "resolve", vanished)
    report = check_cli.check_target("house")
    assert report.unreadable is not None and report.unreadable.startswith("unknown rulebook `house`")
    assert main(["explain", "house"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("riichi explain: error: unknown rulebook `house`") and "Traceback" not in err


def test_a_rulebook_the_scorer_refuses_reports_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(compiled: object) -> list[object]:
        raise EngineError("a broken settings table")

    monkeypatch.setattr(check_service, "run_examples", refuse)
    report = check_cli.check_target("house")
    assert not report.ok and report.examples_run == 0
    assert [d.message for d in report.diagnostics if d.is_error] == [
        "the scorer cannot use this rulebook: a broken settings table"
    ]
    assert main(["check", "house"]) == 1
    assert "the scorer cannot use this rulebook" in capsys.readouterr().out


# ---------------------------------------------------------------- diff: which hands a settings change is blamed for


def _outcome(ok: bool = True) -> Outcome:
    return Outcome(ok, 1000, 1, 30, 0, None, frozenset(), frozenset(), None, {})


OK, FAILED = _outcome(), _outcome(ok=False)


@pytest.fixture(scope="module")
def sanma_settings() -> dict[str, change_witnesses.Involved]:
    a, b = scorer("house"), scorer("sanma")
    changes = [c for c in diff(a.rulebook.resolved, b.rulebook.resolved) if c.kind == "settings"]
    return {c.name: change_witnesses.involved_test(c, a, b) for c in changes}


def test_red_fives_blame_hands_holding_a_red_five_only_one_side_has(sanma_settings: dict) -> None:
    involved = sanma_settings["red_fives"]  # house: red 5m, 5p, 5s; sanma: 5p and 5s
    assert involved({"hand": "0m"}, OK, OK)
    assert involved({"hand": "1p", "melds": [{"type": "chi", "tiles": "406m"}]}, OK, OK)
    assert not involved({"hand": "0p0s5m"}, OK, OK)


def test_dora_cycles_blame_hands_showing_an_indicator_that_points_elsewhere(sanma_settings: dict) -> None:
    involved = sanma_settings["dora_cycles"]  # sanma: 1m -> 9m, house: 1m -> 2m
    assert involved({"hand": "1p", "dora_indicators": "1m"}, OK, OK)
    assert involved({"hand": "1p", "ura_indicators": "1m"}, OK, OK)
    assert not involved({"hand": "1p", "dora_indicators": "9m1p4z", "ura_indicators": "7z"}, OK, OK)  # 9m -> 1m in both


def test_the_tile_set_blames_hands_holding_a_tile_only_one_side_has(sanma_settings: dict) -> None:
    involved = sanma_settings["tiles"]
    assert involved({"hand": "5m"}, OK, OK)
    assert involved({"hand": "1p", "melds": [{"type": "pon", "tiles": "888m"}]}, OK, OK)
    assert not involved({"hand": "19m19p19s1234567z"}, OK, OK)


def test_players_blame_scored_tsumo_wins_and_kita_hands_with_north_tiles(sanma_settings: dict) -> None:
    players, kita = sanma_settings["players"], sanma_settings["kita"]
    assert players({"tsumo": True}, OK, OK)
    assert not players({"tsumo": False}, OK, OK)
    assert not players({"tsumo": True}, OK, FAILED)
    assert kita({"kita": 1}, OK, OK)
    assert not kita({"kita": 0}, OK, OK) and not kita({}, OK, OK)


def test_any_other_setting_blames_hands_one_side_scores(sanma_settings: dict) -> None:
    """A setting may decide whether a hand wins at all (atozuke, a two-han minimum): a hand one side refuses can
    show it; a hand both refuse cannot."""
    involved = sanma_settings["start_points"]
    assert involved({}, OK, OK)
    assert involved({}, OK, FAILED) and involved({}, FAILED, OK)
    assert not involved({}, FAILED, FAILED)


def test_an_unscored_change_gets_no_witness() -> None:
    a, b = scorer("house"), scorer("sanma")
    report = change_witnesses.diff_with_witnesses(a, b, random_hands=50)
    by_item = {change.item: witness for change, witness in report.changes}
    assert by_item["setting start_points"] is None  # the start points move no hand's score
    assert all(isinstance(change, Change) for change, _ in report.changes)
    assert report.to_json()["changes"][0].keys() >= {"item", "change", "witness", "affects_score"}
