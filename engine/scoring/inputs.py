"""Reading what a scorer is asked: from a request (a plain JSON object, or one validated by the contract's model)
or from Python objects (``Scorer.score_hand``), to a hand, a situation with its facts and kept verdicts, and
indicator codes.

A plain JSON object whose values already have their fields' exact types is read without pydantic
(``engine.scoring.plain_request``); anything else is validated by the contract's model, imported on first need. Situations
repeat far more than hands, so each distinct one is built once, with its verdicts (``engine.scoring.checks``), and
kept; its facts (a dict of some twenty entries, 0.8 KiB) are not: they are written into each hand's fact table
afresh, which costs about what copying kept ones did, and a long batch keeps thousands of situations.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from engine.core import tiles as T
from engine.core.errors import EngineError, InvalidHand, InvalidRequest
from engine.core.hand import KEPT_MELD, Hand, build_hand, hand_from_notation, hand_of_parts, kept_meld
from engine.core.memo import BoundedCache
from engine.core.situation import (
    SITUATION_DEFAULTS,
    SITUATION_FIELDS,
    Situation,
    checked_situation,
    situation_of,
)
from engine.scoring.checks import SITUATION_CACHE_LIMIT, SituationChecks
from engine.scoring.plain_request import PLANS_LIMIT, PlainRequest, Shape, plain_request, shape_of
from engine.scoring.prepared import Prepared
from ruledsl.tiles import KEPT_CODES, ONE_TILE, digit_run_codes
from ruledsl.typing_names import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from typing import Any

    from engine.scoring.request import ScoreRequest

# A request's hand, its situation and kept verdicts, dora and ura codes.
Inputs = tuple[Hand, Situation, dict[tuple, str | None], tuple[int, ...], tuple[int, ...]]
# What ``Scorer._score`` takes: ``Inputs``, and whether the indicators are known to be possible with the hand
# (``SituationChecks.check_indicators`` would pass them).
ScoringInputs = tuple[Hand, Situation, dict[tuple, str | None], tuple[int, ...], tuple[int, ...], bool]

# Every request field ``situation_of`` reads: equal inputs give an equal situation.
_SITUATION_INPUTS = operator.attrgetter(*SITUATION_FIELDS)


class RequestReader:
    """Reads requests for one prepared rulebook (its tile set), keeping each distinct situation it meets."""

    def __init__(self, prepared: Prepared, checks: SituationChecks) -> None:
        self.prepared = prepared
        self.checks = checks
        # bounded and registered caches (``ruledsl.memo``), emptied when full and by ``clear_all``
        self.situations: BoundedCache[tuple, tuple[Situation, dict[tuple, str | None]]] = BoundedCache(SITUATION_CACHE_LIMIT)
        self.by_situation: BoundedCache[Situation, dict[tuple, str | None]] = BoundedCache(SITUATION_CACHE_LIMIT)
        # a request's shape by its signature (``plain_request.shape_of``), and the situations met in each shape by
        # the values of the situation's fields it holds
        self.shapes: BoundedCache[tuple, Shape | None] = BoundedCache(PLANS_LIMIT)
        self.shaped: BoundedCache[tuple, tuple[Situation, dict[tuple, str | None]]] = BoundedCache(SITUATION_CACHE_LIMIT)

    def read(self, data: Any) -> Inputs:
        """A request's inputs; raises ``EngineError`` for bad input (``invalid_request``, ``invalid_hand``...)."""
        return self.read_request(data)[:5]

    def read_request(self, data: Any) -> ScoringInputs:
        """``read``, and whether the indicators were checked on the way.

        A plain JSON object of a known shape, with nothing wrong or unusual in it, is read by ``read_shaped``, which
        checks the indicators with the hand; anything else by ``read_checked``, which finds and names the mistake
        (both give the same inputs) and leaves the indicators to ``SituationChecks.check_indicators``."""
        if type(data) is dict:
            return self.read_object(data)
        return (*self.read_checked(data), False)

    def read_object(self, data: dict[str, Any]) -> ScoringInputs:
        """``read_request`` of a ``dict`` (exactly: not a subclass), for a caller that has made sure of its type."""
        signature = (*data, *map(type, data.values()))
        shape = self.shapes.get(signature, _UNKNOWN)
        if shape is _UNKNOWN:
            shape = self.shapes.put(signature, shape_of(data))
        if shape is not None:
            inputs = self.read_shaped(shape, data)
            if inputs is not None:
                return inputs
        return (*self.read_checked(data), False)

    def read_shaped(self, shape: Shape, data: dict[str, Any]) -> ScoringInputs | None:
        """The inputs of a plain object of ``shape`` read field by field in one pass, or None when anything in it
        needs ``read_checked`` (a value out of its range, notation not seen or not read before, an unusual hand,
        indicators impossible with the hand or too many). Its indicators are then known possible: the last field.

        The situation is kept per shape and the values of the situation's fields the object holds: equal values of
        the same types make the same situation, so the ranges of those values are checked only when it is new."""
        melds = data.get("melds")
        parsed = []
        if melds:
            for item in melds:
                if type(item) is not dict or len(item) != 2:
                    return None
                try:  # most melds repeat: found without a call; the keys by subscripts, which the interpreter specialises
                    meld = KEPT_MELD((item["type"], item["tiles"]))
                except (KeyError, TypeError):  # another key, or not notation at all
                    return None
                if meld is None:
                    meld = kept_meld(item["type"], item["tiles"])
                    if meld is None:
                        return None
                parsed.append(meld)
        key = (shape.number, shape.situation_values(data))
        found = self.shaped.get(key)
        if found is None:
            if not shape.within_ranges(data):
                return None
            fields = _situation_fields(shape, key[1])
            found = self.shaped.put(key, (checked_situation(fields), self.checks.verdicts_of_fields(fields)))
        dora = data.get("dora_indicators")
        ura = data.get("ura_indicators")
        if dora:
            dora = _ONE_INDICATOR.get(dora) or _indicators(dora)
            if dora is None:
                return None
        else:
            dora = ()
        if ura:
            ura = _ONE_INDICATOR.get(ura) or _indicators(ura)
            if ura is None:
                return None
        else:
            ura = ()
        prepared = self.prepared
        # the indicators checked with the hand's tiles (``hand_of_parts``): a hand read here has possible ones
        hand = hand_of_parts(data["hand"], data["win"], parsed, prepared.hand_codes, prepared.copies, bytes(dora + ura))
        if hand is None:
            return None
        return hand, found[0], found[1], dora, ura, True

    def read_checked(self, data: Any) -> Inputs:
        """A request's inputs, each field checked and every mistake named (``read``'s other way)."""
        # a ``PlainRequest`` holds a ``ScoreRequest``'s fields as plain attributes, and is read as one
        plain = plain_request(data)
        hand = None
        if plain is not None:
            prepared = self.prepared
            hand = hand_from_notation(plain.hand, plain.win, plain.melds, prepared.hand_codes, prepared.copies)
        request = cast("ScoreRequest", plain or _validated(data))
        if hand is None:
            hand = self.build_hand(request)
        situation, verdicts = self.situation(request)
        dora = T.tile_codes(request.dora_indicators) if request.dora_indicators else ()
        ura = T.tile_codes(request.ura_indicators) if request.ura_indicators else ()
        return hand, situation, verdicts, dora, ura

    def read_python(self, hand: Hand, situation: Situation, dora: Any, ura: Any) -> Inputs:
        """The inputs of ``Scorer.score_hand``, whose types Python code may get wrong: checked here (a ``Situation``
        checks its own fields when built; indicators are a few ints)."""
        if type(hand) is not Hand:
            raise InvalidRequest("`hand` must be a Hand from `Scorer.hand` or `build_hand`")
        if type(situation) is not Situation:  # a Situation checks its fields when built
            raise InvalidRequest("`situation` must be an engine.core.situation.Situation")
        tile_set = self.prepared.hand_codes  # a hand built under another rulebook may hold tiles this one lacks
        if not tile_set.issuperset(hand.concealed) or (hand.melds and not all(tile_set.issuperset(m.tiles) for m in hand.melds)):
            raise InvalidHand("`hand` holds tiles outside this rulebook's tile set; build it with this scorer's `hand`")
        verdicts = self.by_situation.get(situation)
        if verdicts is None:
            verdicts = self.by_situation.put(situation, self.checks.verdicts_for(situation))
        return hand, situation, verdicts, _indicator_codes(dora, "dora_indicators"), _indicator_codes(ura, "ura_indicators")

    def situation(self, request: ScoreRequest) -> tuple[Situation, dict[tuple, str | None]]:
        """The request's situation and its verdicts by kind of hand (``SituationChecks.check_cached``), built once
        per distinct situation (they are immutable)."""
        key = _SITUATION_INPUTS(request)
        found = self.situations.get(key)
        if found is None:
            situation = situation_of(request)
            found = self.situations.put(key, (situation, self.checks.verdicts_for(situation)))
        return found

    def hand(self, concealed: str | Sequence[int], win: str | int, melds: Sequence[tuple[str, str | Sequence[int]]] = ()) -> Hand:
        """A hand checked against this rulebook's tile set, for ``score_hand``: tiles in notation or as codes,
        melds as ``(type, tiles)`` pairs. Raises ``EngineError`` (``invalid_hand``, ``invalid_notation``)."""
        prepared = self.prepared
        return build_hand(concealed, melds, win, allowed_kinds=prepared.allowed_kinds, red_fives=prepared.red_fives, copies=prepared.copies)

    def build_hand(self, request: ScoreRequest) -> Hand:
        """The request's hand, checked against this rulebook's tile set."""
        prepared = self.prepared
        return build_hand(
            request.hand,
            request.melds if isinstance(request, PlainRequest) else [(m.type, m.tiles) for m in request.melds],
            request.win,
            allowed_kinds=prepared.allowed_kinds,
            red_fives=prepared.red_fives,
            copies=prepared.copies,
        )


