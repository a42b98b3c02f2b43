"""The edges of the ``riichi`` front door and of ``riichi replay`` and ``riichi serve``: every mistake a user can
make is one readable line and the contract's exit code, never a traceback, and the options do what their help says.

``riichi serve`` is run with uvicorn replaced by a recorder, so that the options reaching the application (the
clamped timeout and worker count, the host shown to the operator) are checked without opening a socket.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import engine.cli as cli
from engine.cli import main
from engine.cli import replay as replay_cli
from engine.errors import InvalidRequest
from engine.replay.rounds import ReplayReport

ROOT = Path(__file__).resolve().parents[2]
EXCERPT = ROOT / "tests" / "data" / "tenhou" / "excerpts" / "chankan.json"

# ---------------------------------------------------------------- the front door


def test_no_command_prints_the_command_list_and_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert all(name in err for name, _, _ in cli.SUBCOMMANDS)


def test_a_misspelt_command_suggests_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scroe", "123m"]) == 2
    err = capsys.readouterr().err
    assert "unknown command `scroe`" in err and "score" in err and "Traceback" not in err


def test_a_word_close_to_no_command_lists_them_all(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["xyzzyqwert"]) == 2
    err = capsys.readouterr().err
    assert "unknown command `xyzzyqwert`" in err and "commands: score, analyze" in err


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("riichi ")


def test_version_from_a_source_tree_never_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert cli._version() == "unknown (not installed)"


def test_a_usage_mistake_is_exit_2_with_the_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "--no-such-option"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: riichi") and "error: unrecognized arguments: --no-such-option" in err
    with pytest.raises(SystemExit) as exc:
        main(["score", "123m", "--win"])  # an option missing its value: the command's own usage
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "usage: riichi score" in err and "--win: expected one argument" in err and "Traceback" not in err


def test_the_full_parser_knows_every_command_and_its_options() -> None:
    parser = cli.build_parser()  # no argv: every command's module loaded (what --help and docs use)
    args = parser.parse_args(["replay", "x.mjlog", "--json"])
    assert args.command == "replay" and args.paths == ["x.mjlog"] and args.json is True
    assert parser.parse_args(["serve", "--port", "9000"]).port == 9000


def test_only_the_named_command_is_configured() -> None:
    parser = cli.build_parser(["score"])
    assert parser.parse_args(["score", "123m", "--win", "1m"]).win == "1m"
    with pytest.raises(SystemExit):  # a command named first: the other commands' parsers are not even built
        parser.parse_args(["replay", "any", "words"])
    # named after an option (``riichi -h score``): every command is listed, the others take anything (their module
    # is not imported), the named one knows its own options
    parser = cli.build_parser(["-h", "score"])
    assert parser.parse_args(["replay", "any", "words"]).rest == ["any", "words"]
    assert parser.parse_args(["score", "123m", "--win", "1m"]).win == "1m"


def test_python_dash_m_engine_cli_is_the_riichi_command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import runpy

    codes = _fake_exit(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["riichi", "rulebooks"])
    monkeypatch.delitem(sys.modules, "engine.cli.__main__", raising=False)
    with pytest.raises(_Left):
        runpy.run_module("engine.cli", run_name="__main__")
    assert codes == [0]
    assert "house" in capsys.readouterr().out


def test_a_command_whose_module_is_not_built_says_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(cli, "SUBCOMMANDS", (*cli.SUBCOMMANDS, ("ghost", "engine.cli.ghost_not_here", "a future command")))
    assert main(["ghost"]) == 2
    assert "riichi ghost: not built yet in this version" in capsys.readouterr().err


def test_a_missing_dependency_inside_a_command_is_not_mistaken_for_a_missing_command(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    def broken(name: str) -> Any:
        raise ModuleNotFoundError("No module named 'somedependency'", name="somedependency")

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError):
        cli._load("engine.cli.score")


class _Raising:
    """A command module whose ``run`` raises what the test gives it."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def configure(self, parser: Any) -> None:
        parser.add_argument("rest", nargs="*")

    def run(self, args: Any) -> int:
        raise self.error


