"""`riichi sheet`: the players' handout, golden for the bundled rulebooks, its payment tables cell by cell
against the spec's tables, its HTML page's structure and escaping, and its bad-input errors."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from engine.cli import main
from tests.conformance.test_point_tables import LIMITS, _cells

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
HOSTILE_CLAUSE = "<script>alert(1)</script> [click](javascript:alert(2)) | `x` **bold** & <img src=x onerror=alert(3)>"
HOSTILE = f'''rulebook hostile "<b>Club</b> & friends" extends house
source "<iframe src=//evil.example>"

@clause("{HOSTILE_CLAUSE}")
override yaku tanyao {{
  han = {{closed: 1}}
}}
'''


def _sheet(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["sheet", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("sheet_house.md", ["house"]),
        ("sheet_mleague_against_wrc2025.md", ["mleague", "--against", "wrc2025"]),
        ("sheet_sanma.md", ["sanma"]),
    ],
)
def test_sheet_is_golden(capsys, name: str, args: list[str]) -> None:
    out = _sheet(capsys, *args)
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def _tables(markdown: str) -> dict[str, dict[int, list[str]]]:
    """The payment tables of a Markdown handout: title -> fu -> the four han cells, as printed."""
    tables: dict[str, dict[int, list[str]]] = {}
    for block in markdown.split("\n### ")[1:]:
        title, _, body = block.partition("\n")
        rows = {}
        for line in body.splitlines():
            m = re.match(r"^\| (\d+) fu \| (.*) \|$", line)
            if m:
                rows[int(m.group(1))] = [c.strip() for c in m.group(2).split(" | ")]
        tables[title] = rows
    return tables


def _plain(cell: str) -> str:
    return cell.removesuffix(" (mangan)")


def test_the_payment_tables_equal_the_specs_cell_by_cell(capsys) -> None:
    """Every cell the spec gives (examples.md §5, 88 cells; `-` ones are impossible hands and not compared)."""
    tables = _tables(_sheet(capsys, "house"))
    compared = 0
    for who, han, fu, ron, tsumo in _cells():
        dealer = "Dealer" if who == "D" else "Non-dealer"
        if ron != "-":
            assert _plain(tables[f"{dealer} ron"][fu][han - 1]) == ron, (who, han, fu)
            compared += 1
        if tsumo != "-":
            expected = f"{tsumo} all" if who == "D" else tsumo
            assert _plain(tables[f"{dealer} tsumo"][fu][han - 1]) == expected, (who, han, fu)
            compared += 1
    assert compared == 160


def test_the_limit_rows_equal_the_specs(capsys) -> None:
    out = _sheet(capsys, "house")
    rows = {m.group(1): m.group(2).split(" | ") for m in re.finditer(r"^\| (mangan|haneman|baiman|sanbaiman|yakuman) \| (.*) \|$", out, re.M)}
    for tier, _han, nd_ron, nd_tsumo, d_ron, d_tsumo in LIMITS:
        cells = rows[tier]
        assert cells[2:6] == [f"{nd_ron:,}", f"{nd_tsumo[0]:,}/{nd_tsumo[1]:,}", f"{d_ron:,}", f"{d_tsumo:,} all"], tier
    assert "| double yakuman |" in out  # house has double yakuman (a 13-sided thirteen orphans)


def test_a_mark_beside_every_difference(capsys) -> None:
    out = _sheet(capsys, "mleague", "--against", "wrc2025")
    assert "≠ wrc2025: 30,000" in out  # start points
    assert "≠ wrc2025: 15, 5, −5, −15" in out or "≠ wrc2025: 15, 5, -5, -15" in out  # uma
    assert re.search(r"\| Blessing of man \| not played here.*\| ≠ wrc2025: played \|", out)  # a rule only wrc2025 has
    assert re.search(r"\| Counted yakuman \| not played", out)  # mleague removes kazoe


def test_a_three_player_rulebook(capsys) -> None:
    out = _sheet(capsys, "sanma")
    assert "3 players" in out and "| players at the table | 3 |" in out
    tables = _tables(out)
    assert tables["Non-dealer tsumo"][30][2] == "1,000/2,000"  # tsumo loss: each payer as at four, one fewer payer
    assert tables["Dealer tsumo"][30][2] == "2,000 all"
    assert "| North tiles |" in out  # kita is a bonus
    assert "Four winds" in out.split("## Not played", 1)[1]


def test_the_html_page_is_self_contained_and_escapes_the_rulebook(capsys, tmp_path) -> None:
    file = tmp_path / "hostile.rulebook"
    file.write_text(HOSTILE, encoding="utf-8")
    page = _sheet(capsys, str(file), "--format", "html", "--against", "house")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "@media print" in page and "<style>" in page
    tags = re.findall(r"<[a-zA-Z][^>]*>", page)  # the page's own markup: a rulebook's `<` is an entity
    assert not [t for t in tags if re.match(r"<(script|iframe|img|link|object|embed)\b", t, re.I) or re.search(r"\s(src|href|on\w+)=", t)]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=alert(3)&gt;" in page
    assert "&lt;b&gt;Club&lt;/b&gt; &amp; friends" in page
    assert page.count("<table") == 4 + 1 + page.count("<h2>") - 2  # 4 payment tables, limits, one per section
    row = next(line for line in page.splitlines() if "<td>All simples</td>" in line)
    assert row.startswith('<tr class="differs">') and '<span class="mark">≠ house: 1 han, open or closed</span>' in row


def test_markdown_escapes_the_rulebook(capsys, tmp_path) -> None:
    file = tmp_path / "hostile.rulebook"
    file.write_text(HOSTILE, encoding="utf-8")
    out = _sheet(capsys, str(file))
    assert "<script>" not in out and "<img" not in out and "<b>" not in out
    assert "&lt;script&gt;" in out and "\\[click\\](javascript:alert(2)) \\|" in out


def test_output_file(capsys, tmp_path) -> None:
    target = tmp_path / "rules.html"
    assert main(["sheet", "house", "--format", "html", "-o", str(target)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""  # the handout goes to the file; the terminal is told where, on standard error
    lines = target.read_text(encoding="utf-8").count("\n")
    assert captured.err == f"riichi sheet: wrote `{target}` ({lines:,} lines)\n"
    assert "<h3>Dealer tsumo</h3>" in target.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nosuch"], "unknown rulebook `nosuch`"),
        (["house", "--against", "nosuch.rulebook"], "`nosuch.rulebook`: no such file"),
        (["house", "-o", "/nonexistent-folder/x.md"], "cannot write `/nonexistent-folder/x.md`"),
        (["house", "--format", "pdf"], "invalid choice: 'pdf'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args: list[str], says: str) -> None:
    with pytest.raises(SystemExit) if "--format" in args else _nothing() as raised:
        code = main(["sheet", *args])
    code = raised.value.code if raised is not None and hasattr(raised, "value") else code
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


def test_a_rulebook_with_errors(capsys, tmp_path) -> None:
    file = tmp_path / "bad.rulebook"
    file.write_text('rulebook bad "x" extends house\nyaku foo { han = \n', encoding="utf-8")
    assert main(["sheet", str(file)]) == 2
    err = capsys.readouterr().err
    assert "bad.rulebook:2:" in err and "^" in err and "Traceback" not in err


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False
