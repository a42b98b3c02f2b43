"""The reading facts of a hand whose suits each split one way come from per-suit parts; they must be the facts the
general path reads off the whole hand (sets compared as collections: no rule reads their order)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.core.decompose import PAIR as D_PAIR
from engine.core.decompose import TRIP, read_counts
from engine.scoring import facts as F
from ruledsl.values import SEQUENCE, Group
from tests.engine.placements_reference import placements_of
from tests.strategies import complete_hands, group_kinds


def _placed_reference(groups, numbers, sets, pair, win, ron):
    """The standard entries of one reading, its groups compared as (shape, kind) pairs where the winning kind can
    sit (``placements_of``): what ``F._placed`` finds by group numbers."""
    entries = []
    for index, wait in placements_of(groups, win):
        group = groups[index]
        if ron and group[0] == TRIP:  # a triplet completed by ron is not concealed
            number = F._RON_NUMBER[group]
            these = sets[:index] + (number,) + sets[index + 1 :]
        else:
            number = numbers[index]
            these = sets
        entries.append((F.STANDARD, these, pair, None, wait, number))
    return entries


def _general(counts, win, ron):
    entries = []
    for shape, groups in read_counts(counts):
        if shape == F.STANDARD:
            numbers = tuple(map(F._PLAIN_NUMBER.__getitem__, groups))
            entries += _placed_reference(groups, numbers, numbers[:-1], numbers[-1], win, ron)
        else:
            entries.append(("other", shape))
    return [e for e in entries if e[0] == F.STANDARD]


def _as_collections(entries):
    return sorted((tuple(sorted(sets)), pair, pairs, wait, win) for _shape, sets, pair, pairs, wait, win in entries)


@settings(max_examples=100)
@given(complete_hands(), st.booleans(), st.data())
def test_one_way_readings_are_the_general_readings(complete, ron, data):
    win = data.draw(st.sampled_from(sorted({k for g in complete.groups for k in group_kinds(g)})))
    fast = F._one_way(complete.counts, win, ron)
    if fast is not None:
        assert _as_collections(fast) == _as_collections(_general(complete.counts, win, ron))


@settings(max_examples=80)
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


@settings(max_examples=80)
@given(complete_hands(), st.booleans(), st.data())
def test_the_scorers_bytes_key_reads_what_tuples_read(complete, ron, data):
    """The scorer keys ``READING_FACTS`` by 36 bytes (``reading_key``: counts, winning kind, ron) and its parts by
    byte slices: the same entries as the counts read as tuples, and the standard ones those of the general path."""
    win = data.draw(st.sampled_from(sorted({k for g in complete.groups for k in group_kinds(g)})))
    counts = tuple(complete.counts)
    key = F.reading_key(counts, win, ron)
    assert (list(key[:34]), key[34], key[35]) == (list(counts), win, int(ron))
    assert F._one_way(key[:34], win, ron) == F._one_way(counts, win, ron)
    entries = F._reading_facts(key)
    assert F.READING_FACTS[key] == entries
    assert _as_collections([e for e in entries if e[0] == F.STANDARD]) == _as_collections(_general(counts, win, ron))


def _any_counts():
    """Kind counts of 2..14 tiles drawn from a few kinds (so that some are complete) or from all of them."""
    return st.lists(st.sampled_from(range(34)), min_size=1, max_size=9, unique=True).flatmap(
        lambda kinds: st.lists(st.sampled_from(kinds), min_size=2, max_size=14)
    ).map(lambda tiles: tuple(min(tiles.count(k), 4) for k in range(34)))


@settings(max_examples=150)
@given(st.one_of(_any_counts(), complete_hands().map(lambda c: tuple(c.counts))))
def test_a_completing_kind_is_one_whose_hand_has_a_reading(counts):
    """``completing_kinds`` (the waits' test, from per-part tables) answers what the readings of each candidate's
    whole hand do, for counts one tile past a hand (or not)."""
    from engine.core.decompose import readings_of

    held = [max(c - 1, 0) if k == max(range(34), key=counts.__getitem__) else c for k, c in enumerate(counts)]
    expected = [kind for kind in range(34) if bool(readings_of(tuple(c + (k == kind) for k, c in enumerate(held))))]
    assert F.completing_kinds(held, list(range(34))) == expected



@settings(max_examples=100)
@given(complete_hands(), st.data())
def test_wait_count_kept_per_held_counts_is_the_count_of_completing_kinds(complete, data):
    """``wait_count`` is looked up per held counts (``WAIT_COUNTS``): it must be how many kinds, added to the held
    tiles (at most four copies), give a hand with a reading, asked afresh and asked again."""
    from engine.core.decompose import readings_of

    counts = list(complete.counts)
    removed = data.draw(st.sampled_from([k for k in range(34) if counts[k]]))
    counts[removed] -= 1
    expected = 0
    for kind in range(34):
        if counts[kind] < 4:
            counts[kind] += 1
            expected += bool(readings_of(tuple(counts)))
            counts[kind] -= 1
    key = bytes(counts) + b"\x01"  # held without melds
    assert F._count_waits(key) == expected
    assert F.WAIT_COUNTS[key] == expected == F.WAIT_COUNTS[key]




def _held_hands():
    """Held counts a wait is asked of: a complete part less one tile, the same with one more tile moved (mostly no
    wait then), seven pairs and thirteen orphans one tile short, the thirteen-sided wait, and a kind held five
    times (which a rulebook of more copies allows)."""
    less_one = st.tuples(complete_hands(), st.data()).map(lambda cd: _less_one(*cd))
    moved = st.tuples(less_one, st.integers(0, 33), st.integers(0, 33)).map(lambda t: _moved(*t))
    seven = st.permutations(range(34)).map(lambda kinds: tuple(2 if k in kinds[:6] else 1 if k == kinds[6] else 0 for k in range(34)))
    orphans = st.permutations(sorted(T.YAOCHUU_KINDS)).map(  # a pair, a kind missing
        lambda kinds: tuple((1 + (k == kinds[0]) - (k == kinds[1])) if k in T.YAOCHUU_KINDS else 0 for k in range(34))
    )
    thirteen = st.just(tuple(1 if k in T.YAOCHUU_KINDS else 0 for k in range(34)))
    five = st.integers(0, 33).map(lambda k: tuple(5 if i == k else 3 if i == (k + 9) % 34 else 0 for i in range(34)))
    return st.one_of(less_one, moved, seven, orphans, thirteen, five)


def _less_one(complete, data):
    counts = list(complete.counts)
    counts[data.draw(st.sampled_from([k for k in range(34) if counts[k]]))] -= 1
    return tuple(counts)


def _moved(counts, source, target):
    counts = list(counts)
    if counts[source] and counts[target] < 4 and source != target:
        counts[source] -= 1
        counts[target] += 1
    return tuple(counts)


@settings(max_examples=400)
@given(_held_hands(), st.data())
def test_the_completing_kinds_are_those_whose_counts_are_complete(held, data):
    """``completing_kinds`` looks each part of the hand up once and only the candidate's part again: the kinds it
    finds are those whose whole hand has a reading (``readings_of``), in order, for any candidates (every kind, or a
    random few), and the wait count built on it is the count of completing candidates."""
    from engine.core.decompose import readings_of

    def completes(kind):
        return bool(readings_of(tuple(c + (k == kind) for k, c in enumerate(held))))

    candidates = data.draw(st.one_of(st.just(list(range(34))), st.lists(st.integers(0, 33), unique=True).map(sorted)))
    assert F.completing_kinds(list(held), candidates) == [kind for kind in candidates if completes(kind)]
    no_melds = sum(held) == 13
    reference = sum(1 for kind in F._wait_candidates(list(held), no_melds) if held[kind] < 4 and completes(kind))
    assert F._count_waits(bytes(held) + (b"\x01" if no_melds else b"\x00")) == reference


def test_the_hand_table_in_one_pass_writes_what_its_three_providers_write():
    """``HandTable`` (the tile facts, dora and ura hits of a hand together, planned per rulebook) writes the very
    facts ``_tile_facts``, ``_dora_facts`` and ``_ura_facts`` write, in the same order, under every bundled
    rulebook (their dora cycles and tile sets), with and without indicators, red fives, melds and North tiles."""
    import random

    from engine.core import tiles as T
    from engine.core.errors import EngineError
    from engine.core.situation import Situation
    from engine.scoring.library import scorer
    from engine.scoring.score import plain_request, situation_of
    from ruledsl.resolve import bundled_names
    from tests.peer_oracle import random_requests

    requests = random_requests(11, 300)
    rng = random.Random(5)
    planned = 0
    for name in bundled_names():
        s = scorer(name)
        prepared = s.prepared
        if not any(isinstance(p, F.HandTable) for p in prepared.hand_ahead):
            continue
        planned += 1
        plain = (F._tile_facts, F._dora_facts, F._ura_facts)
        for request in requests:
            q = plain_request(request)
            try:
                hand = s.build_hand(q)
            except EngineError:
                continue
            situation = situation_of(q)
            if prepared.kita_allowed and rng.random() < 0.5:
                situation = Situation(**{**{f: getattr(situation, f) for f in situation.__slots__}, "kita": rng.randint(1, 3)})
            dora = T.tile_codes(q.dora_indicators) if q.dora_indicators else ()
            ura = T.tile_codes(q.ura_indicators) if q.ura_indicators else ()
            args = (hand, situation, dora, ura, prepared.successors, prepared.players)
            fast = F.HandFacts(*args, None, prepared.hand_ahead)
            full = F.HandFacts(*args, None, plain)
            assert list(fast.items()) == [item for item in full.items() if item[0] in fast], (name, request)
            assert set(full) - set(fast) <= {"dora_hits", "kita_dora_hits", "ura_hits", "kita_ura_hits"}
    assert planned >= 2


def _shapes_and_standard(entries):
    """The entries' reading shapes in order, the non-standard entries exactly, the standard ones as collections."""
    return (
        [e[0] for e in entries],
        [e for e in entries if e[0] != F.STANDARD],
        _as_collections([e for e in entries if e[0] == F.STANDARD]),
    )


def _seven_pairs_counts():
    return st.lists(st.sampled_from(range(34)), min_size=7, max_size=7, unique=True).map(
        lambda kinds: tuple(2 if k in kinds else 0 for k in range(34))
    )


def _all_honours_counts():
    """Fourteen tiles holding every honour kind (the thirteen orphans among them, now and then)."""
    orphans = st.just(tuple(1 if k in (0, 8, 9, 17, 18, 26) or k >= 27 else 0 for k in range(34))).flatmap(
        lambda base: st.sampled_from([k for k in range(34) if base[k]]).map(lambda k: tuple(c + (i == k) for i, c in enumerate(base)))
    )
    others = st.lists(st.sampled_from(range(34)), min_size=7, max_size=7).map(
        lambda extra: tuple(min(4, (k >= 27) + extra.count(k)) for k in range(34))
    )
    return st.one_of(orphans, others)


@settings(max_examples=150)
@given(st.one_of(_seven_pairs_counts(), _all_honours_counts(), complete_hands().map(lambda c: tuple(c.counts))), st.booleans(), st.data())
def test_a_new_hands_readings_are_the_whole_hands_readings_in_order(counts, ron, data):
    """``_reading_facts`` reads seven pairs, and fourteen tiles holding every honour, from the parts when each
    suit splits one way (seven pairs added after the standard reading, as ``read_counts`` orders them): the same
    readings in the same order as the whole hand read by the general path (``read_whole``)."""
    win = data.draw(st.sampled_from([k for k in range(34) if counts[k]]))
    key = F.reading_key(counts, win, ron)
    assert _shapes_and_standard(F._reading_facts(key)) == _shapes_and_standard(F.read_whole(counts, win, ron))


def test_seven_pairs_with_a_standard_reading_keeps_both_in_order():
    counts = tuple(2 if k in (0, 1, 2, 9, 10, 11, 20) else 0 for k in range(34))  # 112233m 112233p 33s
    entries = F._reading_facts(F.reading_key(counts, 0, True))
    assert [e[0] for e in entries] == [e[0] for e in F.read_whole(counts, 0, True)]
    assert [e[0] for e in entries][-1] == F.SEVEN_PAIRS and F.STANDARD in [e[0] for e in entries]


def _peikou_reference(sets):
    """The full computation: each start of a concealed sequence, counted, halved and summed."""
    starts = [g.kind for g in sets if g.shape == SEQUENCE and not g.called]
    return sum(starts.count(k) // 2 for k in set(starts))


def test_peikou_counts_pairs_of_concealed_sequences_as_the_full_computation_does():
    """``_peikou``'s shortcut (starts met more than once, when fewer than two) against the full count, on every
    collection of up to four sets from concealed and called sequences (one with a red five), triplets and kans;
    a group the engine did not build goes by the attribute path, and gives the same."""
    pool = [
        F.concealed_group(F.D_SEQ, 0, False),
        F.concealed_group(F.D_SEQ, 2, False),
        F._intern(SEQUENCE, 2, (2, 3, T.RED_BASE)),  # the same start, a red five among its tiles
        F.concealed_group(F.D_SEQ, 9, False),
        F.meld_group("chi", (0, 1, 2)),
        F.concealed_group(F.D_TRIP, 4, False),
        F.meld_group("ankan", (27, 27, 27, 27)),
    ]
    for size in range(5):
        for sets in itertools.combinations_with_replacement(pool, size):
            expected = _peikou_reference(sets)
            assert F._peikou({"sets": sets}) == expected, sets
            foreign = tuple(Group(g.shape, g.kind, g.tiles, g.called, g.concealed) for g in sets)  # not interned
            assert F._peikou({"sets": foreign}) == expected, sets


@settings(max_examples=150)
@given(complete_hands(), st.booleans(), st.data())
def test_placing_the_winning_kind_by_group_numbers_is_placing_it_by_groups(complete, ron, data):
    """``F._placed`` finds the groups that can hold the winning kind by their numbers: the same entries, in the
    same order, as comparing the reading's (shape, kind) groups (``placements_of``), in every standard reading."""
    win = data.draw(st.sampled_from(sorted({k for g in complete.groups for k in group_kinds(g)})))
    others = data.draw(st.sampled_from([(), (F._PLAIN_NUMBER[(TRIP, 33)],)]))
    for shape, groups in read_counts(tuple(complete.counts)):
        if shape == F.STANDARD:
            numbers = tuple(map(F._PLAIN_NUMBER.__getitem__, groups))
            fast = F._placed(numbers, numbers[:-1], others, numbers[-1], win, ron)
            expected = [(s, others + sets, *rest) for s, sets, *rest in _placed_reference(groups, numbers, numbers[:-1], numbers[-1], win, ron)]
            assert fast == expected


def test_seven_pairs_entry_is_its_pairs_by_kind_and_the_winning_pair():
    counts = tuple(2 if k in (0, 4, 13, 22, 27, 30, 33) else 0 for k in range(34))
    for win in (0, 13, 33):
        pairs = [F.concealed_group(D_PAIR, k, False) for k in range(34) if counts[k] == 2]
        expected = (F.SEVEN_PAIRS, (), -1, tuple(g.number for g in pairs), F.TANKI, next(g.number for g in pairs if g.kind == win))
        assert F._seven_pairs(bytes(counts), win) == expected == F._seven_pairs(counts, win)