@pytest.mark.parametrize(
    ("error", "code", "message"),
    [
        (InvalidRequest("the hand has 15 tiles"), 2, "riichi rulebooks: error: the hand has 15 tiles"),
        (KeyboardInterrupt(), 130, ""),
        (BrokenPipeError(), 0, ""),
        (ZeroDivisionError("division by zero"), 3, "riichi rulebooks: internal error while running `riichi rulebooks` (ZeroDivisionError: "
         "division by zero); this is a bug of the engine, please report it with the input that caused it"),
    ],
)
def test_what_a_command_raises_becomes_an_exit_code_and_one_line(
    error: BaseException, code: int, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = _Raising(error)
    real_load = cli._load
    monkeypatch.setattr(cli, "_load", lambda name: fake if name == "engine.cli.rulebooks" else real_load(name))
    assert main(["rulebooks"]) == code
    err = capsys.readouterr().err
    assert err.strip() == message and "Traceback" not in err


# ---------------------------------------------------------------- riichi replay


def test_replay_of_a_path_that_does_not_exist_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nowhere.mjlog")]) == 2
    assert "nowhere.mjlog` does not exist" in capsys.readouterr().err


def test_replay_under_an_unknown_rulebook_fails_before_reading_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXCERPT), "--rulebook", "no_such_rulebook"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("riichi replay: error:") and "no_such_rulebook" in err


def test_replay_json_reports_a_matching_round(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXCERPT), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1 and report["rounds"] == report["rounds_matched"] >= 1
    assert report["mismatches"] == [] and report["errors"] == []


