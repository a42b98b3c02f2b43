"""One hand of riichi as a deterministic state machine, from the deal to its settlement.

The round draws, waits for the seats it needs (``waiting``), offers each its legal moves (``legal_actions``),
applies a chosen one after checking it (``apply``), records mjai-style events, and settles the hand. Every rule
choice is read from ``RoundRules`` (the rulebook); scoring goes through the rulebook's ``Scorer``.

``Round`` is the state of the hand (``RoundState``, every field declared in ``engine.round.state``) with its
public API; the behaviour lives in sibling modules, as functions over that state: ``legal`` (what a seat may do,
and why not), ``turns`` (deal, draws, discards), ``calls`` (the answers to a tile given up), ``riichi``, ``kans``,
``scoring`` (a win's value), ``endings`` (the settlement of wins and draws) and ``events`` (how events name
tiles).
"""

from __future__ import annotations

from typing import Any

from engine.core import tiles as T
from engine.core.errors import EngineError, InvalidRequest
from engine.core.situation import WINDS
from engine.round import calls, endings, kans, legal, riichi, turns
from engine.round.actions import Action, seat_problem, shape_problem
from engine.round.events import write
from engine.round.facts import FRESH_KEY, round_facts
from engine.round.rules import RoundRules, round_rules
from engine.round.state import RoundState, Seat
from engine.round.wall import Wall, WallState
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
        """Refuse a setup a round cannot start from. Nearly every setup is exact ints, a tuple of them, a bool
        and a wind: those are let through by type alone (``_refuse`` accepts each of them too); any other goes
        through ``_refuse``, which words the first problem (``tests/round/test_round_setup.py`` compares the two)."""
        if (
            type(self.dealer) is int and type(self.honba) is int and type(self.sticks) is int
            and type(self.dealer_consecutive_wins) is int and type(self.first_round) is bool
            and type(self.scores) is tuple and _INT_ONLY.issuperset(map(type, self.scores))
            and type(self.round_wind) is str and self.round_wind in WINDS
            and self.honba >= 0 and self.sticks >= 0 and self.dealer_consecutive_wins >= 0
        ):
            return
        self._refuse()

    def _refuse(self) -> None:
        """Every check of a setup, in order: the first that fails raises ``InvalidRequest`` naming the field."""
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


_INT_ONLY = frozenset({int})  # the type of every score of a setup that needs no closer look