_UNKNOWN: Any = object()


def indicator_codes(text: str) -> tuple[int, ...]:
    """``tile_codes(text)`` of a request's indicators (a string): the same codes, or the same error.

    One indicator is one plain tile, which a reader finds first in ``_ONE_INDICATOR`` (most requests' dora)
    before asking this; several are mostly a combination not met before, so they are read as a hand is
    (``hand_of_parts``), without the notation cache: a stream of requests would fill it with texts read once, and
    each look-up in a big table costs more in cache misses than its instructions. Text with separators, or that is
    not notation, goes to ``tile_codes``."""
    codes, whole = digit_run_codes(text)
    # the runs cover the text and every code is a tile's (``8z``'s byte stays a digit's, past every code)
    if whole and codes and max(codes) < _CODE_COUNT:
        return tuple(codes)
    return KEPT_CODES(text) or T.tile_codes(text)


def _indicators(text: str) -> tuple[int, ...] | None:
    """A request's indicators other than one plain tile (which ``read_shaped`` finds first in ``_ONE_INDICATOR``):
    several written one plain tile after another by ``_tile_by_tile``, any other spelling by ``indicator_codes``;
    None for notation that is wrong or more than five indicators, which ``read_checked`` then names."""
    read = _tile_by_tile(text)
    if read is None:
        try:
            read = indicator_codes(text)
        except EngineError:
            return None
        if len(read) > 5:
            return None
    return read


