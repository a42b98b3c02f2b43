"""A reading's table gets its ``groups`` when its entry is put (``put_reading``): its sets then its pairs (none for the
thirteen orphans), for every reading of complete hands (seven pairs and the thirteen orphans included), with and
without called melds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.scoring import facts as F
from tests.strategies import complete_hands, group_kinds


def _groups_provided(env: dict) -> tuple:
    asked = {key: value for key, value in env.items() if key != "groups"}
    if env["shape"] == F.THIRTEEN_ORPHANS:
        return ()  # the thirteen orphans have no groups
    return asked["sets"] + asked["pairs"]


def _check(counts: tuple[int, ...], win: int, ron: bool, melds: tuple) -> int:
    entries = F.READING_FACTS[F.reading_key(counts, win, ron)]
    for entry in entries:
        env: dict = {}
        F.put_reading(env, entry, melds)
        assert env["groups"] == _groups_provided(env)
        assert env["groups"] == (() if entry[0] == F.THIRTEEN_ORPHANS else env["sets"] + env["pairs"])
    return len(entries)


@settings(max_examples=150)
@given(complete_hands(), st.booleans(), st.booleans(), st.data())
def test_put_groups_are_the_provided_groups(complete, ron, with_meld, data):
    win = data.draw(st.sampled_from(sorted({k for g in complete.groups for k in group_kinds(g)})))
    melds = (F.meld_group("pon", (T.kind_of(0),) * 3),) if with_meld else ()
    assert _check(tuple(complete.counts), win, ron, melds) > 0


def test_seven_pairs_and_thirteen_orphans():
    pairs = [0] * 34
    for kind in (0, 2, 4, 9, 11, 13, 27):
        pairs[kind] = 2
    assert _check(tuple(pairs), 0, True, ()) >= 1
    orphans = [1 if kind in T.YAOCHUU_KINDS else 0 for kind in range(34)]
    orphans[0] = 2
    assert _check(tuple(orphans), 0, False, ()) >= 1
