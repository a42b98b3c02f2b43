"""`riichi analyze`: the human line, the JSON answer, the stdin batch, and exit codes per the contract."""

from __future__ import annotations

import io
import json

import pytest

from engine.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["analyze", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def feed(monkeypatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def test_tenpai_hand_in_words(capsys):
    assert run(capsys, "2333m") == (0, "2333m: tenpai (shanten 0), waits 1m 2m 4m\n", "")


def test_tiles_may_be_split_over_arguments(capsys):
    code, out, _ = run(capsys, "123m", "456p", "789s", "1122z")
    assert code == 0
    assert out == "123m456p789s1122z: tenpai (shanten 0), waits 1z 2z\n"


def test_hand_far_from_tenpai(capsys):
    code, out, _ = run(capsys, "13579m13579p135s")
    assert (code, out) == (0, "13579m13579p135s: not tenpai (shanten 4)\n")


def test_complete_hand_lists_its_readings(capsys):
    code, out, _ = run(capsys, "11223344556677m")
    assert code == 0
    assert out.splitlines() == [
        "11223344556677m: complete (shanten -1)",
        "  standard: 123m 123m 456m 456m 77m",
        "  standard: 123m 123m 567m 567m 44m",
        "  standard: 234m 234m 567m 567m 11m",
        "  seven_pairs: 11m 22m 33m 44m 55m 66m 77m",
    ]


def test_incomplete_fourteen(capsys):
    code, out, _ = run(capsys, "123m456p789s11234z")
    assert (code, out) == (0, "123m456p789s11234z: not complete (shanten 1)\n")


def test_json_answer(capsys):
    code, out, err = run(capsys, "2333m", "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {
        "ok": True,
        "tiles": "2333m",
        "shanten": 0,
        "waits": ["1m", "2m", "4m"],
        "complete": False,
        "decompositions": [],
    }


def test_json_answer_for_a_complete_hand(capsys):
    _, out, _ = run(capsys, "--json", "123m456m789m111z55p")
    answer = json.loads(out)
    assert answer["complete"] is True
    assert answer["decompositions"] == [
        {"shape": "standard", "groups": ["123m", "456m", "789m", "111z", "55p"]}
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["123m4"], "riichi analyze: error: digits at the end have no suit letter (m, p, s or z)"),
        (["123m"], "riichi analyze: error: 3 tiles given; a hand to analyse holds 3n+1 tiles"),
        (
            ["11111m", "--json"],
            "riichi analyze: error: `1m` appears 5 times; there are only 4 copies of each tile",
        ),
        ([], "riichi analyze: error: give the tiles to analyse"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(message)
    assert "Traceback" not in err


def test_batch_answers_every_line_in_order(monkeypatch, capsys):
    feed(monkeypatch, "2333m\n\n123m4\n  \n11m\n123m\n19m19p19s1234567z\n")
    code, out, err = run(capsys, "--json")
    assert code == 0 and err == ""
    answers = [json.loads(line) for line in out.splitlines()]
    blank = [answers.pop(3), answers.pop(1)]  # blank lines are answered too (contract: every line gets an answer)
    assert [a["error"]["code"] for a in blank] == ["invalid_request", "invalid_request"]
    assert [a["ok"] for a in answers] == [True, False, True, False, True]
    assert answers[0]["waits"] == ["1m", "2m", "4m"]
    assert answers[1]["error"]["code"] == "invalid_notation"
    assert answers[1]["error"]["message"].startswith("digits at the end")
    assert answers[2]["complete"] is True
    assert answers[3]["error"]["code"] == "invalid_hand"
    assert len(answers[4]["waits"]) == 13


def test_empty_batch(monkeypatch, capsys):
    feed(monkeypatch, "")
    assert run(capsys, "--json") == (0, "", "")
