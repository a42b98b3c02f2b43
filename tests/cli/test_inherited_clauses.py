"""Inherited clauses, as players read them: `explain` and `score` mark a clause a club inherits ("from house: ..."),
the JSON carries `clause_from`, `check` warns when an inherited clause names a rule the club changed, and a
`clauses from NAME = "..."` line adopts inherited clauses under the club's words (``ruledsl.clause_origin``).

Goldens in tests/golden/inherited_*.txt; regenerate with ``UPDATE_GOLDEN=1`` and review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from ruledsl.clause_origin import clause_for_players, clause_origin
from ruledsl.resolve import resolve

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
CLUB = "tests/cli/fixtures/kiriage_club.rulebook"
ADOPTED = "tests/cli/fixtures/kiriage_club_adopted.rulebook"
HAND = ["234m456m678p234s55p", "--win", "4s", "--seat", "S", "--riichi", "--dora", "3s"]

CASES = [
    ("inherited_explain_mangan.txt", ["explain", CLUB, "limit", "mangan"]),
    ("inherited_explain_uma.txt", ["explain", CLUB, "uma"]),
    ("inherited_score.txt", ["score", *HAND, "--rulebook", CLUB]),
    ("inherited_check.txt", ["check", CLUB]),
    ("inherited_adopted_explain_tanyao.txt", ["explain", ADOPTED, "tanyao"]),
    ("inherited_adopted_score.txt", ["score", *HAND, "--rulebook", ADOPTED]),
    ("inherited_adopted_check.txt", ["check", ADOPTED]),
]


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[int, str, str]:
    monkeypatch.chdir(ROOT)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("name", "argv"), CASES, ids=[c[0] for c in CASES])
def test_inherited_clause_outputs_are_golden(capsys, monkeypatch, name: str, argv: list[str]) -> None:
    code, out, err = _run(capsys, monkeypatch, argv)
    assert (code, err) == (0, "")
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_explain_and_score_mark_what_the_club_inherits(capsys, monkeypatch) -> None:
    _, out, _ = _run(capsys, monkeypatch, ["explain", CLUB, "limit", "mangan"])
    assert "clause: from house: Site rules, 'Limit tiers'" in out
    _, out, _ = _run(capsys, monkeypatch, ["explain", CLUB, "kiriage_mangan"])
    assert "clause: club rule 2: a 4 han 30 fu" in out  # the club's own clause is not marked
    _, out, _ = _run(capsys, monkeypatch, ["score", *HAND, "--rulebook", CLUB])
    assert "[from house: Site rules, 'The 11 common yaku': riichi" in out
    assert "[limit kiriage_mangan: club rule 2:" in out


def test_the_adopting_line_alone_moves_the_outputs(capsys, monkeypatch, tmp_path: Path) -> None:
    """The same club with and without `clauses from house = "..."`: only the inherited clauses' words move."""
    text = (ROOT / ADOPTED).read_text(encoding="utf-8")
    without = tmp_path / "kiriage_club_adopted.rulebook"
    without.write_text(text.replace('clauses from house = "club sheet 2026, section 1: the house rules, adopted as they stand"', ""))
    with_line = tmp_path / "with" / "kiriage_club_adopted.rulebook"
    with_line.parent.mkdir()
    with_line.write_text(text)
    outputs = []
    for path in (without, with_line):
        _, explained, _ = _run(capsys, monkeypatch, ["explain", str(path), "tanyao"])
        _, scored, _ = _run(capsys, monkeypatch, ["score", *HAND, "--rulebook", str(path)])
        outputs.append((explained, scored))
    (explain_without, score_without), (explain_with, score_with) = outputs
    assert "clause: from house: Site rules" in explain_without
    assert "clause: club sheet 2026, section 1: the house rules, adopted as they stand (from house: Site rules" in explain_with
    assert "[from house: Site rules, 'The 11 common yaku': all simples" in score_without
    assert "[club sheet 2026, section 1: the house rules, adopted as they stand (from house: Site rules" in score_with
    assert score_without.replace("[from house: ", "[club sheet 2026, section 1: the house rules, adopted as they stand (from house: ") != score_with


