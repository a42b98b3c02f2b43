"""Replay one logged round through the round engine and say where the log and the rulebook part ways.

The log's moves are fed to ``engine.round.Round`` one by one: each must be among the round's legal actions at
that moment (the first that is not is reported with the legal ones beside it); draws, dora reveals and abortive
draws are the round's own doing, so each draw the round makes must be the one the log shows, each kan indicator
must show where the round reveals it (``engine.replay.indicators``: the rule ``calls kan_dora``) and the round must
end the way the log ends. Then the settlement is compared: outcome, point changes, each win's value, and the
counters and scores the next round starts with.

The wall of a logged round is not known in full: ``wall_of`` builds one from what the log shows (the deal, the
live draws in order, the replacement draws, the dora and ura indicators); the tiles nobody saw fill the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from operator import mul
from typing import Any

from engine.core.errors import EngineError, InvalidRequest
from engine.core.tiles import KIND_OF, format_tiles
from engine.replay.events import (
    AbortiveDraw,
    Call,
    Dahai,
    Event,
    ExhaustiveDraw,
    NewDoraIndicator,
    Reach,
    RiichiStick,
    RoundStart,
    Tsumo,
    Win,
)
from engine.replay.indicators import RULE_WORDS, misplaced
from engine.replay.positions import NOWHERE, Position
from engine.round import turns
from engine.round.actions import Action
from engine.round.events import NAME
from engine.round.legal import claim_action, dahai_action, own_discard_ok, own_move, pass_action
from engine.round.round import IllegalAction, Round, RoundSetup
from engine.round.rules import INDICATOR_PAIRS, RoundRules
from engine.round.wall import Wall, dead_wall_layout, tile_set
from ruledsl.caches import lru
from ruledsl.record import field, record

ROUND_WINDS = "ESWN"
_BY_KIND = tuple((KIND_OF[c], c) for c in range(len(KIND_OF)))  # sort key of a tile code: kind, then code
_CODES_BY_KIND = tuple(sorted(range(len(KIND_OF)), key=_BY_KIND.__getitem__))
_CODE_BYTES = tuple(bytes((code,)) for code in _CODES_BY_KIND)  # each code as one byte, in the same order
RESPONSE_CALLS = frozenset({"chi", "pon", "daiminkan"})


@record(slots=False)
class Mismatch:
    """One difference between a log and the rulebook: where (round, event index, and the place in the file once
    ``at`` is known: ``engine.replay.positions``) and what (a field, two values)."""

    round: str
    event: int | None
    what: str
    expected: Any
    got: Any
    note: str = ""
    at: Position | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"round": self.round, "event": self.event, **(self.at.to_json() if self.at is not None else NOWHERE),
               "what": self.what, "expected": self.expected, "got": self.got}
        if self.note:
            out["note"] = self.note
        return out

    def text(self) -> str:
        """The round, then the place in the file where the reader knows it (else the event index), then what."""
        place = self.at.text() if self.at is not None else ""
        if place:
            where = f"{self.round}, {place}"
        else:
            where = f"{self.round}" + (f", event {self.event}" if self.event is not None else "")
        line = f"{where}: {self.what}: the log has {_plain(self.expected)}, the rulebook gives {_plain(self.got)}"
        return line + (f" ({self.note})" if self.note else "")


def _plain(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value) if value else "nothing"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)


@record(frozen=False, slots=False)
class RoundReplay:
    """What replaying one round gave: the finished ``Round`` (when it got that far) and the mismatches."""

    label: str
    round: Round | None = None
    mismatches: list[Mismatch] = field(default_factory=list)
    actions: int = 0
    decisions: int = 0
    # the log's wins and its first draw event (``engine.replay.rounds.outcome_events`` of the body), gathered as the
    # replay went by them; None unless every event of the body was played
    outcome: tuple[list[Win], ExhaustiveDraw | AbortiveDraw | None] | None = None

    @classmethod
    def started(cls, label: str) -> RoundReplay:
        """``RoundReplay(label)``, the report of a round about to be replayed, made with its fields set directly:
        one per replayed round, where the record's ``__init__`` sets each field through ``object.__setattr__``.
        ``tests/replay/test_round_replay.py`` compares the two."""
        out = object.__new__(cls)
        out.label = label
        out.round = None
        out.mismatches = []
        out.actions = out.decisions = 0
        out.outcome = None
        return out


def wall_of(rules: RoundRules, start: RoundStart, body: Sequence[Event]) -> Wall:
    """A wall that deals the log's hands and yields the log's draws, indicators and replacement tiles.

    Layout as ``engine.round.wall`` states it: the deal from the dealer on, the live wall, then the dead wall
    (indicator pairs, then the replacement tiles). A replacement draw past the dead wall's own replacement tiles
    takes the tile that an earlier replacement moved in from the end of the live wall, so such tiles are placed at
    the end of the live wall, last first. The tiles the log never shows fill the other places, in a fixed order.
    """
    live: list[int] = []
    replacements: list[int] = []
    dora = [start.dora_indicator]
    ura: tuple[int, ...] = ()
    replacement_next: set[int] = set()
    draw, discard = Tsumo, Dahai  # read once, not per event
    take = live.append
    # by exact type (no event kind has subclasses): half the events are discards. Each event's type is read once,
    # which the type checker does not follow, so the events are read untyped here
    events: Sequence[Any] = body
    for event in events:
        kind = type(event)
        if kind is discard:
            continue
        if kind is draw:
            if replacement_next and event.actor in replacement_next:
                replacements.append(event.pai)
                replacement_next.discard(event.actor)
            else:
                take(event.pai)
        elif kind is Call:
            if event.is_kan or event.kind == "kita":
                replacement_next.add(event.seat)
        elif kind is Win:
            if len(event.ura_indicators) > len(ura):
                ura = event.ura_indicators
        elif kind is NewDoraIndicator:
            dora.append(event.tile)
    players = rules.players
    size, copies = _tile_set_of(rules)
    if len(start.hands) != players:
        raise InvalidRequest(f"the log deals {len(start.hands)} hands, the rulebook plays with {players}")
    for seat, hand in enumerate(start.hands):
        if len(hand) != 13:  # a wall's layout deals each seat 13 tiles: more would overdraw the tiles left unseen
            raise InvalidRequest(f"the log deals seat {seat} {len(hand)} tiles, a hand is dealt 13")
    hands = start.hands  # read, never changed: the wall is a new tuple
    rest = _unseen(copies, chain(*hands, live, replacements, dora, ura))
    if rest is None:  # some tile is one too many: say which, and where, by placing them one by one
        _take_each(list(copies), start.hands, live, replacements, dora, ura)
        raise AssertionError("a tile set overdrawn as a whole is overdrawn somewhere")  # pragma: no cover
    if len(dora) > INDICATOR_PAIRS or len(ura) > INDICATOR_PAIRS:
        raise InvalidRequest(f"more than {INDICATOR_PAIRS} dora indicators")
    slots = rules.dead_wall - 2 * INDICATOR_PAIRS
    in_dead, moved = replacements[:slots], replacements[slots:]
    dead = dead_wall_layout(rules.dead_wall, dora, ura, in_dead)
    live_size = size - rules.dead_wall - 13 * players
    if len(live) + len(moved) > live_size:
        raise InvalidRequest(f"the log draws {len(live) + len(moved)} tiles from a live wall of {live_size}")
    filled = [c if c is not None else rest.pop() for c in dead]
    gap = live_size - len(live) - len(moved)
    live_wall = live + rest[:gap] + moved[::-1]
    # the hands from the dealer's on (one per seat, as checked above): the seats after the dealer, then those before
    dealer = start.dealer % players
    return Wall(tuple(chain(*hands[dealer:], *hands[:dealer], live_wall, filled)))


# rules object, tile count, copies per code
_LAST_SET: list[tuple[object, int, tuple[int, ...]]] = [(None, 0, ())]


def _tile_set_of(rules: RoundRules) -> tuple[int, tuple[int, ...]]:
    """The size of the rulebook's tile set and the copies of each tile code in it: asked for every replayed round,
    with the same rules object for a whole game, so the last answer is kept by identity (one tuple, read and
    replaced whole, so that threads replaying at once never mix two rulebooks' answers)."""
    last = _LAST_SET[0]
    if last[0] is not rules:
        full = tile_set(rules)
        last = (rules, len(full), _copies_of(tuple(full)))
        _LAST_SET[0] = last
    return last[1], last[2]


@lru(64)
def _copies_of(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """The copies of each tile code in a tile set, counted once per set."""
    copies = [0] * len(KIND_OF)
    for code in tiles:
        copies[code] += 1
    return tuple(copies)


def _unseen(copies: tuple[int, ...], tiles: Iterable[int]) -> list[int] | None:
    """The tiles of the set left once the log's ``tiles`` are placed, by kind then code (``copies``: the set's
    copies of each code), or None when some tile is not in the set or one too many: ``_take_each`` then says which
    and where. The tiles are made bytes first, so that a value outside 0-255 (or no number) is refused there and a
    negative one never reaches the counts as an index from their end; each is then taken from its code's count in a
    plain loop (a ``Counter`` and its reading cost more than the loop), a code outside the set's range is an
    ``IndexError``, a copy too many a count below 0, and each code's byte is repeated as many times as are left."""
    try:
        placed = bytes(tiles)
    except (ValueError, TypeError):
        return None
    left = list(copies)
    try:
        for code in placed:
            left[code] -= 1
    except IndexError:
        return None
    if min(left) < 0:
        return None
    return list(b"".join(map(mul, _CODE_BYTES, map(left.__getitem__, _CODES_BY_KIND))))


def _take_each(left: list[int], hands: Sequence[Sequence[int]], live: Sequence[int], replacements: Sequence[int],
               dora: Sequence[int], ura: Sequence[int]) -> None:
    """Place the log's tiles one by one, in the log's order, and raise at the first one the set does not hold
    (the indicators counted first, as a log with too many is refused for that)."""

    def take(tiles: Sequence[int], what: str) -> None:
        for code in tiles:
            if not 0 <= code < len(left) or left[code] <= 0:
                raise InvalidRequest(f"{what}: one `{format_tiles([code])}` more than the rulebook's tile set holds")
            left[code] -= 1

    for seat, hand in enumerate(hands):
        take(hand, f"the hand of seat {seat}")
    take(live, "the draws")
    take(replacements, "the replacement draws")
    if len(dora) > INDICATOR_PAIRS or len(ura) > INDICATOR_PAIRS:
        raise InvalidRequest(f"more than {INDICATOR_PAIRS} dora indicators")
    take(dora, "the dora indicators")
    take(ura, "the ura indicators")


def setup_of(start: RoundStart, first_round: bool) -> RoundSetup:
    return RoundSetup(
        round_wind=ROUND_WINDS[start.round_index // 4 % 4],
        dealer=start.dealer,
        honba=start.honba,
        sticks=start.sticks,
        scores=tuple(start.scores),
        first_round=first_round,
    )


class _Driver:
    """Feeds one round's log events to a ``Round``; stops at the first mismatch of play."""

    def __init__(
        self, rules: RoundRules, start: RoundStart, body: Sequence[Event], offset: int, first_round: bool,
        observer: Callable[[int, Round], None] | None = None,
    ) -> None:
        self.observer = observer
        self.rules = rules
        self.start = start
        self.body = body
        self.offset = offset  # index of the round's first body event in the file's event list
        self.out = RoundReplay.started(start.label)
        self.first_round = first_round
        self.seen_draws = 0
        self.index = 0
        self.wins: list[Win] = []  # the log's wins met so far, and its first draw event
        self.draw: ExhaustiveDraw | AbortiveDraw | None = None
        self.indicators = False  # a kan indicator event met so far

    def fail(self, what: str, expected: Any, got: Any, note: str = "") -> None:
        self.out.mismatches.append(Mismatch(self.start.label, self.offset + self.index, what, expected, got, note))

    def run(self) -> RoundReplay:
        self._play()
        if self.out.round is not None:
            self._indicators()
        return self.out

    def _indicators(self) -> None:
        """A kan indicator the log reveals elsewhere than the round does (see ``engine.replay.indicators``), put
        among the mismatches in event order: the place of an indicator is the rule ``calls kan_dora``."""
        rnd = self.rnd
        upto = min(self.index, len(self.body))
        if not rnd.kan_makers and not self.indicators:  # the loop met every event before ``upto``
            return  # no kan, no indicator: nothing to place (nearly every round)
        found = misplaced(self.body, upto, rnd.log, rnd.finished and upto == len(self.body))
        if found is None:
            return
        rule = self.rules.kan_dora
        note = f'settings calls kan_dora = "{rule}": {RULE_WORDS.get(rule, rule)}'
        m = Mismatch(self.start.label, self.offset + found.index, "kan dora indicator", found.expected, found.got, note)
        self.out.mismatches.append(m)
        self.out.mismatches.sort(key=lambda x: -1 if x.event is None else x.event)

    def _play(self) -> None:
        try:
            wall = wall_of(self.rules, self.start, self.body)
            rnd = Round(self.rules, setup_of(self.start, self.first_round), wall, _wall_checked=True)
        except EngineError as exc:
            self.index = -1  # the round's start, where the log deals
            # reads "the deal: the log has tiles dealt and drawn, the rulebook gives a tile set that cannot hold them (why)"
            self.fail("the deal", "tiles dealt and drawn", "a tile set that cannot hold them", exc.message)
            return
        self.out.round = rnd
        self.rnd = rnd
        played = self._loop(rnd)  # the discards played in place, counted here once (an exception drops the round)
        self.out.decisions += played
        self.out.actions += played

    def _loop(self, rnd: Round) -> int:
        """``_play``'s walk over the round's events; returns the discards it played in place (the other moves
        count themselves)."""
        body = self.body
        observer = self.observer
        apply = rnd.apply
        own_dahai = turns.own_dahai  # read from its module per round: a stand-in put there is the one played
        log = rnd.log
        played = 0
        i = 0
        count = len(body)
        while i < count:
            event = body[i]
            if observer is not None:
                observer(i, rnd)
            # nine events in ten are discards and draws: on the seat's own turn (nobody asked about a tile) each is
            # played or matched here, in place, as ``_own`` and ``_draw`` would (``index``, which only a mismatch
            # reads, is set before any other way)
            if type(event) is Dahai and rnd.phase == "own":
                try:
                    # ``apply``'s first case, without its dispatch, with no listing made: the built discard the
                    # event equals (``dahai_action``: ``built_move`` holds) decided by ``own_discard_ok`` and played
                    # by ``own_dahai``, both given the event itself, as they read only its seat, tile and flag
                    if rnd.own_cache is None and own_discard_ok(rnd, event):
                        before = len(log)
                        own_dahai(rnd, event)
                    else:
                        before = -1
                        apply(dahai_action(event.actor, event.pai, event.tsumogiri))
                except IllegalAction:
                    self.index = i
                    ok = self._unplayed(dahai_action(event.actor, event.pai, event.tsumogiri), exact=False)
                except EngineError as exc:
                    self.index = i
                    ok = self._refused(dahai_action(event.actor, event.pai, event.tsumogiri), exc)
                else:
                    played += 1
                    i += 1
                    # the draw this discard led to, matched with the log's next event at once: with every draw of the
                    # round matched before the discard (``seen_draws`` at the log's end then), the one draw among the
                    # events the discard added is the last (the next seat's live draw, when the discard passed and
                    # the turn is an own one again), the draw the scan of the branch below would find first. A log
                    # reader's draws are the round's own shared events (``engine.round.events.tsumo_event``): the same
                    # draw is the same object
                    if before == self.seen_draws and rnd.phase == "own" and i < count and observer is None:
                        event = body[i]
                        got = log[-1]
                        if got is event or (
                            type(event) is Tsumo and type(got) is Tsumo and got.actor == event.actor and got.pai == event.pai
                        ):
                            self.seen_draws = len(log)
                            i += 1
                    continue
            elif type(event) is Tsumo:
                # ``_draw``, written in place: the seats still asked about the last discard pass (logs write no
                # passes), then the round's next draw is matched with the log's (a driver with an observer has
                # ``_draw`` pass them, the reference ``tests/replay/test_draw_matched_at_once.py`` compares with)
                if rnd.phase != "own" and observer is None:
                    self.index = i
                    if not self._pass_all():
                        return played
                if rnd.phase == "own":
                    seen, end = self.seen_draws, len(log)
                    while seen < end and type(log[seen]) is not Tsumo:
                        seen += 1
                    if seen < end:
                        got = log[seen]  # a Tsumo, as the scan stopped there
                        if got is event or got.actor == event.actor and got.pai == event.pai:  # type: ignore[union-attr]
                            self.seen_draws = seen + 1
                            i += 1
                            continue
                self.index = i
                ok = self._draw(event)
            else:
                self.index = i
                if type(event) is Dahai:
                    ok = self._own(dahai_action(event.actor, event.pai, event.tsumogiri), exact=False)
                elif type(event) is Win:
                    wins = [event]
                    while i + 1 < count and isinstance(body[i + 1], Win):
                        i += 1
                        wins.append(body[i])  # type: ignore[arg-type]
                    self.wins.extend(wins)
                    ok = self._wins(wins)
                else:
                    ok = self._event(event)
            if not ok:
                return played
            i += 1
        self.index = len(body)
        self.out.outcome = (self.wins, self.draw)
        if not rnd.finished:
            self._pass_all()
        if not rnd.finished:
            self.fail("end of the round", "the round ends here", f"the round goes on (waiting for seat {', '.join(map(str, rnd.waiting()))})")
        return played

    # ---- one log event --------------------------------------------------------------------------------------------
    def _event(self, event: Event) -> bool:
        if isinstance(event, Tsumo):
            return self._draw(event)
        if isinstance(event, Dahai):
            return self._own(dahai_action(event.actor, event.pai, event.tsumogiri), exact=False)
        if isinstance(event, Call):
            if event.kind in RESPONSE_CALLS:
                return self._respond({event.seat: self._call_action(event)})
            return self._own(self._call_action(event))
        if isinstance(event, Reach):
            return self._own(own_move("reach", event.actor, None, event.open))
        if isinstance(event, RiichiStick):
            return True
        if isinstance(event, AbortiveDraw):
            if self.draw is None:
                self.draw = event
            return self._abortive(event)
        if isinstance(event, ExhaustiveDraw):
            if self.draw is None:
                self.draw = event
            if not self._pass_all():
                return False
            return self._declare(event)
        if type(event) is NewDoraIndicator:
            self.indicators = True
        return True  # indicators, game start/end: the round reveals them itself

    def _draw(self, event: Tsumo) -> bool:
        if self.rnd.phase != "own" and not self._pass_all():  # "own": nobody is asked, nothing to pass
            return False
        # the round's next draw not yet matched with the log's (the round draws by itself); written in place, not
        # as a method: it runs for every draw
        events = self.rnd.log  # typed: nothing is written as a dict to be compared
        got = None
        seen = self.seen_draws
        while seen < len(events):
            candidate = events[seen]
            seen += 1
            if type(candidate) is Tsumo:
                got = candidate
                break
        self.seen_draws = seen
        if got is None:
            self.fail("draw", f"seat {event.actor} draws {NAME[event.pai]}", "no draw here")
            return False
        if got.actor != event.actor or got.pai != event.pai:  # a tsumo event of the round: these two fields say it all
            self.fail("draw", f"seat {event.actor} draws {NAME[event.pai]}", f"seat {got.actor} draws {NAME[got.pai]}")
            return False
        return True

    def _call_action(self, call: Call) -> Action:
        if call.kind == "kita":
            return Action("nukidora", call.seat, call.called_tile)
        if call.kind == "ankan":
            return Action("ankan", call.seat, call.called_tile, consumed=call.tiles)
        if call.kind == "kakan":
            rest = list(call.tiles)
            rest.remove(call.called_tile)
            return Action("kakan", call.seat, call.called_tile, consumed=tuple(rest))
        rest = list(call.tiles)
        rest.remove(call.called_tile)
        # the answer the round offers is the same value, built once (a frozen record costs microseconds to build)
        return claim_action(call.kind, call.seat, call.called_tile, tuple(rest), call.from_seat)

    def _find(self, action: Action, exact: bool = True) -> Action | None:
        """The legal action the log's move is: the same move, tiles compared as the call's shape requires."""
        self.out.decisions += 1
        if self.rnd.is_legal(action.actor, action):  # the log's move as it stands (nearly always): one question
            return action
        legal = self.rnd.legal_actions(action.actor)
        pai, kind = action.pai, action.type
        for option in legal:  # compare the cheap fields first: most options differ in tile or type
            if option.pai == pai and option.type == kind and option == action:
                return option
        for option in legal:
            if option.type != action.type:
                continue
            if action.type in ("ankan",):
                if action.pai is not None and option.pai is not None and KIND_OF[option.pai] == KIND_OF[action.pai]:
                    return option
            elif action.type in ("hora", "reach", "ryukyoku", "none"):
                if action.target is None or option.target == action.target:
                    return option
            elif option.pai == action.pai and Counter(option.consumed) == Counter(action.consumed) and (
                action.target is None or option.target == action.target
            ):
                if exact and option.tsumogiri != action.tsumogiri and action.type == "dahai":
                    continue
                return option
        return None

    def _illegal(self, action: Action) -> bool:
        legal = self.rnd.legal_actions(action.actor)
        if not legal and self.rnd.finished:
            self.fail("move after the end", str(action), f"the round already ended ({self._ended()})")
        else:
            self.fail("illegal move", str(action), [str(a) for a in legal] or "no move for this seat now")
        return False

    def _ended(self) -> str:
        s = self.rnd.settled
        return "?" if s is None else s.abortive or s.kind

    def _apply(self, action: Action) -> bool:
        """Play a move found among the legal ones: a refusal now is reported as it stands."""
        try:
            self.rnd.apply(action)
        except IllegalAction as exc:
            self.fail("illegal move", str(action), exc.message)
            return False
        except EngineError as exc:
            return self._refused(action, exc)
        self.out.actions += 1
        return True

    def _refused(self, action: Action, exc: EngineError) -> bool:
        """The round turned a move down for another reason than its legality (a rule it cannot play out)."""
        self.fail("move", str(action), f"the round refused it: {exc.message}")
        return False

    def _own(self, action: Action, exact: bool = True) -> bool:
        if self.rnd.phase != "own" and not self._pass_all(keep=action.actor):  # "own": nobody is asked
            return False
        return self._move(action, exact)

    def _move(self, action: Action, exact: bool = True) -> bool:
        """One logged move, on the seat's turn or as its answer to a discard: the move as the log writes it is
        nearly always the legal one (a discard, a pass), so ``apply`` is asked first and decides it in one
        question; only when it is refused is the legal move the log means looked for (a call's tiles, a
        tsumogiri flag). A logged call or ron is first matched with the round's offer (``_offer_of``)."""
        rnd = self.rnd
        try:
            if rnd.phase == "respond" and action.type != "none":
                action = _offer_of(rnd, action)
            rnd.apply(action)
        except IllegalAction:
            return self._unplayed(action, exact)
        except EngineError as exc:
            return self._refused(action, exc)
        self.out.decisions += 1
        self.out.actions += 1
        return True

    def _unplayed(self, action: Action, exact: bool) -> bool:
        """A logged move the round refused as the log writes it (nothing changed): the legal move the log means,
        played, or the mismatch that no legal move is it."""
        found = self._find(action, exact)
        if found is None:
            return self._illegal(action)
        return self._apply(found)

    def _respond(self, answers: dict[int, Action]) -> bool:
        """Give each waiting seat its answer: the log's move for the seats in ``answers``, a pass for the rest."""
        rnd = self.rnd
        waiting = set(rnd.waiting())
        for seat, action in answers.items():
            if seat not in waiting or rnd.phase == "own":
                return self._illegal(action)
        # the seats with a logged answer first; with none (every seat passes) the set's own order, as the stable
        # sort would leave it
        for seat in sorted(waiting, key=lambda s: s not in answers) if answers else list(waiting):
            if rnd.finished:
                break
            action = answers.get(seat) or pass_action(seat)
            if not self._move(action):
                return False
        return True

    def _pass_all(self, keep: int | None = None) -> bool:
        """Every seat still asked about a discard or kan passes (logs write no passes), in seat order."""
        rnd = self.rnd
        while not rnd.finished and rnd.phase != "own":
            if rnd.phase == "respond" and rnd.pending and not rnd.answers:
                waiting: Iterable[int] = rnd.pending  # ``waiting()`` of a window nobody answered yet: every seat asked
            else:
                waiting = rnd.waiting()
                if not waiting:
                    break
                if rnd.phase == "declare":
                    return True
            # ``_respond`` with no logged answer: each seat's pass (always offered) in seat order, the window
            # resolved once after the last, as ``apply`` of each would
            try:
                passes = rnd.pass_waiting()
            except EngineError as exc:  # raised by the last pass, which resolves the window: the others were played
                asked = list(waiting)
                self.out.decisions += len(asked) - 1
                self.out.actions += len(asked) - 1
                last = pass_action(max(asked))
                return self._unplayed(last, True) if isinstance(exc, IllegalAction) else self._refused(last, exc)
            self.out.decisions += passes
            self.out.actions += passes
        return True

    def _wins(self, wins: list[Win]) -> bool:
        rnd = self.rnd
        first = wins[0]
        if first.tsumo:  # the moves the round offers (``own_move``, ``claim_action``): the same values, built once
            return self._own(own_move("hora", first.who, first.win_tile, False))
        return self._respond({w.who: claim_action("hora", w.who, w.win_tile, (), w.from_who) for w in wins}) and (
            rnd.finished or self._pass_all()
        )

    def _abortive(self, event: AbortiveDraw) -> bool:
        rnd = self.rnd
        if event.kind == "nine_terminals":
            return self._own(Action("ryukyoku", rnd.actor))
        if event.kind == "triple_ron" and rnd.phase == "respond":
            answers = {}
            for seat in rnd.waiting():
                hora = next((a for a in rnd.legal_actions(seat) if a.type == "hora"), None)
                if hora is not None:
                    answers[seat] = hora
            return self._respond(answers)
        return self._pass_all()

    def _declare(self, event: ExhaustiveDraw) -> bool:
        rnd = self.rnd
        if rnd.phase != "declare":
            return True
        for seat in list(rnd.waiting()):
            kind = "tenpai" if seat in event.tenpai else "noten"
            if not self._apply(Action(kind, seat)):
                return False
        return True


def _offer_of(rnd: Round, action: Action) -> Action:
    """The answer the round offers ``action``'s seat that is equal to it, else ``action`` itself.

    A logged call or ron is the shared move of ``legal.claim_action``, most often the very object the round offers;
    when it is not (the log's tiles in another order, the cache emptied), it is an object equal to the offer that
    ``apply`` would check for shape and ask ``refusal`` about (its legality: the same offered answers, compared by
    value) before playing it. The offered object is the same move, taken by identity, so the round plays it without
    asking again. The seat's answers are the ones ``is_legal`` would build for the question (``legal_actions``: the
    calls of a seat that may only call are built on first ask either way); a seat that has no offer now gets
    ``action`` back, and ``apply`` refuses it as before. ``tests/replay/test_offer_of.py`` holds the two ways to the same rounds."""
    for option in rnd.legal_actions(action.actor):
        if option == action:
            return option
    return action


def replay_round(
    rules: RoundRules, start: RoundStart, body: Sequence[Event], offset: int = 0, first_round: bool = False,
    observer: Callable[[int, Round], None] | None = None,
) -> RoundReplay:
    """Play one logged round through the round engine (see the module docstring). ``observer(i, round)`` is
    called before the round is given body event ``i`` (an oracle test reads the legal actions there)."""
    return _Driver(rules, start, body, offset, first_round, observer).run()
