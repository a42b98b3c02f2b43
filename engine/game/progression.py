"""Game progression as pure functions: from one round's settlement to the next round's seat, wind and counters.

A game is a frozen `GameState`; `advance(rules, state, settlement)` returns the next one (finished, with the
reason, when the rulebook's end conditions say so). Nothing here plays a hand, so every end-of-game rule (bust,
agari-yame, tenpai-yame, the target score and its extension rounds) is testable from a settlement dict alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import add
from typing import Any

from engine.game.rules import GameRules
from engine.round.settlement import Settlement
from ruledsl.record import filling, record

ENDED_BY = ("last_round", "bust", "agari_yame", "tenpai_yame", "extension")


@record
class GameState:
    """Where a game stands before its next round (or how it ended): wind, dealer, counters and scores."""

    wind_index: int  # index into rules.winds (the regular rounds, then the extension)
    dealer: int  # seat 0 is the first dealer
    honba: int
    sticks: int  # riichi sticks on the table
    scores: tuple[int, ...]
    rounds_played: int = 0
    ended_by: str | None = None
    dealer_wins: int = 0  # the dealer's wins in a row in this dealership (the round's `dealer_consecutive_wins`)

    @property
    def finished(self) -> bool:
        return self.ended_by is not None

    def round_wind(self, rules: GameRules) -> str:
        return rules.winds[self.wind_index]

    def in_extension(self, rules: GameRules) -> bool:
        return self.wind_index >= len(rules.rounds)


_GAME_STATE_FILLING = filling(GameState)  # a ``GameState`` being filled in by ``_next_state`` (``ruledsl.record.filling``)


def _next_state(
    wind_index: int, dealer: int, honba: int, sticks: int, scores: tuple[int, ...], rounds_played: int, ended_by: str | None, dealer_wins: int,
) -> GameState:
    """``GameState(wind_index, dealer, ...)``, one per round played, its fields set by plain assignments on a
    twin of ``GameState`` that then becomes one: half of what the record's ``__init__`` costs, a setter
    call per field. ``tests/round/test_filled_records.py`` holds the two equal."""
    if _GAME_STATE_FILLING is None:
        return GameState(wind_index, dealer, honba, sticks, scores, rounds_played, ended_by, dealer_wins)
    made: Any = _GAME_STATE_FILLING()
    made.wind_index, made.dealer, made.honba, made.sticks = wind_index, dealer, honba, sticks
    made.scores, made.rounds_played, made.ended_by, made.dealer_wins = scores, rounds_played, ended_by, dealer_wins
    made.__class__ = GameState
    return made


@record
class HandOutcome:
    """The part of a round settlement (contract.md, "Round and game") that the game reads."""

    kind: str
    deltas: tuple[int, ...]
    honba_next: int
    sticks_next: int
    dealer_next: int
    renchan: bool
    dealer_won: bool
    dealer_tenpai: bool

    @classmethod
    def of(cls, settlement: Settlement | Mapping[str, Any], dealer: int) -> HandOutcome:
        """Read a round's settlement, typed as the round engine writes it or a settlement dict
        (``outcome_fields``)."""
        return cls(*outcome_fields(settlement, dealer))


# a ``HandOutcome``'s fields in their declared order
OutcomeFields = tuple[str, tuple[int, ...], int, int, int, bool, bool, bool]


def outcome_fields(settlement: Settlement | Mapping[str, Any], dealer: int) -> OutcomeFields:
    """``HandOutcome``'s fields read off a round's settlement, without building the record: ``advance`` reads them
    after every round, where the record's eight fields cost more to set than the reading.

    The round engine's typed settlement (every round of a game or a replay) is told by its exact type first: asking
    the abstract ``Mapping`` costs more than the reading. Of a dict, `renchan` defaults to "the dealer seat did not
    move", and the dealer counts as tenpai at an exhaustive draw when the settlement's `tenpai` says so (or,
    without it, when he keeps the seat)."""
    if type(settlement) is Settlement or not isinstance(settlement, Mapping):
        return _settled_fields(settlement, dealer)
    dealer_next = int(settlement["dealer_next"])
    renchan = bool(settlement.get("renchan", dealer_next == dealer))
    kind = str(settlement["kind"])
    wins = settlement.get("wins") or ()
    tenpai = settlement.get("tenpai")  # one flag per seat (the round engine's shape), or the tenpai seats
    if tenpai is None:
        listed = renchan
    elif tenpai and all(isinstance(flag, bool) for flag in tenpai):
        listed = bool(tenpai[dealer])
    else:
        listed = dealer in tenpai
    return (
        kind,
        tuple(int(d) for d in settlement["deltas"]),
        int(settlement["honba_next"]),
        int(settlement["sticks_next"]),
        dealer_next,
        renchan,
        any(w.get("seat") == dealer for w in wins),
        kind == "exhaustive" and listed,
    )


def _settled_fields(settled: Settlement, dealer: int) -> OutcomeFields:
    """``outcome_fields`` of the round engine's typed settlement (the dealer is tenpai when its flag says so)."""
    n = settled.next
    tenpai = settled.tenpai
    return (
        settled.kind,
        settled.deltas,
        n.honba_next,
        n.sticks_next,
        n.dealer_next,
        n.renchan,
        bool(settled.wins) and any(w.seat == dealer for w in settled.wins),
        settled.kind == "exhaustive" and (n.renchan if tenpai is None else bool(tenpai[dealer])),
    )


