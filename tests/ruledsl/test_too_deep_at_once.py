"""A well-formed rulebook with a part nested past ``MAX_DEPTH`` is refused by the fast parser's own reading
(``fast_parser.TooDeep``), with exactly the diagnostics lark's reader gives after parsing the whole file again: the
same message, place, caret and help, whichever fields and examples are too deep, and lark's own report still
wins wherever the file holds any other mistake (a syntax error, a number too long) that the fast parser leaves to
it. Long chains of operators are what such files hold; lark takes some ten times longer to build their trees."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruledsl import fast_parser, parser
from ruledsl.diagnostics import RulebookError
from ruledsl.parser import MAX_DEPTH

FILE = "deep.rulebook"
CHAIN = "+".join(["1"] * (MAX_DEPTH + 5)) + " > 0"  # left to right: one level per operator
NOTS = "not " * (MAX_DEPTH + 5) + "riichi"
SHALLOW = "riichi and closed"
RECORD_DEEP = "{han: " + "+".join(["1"] * (MAX_DEPTH + 5)) + "}"
RECORD_SHALLOW = "{han: 1}"


def diagnostics(text: str, monkeypatch: pytest.MonkeyPatch, lark_only: bool) -> list[tuple[object, ...]]:
    with monkeypatch.context() as patch:
        if lark_only:
            patch.setenv("RIICHI_LARK_ONLY", "1")
        else:
            patch.delenv("RIICHI_LARK_ONLY", raising=False)
        try:
            parser.parse_uncached(text, FILE)
        except RulebookError as exc:
            return [(d.severity, d.message, d.span, d.help) for d in exc.diagnostics]
    return []


def item(number: int, when: str, example: str | None = None) -> str:
    lines = [f'@clause("C{number}")', f'yaku y{number} "Y{number}" {{', "  han = 1", f"  when = {when}"]
    if example is not None:
        lines.append(f'  example "123m456p789s11z222s win 1z ron" => {example}')
    return "\n".join([*lines, "}", ""])


def rulebook(items: list[str], tail: str = "") -> str:
    return 'rulebook deep "Deep" extends house\nsource "s"\n' + "".join(items) + tail


def same(text: str, monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    fast = diagnostics(text, monkeypatch, lark_only=False)
    assert fast == diagnostics(text, monkeypatch, lark_only=True), text
    return fast


CASES = {
    "one field": [item(0, SHALLOW), item(1, CHAIN), item(2, SHALLOW)],
    "several fields, the last reported": [item(0, CHAIN), item(1, SHALLOW), item(2, NOTS), item(3, SHALLOW)],
    "an example after a deep field": [item(0, CHAIN), item(1, SHALLOW, RECORD_DEEP)],
    "a field after a deep example": [item(0, SHALLOW, RECORD_DEEP), item(1, CHAIN, RECORD_SHALLOW)],
    "field and example of one item": [item(0, CHAIN, RECORD_DEEP), item(1, SHALLOW)],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_depth_error_is_lark_s(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    found = same(rulebook(CASES[name]), monkeypatch)
    assert len(found) == 1 and "levels deep" in str(found[0][1])


@pytest.mark.parametrize(
    "tail",
    [
        "yaku broken {\n  han = = 1\n}\n",  # a syntax error after the deep field: lark's report
        "yaku big {\n  han = 1234567890123456789012\n}\n",  # a number too long: lark's reader decides
    ],
)
def test_other_mistakes_stay_lark_s_to_report(tail: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = rulebook([item(0, CHAIN), item(1, SHALLOW)], tail)
    with monkeypatch.context() as patch:
        patch.delenv("RIICHI_LARK_ONLY", raising=False)
        with pytest.raises(fast_parser.TooDeep):
            fast_parser.parse(text.replace(tail, ""), FILE)
        assert fast_parser.parse(text, FILE) is None  # the fast parser gives the text to lark
    same(text, monkeypatch)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([SHALLOW, CHAIN, NOTS]), st.sampled_from([None, RECORD_SHALLOW, RECORD_DEEP])), min_size=1, max_size=6))
def test_any_mix_of_deep_and_shallow_parts(parts: list[tuple[str, str | None]]) -> None:
    text = rulebook([item(i, when, example) for i, (when, example) in enumerate(parts)])
    with pytest.MonkeyPatch.context() as patch:
        same(text, patch)


def test_a_file_of_long_chains_is_refused_without_lark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Near the size bound, a file of long operator chains is refused by the fast parser's reading alone: lark,
    which takes seconds to build the same trees, is never asked."""
    from ruledsl import lark_parser

    def no_lark(*args: object) -> None:
        raise AssertionError("lark was asked")

    items: list[str] = []
    while sum(map(len, items)) < 200_000:
        items.append(item(len(items), CHAIN))
    text = rulebook(items)
    monkeypatch.delenv("RIICHI_LARK_ONLY", raising=False)
    monkeypatch.setattr(lark_parser, "parse_tree", no_lark)
    with pytest.raises(RulebookError) as raised:
        parser.parse_uncached(text, FILE)
    (found,) = raised.value.diagnostics
    assert found.message == f"the value of `when` is nested more than {MAX_DEPTH} levels deep"
    assert found.span.line == text.count("\n") - 1  # the last item's `when`