def test_score_json_carries_clause_from(capsys, monkeypatch) -> None:
    _, out, _ = _run(capsys, monkeypatch, ["score", *HAND, "--rulebook", CLUB, "--json"])
    result = json.loads(out)
    riichi = next(y for y in result["yaku"] if y["id"] == "riichi")
    assert riichi["clause"].startswith("Site rules, 'The 11 common yaku'")  # the text, as the contract says
    assert riichi["clause_from"] == {"rulebook": "house", "adopted": None, "adopted_in": None}
    assert all(f["clause_from"] == {"rulebook": "house", "adopted": None, "adopted_in": None} for f in result["fu_items"])
    assert result["limit_id"] == "kiriage_mangan" and result["limit_clause_from"] is None  # the club's own
    _, out, _ = _run(capsys, monkeypatch, ["score", *HAND, "--rulebook", ADOPTED, "--json"])
    riichi = next(y for y in json.loads(out)["yaku"] if y["id"] == "riichi")
    assert riichi["clause_from"] == {
        "rulebook": "house",
        "adopted": "club sheet 2026, section 1: the house rules, adopted as they stand",
        "adopted_in": "kiriage_club_adopted",
    }
    _, out, _ = _run(capsys, monkeypatch, ["score", *HAND, "--json"])  # house wrote its own clauses
    house = json.loads(out)
    assert all(y["clause_from"] is None for y in house["yaku"]) and house["limit_clause_from"] is None


def test_check_warns_with_both_places_and_stops_once_reattributed(capsys, monkeypatch) -> None:
    code, out, _ = _run(capsys, monkeypatch, ["check", CLUB])
    assert code == 0
    assert f"{CLUB}:8:7: warning: `limit mangan` shows players the clause `house` wrote (rulebooks/house.rulebook:" in out
    assert "which says `kiriage`" in out and "override limit mangan {}" in out
    _, out, _ = _run(capsys, monkeypatch, ["check", ADOPTED])
    assert "warning" not in out


# ---- clause_for_players, the one function every output asks -------------------------------------------------------


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / f"{name}.rulebook"
    path.write_text(text, encoding="utf-8")
    return str(path)


MID = """rulebook mid "A league" extends house
source "the league's sheet"
clauses from house = "league rule 1: the house rules"
@clause("league rule 2: 30,000 points each")
override settings table {
  start_points = 30000
}
"""


def test_clause_for_players_through_a_chain(tmp_path: Path) -> None:
    _write(tmp_path, "mid", MID)
    club = _write(tmp_path, "club", 'rulebook club "A club" extends mid\nsource "the club\'s sheet"\n')
    resolved = resolve(club)
    tanyao = clause_for_players(resolved, ("yaku", "tanyao"))
    assert tanyao is not None and tanyao.startswith("from mid: league rule 1: the house rules (from house: Site rules,")
    assert clause_for_players(resolved, "yaku tanyao") == clause_for_players(resolved, "tanyao") == tanyao
    assert clause_for_players(resolved, ("settings", "table"), "start_points") == "from mid: league rule 2: 30,000 points each"
    players = clause_for_players(resolved, ("settings", "table"), "players")  # set by house, under house's clause
    assert players is not None and players.startswith("from mid: league rule 1: the house rules (from house: Site rules, 'How")
    assert clause_for_players(resolved, "no_such_item") is None
    origin = clause_origin(resolved, "tanyao")
    assert origin is not None and (origin.written_by, origin.adopted_by) == ("house", "mid")
    # the club's own statement covers what mid inherited from house too, and the nearest adoption wins
    _write(tmp_path, "club", 'rulebook club "A club" extends mid\nsource "s"\nclauses from mid = "club rule 1: the league rules"\n')
    resolved = resolve(club)
    assert clause_for_players(resolved, "tanyao", None).startswith("club rule 1: the league rules (from house: Site rules")  # type: ignore[union-attr]
    assert clause_for_players(resolved, ("settings", "table")) == "club rule 1: the league rules (from mid: league rule 2: 30,000 points each)"
    assert clause_for_players(resolve("house"), "tanyao").startswith("Site rules, ")  # type: ignore[union-attr]


