"""One vocabulary: every name a rulebook may use, with its type, meaning and an example.

The checker, the compiler, ``riichi explain`` and ``docs/language.md`` all read this table, so they never drift.
Names describe mechanics (a group, a wait, a flag of the win); what they are worth is always rulebook data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ruledsl import arithmetic, situation_words
from ruledsl import tiles as T
from ruledsl.record import field, record
from ruledsl.typing_names import TYPE_CHECKING, TypeVar
from ruledsl.values import KAN, PAIR, SEQUENCE, TRIPLET, Group

if TYPE_CHECKING:
    from typing import Any

# ---- types -------------------------------------------------------------------------------------------------------
BOOL, INT, STR, TILE, GROUP, SUIT, WAIT, SHAPE, ITEM, RECORD, ANY = (
    "bool",
    "int",
    "str",
    "tile",
    "group",
    "suit",
    "wait",
    "shape",
    "item",
    "record",
    "any",
)


def list_of(t: str) -> str:
    return f"list of {t}"


TILES, GROUPS, INTS, SUITS, ITEMS = list_of(TILE), list_of(GROUP), list_of(INT), list_of(SUIT), list_of(ITEM)

# Scopes: which facts an item may read. A yaku sees one reading of the winning hand; a limit also sees the han
# and fu; a payment also sees the table counters; draws and liability see the round.
HAND, VALUE, TABLE, ROUND = "hand", "value", "table", "round"


@record(slots=False)
class Fact:
    name: str
    type: str
    scope: str
    meaning: str
    example: str


@record(slots=False)
class Function:
    name: str
    params: tuple[str, ...]  # each a type, or "tile|group"
    returns: str
    meaning: str
    example: str
    impl: Callable[..., object] = field(repr=False, compare=False)


@record(slots=False)
class Constant:
    name: str
    type: str
    value: object
    meaning: str


# ---- facts -------------------------------------------------------------------------------------------------------
_SITUATION_TYPES = {"bool": BOOL, "int": INT, "str": TILE}  # a wind is read as its tile


def _situation_facts() -> tuple[Fact, ...]:
    """A fact for each field of the engine's situation (``ruledsl/situation_words.py``, generated from it)."""
    groups = {"hand": HAND, "table": TABLE}
    return tuple(
        Fact(name, _SITUATION_TYPES[kind], groups[group], meaning, example)
        for name, kind, group, meaning, example in situation_words.FIELDS
    )


FACTS: dict[str, Fact] = {
    f.name: f
    for f in (
        Fact("closed", BOOL, HAND, "no chi, pon or open kan was made (closed kans keep a hand closed)", "closed"),
        Fact("ron", BOOL, HAND, "the winning tile was another player's discard (or robbed kan)", "closed and ron"),
        Fact("dealer", BOOL, HAND, "the winner is the dealer (East seat)", "dealer"),
        *_situation_facts(),  # tsumo, the winds, the flags and the counters: the fields of the situation
        Fact("shape", SHAPE, HAND, "the reading's shape: standard, seven_pairs or thirteen_orphans", "shape == seven_pairs"),
        Fact("sets", GROUPS, HAND, "the four sets of a standard reading, called melds included", "all(g in sets: is_triplet(g))"),
        Fact("pairs", GROUPS, HAND, "the pair of a standard reading, or the seven pairs", "count(g in pairs: is_value(g))"),
        Fact("pair", GROUP, HAND, "the pair of a standard reading (no group in other shapes)", "is_value(pair)"),
        Fact("groups", GROUPS, HAND, "every group of the reading: sets and pairs", "all(g in groups: has_yaochuu(g))"),
        Fact("tiles", TILES, HAND, "every tile of the hand, melds included (a kan counts four)", "all(t in tiles: is_simple(t))"),
        Fact("win_tile", TILE, HAND, "the winning tile", "win_tile == 5z"),
        Fact("win_group", GROUP, HAND, "the group the winning tile completed in this reading", "is_sequence(win_group)"),
        Fact("wait", WAIT, HAND, "the wait the winning tile completed: ryanmen, kanchan, penchan, shanpon, tanki", "wait == ryanmen"),
        Fact("wait_count", INT, HAND, "how many tile kinds the hand was waiting on before the win", "wait_count == 13"),
        Fact("peikou", INT, HAND, "how many pairs of identical sequences the concealed sets hold (0, 1 or 2)", "peikou == 2"),
        Fact("number_suits", INT, HAND, "how many of the man, pin and sou suits appear in the hand", "number_suits == 1"),
        Fact("honors", INT, HAND, "how many honour tiles the hand holds", "honors == 0"),
        Fact("dora_hits", INT, HAND, "tiles of the hand that are dora, counted once per indicator", "dora_hits"),
        Fact("ura_hits", INT, HAND, "tiles of the hand that are ura dora", "ura_hits"),
        Fact("red_fives", INT, HAND, "red fives in the hand", "red_fives"),
        Fact("kita_dora_hits", INT, HAND, "set-aside North tiles that are also dora, per indicator", "kita_dora_hits"),
        Fact("kita_ura_hits", INT, HAND, "set-aside North tiles that are also ura dora, per ura indicator", "kita_ura_hits"),
        Fact("players", INT, HAND, "players at the table, from `settings table`", "players == 3"),
        Fact("han", INT, VALUE, "total han of the chosen yaku and bonuses", "han >= 5"),
        Fact("fu", INT, VALUE, "fu after rounding", "fu >= 70"),
        Fact("raw_fu", INT, VALUE, "fu before rounding, as the fu items add up", "raw_fu == 20"),
        Fact("yakuman", INT, VALUE, "total yakuman multiplier of the hand", "yakuman > 0"),
        Fact("basic_points", INT, VALUE, "fu × 2^(han + 2) before any limit", "basic_points > 2000"),
        Fact("base", INT, VALUE, "the base points after the limit table", "6 * base"),
        Fact("payers", INT, TABLE, "how many players pay a self-drawn win (players minus the winner)", "payers"),
        # round-level facts, read by abortive draws, exhaustive-draw rules and liability
        Fact("first_go_around", BOOL, ROUND, "no player has drawn a second time yet", "first_go_around"),
        Fact("any_call", BOOL, ROUND, "a chi, pon or kan (closed included) was made this hand", "not any_call"),
        Fact("riichi_count", INT, ROUND, "players in riichi, declarations established", "riichi_count == 4"),
        Fact("kan_count", INT, ROUND, "kans declared this hand by all players", "kan_count == 4"),
        Fact("kan_makers", INT, ROUND, "distinct players who declared the kans", "kan_makers >= 2"),
        Fact("first_discards_same_wind", BOOL, ROUND, "every player's first discard is the same wind", "first_discards_same_wind"),
        Fact("terminal_kinds", INT, ROUND, "distinct terminal and honour kinds in the acting player's hand", "terminal_kinds >= 9"),
        Fact("ron_count", INT, ROUND, "players declaring ron on the same discard", "ron_count == 3"),
        Fact("all_discards_yaochuu", BOOL, ROUND, "every tile the player discarded is a terminal or honour", "all_discards_yaochuu"),
        Fact("discards_called", BOOL, ROUND, "another player called one of the player's discards", "not discards_called"),
        Fact("made_calls", BOOL, ROUND, "the player made a chi, pon or open kan", "not made_calls"),
        Fact("completing_call", STR, ROUND, "the call that completed the liable set: pon, daiminkan", "completing_call == \"pon\""),
    )
}

