"""One hand of riichi as a deterministic state machine, from the deal to its settlement.

The round draws, waits for the seats it needs (``waiting``), offers each its legal moves (``legal_actions``),
applies a chosen one after checking it (``apply``), records mjai-style events, and settles the hand. Every rule
choice is read from ``RoundRules`` (the rulebook); scoring goes through the rulebook's ``Scorer``.
"""

from __future__ import annotations

from typing import Any

from engine import tiles as T
from engine.errors import EngineError, InvalidRequest, NotAWin, NoYaku
from engine.round import legal
from engine.round.actions import Action, seat_problem, shape_problem
from engine.round.facts import round_facts, steady_key
from engine.round.karaten import is_tenpai
from engine.round.rules import RoundRules, round_rules
from engine.round.settle import WinClaim, field, next_counters, win_deltas
from engine.round.state import MeldRecord, Seat
from engine.round.wall import Wall, WallState
from engine.situation import WINDS, Situation
from engine.tiles import KIND_OF
from ruledsl.record import record


class IllegalAction(EngineError):
    """An action the rules do not allow now; the message names the rule (setting or item) and its clause."""

    code = "illegal_action"


@record
class RoundSetup:
    """What the game hands a round: prevailing wind, dealer seat, honba and riichi sticks on the table, scores."""

    round_wind: str = "E"
    dealer: int = 0
    honba: int = 0
    sticks: int = 0
    scores: tuple[int, ...] = ()
    first_round: bool = False
    dealer_consecutive_wins: int = 0  # the dealer's wins in a row before this hand (the game counts them)

    def __post_init__(self) -> None:
        counters = (self.dealer, self.honba, self.sticks, self.dealer_consecutive_wins)
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in counters):
            raise InvalidRequest("`dealer`, `honba`, `sticks` and `dealer_consecutive_wins` must be whole numbers")
        if not isinstance(self.scores, (tuple, list)) or not all(isinstance(n, int) and not isinstance(n, bool) for n in self.scores):
            raise InvalidRequest("`scores` must be a list of whole numbers, one per player")
        if not isinstance(self.first_round, bool):
            raise InvalidRequest("`first_round` must be true or false")
        if not isinstance(self.round_wind, str) or self.round_wind not in WINDS:
            raise InvalidRequest(f"`round_wind` must be one of E, S, W, N, not {self.round_wind!r}")
        if self.honba < 0 or self.sticks < 0 or self.dealer_consecutive_wins < 0:
            raise InvalidRequest("`honba`, `sticks` and `dealer_consecutive_wins` must not be negative")


_CALL_WORD = {"pon": "pon", "daiminkan": "kan", "chi": "chi"}


def _others_in_turn(players: int, source: int) -> tuple[int, ...]:
    """The other seats in turn order after ``source`` (asked after every discard: built once per table size)."""
    key = (players, source)
    order = _ORDERS.get(key)
    if order is None:
        order = _ORDERS[key] = tuple((source + k) % players for k in range(1, players))
    return order


_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}
NAME = tuple(T.format_tiles([code]) for code in range(len(KIND_OF)))  # mpsz of each tile code, for events


