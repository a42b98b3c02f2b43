"""Random winning hands as contract score requests, and the same hands scored by the ``mahjong`` package.

The ``mahjong`` package (2.1.0) is a test oracle and benchmark baseline only: nothing under ``engine/`` or
``ruledsl/`` imports it. This module is shared by ``tests/conformance/test_peer_crosscheck.py`` and
``benchmarks/score.py``.

``random_requests(seed, n)`` deals hands that could occur at a four-player table with red fives: four sets and
a pair (some called as chi, pon, daiminkan, kakan or declared as ankan) under themes that spread them over the
yaku, seven pairs, thirteen orphans and nine gates, plus a few (3%) with one tile swapped so that they are
usually not complete. Never more than four copies of a kind (dora and ura indicators, and the three tiles a
robbed kan shows, included) and one red five per suit. The situation is mechanically consistent with the
contract: riichi only closed, ippatsu only with riichi, haitei and rinshan only on tsumo, houtei and chankan only
on ron, rinshan only with a kan, ura indicators only with riichi, tenhou, chiihou and renhou only on an
untouched first turn.

``peer_score(request)`` converts a request into ``HandCalculator.estimate_hand_value`` arguments with the
options that match the ``house`` rulebook, and returns a ``PeerResult`` in the contract's terms.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

from engine.core.tiles import (
    KINDS,
    RED_BASE,
    RED_FIVE_KINDS,
    format_tiles,
    is_red,
    is_simple,
    is_yaochuu,
    kind_of,
    parse_tile,
    parse_tiles,
)

WINDS = "ESWN"
SEQ, TRIP, PAIR = "seq", "trip", "pair"
YAOCHUU = tuple(k for k in range(KINDS) if is_yaochuu(k))
SIMPLES = tuple(k for k in range(KINDS) if is_simple(k))
HONORS = tuple(range(27, 34))
GREEN = (19, 20, 21, 23, 25, 32)  # 2s 3s 4s 6s 8s 6z


# ---- the generator ---------------------------------------------------------------------------------------------


def _group_kinds(group: tuple[str, int]) -> list[int]:
    shape, kind = group
    if shape == SEQ:
        return [kind, kind + 1, kind + 2]
    return [kind] * (3 if shape == TRIP else 2)


def _seq_starts(kinds: tuple[int, ...] | range) -> list[int]:
    pool = set(kinds)
    return [k for k in pool if k < 27 and k % 9 <= 6 and {k, k + 1, k + 2} <= pool]


THEMES = {
    # name: (weight, chance a free set is a sequence)
    "any": (26, 0.55),
    "simples": (10, 0.7),
    "flush": (7, 0.6),
    "half_flush": (9, 0.5),
    "outside": (8, 0.5),
    "terminals": (3, 0.4),
    "winds": (4, 0.25),
    "dragons": (4, 0.4),
    "triplets": (10, 0.0),
    "kans": (4, 0.3),
    "green": (1, 0.3),
    "pinfu": (7, 1.0),
    "sanshoku": (3, 0.5),
    "ittsu": (3, 0.5),
    "doukou": (1, 0.3),
}
WIND_KINDS = tuple(range(27, 31))
DRAGON_KINDS = tuple(range(31, 34))
TERMINALS = tuple(k for k in YAOCHUU if k < 27)


def _standard_groups(rng: random.Random) -> tuple[list[tuple[str, int]], str]:
    """Four sets and a pair under a random theme (spreading hands over the yaku), never a fifth copy."""
    theme = rng.choices(list(THEMES), weights=[w for w, _ in THEMES.values()])[0]
    p_seq = THEMES[theme][1]
    suit = rng.randrange(3) * 9
    everything = tuple(range(KINDS))
    pool = {
        "simples": SIMPLES,
        "flush": tuple(range(suit, suit + 9)),
        "half_flush": tuple(range(suit, suit + 9)) + HONORS,
        "green": GREEN,
    }.get(theme, everything)
    starts = _seq_starts(pool)
    trips = list(pool)
    pairs = pool
    if theme in ("outside", "terminals"):
        starts = [k for k in starts if k % 9 in (0, 6)]
        trips = list(YAOCHUU if theme == "outside" else TERMINALS)
        pairs = YAOCHUU if theme == "outside" else TERMINALS
    elif theme == "winds":
        trips, pairs = list(WIND_KINDS), WIND_KINDS + DRAGON_KINDS
    elif theme == "dragons":
        trips, pairs = list(DRAGON_KINDS), HONORS
    while True:
        forced: list[tuple[str, int]] = []
        if theme == "sanshoku":
            n = rng.randrange(7)
            forced = [(SEQ, s * 9 + n) for s in range(3)]
        elif theme == "ittsu":
            forced = [(SEQ, suit + n) for n in (0, 3, 6)]
        elif theme == "doukou":
            n = rng.randrange(9)
            forced = [(TRIP, s * 9 + n) for s in range(3)]
        groups = list(forced)
        while len(groups) < 4:
            if starts and rng.random() < p_seq:
                groups.append((SEQ, rng.choice(starts)))
            else:
                groups.append((TRIP, rng.choice(trips)))
        groups.append((PAIR, rng.choice(pairs)))
        counts = [0] * KINDS
        for group in groups:
            for k in _group_kinds(group):
                counts[k] += 1
        if max(counts) <= 4:
            rng.shuffle(groups)
            groups.sort(key=lambda g: g[0] == PAIR)
            return groups, theme


def _request_base(rng: random.Random) -> tuple[list[int], list[tuple[str, list[int]]]]:
    """Concealed kinds and melds (type, kinds) of a random complete hand."""
    shape = rng.choices(["standard", "seven_pairs", "kokushi", "chuuren"], weights=[86, 9, 3, 2])[0]
    if shape == "seven_pairs":
        pool = rng.choice([tuple(range(KINDS)), SIMPLES, YAOCHUU, HONORS, tuple(range(9)) + HONORS])
        kinds = rng.sample(pool, 7)
        return [k for k in kinds for _ in range(2)], []
    if shape == "kokushi":
        return list(YAOCHUU) + [rng.choice(YAOCHUU)], []
    if shape == "chuuren":
        suit = rng.randrange(3) * 9
        counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        counts[rng.randrange(9)] += 1
        return [suit + n for n in range(9) for _ in range(counts[n])], []
    groups, theme = _standard_groups(rng)
    counts = [0] * KINDS
    for group in groups:
        for k in _group_kinds(group):
            counts[k] += 1
    closed = rng.random() < 0.5
    concealed: list[int] = []
    melds: list[tuple[str, list[int]]] = []
    for group in groups:
        shape, kind = group
        tiles = _group_kinds(group)
        meld_type = None
        can_kan = shape == TRIP and counts[kind] == 3
        p_kan = 0.6 if theme == "kans" else 0.12 if closed else 0.2
        if shape == TRIP and can_kan and rng.random() < p_kan:
            meld_type = "ankan" if closed else rng.choice(["daiminkan", "kakan", "ankan"])
        elif not closed and shape != PAIR and rng.random() < 0.45:
            meld_type = "chi" if shape == SEQ else "pon"
        if meld_type is None:
            concealed.extend(tiles)
        else:
            melds.append((meld_type, [kind] * 4 if meld_type.endswith("kan") else tiles))
    return concealed, melds


BROKEN_SHARE = 0.03


def _break(rng: random.Random, concealed: list[int], melds: list[tuple[str, list[int]]]) -> None:
    """Swap one concealed tile for another kind, so that most such hands are no longer complete."""
    held = [0] * KINDS
    for kind in concealed + [k for _, tiles in melds for k in tiles]:
        held[kind] += 1
    i = rng.randrange(len(concealed))
    concealed[i] = rng.choice([k for k in range(KINDS) if held[k] < 4 and k != concealed[i]])


def _redden(rng: random.Random, concealed: list[int], melds: list[tuple[str, list[int]]]) -> None:
    """Turn some fives red in place: at most one per suit, and always one when all four copies are present."""
    for suit, five in enumerate(RED_FIVE_KINDS):
        places = [(None, i) for i, k in enumerate(concealed) if k == five]
        places += [(m, i) for m, (_, tiles) in enumerate(melds) for i, k in enumerate(tiles) if k == five]
        if not places or (len(places) < 4 and rng.random() > 0.35):
            continue
        where, i = rng.choice(places)
        if where is None:
            concealed[i] = RED_BASE + suit
        else:
            melds[where][1][i] = RED_BASE + suit


def _indicators(rng: random.Random, n: int, used: list[int], red_free: list[bool]) -> list[int]:
    out = []
    for _ in range(n):
        kind = rng.choice([k for k in range(KINDS) if used[k] < 4])
        used[kind] += 1
        code = kind
        if kind in RED_FIVE_KINDS:
            suit = RED_FIVE_KINDS.index(kind)
            # the last free copy of a five is the red one when the red one is still free
            if red_free[suit] and (used[kind] == 4 or rng.random() < 0.25):
                code = RED_BASE + suit
                red_free[suit] = False
        out.append(code)
    return out


def random_request(rng: random.Random) -> dict[str, Any]:
    """One complete hand with a random, consistent situation, as a contract score request (no ``rulebook``)."""
    concealed, melds = _request_base(rng)
    if rng.random() < BROKEN_SHARE:
        _break(rng, concealed, melds)
    _redden(rng, concealed, melds)
    all_codes = concealed + [c for _, tiles in melds for c in tiles]
    used = [0] * KINDS
    for code in all_codes:
        used[kind_of(code)] += 1
    red_free = [RED_BASE + s not in all_codes for s in range(3)]
    win = rng.choice(concealed)
    kans = sum(1 for t, _ in melds if t.endswith("kan"))
    is_closed = all(t == "ankan" for t, _ in melds)

    seat = rng.choice(WINDS)
    req: dict[str, Any] = {
        "hand": format_tiles(concealed),
        "win": format_tiles([win]),
        "melds": [{"type": t, "tiles": format_tiles(tiles)} for t, tiles in melds],
        "tsumo": rng.random() < 0.5,
        "seat_wind": seat,
        "round_wind": rng.choices(WINDS, weights=[45, 45, 5, 5])[0],
    }
    tsumo = req["tsumo"]
    first_turn = not melds and rng.random() < 0.03
    if first_turn and tsumo:
        req["tenhou" if seat == "E" else "chiihou"] = True
    elif first_turn and seat != "E":
        req["renhou"] = True  # a ron before the winner's first draw; not a yaku of the house rules
    else:
        riichi = is_closed and rng.random() < 0.45
        if riichi:
            req["double_riichi" if rng.random() < 0.12 else "riichi"] = True
            req["ippatsu"] = rng.random() < 0.25
        if tsumo:
            if kans and rng.random() < 0.4:
                req["rinshan"] = True
                req["ippatsu"] = False  # the kan just declared ended the one-shot window (000 L125)
            elif rng.random() < 0.06:
                req["haitei"] = True
        else:
            win_copies = used[kind_of(win)]
            # a robbed added kan shows the other three copies of the winning tile on the table
            if win_copies == 1 and rng.random() < 0.08:
                req["chankan"] = True
                used[kind_of(win)] = 4
                if kind_of(win) in RED_FIVE_KINDS and not is_red(win):
                    red_free[RED_FIVE_KINDS.index(kind_of(win))] = False
            elif rng.random() < 0.06:
                req["houtei"] = True
    n_dora = min(5, 1 + kans) if kans else rng.randint(1, 3)
    req["dora_indicators"] = format_tiles(_indicators(rng, n_dora, used, red_free), sort=False)
    if req.get("riichi") or req.get("double_riichi"):
        req["ura_indicators"] = format_tiles(_indicators(rng, n_dora, used, red_free), sort=False)
    req["honba"] = rng.choice([0, 0, 0, 1, 2, 5])
    req["riichi_sticks"] = rng.choice([0, 0, 0, 1, 2])
    return {k: v for k, v in req.items() if v is not False}


def random_requests(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [random_request(rng) for _ in range(count)]


# ---- the peer ------------------------------------------------------------------------------------------------

HOUSE_OPTIONS = dict(
    has_open_tanyao=True,  # 000 L239: open tanyao on this site
    has_aka_dora=True,  # 000 L142: three red fives
    has_double_yakuman=True,  # 000 L89: kokushi 13-sided, suuankou tanki, junsei chuuren, daisuushii
    kazoe_limit=HandConstants.KAZOE_LIMITED,  # 000 L200: 13+ han is one (counted) yakuman
    kiriage=False,  # fu-and-payments.md §4: no kiriage in house
    fu_for_open_pinfu=True,  # 000 L152: an open hand with no fu counts 30
    fu_for_pinfu_tsumo=False,  # 000 L159: pinfu tsumo is 20 fu
    renhou_as_yakuman=False,
    limit_to_sextuple_yakuman=False,  # 000 L89: yakuman add, no cap
)
PEER_MELD = {
    "chi": (Meld.CHI, True),
    "pon": (Meld.PON, True),
    "daiminkan": (Meld.KAN, True),
    "kakan": (Meld.SHOUMINKAN, True),
    "ankan": (Meld.KAN, False),
}


class _Tiles136:
    """Hands out distinct 136-format tiles; copy 0 of each five is the red one, as in the ``mahjong`` package."""

    def __init__(self) -> None:
        self.next = [0] * KINDS

    def take(self, code: int) -> int:
        kind = kind_of(code)
        if is_red(code):
            return kind * 4
        if kind in RED_FIVE_KINDS:
            self.next[kind] = max(self.next[kind], 1)
        copy = self.next[kind]
        if copy > 3:
            raise ValueError(f"more than the available copies of kind {kind}")
        self.next[kind] += 1
        return kind * 4 + copy


@dataclass(frozen=True)
class PeerResult:
    """The peer's answer in the contract's terms; ``error`` is ``no_yaku``/``not_a_win`` or a peer error string."""

    error: str | None
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    counted: bool = False
    limit: str | None = None
    payments: dict[str, int] = field(default_factory=dict)
    total: int = 0
    yaku: tuple[str, ...] = ()


def peer_arguments(request: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``HandCalculator.estimate_hand_value`` describing ``request`` under house options."""
    pool = _Tiles136()
    concealed = [pool.take(c) for c in parse_tiles(request["hand"])]
    melds = []
    tiles = list(concealed)
    for meld in request.get("melds", []):
        meld_type, opened = PEER_MELD[meld["type"]]
        meld_tiles = [pool.take(c) for c in parse_tiles(meld["tiles"])]
        tiles.extend(meld_tiles)
        melds.append(Meld(meld_type=meld_type, tiles=meld_tiles, opened=opened))
    win_code = parse_tile(request["win"])
    win_tile = next(t for t, c in zip(concealed, parse_tiles(request["hand"]), strict=True) if c == win_code)
    indicators = _Tiles136()  # only the kind of an indicator matters to the peer
    dora = [indicators.take(c) for c in parse_tiles(request.get("dora_indicators", ""))]
    ura = [indicators.take(c) for c in parse_tiles(request.get("ura_indicators", ""))]
    double = bool(request.get("double_riichi"))
    config = HandConfig(
        is_tsumo=bool(request.get("tsumo")),
        is_riichi=bool(request.get("riichi")) or double,
        is_daburu_riichi=double,
        is_ippatsu=bool(request.get("ippatsu")),
        is_rinshan=bool(request.get("rinshan")),
        is_chankan=bool(request.get("chankan")),
        is_haitei=bool(request.get("haitei")),
        is_houtei=bool(request.get("houtei")),
        is_tenhou=bool(request.get("tenhou")),
        is_chiihou=bool(request.get("chiihou")),
        is_renhou=bool(request.get("renhou")),  # the peer's own rule; see known_peer_difference
        player_wind=EAST + WINDS.index(request.get("seat_wind", "E")),
        round_wind=EAST + WINDS.index(request.get("round_wind", "E")),
        tsumi_number=int(request.get("honba", 0)),
        kyoutaku_number=int(request.get("riichi_sticks", 0)),
        options=OptionalRules(**HOUSE_OPTIONS),
    )
    return {
        "tiles": tiles,
        "win_tile": win_tile,
        "melds": melds or None,
        "dora_indicators": dora or None,
        "ura_dora_indicators": ura or None,
        "config": config,
    }


