"""The reading facts of a hand whose suits each split one way come from per-suit parts; they must be the facts the
general path reads off the whole hand (sets compared as collections: no rule reads their order)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import facts as F
from engine.decompose import read_counts
from tests.strategies import complete_hands, group_kinds


def _general(counts, win, ron):
    entries = []
    for shape, groups in read_counts(counts):
        if shape == F.STANDARD:
            numbers = tuple(map(F._PLAIN_NUMBER.__getitem__, groups))
            entries += F._placed(groups, numbers, numbers[:-1], (), numbers[-1], win, ron)
        else:
            entries.append(("other", shape))
    return [e for e in entries if e[0] == F.STANDARD]


def _as_collections(entries):
    return sorted((tuple(sorted(sets)), pair, pairs, wait, win) for _shape, sets, pair, pairs, wait, win in entries)


@settings(max_examples=300)
@given(complete_hands(), st.booleans(), st.data())
def test_one_way_readings_are_the_general_readings(complete, ron, data):
    win = data.draw(st.sampled_from(sorted({k for g in complete.groups for k in group_kinds(g)})))
    fast = F._one_way(complete.counts, win, ron)
    if fast is not None:
        assert _as_collections(fast) == _as_collections(_general(complete.counts, win, ron))


@settings(max_examples=200)
@given(complete_hands(n_sets=4), st.booleans(), st.booleans(), st.data())
def test_any_fourteen_kinds_read_the_same_either_way(complete, ron, moved, data):
    """Complete hands, and the same hands with one tile moved to another kind (mostly incomplete then), with the
    winning kind any kind held: a uniformly random 14 tiles is never complete, which made this compare [] to []."""
    counts = list(complete.counts)
    if moved:
        source = data.draw(st.sampled_from([k for k in range(34) if counts[k]]))
        target = data.draw(st.sampled_from([k for k in range(34) if k != source and counts[k] < 4]))
        counts[source] -= 1
        counts[target] += 1
    win = data.draw(st.sampled_from([k for k in range(34) if counts[k]]))
    general = _general(tuple(counts), win, ron)
    if not moved:  # four sets and a pair holding the winning kind: some standard reading places it
        assert general
    fast = F._one_way(tuple(counts), win, ron)
    if fast is not None:
        assert _as_collections(fast) == _as_collections(general)
