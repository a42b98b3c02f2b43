"""Value classes built without ``dataclasses``: the same declarations, a fraction of the start-up cost.

``@dataclass`` writes each class's ``__init__``, ``__eq__``, ``__hash__``, ``__repr__`` and frozen ``__setattr__``
as source text and compiles it with ``exec``, and with ``slots=True`` builds the class twice: about half a
millisecond per class. The syntax tree, the compiled rules, the vocabulary and the scorer's inputs are some sixty
such classes, so a command that scores one hand spent a third of its start-up making classes. ``record`` reads
the same annotations and defaults and gives the class methods that already exist (an ``__init__`` that binds
arguments from tables made once per class, comparisons over one ``operator.attrgetter``), so a class costs tens
of microseconds.

Binding arguments in Python is slower than a real signature, and its dicts and lists wake the garbage collector:
a class built often (a round's moves, a game's states) would pay for that in every replay. So once a class has
been constructed ``SPECIALIZE_AFTER`` times, its ``__init__`` (and its generated ``__eq__``) is replaced by one
with the fields as parameters, written and compiled as ``dataclasses`` writes it, from the class's own field names (identifiers of our source,
never a rulebook's words; defaults are passed as objects, not as text). A one-hand command compiles almost
nothing; a long run gets dataclass speed where it matters.

What it supports is what this code base uses (any other option is a ``TypeError``): ``frozen`` (default) or
mutable, ``slots`` (default) or a ``__dict__`` (for ``functools.cached_property``), ``field(default=...,
default_factory=..., compare=False, repr=False, init=False)``, ``__post_init__``, hand-written methods kept as
written, and inheritance from another record. ``fields``, ``replace`` and ``is_record`` are the counterparts of
the ``dataclasses`` functions; ``maker`` builds a slotted record from positional values without argument binding
(a decoder's thousands of syntax-tree nodes), and ``filling`` makes a twin class whose objects take a hot record's
fields by plain assignments before becoming one. Type checkers read a record as a dataclass
(``typing.dataclass_transform``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from itertools import repeat
from operator import attrgetter, call, itemgetter
from types import MemberDescriptorType

from ruledsl.typing_names import TYPE_CHECKING, TypeVar, dataclass_transform

if TYPE_CHECKING:
    from typing import Any, overload

_T = TypeVar("_T")
_MISSING: Any = type("_Missing", (), {"__repr__": lambda self: "<missing>", "__slots__": ()})()
_FIELDS = "__record_fields__"
_SET = object.__setattr__  # a frozen record's own ``__setattr__`` refuses; its ``__init__`` sets fields this way
# Constructions of a class after which its ``__init__`` is compiled with the fields as parameters. Compiling costs
# about as much as a hundred generic constructions: a one-hand command builds no class this often after start-up
# (riichi score HAND: the same instructions at 128 as at 256, 1.0 M more at 96, 5.3 M more at 64), while a replay's
# per-round classes (about 200 a pass over 20 logs) reach it in their first pass, not their second
SPECIALIZE_AFTER = 128


class FrozenRecordError(AttributeError):
    """An attempt to assign to a field of a frozen record (``dataclasses.FrozenInstanceError``'s counterpart)."""


class Field:
    """One field as declared: its name and annotation, its default (or a factory of defaults), and whether it
    takes part in equality and in ``repr``."""

    __slots__ = ("name", "type", "default", "default_factory", "compare", "repr", "init")

    def __init__(
        self, default: Any = _MISSING, default_factory: Any = _MISSING, compare: bool = True, repr: bool = True, init: bool = True
    ) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("a field takes `default` or `default_factory`, not both")
        self.name = ""
        self.type: Any = None  # the annotation as written (a string under ``from __future__ import annotations``)
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.repr = repr
        self.init = init

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.default_factory is _MISSING

    def __repr__(self) -> str:
        return f"Field({self.name!r})"


def field(
    *,
    default: Any = _MISSING,
    default_factory: Callable[[], Any] = _MISSING,
    compare: bool = True,
    repr: bool = True,
    init: bool = True,
) -> Any:
    """A field with options, as ``dataclasses.field``: ``x: int = field(default=0, compare=False)``; a field with
    ``init=False`` is not an argument of ``__init__`` (its default or factory fills it, or ``__post_init__``)."""
    return Field(default, default_factory, compare, repr, init)


if TYPE_CHECKING:  # the two ways of calling it, for the type checker alone

    @overload
    def record(cls: type[_T], /) -> type[_T]: ...
    @overload
    def record(*, frozen: bool = True, slots: bool = True) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(cls: type[_T] | None = None, /, *, frozen: bool = True, slots: bool = True) -> Any:
    """Make ``cls`` a value class from its annotations: ``@record``, ``@record(frozen=False)``,
    ``@record(slots=False)``."""

    def wrap(cls: type[_T]) -> type[_T]:
        return _build(cls, frozen, slots)

    return wrap if cls is None else wrap(cls)


def _declared(cls: type) -> list[Field]:
    """The fields of ``cls``: its bases' record fields, then its own annotations in order (``ClassVar`` left out)."""
    inherited: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in getattr(base, _FIELDS, ()):
            inherited[f.name] = f
    own = cls.__dict__.get("__annotations__", {})
    for name, annotation in own.items():
        if "ClassVar" in str(annotation):
            continue
        value = cls.__dict__.get(name, _MISSING)
        declared = value if isinstance(value, Field) else Field(default=value)
        declared.name = name
        declared.type = annotation
        inherited.pop(name, None)
        inherited[name] = declared
    fields = list(inherited.values())
    seen_default = False
    for f in fields:
        if not f.init:
            continue
        if f.required and seen_default:
            raise TypeError(f"{cls.__name__}: field `{f.name}` without a default follows a field with one")
        seen_default = seen_default or not f.required
    return fields


def _build(cls: type[_T], frozen: bool, slots: bool) -> type[_T]:
    """The record class: ``cls`` itself given the methods, or (with ``slots``) a copy of it made with ``__slots__``
    and the methods at once, as a class's slots can only be set when it is made (a special method set on a class
    afterwards costs it as much again as making it)."""
    fields = _declared(cls)
    names = tuple(f.name for f in fields)
    if not slots:
        for f in fields:  # a plain default stays a class attribute, as with dataclasses
            if isinstance(cls.__dict__.get(f.name), Field):
                if f.default is _MISSING:
                    delattr(cls, f.name)
                else:
                    setattr(cls, f.name, f.default)
    own = cls.__dict__
    home: list[Any] = [cls]  # the class the methods belong to: with slots, the copy made below
    methods: dict[str, Any] = {_FIELDS: tuple(fields), "__match_args__": names}
    if "__init__" not in own:
        methods["__init__"] = _init(cls, fields, home)
    key = _getter([f.name for f in fields if f.compare])
    if "__eq__" not in own:
        methods["__eq__"] = methods["__record_eq__"] = _eq(key)
    if own.get("__hash__") is None:  # not written, or set to None by a hand-written __eq__
        methods["__hash__"] = _hash(key) if frozen else None
    if "__repr__" not in own:
        methods["__repr__"] = _repr([f.name for f in fields if f.repr])
    if frozen:
        methods["__setattr__"] = _refuse_set
        methods["__delattr__"] = _refuse_delete
    if not slots:
        for name, method in methods.items():
            setattr(cls, name, method)
        return cls
    methods["__reduce__"] = _reduce(names, _getter(list(names)))
    inherited = {f.name for base in cls.__mro__[1:] for f in getattr(base, _FIELDS, ())}
    namespace = {k: v for k, v in own.items() if k not in names and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = tuple(n for n in names if n not in inherited)
    namespace.update(methods)
    metaclass: Any = type(cls)
    made: Any = metaclass(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    home[0] = made
    return made


def _getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of these fields' values (``attrgetter`` alone gives a bare value for one name)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)


def _init(cls: type, declared: list[Field], home: list[Any]) -> Callable[..., None]:
    """An ``__init__`` taking the fields positionally or by name, defaults from tables made at its first call (many
    classes of a short command are never built); ``home`` holds the class it ends up in (``cls`` or its slotted
    copy), whose methods are compiled once it is used often."""
    title = cls.__qualname__
    post_init = getattr(cls, "__post_init__", None)
    tables: list[Any] = []

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if not tables:
            made = _init_tables(title, declared)
            tables.extend((*made, _setters(home[0], made[0])))  # one step: another thread sees all or nothing
        names, count, tails, bind, later, built, puts = tables
        if built[0] < SPECIALIZE_AFTER:
            built[0] += 1  # counted here, not in a helper: a call per construction cost more than the count
            if built[0] == SPECIALIZE_AFTER:
                _specialize(home[0], declared, post_init)
        if kwargs or len(args) not in tails:
            args = bind(args, kwargs)  # only iterated
        elif len(args) != count:
            args += tails[len(args)]
        # every field set by one C-level loop (every setter answers None, so ``any`` calls them all): each slot's
        # own setter, or without slots ``object.__setattr__`` by name
        if puts is not None:
            any(map(call, puts, repeat(self), args))
        else:
            any(map(_SET, repeat(self), names, args))
        if later:
            _fill_later(self, later)
        if post_init is not None:
            post_init(self)

    __init__.__qualname__ = f"{title}.__init__"
    return __init__


def _init_tables(title: str, declared: list[Field]) -> tuple[Any, ...]:
    """What a record's generic ``__init__`` reads: the argument names and their count, the defaults to append per
    number of positional arguments, the binder of keywords, the fields that are not arguments, and a count of
    constructions."""
    fields = [f for f in declared if f.init]
    # fields that are not arguments: (name, default, factory) for those that have one
    later = tuple((f.name, f.default, f.default_factory) for f in declared if not f.init and not f.required)
    names = tuple(f.name for f in fields)
    count = len(names)
    position = {name: i for i, name in enumerate(names)}
    required = sum(1 for f in fields if f.required)
    # the defaults to append when the first k fields are given positionally and nothing by name
    tails: dict[int, tuple[Any, ...]] = {}
    if all(f.default_factory is _MISSING for f in fields):
        for k in range(required, count + 1):
            tails[k] = tuple(f.default for f in fields[k:])
    factories = [(i, f.default_factory) for i, f in enumerate(fields) if f.default_factory is not _MISSING]
    # each field's default by name, _MISSING for a required field or one made by a factory
    default_of = {f.name: f.default if f.default_factory is _MISSING else _MISSING for f in fields}
    # the required fields that the keywords must supply when the first k are given positionally
    still_required = [frozenset(names[k:required]) for k in range(count + 1)]
    # the arguments' values in order, from the defaults merged with what was given, in one C-level call
    values_of = itemgetter(*names) if count > 1 else lambda merged: tuple(map(merged.__getitem__, names))

    def bind(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Sequence[Any]:
        given = len(args)
        if given > count:
            raise TypeError(f"{title}() takes {count} arguments but {given} were given")
        merged = {**default_of, **kwargs}
        if len(merged) != count:
            unexpected = next(name for name in kwargs if name not in position)
            raise TypeError(f"{title}() got an unexpected keyword argument '{unexpected}'")
        if given:
            for name in kwargs:
                if position[name] < given:
                    raise TypeError(f"{title}() got multiple values for argument '{name}'")
            merged.update(zip(names, args, strict=False))
        if not kwargs.keys() >= still_required[given]:
            missing = next(name for name in names[given:required] if name not in kwargs)
            raise TypeError(f"{title}() missing required argument: '{missing}'")
        if not factories:
            return values_of(merged)
        values = list(values_of(merged))
        for i, factory in factories:
            if values[i] is _MISSING:
                values[i] = factory()
        return values

    return names, count, tails, bind, later, [0]


def _setters(owner: type, names: tuple[str, ...]) -> tuple[Callable[[Any, Any], None], ...] | None:
    """Each argument field's slot setter (its member descriptor's ``__set__``: a frozen record's own
    ``__setattr__`` refuses), which sets a slot in fewer steps than ``object.__setattr__`` finding it by name; None
    when a field is not a slot of ``owner`` (a record without slots)."""
    found = [getattr(owner, name, None) for name in names]  # a slot's member descriptor is its class's attribute
    slots = [member for member in found if isinstance(member, MemberDescriptorType)]
    return tuple(member.__set__ for member in slots) if len(slots) == len(found) else None


def _specialize(owner: Any, declared: list[Field], post_init: Any) -> None:
    for name, method in _compiled_methods(owner, declared, post_init).items():
        setattr(owner, name, method)


def _compiled_methods(cls: type, declared: list[Field], post_init: Any) -> dict[str, Callable[..., Any]]:
    """``__init__`` with the fields as parameters and, unless the class wrote its own, ``__eq__`` comparing them
    one by one (``SPECIALIZE_AFTER``); nothing for a field name that is not a plain identifier (never in this code
    base). The source holds only field names and generated local names; every default, factory and the
    ``__post_init__`` come in through the namespace."""
    import keyword

    if any(not f.name.isidentifier() or keyword.iskeyword(f.name) or f.name.startswith("__record") for f in declared):
        return {}
    namespace: dict[str, Any] = {"__record_set": _SET, "__record_missing": _MISSING, "__record_post": post_init}
    params: list[str] = []
    body: list[str] = []
    for i, f in enumerate(declared):
        if not f.init:
            continue
        if f.required:
            params.append(f.name)
        elif f.default_factory is not _MISSING:
            namespace[f"__record_factory_{i}"] = f.default_factory
            params.append(f"{f.name}=__record_missing")
            body.append(f"if {f.name} is __record_missing: {f.name} = __record_factory_{i}()")
        else:
            namespace[f"__record_default_{i}"] = f.default
            params.append(f"{f.name}=__record_default_{i}")
    # each argument's slot setter, as the generic ``__init__`` sets it (None without slots: set by name)
    puts = _setters(cls, tuple(f.name for f in declared if f.init))
    put_of = dict(zip((f.name for f in declared if f.init), puts or (), strict=False))
    for i, f in enumerate(declared):
        if f.name in put_of:
            namespace[f"__record_put_{i}"] = put_of[f.name]
            body.append(f"__record_put_{i}(__record_self, {f.name})")
        elif f.init:
            body.append(f"__record_set(__record_self, {f.name!r}, {f.name})")
        elif f.default_factory is not _MISSING:
            namespace[f"__record_factory_{i}"] = f.default_factory
            body.append(f"__record_set(__record_self, {f.name!r}, __record_factory_{i}())")
        elif f.default is not _MISSING:
            namespace[f"__record_default_{i}"] = f.default
            body.append(f"__record_set(__record_self, {f.name!r}, __record_default_{i})")
    if post_init is not None:
        body.append("__record_post(__record_self)")
    source = f"def __init__(__record_self, {', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    names = ["__init__"]
    if getattr(cls, "__eq__", None) is getattr(cls, "__record_eq__", None):  # the generated one: compile it too
        compared = [f.name for f in declared if f.compare]
        mine = "".join(f"__record_self.{n}, " for n in compared)
        theirs = "".join(f"__record_other.{n}, " for n in compared)
        source += (
            "def __eq__(__record_self, __record_other):\n"
            "    if __record_other.__class__ is not __record_self.__class__:\n"
            "        return NotImplemented\n"
            f"    return ({mine}) == ({theirs})\n"
        )
        names.append("__eq__")
    exec(source, namespace)  # noqa: S102 - our own field names, checked above; see the module's docstring
    methods: dict[str, Callable[..., Any]] = {name: namespace[name] for name in names}
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
    return methods


def _fill_later(obj: Any, later: tuple[tuple[str, Any, Any], ...]) -> None:
    for name, default, factory in later:
        _SET(obj, name, factory() if default is _MISSING else default)


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _repr(names: list[str]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _refuse_set(self: Any, name: str, value: Any) -> None:
    raise FrozenRecordError(f"cannot assign to field '{name}' of a frozen {type(self).__name__}")


def _refuse_delete(self: Any, name: str) -> None:
    raise FrozenRecordError(f"cannot delete field '{name}' of a frozen {type(self).__name__}")


def _reduce(names: tuple[str, ...], values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], tuple[Any, ...]]:
    """Pickling and ``copy`` of a slotted record: its field values, set again by ``_rebuild`` (a frozen record
    refuses the ``setattr`` the default protocol would use)."""

    def __reduce__(self: Any) -> tuple[Any, ...]:
        return (_rebuild, (self.__class__, names, values(self)))

    return __reduce__


def _rebuild(cls: type, names: tuple[str, ...], values: tuple[Any, ...]) -> Any:
    obj: Any = object.__new__(cls)
    for name, value in zip(names, values, strict=True):
        _SET(obj, name, value)
    return obj


def maker(cls: type[_T]) -> Callable[..., _T]:
    """A constructor of a slotted record taking every field's value positionally (``make(a, b, c)``), without
    ``__init__``'s binding of keywords and defaults: for a decoder building thousands of records at start-up.

    Up to five fields (a span, most expression nodes) it sets each slot in a line of its own, with no loop; above
    that the slots are set by a C-level ``map``. Nothing is compiled: compiling a constructor costs as much as
    building some three hundred nodes with it. ``__post_init__`` still runs."""
    declared = fields(cls)
    if "__slots__" not in cls.__dict__ or any(not f.init for f in declared):
        raise TypeError(f"{cls.__name__}: `maker` builds slotted records whose every field is an argument")
    puts = tuple(getattr(cls, f.name).__set__ for f in declared)
    post_init = getattr(cls, "__post_init__", None)
    make = _unrolled(cls, puts) if post_init is None else None
    if make is None:
        make = _mapped(cls, puts, post_init)
    make.__qualname__ = f"{cls.__qualname__}.make"
    return make


def filling(cls: type) -> type | None:
    """A class with the very slots of the slotted record ``cls`` and none of its methods, or None where ``cls`` has
    no slots of its own on a plain base: for the few records a hot loop builds by the thousand (a round's start, its
    settlement, a game's next state, a request's situation).

    An object of it takes each field by a plain assignment, where a frozen record's ``__init__`` sets each slot
    through a call; it then becomes the record by ``obj.__class__ = cls`` (two classes with the same slots on the
    same base have the same layout, so Python lets an object change between them). The assignments are written
    out at the call site, each a specialised store: about half of what the record's constructor costs. A caller
    given None builds the record with ``cls(...)`` instead."""
    slots = cls.__dict__.get("__slots__")
    if slots is None or cls.__bases__ != (object,):
        return None
    return type(f"{cls.__name__}Filling", (), {"__slots__": slots, "__module__": cls.__module__, "__qualname__": f"{cls.__qualname__}Filling"})


def _unrolled(cls: type[_T], puts: tuple[Callable[[object, object], None], ...]) -> Callable[..., _T] | None:
    """A constructor setting each of up to five slots in a line of its own; None for more."""
    new: Any = object.__new__
    if len(puts) == 1:
        (p0,) = puts

        def make1(v0: object) -> _T:
            obj = new(cls)
            p0(obj, v0)
            return obj

        return make1
    if len(puts) == 2:
        p0, p1 = puts

        def make2(v0: object, v1: object) -> _T:
            obj = new(cls)
            p0(obj, v0)
            p1(obj, v1)
            return obj

        return make2
    if len(puts) == 3:
        p0, p1, p2 = puts

        def make3(v0: object, v1: object, v2: object) -> _T:
            obj = new(cls)
            p0(obj, v0)
            p1(obj, v1)
            p2(obj, v2)
            return obj

        return make3
    if len(puts) == 4:
        p0, p1, p2, p3 = puts

        def make4(v0: object, v1: object, v2: object, v3: object) -> _T:
            obj = new(cls)
            p0(obj, v0)
            p1(obj, v1)
            p2(obj, v2)
            p3(obj, v3)
            return obj

        return make4
    if len(puts) == 5:
        p0, p1, p2, p3, p4 = puts

        def make5(v0: object, v1: object, v2: object, v3: object, v4: object) -> _T:
            obj = new(cls)
            p0(obj, v0)
            p1(obj, v1)
            p2(obj, v2)
            p3(obj, v3)
            p4(obj, v4)
            return obj

        return make5
    return None


def _mapped(cls: type[_T], puts: tuple[Callable[[object, object], None], ...], post_init: Any) -> Callable[..., _T]:
    """A constructor setting the slots by a C-level ``map`` (``operator.call`` of each slot's setter)."""
    new: Any = object.__new__
    count = len(puts)

    def make(*values: object) -> _T:
        if len(values) != count:
            raise TypeError(f"{cls.__qualname__}.make() takes {count} positional arguments but {len(values)} were given")
        obj = new(cls)
        any(map(call, puts, repeat(obj), values))  # every setter answers None: all are called
        if post_init is not None:
            post_init(obj)
        return obj

    return make


def is_record(obj: Any) -> bool:
    """Whether ``obj`` is a record class or an instance of one."""
    return hasattr(obj if isinstance(obj, type) else type(obj), _FIELDS)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in declaration order."""
    found = getattr(obj if isinstance(obj, type) else type(obj), _FIELDS, None)
    if found is None:
        raise TypeError(f"{obj!r} is not a record")
    return found


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of the record ``obj`` with some fields changed."""
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field `{f.name}` is not an argument of __init__, so `replace` cannot set it")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def dataclass_names() -> dict[str, Any]:
    """This module's names as the ``dataclasses`` module gives them: what a run with ``RIICHI_RECORD=dataclasses``
    (read once, when this module is imported) uses instead of ``record``. CI runs the tests once so, to show that
    ``record`` is a drop-in for the frozen dataclasses it replaced: whatever passes on one passes on the other."""
    import dataclasses

    def record_as_dataclass(cls: Any = None, /, *, frozen: bool = True, slots: bool = True) -> Any:
        return dataclasses.dataclass(cls, frozen=frozen, slots=slots)

    def maker_as_constructor(cls: type[_T]) -> Callable[..., _T]:
        return cls  # a dataclass's ``__init__`` takes every field positionally

    def no_filling(cls: type) -> None:
        return None  # every record built by its own ``__init__``

    return {
        "record": record_as_dataclass,
        "field": dataclasses.field,
        "fields": dataclasses.fields,
        "replace": dataclasses.replace,
        "maker": maker_as_constructor,
        "filling": no_filling,
        "is_record": dataclasses.is_dataclass,
        "Field": dataclasses.Field,
        "FrozenRecordError": dataclasses.FrozenInstanceError,
    }


if os.environ.get("RIICHI_RECORD") == "dataclasses":
    globals().update(dataclass_names())

__all__ = ["record", "field", "fields", "replace", "maker", "filling", "is_record", "Field", "FrozenRecordError"]
