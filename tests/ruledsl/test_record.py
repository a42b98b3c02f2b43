"""``ruledsl.record`` behaves as the frozen dataclasses it replaced: the same constructor, equality, hash, repr,
copies and errors, at a fraction of the start-up cost. Making a class compiles no source text; only a
class constructed ``SPECIALIZE_AFTER`` times gets an ``__init__`` (and ``__eq__``) compiled with ``exec`` from its
own field names, as ``dataclasses`` writes them (tested below).

Under ``RIICHI_RECORD=dataclasses`` (CI's run of the suite with ``record`` aliased to ``dataclasses``) this module
is skipped: it tests ``record`` itself, which that run replaces.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from functools import cached_property
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ruledsl import record as record_module
from ruledsl.record import FrozenRecordError, field, fields, filling, is_record, maker, record, replace

pytestmark = pytest.mark.skipif(
    record_module.Field is dataclasses.Field, reason="RIICHI_RECORD=dataclasses: record is replaced in this run"
)


@record
class Point:
    """A slotted, frozen record with a default and a field left out of equality."""

    x: int
    y: int = 0
    note: str = field(default="", compare=False, repr=False)


@dataclasses.dataclass(frozen=True, slots=True)
class DataPoint:
    x: int
    y: int = 0
    note: str = dataclasses.field(default="", compare=False, repr=False)


def _bag_class() -> Any:
    """A mutable record with factories, fields left out of ``__init__`` and a ``__post_init__`` (a new class per
    call, for the tests that count constructions)."""

    @record(frozen=False, slots=False)
    class Bag:
        name: str
        items: list[int] = field(default_factory=list)
        size: int = field(init=False, default=0)
        seen: dict[str, int] = field(init=False, default_factory=dict)

        def __post_init__(self) -> None:
            self.size = len(self.items)

    return Bag


Bag = _bag_class()
Bag.__qualname__ = "Bag"  # found by pickle as this module's `Bag`


@record(slots=False)
class Cached:
    values: tuple[int, ...]

    @cached_property
    def total(self) -> int:
        return sum(self.values)


@record
class Point3(Point):
    z: int = 0


def test_construction_positional_by_name_and_defaults() -> None:
    assert Point(1).y == 0 and Point(1, 2).y == 2 and Point(x=1, y=2) == Point(1, 2) == Point(1, y=2)
    assert Point(1, note="a") == Point(1, note="b")  # `note` takes no part in equality
    assert hash(Point(1, note="a")) == hash(Point(1, note="b"))
    assert repr(Point(1, 2, "n")) == "Point(x=1, y=2)"
    assert Point.__match_args__ == ("x", "y", "note")
    match Point(3, 4):
        case Point(a, b):
            assert (a, b) == (3, 4)


WRONG_CALLS = [
    (lambda cls: cls(), "missing .*'x'"),
    (lambda cls: cls(1, 2, "n", 4), "takes .* positional arguments but|takes 3 arguments but 4"),
    (lambda cls: cls(1, x=2), "multiple values for argument 'x'"),
    (lambda cls: cls(1, z=2), "unexpected keyword argument 'z'"),
    (lambda cls: cls(y=1), "missing .*'x'"),
]


@pytest.mark.parametrize(("call", "message"), WRONG_CALLS)
def test_wrong_arguments_are_type_errors(call: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        call(Point)


def test_frozen_records_refuse_changes() -> None:
    p = Point(1)
    with pytest.raises(FrozenRecordError, match="cannot assign to field 'x'"):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenRecordError, match="cannot delete field 'x'"):
        del p.x  # type: ignore[misc]
    assert isinstance(FrozenRecordError("x"), AttributeError)


def test_mutable_records_with_factories_init_false_and_post_init() -> None:
    a, b = Bag("a"), Bag("b", [1, 2])
    a.items.append(1)
    assert Bag("c").items == [] and b.size == 2 and a.seen == {} and a.seen is not Bag("d").seen
    a.name = "renamed"
    assert a.name == "renamed"
    with pytest.raises(TypeError):
        hash(a)  # a mutable record is not hashable, as a mutable dataclass is not
    assert replace(b, name="c") == Bag("c", [1, 2])
    with pytest.raises(ValueError, match="`size` is not an argument"):
        replace(b, size=3)
    assert [f.name for f in fields(Bag)] == ["name", "items", "size", "seen"]


def test_records_without_slots_keep_cached_properties() -> None:
    c = Cached((1, 2, 3))
    assert c.total == 6 and c.__dict__["total"] == 6
    with pytest.raises(FrozenRecordError):
        c.values = ()  # type: ignore[misc]


def test_inheritance_adds_fields_after_the_bases() -> None:
    p = Point3(1, 2, "n", 3)
    assert (p.x, p.y, p.z) == (1, 2, 3) and [f.name for f in fields(p)] == ["x", "y", "note", "z"]
    assert p != Point(1, 2)  # another class is never equal
    assert Point3.__slots__ == ("z",)


@record(slots=False)
class Loose:
    a: int
    b: int = 1


@record
class TightOverLoose(Loose):
    c: int = 2


def test_fields_are_set_by_their_slot_setters_where_every_field_is_a_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``__init__`` (generic, and compiled after ``SPECIALIZE_AFTER``) sets each field with its slot's own setter
    when every argument is a slot, inherited ones too, and by name otherwise: the same values either way."""
    assert record_module._setters(Point3, ("x", "y", "note", "z")) is not None
    assert record_module._setters(Loose, ("a", "b")) is None  # no slots: set by name, in the instance's dict
    assert record_module._setters(TightOverLoose, ("a", "b", "c")) is None  # ``a`` and ``b`` live in the dict
    monkeypatch.setattr(record_module, "SPECIALIZE_AFTER", 3)

    @record
    class Low(Point3):
        w: int = field(default=9, compare=False)

    built = [Low(1), Low(1, 2, "n", 3, 4), Low(x=1, z=3), TightOverLoose(1), TightOverLoose(1, c=5), Loose(0)]
    built += [Low(1), Low(1, 2, "n", 3, 4), Low(x=1, z=3), TightOverLoose(1), TightOverLoose(1, c=5), Loose(0)]
    for made in built[:6], built[6:]:  # generic, then compiled
        assert [(p.x, p.y, p.note, p.z, p.w) for p in made[:3]] == [(1, 0, "", 0, 9), (1, 2, "n", 3, 4), (1, 0, "", 3, 9)]
        assert [(t.a, t.b, t.c) for t in made[3:5]] == [(1, 1, 2), (1, 1, 5)] and made[3].__dict__ == {"a": 1, "b": 1}
        assert made[5] == Loose(0, 1)
    with pytest.raises(FrozenRecordError):
        built[-1].a = 1  # type: ignore[misc]