def test_an_adoption_that_covers_nothing_is_a_warning(tmp_path: Path) -> None:
    from ruledsl.check import check

    (tmp_path / "minimal.rulebook").write_text((ROOT / "tests/ruledsl/fixtures/good/minimal.rulebook").read_text())
    club = _write(
        tmp_path,
        "club",
        'rulebook club "A club" extends minimal\nsource "s"\nclauses from minimal = "club rule 1"\n'
        '@clause("club rule 2")\noverride settings table {}\n@clause("club rule 3")\noverride yaku closed_draw {}\n',
    )
    found = [d for d in check(resolve(club, keep_going=True)) if "clauses from minimal" in d.message]
    assert [d.severity for d in found] == ["warning"] and "adopts no clause" in found[0].message


def test_a_settings_key_is_found_however_the_clause_spells_it(tmp_path: Path) -> None:
    from ruledsl.check import check

    _write(
        tmp_path,
        "base",
        'rulebook base "Base"\nsource "s"\n@clause("base 1: four players")\nsettings table {\n  players = 4\n}\n'
        "@clause(\"base 2 ('Triple ron and other draws'): a closed self-draw wins 1 han, and a Triple-Ron aborts the hand\")\n"
        'yaku closed_draw "Closed self-draw" {\n  han = {closed: 1}\n  when = closed and tsumo\n}\n',
    )
    club = _write(
        tmp_path, "club", 'rulebook club "C" extends base\nsource "s"\n@clause("club 1: head bump")\nsettings win {\n  triple_ron = "head_bump"\n}\n'
    )
    found = [d for d in check(resolve(club, keep_going=True)) if "shows players" in d.message]
    assert len(found) == 1 and found[0].span.line == 5  # the key's line in the club file
    assert "`yaku closed_draw`" in found[0].message and "which says `Triple-Ron`" in found[0].message
    assert "base.rulebook:7:1" in found[0].message  # where the clause is written


def test_clause_for_players_takes_a_compiled_rulebook_too() -> None:
    from ruledsl.compile import load

    compiled = load(str(ROOT / CLUB))
    assert clause_for_players(compiled, ("limit", "mangan")) == clause_for_players(compiled.resolved, "limit mangan")
    assert (clause_for_players(compiled, "kiriage_mangan") or "").startswith("club rule 2:")


def test_the_liability_clause_is_marked_too(capsys, monkeypatch) -> None:
    pao = ["345m99p", "--win", "3m", "--pon", "555z", "--pon", "666z", "--pon", "777z", "--seat", "S", "--liable", "N", "--from", "E"]
    _, out, _ = _run(capsys, monkeypatch, ["score", *pao, "--rulebook", CLUB])
    assert "[liability: from house: Site rules, '11 yakuman': the player who fed" in out
    _, out, _ = _run(capsys, monkeypatch, ["score", *pao, "--rulebook", CLUB, "--json"])
    assert json.loads(out)["liability_clause_from"] == {"rulebook": "house", "adopted": None, "adopted_in": None}
    _, out, _ = _run(capsys, monkeypatch, ["score", *pao, "--json"])
    assert json.loads(out)["liability_clause_from"] is None


def _plain_word_runs(text: str) -> dict[str, str]:
    """Every run of words joined afresh, as ``clause_checks._word_runs`` read a clause before it extended each run
    by one word."""
    import re

    from ruledsl.clause_checks import MAX_ID_WORDS

    found = [(m.group(0).lower(), m.start(), m.end()) for m in re.finditer(r"[A-Za-z0-9]+", text)]
    runs: dict[str, str] = {}
    for i in range(len(found)):
        for j in range(i, min(i + MAX_ID_WORDS, len(found))):
            runs.setdefault("_".join(w for w, _s, _e in found[i : j + 1]), text[found[i][1] : found[j][2]])
    return runs


@given(st.text(alphabet="aBz09 _-.\n", max_size=60))
@settings(max_examples=300, deadline=None)
def test_a_clauses_word_runs_are_the_plain_ones(text: str) -> None:
    from ruledsl.clause_checks import _word_runs

    assert list(_word_runs(text).items()) == list(_plain_word_runs(text).items())
