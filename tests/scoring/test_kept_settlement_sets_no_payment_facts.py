"""A reading settled from the kept settlements leaves ``base`` and ``payers`` unset in its table: no rule but a
payment rule may read them, and payment rules are only ever evaluated after both are set. The answers stay those of
the reference scorer, which keeps no settlement, and of a scorer met with each settlement for the first time."""

from __future__ import annotations

from engine.core.errors import EngineError
from engine.scoring.library import rulebook
from engine.scoring.score import Scorer
from ruledsl import check
from ruledsl import vocabulary as V
from tests.peer_oracle import random_requests

PAYMENT_ONLY = {"base", "payers"}


def test_only_payment_rules_may_read_base_and_payers() -> None:
    assert {name for name, fact in V.FACTS.items() if fact.scope in (V.VALUE, V.TABLE)} >= PAYMENT_ONLY
    for (kind, _field), scope in check.FIELD_SCOPES.items():
        assert kind == "payment" or not PAYMENT_ONLY & scope.facts
    for scope in (check.HAND_SCOPE, *check.KIND_SCOPES.values()):
        assert not {"base"} & scope.facts  # a round's rules may read `payers` (its table), never a win's base


def _answer(s: Scorer, request: dict) -> dict:
    try:
        return s.score(request)
    except EngineError as exc:
        return {"ok": False, "error": exc.to_json()}


def test_settled_from_kept_settlements_answers_as_computed() -> None:
    for name in ("house", "sanma", "tenhou"):
        book = rulebook(name)
        fast, reference = Scorer(book), Scorer(book, reference=True)
        requests = [{**r, "rulebook": name} for r in random_requests(13, 150)]
        first = [_answer(fast, r) for r in requests]
        again = [_answer(fast, r) for r in requests]  # every settlement kept by now
        assert first == again == [_answer(reference, r) for r in requests]
        assert sum(a["ok"] for a in first) > 20 or name == "sanma"
