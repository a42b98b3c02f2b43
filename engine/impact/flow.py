"""Whole rounds re-settled through the round engine: the log's moves played again under B's flow rules.

Re-scoring wins (``engine.impact.rescore``) cannot see what B does to the course of a round: a double ron that B
settles as a head bump, an abortive draw B declares (four winds, four riichi) or lacks (nine terminals: the player
would have had to play on), renchan, honba and sticks that differ. Here each round of a log is played through
``engine.round.Round`` twice from the same wall (``engine.replay.through_round``): under A, which must settle it as
the log did, and under B with the same moves. B's round is then

- *the same*, or *changed* (another outcome, other point changes, other counters for the next round), comparable;
- *diverged*: B refuses a move the log made (a win B does not allow) or B's round goes on where the log's ended; what
  would have happened next is unknown, and the report says so instead of guessing.

A changed or diverged round is charged to the items of the diff whose change alone moves it, by playing the round
under A + item and B - item (the one-item variants of ``engine.impact.variants``). The game is then followed under B
(``engine.game.progression``): each round starts from B's counters and scores, while B plays the same rounds as the
log; where B would play another round (the dealer stays under B only) or end the game elsewhere, the comparison
stops and the report names the round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.errors import EngineError
from engine.game.progression import GameState, advance
from engine.game.result import final_points
from engine.game.rules import GameRules
from engine.impact.tiles import fit_round
from engine.impact.variants import Rules
from engine.replay.events import Event, GameEnd, RoundStart
from engine.replay.rounds import compare_settlement, split_rounds
from engine.replay.through_round import ROUND_WINDS, RoundReplay, _Driver
from engine.round.rules import RoundRules, round_rules
from engine.round.settlement import Settlement
from ruledsl.record import record, replace
from ruledsl.rulebook_changes import Change


class _Resettle(_Driver):
    """The replay driver, minus its check that the log reveals each kan indicator where the rulebook does: under B,
    kan dora may be revealed at another time, which changes a win's value but not the moves."""

    def _indicators(self) -> None:
        return


@record(slots=False)
class Settled:
    """A round's result as compared between rulebooks (or why it cannot be: ``diverged``)."""

    kind: str | None = None
    abortive: str | None = None
    winners: tuple[int, ...] = ()
    deltas: tuple[int, ...] = ()
    honba_next: int = 0
    sticks_next: int = 0
    dealer_next: int = 0
    diverged: str | None = None
    settlement: Settlement | None = None

    @property
    def key(self) -> tuple:
        return (self.kind, self.abortive, self.winners, self.deltas, self.honba_next, self.sticks_next, self.dealer_next, self.diverged)

    def course(self) -> tuple:
        """The round's course without the amounts: outcome, winners, next-hand counters, or where it diverged."""
        return (self.kind, self.abortive, self.winners, self.honba_next, self.sticks_next, self.dealer_next, self.diverged)

    def words(self) -> str:
        if self.diverged:
            return f"diverges: {self.diverged}"
        what = self.abortive or self.kind or "?"
        if self.winners:
            what += " by seat " + ", ".join(map(str, self.winners))
        return f"{what}; points {list(self.deltas)}; next honba {self.honba_next}, sticks {self.sticks_next}, dealer {self.dealer_next}"

    def to_json(self) -> dict[str, Any]:
        if self.diverged:
            return {"diverged": self.diverged}
        return {
            "kind": self.kind,
            "abortive": self.abortive,
            "winners": list(self.winners),
            "deltas": list(self.deltas),
            "honba_next": self.honba_next,
            "sticks_next": self.sticks_next,
            "dealer_next": self.dealer_next,
        }


def _settled(played: RoundReplay) -> Settled:
    rnd = played.round
    if rnd is None or not rnd.finished or rnd.settled is None:
        reason = played.mismatches[0].text() if played.mismatches else "the round does not end"
        return Settled(diverged=_short(reason))
    s = rnd.settled
    return Settled(
        kind=s.kind,
        abortive=s.abortive,
        winners=tuple(w.seat for w in s.wins),
        deltas=s.deltas,
        honba_next=s.next.honba_next,
        sticks_next=s.next.sticks_next,
        dealer_next=s.next.dealer_next,
        settlement=s,
    )


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def play(rules: RoundRules, start: RoundStart, body: Sequence[Event], offset: int, first_round: bool) -> Settled:
    """One logged round played under ``rules`` with the log's moves, a red five the rules lack played as a plain five
    (``engine.impact.tiles``); never raises for a round the rules refuse."""
    start, body = fit_round(start, body, rules.red_fives)
    try:
        return _settled(_Resettle(rules, start, body, offset, first_round).run())
    except EngineError as exc:
        return Settled(diverged=_short(exc.message))


