"""Score requests that need no validation, read without pydantic.

Most requests arrive as plain JSON objects whose every value already has its field's exact type (a str for a str,
a bool for a bool, an int in range for an int): pydantic would accept them unchanged. For those the scorer reads
the values directly, and a process that only meets such requests never imports pydantic (it costs about 90 ms
at start-up). Anything else (a missing or unknown key, a value pydantic would coerce or reject) goes through
``engine.scoring.request.parse_request``.

The field table here is built from the situation's fields (``engine.core.situation``) and the few others the contract
adds; ``fields_of`` derives the same table from the contract's pydantic models, and a test holds the two equal, so
a field added to the contract cannot be forgotten here.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable

from engine.core.memo import BoundedCache
from engine.core.situation import FLAG_FIELDS, SITUATION_DEFAULTS, WIND_FIELDS, WINDS
from ruledsl.record import field, record
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

MELD_TYPES = ("chi", "pon", "daiminkan", "kakan", "ankan")


@record(slots=False)
class Fields:
    """A model's fields grouped by the exact JSON type a value must have to be taken as is."""

    required: frozenset[str] = frozenset()
    bools: frozenset[str] = frozenset()
    strs: frozenset[str] = frozenset()
    choices: dict[str, frozenset[str]] = field(default_factory=dict)  # str literals
    ints: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)  # (lowest, highest)
    nullable: frozenset[str] = frozenset()  # str or None
    nullable_choices: dict[str, frozenset[str]] = field(default_factory=dict)  # a str literal or None
    aliases: dict[str, str] = field(default_factory=dict)  # JSON key -> attribute name (``from`` -> ``from_``)
    lists: dict[str, Fields] = field(default_factory=dict)  # a list of objects of these fields
    defaults: dict[str, Any] = field(default_factory=dict)  # fields with a default value
    empty_lists: frozenset[str] = frozenset()  # fields that default to a new empty list


MELD_FIELDS = Fields(required=frozenset({"type", "tiles"}), strs=frozenset({"tiles"}), choices={"type": frozenset(MELD_TYPES)})
REQUEST_FIELDS = Fields(
    required=frozenset({"hand", "win"}),
    bools=frozenset(FLAG_FIELDS),
    strs=frozenset({"hand", "win", "dora_indicators", "ura_indicators"}),
    choices=dict.fromkeys(WIND_FIELDS, frozenset(WINDS)),
    ints={"kita": (0, 4), "honba": (0, 1000), "riichi_sticks": (0, 1000), "dealer_consecutive_wins": (0, 1000)},  # the contract's bounds
    nullable=frozenset({"rulebook"}),
    nullable_choices={"liable": frozenset(WINDS), "from": frozenset(WINDS)},
    aliases={"from": "from_"},
    lists={"melds": MELD_FIELDS},
    defaults={"rulebook": None, **SITUATION_DEFAULTS, "dora_indicators": "", "ura_indicators": "", "liable": None, "from": None},
    empty_lists=frozenset({"melds"}),
)


class PlainRequest:
    """A score request's fields as attributes, read from a plain object that pydantic would accept as is."""

    hand: str
    win: str
    melds: list[dict[str, str]]


def reader(fields: Fields, fill: bool = True) -> Callable[[Any], dict[str, Any] | None]:
    """A function from a JSON object to its field values (defaults filled in), or None when the object needs
    pydantic. With ``fill`` false it only checks, returning the object itself.

    Whether a key may hold a value of a type is decided once per *signature* (the object's keys and its values'
    exact types, in order), which requests share by the thousand: a bool or a plain str field needs nothing more,
    so a request is left with the few checks of its values (a wind among the four, a counter within its bounds,
    each meld). ``checking_reader`` is the same test written out for one object, which the tests hold equal."""
    plans: BoundedCache[tuple[Any, ...], Any] = BoundedCache(PLANS_LIMIT)
    required = fields.required
    lists = {name: reader(item, fill=False) for name, item in fields.lists.items()}
    defaults, empty_lists, aliases = fields.defaults, fields.empty_lists, fields.aliases

    def read(data: Any) -> dict[str, Any] | None:
        if type(data) is not dict:
            return None
        signature = (*data, *map(type, data.values()))
        plan = plans.get(signature)
        if plan is None:
            plan = plans.put(signature, _plan(fields, lists, data) if data.keys() >= required else _NEVER)
        if plan is not _NO_CHECKS:
            if plan is _NEVER:
                return None
            choices, bounded, listed = plan
            for key, allowed in choices:
                if data[key] not in allowed:
                    return None
            for key, low, high in bounded:
                value = data[key]
                if (low is not None and value < low) or (high is not None and value > high):
                    return None
            for key, item in listed:
                for element in data[key]:
                    if item(element) is None:
                        return None
        if not fill:
            return data
        values = dict(defaults)
        for name in empty_lists:
            if name not in data:
                values[name] = []
        values.update(data)
        for key, name in aliases.items():
            values[name] = values.pop(key)
        return values

    return read


