"""A bug of ours is never dressed as bad input: ``internal_error`` everywhere (CLI exit 3, a JSON-lines answer,
HTTP 500 in the web tests, ``InternalError`` in Python), and the places that used to swallow any exception catch
only what they mean."""

from __future__ import annotations

import pytest

from engine import cli
from engine.core.errors import CODES, EngineError, InternalError, InvalidHand
from engine.core.hand import Hand
from engine.core.situation import Situation
from engine.scoring.library import scorer
from engine.scoring.plain_request import plain_request

HAND = {"hand": "234m567m789p46s88p5s", "win": "5s"}


def _broken(*args: object, **kwargs: object) -> object:
    raise KeyError("a bug")


def test_internal_error_is_a_contract_code_and_not_an_engine_error():
    assert "internal_error" in CODES
    assert not issubclass(InternalError, EngineError)
    error = InternalError.of(ZeroDivisionError("x"))
    assert error.to_json()["code"] == "internal_error" and "please report" in error.message and "ZeroDivisionError" in error.message


def test_the_cli_gives_a_bug_exit_3_and_one_line_asking_for_a_report(monkeypatch, capsys):
    from engine.cli import rulebooks

    monkeypatch.setattr(rulebooks, "run", _broken)
    assert cli.main(["rulebooks"]) == cli.EXIT_INTERNAL == 3
    err = capsys.readouterr().err
    assert "please report" in err and "KeyError" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_cli_keeps_exit_2_for_bad_input(capsys):
    assert cli.main(["score", "123m", "--win", "1m"]) == 2
    assert "please report" not in capsys.readouterr().err


def test_score_raises_internal_error_for_a_bug_and_engine_errors_for_bad_input(monkeypatch):
    s = scorer("house")
    with pytest.raises(EngineError):
        s.score({"hand": "1m", "win": "1m"})
    monkeypatch.setattr(s, "_best", _broken)
    with pytest.raises(InternalError) as err:
        s.score(dict(HAND))
    assert isinstance(err.value.__cause__, KeyError)


def test_score_hand_tells_a_hand_built_wrong_from_a_bug(monkeypatch):
    """A failure on a Hand no builder makes is the caller's (``invalid_hand``); on a hand the builder makes, ours."""
    s = scorer("house")
    good = s.build_hand(plain_request(HAND))
    wrong = Hand(good.concealed, good.melds, 33)  # its winning tile is not in it: no builder makes it
    monkeypatch.setattr(s, "_best", _broken)
    with pytest.raises(InvalidHand):
        s.score_hand(wrong, Situation())
    with pytest.raises(InternalError):
        s.score_hand(good, Situation())


def test_a_script_that_fails_by_a_bug_is_not_taken_for_no_witness(monkeypatch):
    from engine.round import witness

    rules = witness.round_rules(scorer("house").rulebook)
    monkeypatch.setattr(witness, "play", _broken)
    with pytest.raises(KeyError):
        witness.played(rules, witness.SCRIPTS[0], None)

    def refused(*args: object) -> object:
        raise witness.NotPlayable("a 3-player table")

    monkeypatch.setattr(witness, "play", refused)
    assert witness.played(rules, witness.SCRIPTS[0], None) is None


def test_a_settings_error_carries_the_settings_it_is_about():
    """``change_witnesses`` takes a partner setting along from these names, never from the message's words."""
    from ruledsl.check import check
    from ruledsl.resolve import resolve

    text = 'rulebook t "T" extends house\noverride settings game { extension_rounds = ["W"] }\n'
    found = [d for d in check(resolve("t.rulebook", text=text, file="t.rulebook", keep_going=True)) if d.is_error]
    assert [d.settings for d in found] == [("extension_rounds", "target_points")]


def test_the_worker_answers_a_bug_internal_error():
    from engine.web.worker import _answer

    answer = _answer({"boom": _broken}, "boom", {})
    assert answer["error"]["code"] == "internal_error" and "please report" in answer["error"]["message"]
