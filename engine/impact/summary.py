"""Running totals of an impact run: files are folded in one at a time, in the order given, and then dropped.

Memory stays bounded however large the corpus: counts, one histogram of score changes (one entry per distinct
change, a few hundred at most), and a fixed number of example rounds per item. Folding in the given order makes the
result the same whatever executor or worker count produced the files.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.impact.files import FileImpact, RoundImpact
from ruledsl.record import field, record

if TYPE_CHECKING:
    from engine.impact.flow import FlowRound

EXAMPLES = 5  # example rounds kept per item
LISTED = 20  # rounds left out, unreadable files and placement changes listed by name


@record(frozen=False, slots=False)
class ItemTotal:
    """What one item of the diff is charged with: rounds and wins it changes and the points it moves."""

    item: str
    change: str
    affects_score: bool
    rounds: int = 0
    wins: int = 0
    points: int = 0  # to winners, from this item's change alone
    illegal: int = 0  # wins this item alone makes impossible
    alone: int = 0  # wins where this item alone explains the whole change
    examples: list[dict[str, Any]] = field(default_factory=list)
    flow_rounds: int = 0  # rounds whose course (outcome, winners, next-hand counters) this item alone changes
    flow_diverged: int = 0  # rounds this item alone makes diverge from the log (a move B refuses, a draw B lacks)
    flow_examples: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "change": self.change,
            "affects_score": self.affects_score,
            "rounds": self.rounds,
            "wins": self.wins,
            "points_to_winners": self.points,
            "illegal_wins": self.illegal,
            "wins_explained_alone": self.alone,
            "examples": self.examples,
            "rounds_course_changed": self.flow_rounds,
            "rounds_diverged": self.flow_diverged,
            "round_examples": self.flow_examples,
        }


@record(frozen=False, slots=False)
class Summary:
    """The whole report: totals per item, per corpus and per game, with examples a reader can open."""

    a: str
    b: str
    items: dict[str, ItemTotal]
    files: int = 0
    unreadable: list[dict[str, str]] = field(default_factory=list)
    unreadable_count: int = 0
    rounds: int = 0
    win_rounds: int = 0
    wins: int = 0
    left_out: list[dict[str, Any]] = field(default_factory=list)
    left_out_count: int = 0
    changed_rounds: int = 0
    changed_wins: int = 0
    illegal_wins: int = 0
    points_to_winners: int = 0  # over wins both rulebooks allow
    points_at_stake: int = 0  # A's gain of wins B refuses
    unattributed: int = 0  # changed wins no single item moves (items that only act together)
    score_changes: Counter[int] = field(default_factory=Counter)  # winner's change -> wins, over changed legal wins
    games: int = 0
    games_compared: int = 0
    games_diverged: int = 0
    games_left_out: int = 0  # A does not play them as the logs did
    left_out_games: list[dict[str, Any]] = field(default_factory=list)
    placement_changes: int = 0
    placement_moves: Counter[tuple[int, int]] = field(default_factory=Counter)  # (place under A, under B) -> seats
    placement_examples: list[dict[str, Any]] = field(default_factory=list)
    diverged_examples: list[dict[str, Any]] = field(default_factory=list)
    flow_files: int = 0  # files whose rounds were re-settled through the round engine
    flow_compared: int = 0
    flow_left_out: int = 0
    flow_changed: int = 0  # rounds B settles otherwise (any difference)
    flow_course: int = 0  # of which the course changes: outcome, winners or next-hand counters
    flow_diverged: int = 0
    flow_examples: list[dict[str, Any]] = field(default_factory=list)
    tiles: str | None = None  # how A's tiles that B's set lacks play under B (``engine.impact.tiles.mapping_note``)

    @classmethod
    def empty(cls, a: str, b: str, changes: list[tuple[str, str, bool]], tiles: str | None = None) -> Summary:
        """A summary with one zeroed total per diff item (``(item, change, affects_score)``), in diff order; ``tiles``
        is the sentence on how A's tiles map onto B's tile set, when they must."""
        return cls(a, b, {item: ItemTotal(item, change, scoring) for item, change, scoring in changes}, tiles=tiles)

    def add(self, part: FileImpact) -> None:
        """Fold one file in."""
        self.files += 1
        if part.error is not None:
            self.unreadable_count += 1
            if len(self.unreadable) < LISTED:
                self.unreadable.append({"file": part.file, "error": part.error})
        self.rounds += part.rounds
        self.win_rounds += part.win_rounds
        self.wins += len(part.wins)
        self.left_out_count += len(part.left_out)
        self.left_out.extend(part.left_out[: max(0, LISTED - len(self.left_out))])
        for round_ in part.changed:
            self._round(round_)
        if part.game is not None:
            self._game(part)
        if part.flow is not None:
            self._flow(part)

    def _flow(self, part: FileImpact) -> None:
        flow = part.flow
        assert flow is not None
        self.flow_files += 1
        self.flow_compared += flow.compared
        self.flow_left_out += flow.left_out
        for round_ in flow.changed or []:
            self.flow_changed += 1
            course = round_.diverged or not _values_only(round_)
            self.flow_diverged += int(round_.diverged)
            self.flow_course += int(course and not round_.diverged)
            if course and len(self.flow_examples) < LISTED:
                self.flow_examples.append(round_.to_json() | {"text": round_.text()})
            if not course:
                continue
            for name in round_.items:
                total = self.items.setdefault(name, ItemTotal(name, "changed", False))
                total.flow_rounds += int(not round_.diverged)
                total.flow_diverged += int(round_.diverged)
                if len(total.flow_examples) < EXAMPLES:
                    total.flow_examples.append(round_.to_json() | {"text": round_.text()})

    def _round(self, round_: RoundImpact) -> None:
        self.changed_rounds += 1
        charged: set[str] = set()
        for win in round_.wins:
            if not win.changed:
                continue
            self.changed_wins += 1
            if win.illegal:
                self.illegal_wins += 1
                self.points_at_stake += win.a.total
            elif win.a.ok and win.b.ok:
                self.points_to_winners += win.delta
                self.score_changes[win.delta] += 1
            if not win.charges:
                self.unattributed += 1
            for charge in win.charges:
                total = self.items.setdefault(charge.item, ItemTotal(charge.item, "changed", True))
                total.wins += 1
                total.points += 0 if charge.illegal else charge.delta
                total.illegal += int(charge.illegal)
                total.alone += int(charge.alone)
                if charge.item not in charged and len(total.examples) < EXAMPLES:
                    total.examples.append(win.to_json())
                charged.add(charge.item)
        for item in charged:
            self.items[item].rounds += 1

    def _game(self, part: FileImpact) -> None:
        game = part.game
        assert game is not None
        self.games += 1
        if game.left_out:
            self.games_left_out += 1
            if len(self.left_out_games) < LISTED:
                self.left_out_games.append({"file": game.file, "where": game.diverged})
            return
        if game.diverged is not None:
            self.games_diverged += 1
            if len(self.diverged_examples) < LISTED:
                self.diverged_examples.append({"file": game.file, "where": game.diverged})
            return
        self.games_compared += 1
        after = game.placements_b
        assert after is not None
        for before, now in zip(game.placements_a, after, strict=True):
            self.placement_moves[(before, now)] += 1
        if game.placement_changed:
            self.placement_changes += 1
            if len(self.placement_examples) < LISTED:
                self.placement_examples.append(game.to_json())

    @property
    def changed(self) -> bool:
        return self.changed_rounds > 0 or self.flow_changed > 0

    def to_json(self) -> dict[str, Any]:
        """The stable ``--json`` form (field names are part of the contract; new fields may only be added)."""
        return {
            "a": self.a,
            "b": self.b,
            "files": self.files,
            "unreadable_files": self.unreadable_count,
            "unreadable": self.unreadable,
            "rounds": self.rounds,
            "rounds_with_wins": self.win_rounds,
            "wins": self.wins,
            "rounds_left_out": self.left_out_count,
            "left_out": self.left_out,
            "changed_rounds": self.changed_rounds,
            "changed_wins": self.changed_wins,
            "illegal_wins": self.illegal_wins,
            "points_to_winners": self.points_to_winners,
            "points_at_stake": self.points_at_stake,
            "unattributed_wins": self.unattributed,
            "points_interaction": self.points_to_winners - sum(t.points for t in self.items.values()),
            "score_changes": [{"delta": d, "wins": n} for d, n in sorted(self.score_changes.items())],
            "items": [total.to_json() for total in self.items.values()],
            "games": {
                "total": self.games,
                "compared": self.games_compared,
                "diverged": self.games_diverged,
                "left_out": self.games_left_out,
                "left_out_examples": self.left_out_games,
                "placement_changed": self.placement_changes,
                "moves": [{"a": a, "b": b, "seats": n} for (a, b), n in sorted(self.placement_moves.items())],
                "examples": self.placement_examples,
                "diverged_examples": self.diverged_examples,
            },
            "rounds_resettled": {
                "files": self.flow_files,
                "compared": self.flow_compared,
                "left_out": self.flow_left_out,
                "changed": self.flow_changed,
                "course_changed": self.flow_course,
                "diverged": self.flow_diverged,
                "examples": self.flow_examples,
            },
            "scope": SCOPE if not self.flow_files else SCOPE_FLOW,
            "tiles": self.tiles,
        }


# What this version re-settles, said in the report itself so that nobody reads more into it.
SCOPE = (
    "each logged win is re-scored under B with the same hand and situation (yaku, han, fu, limit, payments, "
    "honba, sticks); flow rules (abortive draws, multiple ron, renchan, end of game, uma) are not replayed, so "
    "items that change only them are listed with no charge"
)

SCOPE_FLOW = (
    "each logged win is re-scored under B with the same hand and situation; each round is played again through "
    "the round engine under B with the log's moves (double ron, abortive draws, renchan, honba, sticks), and each "
    "game followed under B while B plays the same rounds as the log; where B refuses a logged move or plays another "
    "round, the comparison stops there and is reported, never guessed"
)


def _values_only(round_: FlowRound) -> bool:
    a, b = round_.a, round_.b
    return (a.kind, a.abortive, a.winners, a.honba_next, a.sticks_next, a.dealer_next) == (
        b.kind, b.abortive, b.winners, b.honba_next, b.sticks_next, b.dealer_next
    )
