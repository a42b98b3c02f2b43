"""One command regenerates every generated file, and each committed one is fresh (what ``--check`` asserts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruledsl import docgen, grammar_tables, parsed_cache, regenerate, textmate

ROOT = Path(__file__).resolve().parents[2]


def test_every_generated_file_is_fresh(capsys: pytest.CaptureFixture[str]) -> None:
    assert regenerate.main(["--check"]) == 0, capsys.readouterr().err  # names each stale file and the command


def test_each_generator_names_the_one_command() -> None:
    assert {grammar_tables.COMMAND, parsed_cache.COMMAND, docgen.COMMAND, textmate.COMMAND} == {regenerate.COMMAND}
    for file in regenerate.GENERATED:
        assert regenerate.COMMAND in file.path.read_text(encoding="utf-8"), file.name


def test_every_generated_file_of_the_tree_is_listed() -> None:
    """A JSON file (or JSON-lines file, by its first line) saying how to regenerate it is generated: the command
    must know it, or it would go stale."""
    marked = {
        path.relative_to(ROOT).as_posix()
        for folder in ("engine", "ruledsl", "rulebooks", "editors")
        for pattern in ("*.json", "*.jsonl")
        for path in (ROOT / folder).rglob(pattern)
        if "regenerate" in json.loads(path.read_text(encoding="utf-8").split("\n")[0] if pattern == "*.jsonl" else path.read_text(encoding="utf-8"))
    }
    names = {file.name for file in regenerate.GENERATED}
    assert marked == names - {"docs/language.md", "docs/fidelity.md", "ruledsl/situation_words.py", "engine/scoring/request_situation.py"}
    assert {file.path for file in regenerate.GENERATED} == {ROOT / name for name in names}


def _fake_tree(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[regenerate.Generated, ...]:
    files = (
        regenerate.Generated("a/fresh.txt", lambda: "same\n"),
        regenerate.Generated("a/stale.txt", lambda: "new\n"),
        regenerate.Generated("b/missing.txt", lambda: "made\n"),
    )
    monkeypatch.setattr(regenerate, "ROOT", tmp_path)
    monkeypatch.setattr(regenerate, "GENERATED", files)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "fresh.txt").write_text("same\n", encoding="utf-8")
    (tmp_path / "a" / "stale.txt").write_text("old\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    return files


def test_check_names_each_stale_file_and_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _fake_tree(monkeypatch, tmp_path)
    assert regenerate.stale(files) == ["a/stale.txt", "b/missing.txt"]
    assert regenerate.main(["--check"]) == 1
    err = capsys.readouterr().err
    assert "a/stale.txt is stale" in err and "b/missing.txt is stale" in err and "fresh.txt" not in err
    assert regenerate.COMMAND in err
    assert (tmp_path / "a" / "stale.txt").read_text(encoding="utf-8") == "old\n"
    assert not (tmp_path / "b" / "missing.txt").exists()


def test_writing_rewrites_only_the_stale_files(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_tree(monkeypatch, tmp_path)
    fresh = tmp_path / "a" / "fresh.txt"
    before = fresh.stat().st_mtime_ns
    assert regenerate.main([]) == 0
    assert capsys.readouterr().out.splitlines() == ["fresh a/fresh.txt", "wrote a/stale.txt", "wrote b/missing.txt"]
    assert (tmp_path / "a" / "stale.txt").read_text(encoding="utf-8") == "new\n"
    assert (tmp_path / "b" / "missing.txt").read_text(encoding="utf-8") == "made\n"
    assert fresh.stat().st_mtime_ns == before
    assert regenerate.main(["--check"]) == 0


def test_outside_a_checkout_it_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_tree(monkeypatch, tmp_path)
    (tmp_path / "pyproject.toml").unlink()  # an installed package: no checkout around it
    assert regenerate.main([]) == 2
    assert "not a source checkout" in capsys.readouterr().err
    assert (tmp_path / "a" / "stale.txt").read_text(encoding="utf-8") == "old\n"
