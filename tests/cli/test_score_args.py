"""``riichi score``'s quick argument reader (``engine.cli.score_args``) against argparse's parser of the same
command (``engine.cli.score_options``): whatever the quick reader accepts, argparse reads to the same namespace,
and whatever argparse refuses, the quick reader leaves to it (so its message and exit code are argparse's)."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.cli as cli
from engine.cli import score_args

HAND = ["234m567m789p46s88p5s", "--win", "5s", "--seat", "S", "--riichi", "--dora", "4s"]


def _subparser() -> Any:
    parser = cli.build_parser(["score"])
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    return sub.choices["score"]


def by_argparse(words: list[str]) -> dict[str, Any] | None:
    """The namespace argparse reads from ``riichi score WORDS``, or None when it refuses them."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(cli.build_parser(["score"]).parse_args(["score", *words]))
        except SystemExit:
            return None


def by_quick_reader(words: list[str]) -> dict[str, Any] | None:
    found = score_args.read(words)
    return None if found is None else vars(found)


def test_the_tables_name_every_option_of_the_parser_with_its_attribute() -> None:
    quick = {
        **score_args.VALUES, **score_args.WINDS, **score_args.COUNTS, **score_args.LISTS, **score_args.MELDS,
        **score_args.SWITCHES,
    }
    parsed = {option: action.dest for action in _subparser()._actions for option in action.option_strings}
    del parsed["-h"], parsed["--help"]
    assert quick == parsed


def test_nothing_given_is_argparse_s_defaults() -> None:
    assert by_quick_reader([]) == by_argparse([])


@pytest.mark.parametrize(
    "words",
    [
        HAND,
        ["--json"],
        ["--json", "--rulebook", "mleague", "--rulebook-dir", "a", "--rulebook-dir", "b"],
        ["123m", "456p", "789s11z22z", "--win", "2z", "--tsumo", "--round", "S", "--honba", "2", "--sticks", "007"],
        ["--pon", "555z", "123m456p78s", "--chi", "789p", "--win", "9s", "--ankan", "1111m", "--pon", "666z"],
        ["--win", "5s", "234m567m789p46s88p5s", "--liable", "W", "--from", "N", "--dealer-wins", "3", "--kita", "1"],
        ["", "--win", ""],
        ["--win", "5s", "--win", "6s", "1m"],
    ],
)
def test_the_common_forms_are_read_without_argparse_to_the_same_namespace(words: list[str]) -> None:
    quick = by_quick_reader(words)
    assert quick is not None and quick == by_argparse(words)


@pytest.mark.parametrize(
    "words",
    [
        ["--help"], ["-h"], ["123m", "--win"], ["--win=5s", "123m"], ["123m", "--ri", "--win", "1m"], ["--seat", "X"],
        ["--seat", "ES"], ["--seat", ""], ["--honba", "-1"], ["--honba", "x"], ["--honba", " 2"], ["--honba", "٣"],
        ["123m", "--win", "1m", "456p"], ["--", "123m"], ["-1m"], ["--dora", "-"], ["--version"], ["--jso"],
    ],
)
def test_anything_else_is_left_to_argparse(words: list[str]) -> None:
    assert by_quick_reader(words) is None


WORDS = st.sampled_from(
    [
        *score_args.VALUES, *score_args.WINDS, *score_args.COUNTS, *score_args.LISTS, *score_args.MELDS,
        *score_args.SWITCHES, "-h", "--help", "--", "-", "--ri", "--win=5s", "--seat=E", "--no-such", "-1", "-x",
        "E", "S", "W", "N", "ES", "", "0", "3", "12", "-2", "x", " 1", "5s", "123m", "555z", "234m567m789p46s88p5s",
        "house", "a b",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=9))
def test_the_quick_reader_never_disagrees_with_argparse(words: list[str]) -> None:
    quick = by_quick_reader(words)
    if quick is not None:
        assert quick == by_argparse(words)


def test_main_reads_a_common_score_command_without_argparse(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def refuse(argv: Any = None) -> Any:
        raise AssertionError("argparse was built")

    monkeypatch.setattr(cli, "build_parser", refuse)
    assert cli.main(["score", *HAND]) == 0
    assert "total: 2,600" in capsys.readouterr().out
