"""A win's value as the replay compares it (``_compare_value``, the compared parts alone) gives the verdict of the
two whole results compared (the log's ``expected_result`` against the answer), on the vendored logs' wins and on
changed answers and logs."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

from engine.replay.compare import rulebook_for, yaku_view
from engine.replay.events import Win
from engine.replay.rounds import _compare_value, game_start, read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.replay.win_situations import expected_result
from engine.round.rules import round_rules
from engine.scoring import library
from ruledsl.record import replace

LOGS = sorted((Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog").iterdir())[:12]


def _wins() -> list[tuple[Win, dict[str, Any]]]:
    """Each logged win of the first logs with the round engine's score response for it."""
    found = []
    for path in LOGS:
        events = read_events(path)
        rules = round_rules(library.scorer(rulebook_for(game_start(events))))
        _, rounds, _ = split_rounds(events)
        for k, (index, start, body) in enumerate(rounds):
            played = replay_round(rules, start, body, index + 1, first_round=k == 0)
            if played.round is None or played.round.settled is None:
                continue
            answers = {w.seat: w.result.answer for w in played.round.settled.wins}
            found += [(e, answers[e.who]) for e in body if type(e) is Win and e.who in answers]
    return found


def _value_difference(win: Win, mine: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The log's whole result (``expected_result``) against the answer, on han, fu, yaku and the yakuman count;
    None when they agree."""
    expected = expected_result(win)
    got = {"yaku": yaku_view(mine), "yakuman": mine.get("yakuman", 0)}
    want = {"yaku": expected["yaku"], "yakuman": expected["yakuman"]}
    if not expected["yakuman"]:
        got["han"], want["han"] = mine["han"], expected["han"]
        if expected["fu"] is not None:
            got["fu"], want["fu"] = mine["fu"], expected["fu"]
    else:
        got["yakuman"] = sum(1 for y in got["yaku"] if "yakuman" in y)
    return None if got == want else (want, got)


def _changed(mine: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The answer with one thing changed: han, fu, the yakuman count, a yaku line's han or id, a line less."""
    out = copy.deepcopy(mine)
    what = rng.randrange(6)
    if what == 0:
        out["han"] = out.get("han", 0) + 1
    elif what == 1:
        out["fu"] = out.get("fu", 0) + 10
    elif what == 2:
        out["yakuman"] = out.get("yakuman", 0) + 1
    elif what == 3 and out["yaku"]:
        line = rng.choice(out["yaku"])
        if "han" in line:
            line["han"] += 1
        else:
            line["yakuman"] = 1
            line["han"] = 1
    elif what == 4 and out["yaku"]:
        rng.choice(out["yaku"])["id"] = "chiitoitsu"
    elif out["yaku"]:
        out["yaku"].pop(rng.randrange(len(out["yaku"])))
    return out


def test_the_value_compared_line_by_line_is_the_whole_results_verdict() -> None:
    wins = _wins()
    assert len(wins) > 100
    rng = random.Random(5)
    compared, agreed = 0, 0
    for win, mine in wins:
        logs = [win, replace(win, fu=None), replace(win, yaku=win.yaku[:-1]), replace(win, yakuman=(37,))]
        answers = [mine] + [_changed(mine, rng) for _ in range(4)]
        for log in logs:
            for answer in answers:
                verdict = _value_difference(log, answer)
                assert _compare_value(log, answer) == verdict
                compared += 1
                agreed += verdict is None
    assert compared > 2000 and 100 < agreed < compared - 1000  # both verdicts, many times