class Round(RoundState):
    """One hand. ``Round(rules, setup, wall)``; with no wall, one shuffled from ``seed``.

    The state is ``RoundState``'s, every field declared there; this class adds the public API."""

    __slots__ = ()

    def __init__(
        self, rules: RoundRules | Any, setup: RoundSetup | None = None, wall: Wall | None = None, seed: int | str | None = None,
        *, _wall_checked: bool = False,
    ) -> None:
        """``_wall_checked`` is the replay driver's alone (private: a caller who passed it with any other wall would
        get a round from a wall that is not the rulebook's set, where every other caller gets a refusal): the driver
        built ``wall`` placing each tile of the set at most once (``engine.replay.through_round.wall_of``), so a wall
        of the set's size is the set and its tiles are not sorted and compared with it again."""
        self.rules = r = round_rules(rules)
        setup = setup or RoundSetup()
        self.setup = setup
        players = r.players
        if not 0 <= setup.dealer < players:
            raise InvalidRequest(f"`dealer` must be a seat from 0 to {players - 1}")
        scores = setup.scores or (r.rulebook.setting("table", "start_points"),) * players
        if len(scores) != players:
            raise InvalidRequest(f"`scores` needs one entry per player ({players})")
        self.kinds = r.kind_set
        self.scores = list(scores)
        self.start_scores = tuple(scores)
        self.sticks = setup.sticks
        self.deposits = [0] * players
        wall = wall if wall is not None else Wall.shuffled(r, seed)
        self.wall = WallState(wall, r, checked=_wall_checked)
        self.seats = [Seat.empty() for _ in range(players)]
        self.orders = calls.orders_of(players)
        self.release_on_draw = "draw" in r.temporary_release
        self.release_on_discard = "discard" in r.temporary_release
        self.release_on_own_call = "call" in r.temporary_release
        self.release_on_any_call = "any_call" in r.temporary_release
        self.kita_tiles = []
        self.tenpai = []
        self.log = []
        self._written = []
        self.any_call = False
        self.second_draw = False
        self.kan_makers = []
        self.steady_changes = 0
        self.moved = set()
        self.quiet = FRESH_KEY
        self.choice_quiet = None
        self.pending_dora = 0
        self.finished = False
        self._settlement = None
        self.settled = None
        self.actor = setup.dealer
        self.phase = "own"
        self.drawn = None
        self.rinshan = False
        self.replacement = False
        self.after_call = False
        self.reach_pending = False
        self.reach_open = False
        self.kuikae_forbidden = frozenset()
        self.tsumo_result = None
        self.pending = {}
        self.answers = {}
        self.window = None
        self.pending_kan = None
        self.ron_cache = {}
        self.own_cache = None
        turns.deal(self, wall)

    # ---- public API ----------------------------------------------------------------------------------------------
    @property
    def events(self) -> list[dict[str, Any]]:
        """The round's events as mjai-style dicts (``engine.round.events.write``: mjai's fields, tiles in mpsz),
        each written once, when first read; ``log`` holds them typed."""
        written, log = self._written, self.log
        if len(written) < len(log):
            written.extend([write(e) for e in log[len(written) :]])
        return written

    def waiting(self) -> tuple[int, ...]:
        """Seats whose decision the round waits for (empty once finished)."""
        if self.finished:
            return ()
        if self.phase == "own":
            return (self.actor,)
        return tuple(s for s in self.pending if s not in self.answers)

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every move ``seat`` may make now; empty when it has nothing to decide."""
        if type(seat) is not int or not 0 <= seat < len(self.seats):  # ``_seat``'s common case, asked without a call
            seat = self._seat(seat)
        if self.finished:
            return ()
        if self.phase == "own":
            if seat != self.actor:
                return ()
            if self.own_cache is None:
                self.own_cache = legal.own_turn(self, seat)
            return self.own_cache
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
        if self.phase == "own" and self.own_cache is None and action.type == "dahai" and id(action) in legal.BUILT_MOVES:
            # a discard ``legal`` built (a replay's logged discard) with no listing made this turn: the one question
            # ``is_legal`` asks of it, written for the discard after a draw (``legal.own_discard_ok``), then the
            # discard itself, as below
            if legal.own_discard_ok(self, action):
                turns.own_dahai(self, action)
                return
            raise IllegalAction(f"`{action}` refused: {legal.refusal(self, action.actor, action)}")
        offered = self.own_cache if self.phase == "own" else self._offered(action.actor)
        if offered is None and id(action) in legal.BUILT_MOVES and legal.is_legal(self, action.actor, action):
            pass  # a discard or pass that ``legal`` built (``built_move``: a replay's logged move): well-typed, ``is_legal`` decides
        else:
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
        self.own_cache = None
        if self.phase in ("respond", "declare"):
            self.answers[action.actor] = action
            if len(self.answers) == len(self.pending):
                if self.phase == "declare":
                    endings.end_exhaustive(self)
                else:
                    calls.resolve(self)
            return
        if action.type == "dahai":  # most moves: no table look-up
            turns.own_dahai(self, action)
            return
        _OWN_MOVES[action.type](self, action)

    def pass_waiting(self) -> int:
        """Every seat still asked about a tile given up passes, in seat order: what ``apply`` of each seat's pass
        does, one pass after the other (a pass is offered to every seat asked, beside its other answers), with the
        window resolved once when the last has answered. A replay plays these between a discard and the log's next
        event (logs write no passes). Returns the passes played; none outside a response window."""
        if self.finished or self.phase != "respond":
            return 0
        answers = self.answers
        window = self.window
        if not answers and window is not None and window[0] == "dahai":
            # nobody has answered the discard yet (nearly every window a replay passes): passes alone make no ron
            # and no call, so ``resolve`` comes down to what a discard nobody was asked about does
            passes = len(self.pending)
            self.own_cache = None
            self.pending = {}
            calls.passed_unasked(self, T.KIND_OF[window[1]], window[2])
            return passes
        asked = sorted(seat for seat in self.pending if seat not in answers)
        for seat in asked:
            answers[seat] = legal.pass_action(seat)
        self.own_cache = None
        if len(answers) == len(self.pending):
            calls.resolve(self)
        return len(asked)

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
        out += self.kita_tiles
        return out


# the own-turn moves other than a discard, by action type: each played by the module of its kind
_OWN_MOVES = {
    "reach": riichi.own_reach,
    "hora": turns.own_hora,
    "ryukyoku": turns.own_ryukyoku,
    "ankan": kans.own_ankan,
    "kakan": kans.own_kakan,
    "nukidora": kans.own_nukidora,
}
