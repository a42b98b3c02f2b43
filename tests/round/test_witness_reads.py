"""A scripted round not played under A with one change, because it read nothing that change moves
(``engine.round.witness._reads_alike``), plays exactly as under A: each test plays it anyway and compares.

The round is a function of what it reads of its ``RoundRules`` (noted by ``_Reading``), of its rulebook only the
``READ_BY_NAME`` settings and the clauses, and of its scorer's answers; the mixes are built as ``riichi diff``
builds them (``plus_change``: A's compiled rules shared), over bundled pairs and over the one-value variants of
``test_every_name_executes``. A mix of settings no scorer reads, scored by A's scorer, plays as with its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.errors import EngineError
from engine.diff.change_scenarios import REFUSED, plus_change
from engine.round import round_rules
from engine.round.rules import round_rules_scored_by
from engine.round.witness import SCRIPTS, NotPlayable, _play, _reads_alike, play, quiet_action
from engine.scoring.library import scorer
from engine.scoring.score import Scorer
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.compile import Rulebook
from ruledsl.rulebook_changes import diff
from tests.round.test_every_name_executes import Row
from tests.round.test_flow_witness import FLOW_ROWS, _file


def _compare(a: Scorer, b: Scorer, scored_by_a: bool = False) -> tuple[int, int]:
    """Every flow change of B over A: each script whose reads under A agree with A + change is played under both and
    must settle alike. Returns (scripts skipped, scripts played) over all changes. ``scored_by_a``: also every script
    under A + change scored by A's scorer (``rounds_only``, for a change no scorer reads) settles as under A + change
    with its own."""
    changes = diff(a.rulebook.resolved, b.rulebook.resolved)
    ra = round_rules(a)
    under_a = {script.key: _play(ra, script) for script in SCRIPTS}
    skipped = played = 0
    for change in (c for c in changes if not c.affects_score):
        try:
            plus, partners = plus_change(a, b, change, changes)
            rp = round_rules(plus)
        except REFUSED:
            continue
        scorer_alike = all(c.kind == "settings" and not c.affects_score for c in (change, *partners))
        quick, _ = plus_change(a, b, change, changes, rounds_only=True)
        for script in SCRIPTS:
            out, reads = under_a[script.key]
            if scored_by_a and isinstance(quick, Rulebook):
                assert _play(round_rules_scored_by(quick, a), script)[0] == _play(rp, script)[0], (change.item, script.key)
            if _reads_alike(ra, rp, reads, scorer_alike):
                skipped += 1
                assert _play(rp, script)[0] == out, (change.item, script.key)
            else:
                played += 1
    return skipped, played


@pytest.mark.parametrize(
    "pair", [("house", "wrc2025"), *(pytest.param(p, marks=pytest.mark.slow) for p in (("tenhou", "mleague"), ("house", "sanma")))], ids="-".join
)
def test_a_script_not_played_under_a_bundled_mix_plays_as_under_a(pair: tuple[str, str]) -> None:
    skipped, played = _compare(scorer(pair[0]), scorer(pair[1]), scored_by_a=pair != ("house", "wrc2025"))
    assert skipped and played, (skipped, played)


@pytest.mark.slow
@pytest.mark.parametrize("row", FLOW_ROWS, ids=lambda row: row.name)
def test_a_script_not_played_under_a_one_value_mix_plays_as_under_a(row: Row, tmp_path: Path) -> None:
    _compare(scorer(_file(tmp_path, "base", row.base)), scorer(_file(tmp_path, "variant", row.variant)), scored_by_a=True)


def test_a_round_notes_what_it_reads() -> None:
    """The double ron reads how many may ron; a first-turn abortive draw of nine terminals does not reach the rule
    for three ron, and a four-player round never reads what a three-player table sets aside for North."""
    rules = round_rules(scorer("house"))
    by_key = {s.key: s for s in SCRIPTS}
    out, reads = _play(rules, by_key["double_ron"])
    assert out == play(rules, by_key["double_ron"]) and "multiple_ron" in reads
    _out, reads = _play(rules, by_key["nine_terminals"])
    assert "triple_ron" not in reads and "kita_ron" not in reads


def _plays_alike_both_ways(rules: object) -> None:
    for script in SCRIPTS:
        try:
            listed = play(rules, script, quiet_action)  # type: ignore[arg-type]
        except (NotPlayable, EngineError, RuleEvaluationError) as e:
            with pytest.raises(type(e)):
                play(rules, script)  # type: ignore[arg-type]
            continue
        assert play(rules, script) == listed, script.key  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name",
    ["house", "wrc2025", "sanma", *(pytest.param(n, marks=pytest.mark.slow) for n in ("mleague", "tenhou", "mahjchina", "ema2016", "ema2012", "tenhou_sanma"))],
)
def test_a_script_plays_alike_with_the_quick_quiet_move(name: str) -> None:
    """``quick_quiet_action`` (a pass or the drawn tile's discard when the round finds it legal) chooses every
    unscripted move ``quiet_action`` chooses from the full listing: every script settles alike both ways."""
    _plays_alike_both_ways(round_rules(scorer(name)))


@pytest.mark.slow
@pytest.mark.parametrize("row", FLOW_ROWS, ids=lambda row: row.name)
def test_a_script_plays_alike_with_the_quick_quiet_move_under_a_one_value_variant(row: Row, tmp_path: Path) -> None:
    _plays_alike_both_ways(round_rules(scorer(_file(tmp_path, "variant", row.variant))))


def test_a_kept_wall_is_the_wall_arranged_afresh() -> None:
    """``_dealt`` keeps each script's wall with the rules it read: under rulebooks of other tile sets, red fives and
    table sizes in turn (twice, so that the second pass is served from what the first kept), every wall is the one
    arranged afresh, and a round noting its reads notes the same names either way."""
    from engine.round.witness import _arranged, _dealt, _reading

    names = ("house", "wrc2025", "sanma", "mahjchina", "tenhou_sanma_nored")
    for _ in range(2):
        for name in names:
            rules = round_rules(scorer(name))
            for script in SCRIPTS:
                if rules.players != script.players:
                    continue
                fresh, kept = _reading(rules), _reading(rules)
                try:
                    expected = _arranged(fresh, script)
                except (NotPlayable, EngineError) as e:
                    with pytest.raises(type(e)):
                        _dealt(kept, script)
                    continue
                assert _dealt(kept, script) == expected, (name, script.key)
                assert kept.__dict__["_reads"] == fresh.__dict__["_reads"], (name, script.key)
