"""`check(..., reuse=True)` gives the diagnostics of the full check: `riichi diff` checks A with each change of B in
place, and an item's findings are taken from an earlier check of the very same object only when nothing else its
check reads has changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.diff.change_scenarios import with_change
from ruledsl import check as checker
from ruledsl.check import check
from ruledsl.record import replace
from ruledsl.resolve import MAX_ERRORS, resolve
from ruledsl.rulebook_changes import diff

EXAMPLES = Path(__file__).resolve().parents[2] / "rulebooks" / "examples"
PAIRS = [("house", "wrc2025"), ("house", "mleague"), ("house", "sanma"), ("wrc2025", "mahjchina"), ("mleague", "house")]


def _mixes(a_name: str, b_name: str) -> list:
    a, b = resolve(a_name), resolve(b_name)
    changes = diff(a, b)
    mixes = [with_change(a, b, c) for c in changes]
    # two changes at once, and every change undone: other items' findings must follow what they read
    mixes += [with_change(m, b, c) for m, c in zip(mixes, changes[1:], strict=False)]
    mixes += [with_change(m, a, c) for m, c in zip(mixes, changes, strict=False)]
    return mixes


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_each_mix_checks_as_in_full(a: str, b: str) -> None:
    checker._FINDINGS.clear()
    for mix in _mixes(a, b):
        assert check(mix, reuse=True) == check(mix)


def test_a_changed_ceiling_or_leaf_is_checked_again() -> None:
    """An item's findings depend on the han ceiling and the leaf file: a mix that changes either is not reused."""
    checker._FINDINGS.clear()
    base = resolve("house")
    assert check(base, reuse=True) == check(base)
    scoring = base.items[("settings", "scoring")]
    ceiling = replace(scoring.fields["han_ceiling"], value=replace(scoring.fields["han_ceiling"].value, value=1))
    low = replace(base, items={**base.items, ("settings", "scoring"): replace(scoring, fields={**scoring.fields, "han_ceiling": ceiling})})
    assert check(low, reuse=True) == check(low)
    assert any("out of range" in d.message for d in check(low))
    leaf = replace(base.chain[-1], name="other")
    renamed = replace(base, chain=[*base.chain[:-1], leaf])
    assert check(renamed, reuse=True) == check(renamed)


def test_a_removed_yaku_is_seen_by_the_items_that_name_it() -> None:
    """An item naming a yaku (an `excludes` list, `has_yaku`) is checked again when the yaku names change."""
    checker._FINDINGS.clear()
    base = resolve("house")
    assert check(base, reuse=True) == check(base)
    named = [key for key, item in base.items.items() if item.kind == "yaku" and any(
        "excludes" in other.fields and key[1] in repr(other.fields["excludes"].value) for other in base.items.values()
    )]
    assert named
    items = dict(base.items)
    del items[named[0]]
    fewer = replace(base, items=items)
    assert check(fewer, reuse=True) == check(fewer)
    assert any(named[0][1] in d.message for d in check(fewer) if d.is_error)


def test_the_error_bound_cuts_reused_findings_as_it_would() -> None:
    """Findings are reused only below the error bound: a rulebook past it reports the same first errors."""
    text = "rulebook many_errors \"errors\" extends house\n" + "".join(
        f'@clause("c{i}")\nyaku e{i} "E{i}" {{\n  han = 2\n  when = unknown_{i}\n}}\n' for i in range(MAX_ERRORS + 20)
    )
    checker._FINDINGS.clear()
    book = resolve("many_errors.rulebook", text=text, file="many_errors.rulebook", keep_going=True)
    first = check(book, reuse=True)
    assert first == check(book)
    assert check(book, reuse=True) == check(book)