# ---- constants ---------------------------------------------------------------------------------------------------
CONSTANTS: dict[str, Constant] = {
    c.name: c
    for c in (
        Constant("m", SUIT, "m", "the man (characters) suit"),
        Constant("p", SUIT, "p", "the pin (circles) suit"),
        Constant("s", SUIT, "s", "the sou (bamboo) suit"),
        Constant("z", SUIT, "z", "the honours"),
        Constant("ryanmen", WAIT, "ryanmen", "two-sided wait"),
        Constant("kanchan", WAIT, "kanchan", "closed (middle) wait"),
        Constant("penchan", WAIT, "penchan", "edge wait"),
        Constant("shanpon", WAIT, "shanpon", "two-pair wait"),
        Constant("tanki", WAIT, "tanki", "single (pair) wait"),
        Constant("standard", SHAPE, "standard", "four sets and a pair"),
        Constant("seven_pairs", SHAPE, "seven_pairs", "seven distinct pairs"),
        Constant("thirteen_orphans", SHAPE, "thirteen_orphans", "one of each terminal and honour plus a duplicate"),
    )
}


# ---- functions ---------------------------------------------------------------------------------------------------
def _tile_or_group(pred_tile: Callable[[int], bool]) -> Callable[[Group | int | None], bool]:
    by_kind = tuple(pred_tile(k) for k in range(T.KINDS))  # the predicate per tile kind, looked up in C

    def check(x: Group | int | None) -> bool:
        if x is None:
            return False
        if isinstance(x, Group):
            tiles = x.tiles
            try:
                return all(map(by_kind.__getitem__, tiles))
            except (IndexError, TypeError):
                return all(map(pred_tile, tiles))
        return pred_tile(x)

    return check


def _is_shape(shape: str) -> Callable[[Group | None], bool]:
    def check(g: Group | None) -> bool:
        return g is not None and g.shape == shape

    return check


def _is_triplet(g: Group | None) -> bool:
    return g is not None and (g.shape == TRIPLET or g.shape == KAN)


def _suit(x: Group | int | None) -> str:
    if x is None:
        return ""
    kind = x.kind if isinstance(x, Group) else x
    return T.suit_of(kind)


def _number(x: Group | int | None) -> int:
    if x is None:
        return 0
    kind = x.kind if isinstance(x, Group) else x
    return T.number_of(kind)


def _has_yaochuu(g: Group | None) -> bool:
    return g is not None and any(T.is_yaochuu(t) for t in g.tiles)


