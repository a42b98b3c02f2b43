"""The shipped exact tables of the suits the quick shanten count gets wrong (``engine.core.analysis_tables``): current,
exact, and the quick count right on every suit they do not list, so that the shortcut gives the exact answer."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from engine.core import analysis, analysis_tables
from engine.core.analysis import _exact_suit_table, _four_copies_table, _runs_table, shanten
from engine.core.analysis_tables import SUIT_LIMIT, exceptions, index_of
from tests.shipped_file import ship


def test_the_shipped_file_is_current() -> None:
    """Its fingerprint is the hash of today's code of both counts (what ``regenerate --check`` compares)."""
    shipped = json.loads(analysis_tables.PATH.read_text(encoding="utf-8"))
    assert shipped["fingerprint"] == analysis_tables.fingerprint(), "regenerate it with `python -m ruledsl.regenerate`"
    assert analysis_tables.render() == analysis_tables.PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def suits() -> list[tuple[int, ...]]:
    return analysis_tables.suits_with_four()


def test_every_listed_table_is_the_exact_one_and_differs_from_the_quick_one(suits: list[tuple[int, ...]]) -> None:
    listed = exceptions()
    assert listed is not None and len(listed) > 3000
    by_index = {index_of(vec): vec for vec in suits}
    for index, table in sorted(listed.items())[::7]:  # one in seven (the slow test checks every suit)
        vec = by_index[index]
        assert table == _exact_suit_table(vec) != _runs_table(vec), vec


def _suits_to_check(rng: random.Random) -> list[tuple[int, ...]]:
    """Every suit of at most 6 tiles holding four copies, and 1,500 random ones of 7 to 14 tiles."""
    small = [vec for vec in itertools.product(range(5), repeat=9) if 4 in vec and sum(vec) <= 6]
    large: list[tuple[int, ...]] = []
    while len(large) < 1500:
        vec = tuple(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(9))
        if 4 in vec and 7 <= sum(vec) <= SUIT_LIMIT:
            large.append(vec)
    return small + large


@pytest.mark.no_cover  # an equivalence check over many cases: run outside the coverage tracer (.ci/run)
def test_the_shortcut_equals_the_exact_count() -> None:
    for vec in _suits_to_check(random.Random(20261202)):
        assert _four_copies_table(vec) == _exact_suit_table(vec), vec


@pytest.mark.slow
def test_the_shortcut_equals_the_exact_count_on_every_suit() -> None:
    for vec in analysis_tables.suits_with_four():
        assert _four_copies_table(vec) == _exact_suit_table(vec), vec


def test_without_the_file_every_four_copy_suit_is_counted_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis_tables, "exceptions", lambda: None)
    vec = (1, 1, 0, 4, 1, 0, 0, 0, 4)  # one the quick count gets wrong
    assert _runs_table(vec) != _exact_suit_table(vec)
    assert _four_copies_table(vec) == _exact_suit_table(vec)


def test_a_suit_past_the_limit_is_counted_exactly() -> None:
    vec = (4, 4, 4, 3, 0, 0, 0, 0, 0)  # 15 tiles: no hand holds it, yet shanten of such counts must not guess
    assert sum(vec) > SUIT_LIMIT
    assert _four_copies_table(vec) == _exact_suit_table(vec)


def test_encoding_round_trips() -> None:
    listed = {0: (0,) * 10, index_of((4,) * 9): tuple(range(10)), 12345: (14, 0, 1, 2, 3, 4, 5, 6, 7, 8)}
    assert analysis_tables.decode(analysis_tables.encode(listed)) == listed
    with pytest.raises(ValueError):
        analysis_tables.encode({1: (16,) * 10})


def test_index_is_base_five_lowest_kind_first(suits: list[tuple[int, ...]]) -> None:
    assert index_of((1, 0, 0, 0, 0, 0, 0, 0, 0)) == 1
    assert index_of((0, 1, 0, 0, 0, 0, 0, 0, 0)) == 5
    assert index_of((4,) * 9) == 5**9 - 1
    assert len({index_of(vec) for vec in suits}) == len(suits) == 244_002