@record(slots=False)
class FlowRound:
    """A round whose course or settlement B changes, or where B's round diverges from the log's."""

    file: str
    label: str
    a: Settled
    b: Settled
    items: tuple[str, ...]

    @property
    def diverged(self) -> bool:
        return self.b.diverged is not None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "round": self.label, "a": self.a.to_json(), "b": self.b.to_json(), "diverged": self.diverged, "items": list(self.items)}

    def text(self) -> str:
        return f"A {self.a.words()} -> B {self.b.words()}"


@record(frozen=False, slots=False)
class FlowFile:
    """Stage two for one file: rounds compared, the ones B changes or diverges on, and the game under B."""

    rounds: int = 0
    compared: int = 0
    left_out: int = 0
    changed: list[FlowRound] | None = None
    game_scores_b: tuple[int, ...] | None = None
    game_diverged: str | None = None
    game_left_out: bool = False  # A itself does not play the game as the log did: nothing to compare


class FlowRules:
    """Round and game rules of A, B and their one-item variants, built once per process."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.a = round_rules(rules.a)
        self.b = round_rules(rules.b)
        self.game_a = GameRules.of(rules.a.rulebook)
        self.game_b = GameRules.of(rules.b.rulebook)
        self._variants: dict[int, tuple[RoundRules | None, RoundRules | None]] = {}

    def variants(self, index: int) -> tuple[RoundRules | None, RoundRules | None]:
        if index not in self._variants:
            plus, minus = self.rules.variants(index)
            self._variants[index] = (_round_rules(plus), _round_rules(minus))
        return self._variants[index]

    def charged(self, start: RoundStart, body: Sequence[Event], offset: int, first: bool, a: Settled, b: Settled) -> tuple[str, ...]:
        """The items that cause this round's change: those whose undoing alone makes B play it otherwise; when there
        are none (items that act only together), those whose change alone makes A play it otherwise (the rule of
        ``engine.impact.variants.caused``)."""
        # when B changes the round's course, an item is charged only if it alone changes the course, not merely the
        # amounts paid in it (a limit reached by one of a double ron's winners does not make the head bump)
        structural = a.course() != b.course()

        def key(settled: Settled) -> tuple:
            return settled.course() if structural else settled.key

        candidates = [(i, c) for i, c in enumerate(self.rules.changes) if not structural or _can_change_course(c)]
        on_b = []
        for index, change in candidates:
            minus = self.variants(index)[1]
            if minus is not None and key(play(minus, start, body, offset, first)) != key(b):
                on_b.append(change.item)
        if on_b:
            return tuple(on_b)
        out = []
        for index, change in candidates:
            plus = self.variants(index)[0]
            if plus is not None and key(play(plus, start, body, offset, first)) != key(a):
                out.append(change.item)
        return tuple(out)


def _can_change_course(change: Change) -> bool:
    """Whether an item can change who wins or how a round ends, not only what a win is worth: flow rules, and the
    yaku that make a hand a win at all. A fu item, a limit or a payment formula only moves amounts."""
    kind = change.target[0] if change.target else change.kind
    return not change.affects_score or kind in ("yaku", "yakuman")


def _round_rules(scorer: Any) -> RoundRules | None:
    if scorer is None:
        return None
    try:
        return round_rules(scorer)
    except EngineError:
        return None


def flow_of_file(flow: FlowRules, events: list[Event], file: str, rescored: dict[str, tuple[str, ...]] | None = None) -> FlowFile:
    """Every round of one parsed log played under A and B; the changed ones charged; the game followed under B.

    ``rescored`` maps a round label to the items its re-scored wins were charged to: a round whose course B keeps
    (same outcome, winners and counters) and whose points alone move is charged to those, without replaying it
    under every variant (the costly part of attribution)."""
    rescored = rescored or {}
    out = FlowFile(changed=[])
    try:
        _, rounds, end = split_rounds(events)
    except EngineError as exc:
        out.game_diverged = exc.message
        return out
    reproduced: list[Settled | None] = []
    played_b: list[Settled | None] = []  # B's play of each round from the log's own counters and scores
    for k, (index, start, body) in enumerate(rounds):
        out.rounds += 1
        nxt = rounds[k + 1][1] if k + 1 < len(rounds) else None
        a = _reproduced(flow.a, start, body, index + 1, k == 0, nxt)
        reproduced.append(a)
        played_b.append(None)
        if a is None:
            out.left_out += 1
            continue
        out.compared += 1
        b = play(flow.b, start, body, index + 1, k == 0)
        played_b[-1] = b
        if b.key != a.key:
            items = rescored.get(start.label, ()) if _values_only(a, b) else ()
            items = items or flow.charged(start, body, index + 1, k == 0, a, b)
            assert out.changed is not None
            out.changed.append(FlowRound(file, start.label, replace(a, settlement=None), replace(b, settlement=None), items))
    _follow_game(flow, rounds, reproduced, played_b, end, out)
    return out


def _values_only(a: Settled, b: Settled) -> bool:
    """B keeps the round's course and only pays other amounts: the same outcome, winners and next-hand counters."""
    return a.course() == b.course()


