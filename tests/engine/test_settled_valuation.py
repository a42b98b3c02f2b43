"""``Valuer._settled`` sets a valuation's slots itself instead of calling ``Valuation``: every valuation it makes is
the one the constructor makes from the same fields (every slot, ``sort_key`` included), whether its settlement was
worked out or kept, under rulebooks that settle differently."""

from __future__ import annotations

import pytest

from engine.core.errors import EngineError
from engine.scoring.valuation import Valuation
from tests.peer_oracle import random_requests

RULEBOOKS = ("house", "sanma", "tenhou_nored")


def _rebuilt(v: Valuation) -> Valuation:
    return Valuation(v.yakuman, v.han, v.fu, v.limit, v.base, v.yaku, v.fu_items, v.payments, v.paid, v.shape, v.sort_key[2])


@pytest.mark.parametrize("name", RULEBOOKS)
def test_a_settled_valuation_is_the_one_the_constructor_makes(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.scoring.library import scorer

    s = scorer(name)
    made: list[Valuation] = []
    settled = s.valuer._settled

    def recording(*args: object) -> Valuation:
        valuation = settled(*args)  # type: ignore[arg-type]
        made.append(valuation)
        return valuation

    monkeypatch.setattr(s.valuer, "_settled", recording)
    for request in random_requests(26, 400) * 2:  # the second time round, settlements are kept
        try:
            s.score(request, chosen=True)
        except EngineError:
            pass
    assert len(made) > 100
    for valuation in made:
        assert type(valuation) is Valuation
        expected = _rebuilt(valuation)
        for slot in Valuation.__slots__:
            assert getattr(valuation, slot) == getattr(expected, slot), slot
    assert len({id(valuation.payments) for valuation in made}) == len(made)  # each its own dict, never the kept one
