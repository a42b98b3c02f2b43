"""A scored answer written from the kept text of its parts is the text the JSON encoder writes for the whole answer.

``engine.services.answers.encode`` keeps the encoded text of answers' heads and result lines by their content; it
must give, byte for byte, what ``json.JSONEncoder(ensure_ascii=False, check_circular=False)`` gives for the whole
answer: on real answers of several rulebooks, on answers given values of look-alike types (``True`` is ``1`` to a
dict, ``1.0`` too), keys out of order or missing, lines that are not plain, and text that is not UTF-8.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import EngineError, InternalError
from engine.scoring.library import scorer
from engine.scoring.valuation import Tier
from engine.services import answers
from ruledsl import memo
from tests.peer_oracle import random_requests

_PLAIN = json.JSONEncoder(ensure_ascii=False, check_circular=False)


def _whole(answer: Any) -> bytes:
    """The answer encoded whole, as ``encode`` did before it kept any part's text."""
    try:
        text = _PLAIN.encode(answer)
    except (TypeError, ValueError) as exc:
        text = _PLAIN.encode(answers.error("internal_error", InternalError.of(exc, "writing the answer").message))
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (answers.SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8")


def _real_answers(count: int) -> list[dict[str, Any]]:
    found = []
    for name in ("house", "mleague", "tenhou_sanma"):
        score_json = scorer(name).score_json
        found += [score_json({**request, "rulebook": name}) for request in random_requests(20261202, count)]
    return found


def test_real_answers_encode_as_whole() -> None:
    found = _real_answers(400)
    assert sum(a["ok"] for a in found) > 600
    for answer in found:
        assert answers.encode(answer) == _whole(answer)
    for answer in found:  # the second time from kept text
        assert answers.encode(answer) == _whole(answer)


def test_kept_text_survives_emptied_caches() -> None:
    found = [a for a in _real_answers(60) if a["ok"]]
    memo.clear_all()
    for answer in found:
        assert answers.encode(answer) == _whole(answer)


def _scored() -> dict[str, Any]:
    answer = next(a for a in _real_answers(40) if a["ok"] and a["yaku"] and a["fu_items"])
    answers.encode(answer)  # its parts kept
    return answer


# Values that equal the real ones as dict keys (or as text) but are written otherwise, or cannot be written at all.
LOOK_ALIKES: list[tuple[str, Any]] = [
    ("han", True), ("han", 1.0), ("fu", 30.0), ("yakuman", False), ("base_points", 2000.0), ("total", True),
    ("ok", 1), ("limit", Tier("mangan", "mangan", None)), ("limit", 5), ("limit_clause", ["a"]),
    ("rulebook", "h\u00e4use"), ("rulebook", "\ud800"), ("yaku", ()), ("fu_items", None), ("payments", {"a": 1.5}),
    ("payments", {1: 2}), ("payments", [1]), ("total", object()), ("limit_clause_from", "\u2603"),
]  # fmt: skip


@pytest.mark.parametrize(("key", "value"), LOOK_ALIKES)
def test_look_alike_values_encode_as_whole(key: str, value: Any) -> None:
    answer = _scored()
    changed = {**answer, key: value}
    assert answers.encode(changed) == _whole(changed)


LINE_CHANGES: list[Any] = [
    lambda line: {**line, "han": True} if "han" in line else {**line, "fu": True},
    lambda line: {**line, "clause": 1.0},
    lambda line: {k: line[k] for k in reversed(line)},
    lambda line: {**line, "extra": None},
    lambda line: {**line, "name": "\ud800"},
    lambda line: {**line, "clause_from": Tier("x", "y", None)},
    lambda line: list(line.values()),
    lambda line: {**line, "id": {"nested": [1, 2]}},
]


@pytest.mark.parametrize("change", LINE_CHANGES)
@pytest.mark.parametrize("lines", ["yaku", "fu_items"])
def test_changed_lines_encode_as_whole(change: Any, lines: str) -> None:
    answer = _scored()
    changed = {**answer, lines: [change(line) for line in answer[lines]]}
    assert answers.encode(changed) == _whole(changed)
    again = {**answer, lines: [*answer[lines], change(answer[lines][0])]}
    assert answers.encode(again) == _whole(again)


def test_keys_out_of_order_or_missing_encode_as_whole() -> None:
    answer = _scored()
    for changed in ({k: answer[k] for k in reversed(answer)}, {k: v for k, v in answer.items() if k != "total"}, {**answer, "more": 1}):
        assert answers.encode(changed) == _whole(changed)


scalar = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(-2, 2), st.text(max_size=4))
line = st.dictionaries(st.sampled_from(["id", "name", "han", "fu", "clause", "clause_from"]), scalar, max_size=6)


