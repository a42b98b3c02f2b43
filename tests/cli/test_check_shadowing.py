"""An organiser's rules that can never act are caught: `riichi check` warns, with both locations, when a line of the
file cannot change any outcome because another rule of the rulebook decides first, and `riichi diff` names that rule.

The club sheet ``tests/golden/shadowed_club.rulebook`` holds one line of each kind found on real sheets: head bump
for three rons while the inherited triple-ron abortive draw still aborts, double-ron sharing of honba and sticks with
one winner per discard, a chi-only kuikae with chi forbidden; its other lines act and draw no warning. A renchan
list that every abortive draw overrides is a fourth kind, tried on its own below.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import InternalError
from engine.diff import shadowing
from engine.diff.change_scenarios import ROUND_ITEM_KINDS
from engine.diff.change_witnesses import diff_with_witnesses
from engine.diff.shadowing import shadowed
from engine.scoring.library import scorer
from engine.services.check import FLOW_KINDS, writes_flow_rules
from ruledsl.record import replace
from ruledsl.resolve import bundled_names, fold, parent_of, resolve
from ruledsl.rulebook_changes import diff as rulebook_diff

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
CLUB = "tests/golden/shadowed_club.rulebook"


def _check(capsys, monkeypatch, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(ROOT)
    code = main(["check", *args])
    return code, capsys.readouterr().out


def test_the_club_sheet_check_is_golden(capsys, monkeypatch) -> None:
    code, out = _check(capsys, monkeypatch, CLUB)
    assert code == 0  # warnings only: the file is valid
    golden = GOLDEN / "check_shadowed_club.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_each_silent_line_names_the_rule_that_decides_first(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    report = {"diagnostics": [json.loads(json.dumps(d.to_json())) for d in shadowed(resolve(CLUB))]}
    found = {
        (d["line"], d["message"].split("`")[1]): (d["related"][0]["file"], d["related"][0]["line"], d["message"], d["help"])
        for d in report["diagnostics"]
        if "can never change an outcome" in d["message"]
    }
    assert set(found) == {(11, 'triple_ron = "head_bump"'), (12, 'honba_to = "each"'), (13, 'sticks_to = "split"'), (19, 'kuikae = ["same_tile"]')}
    house = resolve("house").items[("abortive_draw", "sanchahou")].definition
    assert house is not None
    file, line, message, help_text = found[(11, 'triple_ron = "head_bump"')]
    assert (file, line) == ("rulebooks/house.rulebook", house.name_span.line)  # the shadowing rule's own location
    assert "`abortive_draw sanchahou` decides first" in message and "remove abortive_draw sanchahou" in help_text
    for key in ((12, 'honba_to = "each"'), (13, 'sticks_to = "split"')):
        file, line, message, help_text = found[key]
        assert (file, line) == (CLUB, 10) and "`multiple_ron = 1` decides first" in message and "multiple_ron = 2" in help_text
    file, line, message, help_text = found[(19, 'kuikae = ["same_tile"]')]
    assert (file, line) == (CLUB, 18) and "`chi = false` decides first" in message and "chi = true" in help_text


def test_a_renchan_list_every_abortive_draw_overrides_is_caught(tmp_path: Path) -> None:
    """Every abortive draw of house names its own dealer: a renchan list without "abortive" never acts, and the
    warning names the abortive draw a removal would free, and the others that also decide by their own fields."""
    path = tmp_path / "ren.rulebook"
    path.write_text('rulebook ren extends house\n@clause("c 1")\noverride settings game {\n  renchan = ["dealer_win", "dealer_tenpai"]\n}\n')
    [warning] = shadowed(resolve(str(path)))
    assert warning.span.line == 4 and warning.related[0].span.file == "rulebooks/house.rulebook"
    assert "`abortive_draw sanchahou` decides first, settling the round by its own fields" in warning.message
    assert "`kyuushu_kyuuhai`, `suucha_riichi`, `suufon_renda`, `suukaikan` also settle their rounds" in warning.message


def test_a_line_that_acts_once_its_shadow_is_gone_draws_no_warning(tmp_path: Path) -> None:
    """The club sheet that also removes the triple-ron abortive draw (as rulebooks/examples/club_sheet does): head
    bump now acts, so nothing is said about it."""
    text = (ROOT / CLUB).read_text(encoding="utf-8").replace("rulebook shadowed_club", "rulebook fixed_club")
    text += '\n@clause("club rule 6: three rons do not abort")\nremove abortive_draw sanchahou\n'
    path = tmp_path / "fixed_club.rulebook"
    path.write_text(text, encoding="utf-8")
    lines = [d.message.split("`")[1] for d in shadowed(resolve(str(path)))]
    assert 'triple_ron = "head_bump"' not in lines
    assert 'honba_to = "each"' in lines  # still one winner per discard


@pytest.mark.parametrize("ref", [*bundled_names(), "rulebooks/examples/club_sheet.rulebook", "rulebooks/examples/tournament.rulebook"])
def test_bundled_rulebooks_have_no_line_that_cannot_act(ref: str) -> None:
    assert [d.render() for d in shadowed(resolve(ref))] == []


def test_the_search_is_bounded(monkeypatch) -> None:
    """An untrusted file cannot make the search run long: with no tries left it gives up and says nothing."""
    monkeypatch.setattr(shadowing, "SHADOW_TRIES", 0)
    assert shadowed(resolve(str(ROOT / CLUB)), tries=0) == []


def test_a_file_that_extends_nothing_is_not_searched() -> None:
    assert shadowed(resolve("house")) == []


def test_the_diff_names_the_rule_that_decides_first(tmp_path: Path) -> None:
    base = tmp_path / "one_winner.rulebook"
    base.write_text('rulebook one_winner extends house\n@clause("c 1")\noverride settings win {\n  multiple_ron = 1\n}\n')
    club = tmp_path / "club.rulebook"
    club.write_text('rulebook club extends one_winner\n@clause("c 2")\noverride settings win {\n  honba_to = "each"\n}\n')
    report = diff_with_witnesses(scorer(str(base)), scorer(str(club)), random_hands=0).to_json()
    [change] = report["changes"]
    assert change["scenario"] is None
    assert "one_winner's `multiple_ron = 1` decides first" in change["no_scenario"]
    assert "only together with a change of `setting multiple_ron`" in change["no_scenario"]


def test_a_narrower_pao_is_shown_alone() -> None:
    """Dropping big four winds from the liable yakuman matters alone: a round where North feeds the fourth wind set."""
    report = diff_with_witnesses(scorer("house"), scorer(str(ROOT / "rulebooks/examples/club_sheet.rulebook")), random_hands=0).to_json()
    [change] = [c for c in report["changes"] if c["item"] == "liability pao"]
    scenario = change["scenario"]
    assert scenario is not None and scenario["script"] == "pao_winds" and "together_with" not in scenario
    assert scenario["a"]["deltas"] != scenario["b"]["deltas"]


def _fault_on_first_judge(monkeypatch) -> None:
    """A bug inside the search: a KeyError forced into its first judgement."""
    real = shadowing._judge
    calls = {"n": 0}

    def faulty(mine, theirs, change, *rest):
        calls["n"] += 1
        if calls["n"] == 1:
            raise KeyError("forced")
        return real(mine, theirs, change, *rest)

    monkeypatch.setattr(shadowing, "_judge", faulty)


def test_a_fault_of_the_search_is_an_internal_error_not_a_finding(monkeypatch) -> None:
    """A bug inside the search is the contract's internal error, naming the line it was judging and asking for a
    report: never a warning about the organiser's file, and never swallowed."""
    monkeypatch.chdir(ROOT)
    _fault_on_first_judge(monkeypatch)
    with pytest.raises(InternalError) as caught:
        shadowed(resolve(CLUB))
    message = caught.value.message
    assert message.startswith("internal error while judging whether `") and "can change an outcome (KeyError: 'forced')" in message
    assert "please report" in message and isinstance(caught.value.__cause__, KeyError)


