"""The few names of ``typing`` that the scoring path calls at run time, without importing ``typing``.

Importing ``typing`` costs a one-hand ``riichi score`` about 10 M instructions (some 4 ms), a tenth of what its own
imports cost, and the commands use nothing of it at run time but these: annotations are never evaluated
(``from __future__ import annotations``), so the modules of that path import the names of their annotations under
``if TYPE_CHECKING:`` only, and take from here what runs.

The type checker reads the first branch: the real names of ``typing``, re-exported, so it checks every use exactly
as it would the originals. At run time each is its plain equivalent: ``cast`` answers its value, a type variable
is ``object`` (a generic base class such as ``dict[K, V]`` stays a ``dict``), ``Generic[...]`` an empty base, the
decorator leaves what it decorates as it is, and ``assert_never`` raises what ``typing``'s raises. Nothing reads
them at run time through ``typing.get_type_hints`` (the request models, which ``pydantic`` reads so, import
``typing`` itself).
"""

TYPE_CHECKING = False  # a type checker takes any name ``TYPE_CHECKING`` as true

if TYPE_CHECKING:
    from typing import Generic as Generic
    from typing import TypeVar as TypeVar
    from typing import assert_never as assert_never
    from typing import cast as cast
    from typing import dataclass_transform as dataclass_transform
else:

    def cast(typ, value):
        return value

    def TypeVar(name, *constraints, **options):
        return object

    class Generic:
        __slots__ = ()

        def __class_getitem__(cls, parameters):
            return cls

    def dataclass_transform(**options):
        return lambda decorated: decorated

    def assert_never(arg, /):
        value = repr(arg)
        if len(value) > 100:  # as typing shortens it
            value = value[:100] + "..."
        raise AssertionError(f"Expected code to be unreachable, but got: {value}")


__all__ = ["TYPE_CHECKING", "Generic", "TypeVar", "assert_never", "cast", "dataclass_transform"]
