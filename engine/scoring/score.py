"""Scoring a win under any compiled rulebook: ``Scorer``, built once per rulebook and called for every hand.

A scorer reads a request into a hand, a situation and indicators (``engine.scoring.inputs``), checks that the
situation is possible (``engine.scoring.checks``), values every reading of the hand by the rulebook's yakuman,
yaku, bonus, fu and limit items and keeps the best (``engine.scoring.valuation``), with the payments of its base
(``engine.scoring.payment_rules``); the rules come prepared as closures in plain tables
(``engine.scoring.prepared``). Nothing here knows a yaku or a number of any ruleset.

Scoring is the hot path: each part keeps what repeats between hands (situations, verdicts, limits and payments
per han, fu and base), and the scorer binds their entries once. Every shortcut computes exactly what the
straightforward path would (``Scorer(rulebook, reference=True)`` takes none of them, for the tests).

The public names of the parts are re-exported here, where they have always been imported from.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import EngineError, InternalError, InvalidHand, InvalidRequest, UnknownRulebook
from engine.core.hand import Hand, build_hand
from engine.core.situation import Situation, situation_of
from engine.scoring.checks import SITUATION_CACHE_LIMIT, SituationChecks
from engine.scoring.inputs import RequestReader
from engine.scoring.loading import built, canonical, is_bundled
from engine.scoring.payment_rules import PAYER_KEYS, PaymentRules, rule_error
from engine.scoring.plain_request import PlainRequest, plain_request
from engine.scoring.prepared import (
    ALWAYS,
    LIMIT_INPUTS,
    PAYMENT_INPUTS,
    SETTLE_CACHE_LIMIT,
    STATIC_FACTS,
    TABLES_CACHE_LIMIT,
    FastRule,
    Prepared,
    Tables,
    fast_rule,
    prepare,
    refine,
)
from engine.scoring.result import Payments, ScoreResult
from engine.scoring.valuation import Tier, Valuation, Valuer, basic_points, copied, limits
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.nodes import Rulebook
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from engine.scoring.request import ScoreRequest

_COPY = dict.copy  # a result line the valuation may share with other answers, copied for the caller's own answer
_NO_LIMIT = (None, None, None, None)  # an answer's limit, its id, clause and clause source when no limit applies
# Spellings of a scorer's own file remembered as naming it (past this, each is compared again: still correct)
OWN_NAMES_LIMIT = 64

__all__ = [
    "ALWAYS",
    "LIMIT_INPUTS",
    "PAYER_KEYS",
    "PAYMENT_INPUTS",
    "SETTLE_CACHE_LIMIT",
    "SITUATION_CACHE_LIMIT",
    "STATIC_FACTS",
    "TABLES_CACHE_LIMIT",
    "FastRule",
    "Hand",
    "PlainRequest",
    "Payments",
    "Prepared",
    "ScoreResult",
    "Scorer",
    "Situation",
    "Tables",
    "Tier",
    "Valuation",
    "basic_points",
    "build_hand",
    "fast_rule",
    "limits",
    "plain_request",
    "prepare",
    "refine",
    "rule_error",
    "situation_of",
]


class Scorer:
    """Scores requests under one compiled rulebook; build once, call many times.

    ``prepared`` is the rulebook prepared for scoring (``engine.scoring.prepared.Prepared``: its tile set, copies,
    players and rule tables); ``inputs``, ``checks``, ``valuer`` and ``payment_rules`` are the parts that read, check,
    value and settle (see ``engine.scoring``).
    """

    prepared: Prepared

    def __init__(self, rulebook: Rulebook, *, reference: bool = False, like: Scorer | None = None) -> None:
        """``reference=True``: every rule runs as the reference evaluator's nodes, through the plain paths (slow;
        for tests that hold the fast path equal to it). ``like``: a scorer whose compiled rules this rulebook shares
        (``compile_rulebook(like=...)``), whose prepared rules are reused."""
        self.rulebook = rulebook
        # the ``rulebook`` field values that name this scorer's rulebook (its name, and spellings of its file met)
        self._own: set[str] = {rulebook.name}
        self.prepared = prepared = prepare(rulebook, reference, like.prepared if like is not None else None)
        self.checks = SituationChecks(prepared)
        self.inputs = RequestReader(prepared, self.checks)
        self.payment_rules = PaymentRules(prepared)
        self.valuer = Valuer(prepared, self.payment_rules.payments_kept)
        # the parts' entries the hot path calls for every request, bound once
        self._read = self.inputs.read_request
        self._read_object = self.inputs.read_object  # a request already known to be a ``dict``
        self._read_python = self.inputs.read_python
        self._check_cached = self.checks.check_cached
        self._check_indicators = self.checks.check_indicators
        self._best = self.valuer.best_valuation
        self._by_situation = self.inputs.by_situation.get
        # ``clause_from`` of each inherited clause, by the (id, clause) a response's line carries
        self._clause_from = prepared.origins

    # ---- public API
    def score(self, request: ScoreRequest | dict[str, Any], *, chosen: bool = False) -> dict[str, Any]:
        """Score one request; the contract's response dict. Raises ``EngineError`` for bad input, and
        ``InternalError`` (not an ``EngineError``) for a bug of ours, so that bad input and a bug never look alike.

        A request's ``rulebook`` is never ignored: naming this scorer's rulebook (its name, or its file however
        spelled) or none, it is answered here; naming a bundled rulebook, it is answered under that one, as
        ``riichi score --json`` and HTTP ``/score`` do; anything else is ``unknown_rulebook``. ``chosen=True``:
        the caller already chose this scorer for the request's ``rulebook`` (``RulebookPolicy``)."""
        try:
            if type(request) is not dict or "liable" in request or "from" in request:
                return self._score_model(request, chosen)
            if not chosen:
                named = request.get("rulebook")
                if named is not None and (type(named) is not str or named not in self._own):
                    return self._under(named).score(request, chosen=True)
            # the inputs unpacked and passed by position: a call with ``*`` is not specialised, and enters the
            # interpreter anew where a plain call stays in the same loop
            hand, situation, verdicts, dora, ura, shown_checked = self._read_object(request)
            return self._score(hand, situation, verdicts, dora, ura, shown_checked)
        except (EngineError, RecursionError, MemoryError):  # bad input, or past what the process can hold
            raise
        except Exception as exc:
            raise InternalError.of(exc, "scoring") from exc

    def _under(self, named: object) -> Scorer:
        """The scorer a request's ``rulebook`` asks for (see ``score``)."""
        if not isinstance(named, str):
            raise InvalidRequest("`rulebook` must be a string naming a rulebook")
        if is_bundled(named):
            return built(named, None, Scorer)  # the shared scorer of `engine.scoring.library.scorer(named)`
        leaf = next(iter(self.rulebook.resolved.texts), None)
        if leaf is not None and canonical(named) == canonical(leaf):
            if len(self._own) < OWN_NAMES_LIMIT:
                self._own.add(named)
            return self
        from ruledsl.diagnostics import printable

        raise UnknownRulebook(
            f"this scorer answers under `{printable(self.rulebook.name)}`; the request names `{printable(named)}`, "
            "which is neither that rulebook nor a bundled one: score it with `scorer()` of that rulebook"
        )

    def _score_model(self, data: Any, chosen: bool = False) -> dict[str, Any]:
        """A request as the contract's model (pydantic): one that may carry ``liable`` or ``from``, whose payment
        the rulebook's liability rule splits (``engine.scoring.liability``)."""
        from engine.scoring.request import ScoreRequest, parse_request

        request = data if isinstance(data, ScoreRequest) else parse_request(data)
        if not chosen and request.rulebook is not None and request.rulebook not in self._own:
            return self._under(request.rulebook)._score_model(request, True)
        inputs = self._read(request)
        response = self._score(*inputs)
        if request.liable is None and request.from_ is None:
            return response
        from engine.scoring.liability import settle_liability

        settled = settle_liability(self.prepared.players, self.prepared.deposit, self.rulebook, request, self.result_of(response, inputs[1]))
        liability = self.rulebook.resolved.of_kind("liability")
        clause = settled.get("liability_clause")
        settled["liability_clause_from"] = next(
            (self._clause_from.get((item.name, item.clause)) for item in liability if clause in (item.clause, item.name)), None
        )
        return settled

    def score_json(self, data: Any, *, chosen: bool = False) -> dict[str, Any]:
        """Like ``score`` but never raises for bad input: errors become ``ok: false`` responses."""
        try:
            return self.score(data, chosen=chosen)
        except EngineError as exc:
            return {"ok": False, "error": exc.to_json()}

    def score_shared(self, request: dict[str, Any] | Any, *, chosen: bool = False) -> dict[str, Any]:
        """``score``, for a caller that writes the answer out at once and drops it (``riichi score --json``): the
        answer's result lines may be the rulebook's kept ones, shared with every other answer that reports them,
        so they must never be changed; the caller can then find each line's text by the line itself
        (``engine.services.answers.encode_shared``). The same answer as ``score`` in every other respect."""
        if type(request) is not dict or "liable" in request or "from" in request or not chosen:
            return self.score(request, chosen=chosen)
        try:
            hand, situation, verdicts, dora, ura, shown_checked = self._read_object(request)  # as ``score`` does
            return self._score(hand, situation, verdicts, dora, ura, shown_checked, True)
        except (EngineError, RecursionError, MemoryError):
            raise
        except Exception as exc:
            raise InternalError.of(exc, "scoring") from exc

    def score_hand(self, hand: Hand, situation: Situation, dora: tuple[int, ...] = (), ura: tuple[int, ...] = ()) -> dict[str, Any]:
        """Score a hand from ``Scorer.hand`` in a ``Situation``, indicators as tile codes (``engine.core.tiles``): the
        entry for programs that already hold tiles as codes (a simulator, a log replay), which skips notation and
        request validation. Same answers and errors as ``score``."""
        hand, situation, verdicts, dora, ura = self._read_python(hand, situation, dora, ura)  # as ``score`` does
        try:
            return self._score(hand, situation, verdicts, dora, ura)
        except (EngineError, RecursionError, MemoryError):
            raise
        except Exception as exc:
            # A Hand made by hand (not by ``hand``/``build_hand``) may hold any shape: that is the caller's
            # mistake. A hand the builder would make exactly so is not: then the failure is a bug of ours.
            if not self._built_alike(hand):
                raise InvalidHand("`hand` is not a hand `Scorer.hand` or `build_hand` would build; build it with them") from None
            raise InternalError.of(exc, "scoring") from exc

    def score_result(self, hand: Hand, situation: Situation, dora: tuple[int, ...] = (), ura: tuple[int, ...] = ()) -> ScoreResult:
        """``score_hand``'s answer as the engine passes it on (a round, a liability split): with each payment's
        honba part apart and the counters it was scored with."""
        return self.result_of(self.score_hand(hand, situation, dora, ura), situation)

    def score_made(self, hand: Hand, situation: Situation, dora: tuple[int, ...], ura: tuple[int, ...]) -> ScoreResult:
        """``score_result`` of inputs the engine made itself (a round's ``made_hand``, its ``Situation``, the wall's
        indicator codes), whose types and tiles cannot be wrong: without ``score_hand``'s checks of them. The
        checks a situation and indicators may fail are kept (``_score``)."""
        verdicts = self._by_situation(situation)
        if verdicts is None:
            verdicts = self.inputs.by_situation.put(situation, self.checks.verdicts_for(situation))
        try:
            answer = self._score(hand, situation, verdicts, dora, ura)
        except (EngineError, RecursionError, MemoryError):
            raise
        except Exception as exc:
            raise InternalError.of(exc, "scoring") from exc
        return self.result_of(answer, situation)

    def result_of(self, answer: dict[str, Any], situation: Situation) -> ScoreResult:
        """The ``ScoreResult`` of an answer this scorer gave for ``situation``."""
        payments = self.payment_rules.split(
            answer["payments"], base=answer["base_points"], dealer=situation.dealer, tsumo=situation.tsumo, honba=situation.honba
        )
        return ScoreResult(answer, payments, situation.honba, situation.riichi_sticks)

    def _built_alike(self, hand: Hand) -> bool:
        """Whether this rulebook's hand builder makes exactly ``hand`` from its own tiles and melds."""
        try:
            rebuilt = self.inputs.hand(hand.concealed, hand.win, [(m.type, m.tiles) for m in hand.melds])
        except (EngineError, TypeError, AttributeError):  # not even the builder's inputs
            return False
        return rebuilt == hand

    def _score(
        self,
        hand: Hand,
        situation: Situation,
        verdicts: dict[tuple, str | None],
        dora: tuple[int, ...],
        ura: tuple[int, ...],
        shown_checked: bool = False,
        shared: bool = False,
    ) -> dict[str, Any]:
        """The answer to these inputs; ``shown_checked``: the indicators are known possible with the hand (read
        with it, ``RequestReader.read_request``), so their check would pass and is skipped. The situation is
        checked first either way, so a request with several faults is refused for the same one."""
        # a verdict kept as holding for this call shape (most requests): all ``check_cached`` would find, without
        # its call (a verdict is a message or None; ``False`` stands for none kept)
        if situation.kita or verdicts.get(hand.call_shape, False) is not None:
            self._check_cached(hand, situation, verdicts)
        if not shown_checked and (dora or ura):
            self._check_indicators(hand, dora, ura)
        try:
            return self.response(self._best(hand, situation, dora, ura), situation, shared)
        except RuleEvaluationError as exc:  # a rule computed what the language forbids: the rulebook's fault
            raise rule_error(exc) from None

    def response(self, best: Valuation, situation: Situation, shared: bool = False) -> dict[str, Any]:
        """The contract's response for the best valuation (the riichi sticks on the table go to the winner), with
        result lines of its own (``shared``: the valuation's own, see ``score_shared``)."""
        limit = best.limit
        if limit is None:  # no limit (most answers): its four fields None, without a test each
            named, limit_id, limit_clause, clause_from = _NO_LIMIT
        else:  # the limit item that set the base, and its clause
            named, limit_id, limit_clause = str(limit), limit.rule_id, limit.clause
            origins = self._clause_from
            clause_from = origins.get((limit_id, limit_clause)) if origins else None
        return {
            "ok": True,
            "rulebook": self.rulebook.name,
            "han": best.han,
            "fu": best.fu,
            "yakuman": best.yakuman,
            "limit": named,
            "limit_id": limit_id,
            "limit_clause": limit_clause,
            "limit_clause_from": clause_from,
            "yaku": list(best.yaku) if shared else list(map(_COPY, best.yaku)),  # ``clause_from`` included
            "fu_items": list(best.fu_items) if shared else list(map(_COPY, best.fu_items)),
            "base_points": best.base,
            "payments": best.payments,
            "total": best.paid + situation.riichi_sticks * self.prepared.deposit,
        }

    # ---- the parts' public entries
    def hand(self, concealed: str | Sequence[int], win: str | int, melds: Sequence[tuple[str, str | Sequence[int]]] = ()) -> Hand:
        """A hand checked against this rulebook's tile set, for ``score_hand``: tiles in notation or as codes,
        melds as ``(type, tiles)`` pairs. Raises ``EngineError`` (``invalid_hand``, ``invalid_notation``)."""
        return self.inputs.hand(concealed, win, melds)

    def build_hand(self, request: ScoreRequest) -> Hand:
        """A request's hand, checked against this rulebook's tile set."""
        return self.inputs.build_hand(request)

    def check_situation(self, hand: Hand, s: Situation) -> None:
        """Raise ``InvalidSituation`` naming every impossibility of this situation with this hand."""
        self.checks.check_situation(hand, s)

    def best_valuation(
        self, hand: Hand, situation: Situation, dora: tuple[int, ...] = (), ura: tuple[int, ...] = (), known: dict[str, Any] | None = None
    ) -> Valuation:
        """The best reading's valuation (``Valuer.best_valuation``), with result lines of its own."""
        return copied(self._best(hand, situation, dora, ura, known))

    def settle(self, han: int, fu: int, *, dealer: bool, tsumo: bool, yakuman: int = 0, honba: int = 0) -> dict[str, Any]:
        """The payment API: what a win of this han and fu pays, without building a hand (point tables)."""
        return self.payment_rules.settle(han, fu, dealer=dealer, tsumo=tsumo, yakuman=yakuman, honba=honba)

    def pay_tier(self, tier: str, *, dealer: bool, honba: int = 0) -> dict[str, Any]:
        """A tsumo paid like a limit tier (nagashi mangan): the tier's base through the payment rules."""
        return self.payment_rules.pay_tier(tier, dealer=dealer, honba=honba)