def test_a_required_field_after_a_default_is_refused() -> None:
    with pytest.raises(TypeError, match="without a default follows"):

        @record
        class Bad:
            a: int = 0
            b: int  # type: ignore[misc]


def test_a_field_has_a_default_or_a_factory_not_both() -> None:
    with pytest.raises(ValueError, match="not both"):
        field(default=1, default_factory=list)


def test_hand_written_methods_are_kept() -> None:
    @record
    class Loud:
        word: str

        def __init__(self, word: str) -> None:
            object.__setattr__(self, "word", word.upper())

        def __repr__(self) -> str:
            return f"<{self.word}>"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Loud) and other.word.lower() == self.word.lower()

    assert Loud("a").word == "A" and repr(Loud("a")) == "<A>" and Loud("a") == Loud("A")
    assert hash(Loud("a")) == hash(Loud("a"))  # a hand-written __eq__ still gets the fields' hash


def test_copies_and_pickles_are_equal() -> None:
    for value in (Point(1, 2, "n"), Point3(1, 2, "n", 3), Bag("b", [1]), Cached((1, 2))):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value
    assert pickle.loads(pickle.dumps(Point(1, 2, "n"))).note == "n"


def test_maker_builds_what_init_builds() -> None:
    make = maker(Point)
    assert make(1, 2, "n") == Point(1, 2, "n") and make(1, 2, "n").note == "n"
    with pytest.raises(TypeError, match="missing 2 required positional arguments"):
        make(1)
    with pytest.raises(TypeError, match="takes 3 positional arguments but 4 were given"):
        make(1, 2, "n", 4)
    with pytest.raises(TypeError, match="slotted records"):
        maker(Bag)


def test_a_filled_twin_becomes_the_record_its_constructor_builds() -> None:
    twin = filling(Point)
    assert twin is not None and twin.__slots__ == Point.__slots__
    made: Any = twin()
    made.x, made.y, made.note = 1, 2, "n"  # plain assignments: the twin has no frozen ``__setattr__``
    made.__class__ = Point
    built = Point(1, 2, "n")
    assert type(made) is Point and made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert made.note == "n"
    with pytest.raises(FrozenRecordError):
        made.x = 3  # a record now, frozen as any
    assert filling(Point3) is None  # a record on a record base: its twin would not share the layout
    assert filling(Bag) is None  # no slots


