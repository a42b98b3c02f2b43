"""A memo's miss stores what its function returns, the very object, and keeps the bound (emptied when full, then
the new entry): the same entries, in the same order, as a plain dict filled by ``__setitem__`` under that rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ruledsl.memo import Memo


@given(st.lists(st.integers(0, 20), max_size=60), st.integers(1, 8))
def test_misses_fill_the_memo_as_a_bounded_dict_would(keys: list[int], limit: int) -> None:
    calls: list[int] = []

    def fn(key: int) -> list[int]:
        calls.append(key)
        return [key]

    memo = Memo(fn, limit)
    reference: dict[int, list[int]] = {}
    for key in keys:
        got = memo[key]
        if key not in reference:
            if len(reference) >= limit:
                reference.clear()
            reference[key] = got
        assert got is reference[key] and got == [key]
        assert list(memo.items()) == list(reference.items())
        assert all(memo[k] is v for k, v in reference.items())
    assert len(calls) == len(set(calls)) or len(keys) > limit
