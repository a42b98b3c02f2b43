"""The documentation stays true: the language reference is regenerated from the vocabulary, and the authoring
guide's rulebook snippets and commands are the ones in the example files and what the commands print."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from engine.cli import main
from ruledsl import docgen
from ruledsl import vocabulary as V

ROOT = Path(__file__).resolve().parents[2]
LANGUAGE = ROOT / "docs" / "language.md"
GUIDE = ROOT / "docs" / "authoring.md"
GUIDE_EXAMPLES = sorted((ROOT / "rulebooks" / "examples").glob("*.rulebook"))


def test_language_reference_is_current() -> None:
    assert LANGUAGE.read_text(encoding="utf-8") == docgen.generate(), (
        f"docs/language.md is stale; regenerate it with `{docgen.COMMAND}`"
    )


def test_language_reference_names_everything() -> None:
    text = docgen.generate()
    names = [*V.FACTS, *V.FUNCTIONS, *V.CONSTANTS, *V.ITEM_KINDS, *V.QUANTIFIERS, *V.DECORATORS]
    names += [key for group in V.SETTINGS.values() for key in group] + [f"settings {g}" for g in V.SETTINGS]
    missing = [name for name in names if f"`{name}`" not in text and f"`@{name}(" not in text]
    assert missing == []
    assert docgen.COMMAND in text.splitlines()[2]


def test_docgen_writes_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--write PATH`` writes the committed reference there and prints nothing; without it, the same on stdout."""
    committed = LANGUAGE.read_text(encoding="utf-8")
    assert docgen.main(["--write", str(tmp_path / "language.md")]) == 0
    assert (tmp_path / "language.md").read_text(encoding="utf-8") == committed
    assert capsys.readouterr().out == ""
    assert docgen.main([]) == 0
    assert capsys.readouterr().out == committed
    headings = [line for line in committed.splitlines() if line.startswith("## ")]
    assert len(headings) >= 8 and len(headings) == len(set(headings))
    assert len(committed.splitlines()) > 200


def _blocks(info: str) -> list[str]:
    return re.findall(rf"^```{info}\n(.*?)^```", GUIDE.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_guide_snippets_come_from_the_example_rulebooks() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in GUIDE_EXAMPLES)
    snippets = _blocks("rulebook")
    assert len(snippets) >= 6
    for snippet in snippets:
        assert snippet.strip() in sources, snippet


def test_guide_shows_two_local_yaku_and_the_organiser_tasks() -> None:
    text = "\n".join(_blocks("rulebook"))
    for needle in ("extends house", "override settings table", "remove abortive_draw", "yakuman daisharin", "yaku sanrenkou"):
        assert needle in text


@pytest.mark.parametrize("path", GUIDE_EXAMPLES, ids=lambda p: p.name)
def test_guide_example_rulebooks_check_clean(path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    code = main(["check", path.relative_to(ROOT).as_posix()])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), out
    assert re.fullmatch(r".*: ok \(\d+ items, [1-9]\d* examples? passed\)\n", out), out


def _pattern(expected: str) -> str:
    """An expected output block as a regex: `...` alone skips lines, inside a line it skips text."""
    parts = []
    for line in expected.splitlines():
        if line == "...":
            parts.append(r"(?:.*\n)*?")
        else:
            parts.append(".*".join(re.escape(piece) for piece in line.split("...")) + r"\n")
    return "".join(parts)


def _console_sessions() -> list[tuple[str, str, int]]:
    """Each `$ riichi ...` of the guide with the output shown under it and its exit code: 0, or the number a
    following `$ echo $?` shows."""
    sessions: list[tuple[str, str, int]] = []
    for block in _blocks("console"):
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        for i, (command, expected) in enumerate(steps):
            if command == "echo $?":
                continue
            follows = steps[i + 1] if i + 1 < len(steps) else None
            code = int(follows[1][0]) if follows is not None and follows[0] == "echo $?" else 0
            sessions.append((command, "\n".join(expected), code))
    return sessions


@pytest.mark.parametrize(("command", "expected", "code"), _console_sessions(), ids=lambda v: str(v)[:50])
def test_guide_commands_print_what_the_guide_shows(command: str, expected: str, code: int, capsys, monkeypatch) -> None:
    """Run in-process from the repository root; the shown output is matched against stdout and stderr."""
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "riichi"
    got = main(argv[1:])
    out, err = capsys.readouterr()
    assert got == code, out + err
    assert re.fullmatch(_pattern(expected), out + err), out + err


CLUB = ROOT / "rulebooks" / "examples" / "club_sheet.rulebook"


def _club_section_snippets() -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## 7. A whole club sheet") : text.index("## Checklist")]
    return re.findall(r"^```rulebook\n(.*?)^```", section, flags=re.S | re.M)


def test_guide_shows_the_whole_club_sheet() -> None:
    """Section 7 shows every line of the club file that is not a comment, in the file's order."""
    shown = "\n".join(_club_section_snippets())
    body = [line for line in CLUB.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    assert [line for line in shown.splitlines() if line.strip()] == body
    for needle in ("red_fives", "kiriage", 'triple_ron = "head_bump"', "remove abortive_draw sanchahou", "yaku renhou",
                   "override liability pao", "uma =", "oka_return", "remove abortive_draw suufon_renda",
                   "override abortive_draw kyuushu_kyuuhai"):
        assert needle in shown, needle


def test_club_sheet_assembled_from_the_guide_checks_clean(tmp_path: Path, capsys) -> None:
    """The snippets alone, put together in a file of the club's name, are a rulebook whose examples pass."""
    path = tmp_path / "club_sheet.rulebook"
    path.write_text("\n\n".join(_club_section_snippets()), encoding="utf-8")
    code = main(["check", str(path)])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), out
    assert out.endswith(": ok (91 items, 7 examples passed)\n"), out


def test_guide_says_head_bump_needs_sanchahou_removed() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    assert "alone does nothing" in text and "also removes `sanchahou`" in text


_BANNED = re.compile(r"tanyao|pinfu|chanta|kiriage|toitoi|daisharin|sanrenkou|wrc2025|mleague|25000|30000|7700")
MY_CODE = [
    ROOT / "ruledsl" / name for name in ("render.py", "explain.py", "docgen.py")
] + [ROOT / "engine" / "cli" / name for name in ("check.py", "explain.py", "rulebooks.py")] + [ROOT / "engine" / "scoring" / "example_runner.py"]


def test_tooling_code_names_no_yaku_or_ruleset() -> None:
    for path in MY_CODE:
        found = _BANNED.findall(path.read_text(encoding="utf-8"))
        assert found == [], (path.name, found)