def test_is_record_and_fields() -> None:
    assert is_record(Point) and is_record(Point(1)) and not is_record(DataPoint) and not is_record(1)
    with pytest.raises(TypeError, match="is not a record"):
        fields(DataPoint)
    assert [f.type for f in fields(Point)] == ["int", "int", "str"]
    assert repr(fields(Point)[0]) == "Field('x')" and fields(Point)[0].required and not fields(Point)[1].required


@given(st.integers(), st.integers(), st.text(max_size=3), st.integers(), st.integers(), st.text(max_size=3))
def test_equality_hash_and_repr_agree_with_dataclasses(x: int, y: int, n: str, x2: int, y2: int, n2: str) -> None:
    ours, theirs = (Point(x, y, n), Point(x2, y2, n2)), (DataPoint(x, y, n), DataPoint(x2, y2, n2))
    assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
    assert hash(ours[0]) == hash(theirs[0])
    assert repr(ours[0]) == repr(theirs[0]).replace("DataPoint", "Point")


def test_a_class_built_often_gets_a_compiled_init_that_behaves_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_module, "SPECIALIZE_AFTER", 3)

    @record
    class Often:
        x: int
        y: int = 0
        note: str = field(default="", compare=False, repr=False)

    Filled = _bag_class()

    generic = Often.__init__, Filled.__init__, Often.__eq__
    for _ in range(4):
        Often(1)
        Filled("f")
    assert (Often.__init__, Filled.__init__, Often.__eq__) != generic
    assert Often.__init__.__qualname__.endswith("Often.__init__") and Often.__eq__.__qualname__.endswith("Often.__eq__")
    assert Often(1) != Point(1) and Often(1, 2) != Often(1, 3) and Often(1) == Often(1, note="other")
    assert Often(1) == Often(x=1, y=0, note="n") and repr(Often(1, 2)).endswith("Often(x=1, y=2)")
    for call, message in WRONG_CALLS:
        with pytest.raises(TypeError, match=message):
            call(Often)
    with pytest.raises(FrozenRecordError):
        Often(1).x = 2  # type: ignore[misc]
    a, b = Filled("a"), Filled("b", [1, 2])
    assert a.items == [] and a.items is not Filled("c").items and b.size == 2 and a.seen == {} and a.seen is not b.seen


def test_odd_field_names_keep_the_generic_init(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_module, "SPECIALIZE_AFTER", 2)
    Odd = record(type("Odd", (), {"__annotations__": {"class": "int", "x": "int"}}))  # a keyword as a field name
    generic = Odd.__init__
    for _ in range(3):
        Odd(1, 2)
    assert Odd.__init__ is generic and Odd(1, 2) == Odd(1, 2)


def test_the_dataclasses_stand_in_gives_the_same_values() -> None:
    """What ``RIICHI_RECORD=dataclasses`` swaps in: each name behaves as its ``record`` counterpart on a class
    declared the same way."""
    names = record_module.dataclass_names()
    assert set(names) == set(record_module.__all__)

    @names["record"]
    class Stand:
        x: int
        y: int = 0
        note: str = names["field"](default="", compare=False, repr=False)

    @names["record"](frozen=False, slots=False)
    class Loose:
        items: list[int] = names["field"](default_factory=list)

    assert names["is_record"](Stand) and not names["is_record"](Point)
    assert [f.name for f in names["fields"](Stand)] == [f.name for f in fields(Point)]
    assert repr(Stand(1, 2, "n")).endswith("Stand(x=1, y=2)") and Stand(1) == Stand(1, note="other")
    assert hash(Stand(1)) == hash(Stand(1)) and names["replace"](Stand(1), y=5) == Stand(1, 5)
    assert names["maker"](Stand)(1, 2, "n") == Stand(1, 2) and isinstance(names["fields"](Stand)[0], names["Field"])
    with pytest.raises(names["FrozenRecordError"]):
        Stand(1).x = 2  # type: ignore[misc]
    loose = Loose()
    loose.items.append(1)
    assert loose.items == [1] and Loose().items == [] and not hasattr(Stand(1), "__dict__")
