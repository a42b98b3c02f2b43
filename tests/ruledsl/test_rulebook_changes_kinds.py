"""``ruledsl.rulebook_changes.diff(..., kinds=...)``, the differences of a few item kinds alone (`riichi check`'s
shadowing search reads the flow rules only), against the full difference with the other kinds left out afterwards:
the same changes, in the same order, field for field."""

from __future__ import annotations

import itertools

import pytest

from ruledsl.resolve import resolve
from ruledsl.rulebook_changes import Change, diff

KINDS: tuple[set[str], ...] = (
    {"settings"},
    {"settings", "draw", "abortive_draw", "liability"},  # what engine.diff.shadowing asks for
    {"yaku", "fu"},
    set(),
)
# the distinct families against one another, and house against a variant of tenhou with every option
PAIRS = list(itertools.permutations(("house", "wrc2025", "ema2016", "mleague", "sanma", "tenhou_sanma_east"), 2))
PAIRS += [("house", "tenhou_sanma_east_nored_nokuitan_rounded"), ("tenhou", "tenhou_sanma_east_nored_nokuitan_rounded")]

CLUB = """rulebook club "Club" extends house

remove abortive_draw suufon_renda

override settings win {
  triple_ron = "head_bump"
}

@clause("club rule 1")
yaku extra "Extra" {
  han = 1
  when = tsumo
}

@clause("club rule 2")
draw extra_draw "A draw of ours" {
  when = true
}
"""


def _fields(changes: list[Change]) -> list[tuple[object, ...]]:
    return [(c.kind, c.name, c.change, c.a, c.b, c.clause_a, c.clause_b, c.fields, c.group, c.target) for c in changes]


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=lambda name: str(name))
def test_the_changes_of_some_kinds_are_the_full_difference_s(a: str, b: str) -> None:
    ra, rb = resolve(a), resolve(b)
    whole = diff(ra, rb)
    for kinds in KINDS:
        assert _fields(diff(ra, rb, kinds=kinds)) == _fields([c for c in whole if c.kind in kinds]), kinds


def test_a_file_that_adds_removes_and_overrides() -> None:
    house, club = resolve("house"), resolve("club.rulebook", text=CLUB, file="club.rulebook")
    for a, b in ((house, club), (club, house)):
        whole = diff(a, b)
        assert {c.change for c in whole} == {"added", "removed", "changed"}
        for kinds in KINDS:
            assert _fields(diff(a, b, kinds=kinds)) == _fields([c for c in whole if c.kind in kinds]), kinds