def _reproduced(rules: RoundRules, start: RoundStart, body: Sequence[Event], offset: int, first: bool, nxt: RoundStart | None) -> Settled | None:
    """A's settlement of the round when A plays it exactly as the log did (moves, outcome, points, counters)."""
    try:
        played = _Driver(rules, start, body, offset, first).run()
    except EngineError:
        return None
    if played.mismatches or played.round is None or played.round.settlement is None:
        return None
    if compare_settlement(played, start, list(body), nxt, offset + len(body)):
        return None
    return _settled(played)


def _follow_game(
    flow: FlowRules, rounds: list, reproduced: list[Settled | None], played_b: list[Settled | None], end: GameEnd | None,
    out: FlowFile,
) -> None:
    """Follow the game under A (it must end where and as the log does), then under B from B's own counters."""
    out.game_left_out = True
    if not rounds or end is None:
        out.game_diverged = "the log has no game end"
        return
    if any(a is None for a in reproduced):
        k = reproduced.index(None)
        out.game_diverged = f"{rounds[k][1].label}: A does not reproduce this round"
        return

    def under_a(k: int, start: RoundStart) -> Settled:
        return reproduced[k]  # type: ignore[return-value]

    final_a, why = _chain(flow.game_a, rounds, under_a)
    if final_a is None or list(final_a) != list(end.scores):
        out.game_diverged = f"A's game rules do not end this game as the log does ({why or f'final points {list(final_a or ())}'})"
        return

    def under_b(k: int, start: RoundStart) -> Settled:
        index, logged, body = rounds[k]
        same = (start.honba, start.sticks, tuple(start.scores)) == (logged.honba, logged.sticks, tuple(logged.scores))
        known = played_b[k]
        if same and known is not None:  # B starts this round as the log did: its play is already known
            return known
        return play(flow.b, start, body, index + 1, k == 0)

    out.game_left_out = False
    out.game_scores_b, out.game_diverged = _chain(flow.game_b, rounds, under_b)


def _chain(rules: GameRules, rounds: list, settle: Callable[[int, RoundStart], Settled]) -> tuple[tuple[int, ...] | None, str | None]:
    """Play the log's rounds in order from the game's own counters and scores: (final points, None) when the game
    plays exactly those rounds and ends after the last; (None, where and why) when it parts from the log."""
    first = rounds[0][1]
    wind = ROUND_WINDS[first.round_index // 4 % 4]
    state = GameState(rules.winds.index(wind) if wind in rules.winds else 0, first.dealer, first.honba, first.sticks, tuple(first.scores))
    for k, (_, start, _) in enumerate(rounds):
        label = start.label
        if state.finished:
            return None, f"{label}: the game has already ended ({state.ended_by})"
        want = (ROUND_WINDS[start.round_index // 4 % 4], start.dealer)
        if (state.round_wind(rules), state.dealer) != want:
            got = f"{state.round_wind(rules)}{state.dealer + 1}"
            return None, f"{label}: the next round is {got} (another dealer or wind), the log plays {want[0]}{want[1] + 1}"
        settled = settle(k, replace(start, honba=state.honba, sticks=state.sticks, scores=state.scores))
        if settled.diverged or settled.settlement is None:
            return None, f"{label}: {settled.diverged}"
        try:
            state = advance(rules, state, settled.settlement)
        except ValueError as exc:
            return None, f"{label}: {exc}"
    if not state.finished:
        return None, (
            f"{rounds[-1][1].label}: the game goes on after the log's last round "
            f"(next {state.round_wind(rules)}{state.dealer + 1}, honba {state.honba})"
        )
    return final_points(rules, state), None