def _has_terminal(g: Group | None) -> bool:
    return g is not None and any(T.is_terminal(t) for t in g.tiles)


def _tile_of(suit: str, number: int) -> int:
    if suit not in "mpsz" or not suit or not 1 <= number <= (7 if suit == "z" else 9):
        return -1
    return T.make_kind(suit, number)


def _contains(g: Group | None, tile: int) -> bool:
    return g is not None and tile in g.tiles


def _size(xs: tuple) -> int:
    return len(xs)


def _group_tile(g: Group | None) -> int:
    return -1 if g is None else g.kind


# Functions whose value depends on the reading (has_sequence, value_roles ...) get the environment as first
# argument; the compiler passes it. They are marked with ``needs_env``.
NEEDS_ENV: set[str] = set()
_F = TypeVar("_F", bound=Callable[..., object])


def _env_function(fn: _F) -> _F:
    NEEDS_ENV.add(fn.__name__.lstrip("_"))
    return fn


# Environment keys every engine provides for the reading-level helpers below: the kinds that start a sequence
# and the kinds held as a triplet or kan, so membership is one set lookup instead of a scan of the sets.
SEQUENCE_STARTS = "__sequence_starts__"
TRIPLET_KINDS = "__triplet_kinds__"


@_env_function
def _has_sequence(env: Mapping[str, Any], suit: str, number: int) -> bool:
    if suit not in ("m", "p", "s") or not 1 <= number <= 7:
        return False
    return T.make_kind(suit, number) in env[SEQUENCE_STARTS]


@_env_function
def _has_triplet(env: Mapping[str, Any], tile: int) -> bool:
    return tile in env[TRIPLET_KINDS]


_FIRST_DRAGON = T.make_kind("z", 5)  # T.is_dragon: kinds from here on


@_env_function
def _value_roles(env: Mapping[str, Any], x: Group | int | None) -> int:
    if x is None:
        return 0
    kind = x.kind if isinstance(x, Group) else x
    roles = 0
    if kind >= _FIRST_DRAGON:
        roles += 1
    if kind == env["seat_wind"]:
        roles += 1
    if kind == env["round_wind"]:
        roles += 1
    return roles


@_env_function
def _is_value(env: Mapping[str, Any], x: Group | int | None) -> bool:
    return _value_roles(env, x) > 0


@_env_function
def _count_of(env: Mapping[str, Any], tile: int) -> int:
    return env["tiles"].count(tile)


@_env_function
def _has_yaku(env: Mapping[str, Any], name: str) -> bool:
    return name in env["__yaku__"]


# ``fast_bind(*constants)``: the function with its arguments fixed, as ``env -> value`` (the closure builder of
# ``ruledsl.fast`` uses it when every argument is a constant, e.g. ``has_sequence(m, 1)``).
def _bind_has_sequence(suit: str, number: int) -> Callable[[dict], bool]:
    if suit not in ("m", "p", "s") or not 1 <= number <= 7:
        return lambda env: False
    kind = T.make_kind(suit, number)
    return lambda env: kind in env[SEQUENCE_STARTS]


def _bind_has_triplet(tile: int) -> Callable[[dict], bool]:
    return lambda env: tile in env[TRIPLET_KINDS]


# ``fast_member(*constants)``: the call is ``element in env[key]`` for the (key, element) returned, and
# ``env[key]`` is a frozenset, so several such tests on one key combine into one set operation.
def _member_has_sequence(suit: str, number: int) -> tuple[str, object]:
    if suit not in ("m", "p", "s") or not 1 <= number <= 7:
        return SEQUENCE_STARTS, None  # no kind: never a member
    return SEQUENCE_STARTS, T.make_kind(suit, number)


def _member_has_triplet(tile: int) -> tuple[str, object]:
    return TRIPLET_KINDS, tile


def _declare(fn: Callable[..., object], **attributes: object) -> None:
    """Attributes of a vocabulary function that ``ruledsl.fast`` reads with ``getattr`` when it compiles a call."""
    fn.__dict__.update(attributes)


# ``env_reads``: the environment keys the function reads, besides its arguments (for ``ruledsl.fast.reads``).
for _fn, _keys in (
    (_has_sequence, (SEQUENCE_STARTS,)),
    (_has_triplet, (TRIPLET_KINDS,)),
    (_value_roles, ("seat_wind", "round_wind")),
    (_is_value, ("seat_wind", "round_wind")),
    (_count_of, ("tiles",)),
    (_has_yaku, ("__yaku__",)),
):
    _declare(_fn, env_reads=frozenset(_keys))
del _fn, _keys

_declare(_has_sequence, fast_bind=_bind_has_sequence, fast_member=_member_has_sequence)
# ``member_of``: the call with any argument ``x`` is ``x in env[key]`` (``has_triplet(seat_wind)``).
_declare(_has_triplet, fast_bind=_bind_has_triplet, fast_member=_member_has_triplet, member_of=TRIPLET_KINDS)


