"""A round setup let through by its types alone (``RoundSetup.__post_init__``) is one every check accepts
(``RoundSetup._refuse``, the full computation), and any other is refused with the same words."""

from __future__ import annotations

import itertools
import random
from enum import IntEnum
from typing import Any

from engine.core.errors import InvalidRequest
from engine.round.round import RoundSetup
from ruledsl.record import fields


class _Seat(IntEnum):
    NORTH = 3


_VALUES: dict[str, list[Any]] = {
    "round_wind": ["E", "S", "W", "N", "X", "", "ES", None, 1, ("E",)],
    "dealer": [0, 1, 3, -1, 7, True, False, 1.0, "1", None, _Seat.NORTH],
    "honba": [0, 2, -1, True, 2.0, None, _Seat.NORTH],
    "sticks": [0, 1, -2, False, 1.5, "0"],
    "scores": [(), (25000,) * 4, [25000] * 4, (25000, -3000, 0, 1), (25000, True), (1.0,), ("25000",), None, "", (_Seat.NORTH,), {1: 2}],
    "first_round": [False, True, 0, 1, None, "yes"],
    "dealer_consecutive_wins": [0, 3, -1, True, 2.5, _Seat.NORTH],
}


def _verdict(make: Any) -> str:
    try:
        make()
    except InvalidRequest as exc:
        return exc.message
    return "ok"


def _full(values: dict[str, Any]) -> str:
    setup = object.__new__(RoundSetup)
    for name, value in values.items():
        object.__setattr__(setup, name, value)
    return _verdict(setup._refuse)


def test_a_setup_is_let_through_or_refused_as_every_check_says() -> None:
    names = [f.name for f in fields(RoundSetup)]
    assert sorted(names) == sorted(_VALUES)
    usual = {"round_wind": "E", "dealer": 0, "honba": 0, "sticks": 0, "scores": (25000,) * 4, "first_round": False, "dealer_consecutive_wins": 0}
    cases = [dict(usual, **{name: value}) for name in names for value in _VALUES[name]]  # one field changed
    rng = random.Random(3)
    cases += [{name: rng.choice(_VALUES[name]) for name in names} for _ in range(3000)]  # any mixture
    cases += [dict(zip(names, values, strict=True)) for values in itertools.islice(itertools.product(*(_VALUES[n][:3] for n in names)), 2000)]
    verdicts = set()
    for values in cases:
        verdict = _verdict(lambda values=values: RoundSetup(**values))
        assert verdict == _full(values), values
        verdicts.add(verdict)
    kinds = {verdict.split(", not ")[0] for verdict in verdicts}  # a refused wind is named in its message
    assert "ok" in kinds and len(kinds) == 6  # accepted, and each of the five refusals
