"""``ruledsl.fast._any_of`` written out for two to six operands answers as ``any`` over them, asks them in order
and stops at the first that holds, as the loop it replaces does (and as the reference nodes' ``or`` does)."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from ruledsl.fast import _any_of


def _operand(asked: list[int], at: int, answer: Any) -> Any:
    def fn(env: dict) -> Any:
        asked.append(at)
        return answer

    return fn


@pytest.mark.parametrize("size", range(2, 8))
def test_written_out_any_of_answers_and_stops_like_the_loop(size: int) -> None:
    for answers in product([False, True, 0, 3, None, ""], repeat=size) if size <= 4 else product([False, True], repeat=size):
        asked: list[int] = []
        found = _any_of(tuple(_operand(asked, at, answer) for at, answer in enumerate(answers)))({})
        assert found is any(answers)
        first = next((at for at, answer in enumerate(answers) if answer), size - 1)
        assert asked == list(range(first + 1))