FUNCTIONS: dict[str, Function] = {
    f.name: f
    for f in (
        Function("is_sequence", (GROUP,), BOOL, "the group is a sequence", "all(g in sets: is_sequence(g))", _is_shape(SEQUENCE)),
        Function("is_triplet", (GROUP,), BOOL, "the group is a triplet or a kan", "is_triplet(g)", _is_triplet),
        Function("is_kan", (GROUP,), BOOL, "the group is a kan (closed or open)", "count(g in sets: is_kan(g)) == 3", _is_shape(KAN)),
        Function("is_pair", (GROUP,), BOOL, "the group is a pair", "is_pair(g)", _is_shape(PAIR)),
        Function("is_called", (GROUP,), BOOL, "the group came from a chi, pon or open kan", "is_called(g)", lambda g: g is not None and g.called),
        Function("is_concealed", (GROUP,), BOOL, "no tile of the group came from another player (a ron-completed triplet is not concealed)", "is_concealed(g)", lambda g: g is not None and g.concealed),
        Function("is_simple", ("tile|group",), BOOL, "a number tile 2 to 8 (for a group: all its tiles)", "is_simple(t)", _tile_or_group(T.is_simple)),
        Function("is_terminal", ("tile|group",), BOOL, "a 1 or 9 of a number suit (for a group: all its tiles)", "is_terminal(t)", _tile_or_group(T.is_terminal)),
        Function("is_honor", ("tile|group",), BOOL, "a wind or dragon (for a group: all its tiles)", "is_honor(t)", _tile_or_group(T.is_honor)),
        Function("is_yaochuu", ("tile|group",), BOOL, "a terminal or honour (for a group: all its tiles)", "is_yaochuu(t)", _tile_or_group(T.is_yaochuu)),
        Function("is_wind", ("tile|group",), BOOL, "a wind tile, East to North", "is_wind(pair)", _tile_or_group(T.is_wind)),
        Function("is_dragon", ("tile|group",), BOOL, "a dragon tile, White Green Red", "is_dragon(pair)", _tile_or_group(T.is_dragon)),
        Function("has_yaochuu", (GROUP,), BOOL, "the group holds at least one terminal or honour", "has_yaochuu(g)", _has_yaochuu),
        Function("has_terminal", (GROUP,), BOOL, "the group holds at least one terminal", "has_terminal(g)", _has_terminal),
        Function("suit", ("tile|group",), SUIT, "the suit of a tile or group: m, p, s or z", "suit(g) == p", _suit),
        Function("number", ("tile|group",), INT, "the number of a tile (1..9, honours 1..7); of a group, its first tile", "number(g) == 1", _number),
        Function("tile", (GROUP,), TILE, "the first tile of a group", "tile(pair) == 5z", _group_tile),
        Function("tile_of", (SUIT, INT), TILE, "the tile with this suit and number", "tile_of(s, 5)", _tile_of),
        Function("contains", (GROUP, TILE), BOOL, "the group holds this tile", "contains(g, win_tile)", _contains),
        Function("round_up", (INT, INT), INT, "the value rounded up to a multiple of the step", "round_up(4 * base, 100)", arithmetic.round_up),
        Function("size", (ANY,), INT, "how many elements a list has", "size(sets)", _size),
        Function("has_sequence", (SUIT, INT), BOOL, "a set is the sequence starting at this number of this suit", "has_sequence(m, 1)", _has_sequence),
        Function("has_triplet", (TILE,), BOOL, "a set is a triplet or kan of this tile", "has_triplet(5z)", _has_triplet),
        Function("value_roles", ("tile|group",), INT, "how many value roles a tile has: dragon, seat wind, round wind (a double wind has two)", "2 * value_roles(pair)", _value_roles),
        Function("is_value", ("tile|group",), BOOL, "a dragon, the seat wind or the round wind", "not is_value(pair)", _is_value),
        Function("count_of", (TILE,), INT, "copies of this tile in the whole hand", "count_of(1m) >= 3", _count_of),
        Function("has_yaku", (ITEM,), BOOL, "this yaku is among the yaku scored for the reading (fu, limit and payment items)", "not has_yaku(my_local_yaku)", _has_yaku),
    )
}

# ---- item kinds --------------------------------------------------------------------------------------------------


@record(slots=False)
class FieldSpec:
    type: str
    required: bool
    meaning: str
    scope: str = HAND


@record(slots=False)
class KindSpec:
    meaning: str
    fields: dict[str, FieldSpec]
    hand_rule: bool = False  # evaluated against a hand reading (can change a score)


HAN_TYPE = "han"  # an int, or a record {closed: n, open: n}; a missing `open` means closed only