# Distinct signatures (key orders and value types) a reader keeps plans for; a request stream has a few hundred.
PLANS_LIMIT = 1024
_NEVER: Any = ("never plain",)  # a signature no value can make plain (an unknown key, a type no field takes)
_NO_CHECKS: Any = ((), (), ())


def _plan(fields: Fields, lists: dict[str, Callable[[Any], Any]], data: dict[str, Any]) -> Any:
    """What is left to check of an object of this signature once its keys and types are known: (choices, bounded
    ints, lists) as (key, what it must meet) pairs, or ``_NEVER``. The same decisions as ``checking_reader``."""
    choices_of = {**fields.choices, **fields.nullable_choices}
    nullable = fields.nullable | frozenset(fields.nullable_choices)
    choices, bounded, listed = [], [], []
    for key, value in data.items():
        kind = type(value)
        if kind is bool:
            if key not in fields.bools:
                return _NEVER
        elif kind is str:
            if key not in fields.strs and (key not in nullable or key in choices_of):
                allowed = choices_of.get(key)
                if allowed is None:
                    return _NEVER
                choices.append((key, allowed))
        elif kind is int:
            bounds = fields.ints.get(key)
            if bounds is None:
                return _NEVER
            bounded.append((key, *bounds))
        elif kind is list:
            item = lists.get(key)
            if item is None:
                return _NEVER
            listed.append((key, item))
        elif value is not None or key not in nullable:
            return _NEVER
    if not (choices or bounded or listed):
        return _NO_CHECKS
    return tuple(choices), tuple(bounded), tuple(listed)


def checking_reader(fields: Fields) -> Callable[[Any], bool]:
    """Whether a JSON object can be read as is, tested key by key (``reader`` decides the same per signature)."""
    required, bools, strs, choices, ints, nullable = fields.required, fields.bools, fields.strs, fields.choices, fields.ints, fields.nullable
    choices = {**choices, **fields.nullable_choices}
    nullable = nullable | frozenset(fields.nullable_choices)
    lists = {name: checking_reader(item) for name, item in fields.lists.items()}

    def plain(data: Any) -> bool:
        if type(data) is not dict or not data.keys() >= required:
            return False
        for key, value in data.items():
            kind = type(value)
            if kind is bool:
                if key not in bools:
                    return False
            elif kind is str:
                if key not in strs and (key not in nullable or key in choices):
                    allowed = choices.get(key)
                    if allowed is None or value not in allowed:
                        return False
            elif kind is int:
                bounds = ints.get(key)
                if bounds is None:
                    return False
                low, high = bounds
                if (low is not None and value < low) or (high is not None and value > high):
                    return False
            elif kind is list:
                item = lists.get(key)
                if item is None:
                    return False
                for element in value:
                    if not item(element):
                        return False
            elif value is not None or key not in nullable:
                return False
        return True

    return plain


_READ_REQUEST = reader(REQUEST_FIELDS)
_REQUEST_LISTS = {name: reader(item, fill=False) for name, item in REQUEST_FIELDS.lists.items()}


class Shape:
    """What a plain request of one signature needs read and checked beyond its keys and types: the situation's
    fields it holds (their names, and a getter of their values in that order) and the ranges of its winds and
    counters (``_plan``'s choices and bounds: the plain reader's decisions)."""

    __slots__ = ("number", "situation_names", "situation_values", "one_value", "situation_fields", "choices", "bounded")

    def __init__(self, situation_names: tuple[str, ...], choices: tuple[Any, ...], bounded: tuple[Any, ...]) -> None:
        # a number no other shape of the process has: the situations read in this shape are kept under it and
        # their values, a key of plain values that the garbage collector stops following (the shape itself would
        # keep every such key tracked)
        self.number = next(_SHAPE_NUMBERS)
        self.situation_names = situation_names
        # one value for one name (``itemgetter``'s way), a tuple for several, () for none
        self.situation_values: Callable[[Any], Any] = operator.itemgetter(*situation_names) if situation_names else _NONE
        self.one_value = len(situation_names) == 1  # ``situation_values`` gives the value itself, not a tuple
        # every situation field's value, in the fields' order, from the values held followed by the defaults
        # (``SITUATION_DEFAULTS``): one C-level pick where a dict of the defaults was copied and updated
        held = {name: index for index, name in enumerate(situation_names)}
        self.situation_fields = operator.itemgetter(
            *(held.get(name, len(situation_names) + index) for index, name in enumerate(SITUATION_DEFAULTS))
        )
        self.choices = choices
        # a missing bound as an infinite one: two comparisons a counter, with no test for None (a counter is an
        # ``int``, which Python compares with a float exactly, however large)
        self.bounded = tuple((key, -math.inf if low is None else low, math.inf if high is None else high) for key, low, high in bounded)

    def within_ranges(self, data: dict[str, Any]) -> bool:
        """Whether the object's winds and counters lie within their fields' choices and bounds."""
        for key, allowed in self.choices:
            if data[key] not in allowed:
                return False
        for key, low, high in self.bounded:
            value = data[key]
            if value < low or value > high:
                return False
        return True