@settings(max_examples=300, deadline=None)
@given(values=st.lists(scalar, min_size=14, max_size=14), yaku=st.lists(line, max_size=3), fu_items=st.lists(line, max_size=3))
def test_generated_answers_encode_as_whole(values: list[Any], yaku: list[Any], fu_items: list[Any]) -> None:
    answer = dict(zip(answers._SCORED_KEYS, values, strict=True))
    answer["ok"] = True
    answer["yaku"], answer["fu_items"], answer["payments"] = yaku, fu_items, {"non_dealer": values[12]}
    assert answers.encode(answer) == _whole(answer)
    assert answers.encode(answer) == _whole(answer)


# ---- reading a request line: ``answers.loads`` is ``json.loads`` ------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


def _outcome(read: Any, text: str) -> Any:
    try:
        return ("value", read(text))
    except (ValueError, RecursionError) as exc:
        return ("error", type(exc).__name__, str(exc))


@settings(max_examples=400, deadline=None)
@given(value=_JSON, cut=st.integers(0, 60), extra=st.sampled_from(["", " ", "x", "}", "\n", "\ufeff", "{", "NaN", ",1"]), front=st.booleans())
def test_a_request_line_reads_as_json_loads_reads_it(value: Any, cut: int, extra: str, front: bool) -> None:
    text = json.dumps(value, ensure_ascii=cut % 2 == 0)
    for candidate in (text, text + extra, text[:cut], (extra + text) if front else text[cut:], "{" + text[1:]):
        assert _outcome(answers.loads, candidate) == _outcome(json.loads, candidate), candidate


def test_request_lines_of_every_kind_read_as_json_loads_reads_them() -> None:
    lines = [json.dumps(request) for request in random_requests(20261203, 200)]
    lines += ["{}", "{ }", '{"a": NaN}', '{"a": 1}  ', "{" * 5000 + "}" * 5000, '{"a": "\\ud800"}', "[1]", "", "{"]
    for line in lines:
        assert _outcome(answers.loads, line) == _outcome(json.loads, line), line[:80]


def _shared_and_public(count: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    pairs = []
    for name in ("house", "mleague", "tenhou_sanma"):
        chosen = scorer(name)
        for request in random_requests(20261203, count):
            request = {**request, "rulebook": name}
            try:
                shared: dict[str, Any] = chosen.score_shared(request, chosen=True)
            except Exception as exc:  # noqa: BLE001 - the public entry must raise the same
                assert isinstance(exc, EngineError), exc  # bad input or no win, never a bug raised alike by both
                with pytest.raises(type(exc)):
                    chosen.score(request, chosen=True)
                continue
            pairs.append((shared, chosen.score(request, chosen=True)))
    return pairs


def test_shared_answers_encode_as_whole() -> None:
    """``Scorer.score_shared`` answers what ``score`` answers, and ``encode_shared`` finds each line's text by the
    line itself: the same bytes as the whole encoding, the first time, again, and after every cache was emptied
    (the rulebook's kept lines then made anew)."""
    pairs = _shared_and_public(300)
    assert len(pairs) > 450  # the others are no win, raised alike
    for shared, public in pairs:
        assert shared == public
        assert answers.encode_shared(shared) == _whole(shared) == answers.encode(public)
    for shared, _public in pairs:
        assert answers.encode_shared(shared) == _whole(shared)
    memo.clear_all()
    for shared, public in _shared_and_public(40):
        assert answers.encode_shared(shared) == _whole(public)


def test_public_answers_own_their_lines() -> None:
    """A caller may change the lines ``score`` gives it: the next answer is not changed with them."""
    house = scorer("house")
    request = {"hand": "234m456p678s22z555z", "win": "2m", "tsumo": True}
    first = house.score(request)
    assert first["yaku"] and first["fu_items"]
    expected = house.score(request)
    for line in (*first["yaku"], *first["fu_items"]):
        line["clause"] = "changed by the caller"
    assert house.score(request) == expected
    shared = house.score_shared(dict(request, rulebook="house"), chosen=True)
    assert shared == expected