ITEM_KINDS: dict[str, KindSpec] = {
    "settings": KindSpec("a group of table settings; keys are listed under `settings` below", {}),
    "yaku": KindSpec(
        "a scoring pattern worth han",
        {
            "han": FieldSpec(HAN_TYPE, True, "han when closed and when open (`{closed: 2, open: 1}`, or one number)"),
            "when": FieldSpec(BOOL, True, "the condition on one reading of the hand"),
            "excludes": FieldSpec(ITEMS, False, "yaku not scored when this one is (e.g. the lesser form)"),
            "standalone": FieldSpec(BOOL, False, "when true, the hand is worth the better of this yaku alone (no other yaku, no dora) and its usual score without it"),
        },
        hand_rule=True,
    ),
    "yakuman": KindSpec(
        "a limit hand worth a multiple of the yakuman base",
        {
            "multiplier": FieldSpec(INT, False, "yakuman multiple (default 1)"),
            "when": FieldSpec(BOOL, True, "the condition on one reading of the hand"),
            "excludes": FieldSpec(ITEMS, False, "yakuman not scored when this one is"),
        },
        hand_rule=True,
    ),
    "bonus": KindSpec(
        "han that count only on top of a yaku (dora, red fives, ura dora, kita)",
        {
            "han": FieldSpec(INT, True, "han added, an expression"),
            "when": FieldSpec(BOOL, False, "the condition under which it counts"),
        },
        hand_rule=True,
    ),
    "fu": KindSpec(
        "a fu item: adds `fu`, or sets the total with `fixed` (no rounding)",
        {
            "fu": FieldSpec(INT, False, "fu added when the condition holds"),
            "fixed": FieldSpec(INT, False, "the hand's total fu, replacing the sum and its rounding", VALUE),
            "when": FieldSpec(BOOL, False, "the condition; `fixed` items may read `raw_fu`", VALUE),
        },
        hand_rule=True,
    ),
    "limit": KindSpec(
        "a limit tier; the first tier (highest base) whose condition holds sets the base points",
        {
            "when": FieldSpec(BOOL, True, "the condition on han, fu, basic_points and yakuman", VALUE),
            "base": FieldSpec(INT, True, "the base points of the tier", VALUE),
            "tier": FieldSpec(STR, False, "the limit name reported (default: the item name)"),
            "yakuman": FieldSpec(INT, False, "the yakuman multiplier reported (counted yakuman: 1)", VALUE),
        },
        hand_rule=True,
    ),
    "payment": KindSpec(
        "who pays what for a win",
        {
            "when": FieldSpec(BOOL, True, "when this payment applies", TABLE),
            "from": FieldSpec(STR, True, "who pays: \"discarder\", \"dealer\" or \"non_dealer\" (each non-dealer other than the winner)"),
            "amount": FieldSpec(INT, True, "the amount each such payer pays, honba included", TABLE),
        },
        hand_rule=True,
    ),
    "draw": KindSpec(
        "a rule applied at an exhaustive draw (noten payments, nagashi mangan)",
        {
            "when": FieldSpec(BOOL, False, "the condition on the player or table", ROUND),
            "total": FieldSpec(INT, False, "points the noten players pay the tenpai players in total", ROUND),
            "pays_as": FieldSpec(STR, False, "paid like this limit tier won by tsumo", ROUND),
            "honba_bonus": FieldSpec(BOOL, False, "whether honba are added to the payment", ROUND),
            "noten_payments": FieldSpec(BOOL, False, "whether noten payments are also settled", ROUND),
            "dealer_continues": FieldSpec(STR, False, "\"if_tenpai\", \"always\", \"never\" or \"if_dealer_nagashi\" (the dealer keeps the seat exactly when he is one of the players this draw pays)", ROUND),
        },
    ),
    "abortive_draw": KindSpec(
        "a hand ended without a winner before the wall runs out",
        {
            "when": FieldSpec(BOOL, True, "the condition on the round", ROUND),
            "at": FieldSpec(STR, False, "when it is checked: \"discard_passed\", \"immediately\", \"player_choice\"", ROUND),
            "dealer": FieldSpec(STR, False, "\"stays\" or \"passes\"", ROUND),
            "honba": FieldSpec(INT, False, "honba added afterwards", ROUND),
            "sticks": FieldSpec(STR, False, "the riichi sticks: \"stay\" on the table (default), or \"return\" to the players who declared this hand", ROUND),
        },
    ),
    "liability": KindSpec(
        "pao: a player who fed the completing set pays for the yakuman",
        {
            "affects": FieldSpec(ITEMS, True, "the yakuman this liability applies to"),
            "when": FieldSpec(BOOL, False, "the condition on the completing call", ROUND),
            "tsumo_liable": FieldSpec(INT, True, "percent of a tsumo paid by the liable player", ROUND),
            "ron_liable": FieldSpec(INT, True, "percent of a ron paid by the liable player", ROUND),
            "ron_discarder": FieldSpec(INT, True, "percent of a ron paid by the discarder", ROUND),
            "honba_payer": FieldSpec(STR, False, "who pays the honba of the win: \"liable\" or \"discarder\" (for a tsumo, \"discarder\" means everyone pays their usual honba share)", ROUND),
            "covers": FieldSpec(STR, False, "what the liable share applies to: the \"whole\" win (default) or only the \"completed\" yakuman's part of it when the hand holds several", ROUND),
        },
    ),
}