def _tile_by_tile(text: str) -> tuple[int, ...] | None:
    """``indicator_codes(text)`` of at most five indicators written one plain tile after another (``7p6s1p``, how
    most requests write several), each two characters found in ``_ONE_INDICATOR``: the same codes in the same
    order, without the run reader's regular expression; None for any other text."""
    size = len(text)
    one = _ONE_INDICATOR.get
    if size == 4:  # two indicators (most requests' several), unrolled
        first, second = one(text[:2]), one(text[2:])
        return first + second if first is not None and second is not None else None
    if size & 1 or size > 10:
        return None
    codes: tuple[int, ...] = ()
    for at in range(0, size, 2):
        tile = one(text[at : at + 2])
        if tile is None:
            return None
        codes += tile
    return codes


_CODE_COUNT = len(T.KIND_OF)
_ONE_CODES = tuple((code,) for code in range(len(T.KIND_OF)))  # each code's one-indicator tuple, made once
_ONE_INDICATOR = {text: _ONE_CODES[code] for text, code in ONE_TILE.items()}  # ``indicator_codes`` of one tile


def _situation_fields(shape: Shape, values: Any) -> tuple[Any, ...]:
    """The field values, in ``SITUATION_FIELDS``' order, of the situation of a plain object of ``shape`` whose
    situation's fields hold ``values`` (``situation_of``'s: ``checked_situation`` makes it), values whose types the
    shape and whose ranges ``Shape.within_ranges`` checked."""
    fields: tuple[Any, ...] = shape.situation_fields((values, *_DEFAULT_VALUES) if shape.one_value else (*values, *_DEFAULT_VALUES))
    if fields[_DOUBLE_RIICHI] and not fields[_RIICHI]:  # a double riichi is a riichi
        fields = (*fields[:_RIICHI], True, *fields[_RIICHI + 1 :])
    return fields


_DEFAULT_VALUES = tuple(SITUATION_DEFAULTS.values())  # in the fields' order, as ``Shape.situation_fields`` reads them
_RIICHI, _DOUBLE_RIICHI = SITUATION_FIELDS.index("riichi"), SITUATION_FIELDS.index("double_riichi")


def _validated(data: Any) -> ScoreRequest:
    """A request that is not a plain JSON object pydantic would take as is: validated by the contract's model
    (imported here, on first need: see ``engine.scoring.plain_request``)."""
    from engine.scoring.request import ScoreRequest, parse_request

    return data if isinstance(data, ScoreRequest) else parse_request(data)


# ---- indicators of ``score_hand`` --------------------------------------------------------------------------------
# ``score`` gets them from notation; ``score_hand`` takes them from Python code, so it checks their types itself.

_CODES = frozenset(range(len(T.KIND_OF)))
_INT = frozenset({int})


def _indicator_codes(codes: Any, name: str) -> tuple[int, ...]:
    """The indicators as a tuple of tile codes, or ``InvalidRequest`` naming the field."""
    if type(codes) is tuple and (not codes or (_CODES.issuperset(codes) and _INT.issuperset(map(type, codes)))):
        return codes  # 5.0 and True are 5 and 1 to a set, so the types are checked too
    if type(codes) is not tuple:
        if not isinstance(codes, (list, tuple)):
            raise InvalidRequest(f"`{name}`: expected a tuple of tile codes")
        codes = tuple(codes)
    for code in codes:
        if type(code) is not int or not 0 <= code < len(T.KIND_OF):
            raise InvalidRequest(f"`{name}`: `{code!r}` is not a tile code")
    return codes
