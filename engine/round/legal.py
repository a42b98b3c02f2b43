"""What a seat may do now: own-turn moves after a draw or a call, and answers to a discard or a kan.

Each function reads the round's state and the rulebook's settings (``RoundRules``) and returns actions; the
rule that removes an option is the rulebook's, never a constant here. ``refusal`` answers the same question as
``is_legal`` and, for a refused action, names the rule and its clause (``Refusal``): the words of an
``IllegalAction`` come from the module that decides, and the bars a player meets most (riichi, kuikae) are the
very predicates the options are built with.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from engine.core import tiles as T
from engine.core.analysis import SHANTEN_OF_KEYS
from engine.core.decompose import TRIP, standard_readings
from engine.core.errors import EngineError
from engine.core.situation import WINDS
from engine.core.tiles import KIND_OF
from engine.round import scoring
from engine.round.actions import Action, Discard, held_sorted
from engine.round.facts import round_facts, steady_key, still_quiet
from engine.round.karaten import is_tenpai
from engine.round.shanten_floor import PLACE, SUIT_OF, floor_of
from engine.round.state import WAITS_WITHIN, Seat, hand_key
from ruledsl.caches import lru, register
from ruledsl.memo import BoundedCache
from ruledsl.record import record

if TYPE_CHECKING:
    from engine.round.round import Round
    from engine.round.rules import RoundRules
    from engine.round.state import RoundState

NORTH = T.wind_kind("N")
_YAOCHUU = frozenset(T.YAOCHUU_KINDS)


@record
class Refusal:
    """Why a move is refused now: the rule in a player's words, and the rulebook clause that holds it ("" when the
    refusal is the shape of play itself, such as a seat moving out of turn, not a setting of the rulebook)."""

    reason: str
    clause: str = ""

    def __str__(self) -> str:
        return f"{self.reason} ({self.clause})" if self.clause else self.reason


@record
class Bar:
    """One rule that can bar a move, as the predicates below return it (``chi_bar``, ``kan_count_bar`` ...): the
    listing of legal moves leaves a move out when its predicate returns a bar, and ``refusal`` writes that same bar
    in a player's words, so the explanation of a refused move comes from the code that refused it. Bars are
    constants (a predicate on the hot path returns one without building anything); ``words`` is a template
    filled when a refusal is written (``{rules.max_kans}``, ``{seat}``, ``{kuikae}`` the kuikae list, ``{furiten}``
    the furiten clause of a riichi discard), and ``group`` names the settings group whose clause holds the rule
    ("" for the shape of play itself)."""

    words: str
    group: str = ""

    def refusal(self, rules: RoundRules, seat: int) -> Refusal:
        furiten = "" if rules.allowed_while_furiten else " and not furiten (`settings riichi allowed_while_furiten = false`)"
        words = self.words.format(rules=rules, seat=seat, kuikae=list(rules.kuikae), furiten=furiten)
        return Refusal(words, rules.clause(self.group) if self.group else "")


CHI_OFF = Bar("`settings calls chi = false` forbids chi", "calls")
CHI_NOT_LEFT = Bar("chi is made only from the player on the left")
LAST_DISCARD = Bar("`settings calls last_discard_callable = false` forbids calling the last discard", "calls")
MAX_KANS = Bar("`settings calls max_kans = {rules.max_kans}`", "calls")
CLOSED_KAN_IN_RIICHI = Bar("`settings riichi closed_kan_after = {rules.closed_kan_after!r}`", "riichi")
KUIKAE = Bar("kuikae: `settings calls kuikae = {kuikae}` forbids this discard right after the call", "calls")
RIICHI_DISCARD = Bar('a riichi discard must leave the hand tenpai (`settings tenpai karaten = "{rules.karaten}"`){furiten}', "riichi")
OPEN_RIICHI_OFF = Bar("`settings riichi open_riichi` is not set: riichi is declared closed only", "riichi")
RIICHI_ONCE = Bar("riichi refused: a player declares riichi once", "riichi")
RIICHI_CLOSED = Bar("riichi refused: riichi needs a closed hand", "riichi")
RIICHI_MIN_POINTS = Bar("riichi refused: `settings riichi min_points = {rules.min_points}`", "riichi")
RIICHI_BELOW_ZERO = Bar("riichi refused: `settings riichi below_zero = false`: the deposit would leave the player below zero", "riichi")
RIICHI_MIN_WALL = Bar("riichi refused: `settings riichi min_wall = {rules.min_wall}`", "riichi")
RIICHI_NOT_TENPAI = Bar('riichi refused: no discard leaves the hand tenpai (`settings tenpai karaten = "{rules.karaten}"`)', "riichi")
LOCKED_DISCARD = Bar("after riichi the drawn tile is discarded (the hand may not change)")
LOCKED_CALL = Bar("a player in riichi may not call")
FURITEN = Bar("seat {seat} is furiten and may not ron", "furiten")


def own_turn(r: RoundState, seat: int) -> tuple[Action, ...]:
    """Moves of the seat whose turn it is: after a draw, after a call, or after declaring riichi."""
    s = r.seats[seat]
    if r.reach_pending:
        return tuple(_riichi_discards(r, seat))
    if r.after_call:  # ``kuikae_bar`` of each discard: a kind of ``kuikae_forbidden`` is none
        forbidden = r.kuikae_forbidden
        discards = _discards(r, seat)
        return tuple(a for a in discards if KIND_OF[a.pai] not in forbidden) if forbidden else discards  # type: ignore[index]
    out: list[Action] = []
    rules = r.rules
    if r.tsumo_result is not None and scoring.tsumo_offer(r) is not None:  # a drawn wait: scored now (``tsumo_offer``)
        out.append(Action("hora", seat, r.drawn, target=seat))
    quiet = r.choice_quiet  # ``_player_choice_draws``' shortcut, tested here first: most turns need no more
    if quiet is None or quiet[0] != r.steady_changes or (quiet[1] is not None and quiet[1] != seat):
        out.extend(_player_choice_draws(r, seat))
    # ``reach_bar``'s first answers, asked here first: a hand two or more tiles from tenpai, or one that called a
    # tile (``riichi_bar``: not closed), needs no call
    if not s.riichi and not s.made_calls and (s.shanten <= 1 or rules.karaten == "never") and reach_bar(r, seat) is None:
        out.append(Action("reach", seat))
        if open_riichi_bar(rules) is None:  # `settings riichi open_riichi`: the same declaration, hand shown
            out.append(Action("reach", seat, open=True))
    counts = s.counts
    # else ``_kans`` finds no four copies and no pon whose fourth tile is held
    if 4 in counts or not s.riichi and s.pon_kinds and any([counts[k] for k in s.pon_kinds]):
        out.extend(_kans(r, seat))
    if rules.kita and counts[NORTH] and r.wall.remaining > 0 and NORTH in rules.kinds:
        if not s.riichi:
            out.append(Action("nukidora", seat, next(c for c in s.hand if KIND_OF[c] == NORTH)))
        elif r.drawn is not None and KIND_OF[r.drawn] == NORTH:  # the hand is locked: only the drawn North
            out.append(Action("nukidora", seat, r.drawn))
    if s.riichi:  # ``locked_bar(s, "dahai")``: the hand is locked
        out.append(Action("dahai", seat, r.drawn, tsumogiri=True))
        return tuple(out)
    if not out:  # most turns: the discards alone, the tuple as built
        return _discards(r, seat)
    return (*out, *_discards(r, seat))


def is_legal(r: Round, seat: int, action: Action) -> bool:
    """``action in r.legal_actions(seat)``, answered without building the list for the move nearly every turn
    is: a discard on one's own turn (after a draw, after a call, in riichi, or the discard of a riichi
    declaration, which checks only this tile's wait). A replay checks one logged move per decision, and building
    every legal move (riichi, kans, the player's abortive draws) for it was most of a turn's cost. Every other
    own-turn move is looked up in the full list, and an answer to a discard in the offered tuple: the answer is
    the same by construction (``tests/round/test_legality_fast_path.py`` checks the two agree at every decision
    point of the vendored logs and of self-play)."""
    if r.finished:
        return False
    if r.phase != "own":
        if seat in r.answers or seat not in r.pending:
            return False
        options = r.pending[seat]
        if options is None:  # calls not built yet (``may_call`` said there is one): the pass is offered beside them
            if action == pass_action(seat):
                return True
            options = r.legal_actions(seat)
        return options[-1] is action or action in options  # the offered pass (last) by identity: no field compare
    if seat != r.actor:
        return False
    if action.type != "dahai" or action.actor != seat:
        # a logged riichi or tsumo is told as ``own_turn`` offers it, without listing the discards, kans and
        # abortive draws beside it; any other answer (and a no) is the list's
        return (r.own_cache is None and _own_move_offered(r, seat, action)) or action in r.legal_actions(seat)
    if r.reach_pending:  # the riichi discard: a discard of the hand that leaves it waiting
        return _discard_offered(r, seat, action) and riichi_discard_bar(r, seat, action.pai) is None
    if r.after_call:
        return _discard_offered(r, seat, action) and kuikae_bar(r, action.pai) is None
    if locked_bar(r.seats[seat], "dahai") is not None:  # the hand is locked: only the drawn tile goes
        drawn = r.drawn
        return action == (_dahai(seat, drawn, True) if drawn is not None else Action("dahai", seat, None, tsumogiri=True))
    return _discard_offered(r, seat, action)


def own_discard_ok(r: Round, action: Discard) -> bool:
    """``is_legal`` of a discard ``dahai_action`` built (``built_move``), asked in an own turn: after a draw, the
    tile held, as the drawn tile when tsumogiri, and from the hand otherwise (not the drawn one when it is the only
    copy of its code). A built discard is the one object of its seat, tile and flag, so being offered is these
    conditions, and so is a locked hand's (the drawn tile, as tsumogiri); the riichi discard and the discard after a
    call take ``is_legal``'s own path. Only the seat, the tile and the flag are read (``Discard``): a log's discard
    event is answered as the built discard it equals.
    ``tests/round/test_legality_fast_path.py`` compares the two on every built discard at every decision point."""
    seat = action.actor
    if seat != r.actor or r.reach_pending or r.after_call:
        return seat == r.actor and is_legal(r, seat, _as_action(action))
    s = r.seats[seat]
    if s.riichi:  # ``locked_bar``: the hand is locked, its discard the one equal to the drawn tile's tsumogiri
        return action.pai == r.drawn and action.tsumogiri == True  # noqa: E712 (compared as the records compare)
    code = action.pai
    if action.tsumogiri:  # the drawn tile is in the hand through the turn (a kan or a North draws a new one)
        return code == r.drawn
    assert code is not None  # a built discard names its tile
    if ONLY_CODE_OF_KIND[code]:  # a plain code is its kind, whose count is its copies held: no walk of the hand's list
        held = s.counts[code]
        return held > 1 or held == 1 and code != r.drawn
    hand = s.hand
    if code not in hand:
        return False
    return code != r.drawn or hand.count(code) > 1


def _as_action(discard: Discard) -> Action:
    """The discard ``Action`` of a ``Discard`` (itself when it is one)."""
    if isinstance(discard, Action):
        return discard
    return dahai_action(discard.actor, discard.pai, discard.tsumogiri)  # type: ignore[arg-type]


# per tile code, whether it is the one code of its kind (every kind but the fives, which have a red code beside them):
# then the kind's count says how many copies of the code a hand holds
ONLY_CODE_OF_KIND = tuple(KIND_OF.count(KIND_OF[code]) == 1 for code in range(len(KIND_OF)))


def _own_move_offered(r: RoundState, seat: int, action: Action) -> bool:
    """``action`` is the riichi declaration or the tsumo that ``own_turn`` offers now, asked as it asks them (the
    same predicates in the same order, so ``reach_bar`` keeps what it finds as it does there). True only when
    the list holds the move; False leaves the decision to the list."""
    if r.reach_pending or r.after_call:  # ``own_turn`` offers discards alone then
        return False
    kind = action.type
    if kind == "hora":
        return r.tsumo_result is not None and scoring.tsumo_offer(r) is not None and action == own_move("hora", seat, r.drawn, False)
    if kind != "reach":
        return False
    s = r.seats[seat]
    if s.riichi or s.made_calls or not (s.shanten <= 1 or r.rules.karaten == "never") or reach_bar(r, seat) is not None:
        return False
    if action == own_move("reach", seat, None, False):
        return True
    return open_riichi_bar(r.rules) is None and action == own_move("reach", seat, None, True)


def own_move(kind: str, seat: int, tile: int | None, open_: bool) -> Action:
    """``own_turn``'s tsumo (``Action("hora", seat, tile, target=seat)``) or riichi (``Action("reach", seat,
    open=open_)``), built once each: compared with a logged move at every riichi and tsumo, and the move a replay
    plays for a logged riichi or tsumo."""
    key = (kind, seat, tile, open_)
    action = _OWN_MOVES.get(key)
    if action is None:
        action = _OWN_MOVES[key] = (
            Action("hora", seat, tile, target=seat) if kind == "hora" else Action("reach", seat, open=open_)
        )
    return action


# bounded by its domain: a seat's tsumo on each tile code, its two riichi declarations
_OWN_MOVES: dict[tuple[str, int, int | None, bool], Action] = {}
register("engine.round.legal.own_moves", _OWN_MOVES.clear, _OWN_MOVES.__len__, len(WINDS) * (len(KIND_OF) + 3))


def _discard_offered(r: RoundState, seat: int, action: Action) -> bool:
    """``action`` is among ``_discards(r, seat)``: a tile of the hand, as the drawn tile (tsumogiri) or as a tile
    of the hand (not the drawn one when it is the only copy of its code)."""
    s = r.seats[seat]
    code = action.pai
    if code is None or code not in s.hand:
        return False
    drawn = r.drawn
    if action.tsumogiri:
        if code != drawn:
            return False
        offered = _dahai(seat, code, True)
    else:
        if code == drawn and s.hand.count(code) == 1:
            return False  # the drawn tile alone of its code is discarded as tsumogiri
        offered = _hand_dahai(seat)[code]
    return action is offered or action == offered  # a replay passes the very object (``dahai_action``): no field compare


def dahai_action(seat: int, code: int, tsumogiri: bool = False) -> Action:
    """The discard action (equal to ``Action("dahai", seat, code, tsumogiri=...)``), built once: see ``_dahai``
    (looked up here first: a replay asks it of every logged discard)."""
    action = _DAHAI.get((seat, code, tsumogiri))
    return action if action is not None else _dahai(seat, code, tsumogiri)


def pass_action(seat: int) -> Action:
    """The pass of ``seat`` (equal to ``Action("none", seat)``), built once per seat: every response window offers
    it and a replay answers it for every seat asked; a frozen record costs microseconds to build."""
    while len(_PASS) <= seat:
        _PASS.append(Action("none", len(_PASS)))
        BUILT_MOVES.add(id(_PASS[-1]))
    return _PASS[seat]


_PASS: list[Action] = []


def claim_action(kind: str, seat: int, tile: int, consumed: tuple[int, ...], target: int) -> Action:
    """An answer to a discard (ron, pon, open kan, chi), equal to ``Action(kind, seat, tile, consumed=consumed,
    target=target)``: built once per move and kept in a bounded cache (actions are immutable values, so sharing
    one between rounds changes nothing); a replay plays a logged call or ron as this move too."""
    key = (kind, seat, tile, consumed, target)
    action = _CLAIMS.get(key)
    if action is None:
        action = _CLAIMS.put(key, Action(kind, seat, tile, consumed=consumed, target=target))
    return action


_CLAIMS: BoundedCache[tuple, Action] = BoundedCache(8192)


def _dahai(seat: int, code: int, tsumogiri: bool = False) -> Action:
    """Discard actions are immutable and few (seat x tile x flag): built once each."""
    key = (seat, code, tsumogiri)
    action = _DAHAI.get(key)
    if action is None:
        action = Action("dahai", seat, code, tsumogiri=tsumogiri)
        if type(seat) is int and type(code) is int and type(tsumogiri) is bool:  # a well-typed move: kept, and known
            _DAHAI[key] = action
            BUILT_MOVES.add(id(action))
    return action


_DAHAI: dict[tuple[int, int, bool], Action] = {}
# the identities of the discards kept in ``_DAHAI`` and the passes of ``_PASS`` (kept for the life of the process,
# so an identity is never reused): a move that is one of them has its fields of the right types, by construction
BUILT_MOVES: set[int] = set()


def built_move(action: object) -> bool:
    """``action`` is a discard or a pass this module built (``dahai_action``, ``pass_action``, the discards offered):
    an ``Action`` whose seat and tile are ints and whose flags are bools, so that once ``is_legal`` finds its seat
    one asked now (and a discard's tile in the hand), ``Round.apply`` needs no shape check (``shape_problem``)."""
    return id(action) in BUILT_MOVES
# per seat, the hand-discard action of each tile code (index = code), filled on first use: one list index per
# tile instead of a tuple key per tile, on the hottest path of a turn
_HAND_DAHAI: list[list[Action]] = []
# both bounded by their domain (a table seats at most four; both refill after ``clear_all``)


def _clear_built_discards() -> None:
    """Empty the kept discards (``_DAHAI``, ``_HAND_DAHAI``, ``_TSUMOGIRI``) and forget their identities: an object
    freed here leaves its identity to the next object made, which must never pass for a built move (``built_move``
    would let a hand-built action with a bad field skip the shape check). The passes stay, and stay known."""
    _DAHAI.clear()
    _HAND_DAHAI.clear()
    _TSUMOGIRI.clear()
    BUILT_MOVES.clear()
    BUILT_MOVES.update(map(id, _PASS))


register("engine.round.legal.dahai", _clear_built_discards, _DAHAI.__len__, len(WINDS) * len(KIND_OF) * 2)
register("engine.round.legal.hand_dahai", _clear_built_discards, _HAND_DAHAI.__len__, len(WINDS))


def _hand_dahai(seat: int) -> list[Action]:
    while len(_HAND_DAHAI) <= seat:
        n = len(_HAND_DAHAI)
        _HAND_DAHAI.append([_dahai(n, code) for code in range(len(KIND_OF))])
    return _HAND_DAHAI[seat]


def _discards(r: RoundState, seat: int) -> tuple[Action, ...]:
    """Each code of the hand once, in code order, then the drawn tile as tsumogiri (the drawn tile is offered
    only so when it is the one copy of its code). The bars on a discard (kuikae, the riichi discard) are the
    callers', through the same predicates ``refusal`` quotes.

    After a draw the codes offered from the hand are those of the hand less the drawn tile (a copy of the drawn
    code is offered from the hand exactly when another copy rests there), which ``Seat.rest_codes`` keeps from turn
    to turn: a discard changes them by a code at most each way, so they are not counted and sorted afresh."""
    s = r.seats[seat]
    hand = s.hand
    drawn = r.drawn
    table = _HAND_DAHAI[seat] if seat < len(_HAND_DAHAI) else _hand_dahai(seat)
    if drawn is None or drawn not in hand:
        every = sorted(set(hand))
        return itemgetter(*every)(table) if len(every) > 1 else _picked(table, every)
    codes = s.rest_codes
    if codes is None:
        held = set(hand)
        if hand.count(drawn) == 1:
            held.discard(drawn)
        codes = s.rest_codes = sorted(held)
    tsumogiri = _TSUMOGIRI[seat] if seat < len(_TSUMOGIRI) else _tsumogiri(seat)
    return (*(itemgetter(*codes)(table) if len(codes) > 1 else _picked(table, codes)), tsumogiri[drawn])


def _tsumogiri(seat: int) -> list[Action]:
    """Per seat, the tsumogiri discard of each tile code (index = code): the ``_dahai`` actions, looked up by one
    list index on every turn's listing."""
    while len(_TSUMOGIRI) <= seat:
        n = len(_TSUMOGIRI)
        _TSUMOGIRI.append([_dahai(n, code, True) for code in range(len(KIND_OF))])
    return _TSUMOGIRI[seat]


_TSUMOGIRI: list[list[Action]] = []


def _picked(table: list[Action], codes: list[int]) -> tuple[Action, ...]:
    """``tuple(table[code] for code in codes)``, in one call for two codes or more (the common case)."""
    if len(codes) > 1:
        return itemgetter(*codes)(table)
    return (table[codes[0]],) if codes else ()


def _riichi_discards(r: RoundState, seat: int) -> list[Action]:
    """After ``reach``: discards that leave the hand tenpai (and not furiten unless the rulebook allows it)."""
    return [a for a in _discards(r, seat) if riichi_discard_bar(r, seat, a.pai) is None]


def riichi_discard_bar(r: RoundState, seat: int, code: int | None) -> Bar | None:
    """The discard of a riichi declaration must leave the hand tenpai (and not furiten unless the rulebook allows
    it): ``RIICHI_DISCARD`` when this one does not (or is no tile of the hand)."""
    if code is None or code not in r.seats[seat].hand or not _riichi_ok_after(r, seat, code):
        return RIICHI_DISCARD
    return None


def kuikae_bar(r: RoundState, code: int | None) -> Bar | None:
    """Right after a call, a tile of a kind the call forbids (``kuikae_forbidden``) is no discard."""
    if r.after_call and code is not None and KIND_OF[code] in r.kuikae_forbidden:
        return KUIKAE
    return None


def locked_bar(s: Seat, move: str) -> Bar | None:
    """A hand in riichi is locked: its discard is the drawn tile (``move`` "dahai") and it makes no call."""
    if not s.riichi:
        return None
    return LOCKED_DISCARD if move == "dahai" else LOCKED_CALL


def open_riichi_bar(rules: RoundRules) -> Bar | None:
    """Riichi with the hand shown is offered only where the rulebook has it (`settings riichi open_riichi`)."""
    return None if rules.open_riichi else OPEN_RIICHI_OFF


def _riichi_ok_after(r: RoundState, seat: int, code: int) -> bool:
    s = r.seats[seat]
    kind = KIND_OF[code]
    keys = list(s.suit_keys)  # the hand's suit keys less the tile: its shanten and waits are read by them
    keys[SUIT_OF[kind]] -= PLACE[kind]
    hand = hand_key(keys, len(s.melds))
    if _shanten_alone(r, s):
        return SHANTEN_OF_KEYS[hand] == 0
    karaten = r.rules.karaten
    w = WAITS_WITHIN[hand, r.kinds]
    counts = s.counts
    counts[kind] -= 1
    after = tuple(counts)
    counts[kind] += 1
    if not is_tenpai(karaten, after, s.melds, w):
        return False
    if not r.rules.allowed_while_furiten:
        discarded = s.discard_kinds | {kind}
        # a riichi discard ends same-turn furiten where the player's own discard does (`temporary_release`)
        if not discarded.isdisjoint(w) or (s.furiten_temporary and "discard" not in r.rules.temporary_release):
            return False
    return True


def _shanten_alone(r: RoundState, s: Seat) -> bool:
    """Whether the exact shanten alone says if a discard leaves ``s`` tenpai for riichi: every kind is in play,
    furiten does not matter and only concealed copies can make karaten, so the hand is tenpai exactly when its
    shanten is 0 (and one shanten count is a fraction of a wait search)."""
    karaten = r.rules.karaten
    return r.rules.allowed_while_furiten and len(r.kinds) == T.KINDS and (karaten == "concealed" or karaten == "concealed_or_melds" and not s.melds)


def reach_bar(r: RoundState, seat: int) -> Bar | None:
    """Whether ``seat`` may declare riichi now: the setting that forbids it (``riichi_bar``), else
    ``RIICHI_NOT_TENPAI`` when no discard would leave the hand tenpai, else None. A hand two or more tiles from
    tenpai is told so first: its shanten is known, and the listing asks this at every turn."""
    s = r.seats[seat]
    # a wait on a fifth copy (`karaten = "never"`) is tenpai though the exact shanten says otherwise
    exact = not (r.rules.karaten == "never" and 4 in s.counts)
    if exact and s.shanten > 1:
        return RIICHI_NOT_TENPAI
    bar = riichi_bar(r, seat)
    if bar is not None:
        return bar
    if exact:
        # one shanten count (or its floor) spares a wait search per discard of a hand far from tenpai; what it finds
        # bounds every hand a discard leaves (a discard never lowers shanten), so the rest after it need not count
        drawn = floor_of(s.suit_keys, len(s.melds), False)
        if drawn <= 0:
            drawn = SHANTEN_OF_KEYS[hand_key(s.suit_keys, len(s.melds))]
        if drawn > 0:
            if drawn > s.drawn_floor:
                s.drawn_floor = drawn
            return RIICHI_NOT_TENPAI
        if _shanten_alone(r, s):
            # the drawn hand's exact shanten is 0 or -1 here, and the best discard of a hand leaves its shanten (a
            # tile outside the complete hand it is nearest to; any tile of a complete one), so some discard leaves
            # the hand tenpai: no discard need be counted (``tests/round/test_hand_keys.py`` runs the loop too)
            return None
    return None if any(_riichi_ok_after(r, seat, c) for c in set(s.hand)) else RIICHI_NOT_TENPAI


def riichi_bar(r: RoundState, seat: int) -> Bar | None:
    """The setting or state that forbids a riichi now whatever the hand's waits, or None (``reach_bar`` checks
    tenpai after it)."""
    rules = r.rules
    s = r.seats[seat]
    if s.riichi or s.riichi_declared:
        return RIICHI_ONCE
    if s.melds and not s.closed:  # no meld: closed, without walking the melds
        return RIICHI_CLOSED
    if r.scores[seat] < rules.min_points:
        return RIICHI_MIN_POINTS
    if not rules.below_zero and r.scores[seat] < rules.riichi_deposit:
        return RIICHI_BELOW_ZERO
    if r.wall.remaining < rules.min_wall:
        return RIICHI_MIN_WALL
    return None


def _player_choice_draws(r: RoundState, seat: int) -> list[Action]:
    """The abortive draw a player may declare now (`at = "player_choice"`), asked at every turn. As after a discard
    (``calls.abortive_after``), a check whose conditions read only steady facts (``steady_key``) is not evaluated
    again until one of them may have changed: once the first go-around is over, nine terminals reads nothing else.
    ``tests/round/test_abortive_shortcut.py`` runs the full check beside it at every turn."""
    items = r.rules.abortives_at.get("player_choice", ())
    if not items:
        return []
    quiet = r.choice_quiet
    if quiet is not None and (quiet[1] is None or quiet[1] == seat):
        if quiet[0] == r.steady_changes:
            return []
        if still_quiet(r, quiet, seat):  # a steady change moved none of the facts read (``calls.abortive_after``)
            r.choice_quiet = (r.steady_changes, quiet[1], quiet[2])
            return []
    env = round_facts(r, seat)  # what ``r.facts(seat)`` gives: the seat whose turn it is
    if any(when(env) for _item, when in items):
        return [Action("ryukyoku", seat)]
    r.choice_quiet = steady_key(env)
    return []


def kan_count_bar(r: RoundState) -> Bar | None:
    """No kan past the rulebook's count of kans in a round (`settings calls max_kans`)."""
    return MAX_KANS if len(r.kan_makers) >= r.rules.max_kans else None


def riichi_kan_bar(r: RoundState, seat: int, kind: int) -> Bar | None:
    """A closed kan of ``kind`` (four copies held) by a hand in riichi: allowed only as `settings riichi
    closed_kan_after` says (``_riichi_kan_ok``)."""
    if r.seats[seat].riichi and not _riichi_kan_ok(r, seat, kind):
        return CLOSED_KAN_IN_RIICHI
    return None


def _kans(r: RoundState, seat: int) -> list[Action]:
    s = r.seats[seat]
    if kan_count_bar(r) is not None or r.wall.remaining <= 0:
        return []
    out = []
    for kind in range(T.KINDS) if 4 in s.counts else ():
        if s.counts[kind] == 4:
            if riichi_kan_bar(r, seat, kind) is not None:
                continue
            tiles = held_sorted(c for c in s.hand if KIND_OF[c] == kind)
            out.append(Action("ankan", seat, tiles[-1], consumed=tiles))
    if not s.riichi and s.melds:
        for meld in s.melds:
            if meld.type == "pon":
                kind = KIND_OF[meld.tiles[0]]
                if s.counts[kind]:
                    code = next(c for c in s.hand if KIND_OF[c] == kind)
                    out.append(Action("kakan", seat, code, consumed=meld.tiles))
    return out


def _riichi_kan_ok(r: RoundState, seat: int, kind: int) -> bool:
    """A closed kan after riichi: never, or with the drawn tile and the waits unchanged (``closed_kan_after``)."""
    if r.rules.closed_kan_after == "never":
        return False
    s = r.seats[seat]
    if r.drawn is None or KIND_OF[r.drawn] != kind:
        return False
    keys = list(s.suit_keys)  # the hand less the kan's four tiles, one meld more
    keys[SUIT_OF[kind]] -= 4 * PLACE[kind]
    after = WAITS_WITHIN[hand_key(keys, len(s.melds) + 1), r.kinds]
    if after != s.waits:
        return False
    if r.rules.closed_kan_after == "reading_unchanged":
        return _always_triplet(s, kind)
    return True


def _always_triplet(s: Seat, kind: int) -> bool:
    """Every reading of every win of the hand before the draw holds the kan's kind as a triplet."""
    counts = list(s.counts)
    counts[kind] -= 1  # the hand before the drawn fourth copy
    for wait in s.waits:
        counts[wait] += 1
        readings = standard_readings(tuple(counts))
        counts[wait] -= 1
        if not readings or any((TRIP, kind) not in groups for groups in readings):
            return False
    return True


# ---- answers to a discard ------------------------------------------------------------------------------------------


def responses(r: RoundState, seat: int, tile: int, source: int, kind_of_event: str) -> tuple[Action, ...]:
    """What ``seat`` may answer to ``tile`` given up by ``source``: a discard, an added kan (chankan), a closed
    kan (a thirteen-orphans robbery, where allowed) or a set-aside North (where ``table kita_ron`` allows)."""
    rules = r.rules
    s = r.seats[seat]
    out: list[Action] = []
    kind = KIND_OF[tile]
    if kind in s.waits and furiten_bar(s) is None:
        if _may_rob(rules, s, kind, kind_of_event):
            if scoring.ron_result(r, seat, tile, source, kind_of_event) is not None:
                out.append(claim_action("hora", seat, tile, (), source))
    if kind_of_event != "dahai" or locked_bar(s, "call") is not None:
        return _with_pass(out, seat)
    chi_seat = kind < 27 and chi_bar(rules, seat, source) is None
    if s.counts[kind] < 2 and not chi_seat:
        return _with_pass(out, seat)
    last = r.wall.remaining == 0
    if last_discard_bar(r) is not None:
        return _with_pass(out, seat)
    held = [c for c in s.hand if KIND_OF[c] == kind]
    if len(held) >= 2:
        for pair in _choices(held, 2):
            if _kuikae_leaves_discard(r, s, pair, tile, "pon"):
                out.append(claim_action("pon", seat, tile, pair, source))
    if len(held) >= 3 and not last and kan_count_bar(r) is None:
        out.append(claim_action("daiminkan", seat, tile, held_sorted(held), source))
    if chi_seat:
        out.extend(_chis(r, s, seat, tile, source))
    return _with_pass(out, seat)


def may_call(r: RoundState, seat: int, tile: int, source: int) -> bool | None:
    """Whether ``responses`` offers ``seat``, which cannot ron this discard, a call (and so a pass): True or False
    when that is sure without building the calls, None when kuikae could refuse one (a hand of few tiles: build
    them). Kuikae refuses a call only when it leaves nothing to discard, and it forbids at most the called kind and
    its suji; a hand holding more other tiles than those can always discard after any call.

    Asked only by a discard's window (``calls.discard_window``), and only of a seat not in riichi that holds a pair
    of the tile or, the seat on the left where the rulebook has chi, two tiles of a run with it: the window has
    checked the lock of riichi, the seat and the shape (``chi_bar``, ``chi_near``) already, so only what it has not
    is asked here (``tests/round/test_may_call.py`` holds every answer to the full listing's)."""
    s = r.seats[seat]
    counts = s.counts
    # ``last_discard_bar`` written in place: asked at every discard some seat could pon or chi
    if r.wall.remaining == 0 and not r.rules.last_discard_callable:
        return False
    kind = KIND_OF[tile]
    forbiddable = counts[kind]
    if kind < 27:
        forbiddable += (counts[kind - 3] if kind % 9 >= 3 else 0) + (counts[kind + 3] if kind % 9 <= 5 else 0)
    if len(s.hand) - 2 <= forbiddable:
        return None
    return True


def chi_bar(rules: RoundRules, seat: int, source: int) -> Bar | None:
    """A chi is made where the rulebook has it (`settings calls chi`), and only on the discard of the player on the
    left (``source`` the discarder)."""
    if not rules.chi:
        return CHI_OFF
    return None if seat == (source + 1) % rules.players else CHI_NOT_LEFT


def last_discard_bar(r: RoundState) -> Bar | None:
    """The last discard of the wall is called only where `settings calls last_discard_callable` allows it."""
    return LAST_DISCARD if r.wall.remaining == 0 and not r.rules.last_discard_callable else None


def furiten_bar(s: Seat) -> Bar | None:
    """A furiten hand may not ron."""
    return FURITEN if s.furiten else None


def chi_near(counts: list[int], kind: int) -> bool:
    """The hand holds two tiles that make a run with a number tile of ``kind``: without them no chi is offered,
    so the response window need not ask this seat (``calls.open_window``)."""
    if kind >= 27:
        return False
    number = kind % 9
    return bool(
        (number >= 2 and counts[kind - 2] and counts[kind - 1])
        or (1 <= number <= 7 and counts[kind - 1] and counts[kind + 1])
        or (number <= 6 and counts[kind + 1] and counts[kind + 2])
    )


def _may_rob(rules: RoundRules, s: Seat, kind: int, event: str) -> bool:
    """A ron on a discard or an added kan is open to every waiting hand; on a closed kan or a set-aside North
    only where the rulebook says (``calls thirteen_orphans_robs_closed_kan``, ``table kita_ron``)."""
    if event == "ankan":
        return rules.thirteen_orphans_robs_closed_kan and _thirteen_orphans(s, kind)
    if event == "kita":
        return rules.kita_ron == "anyone" or (rules.kita_ron == "thirteen_orphans" and _thirteen_orphans(s, kind))
    return True


def _with_pass(out: list[Action], seat: int) -> tuple[Action, ...]:
    return (*out, pass_action(seat)) if out else ()


def _thirteen_orphans(s: Seat, kind: int) -> bool:
    """The hand with this tile is the thirteen-orphans shape (one of each terminal and honour and a pair)."""
    if s.melds or kind not in _YAOCHUU:
        return False
    counts = list(s.counts)
    counts[kind] += 1
    return sum(counts) == 14 and all(counts[k] >= 1 for k in _YAOCHUU) and sum(counts[k] for k in _YAOCHUU) == 14


def _choices(held: list[int], n: int) -> list[tuple[int, ...]]:
    """Distinct ways to take ``n`` of these same-kind tiles (a red five makes a second way)."""
    reds = [c for c in held if c >= T.RED_BASE]
    plain = [c for c in held if c < T.RED_BASE]
    out = []
    for r_used in range(len(reds) + 1):
        if r_used <= n and n - r_used <= len(plain):
            out.append(held_sorted(reds[:r_used] + plain[: n - r_used]))
    return out


def _chis(r: RoundState, s: Seat, seat: int, tile: int, source: int) -> list[Action]:
    kind = KIND_OF[tile]
    number = kind % 9
    out: list[Action] = []
    c = s.counts
    near = (number >= 2 and c[kind - 2] and c[kind - 1]) or (1 <= number <= 7 and c[kind - 1] and c[kind + 1]) or (number <= 6 and c[kind + 1] and c[kind + 2])
    if not near:
        return out
    for low in (kind - 2, kind - 1, kind):
        if low < kind - number or low + 2 > kind - number + 8:
            continue
        first, second = [k for k in (low, low + 1, low + 2) if k != kind]
        if not (c[first] and c[second]):
            continue
        seen = set()
        for a in _codes_held(s, first):
            for b in _codes_held(s, second):
                pair = held_sorted((a, b))
                if pair in seen:
                    continue
                seen.add(pair)
                if _kuikae_leaves_discard(r, s, pair, tile, "chi"):
                    out.append(claim_action("chi", seat, tile, pair, source))
    return out


def _codes_held(s: Seat, kind: int) -> set[int] | tuple[int]:
    """The distinct codes of ``kind`` in the hand (a five may be red too), iterated as the set of them would be:
    for a kind without a red copy it is the kind itself, with no pass over the hand."""
    if kind in _FIVE_KINDS:
        return {c for c in s.hand if KIND_OF[c] == kind}
    return (kind,)


_FIVE_KINDS = frozenset(T.RED_FIVE_KINDS)


@lru(4096)
def kuikae_forbidden(rules_kuikae: tuple[str, ...], called: int, consumed: tuple[int, ...], call: str) -> frozenset[int]:
    """Kinds the caller may not discard right after this call (``settings calls kuikae``); remembered per call
    shape, as every chi or pon made asks it."""
    kind = KIND_OF[called]
    out = set()
    if "same_tile" in rules_kuikae:
        out.add(kind)
    if "suji" in rules_kuikae and call == "chi":
        kinds = sorted(KIND_OF[c] for c in consumed)
        if kind < kinds[0] and kind % 9 <= 5:
            out.add(kind + 3)
        elif kind > kinds[1] and kind % 9 >= 3:
            out.add(kind - 3)
    return frozenset(out)


def _kuikae_leaves_discard(r: RoundState, s: Seat, consumed: tuple[int, ...], tile: int, call: str) -> bool:
    """A call is refused when kuikae would leave the caller nothing to discard."""
    left = len(s.hand) - len(consumed)
    kind = KIND_OF[tile]
    counts = s.counts
    # kuikae forbids at most the called kind and its suji (``kuikae_forbidden``): a hand with more tiles left than
    # those kinds hold keeps a discard whatever the rulebook forbids, without asking
    suji = 0 if kind >= 27 else (counts[kind - 3] if kind % 9 >= 3 else 0) + (counts[kind + 3] if kind % 9 <= 5 else 0)
    if left > counts[kind] + suji:
        return True
    forbidden = kuikae_forbidden(r.rules.kuikae, tile, consumed, call)
    # the tiles left after the call, less those of a forbidden kind, counted from the kind counts (no copy of the
    # hand per candidate call: every chi and pon offered asks this)
    if forbidden:
        left -= sum(s.counts[k] for k in forbidden) - sum(1 for c in consumed if KIND_OF[c] in forbidden)
    return left > 0


# ---- refusals: the same rules, in words -----------------------------------------------------------------------------


def refusal(r: Round, seat: int, action: Action) -> Refusal | None:
    """None when ``seat`` may play ``action`` now (``is_legal``); else the rule that refuses it, with its clause.

    The decision is ``is_legal``'s; the explanation walks the same bars in the order a player meets them: the
    round is over, it is not this seat's decision, then the first bar that the listing's own predicates return for
    the move (``bar_of``). A move no named rule refuses (a tile not held, a call not on offer) is "not among the
    legal actions"."""
    if is_legal(r, seat, action):
        return None
    if r.finished:
        return Refusal("the round is over")
    if seat not in r.waiting():
        return Refusal(f"seat {seat} has nothing to decide now (the round waits for seats {list(r.waiting())})")
    bar = bar_of(r, seat, action)
    if bar is not None:
        return bar.refusal(r.rules, seat)
    if action.type == "hora":
        return _refuse_hora(r, seat, action)
    return Refusal(f"not among the legal actions of seat {seat} now")


def bar_of(r: RoundState, seat: int, a: Action) -> Bar | None:
    """The first bar that the predicates of the listing (``own_turn``, ``responses``) return for this move: the
    same functions, asked about this one move."""
    s = r.seats[seat]
    bars: tuple[Bar | None, ...] = ()
    own_turn_moves = r.phase == "own" and not r.after_call and not r.reach_pending  # after a draw, as ``own_turn``
    if a.type in ("chi", "pon", "daiminkan"):
        source = a.target if a.target is not None else (seat - 1) % r.rules.players  # no discarder named: only ``chi``
        bars = (
            chi_bar(r.rules, seat, source) if a.type == "chi" else None,
            last_discard_bar(r),
            kan_count_bar(r) if a.type == "daiminkan" else None,
            locked_bar(s, "call"),
        )
    elif a.type in ("ankan", "kakan"):
        kind = KIND_OF[a.pai] if a.pai is not None else None
        four = own_turn_moves and a.type == "ankan" and kind is not None and s.counts[kind] == 4
        bars = (kan_count_bar(r), riichi_kan_bar(r, seat, kind) if four and kind is not None else None)
    elif a.type == "dahai":
        pending = riichi_discard_bar(r, seat, a.pai) if r.reach_pending else None
        bars = (kuikae_bar(r, a.pai), pending, locked_bar(s, "dahai"))
    elif a.type == "reach" and own_turn_moves:
        bars = (open_riichi_bar(r.rules) if a.open else None, reach_bar(r, seat))
    elif a.type == "hora" and r.phase == "respond":
        bars = (furiten_bar(s),)
    return next((bar for bar in bars if bar is not None), None)


def _refuse_hora(r: RoundState, seat: int, a: Action) -> Refusal:
    """A win no bar refuses (``bar_of`` asks ``furiten_bar``): a hand the tile does not complete (its waits), or the
    scorer's refusal."""
    s = r.seats[seat]
    if a.pai is None:
        return Refusal(f"not among the legal actions of seat {seat} now")
    tile = a.pai
    if KIND_OF[tile] not in s.waits and (r.phase == "respond" or r.phase == "own" and scoring.tsumo_offer(r) is None):
        return Refusal(f"seat {seat}'s hand is not complete with {T.format_tiles([tile])}")
    return Refusal(_no_win(r, seat, tile))


def _no_win(r: RoundState, seat: int, tile: int) -> str:
    """Why a complete hand is no win here, in the scorer's words: no yaku, or a rule such as `settings scoring
    shibari_han` or `atozuke` that refuses it (with its clause): the scorer's own refusal, asked to explain."""
    default = f"the win of seat {seat} on {T.format_tiles([tile])} has no yaku under this rulebook"
    if r.phase == "respond" and r.window is not None:
        event, _tile, source = r.window
    elif r.phase == "own" and seat == r.actor:
        event, source = "tsumo", seat
    else:
        return default
    try:
        scoring.score(r, seat, tile, source, event, explain=True)
    except EngineError as exc:
        return f"the win of seat {seat} on {T.format_tiles([tile])}: {exc.message}"
    return default