def test_replay_of_only_bad_files_is_bad_input_and_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.mjlog"
    bad.write_text("<mjloggm ver='2.3'><UN n0='", encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    out = capsys.readouterr().out
    assert f"{bad}: not replayed: " in out and "0 games" in out and "1 files not replayed" in out


def test_replay_of_a_folder_skips_what_is_not_a_log_and_replays_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a log", encoding="utf-8")
    (tmp_path / EXCERPT.name).write_bytes(EXCERPT.read_bytes())
    bad = tmp_path / "broken.json"
    bad.write_text("{\"log\": [[[0, 0, 0], ", encoding="utf-8")
    assert main(["replay", str(tmp_path)]) == 1  # one good game, one file not replayed: some trouble, not bad input
    out = capsys.readouterr().out
    assert "notes.txt: skipped: " in out and "broken.json: not replayed: " in out
    assert "1 games" in out and "1 files not replayed" in out


def test_replay_text_shows_fifty_mismatches_and_counts_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    report = ReplayReport(games=1, rounds=60, mismatches=[{"file": "g.mjlog", "text": f"E{i}: differs"} for i in range(57)])
    replay_cli._print_text(report)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "g.mjlog E0: differs" and lines[49] == "g.mjlog E49: differs"
    assert lines[50] == "... and 7 more mismatches (--json lists them all)"
    assert lines[51].startswith("1 games, 60 rounds, 0 matched") and lines[51].endswith("57 mismatches")


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_replay_progress_draws_after_half_a_second_and_erases_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(replay_cli.time, "monotonic", clock)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = replay_cli._Progress(enabled=True)
    bar(1, 4, "logs/first.mjlog")  # too soon: a quick run shows no bar
    assert err.getvalue() == ""
    clock.now += 1
    bar(1, 1, "logs/only.mjlog")  # a single file: no bar
    assert err.getvalue() == ""
    bar(2, 4, "logs/second.mjlog")
    drawn = err.getvalue()
    assert drawn.startswith("\r[" + "#" * 15 + "." * 15 + "] 2/4 second.mjlog")
    bar.close()
    assert err.getvalue().endswith("\r" + " " * 80 + "\r")


def test_replay_progress_disabled_or_never_shown_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(replay_cli.time, "monotonic", clock)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    quiet = replay_cli._Progress(enabled=False)
    clock.now += 5
    quiet(2, 4, "x.mjlog")
    quiet.close()
    replay_cli._Progress(enabled=True).close()
    assert err.getvalue() == ""


# ---------------------------------------------------------------- riichi serve


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Any:
    """uvicorn.run replaced by a recorder; the application it was given is closed after the test."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    calls: list[dict[str, Any]] = []

    def record(app: Any, **kwargs: Any) -> None:
        calls.append({"app": app, **kwargs})

    monkeypatch.setattr(uvicorn, "run", record)
    yield calls
    for call in calls:
        call["app"].state.riichi.close()


def test_serve_passes_its_options_to_the_application(served: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "8123", "--rulebook-dir", str(tmp_path), "--timeout", "0.01", "--workers", "0", "--log-level", "info"]) == 0
    (call,) = served
    assert call["host"] == "127.0.0.1" and call["port"] == 8123 and call["log_level"] == "info"
    state = call["app"].state.riichi
    assert state.pool.timeout == 0.5  # a timeout under half a second is raised to it
    assert state.pool.size == 1  # and at least one worker
    assert state.pool.folder == str(tmp_path)  # uploads' `extends` look beside the operator's files
    assert "riichi serve: http://127.0.0.1:8123/" in capsys.readouterr().err


def test_serve_keeps_the_defaults_when_not_told(served: list[dict[str, Any]]) -> None:
    from engine.web.state import ServerOptions

    assert main(["serve"]) == 0
    pool = served[0]["app"].state.riichi.pool
    assert pool.timeout == ServerOptions().timeout and pool.size == ServerOptions().workers


def test_serve_shows_an_ipv6_host_in_brackets(served: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "::1", "--port", "8001"]) == 0
    assert served[0]["host"] == "::1"
    assert "http://[::1]:8001/" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["0", "65536", "-3"])
def test_serve_refuses_a_port_out_of_range(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    assert main(["serve", "--port", port]) == 2
    assert f"--port must be between 1 and 65535, got {port}" in capsys.readouterr().err


class _Left(Exception):
    """What the fake ``os._exit`` raises, so that the test process itself stays."""


def _fake_exit(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    codes: list[int] = []

    def leave(code: int) -> None:
        codes.append(code)
        raise _Left

    monkeypatch.setattr(cli.os, "_exit", leave)
    return codes


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["score", "234m567m789p46s88p5s", "--win", "5s", "--riichi"], 0),
        (["score", "234m567m789p46s88p5s", "--win", "5s"], 1),  # no yaku
        (["score", "123m", "--win", "1m"], 2),
        (["rulebooks"], 0),
    ],
)
def test_the_console_script_leaves_without_teardown_with_mains_exit_code(
    argv: list[str], code: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    codes = _fake_exit(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["riichi", *argv])
    with pytest.raises(_Left):
        cli.console()
    assert codes == [code]
    written = capsys.readouterr()
    assert written.out if code == 0 else written.err  # what main printed was written before leaving


@pytest.mark.parametrize("command", sorted(cli._NORMAL_EXIT))
def test_commands_with_workers_end_the_normal_way(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _fake_exit(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["riichi", command, "--help"])
    monkeypatch.setattr(cli, "main", lambda: 0)
    with pytest.raises(SystemExit) as exc:
        cli.console()
    assert exc.value.code == 0 and codes == []


def test_the_console_script_survives_closed_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _fake_exit(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["riichi", "rulebooks"])
    monkeypatch.setattr(cli, "main", lambda: 0)

    class Broken(io.StringIO):
        def flush(self) -> None:
            raise BrokenPipeError

    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", Broken())
    with pytest.raises(_Left):
        cli.console()
    assert codes == [0]


def test_python_dash_m_engine_cli_keeps_exit_codes_and_output() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "234m567m789p46s88p5s", "--win", "5s"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1 and "no_yaku" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "score", "234m567m789p46s88p5s", "--win", "5s", "--riichi"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0 and "total: 2,000" in done.stdout


def test_serve_passes_its_bounds_to_the_application_and_uvicorn(served: list[dict[str, Any]]) -> None:
    options = ["--allow-host", "club.example", "--allow-host", "lan.example", "--queue", "3", "--body-timeout", "4",
               "--header-timeout", "2", "--max-connections", "50"]
    assert main(["serve", "--port", "8002", *options]) == 0
    (call,) = served
    state = call["app"].state.riichi
    assert state.jobs.queue == 3 and call["timeout_keep_alive"] == 5
    assert "GuardedProtocol" in call["http"].__name__ and "limit_concurrency" not in call