_SHAPE_NUMBERS = itertools.count()


def _none(data: Any) -> tuple[()]:
    return ()


_NONE = _none


def shape_of(data: dict[str, Any]) -> Shape | None:
    """The ``Shape`` of a JSON object's signature (its keys and its values' exact types, in order), or None when no
    object of that signature is plain (as ``plain_request`` decides), or when it names a liable seat or a discarder
    (such a request is read by the contract's model: ``engine.scoring.liability``). Melds are not checked by the
    shape: each must be a meld ``build_hand`` kept (``engine.core.hand.kept_meld``)."""
    if not data.keys() >= REQUEST_FIELDS.required or "liable" in data or "from" in data:
        return None
    plan = _plan(REQUEST_FIELDS, _REQUEST_LISTS, data)
    if plan is _NEVER:
        return None
    choices, bounded, _lists = plan
    return Shape(tuple(key for key in data if key in SITUATION_DEFAULTS), choices, bounded)


def plain_request(data: Any) -> PlainRequest | None:
    """The request read directly when pydantic would accept it unchanged, else None (validate it instead)."""
    values = _READ_REQUEST(data)
    if values is None:
        return None
    request = PlainRequest()
    request.__dict__ = values  # the reader's own new dict: taken, not copied
    return request


def fields_of(model: Any) -> Fields | None:
    """The ``Fields`` of a pydantic model with plain fields, or None when it uses anything ``reader`` does not
    know (tests compare this with the table above)."""
    import types
    import typing

    from pydantic import BaseModel

    if dict(model.model_config) not in ({"extra": "forbid"}, {"extra": "forbid", "strict": True}):
        return None
    groups: dict[str, Any] = {
        "required": set(), "bools": set(), "strs": set(), "choices": {}, "ints": {}, "nullable": set(), "nullable_choices": {},
        "aliases": {}, "lists": {}, "defaults": {}, "empty_lists": set(),
    }  # fmt: skip
    for attribute, info in model.model_fields.items():
        if info.validation_alias not in (None, info.alias):
            return None
        name = info.alias or attribute  # the JSON key
        if info.alias is not None:
            groups["aliases"][name] = attribute
        annotation, low, high = info.annotation, None, None
        for item in info.metadata:
            if type(item).__name__ == "Ge" and annotation is int:
                low = item.ge
            elif type(item).__name__ == "Le" and annotation is int:
                high = item.le
            else:
                return None
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if annotation is bool:
            groups["bools"].add(name)
        elif annotation is str:
            groups["strs"].add(name)
        elif annotation is int:
            groups["ints"][name] = (low, high)
        elif origin is typing.Literal and args and all(type(a) is str for a in args):
            groups["choices"][name] = frozenset(args)
        elif origin in (typing.Union, types.UnionType) and set(args) == {str, type(None)}:
            groups["nullable"].add(name)
        elif origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args and _literal(args):
            groups["nullable_choices"][name] = _literal(args)
        elif origin is list and len(args) == 1 and isinstance(args[0], type) and issubclass(args[0], BaseModel):
            item = fields_of(args[0])
            if item is None:
                return None
            groups["lists"][name] = item
        else:
            return None
        if info.is_required():
            groups["required"].add(name)
        elif info.default_factory is list:
            groups["empty_lists"].add(name)
        elif info.default_factory is not None:
            return None
        else:
            groups["defaults"][name] = info.default
    values: dict[str, Any] = {k: frozenset(v) if isinstance(v, set) else v for k, v in groups.items()}
    return Fields(**values)


def _literal(args: tuple[Any, ...]) -> frozenset[str] | None:
    """The strings of the ``Literal`` among a union's members, or None when there is none."""
    import typing

    for arg in args:
        if typing.get_origin(arg) is typing.Literal and all(type(a) is str for a in typing.get_args(arg)):
            return frozenset(typing.get_args(arg))
    return None
