"""A reading's sequence starts and triplet kinds (``facts._set_kinds``, one loop over the sets' interned tables) are
the kinds its sets' own fields give, for the groups the engine builds and for groups it did not (the fallback); the
``peikou`` it writes for a closed hand is ``_peikou``'s."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scoring import facts as F
from ruledsl.values import KAN, SEQUENCE, TRIPLET, Group
from ruledsl.vocabulary import SEQUENCE_STARTS, TRIPLET_KINDS
from tests.engine.test_fu_sums import _GROUPS

_FOREIGN = [Group(SEQUENCE, 3, (3, 4, 5), False, True), Group(TRIPLET, 30, (30, 30, 30), True, False), Group(KAN, 8, (8,) * 4, False, True)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_GROUPS), max_size=5), st.lists(st.sampled_from(_FOREIGN), max_size=2), st.booleans())
def test_set_kinds_are_the_sets_own(built: list[Group], foreign: list[Group], closed: bool) -> None:
    if closed:  # a closed hand calls no sequence
        built = [g for g in built if not (g.shape == SEQUENCE and g.called)]
    for sets in (tuple(built), tuple(built + foreign)):
        env: dict = {"sets": sets, "closed": closed}
        F._set_kinds(env)  # type: ignore[arg-type]
        if "peikou" in env:
            assert closed and env["peikou"] == F._peikou({"sets": sets}), sets  # type: ignore[arg-type]
        assert env[SEQUENCE_STARTS] == frozenset(g.kind for g in sets if g.shape == SEQUENCE)
        assert env[TRIPLET_KINDS] == frozenset(g.kind for g in sets if g.shape in (TRIPLET, KAN))
        assert type(env[SEQUENCE_STARTS]) is frozenset and type(env[TRIPLET_KINDS]) is frozenset