EXCEPTION_FIELDS_NOTE = "an exception takes the fields of its target's kind; its `when` narrows the target's"


@record(slots=False)
class SettingSpec:
    """One settings key: its type, what it means, an example, its allowed words, and its default: the value an
    absent key means, as compiled settings hold it (tile lists as tile codes, lists as tuples). ``None`` means the
    rule is off when absent (no bust, no target, no return points). This is the one place a default is written:
    ``Rulebook.setting`` reads it, and the engine's settings records are built through it."""

    type: str
    meaning: str
    example: str
    choices: tuple[str, ...] = ()
    default: Any = None


def _s(t: str, meaning: str, example: str, *choices: str, default: Any) -> SettingSpec:
    return SettingSpec(t, meaning, example, tuple(choices), default)


ALL_KINDS = tuple(range(T.KINDS))  # every tile kind, as the tile codes of ``ruledsl.tiles`` (man, pin, sou, honours)


SETTINGS: dict[str, dict[str, SettingSpec]] = {
    "table": {
        "players": _s(INT, "players at the table", "players = 4", default=4),
        "tiles": _s(TILES, "the tile kinds in the set", "tiles = 123456789m123456789p123456789s1234567z", default=ALL_KINDS),
        "copies": _s(INT, "copies of each kind", "copies = 4", default=4),
        "red_fives": _s(TILES, "which red fives are in the set (one copy each)", "red_fives = [0m, 0p, 0s]", default=()),
        "start_points": _s(INT, "points each player starts with", "start_points = 20000", default=0),
        "dead_wall": _s(INT, "tiles kept in the dead wall", "dead_wall = 14", default=14),
        "rounds": _s(list_of(STR), "the prevailing winds played, in order", "rounds = [\"E\", \"S\"]", default=None),
        "riichi_deposit": _s(INT, "points a riichi declaration puts on the table", "riichi_deposit = 1000", default=1000),
        "kita": _s(BOOL, "North tiles may be set aside for a replacement draw (three-player)", "kita = true", default=False),
        "kita_interrupts": _s(BOOL, "setting a North aside interrupts like a call: it ends ippatsu and the first go-around's chances (double riichi, tenhou, chiihou, renhou, and `any_call` for abortive draws)", "kita_interrupts = true", default=False),
        "kita_rinshan": _s(BOOL, "a win on the replacement tile drawn after setting a North aside counts as rinshan", "kita_rinshan = true", default=False),
        "kita_ron": _s(STR, "who may ron a set-aside North: \"nobody\", \"anyone\" waiting on it, or only a \"thirteen_orphans\" hand", "kita_ron = \"anyone\"", "nobody", "anyone", "thirteen_orphans", default="nobody"),
    },
    "scoring": {
        "dora_cycles": _s(list_of(TILES), "successor order per suit for dora indicators (the last wraps to the first)", "dora_cycles = [123456789m, 1234z, 567z]", default=()),
        "fu_rounding": _s(INT, "fu are rounded up to a multiple of this", "fu_rounding = 10", default=1),
        "yakuman_stacking": _s(STR, "several yakuman in one hand \"add\" or only the \"highest\" counts", "yakuman_stacking = \"add\"", "add", "highest", default="add"),
        "yakuman_excludes_yaku": _s(BOOL, "a hand with a yakuman scores no ordinary yaku", "yakuman_excludes_yaku = true", default=True),
        "bonus_needs_yaku": _s(BOOL, "bonus han count only with at least one yaku", "bonus_needs_yaku = true", default=True),
        "han_ceiling": _s(INT, "largest han a single yaku may be written with (the checker enforces it)", "han_ceiling = 13", default=13),
        "shibari_han": _s(INT, "han a win needs from its yaku alone (dora, red fives and other bonus han not counted; a yakuman always qualifies) once `shibari_honba` honba are on the table; 1, the default, asks nothing beyond one yaku (ryanhan shibari: 2)", "shibari_han = 2", default=1),
        "shibari_honba": _s(INT, "honba from which `shibari_han` applies (default 0: always)", "shibari_honba = 5", default=0),
        "atozuke": _s(BOOL, "a win may take its only yaku from the tile that completes it (atozuke, the default); false: a win needs a yaku whichever tile of its wait completes it, won the same way (ron or tsumo, the same flags; the same `shibari_han`), a kind whose every copy the player holds not counted", "atozuke = false", default=True),
    },
    "calls": {
        "chi": _s(BOOL, "chi is allowed (from the player on the left)", "chi = true", default=True),
        "precedence": _s(list_of(STR), "call priority, highest first", "precedence = [\"ron\", \"pon\", \"kan\", \"chi\"]", "ron", "pon", "kan", "chi", default=("ron", "pon", "kan", "chi")),
        "kuikae": _s(list_of(STR), "discards forbidden right after a chi or pon: \"same_tile\" (the called kind), \"suji\" (after a chi on an end, the kind three away on the other side)", "kuikae = [\"same_tile\", \"suji\"]", "same_tile", "suji", default=()),
        "last_discard_callable": _s(BOOL, "the discard after the last live draw may be called", "last_discard_callable = false", default=False),
        "max_kans": _s(INT, "kans allowed in one hand in total", "max_kans = 4", default=4),
        "kan_dora": _s(STR, "when a kan reveals its indicator: \"after_discard\" (closed kan at once, open and added kans with the kan-maker's next discard, so that a ron on it counts it) or \"immediately\"", "kan_dora = \"after_discard\"", "after_discard", "immediately", default="after_discard"),
        "thirteen_orphans_robs_closed_kan": _s(BOOL, "thirteen orphans may rob a closed kan", "thirteen_orphans_robs_closed_kan = true", default=False),
    },
    "riichi": {
        "min_points": _s(INT, "points a player needs to declare", "min_points = 1000", default=0),
        "min_wall": _s(INT, "live-wall tiles that must remain after the declarer's draw", "min_wall = 4", default=0),
        "allowed_while_furiten": _s(BOOL, "riichi may be declared in furiten", "allowed_while_furiten = true", default=True),
        "closed_kan_after": _s(STR, "closed kans after riichi, always with the drawn tile: \"wait_unchanged\" (the waits stay the same), \"reading_unchanged\" (also, the kan's kind is a triplet in every reading of every win), or \"never\"", "closed_kan_after = \"wait_unchanged\"", "wait_unchanged", "reading_unchanged", "never", default="wait_unchanged"),
        "below_zero": _s(BOOL, "a declaration may leave the player below zero points (apart from `min_points`)", "below_zero = false", default=True),
        "ura_dora": _s(BOOL, "ura dora are revealed for a riichi winner", "ura_dora = true", default=True),
        "open_riichi": _s(BOOL, "riichi may also be declared open (mjai `reach` with `\"open\": true`): the hand is shown to every player from the declaration on, and yaku read the fact `open_riichi`", "open_riichi = true", default=False),
    },
    "furiten": {
        "temporary_release": _s(list_of(STR), "the moments that end same-turn furiten (a passed winning tile): \"draw\" (the player's own draw, a kan's or North's replacement draw included), \"call\" (the player's own chi, pon or kan), \"discard\" (the player's own discard, the one after his chi or pon included), \"any_call\" (a chi, pon or kan by any player, closed and added kans included)", "temporary_release = [\"draw\"]", "draw", "call", "discard", "any_call", default=("draw",)),
    },
    "tenpai": {
        "karaten": _s(STR, "which waits on a tile whose four copies the player holds leave the hand noten (karaten) wherever "
                      "tenpai matters (the exhaustive draw's tenpai and noten payments, the dealer's renchan and tenpai-yame, a "
                      "riichi discard): \"concealed\", only when all four copies are in the concealed hand (copies in the "
                      "player's own pon or kan count as outside, copies seen elsewhere never matter); \"concealed_or_melds\", "
                      "also when they are in the concealed hand and the player's own melds; \"never\", a wait on a fifth "
                      "copy counts (formal tenpai). A hand with several waits is tenpai when any one of them is not karaten", "karaten = \"concealed\"",
                      "concealed", "concealed_or_melds", "never", default="concealed_or_melds"),
    },
    "win": {
        "multiple_ron": _s(INT, "how many players may ron one discard (the rest lose to the head bump)", "multiple_ron = 2", default=1),
        "triple_ron": _s(STR, "three rons on one discard: \"abort\" the hand (the `abortive_draw` item whose `when` holds gives its fields) or \"head_bump\" (the nearest `multiple_ron` winners win)", "triple_ron = \"abort\"", "abort", "head_bump", default="head_bump"),
        "sticks_to": _s(STR, "with several winners, the riichi sticks: all to the \"nearest\" to the discarder, or \"split\" evenly (the remainder to the nearest)", "sticks_to = \"nearest\"", "nearest", "split", default="nearest"),
        "honba_to": _s(STR, "with several winners: who collects the honba, \"nearest\" or \"each\"", "honba_to = \"nearest\"", "nearest", "each", default="nearest"),
    },
    "game": {
        "renchan": _s(list_of(STR), "when the dealer keeps the seat: \"dealer_win\", \"dealer_tenpai\", \"abortive\"", "renchan = [\"dealer_win\", \"dealer_tenpai\"]", default=("dealer_win", "dealer_tenpai", "abortive")),
        "honba_increase": _s(list_of(STR), "when the honba counter grows: \"dealer_win\", \"exhaustive\", \"abortive\"", "honba_increase = [\"dealer_win\", \"exhaustive\", \"abortive\"]", default=("dealer_win", "exhaustive", "abortive")),
        "honba_reset": _s(list_of(STR), "when the honba counter returns to 0", "honba_reset = [\"non_dealer_win\"]", default=("non_dealer_win",)),
        "bust_below": _s(INT, "the game ends when a score goes below this (omit for no bust)", "bust_below = 0", default=None),
        "bust_ends_game": _s(BOOL, "a score below `bust_below` ends the game", "bust_ends_game = true", default=True),
        "agari_yame": _s(BOOL, "the game ends when the dealer of the last hand wins while leading (and holding `yame_min_points`)", "agari_yame = false", default=False),
        "tenpai_yame": _s(BOOL, "the game ends when the dealer of the last hand is tenpai at the exhaustive draw while leading (and holding `yame_min_points`)", "tenpai_yame = false", default=False),
        "yame_min_points": _s(INT, "agari-yame and tenpai-yame also need the leading dealer to hold at least this many points (omit: leading is enough)", "yame_min_points = 40000", default=None),
        "target_points": _s(INT, "after the last of `rounds`, the game ends only once a player holds at least this; until then it goes on into `extension_rounds` (omit: no target)", "target_points = 40000", default=None),
        "extension_rounds": _s(list_of(STR), "prevailing winds played after `rounds` while nobody holds `target_points`", "extension_rounds = [\"W\"]", default=()),
        "extension_ends": _s(STR, "when the extension ends once a player holds `target_points`: after that hand (\"sudden_death\") or after that wind's last hand (\"round_end\")", "extension_ends = \"sudden_death\"", "sudden_death", "round_end", default="sudden_death"),
        "leftover_sticks": _s(STR, "riichi sticks left at the end: \"first_place\" or \"table\"", "leftover_sticks = \"first_place\"", "first_place", "table", default="first_place"),
        "uma": _s(INTS, "placement bonus in thousands, first to last (one per player, summing to 0; `[]` for none)", "uma = [15, 5, -5, -15]", default=()),
        "oka_return": _s(INT, "return points subtracted before placement; first place takes the difference from `start_points` of every player (oka)", "oka_return = 20000", default=None),
        "floating_uma": _s(list_of(INTS), "uma by how many players finish at or above the return points (floating uma): entry k applies when k players do, from 1 to players - 1; when none or all do, `uma`", "floating_uma = [[12, -1, -3, -8], [8, 4, -4, -8], [8, 3, 1, -12]]", default=()),
        "tie_break": _s(STR, "equal final points: \"seat_order\" (nearer the first dealer ranks higher) or \"share\" (the tied players split their places' uma and oka)", "tie_break = \"seat_order\"", "seat_order", "share", default="seat_order"),
        "score_rounding": _s(STR, "final scores in thousands: \"exact\" (to the hundred points); or each player but the first rounded to a whole thousand, the first taking what keeps the sum: \"five_down_six_up\" (the score after the return, 500 toward zero) or \"four_down_five_up\" (the final points, 500 away from zero, then the return subtracted)", "score_rounding = \"exact\"", "exact", "five_down_six_up", "four_down_five_up", default="exact"),
        "voluntary_noten": _s(BOOL, "a tenpai player may declare noten at the draw", "voluntary_noten = false", default=False),
        "dealer_win_streak_breaks": _s(list_of(STR), "hands after which the dealer keeps the seat but the count of his wins in a row (`dealer_consecutive_wins`) starts again: \"exhaustive\", \"abortive\" (default both: only wins in a row count; losing the seat always starts it again)", "dealer_win_streak_breaks = [\"exhaustive\", \"abortive\"]", "exhaustive", "abortive", default=("exhaustive", "abortive")),
    },
}



