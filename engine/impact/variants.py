"""The two rulebooks of an impact run and, for each item of their diff, the one-item variants A + c and B - c.

A changed win is charged to item c when its result moves with c alone: A with only c applied scores it
differently from A, or B with only c undone scores it differently from B (the test ``riichi diff`` uses for its
witnesses, ``engine.diff.change_witnesses.isolated``). Compiling a variant takes a noticeable fraction of a second, so
each is built at most once per process, and only when a win first needs it.
"""

from __future__ import annotations

from typing import Any

from engine.diff.change_witnesses import isolated
from engine.diff.witness import Outcome, fitted, outcome
from engine.scoring.score import Scorer
from ruledsl.record import field, record
from ruledsl.rulebook_changes import Change, diff


@record(frozen=False, slots=False)
class Rules:
    """Rulebooks A and B, the scoring changes between them, and their one-item variants (built lazily)."""

    a: Scorer
    b: Scorer
    a_name: str
    b_name: str
    changes: list[Change] = field(init=False)
    _variants: dict[int, tuple[Scorer | None, Scorer | None]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.changes = diff(self.a.rulebook.resolved, self.b.rulebook.resolved)

    @property
    def scoring_changes(self) -> list[tuple[int, Change]]:
        """The changes that can move a hand's score: the only ones a re-scored win can be charged to."""
        return [(i, c) for i, c in enumerate(self.changes) if c.affects_score]

    def variants(self, index: int) -> tuple[Scorer | None, Scorer | None]:
        """(A + change, B - change) for the change at ``index``; None for a side that is no valid rulebook."""
        if index not in self._variants:
            self._variants[index] = isolated(self.a, self.b, self.changes[index])
        return self._variants[index]


def score(scorer: Scorer, request: dict[str, Any]) -> Outcome:
    """The outcome of a request under one rulebook, red fives it does not know read as plain fives."""
    return outcome(scorer, fitted(request, scorer.prepared.red_fives))


@record(slots=False)
class Charge:
    """One item a changed win is charged to, and how many points its change alone moves to the winner."""

    item: str
    delta: int  # winner's gain under (A + item) minus under A; or under B minus under (B - item)
    alone: bool  # the item alone turns A's result into B's and B's into A's: no other item contributes
    illegal: bool  # the item alone makes the win impossible (no yaku, a hand B refuses)


def charges(rules: Rules, request: dict[str, Any], under_a: Outcome, under_b: Outcome) -> list[Charge]:
    """The items that cause this win's change, in diff order (see ``caused``)."""
    found: list[tuple[Charge, bool]] = []
    for index, change in rules.scoring_changes:
        plus, minus = rules.variants(index)
        moved_a = moved_b = False
        alone = plus is not None or minus is not None
        delta = 0
        illegal = False
        if plus is not None:
            got = score(plus, request)
            moved_a = got.key != under_a.key
            alone = alone and got.key == under_b.key
            if moved_a:
                delta = got.total - under_a.total
                illegal = not got.ok
        if minus is not None:
            got = score(minus, request)
            moved_b = got.key != under_b.key
            alone = alone and got.key == under_a.key
            if moved_b and not moved_a:
                delta = under_b.total - got.total
                illegal = not under_b.ok and got.ok
        if moved_a or moved_b:
            found.append((Charge(change.item, delta, alone, illegal), moved_b))
    return caused(found)


def caused(found: list[tuple[Charge, bool]]) -> list[Charge]:
    """Of the items whose change alone moves a result (each with whether undoing it in B moves B's result), the ones
    that cause the change: those B's result depends on. An item that would move A's result but does nothing under B
    is not charged while another item explains B's result: a hand that loses a han under B because B's tile set
    plays its bonus tile as a plain one is charged to that setting, not to a new limit B adds that the hand would
    reach with A's han (A + limit moves it, but under B the hand never has those han). When no item moves B's result
    alone (items that act only together), every item that moves A's is charged, as before."""
    on_b = [charge for charge, moved_b in found if moved_b]
    return on_b or [charge for charge, _ in found]


def rules_of(a: str | Scorer, b: str | Scorer) -> Rules:
    """The ``Rules`` of two rulebooks given by name, by file or as scorers already built."""
    from engine.scoring import library

    scorer_a = a if isinstance(a, Scorer) else library.scorer(a)
    scorer_b = b if isinstance(b, Scorer) else library.scorer(b)
    return Rules(scorer_a, scorer_b, _name(a, scorer_a), _name(b, scorer_b))


def _name(ref: str | Scorer, scorer: Scorer) -> str:
    return ref if isinstance(ref, str) else scorer.rulebook.name
