"""`riichi diff` blames each witness on the right rule, and finds one for every satisfiable item.

A defect once seen: a file with kuitan nashi, kiriage and a local yaku showed, under "tanyao", a hand whose difference was
kiriage. A witness for an item must differ because of that item: applying only that item's change to A moves the
hand's result (and, when no other change contributes, to exactly B's result), and undoing only it in B moves it
back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.diff.change_witnesses import diff_with_witnesses, with_change
from engine.diff.witness import fitted, outcome
from engine.scoring.library import scorer
from engine.scoring.score import Scorer
from ruledsl.compile import compile_rulebook
from ruledsl.resolve import bundled_names, resolve

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEVERAL = str(FIXTURES / "several_changes.rulebook")
EXAMPLES = Path(__file__).resolve().parents[2] / "rulebooks" / "examples"


def _key(scorer_: Scorer, request: dict) -> tuple:
    return outcome(scorer_, fitted(request, scorer_.prepared.red_fives)).key


@pytest.fixture(scope="module")
def several():
    a, b = scorer("house"), scorer(SEVERAL)
    return a, b, diff_with_witnesses(a, b, random_hands=1000)


def test_every_change_of_a_file_with_several_gets_a_witness_of_its_own(several) -> None:
    a, b, report = several
    assert [c.item for c, _ in report.changes] == [
        "yaku tanyao", "limit kiriage", "yaku uumensai", "yakuman daisharin", "yaku iipin_moyue",
    ]
    for change, witness in report.changes:
        assert witness is not None, change.item
        request = witness["request"]
        assert witness["isolated"], change.item
        plus = Scorer(compile_rulebook(with_change(a.rulebook.resolved, b.rulebook.resolved, change)))
        minus = Scorer(compile_rulebook(with_change(b.rulebook.resolved, a.rulebook.resolved, change)))
        # the difference appears with this item alone, and disappears without it
        assert _key(a, request) != _key(b, request)
        assert _key(plus, request) == _key(b, request) != _key(a, request), change.item
        assert _key(minus, request) == _key(a, request) != _key(b, request), change.item


def test_each_witness_flips_with_its_own_item_only(several) -> None:
    """Applying any *other* change of the file alone leaves the witness's result where A has it."""
    a, b, report = several
    for change, witness in report.changes:
        for other, _ in report.changes:
            if other is change:
                continue
            plus_other = Scorer(compile_rulebook(with_change(a.rulebook.resolved, b.rulebook.resolved, other)))
            assert _key(plus_other, witness["request"]) == _key(a, witness["request"]), (change.item, other.item)


def test_rare_rules_without_examples_are_found_by_hands_built_from_their_condition(several) -> None:
    _, _, report = several
    by_item = {c.item: w for c, w in report.changes}
    for item in ("yakuman daisharin", "yaku iipin_moyue"):
        assert by_item[item]["found_by"] == "steered"
    daisharin = by_item["yakuman daisharin"]["request"]
    assert sorted(daisharin["hand"].replace("p", "")) == sorted("22334455667788")
    assert by_item["yaku iipin_moyue"]["request"]["haitei"] and by_item["yaku iipin_moyue"]["request"]["win"] == "1p"
    assert report.counts["steered"] > 0


def _pairs() -> list[tuple[str, str]]:
    """Every bundled rulebook against the one it extends, and every example file against its base."""
    pairs = []
    for name in bundled_names():
        parent = resolve(name).extends
        if parent:
            pairs.append((parent, name))
    for path in sorted(EXAMPLES.glob("*.rulebook")):
        parent = resolve(str(path)).extends
        base = str(EXAMPLES / f"{parent}.rulebook") if (EXAMPLES / f"{parent}.rulebook").exists() else parent
        pairs.append((base, str(path)))
    return pairs


def _missing(base: str, child: str) -> list[str]:
    """Searched with 1,000 random hands: the default budget (4,000) pools a superset of these (one seeded
    generator), so every witness found here is found by default too."""
    report = diff_with_witnesses(scorer(base), scorer(child), random_hands=1000)
    return [c.item for c, w in report.changes if c.affects_score and w is None]


QUICK = {"sanma", "tenhou_sanma", "local_yaku", "tournament"}  # three-player tiles, suit swaps, the examples


@pytest.mark.parametrize(
    ("base", "child"), [p for p in _pairs() if Path(p[1]).stem in QUICK], ids=lambda v: Path(v).stem
)
def test_every_scoring_item_gets_a_witness_against_its_base(base: str, child: str) -> None:
    assert _missing(base, child) == []


@pytest.mark.slow
@pytest.mark.parametrize(("base", "child"), _pairs(), ids=lambda v: Path(v).stem)
def test_every_scoring_item_of_every_rulebook_gets_a_witness_against_its_base(base: str, child: str) -> None:
    assert _missing(base, child) == []


def test_red_five_witness_shows_the_hand_with_and_without_the_red_five(capsys) -> None:
    assert main(["diff", "house", "tenhou_nored", "--json", "--hands", "200"]) == 1
    change = next(c for c in json.loads(capsys.readouterr().out)["changes"] if c["item"] == "setting red_fives")
    witness = change["witness"]
    assert "0" in witness["request"]["hand"] + witness["request"]["win"] + str(witness["request"]["melds"])
    assert "request_b" in witness and "0" not in witness["request_b"]["hand"]
    assert witness["a"]["ok"] and witness["b"]["ok"]


def test_hands_searches_exactly_n_random_hands_and_refuses_a_negative_count(capsys) -> None:
    assert main(["diff", "house", "wrc2025", "--json", "--hands", "300"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["searched_by_origin"]["random"] == 300
    assert report["searched"] == sum(report["searched_by_origin"].values())
    with pytest.raises(SystemExit) as exit_info:
        main(["diff", "house", "wrc2025", "--hands", "-5"])
    assert exit_info.value.code == 2
    assert "`-5` is negative" in capsys.readouterr().err


def test_values_are_plain_words_not_rule_source(capsys) -> None:
    assert main(["diff", "house", SEVERAL, "--hands", "100"]) == 1
    out, err = capsys.readouterr()
    assert err == ""  # no progress bar when stderr is not a terminal
    assert "han: 1 han, open or closed -> han: 1 han, closed hands only" in out
    assert "when = " not in out and "{ " not in out


def test_satisfiable_rare_rules_get_a_witness_and_impossible_ones_none() -> None:
    report = diff_with_witnesses(scorer("house"), scorer(str(FIXTURES / "rare_rules.rulebook")), random_hands=100)
    by_item = {c.item: w for c, w in report.changes}
    for item in ("yaku renhou", "yaku sanpuuko", "yaku sansou_chankan"):
        assert by_item[item] is not None and by_item[item]["isolated"], item
    renhou = by_item["yaku renhou"]["request"]
    assert renhou["renhou"] and not renhou["tsumo"] and renhou["seat_wind"] != "E"
    # seven distinct pairs from five kinds, five East tiles: no legal hand, so no witness (and no endless search)
    assert by_item["yakuman kisuu"] is None and by_item["yakuman impossible"] is None
