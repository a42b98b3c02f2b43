"""build_hand: the one door from notation to a Hand, and every mistake it refuses, by code and message."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from engine.core.errors import InvalidHand
from engine.core.hand import Hand, Meld, build_hand
from engine.core.tiles import NotationError, format_tiles, parse_tiles
from tests.strategies import counts_of, hands_with_melds

SANMA_KINDS = frozenset(k for k in range(34) if not 1 <= k <= 7)


def _refused(message: str, *args, **kwargs) -> None:
    with pytest.raises(InvalidHand) as info:
        build_hand(*args, **kwargs)
    assert info.value.code == "invalid_hand"
    assert info.value.message == message


# --- good hands ---------------------------------------------------------------------------------------------------


def test_closed_hand():
    hand = build_hand("789m123456p11z234s", [], "4s")
    assert isinstance(hand, Hand)
    assert format_tiles(hand.concealed) == "789m123456p234s11z"
    assert hand.melds == ()
    assert hand.win == parse_tiles("4s")[0]
    assert hand.win_kind == 21
    assert hand.is_closed
    assert sum(hand.counts) == 14 and len(hand.counts) == 34
    assert hand.counts[27] == 2


def test_melds_as_pairs_or_objects():
    as_pairs = build_hand("123m55p", [("pon", "777z"), ("chi", "435s"), ("ankan", "9999p")], "5p")
    as_objects = build_hand(
        "123m55p",
        [
            {"type": "pon", "tiles": "777z"},
            {"type": "chi", "tiles": "345s"},
            {"type": "ankan", "tiles": "9999p"},
        ],
        "5p",
    )
    assert as_pairs == as_objects
    assert as_pairs.melds[1] == Meld("chi", (20, 21, 22))
    assert [m.is_open for m in as_pairs.melds] == [True, True, False]
    assert [m.is_kan for m in as_pairs.melds] == [False, False, True]
    assert not as_pairs.is_closed


def test_only_concealed_kans_keep_the_hand_closed():
    hand = build_hand("123m456p789s11z", [("ankan", "5555m")], "1z")
    assert hand.is_closed


def test_red_fives_are_kept_and_a_plain_five_names_the_red_one_held():
    hand = build_hand("123406m456p789s11z", [], "5m")
    assert hand.win == 34  # the only five of man held is the red one
    assert 34 in hand.concealed
    assert hand.counts[4] == 1
    assert build_hand("123455m456p789s11z", [], "5m").win == 4


def test_counts_ignore_melds_and_fold_red_fives():
    hand = build_hand("067m11z", [("pon", "222p"), ("chi", "0p46p"), ("daiminkan", "3333s")], "6m")
    assert hand.counts[4] == 1 and hand.counts[13] == 0
    assert len(hand.all_tiles()) == 5 + 3 + 3 + 4


def test_tile_set_and_red_fives_may_be_limited():
    hand = build_hand("19m0p55p789p111s123z", [], "1z", allowed_kinds=SANMA_KINDS, red_fives=frozenset({35}))
    assert 35 in hand.concealed
    # red fives may be named by their kinds as well
    build_hand("19m0p55p789p111s123z", [], "1z", red_fives=frozenset({13}))


@settings(max_examples=150)
@given(hands_with_melds())
def test_every_generated_hand_is_accepted(hand):
    built = build_hand(hand.concealed, list(hand.melds), hand.win)
    assert len(built.melds) == len(hand.melds)
    assert sum(built.counts) == 14 - 3 * len(hand.melds)
    assert built.win_kind in {k for k, c in enumerate(built.counts) if c}
    assert counts_of(list(built.concealed)) == built.counts


# --- bad hands ----------------------------------------------------------------------------------------------------


def test_five_copies_across_hand_and_melds():
    _refused(
        "`1m` appears 5 times across hand and melds; there are only 4 copies",
        "11m234567p789s",
        [("pon", "111m")],
        "1m",
    )


def test_fewer_copies_when_a_rulebook_says_so():
    _refused(
        "`2z` appears 4 times across hand and melds; there are only 3 copies",
        "123m456p789s2222z",
        [],
        "2z",
        copies=3,
    )


def test_a_red_five_twice():
    _refused(
        "red five `0m` appears 2 times; there is only one red five of each suit",
        "00m123p456p789s11z",
        [],
        "1z",
    )
    _refused(
        "red five `0p` appears 2 times; there is only one red five of each suit",
        "123m0p11z",
        [("chi", "406p"), ("pon", "777s")],
        "1z",
    )


def test_red_fives_not_in_play():
    _refused(
        "red five `0s` is not part of this rulebook's tile set",
        "123m456p0s67s789s11z",
        [],
        "1z",
        red_fives=frozenset({34, 35}),
    )
    _refused(
        "red five `0m` is not part of this rulebook's tile set",
        "123m456p567s789s11z",
        [("chi", "406m")],
        "1z",
        red_fives=frozenset(),
    )


def test_kinds_outside_the_tile_set():
    _refused(
        "`2m` is not part of this rulebook's tile set",
        "123m456p789s11122z",
        [],
        "1z",
        allowed_kinds=SANMA_KINDS,
    )
    _refused(
        "`5m` is not part of this rulebook's tile set",
        "19m456p789s11122z",
        [],
        "5m",
        allowed_kinds=SANMA_KINDS,
    )


def test_unknown_meld_type():
    _refused(
        "unknown meld type `kan`; expected one of chi, pon, daiminkan, kakan, ankan",
        "123m456p11z",
        [("kan", "7777s")],
        "1z",
    )


def test_meld_needs_type_and_tiles():
    _refused("meld 1 needs both `type` and `tiles`", "123m456p11z", [{"type": "pon"}], "1z")
    _refused("meld 2 must be a (type, tiles) pair", "123m11z", [("pon", "111p"), ("pon",)], "1z")


@pytest.mark.parametrize(
    ("meld", "message"),
    [
        (("chi", "124m"), "chi `124m` must be three consecutive number tiles of one suit"),
        (("chi", "123z"), "chi `123z` must be three consecutive number tiles of one suit"),
        (("chi", "89m1p"), "chi `89m1p` must be three consecutive number tiles of one suit"),
        (("chi", "555m"), "chi `555m` must be three consecutive number tiles of one suit"),
        (("pon", "123m"), "pon `123m` must be 3 identical tiles"),
        (("pon", "11m"), "pon `11m` has 2 tiles; a pon has 3"),
        (("chi", "1234m"), "chi `1234m` has 4 tiles; a chi has 3"),
        (("ankan", "111m"), "ankan `111m` has 3 tiles; a ankan has 4"),
        (("daiminkan", "1112m"), "daiminkan `1112m` must be 4 identical tiles"),
        (("kakan", "0555s"), None),
    ],
)
def test_meld_shapes(meld, message):
    if message is None:
        build_hand("123m456p789s11z", [meld], "1z")
        return
    _refused(message, "123m456p789s11z", [meld], "1z")


def test_at_most_four_melds():
    _refused(
        "5 melds given; a hand has at most 4",
        "1z",
        [("pon", "111m"), ("pon", "222m"), ("pon", "333m"), ("pon", "444m"), ("pon", "555m")],
        "1z",
    )


@pytest.mark.parametrize(
    ("concealed", "melds", "message"),
    [
        (
            "123m456p789s111222z",
            [],
            "14 tiles expected with no melds (each kan counted as three): 14 concealed tiles expected, found 15",
        ),
        (
            "123m456p789s1122z",
            [],
            "14 tiles expected with no melds (each kan counted as three): 14 concealed tiles expected, found 13",
        ),
        (
            "123m456p789s1122z",
            [("pon", "777z")],
            "14 tiles expected with 1 meld (each kan counted as three): 11 concealed tiles expected, found 13",
        ),
        (
            "123m456p1z",
            [("ankan", "7777z"), ("chi", "789s")],
            "14 tiles expected with 2 melds (each kan counted as three): 8 concealed tiles expected, found 7",
        ),
        ("123m456p11z", [("ankan", "7777z"), ("chi", "789s")], None),
    ],
)
def test_hand_size(concealed, melds, message):
    if message is None:
        assert len(build_hand(concealed, melds, "1z").concealed) == len(parse_tiles(concealed))
        return
    _refused(message, concealed, melds, "1z")


def test_winning_tile_among_the_concealed_tiles():
    _refused(
        "the winning tile `5s` is not among the concealed tiles", "123m456p789s11z", [("pon", "555s")], "5s"
    )
    _refused(
        "the winning tile `0m` is not among the concealed tiles", "555m456p789s11z", [("pon", "222s")], "0m"
    )


@pytest.mark.parametrize(
    ("concealed", "win", "position"),
    [("123m456p789s11x", "1z", 14), ("123m456p789s11z", "1", 0), ("123m456p789s11z", "12z", 0)],
)
def test_bad_notation_is_a_notation_error(concealed, win, position):
    with pytest.raises(NotationError) as info:
        build_hand(concealed, [("pon", "777z")], win)
    assert info.value.code == "invalid_notation"
    assert info.value.position == position


def test_bad_meld_notation_is_a_notation_error():
    with pytest.raises(NotationError) as info:
        build_hand("123m456p789s11z", [("pon", "77")], "1z")
    assert info.value.position == 0


@pytest.mark.parametrize(
    "hand, melds",
    [
        ("234m567m789p46s88p5s", []),
        ("234m567m789p88p", [("ankan", "1111z")]),
        ("234m567m88p", [("ankan", "1111z"), ("pon", "222z")]),
        ("234m567m789p88p", [("daiminkan", "5555s")]),
        ("234m567m789p88p", [("chi", "345s")]),
    ],
)
def test_what_build_hand_knows_ahead_is_what_the_properties_compute(hand, melds):
    built = build_hand(hand, melds, "8p")
    fresh = Hand(built.concealed, built.melds, built.win)
    assert (built.counts, built.is_closed, built.call_shape) == (fresh.counts, fresh.is_closed, fresh.call_shape)


@pytest.mark.parametrize("hand, melds", [("", []), ("", [("pon", "111z")] * 4)])
def test_a_hand_with_no_concealed_tiles_is_an_invalid_hand(hand, melds):
    with pytest.raises(InvalidHand):
        build_hand(hand, melds, "1z")


def _near(rng: random.Random, request: dict) -> list[tuple[str, str, list[dict[str, str]]]]:
    """A request's hand and, beside it, hands a tile off: a tile added, dropped or swapped (a fifth copy, a second
    red five, a tile outside a sanma set), the winning tile changed (a plain five for a red one held), a meld more,
    notation broken."""
    hand, win, melds = request["hand"], request["win"], request["melds"]
    out = [(hand, win, melds)]
    tiles = parse_tiles(hand)
    for _ in range(6):
        changed = list(tiles)
        what = rng.randrange(3)
        if what == 0:
            changed.append(rng.randrange(37))
        elif what == 1 and changed:
            changed.pop(rng.randrange(len(changed)))
        elif changed:
            changed[rng.randrange(len(changed))] = rng.randrange(37)
        out.append((format_tiles(changed, sort=rng.random() < 0.5), win, melds))
    out.append((hand, format_tiles([rng.randrange(37)]), melds))
    out.append((hand, win + win, melds))
    out.append((hand + "x", win, melds))
    # spellings the quick reader leaves to ``build_hand``: separators, a tile no suit has, a winning tile padded
    out.append((" ".join(hand.split("m")), win, melds))
    out.append((hand.replace("z", "z "), win, melds))
    out.append((hand[:-1] + "8z" if hand.endswith("z") else hand + "8z", win, melds))
    out.append((hand, win + " ", melds))
    out.append((hand, win + ",", melds))
    out.append((hand, win, [*melds, {"type": "pon", "tiles": "777z"}]))
    out.append((hand, win, [{"type": "chi", "tiles": "135m"}, *melds]))
    return out


@pytest.mark.parametrize("kinds", [None, SANMA_KINDS])
def test_a_request_hand_read_directly_is_the_hand_build_hand_makes(kinds):
    """``hand_from_notation`` (the scorer's reading of a plain request's hand) gives build_hand's very hand, with
    the same properties known ahead, or None, and then build_hand refuses or reads what it could not."""
    from engine.core.errors import EngineError
    from engine.core.hand import allowed_codes, hand_from_notation
    from tests.peer_oracle import random_requests

    rng = random.Random(11)
    tile_set = allowed_codes(kinds, None)
    direct = 0
    for request in random_requests(20260303, 400):
        for concealed, win, melds in _near(rng, request):
            try:
                built = build_hand(concealed, melds, win, allowed_kinds=kinds)
            except EngineError:
                built = None
            quick = hand_from_notation(concealed, win, melds, tile_set, 4)
            if quick is not None:
                direct += 1
                assert built is not None and quick == built
                assert quick.__dict__ == built.__dict__  # counts, is_closed, call_shape known alike
    assert direct > 300


def test_concealed_tiles_sort_by_kind_with_a_red_five_before_its_plain_fives():
    """A hand's concealed tiles are sorted by kind, a red five before the plain fives of its kind, whether or not the
    hand holds a red five (without one, the codes are sorted as they are)."""
    from engine.core.hand import _assembled
    from engine.core.tiles import is_red, kind_of

    rng = random.Random(5)
    for _ in range(2000):
        codes = [rng.randrange(37) for _ in range(rng.randrange(15))]
        hand = _assembled(codes, [], 0, ())
        assert list(hand.concealed) == sorted(codes, key=lambda code: (kind_of(code), 0 if is_red(code) else 1))


def test_the_quick_reader_leaves_every_impossible_hand_to_build_hand():
    """A fifth copy (concealed or with a meld), a red five twice, a tile outside the tile set, a digit no honour
    has: the one-pass reader gives None, and ``build_hand`` names the mistake."""
    from engine.core.errors import EngineError
    from engine.core.hand import allowed_codes, hand_of_parts, kept_meld

    pon = kept_meld("pon", "555m")
    red_pon = kept_meld("pon", "055m")
    cases = [
        ("11111m234p567s22z", "1m", [], None),
        ("15m123456p789s11z", "1m", [pon, pon], None),
        ("00m123456p789s11z", "1m", [red_pon], None),
        ("123m456p789s1122z", "1z", [], SANMA_KINDS),
        ("123m456p789s1188z", "1z", [], None),
    ]
    for concealed, win, melds, kinds in cases:
        assert hand_of_parts(concealed, win, melds, allowed_codes(kinds, None), 4) is None
        with pytest.raises(EngineError):
            build_hand(concealed, [(m.type, m.tiles) for m in melds], win, allowed_kinds=kinds)
    assert hand_of_parts("123m456p789s11z", "1m", [pon], allowed_codes(None, None), 4) == build_hand("123m456p789s11z", [("pon", "555m")], "1m")


def test_the_tables_of_the_quick_reader_mark_what_they_say():
    """The copies table marks exactly the counts past the copies, whatever number a rulebook gives (a count is a
    byte); the tile set's table marks its red fives and everything outside it."""
    from engine.core.hand import (
        _OUTSIDE,
        _PAST_COPIES,
        _RED,
        _TILE_FLAGS,
        allowed_codes,
        past_copies,
        tile_flags,
    )

    for copies in (-3, -1, 0, 1, 3, 4, 8, 254, 255, 256, 1000):
        assert past_copies(copies) == _PAST_COPIES[copies] == bytes(int(count > copies) for count in range(256))
    for kinds, reds in ((None, None), (SANMA_KINDS, frozenset({35})), (SANMA_KINDS, frozenset())):
        tile_set = allowed_codes(kinds, reds)
        flags = tile_flags(tile_set)
        assert _TILE_FLAGS[tile_set] is flags
        assert flags == bytes((_RED if byte >= 34 else 0) if byte in tile_set else _OUTSIDE for byte in range(256))


def test_the_quick_reader_makes_its_tables_on_first_need():
    """With its tables emptied (a new process, or ``clear_all``), the quick reader makes them on the first hand and
    reads it, and the next, as the builder does."""
    from engine.core.hand import _PAST_COPIES, _TILE_FLAGS, allowed_codes, hand_of_parts

    for _ in range(2):
        _TILE_FLAGS.clear()
        _PAST_COPIES.clear()
        for _ in range(2):
            read = hand_of_parts("123m456p789s11s555z", "1s", [], allowed_codes(None, None), 4, b"\x05")
            assert read is not None and read == build_hand("123m456p789s11s555z", [], "1s")
        assert hand_of_parts("111m456p789s11s555z", "1s", [], allowed_codes(None, None), 2) is None  # past 2 copies
