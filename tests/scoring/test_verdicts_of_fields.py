"""A new situation's verdicts looked up by its field values (``SituationChecks.verdicts_of_fields``, what a plain
request's reader does) are the very table ``verdicts_for`` gives the situation those values make."""

from __future__ import annotations

import random

from engine.core.situation import FLAG_FIELDS, SITUATION_FIELDS, WIND_FIELDS, checked_situation


def test_verdicts_by_field_values_are_the_situations_own():
    from engine.scoring.library import scorer

    checks = scorer("house").checks
    rng = random.Random(11)
    for _ in range(300):
        fields = tuple(
            rng.random() < 0.3 if name in FLAG_FIELDS else rng.choice("ESWN") if name in WIND_FIELDS else rng.choice((0, 1, 2, 7))
            for name in SITUATION_FIELDS
        )
        assert checks.verdicts_of_fields(fields) is checks.verdicts_for(checked_situation(fields))