PEER_ERRORS = {HandCalculator.ERR_NO_YAKU: "no_yaku", HandCalculator.ERR_HAND_NOT_WINNING: "not_a_win"}
PEER_LIMITS = {"mangan": "mangan", "haneman": "haneman", "baiman": "baiman", "sanbaiman": "sanbaiman"}


def peer_score(request: dict[str, Any]) -> PeerResult:
    """Score ``request`` with the ``mahjong`` package configured like the house rulebook."""
    try:
        args = peer_arguments(request)
    except ValueError as exc:  # more copies than the 136 tiles hold: only for requests we reject too
        return PeerResult(error=f"invalid_hand: {exc}")
    response = HandCalculator.estimate_hand_value(**args)
    if response.error:
        return PeerResult(error=PEER_ERRORS.get(response.error, response.error))
    config: HandConfig = args["config"]
    cost = response.cost
    yakuman_yaku = [y for y in response.yaku if y.is_yakuman]
    counted = not yakuman_yaku and response.han >= 13
    if yakuman_yaku:
        multiplier = response.han // 13
    else:
        multiplier = 1 if counted else 0
    level = cost["yaku_level"]
    limit = "yakuman" if multiplier else PEER_LIMITS.get(level)
    main = cost["main"] + cost["main_bonus"]
    extra = cost["additional"] + cost["additional_bonus"]
    if not config.is_tsumo:
        payments = {"ron": main}
    elif config.is_dealer:
        payments = {"non_dealer": main}
    else:
        payments = {"dealer": main, "non_dealer": extra}
    return PeerResult(
        error=None,
        han=response.han,
        fu=response.fu,
        yakuman=multiplier,
        counted=counted,
        limit=limit,
        payments=payments,
        total=cost["total"],
        yaku=tuple(y.name for y in response.yaku),
    )
