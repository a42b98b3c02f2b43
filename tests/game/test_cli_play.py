"""`riichi play`: exit 0, one JSON game result a line with `--json`, games/s on stderr, mjai files with `--mjai`,
clear errors for bad input."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.game import GameResult
from engine.protocol.mjai import read_lines


def test_json_prints_one_valid_result_per_game(capsys):
    assert main(["play", "--rulebook", "house", "--games", "2", "--seed", "5", "--agents", "shanten", "--json"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 2
    results = [GameResult.model_validate(json.loads(line)) for line in lines]
    assert [r.seed for r in results] == [5, 6]
    assert "games/s" in err


def test_a_game_of_a_run_replays_alone_from_its_seed(capsys):
    main(["play", "--games", "2", "--seed", "5", "--agents", "shanten", "--json"])
    second = capsys.readouterr().out.splitlines()[1]
    main(["play", "--games", "1", "--seed", "6", "--agents", "shanten", "--json"])
    assert capsys.readouterr().out.strip() == second


def test_text_output_is_one_line_per_game(capsys):
    assert main(["play", "--rulebook", "tenhou_sanma", "--agents", "tsumogiri"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("seed 0: ") and out.count("\n") == 1


def test_mjai_writes_each_game_as_json_lines(tmp_path, capsys):
    assert main(["play", "--games", "2", "--agents", "shanten", "--mjai", str(tmp_path / "logs")]) == 0
    files = sorted((tmp_path / "logs").iterdir())
    assert [f.name for f in files] == ["game-0.mjson", "game-1.mjson"]
    events = list(read_lines(files[0].read_text().splitlines()))
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    assert any(e["type"] == "dahai" for e in events)


def test_mjai_seat_writes_the_stream_that_seat_received(tmp_path, capsys):
    logs = tmp_path / "logs"
    assert main(["play", "--rulebook", "tenhou_sanma", "--agents", "shanten", "--mjai", str(logs), "--mjai-seat", "2"]) == 0
    assert sorted(f.name for f in logs.iterdir()) == ["game-0-seat2.mjson", "game-0.mjson"]
    full = [json.loads(line) for line in (logs / "game-0.mjson").read_text().splitlines()]
    seen = [json.loads(line) for line in (logs / "game-0-seat2.mjson").read_text().splitlines()]
    assert len(seen) == len(full) and seen[-1] == full[-1]
    assert all(e["pai"] == "?" for e in seen if e["type"] == "tsumo" and e["actor"] != 2)
    assert all(e["pai"] != "?" for e in seen if e["type"] == "tsumo" and e["actor"] == 2)
    assert all(set(e["tehais"][0]) == {"?"} and "?" not in e["tehais"][2] for e in seen if e["type"] == "start_kyoku")
    assert main(["play", "--mjai-seat", "1"]) == 2
    assert "give --mjai DIR too" in capsys.readouterr().err
    assert main(["play", "--rulebook", "tenhou_sanma", "--mjai", str(logs), "--mjai-seat", "3"]) == 2
    assert "seats of tenhou_sanma are 0 to 2" in capsys.readouterr().err


def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path):
    assert main(["play", "--rulebook", "nonesuch"]) == 2
    with pytest.raises(SystemExit) as usage:  # argparse's own usage error, exit code 2
        main(["play", "--games", "0"])
    assert usage.value.code == 2
    afile = tmp_path / "file"
    afile.write_text("x")
    assert main(["play", "--mjai", str(afile)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "not a directory" in err


def test_the_game_result_schema_is_printed(capsys):
    assert main(["schema", "game-result"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert set(schema["required"]) >= {"rulebook", "seed", "rounds", "final_points", "placement", "uma_oka", "scores", "ended_by"}


def test_one_agent_per_seat(capsys):
    assert main(["play", "--agents", "shanten,random,random,random", "--json"]) == 0
    GameResult.model_validate(json.loads(capsys.readouterr().out))
    assert main(["play", "--agents", "shanten,random"]) == 2
    assert "2 agents for 4 players" in capsys.readouterr().err


def test_a_rulebook_without_the_table_a_game_needs_is_a_clear_error(tmp_path, capsys):
    bare = tmp_path / "bare.rulebook"
    bare.write_text('rulebook bare "bare"\n\n@clause("x")\nsettings table {\n  players = 4\n}\n')
    assert main(["play", "--rulebook", str(bare)]) == 2
    err = capsys.readouterr().err
    assert "a game needs `start_points`, `rounds`, `riichi_deposit` in `settings table`" in err