def start(rules: GameRules) -> GameState:
    """The first round: first wind, seat 0 deals, no counters, everybody at the start points."""
    return GameState(wind_index=0, dealer=0, honba=0, sticks=0, scores=(rules.start_points,) * rules.players)


def placement(points: Sequence[int]) -> tuple[int, ...]:
    """Seats from first to last place; equal points rank the seat nearer the first dealer higher (the order a
    result lists them in; `tie_break = "share"` changes only what tied seats receive, see `engine.game.result`)."""
    return tuple(sorted(range(len(points)), key=lambda seat: (-points[seat], seat)))


def busted(rules: GameRules, scores: Sequence[int]) -> bool:
    """Whether a score below `bust_below` ends the game now."""
    return rules.bust_ends_game and rules.bust_below is not None and len(scores) > 0 and min(scores) < rules.bust_below


def target_reached(rules: GameRules, scores: Sequence[int]) -> bool:
    """Whether some player holds `target_points` (always, when the rulebook sets no target)."""
    return rules.target_points is None or max(scores) >= rules.target_points


def is_deciding_hand(rules: GameRules, state: GameState) -> bool:
    """Whether the game may end after this round: the last dealer's round of the last regular wind, and in the
    extension every round ("sudden_death") or each wind's last dealer's round ("round_end")."""
    last_dealer = state.dealer == rules.players - 1
    if state.in_extension(rules):
        return rules.extension_ends == "sudden_death" or last_dealer
    return state.wind_index == len(rules.rounds) - 1 and last_dealer


def yame(rules: GameRules, dealer: int, scores: Sequence[int], dealer_won: bool, dealer_tenpai: bool) -> str | None:
    """"agari_yame"/"tenpai_yame" when a deciding round's dealer keeps the seat but the game stops instead: he
    won (or was tenpai at the draw) while leading and holding `yame_min_points`."""
    leading = placement(scores)[0] == dealer
    enough = rules.yame_min_points is None or scores[dealer] >= rules.yame_min_points
    if not (leading and enough):
        return None
    if rules.agari_yame and dealer_won:
        return "agari_yame"
    if rules.tenpai_yame and dealer_tenpai:
        return "tenpai_yame"
    return None


def dealer_wins_after(rules: GameRules, wins: int, kind: str, renchan: bool, dealer_won: bool) -> int:
    """The dealer's count of wins in a row after this hand: one more for a win that keeps the seat; unchanged by a
    draw that keeps it, unless `dealer_win_streak_breaks` names that kind of hand; 0 once the seat moves."""
    if not renchan:
        return 0
    if dealer_won:
        return wins + 1
    return 0 if kind in rules.dealer_win_streak_breaks else wins


def advance(rules: GameRules, state: GameState, settlement: Settlement | Mapping[str, Any]) -> GameState:
    """The game after one more round, settled as `settlement` says; finished (with `ended_by`) when it ends."""
    if state.finished:
        raise ValueError("the game is over: no round follows its end")
    fields = outcome_fields(settlement, state.dealer)
    kind, deltas, honba_next, sticks_next, dealer_next, renchan, dealer_won, dealer_tenpai = fields
    if len(deltas) != rules.players:
        raise ValueError(f"a settlement has {len(deltas)} deltas for {rules.players} players")
    if len(state.scores) == len(deltas):
        scores = tuple(map(add, state.scores, deltas))
    else:  # refused as a strict zip refuses it
        scores = tuple(s + d for s, d in zip(state.scores, deltas, strict=True))
    # the next state is built once, with its dealer, wind and end decided first (a copy per change cost more than
    # the decisions: this runs after every round of a played game)
    dealer, wind_index, ended_by = state.dealer, state.wind_index, None
    if busted(rules, scores):
        ended_by = "bust"
    elif renchan:
        ended_by = yame(rules, state.dealer, scores, dealer_won, dealer_tenpai) if is_deciding_hand(rules, state) else None
    else:
        next_dealer = dealer_next % rules.players
        next_wind = state.wind_index + (1 if next_dealer <= state.dealer else 0)
        if is_deciding_hand(rules, state) and (target_reached(rules, scores) or next_wind >= len(rules.winds)):
            ended_by = "extension" if state.in_extension(rules) else "last_round"
        elif next_wind >= len(rules.winds):  # only reachable with a settlement that skips seats: end rather than wrap
            ended_by = "last_round"
        else:
            dealer, wind_index = next_dealer, next_wind
    return _next_state(
        wind_index, dealer, honba_next, sticks_next, scores, state.rounds_played + 1, ended_by,
        dealer_wins_after(rules, state.dealer_wins, kind, renchan, dealer_won),
    )
