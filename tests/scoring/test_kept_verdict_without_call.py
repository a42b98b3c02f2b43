"""A situation's verdict kept as holding lets ``Scorer._score`` go on without calling ``check_cached``: every
situation, with each call shape of hand, is refused or answered exactly as ``check_situation`` decides, on its
first request (the verdict computed) and on the next ones (the verdict read), ``kita`` included (never kept)."""

from __future__ import annotations

import random

from engine.core.errors import EngineError, InvalidSituation
from engine.core.situation import FLAG_FIELDS, SITUATION_FIELDS, WIND_FIELDS, checked_situation
from engine.scoring.library import scorer


def _outcome(call, *args: object) -> object:
    try:
        return call(*args)
    except InvalidSituation as exc:
        return ("refused", exc.message)
    except EngineError as exc:
        return ("other", exc.code)


def test_a_kept_verdict_answers_as_the_check_does() -> None:
    for name in ("house", "sanma"):
        s = scorer(name)
        hands = [
            s.hand("123m456p789s11222z", "1z"),
            s.hand("123m456p789s22z", "2z", [("pon", "111z")]),
            s.hand("123m456p789s22z", "2z", [("ankan", "1111z")]),
            s.hand("123m456p789s22z", "2z", [("daiminkan", "1111z")]),
        ] if name == "house" else [s.hand("111m456p789s11222z", "1z"), s.hand("456p789s11222z", "1z", [("pon", "999m")])]
        rng = random.Random(name)
        refused = 0
        for _ in range(150):
            fields = tuple(
                rng.random() < 0.15 if n in FLAG_FIELDS else rng.choice("ESWN") if n in WIND_FIELDS else rng.choice((0, 0, 1, 2))
                for n in SITUATION_FIELDS
            )
            try:
                situation = checked_situation(fields)
            except EngineError:
                continue
            verdicts = s.checks.verdicts_of_fields(fields)
            for hand in rng.sample(hands, len(hands)):
                expected = _outcome(s.checks.check_situation, hand, situation)
                for _again in range(2):
                    got = _outcome(s._score, hand, situation, verdicts, (), ())
                    if expected is None:
                        assert not (isinstance(got, tuple) and got[0] == "refused")
                    else:
                        assert got == expected
                refused += expected is not None
        assert refused > 10