def default_text(spec: SettingSpec) -> str:
    """A setting's default as a rulebook would write it (``none`` for a rule that is off when absent), for the
    language reference and explanations."""
    return _literal_text(spec.default, spec.type)


def _literal_text(value: Any, type_name: str) -> str:
    if value is None:
        return "none"
    if type_name == TILES:
        return T.format_tiles(value) if value else "[]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        inner = type_name[len("list of "):] if type_name.startswith("list of ") else ANY
        return "[" + ", ".join(_literal_text(v, inner) for v in value) + "]"
    return str(value)

@record
class RetiredSetting:
    """A settings key of an older language: the group and key that replaced it, and the new value each old value
    meant (written as the checker should suggest it)."""

    group: str
    key: str
    values: tuple[tuple[str, str], ...]  # (old value as written, new value as written)


# settings keys of an older language, by (group, key): a rulebook that still writes one gets an error whose help
# names the new key and the value that says what the old one meant, not a bare "no key"
RETIRED_SETTINGS: dict[tuple[str, str], RetiredSetting] = {
    ("furiten", "all_copies_held_is_tenpai"): RetiredSetting(
        "tenpai", "karaten", (("false", '"concealed_or_melds"'), ("true", '"never"'))),
}

DECORATORS = {"clause": "the source clause this item encodes", "note": "a free note shown by `riichi explain`"}

QUANTIFIERS = {
    "any": "true when the body holds for some element",
    "all": "true when the body holds for every element",
    "count": "how many elements the body holds for",
    "sum": "the sum of the body over the elements",
    "max": "the largest value of the body (0 over an empty domain)",
    "min": "the smallest value of the body (0 over an empty domain)",
}

PAYERS = ("discarder", "dealer", "non_dealer")
