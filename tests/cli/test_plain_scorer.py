"""``riichi score HAND`` scores with the reference scorer (nothing prepared ahead), and a JSON-lines batch answers
its first requests under each rulebook with it before building the fast scorer: every answer, text and JSON, is
the fast scorer's, on the peer cross-check's random hands and under rulebooks of every kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import score as score_cli
from engine.cli.arguments import load_scorer
from engine.cli.score_text import render
from engine.core.errors import EngineError
from engine.scoring import library
from engine.scoring.score import Scorer
from tests.peer_oracle import random_requests

RULEBOOKS = ["house", "mleague", "wrc2025", "sanma", "tenhou", "mahjchina"]


def _answer(scorer: Scorer, request: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "ok", scorer.score(dict(request))
    except EngineError as exc:
        return "error", exc.to_json()


@pytest.mark.parametrize("name", RULEBOOKS)
def test_the_one_hand_scorer_answers_and_prints_as_the_fast_one(name: str) -> None:
    plain, fast = load_scorer(name, plain=True), load_scorer(name)
    assert plain.prepared.reference and not fast.prepared.reference
    scored = 0
    for request in random_requests(20261202, 150):
        got, expected = _answer(plain, request), _answer(fast, request)
        assert got == expected, request
        if got[0] == "ok":
            scored += 1
            assert render(got[1], request, players=plain.prepared.players) == render(expected[1], request, players=fast.prepared.players)
    assert scored > 15  # three-player rulebooks refuse most of these four-player hands


def test_a_batch_answers_alike_before_and_after_its_fast_scorer_is_built() -> None:
    """More requests than ``FAST_AFTER`` under two rulebooks: the plain scorer answers the first ones under each,
    then the fast one takes its place; every line's answer is the one the shared fast scorer gives."""
    requests = random_requests(7, 3 * score_cli.FAST_AFTER)
    # fewer than FAST_AFTER under mleague, spread among more than that under house
    lines = [json.dumps(dict(r, rulebook="mleague" if i % 4 == 0 else "house")) for i, r in enumerate(requests)]
    scorers = score_cli._Scorers()
    policy = library.RulebookPolicy.of(None)
    got = [score_cli.answer_line(line, None, scorers, policy) for line in lines]
    expected = [score_cli.answer_line(line, None) for line in lines]
    assert got == expected
    assert type(scorers["house"]) is Scorer and type(scorers["mleague"]) is score_cli._Warming  # mleague: a quarter of them
    assert scorers["house"] is library.scorer("house")


def test_an_evicted_warming_scorer_is_not_put_back() -> None:
    scorers = score_cli._Scorers()
    warming = scorers["house"]
    assert isinstance(warming, score_cli._Warming)
    del scorers["house"]
    warming.left = 0
    request = {"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True, "dora_indicators": "4s"}
    assert warming.score(request)["total"] == 2600
    assert "house" not in scorers


def test_lines_waiting_counts_what_has_arrived_without_waiting() -> None:
    """A pipe holding more than the stream's buffer took gives the buffer's lines; an open pipe with nothing more
    in it gives 0 at once, whatever the buffer holds (a program that sends one request and waits for its answer);
    a pipe at its end and a stream without a descriptor give 0."""
    import io
    import os

    line = b'{"hand": "123456789m1122z", "win": "1z"}' + b" " * 59 + b"\n"  # 100 bytes
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb", buffering=8192) as source:
        assert score_cli._lines_waiting(source) == 0  # open, empty: must not wait
        os.write(write_end, line * 200)
        assert source.readline() == line
        assert score_cli._lines_waiting(source) == 8192 // 100 - 1  # the rest of the buffer's lines
        os.close(write_end)
        source.read()
        assert score_cli._lines_waiting(source) == 0  # at its end
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb", buffering=8192) as source:
        os.write(write_end, line * 20)
        assert source.readline() == line
        assert score_cli._lines_waiting(source) == 0  # the rest all in the buffer: looking there could wait
        os.close(write_end)
    assert score_cli._lines_waiting(io.BytesIO(b"x\n" * 40)) == 0  # no descriptor
    assert score_cli._lines_waiting(io.StringIO("x\n")) == 0


def test_lines_waiting_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_bytes(b"{}\n" * 40)
    with path.open("rb") as source:
        assert source.readline() == b"{}\n"
        assert score_cli._lines_waiting(source) == 39


def test_a_long_batch_piped_in_builds_its_fast_scorer_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """When enough further lines have arrived with a rulebook's first request, the batch starts with the fast
    scorer; with fewer, the reference scorer answers first; the answers are the same either way."""
    lines = [json.dumps(r) for r in random_requests(11, 8)]
    for waiting, kind in ((score_cli.FAST_AFTER, Scorer), (0, score_cli._Warming)):
        scorers = score_cli._Scorers(waiting=lambda waiting=waiting: waiting)
        policy = library.RulebookPolicy.of(None)
        got = [score_cli.answer_line(line, None, scorers, policy) for line in lines]
        assert type(scorers["house"]) is kind
        assert got == [score_cli.answer_line(line, None) for line in lines]


def test_a_warming_scorer_gives_way_once_the_batch_is_known_to_go_past_it() -> None:
    """With 10 further lines always in sight, the 7th request is the first whose lines show a 17th: the fast
    scorer answers it (and the rest), the reference scorer the first six."""
    lines = [json.dumps(r) for r in random_requests(12, 8)]
    scorers = score_cli._Scorers(waiting=lambda: 10)
    policy = library.RulebookPolicy.of(None)
    got = []
    for line in lines:
        got.append(score_cli.answer_line(line, None, scorers, policy))
        assert type(scorers["house"]) is (Scorer if len(got) >= 16 - 10 + 1 else score_cli._Warming)
    assert got == [score_cli.answer_line(line, None) for line in lines]