def test_shanten_of_hands_with_four_copies_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole hands full of quads: the same shanten and waits with the shipped tables as with every suit holding
    four copies counted exactly."""
    rng = random.Random(5)
    hands = []
    for _ in range(400):
        kinds = rng.sample(range(27), 5)
        wall = [kind for kind in kinds for _ in range(4)] + [27, 27, 28]
        held = [0] * 34
        for kind in rng.sample(wall, 13):
            held[kind] += 1
        hands.append(tuple(held))
    analysis.clear_caches()
    quick = [(shanten(held), analysis.waits(held)) for held in hands]
    monkeypatch.setattr(analysis_tables, "exceptions", lambda: None)
    analysis.clear_caches()
    try:
        assert [(shanten(held), analysis.waits(held)) for held in hands] == quick
    finally:
        analysis.clear_caches()


def _merge_reference(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The merge written out as nested loops: every split of s sets and p pairs between the two tables."""
    merged = []
    for s in range(5):
        for p in range(2):
            merged.append(max(a[2 * s1 + p1] + b[2 * (s - s1) + p - p1] for s1 in range(s + 1) for p1 in range(p + 1)))
    return tuple(merged)


def test_merge_equals_the_nested_loops() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        a = tuple(rng.randint(0, 14) for _ in range(10))
        b = tuple(rng.randint(0, 14) for _ in range(10))
        assert analysis._merge.__wrapped__(a, b) == _merge_reference(a, b)


@pytest.mark.parametrize(
    "text",
    [
        None,
        "{not json",
        "[1, 2]",
        '"text"',
        "{}",
        json.dumps({"format": -1, "suit_limit": SUIT_LIMIT}),
        json.dumps({"format": 1, "suit_limit": SUIT_LIMIT + 1}),
    ],
    ids=["missing", "not-json", "a-list", "a-string", "empty", "other-format", "other-limit"],
)
def test_an_unusable_file_is_no_table(monkeypatch: pytest.MonkeyPatch, text: str | None) -> None:
    """A file that cannot be read, is not a JSON object, or was written for another layout or suit limit gives no
    table, so every four-copy suit is counted exactly (never read wrong), and never an error."""
    ship(monkeypatch, analysis_tables.FILE_NAME, text)
    exceptions.cache_clear()
    try:
        assert exceptions() is None
    finally:
        exceptions.cache_clear()


def test_a_stale_fingerprint_computes_the_tables_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the committed file's fingerprint out of date, ``render`` computes the tables from the counts (here
    over a few suits, the whole run being the slow test's) and writes them with the new fingerprint."""
    few = [vec for vec in analysis_tables.suits_with_four() if sum(vec) <= 6][:400]
    monkeypatch.setattr(analysis_tables, "suits_with_four", lambda: few)
    monkeypatch.setattr(analysis_tables, "fingerprint", lambda: "stale-test")
    data = json.loads(analysis_tables.render())
    assert data["fingerprint"] == "stale-test"
    listed = analysis_tables.decode("".join(data["exceptions"]))
    for vec in few:
        exact = _exact_suit_table(vec)
        assert (listed.get(index_of(vec)) == exact) if _runs_table(vec) != exact else index_of(vec) not in listed


def test_the_suit_tables_file_in_its_place_is_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suit tables' file, given this file's format, has the same suit limit but no exact tables: no table, not
    a KeyError."""
    from importlib import resources

    from engine.core import suit_tables

    data = json.loads(resources.files("engine.core").joinpath(suit_tables.FILE_NAME).read_text(encoding="utf-8"))
    data["format"] = analysis_tables._FORMAT
    text = json.dumps(data)
    ship(monkeypatch, analysis_tables.FILE_NAME, text)
    exceptions.cache_clear()
    try:
        assert exceptions() is None
    finally:
        monkeypatch.undo()
        exceptions.cache_clear()
