"""`riichi check`, `riichi explain` and `riichi rulebooks` as a user runs them: output, exit codes, and a
readable message (never a traceback) for every kind of trouble."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from rulebooks import DEFAULT_RULEBOOK
from ruledsl.parser import parse
from ruledsl.resolve import bundled_names

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "tests/ruledsl/fixtures/bad"
GOOD = ROOT / "tests/ruledsl/fixtures/good"


def riichi(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- check ---------------------------------------------------------------------------------------------------------


def test_check_bundled_name_is_ok(capsys) -> None:
    code, out, err = riichi(capsys, "check", bundled_names()[0])
    assert (code, err) == (0, "")
    assert out.startswith(f"rulebooks/{bundled_names()[0]}.rulebook: ok (") and "examples passed" in out


def test_check_reports_every_file(capsys) -> None:
    code, out, err = riichi(capsys, "check", str(GOOD / "minimal.rulebook"), str(BAD / "unknown_fact.rulebook"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{GOOD / 'minimal.rulebook'}: ok (2 items)"
    assert lines[-1] == f"{BAD / 'unknown_fact.rulebook'}: 1 error"
    assert "error: unknown name `tsumoo`" in out and "did you mean `tsumo`?" in out


def test_warnings_alone_still_pass(capsys) -> None:
    code, out, _ = riichi(capsys, "check", str(BAD / "missing_clause.rulebook"))
    assert code == 0
    assert out.rstrip().endswith("ok (1 item, 1 warning)")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.rulebook", "no such file"),
        (lambda d: d, "is a directory"),
        (lambda d: _write_bytes(d / "latin1.rulebook", b"rulebook caf\xe9\n"), "is not UTF-8 text"),
    ],
    ids=["missing", "directory", "not-utf8"],
)
def test_unreadable_files_exit_2(tmp_path: Path, capsys, make, message: str) -> None:
    target = make(tmp_path)
    code, out, err = riichi(capsys, "check", str(target), str(GOOD / "minimal.rulebook"))
    assert code == 2
    assert message in err and err.startswith("riichi check: error: ") and "Traceback" not in err
    assert "minimal.rulebook: ok" in out  # the other files are still checked


def test_unknown_bundled_name_suggests(capsys) -> None:
    name = DEFAULT_RULEBOOK  # one letter off names no other bundled rulebook (unlike `ema201x`)
    assert name in bundled_names()
    code, _, err = riichi(capsys, "check", name[:-1] + "x" if len(name) > 3 else name + "x")
    assert code == 2
    assert f"did you mean `{name}`?" in err


def _write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_check_json(capsys) -> None:
    code, out, _ = riichi(capsys, "check", "--json", str(BAD / "han_out_of_range.rulebook"), str(GOOD / "minimal.rulebook"))
    assert code == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert (first["ok"], first["errors"], first["warnings"]) == (False, 2, 0)
    assert first["diagnostics"][0] == {
        "severity": "error",
        "message": "han `14` is out of range",
        "file": str(BAD / "han_out_of_range.rulebook"),
        "line": 5,
        "column": 9,
        "help": "a yaku is worth 1 to 13 han; limit hands are `yakuman` items",
    }
    assert second["ok"] is True and second["items"] == 2


def test_check_can_skip_examples(capsys) -> None:
    code, out, _ = riichi(capsys, "check", "--no-examples", str(BAD / "failing_example.rulebook"))
    assert code == 0 and "examples passed" not in out


def test_check_finds_siblings_of_a_file_outside_the_repository(tmp_path: Path, capsys) -> None:
    (tmp_path / "base_rules.rulebook").write_text(
        'rulebook base_rules extends house\n@clause("c")\noverride settings table {\n  players = 4\n}\n', encoding="utf-8"
    )
    (tmp_path / "child.rulebook").write_text("rulebook child extends base_rules\n", encoding="utf-8")
    code, out, _ = riichi(capsys, "check", str(tmp_path / "child.rulebook"))
    assert code == 0, out


def test_no_traceback_from_the_console_script(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from engine.cli import main; sys.exit(main())", "check",
         str(tmp_path / "nothing.rulebook")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "no such file" in result.stderr


# ---- explain ---------------------------------------------------------------------------------------------------------


def test_explain_whole_rulebook(capsys) -> None:
    code, out, err = riichi(capsys, "explain", str(GOOD / "minimal.rulebook"))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "rulebook minimal: A minimal rulebook"
    assert "when: no chi, pon or open kan was made (closed kans keep a hand closed) and the winning tile was self-drawn" in out


def test_explain_one_item_by_name_or_kind_and_name(capsys) -> None:
    path = str(GOOD / "variant.rulebook")
    _, by_name, _ = riichi(capsys, "explain", path, "two_suit_simples")
    _, by_key, _ = riichi(capsys, "explain", path, "yaku", "two_suit_simples")
    _, quoted, _ = riichi(capsys, "explain", path, "yaku two_suit_simples")
    assert by_name == by_key == quoted
    assert by_name.startswith('yaku two_suit_simples "Two-suit simples"\n')
    assert "  worth: 1 han, closed hands only\n" in by_name
    assert "  note: a local yaku\n" in by_name
    assert "defined by variant at" in by_name


def test_explain_shows_what_a_variant_changed_and_removed(capsys) -> None:
    path = str(GOOD / "variant.rulebook")
    _, changed, _ = riichi(capsys, "explain", path, "fu", "value_pair")
    assert "defined by house at rulebooks/house.rulebook:" in changed
    assert 'changed by variant at ' in changed and 'citing "variant 3: a dragon pair is worth 4 fu"' in changed
    code, removed, _ = riichi(capsys, "explain", path, "suufon_renda")
    assert code == 0
    assert "removed by variant at" in removed and 'citing "variant 2: no four-winds draw"' in removed


def test_explain_unknown_item_and_rulebook_exit_2(capsys) -> None:
    code, _, err = riichi(capsys, "explain", str(GOOD / "variant.rulebook"), "two_suit_simple")
    assert code == 2 and "did you mean `two_suit_simples`?" in err
    code, _, err = riichi(capsys, "explain", "no_such_rulebook_here")
    assert code == 2 and err.startswith("riichi explain: error: ")


def test_explain_an_invalid_rulebook_exits_2_with_its_diagnostics(capsys) -> None:
    code, _, err = riichi(capsys, "explain", str(BAD / "syntax_stray_character.rulebook"))
    assert code == 2
    assert "unexpected character `&`" in err and "riichi check" in err


# ---- rulebooks ---------------------------------------------------------------------------------------------------------


def test_rulebooks_lists_every_bundled_rulebook(capsys) -> None:
    code, out, err = riichi(capsys, "rulebooks")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == bundled_names()
    for name, line in zip(bundled_names(), lines, strict=True):
        book = parse((ROOT / "rulebooks" / f"{name}.rulebook").read_text(encoding="utf-8"))
        assert book.title and book.title in line
        assert line.endswith(f"extends {book.extends}" if book.extends else "-")


def test_rulebooks_json(capsys) -> None:
    code, out, _ = riichi(capsys, "rulebooks", "--json")
    rows = json.loads(out)
    assert code == 0 and [r["name"] for r in rows] == bundled_names()
    assert set(rows[0]) == {"name", "title", "extends"}


@pytest.mark.parametrize("ceiling, refused", [(6, True), (7, False)])
def test_han_ceiling_bounds_the_han_a_yaku_may_be_written_with(capsys, tmp_path, ceiling: int, refused: bool) -> None:
    """The same 7-han yaku is refused under `han_ceiling = 6` and checks clean under 7: only the setting moves."""
    path = tmp_path / "ceiling.rulebook"
    path.write_text(
        f'rulebook ceiling "ceiling" extends house\n@clause("club rule 1")\noverride settings scoring {{\n  han_ceiling = {ceiling}\n}}\n'
        '@clause("club rule 2")\nyaku local_seven "Local seven" {\n  han = 7\n  when = closed\n}\n'
    )
    code, out, _ = riichi(capsys, "check", "--json", "--no-examples", str(path))
    messages = [d.get("help") for d in json.loads(out)["diagnostics"]]
    assert (code == 1) is refused
    assert (f"a yaku is worth 1 to {ceiling} han; limit hands are `yakuman` items" in messages) is refused
