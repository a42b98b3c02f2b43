"""The ``riichi`` front door (``engine.cli.main``) at its edges: every mistake a user can make is one readable
line and the contract's exit code, never a traceback, and the options do what their help says.
"""

from __future__ import annotations

import gc
import io
import sys
from pathlib import Path
from typing import Any

import pytest

import engine.cli as cli
from engine.cli import main
from engine.core.errors import InvalidRequest

ROOT = Path(__file__).resolve().parents[2]


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


# ---- the console script


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
    try:
        with pytest.raises(_Left):
            cli.console()
        # one hand scored: no collection until the process ends (it would find nothing to free)
        assert gc.isenabled() is (argv[0] != "score")
    finally:
        gc.enable()  # the real console script never comes back here: this test process does
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
