"""``ruledsl.typing_names`` stands in for ``typing`` at run time: each stand-in must behave as the original does
where the engine calls it (the type checker reads the originals)."""

from __future__ import annotations

import typing

import pytest

from ruledsl import typing_names as names


def test_cast_answers_its_value() -> None:
    value = object()
    assert names.cast(int, value) is value is typing.cast(int, value)


def test_a_type_variable_and_a_generic_base_leave_a_class_as_it_is() -> None:
    T = names.TypeVar("T", bound=int)

    class Box(dict[str, T], names.Generic[T]):
        pass

    box = Box(a=1)
    assert box == {"a": 1} and isinstance(box, dict)
    assert names.Generic[T] is names.Generic


def test_the_decorator_leaves_what_it_decorates() -> None:
    class Record:
        pass

    assert names.dataclass_transform(frozen_default=True)(Record) is Record


@pytest.mark.parametrize("value", ["short", "x" * 300])
def test_assert_never_raises_what_typing_raises(value: str) -> None:
    with pytest.raises(AssertionError) as ours:
        names.assert_never(value)
    with pytest.raises(AssertionError) as theirs:
        typing.assert_never(value)
    assert str(ours.value) == str(theirs.value)