def _orders_of(players: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the others in turn order after it: a round indexes this by the discarder instead of
    building or looking up a key at every discard. One table per table size (3 or 4 players: never more)."""
    table = _ORDER_TABLES.get(players)
    if table is None:
        table = _ORDER_TABLES[players] = tuple(_others_in_turn(players, source) for source in range(players))
    return table


_ORDER_TABLES: dict[int, tuple[tuple[int, ...], ...]] = {}


# ``T.format_tiles`` of a hand, table-driven: every round writes its four dealt hands in its first event, and the
# generic formatter's per-tile calls were a tenth of a round's setup. Same order (kind, a red five first), same text.
_SORT_RANK = tuple(2 * KIND_OF[code] + (0 if code >= T.RED_BASE else 1) for code in range(len(KIND_OF)))
_DIGIT = tuple(name[0] for name in NAME)
_SUIT = tuple(name[1] for name in NAME)


def format_hand(codes: list[int] | tuple[int, ...]) -> str:
    """The hand in compact mpsz, exactly as ``engine.tiles.format_tiles(codes)`` writes it."""
    out: list[str] = []
    run = ""
    for code in sorted(codes, key=_SORT_RANK.__getitem__):
        suit = _SUIT[code]
        if suit != run and run:
            out.append(run)
        out.append(_DIGIT[code])
        run = suit
    if run:
        out.append(run)
    return "".join(out)


class Round:
    """One hand. ``Round(rules, setup, wall)``; with no wall, one shuffled from ``seed``."""

    def __init__(self, rules: RoundRules | Any, setup: RoundSetup | None = None, wall: Wall | None = None, seed: int | str | None = None) -> None:
        self.rules: RoundRules = round_rules(rules)
        r = self.rules
        setup = setup or RoundSetup()
        self.setup: RoundSetup = setup
        players = r.players
        if not 0 <= setup.dealer < players:
            raise InvalidRequest(f"`dealer` must be a seat from 0 to {players - 1}")
        scores = setup.scores or (r.rulebook.setting("table", "start_points"),) * players
        if len(scores) != players:
            raise InvalidRequest(f"`scores` needs one entry per player ({players})")
        self.kinds = frozenset(r.kinds)
        self.scores = list(scores)
        self.start_scores = tuple(scores)
        self.sticks: int = setup.sticks
        self.deposits = [0] * players  # riichi deposits paid this hand, per seat
        wall = wall if wall is not None else Wall.shuffled(r, seed)
        self._tiles = wall.tiles
        self.wall = WallState(wall, r)
        self.seats: list[Seat] = [Seat() for _ in range(players)]
        self._orders = _orders_of(players)  # the other seats in turn order, by the seat that gave a tile up
        # `furiten temporary_release`: the moments that end same-turn furiten, read at every draw, discard and call
        self._release_on_draw = "draw" in r.temporary_release
        self._release_on_discard = "discard" in r.temporary_release
        self._release_on_own_call = "call" in r.temporary_release
        self._release_on_any_call = "any_call" in r.temporary_release
        self._kita_tiles: list[int] = []
        self.tenpai: list[bool] = []
        self.events: list[dict[str, Any]] = []
        self.any_call: bool = False
        self.second_draw: bool = False  # some player has drawn a second time
        self.kan_makers: list[int] = []
        # bumped wherever a steady round fact may change (``engine.round.facts.STEADY_FACTS``): the first go-around
        # ends, a call, a kan, a riichi stick
        self.steady_changes = 0
        # (steady_changes, seat or None) under which no abortive item held after a discard (``_abortive_after``)
        self._quiet: tuple[int, int | None] | None = None
        # the same for the abortive draws a player may declare on his turn (``legal._player_choice_draws``)
        self.choice_quiet: tuple[int, int | None] | None = None
        self.pending_dora = 0
        self.finished = False
        self.settlement: dict[str, Any] | None = None
        self.actor = setup.dealer
        self.phase = "own"
        self.drawn: int | None = None
        self.rinshan = False
        self.replacement = False
        self.after_call = False
        self.reach_pending = False
        self.reach_open = False  # the pending riichi is an open one (read only while ``reach_pending``)
        self.kuikae_forbidden: frozenset[int] = frozenset()
        self.tsumo_result: dict[str, Any] | None = None
        # the seats asked to answer and what each may answer; None: calls only, built on first ask (``legal_actions``)
        self.pending: dict[int, tuple[Action, ...] | None] = {}
        self.answers: dict[int, Action] = {}
        self.window: tuple[str, int, int] | None = None  # (event, tile, source) of an open response window
        self.pending_kan: Action | None = None
        self._ron_cache: dict[tuple, dict[str, Any] | None] = {}
        self._own_cache: tuple[Action, ...] | None = None
        self._deal(wall)

    # ---- setup ---------------------------------------------------------------------------------------------------
    def _deal(self, wall: Wall | None) -> None:
        r = self.rules
        tiles = self._wall_tiles
        for k in range(r.players):
            s = self.seats[(self.setup.dealer + k) % r.players]
            dealt = tiles[13 * k : 13 * (k + 1)]
            s.hand.extend(dealt)  # ``Seat.add`` of each tile, written in place for the 13 of a deal
            counts = s.counts
            for code in dealt:
                counts[KIND_OF[code]] += 1
        for s in self.seats:
            s.rest(self.kinds)
        self.events.append(
            {
                "type": "start_kyoku",
                "bakaze": self.setup.round_wind,
                "kyoku": self.setup.dealer + 1,
                "honba": self.setup.honba,
                "kyotaku": self.sticks,
                "oya": self.setup.dealer,
                "dora_marker": NAME[self.wall.dora_indicators()[0]],
                "scores": list(self.scores),
                "tehais": [format_hand(s.hand) for s in self.seats],
            }
        )
        self._draw(self.setup.dealer)

    @property
    def _wall_tiles(self) -> tuple[int, ...]:
        return self._tiles

    # ---- public API ----------------------------------------------------------------------------------------------
    def waiting(self) -> tuple[int, ...]:
        """Seats whose decision the round waits for (empty once finished)."""
        if self.finished:
            return ()
        if self.phase == "own":
            return (self.actor,)
        return tuple(s for s in self.pending if s not in self.answers)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every move ``seat`` may make now; empty when it has nothing to decide."""
        seat = self._seat(seat)
        if self.finished:
            return ()
        if self.phase == "own":
            if seat != self.actor:
                return ()
            if self._own_cache is None:
                self._own_cache = legal.own_turn(self, seat)
            return self._own_cache
        if seat in self.answers:
            return ()
        options = self.pending.get(seat, ())
        if options is None:  # a seat that may only call: its calls are built now, the first time they are asked
            assert self.window is not None
            _event, tile, source = self.window
            options = self.pending[seat] = legal.responses(self, seat, tile, source, "dahai")
        return options

    def is_legal(self, seat: int, action: Action) -> bool:
        """``action in legal_actions(seat)``, without building the whole list for a plain discard (``legal.is_legal``):
        checking a logged or chosen move is one question, not the enumeration of every option."""
        if not isinstance(action, Action) or shape_problem(action, len(self.seats)) is not None:
            return False
        return legal.is_legal(self, seat, action)

    def _offered(self, actor: object) -> tuple[Action, ...] | None:
        """The options already built for a responding seat (None for any other key, even an unhashable one)."""
        try:
            return self.pending.get(actor)  # type: ignore[call-overload]
        except TypeError:
            return None

    def _seat(self, seat: object) -> int:
        """``seat`` when it is a seat of this table; ``IllegalAction`` naming the range otherwise."""
        if type(seat) is int and 0 <= seat < len(self.seats):  # the common case, asked at every move: no call
            return seat
        problem = seat_problem(seat, len(self.seats))
        if problem is not None:
            raise IllegalAction(problem)
        return seat  # type: ignore[return-value]

    def apply(self, action: Action) -> None:
        """Check ``action`` against the legal moves, then play it; an illegal one raises ``IllegalAction`` and
        changes nothing."""
        if not isinstance(action, Action):
            raise IllegalAction("an action must be an engine.round.Action")
        offered = self._own_cache if self.phase == "own" else self._offered(action.actor)
        for option in offered or ():  # an agent passes one of the objects it was offered: identity first, it is cheap
            if option is action and (self.phase == "own" or action.actor not in self.answers):
                break
        else:
            problem = shape_problem(action, len(self.seats))
            if problem is not None:  # a hand-built action with a code out of range: refused before any rule looks
                raise IllegalAction(f"`{action.type!s:.20}` refused: {problem}")
            refused = legal.refusal(self, action.actor, action)
            if refused is not None:  # the rule that decided, in its own words, with its clause
                raise IllegalAction(f"`{action}` refused: {refused}")
        self._own_cache = None
        if self.phase in ("respond", "declare"):
            self.answers[action.actor] = action
            if len(self.answers) == len(self.pending):
                if self.phase == "declare":
                    self._end_exhaustive()
                else:
                    self._resolve()
            return
        if action.type == "dahai":  # most moves: called without building the handler's name
            self._own_dahai(action)
            return
        handler = getattr(self, "_own_" + action.type)
        handler(action)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, every seat's discards, melds, riichi and kita, the indicators,
        scores and the counters on the table."""
        seat = self._seat(seat)
        return {
            "seat": seat,
            "round_wind": self.setup.round_wind,
            "dealer": self.setup.dealer,
            "honba": self.setup.honba,
            "sticks": self.sticks,
            "scores": list(self.scores),
            "dora_indicators": T.format_tiles(self.wall.dora_indicators(), sort=False),
            "wall_remaining": self.wall.remaining,
            "hand": T.format_tiles(self.seats[seat].hand),
            "drawn": T.format_tiles([self.drawn]) if self.drawn is not None and self.actor == seat else None,
            "discards": [T.format_tiles(s.discards, sort=False) for s in self.seats],
            "melds": [[{"type": m.type, "tiles": T.format_tiles(m.tiles), "from": m.source} for m in s.melds] for s in self.seats],
            "riichi": [s.riichi for s in self.seats],
            "kita": [s.kita for s in self.seats],
            "legal_actions": [a.to_json() for a in self.legal_actions(seat)],
            # `settings riichi open_riichi`: the hand of each open riichi is shown to everybody
            **({"open_hands": [T.format_tiles(s.hand) if s.open_riichi else None for s in self.seats]} if self.rules.open_riichi else {}),
        }

    def facts(self, seat: int | None = None, ron_count: int = 0, completing_call: str = "") -> dict[str, Any]:
        """The round facts of the rule language now (``engine.round.facts``)."""
        if seat is not None:
            seat = self._seat(seat)
        return round_facts(self, seat, ron_count, completing_call)

    def tiles_in_play(self) -> list[int]:
        """Every tile of the set where it is now (hands, melds, discards still held, kita, wall): for conservation."""
        out = list(self.wall.unseen())
        for s in self.seats:
            out += s.hand
            for m in s.melds:
                tiles = list(m.tiles)
                if m.source is not None and m.called is not None:
                    tiles.remove(m.called)  # the called tile is counted among the discards it came from
                out += tiles
            out += s.discards
        out += self._kita_tiles
        return out

    # ---- draws ---------------------------------------------------------------------------------------------------
    def _draw(self, seat: int, replacement: bool = False, rinshan: bool = False) -> None:
        s = self.seats[seat]
        if replacement:
            tile = self.wall.replacement()
        else:
            tile = self.wall.draw()
            s.draws += 1
            if s.draws == 2 and not self.second_draw:
                self.second_draw = True  # the first go-around is over
                self.steady_changes += 1
        if self._release_on_draw:  # a replacement draw is the player's own draw too
            s.furiten_temporary = False
        self.events.append({"type": "tsumo", "actor": seat, "pai": NAME[tile]})
        waits = s.waits
        s.add(tile)
        self._begin_turn(seat, tile, rinshan=rinshan, replacement=replacement)
        if KIND_OF[tile] in waits:
            self.tsumo_result = self._score(seat, tile, seat, "tsumo")

    def _begin_turn(
        self, seat: int, drawn: int | None, *, rinshan: bool = False, replacement: bool = False, kuikae: frozenset[int] | None = None
    ) -> None:
        """``seat`` is to move: after a draw (``drawn``), or after a chi or pon (``kuikae``: the kinds it may not
        discard now). Every field of the turn is set here, for both, so that a draw and a call cannot drift apart.
        After a call the response window is closed and no riichi waits for its discard, as after a draw; the
        replacement flag is read only for a tsumo, which a call never is."""
        self.actor = seat
        self.phase = "own"
        self.drawn = drawn
        self.rinshan = rinshan
        self.replacement = replacement
        self.after_call = kuikae is not None
        self.reach_pending = False
        self.kuikae_forbidden = kuikae if kuikae is not None else frozenset()
        self.pending = {}
        self.answers = {}
        self.window = None
        self._own_cache = None
        self.tsumo_result = None

    # ---- scoring -------------------------------------------------------------------------------------------------
    def seat_wind(self, seat: int) -> str:
        return WINDS[(seat - self.setup.dealer) % self.rules.players]

    def _score(
        self, seat: int, tile: int, source: int, event: str, honba: int | None = None, sticks: int | None = None, explain: bool = False
    ) -> dict[str, Any] | None:
        """The scorer's answer for ``seat`` winning on ``tile``, or None when it is no win (no yaku); ``explain``
        raises the scorer's refusal instead, whose message names the rule (a refused ``hora`` quotes it)."""
        s = self.seats[seat]
        r = self.rules
        tsumo = source == seat
        concealed = s.hand if tsumo else [*s.hand, tile]
        first = not self.any_call
        dealer = seat == self.setup.dealer
        situation = Situation(
            tsumo=tsumo,
            seat_wind=self.seat_wind(seat),
            round_wind=self.setup.round_wind,
            riichi=s.riichi,
            double_riichi=s.double_riichi,
            ippatsu=s.ippatsu and s.riichi,
            haitei=tsumo and not self.replacement and self.wall.remaining == 0,
            houtei=not tsumo and event == "dahai" and self.wall.remaining == 0,
            rinshan=tsumo and self.rinshan,
            chankan=event == "kakan" or event == "ankan",
            tenhou=tsumo and dealer and first and s.draws == 1 and not s.discards,
            chiihou=tsumo and not dealer and first and s.draws == 1 and not s.discards,
            renhou=not tsumo and not dealer and first and s.draws == 0 and event == "dahai",
            open_riichi=s.riichi and s.open_riichi,
            discarder_in_riichi=not tsumo and self.seats[source].riichi,
            kita=s.kita,
            honba=self.setup.honba if honba is None else honba,
            riichi_sticks=self.sticks if sticks is None else sticks,
            dealer_consecutive_wins=self.setup.dealer_consecutive_wins,
        )
        ura = self.wall.ura_indicators() if s.riichi and r.ura_dora else ()
        try:
            hand = r.scorer.hand(list(concealed), win=tile, melds=[(m.type, m.tiles) for m in s.melds])
            result = r.scorer.score_hand(hand, situation, dora=self.wall.dora_indicators(), ura=ura)
        except (NoYaku, NotAWin):
            if explain:
                raise
            return None
        result["__honba__"] = situation.honba
        result["__sticks__"] = situation.riichi_sticks
        if s.riichi and r.ura_dora:
            result["ura_indicators"] = T.format_tiles(ura, sort=False)
        return result

    def ron_result(self, seat: int, tile: int, source: int, event: str) -> dict[str, Any] | None:
        key = (seat, tile, source, event, len(self.events))
        if key not in self._ron_cache:
            if len(self._ron_cache) > 64:
                self._ron_cache.clear()
            self._ron_cache[key] = self._score(seat, tile, source, event)
        return self._ron_cache[key]

    # ---- own-turn moves --------------------------------------------------------------------------------------------
    def _own_dahai(self, a: Action) -> None:
        seat, tile = a.actor, a.pai
        assert tile is not None
        s = self.seats[seat]
        s.remove(tile)
        s.discards.append(tile)
        s.discard_kinds.add(KIND_OF[tile])
        if self._release_on_discard:  # the player's own discard, the one after his chi or pon included
            s.furiten_temporary = False
        if s.riichi:
            s.ippatsu = False
        if self.reach_pending:
            s.riichi_declared = True
            s.double_riichi = len(s.discards) == 1 and not self.any_call
            s.open_riichi = self.reach_open
        # after a live draw the hand changed by one tile in and one out since its last rest: shanten fell by one
        # at most (a call or a kan's replacement draw: counted afresh). A tile of the drawn kind let go again
        # leaves the very counts and melds of that rest (nothing else changes a hand between its rest and its
        # live draw), where ``rest`` keeps what it found: a third of all discards, every turn of a riichi
        drawn = self.drawn
        if drawn is None or self.replacement or KIND_OF[drawn] != KIND_OF[tile]:
            s.rest(self.kinds, s.shanten - 1 if drawn is not None and not self.replacement else -1)
        self.reach_pending = False
        self.after_call = False
        self.drawn = None
        while self.pending_dora:  # an open or added kan's indicator comes with this discard, written before it
            self._reveal()
            self.pending_dora -= 1
        self.events.append({"type": "dahai", "actor": seat, "pai": NAME[tile], "tsumogiri": a.tsumogiri})
        self._open_window("dahai", tile, seat)

    def _own_reach(self, a: Action) -> None:
        self.reach_pending = True
        self.reach_open = a.open
        self.events.append({"type": "reach", "actor": a.actor, "open": True} if a.open else {"type": "reach", "actor": a.actor})

    def _own_hora(self, a: Action) -> None:
        assert self.tsumo_result is not None
        self._end_wins([WinClaim(a.actor, a.actor, a.pai, self.tsumo_result)])  # type: ignore[arg-type]

    def _own_ryukyoku(self, a: Action) -> None:
        env = self.facts(a.actor)
        for item, when in self.rules.abortives_at.get("player_choice", ()):
            if when(env):
                self._end_abortive(item)
                return

    def _own_ankan(self, a: Action) -> None:
        seat = a.actor
        s = self.seats[seat]
        for c in a.consumed:
            s.remove(c)
        s.melds.append(MeldRecord("ankan", a.consumed))
        self.events.append({"type": "ankan", "actor": seat, "consumed": [NAME[c] for c in a.consumed]})
        self._release_on_call(seat)
        self._kan_declared(seat)
        s.rest(self.kinds)
        self.pending_kan = a
        self._open_window("ankan", a.pai, seat)  # type: ignore[arg-type]

    def _own_kakan(self, a: Action) -> None:
        seat, tile = a.actor, a.pai
        assert tile is not None
        s = self.seats[seat]
        s.remove(tile)
        for i, m in enumerate(s.melds):
            if m.type == "pon" and m.tiles == a.consumed:
                s.melds[i] = MeldRecord("kakan", tuple(sorted((*m.tiles, tile), key=lambda c: (T.kind_of(c), c < T.RED_BASE))), m.called, m.source)
                break
        self.events.append({"type": "kakan", "actor": seat, "pai": NAME[tile], "consumed": [NAME[c] for c in a.consumed]})
        self._release_on_call(seat)
        self._kan_declared(seat)
        s.rest(self.kinds)
        self.pending_kan = a
        self._open_window("kakan", tile, seat)

    def _own_nukidora(self, a: Action) -> None:
        seat, tile = a.actor, a.pai
        assert tile is not None
        s = self.seats[seat]
        s.remove(tile)
        s.kita += 1
        self._kita_tiles.append(tile)
        s.rest(self.kinds)
        self.events.append({"type": "nukidora", "actor": seat, "pai": NAME[tile]})
        if self.rules.kita_interrupts:
            self._break_first_turn()
        self.pending_kan = a
        if self.rules.kita_ron != "nobody":
            self._open_window("kita", tile, seat)
        else:
            self._after_window()

    def _release_on_call(self, seat: int) -> None:
        """A chi, pon or kan by ``seat`` ends same-turn furiten: the caller's own by `call`, every player's by
        `any_call` (a closed or added kan too). It runs before the kan's robbing window, so a hand that then lets
        the robbing tile pass is furiten again."""
        if self._release_on_any_call:
            for other in self.seats:
                other.furiten_temporary = False
        elif self._release_on_own_call:
            self.seats[seat].furiten_temporary = False

    def _kan_declared(self, seat: int) -> None:
        """A closed or added kan is counted at once; an earlier open kan's indicator, the interruption of the first
        go-around and of ippatsu wait until nobody robbed it (``_after_window``): a robbed kan never happened."""
        self.kan_makers.append(seat)
        self.steady_changes += 1

    def _break_first_turn(self) -> None:
        self.any_call = True
        self.steady_changes += 1
        for s in self.seats:
            s.ippatsu = False

    def _reveal(self) -> None:
        code = self.wall.reveal()
        self.events.append({"type": "dora", "dora_marker": NAME[code]})

    # ---- answers -------------------------------------------------------------------------------------------------
    def _open_window(self, event: str, tile: int, source: int) -> None:
        """Ask every other seat what it answers to ``tile``; with nobody to ask the tile passes at once."""
        self.window = (event, tile, source)
        self.pending = {}
        self.answers = {}
        kind = KIND_OF[tile]
        left = (source + 1) % self.rules.players
        chi = self.rules.chi and kind < 27  # no chi of an honour (``legal.chi_near`` says so too)
        dahai = event == "dahai"
        seats = self.seats
        pending = self.pending
        for seat in self._orders[source]:
            s = seats[seat]
            if kind not in s.waits:
                if not dahai or s.riichi:
                    continue  # no ron, and no call of a kan or North, nor in riichi: nothing to offer
                counts = s.counts
                if counts[kind] < 2 and (seat != left or not chi or not legal.chi_near(counts, kind)):
                    continue  # cannot call either: ``legal.responses`` would offer nothing, asked or not
                # no ron: whether a call is offered is known without building the calls, and most seats asked pass
                callable_now = legal.may_call(self, seat, tile, source)
                if callable_now is not None:
                    if callable_now:
                        pending[seat] = None
                    continue
            options = legal.responses(self, seat, tile, source, event)
            if options:
                pending[seat] = options
        if self.pending:
            self.phase = "respond"
        elif event == "dahai":
            self._passed_unasked(kind, source)
        else:
            self._resolve()

    def _passed_unasked(self, kind: int, source: int) -> None:
        """A discard nobody could answer passed: what ``_resolve`` does with no answers (a passed winning tile
        makes its hand furiten, a riichi stands, then the abortive checks and the next draw), without building the
        lists of rons and calls nobody made. Most discards go this way."""
        seats = self.seats
        for seat in self._orders[source]:
            s = seats[seat]
            if kind in s.waits:
                s.furiten_temporary = True
                if s.riichi:
                    s.furiten_riichi = True
        self.phase = "own"
        if seats[source].riichi_declared:
            self._establish_riichi(source)
        self._discard_passed(source)

    def _resolve(self) -> None:
        assert self.window is not None
        event, tile, source = self.window
        order = self._orders[source]
        answers = self.answers
        rons = [seat for seat in order if seat in answers and answers[seat].type == "hora"] if answers else []
        kind = KIND_OF[tile]
        robbable = event in ("dahai", "kakan")  # a closed kan or a North: only the hands that could rob it
        for seat in order:  # a passed winning tile: temporary furiten, and for good in riichi
            s = self.seats[seat]
            if seat not in rons and kind in s.waits and (robbable or any(a.type == "hora" for a in self.pending.get(seat) or ())):
                s.furiten_temporary = True
                if s.riichi:
                    s.furiten_riichi = True
        self.pending = {}
        self.phase = "own"
        if rons:
            env = self.facts(source, ron_count=len(rons))
            for item, when in self.rules.abortives_at.get("immediately", ()):
                if when(env):
                    self._end_abortive(item)
                    return
            if len(rons) >= 3 and self.rules.triple_ron == "abort":
                self._end_abortive(None)
                return
            winners = rons[: self.rules.multiple_ron]
            claims = [WinClaim(w, source, tile, self.ron_result(w, tile, source, event) or {}, chankan=event in ("kakan", "ankan")) for w in winners]
            self._end_wins(claims)
            return
        calls = [a for a in answers.values() if a.type in _CALL_WORD] if answers else []
        self.answers = {}
        if event == "dahai":
            self._establish_riichi(source)
            if calls:
                prec = self.rules.precedence
                calls.sort(key=lambda a: prec.index(_CALL_WORD[a.type]) if _CALL_WORD[a.type] in prec else len(prec))
                self._call(calls[0])
            else:
                self._discard_passed(source)
            return
        self._after_window()

    def _establish_riichi(self, seat: int) -> None:
        s = self.seats[seat]
        if s.riichi_declared and not s.riichi:
            s.riichi = True
            s.ippatsu = True
            deposit = self.rules.riichi_deposit
            self.scores[seat] -= deposit
            self.deposits[seat] += deposit
            self.sticks += 1
            self.steady_changes += 1
            deltas = [0] * self.rules.players
            deltas[seat] = -deposit
            self.events.append({"type": "reach_accepted", "actor": seat, "deltas": deltas, "scores": list(self.scores)})

    def _discard_passed(self, source: int) -> None:
        quiet = self._quiet  # ``_abortive_after``'s shortcut, tested here first: most discards need no more
        if quiet is None or quiet[0] != self.steady_changes or (quiet[1] is not None and quiet[1] != source):
            item = self._abortive_after(source)
            if item is not None:
                self._end_abortive(item)
                return
        if self.wall.remaining == 0:
            self._exhaustive()
            return
        self._draw((source + 1) % self.rules.players)

    def _abortive_after(self, source: int) -> Any:
        """The first abortive item (`at = "discard_passed"`) that holds now ``source``'s discard passed, or None.

        They are asked after every discard and nearly always hold not. When the last check read only steady facts
        (``engine.round.facts.steady_key``) and none changed since, the answer is still None and the conditions
        are not evaluated again; the ron count and completing call they are given are the same at this moment."""
        items = self.rules.abortives_at.get("discard_passed", ())
        if not items:
            self._quiet = (self.steady_changes, None)  # nothing to check, ever: the shortcut holds
            return None
        quiet = self._quiet
        if quiet is not None and quiet[0] == self.steady_changes and (quiet[1] is None or quiet[1] == source):
            return None
        env = round_facts(self, source)
        for item, when in items:
            if when(env):
                return item
        self._quiet = steady_key(env)
        return None

    def _after_window(self) -> None:
        """A kan or a set-aside North nobody robbed: its indicator (by ``calls kan_dora``), then the replacement."""
        a = self.pending_kan
        assert a is not None
        self.pending_kan = None
        if a.type != "nukidora":
            self._break_first_turn()
            while self.pending_dora:  # an earlier open kan's indicator comes before this kan's
                self._reveal()
                self.pending_dora -= 1
        if a.type == "ankan" or (a.type == "kakan" and self.rules.kan_dora == "immediately"):
            self._reveal()
        elif a.type == "kakan":
            self.pending_dora += 1
        self._draw(a.actor, replacement=True, rinshan=a.type != "nukidora" or self.rules.kita_rinshan)

    def _call(self, a: Action) -> None:
        seat, tile, source = a.actor, a.pai, a.target
        assert tile is not None and source is not None
        s = self.seats[seat]
        for c in a.consumed:
            s.remove(c)
        meld = MeldRecord(a.type, tuple(sorted((*a.consumed, tile), key=lambda c: (T.kind_of(c), c < T.RED_BASE))), tile, source)
        s.melds.append(meld)
        s.made_calls = True
        self.seats[source].discards_called = True
        self.steady_changes += 1
        self._release_on_call(seat)
        self._break_first_turn()
        self.events.append({"type": a.type, "actor": seat, "target": source, "pai": NAME[tile], "consumed": [NAME[c] for c in a.consumed]})
        if a.type == "daiminkan":
            self.kan_makers.append(seat)
            if self.rules.kan_dora == "immediately":
                self._reveal()
            else:
                self.pending_dora += 1
            self._draw(seat, replacement=True, rinshan=True)
            return
        self._begin_turn(seat, None, kuikae=legal.kuikae_forbidden(self.rules.kuikae, tile, a.consumed, a.type))

    # ---- endings ---------------------------------------------------------------------------------------------------
    def _finish(self, kind: str, deltas: list[int], counters: dict[str, Any], abortive: str | None, wins: list[dict[str, Any]], clauses: list[str], extra: dict[str, Any] | None = None) -> None:
        for seat, d in enumerate(deltas):
            self.scores[seat] += d
        total = [deltas[i] - self.deposits[i] for i in range(len(deltas))]
        self.finished = True
        self.phase = "finished"
        self.pending = {}
        self.settlement = {
            "kind": kind,
            "abortive": abortive,
            "wins": wins,
            "deltas": total,
            **counters,
            "scores": list(self.scores),
            "clauses": clauses,
            **(extra or {}),
        }
        self.events.append({"type": "end_kyoku"})

    def _end_wins(self, claims: list[WinClaim]) -> None:
        r = self.rules
        players = r.players
        deltas = [0] * players
        wins = []
        clauses: list[str] = []
        nearest = claims[0].seat
        for claim in claims:
            honba_here = self.setup.honba if (r.honba_to == "each" or claim.seat == nearest) else 0
            sticks_here = self._sticks_share(claims, claim.seat)
            result = claim.result
            if result.get("__honba__") != honba_here or result.get("__sticks__") != sticks_here:
                result = self._score(claim.seat, claim.tile, claim.source, "kakan" if claim.chankan else "dahai", honba=honba_here, sticks=sticks_here) or result
                claim = WinClaim(claim.seat, claim.source, claim.tile, result, claim.chankan)
            d, cl = win_deltas(self, claim)
            clauses += cl
            for i in range(players):
                deltas[i] += d[i]
            deltas[claim.seat] += sticks_here * r.riichi_deposit
            public = {k: v for k, v in result.items() if not k.startswith("__")}
            wins.append({**public, "seat": claim.seat, "from": claim.source, "win_tile": T.format_tiles([claim.tile]), "deltas": d})
            self.events.append({"type": "hora", "actor": claim.seat, "target": claim.source, "pai": NAME[claim.tile], "deltas": d, "ura_markers": result.get("ura_indicators", "")})
        dealer_won = any(c.seat == self.setup.dealer for c in claims)
        tags = {"dealer_win"} if dealer_won else {"non_dealer_win"}
        counters = next_counters(self, tags, None, 0)
        self._finish("win", deltas, counters, None, wins, clauses)

    def _sticks_share(self, claims: list[WinClaim], seat: int) -> int:
        """Riichi sticks this winner takes (``win sticks_to``): all to the nearest, or split evenly."""
        nearest = claims[0].seat
        if self.rules.sticks_to == "split":
            each, extra = divmod(self.sticks, len(claims))
            return each + (extra if seat == nearest else 0)
        return self.sticks if seat == nearest else 0

    def _end_abortive(self, item: Any) -> None:
        env = self.facts(self.actor)
        deltas = [0] * self.rules.players
        kept = self.sticks
        if item is not None and field(item, "sticks", env, "stay") == "return":
            for seat, paid in enumerate(self.deposits):
                deltas[seat] += paid
                kept -= paid // self.rules.riichi_deposit if self.rules.riichi_deposit else 0
        name = item.name if item is not None else None
        self.events.append({"type": "ryukyoku", "reason": name or "triple_ron", "deltas": deltas})
        counters = next_counters(self, {"abortive"}, item, kept)
        self._finish("abortive", deltas, counters, name, [], [item.clause or item.name] if item is not None else [])

    def _exhaustive(self) -> None:
        """The live wall is empty and the last discard passed: tenpai, nagashi and noten payments."""
        r = self.rules
        tenpai = [self._tenpai_at_draw(s) for s in self.seats]
        self.tenpai = tenpai
        if r.voluntary_noten:
            self.pending = {i: (Action("tenpai", i), Action("noten", i)) for i, s in enumerate(self.seats) if tenpai[i] and not s.riichi}
            self.answers = {}
            if self.pending:
                self.phase = "declare"
                return
        self._end_exhaustive()

    def _tenpai_at_draw(self, s: Seat) -> bool:
        return is_tenpai(self.rules.karaten, s.counts, s.melds, s.waits)

    def _end_exhaustive(self) -> None:
        r = self.rules
        players = r.players
        tenpai = list(self.tenpai)
        for seat, a in self.answers.items():
            if a.type == "noten":
                tenpai[seat] = False
        self.pending = {}
        deltas = [0] * players
        clauses: list[str] = []
        nagashi: list[tuple[int, Any]] = []
        for item in r.draws:
            if "pays_as" not in item.fields:
                continue
            for seat in range(players):
                if item.when(self.facts(seat)):
                    nagashi.append((seat, item))
        dealer = self.setup.dealer
        for seat, item in nagashi:
            env = self.facts(seat)
            honba = self.setup.honba if field(item, "honba_bonus", env, False) else 0
            paid = r.scorer.pay_tier(field(item, "pays_as", env), dealer=seat == dealer, honba=honba)["payments"]
            for other in range(players):
                if other != seat:
                    amount = paid.get("dealer" if other == dealer else "non_dealer", 0)
                    deltas[other] -= amount
                    deltas[seat] += amount
            clauses.append(item.clause or item.name)
        noten_ok = all(field(item, "noten_payments", self.facts(seat), False) for seat, item in nagashi)
        if noten_ok:
            for item in r.draws:
                if "total" not in item.fields or not item.when(self.facts(dealer)):
                    continue
                k = sum(tenpai)
                if 0 < k < players:
                    total = field(item, "total", self.facts(dealer), 0)
                    pay = total // (players - k)
                    pot = pay * (players - k)
                    gains = [pot // k + (1 if i < pot % k else 0) for i in range(k)]
                    winners = [i for i in range(players) if tenpai[i]]
                    for i in range(players):
                        if not tenpai[i]:
                            deltas[i] -= pay
                    for i, g in zip(winners, gains, strict=True):
                        deltas[i] += g
                    clauses.append(item.clause or item.name)
        tags = {"exhaustive", "dealer_tenpai" if tenpai[dealer] else "dealer_noten"}
        counters = next_counters(self, tags, None, self.sticks)
        makers = {seat for seat, _ in nagashi}
        for seat, item in nagashi:
            cont = field(item, "dealer_continues", self.facts(seat), None)
            if cont == "if_dealer_nagashi":  # the tenpai hands are not shown: the dealer stays if he made it himself
                cont = "always" if dealer in makers else "never"
            if cont in ("always", "never"):
                counters["renchan"] = cont == "always"
                counters["dealer_next"] = dealer if cont == "always" else (dealer + 1) % players
        self.events.append({"type": "ryukyoku", "reason": "exhaustive", "tenpais": tenpai, "deltas": deltas})
        self._finish("exhaustive", deltas, counters, None, [], clauses, {"tenpai": tenpai, "nagashi": [seat for seat, _ in nagashi]})