def test_riichi_check_says_a_fault_of_the_search_in_one_line_with_its_own_exit_code(capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    _fault_on_first_judge(monkeypatch)
    assert main(["check", CLUB]) == 3
    err = capsys.readouterr().err
    assert err.startswith("riichi check: internal error while judging whether ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_mix_the_engine_refuses_is_no_evidence(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)

    def refused(*_args):
        raise shadowing.UNPLAYABLE[0]([])

    monkeypatch.setattr(shadowing, "_judge", refused)
    assert shadowed(resolve(CLUB)) == []


def _extending_files() -> list[Path]:
    files = [*(ROOT / "rulebooks").rglob("*.rulebook"), *GOLDEN.glob("*.rulebook"), *(ROOT / "tests" / "ruledsl" / "fixtures" / "good").glob("*.rulebook")]
    return sorted(p for p in files if re.search(r"^rulebook \w+.* extends ", p.read_text(encoding="utf-8"), re.MULTILINE))


def test_the_search_judges_the_kinds_check_looks_for() -> None:
    assert FLOW_KINDS == {"settings", *ROUND_ITEM_KINDS}


@pytest.mark.parametrize("path", _extending_files(), ids=lambda p: p.name)
def test_a_file_writing_no_flow_rule_changes_none_and_has_no_shadow(path: Path, monkeypatch) -> None:
    """`riichi check` runs the shadowing search (and imports its round machinery) only for a file that writes an
    item of a kind the search judges: any other file's flow rules are those it extends, so the search finds
    nothing to judge. Held on every file of the repository that extends another, and on each with its flow items
    dropped."""
    monkeypatch.chdir(path.parent)
    text = path.read_text(encoding="utf-8")
    try:
        resolved = resolve(path.stem, text=text, file=path.name, keep_going=True)
    except Exception:  # noqa: BLE001 - a file whose chain cannot be loaded from here is not a case
        pytest.skip("the chain cannot be loaded")
    parent = parent_of(resolved)
    assert parent is not None
    if not writes_flow_rules(resolved):
        assert rulebook_diff(parent, resolved, kinds=FLOW_KINDS) == []
        assert resolved.errors or shadowed(resolved) == []
    flowless = replace(resolved.chain[-1], items=tuple(i for i in resolved.chain[-1].items if i.kind not in FLOW_KINDS))
    folded = fold([*resolved.chain[:-1], flowless], resolved.texts, keep_going=True)
    assert not writes_flow_rules(folded)
    assert rulebook_diff(parent_of(folded), folded, kinds=FLOW_KINDS) == []
