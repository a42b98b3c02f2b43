"""One command regenerates every generated file, and each committed one is fresh (what ``--check`` asserts)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
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
    assert marked == names - {
        "docs/language.md", "docs/fidelity.md", "ruledsl/situation_words.py", "engine/scoring/request_situation.py",
        "engine/scoring/situation_facts_display.py",
    }  # fmt: skip
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


def test_the_situation_words_are_written_before_anything_imports_them() -> None:
    """The vocabulary imports the generated words: a process that imported them before writing them would build the
    language reference, the TextMate grammar and the parsed rulebooks from the old words."""
    assert regenerate.GENERATED[0].name == "ruledsl/situation_words.py"
    probe = "import sys, ruledsl.regenerate; print(sorted(m for m in sys.modules if m.startswith('ruledsl.')))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    # (``ruledsl.typing_names``, which ``record`` imports, holds no words of the language)
    assert done.stdout.split() == ["['ruledsl.record',", "'ruledsl.regenerate',", "'ruledsl.typing_names']"]


@pytest.mark.slow  # a whole regenerate in a copy of the checkout; the default run keeps the ordering test above
def test_one_run_writes_everything_a_new_situation_field_changes(tmp_path: Path) -> None:
    """A new field of ``Situation`` with its words: one ``python -m ruledsl.regenerate`` in a copy of the checkout
    leaves nothing stale (the words, the parsed rulebooks' fingerprint, the language reference, the TextMate grammar,
    the request's typed fields)."""
    copy = tmp_path / "checkout"
    keep = shutil.ignore_patterns("tests", ".git", "__pycache__", "*.pyc", "build", "benchmarks", ".venv")
    shutil.copytree(ROOT, copy, ignore=keep)
    source = copy / "engine" / "core" / "situation.py"
    text = source.read_text(encoding="utf-8")
    text = text.replace("    kita: int = 0\n", "    kita: int = 0\n    nagashi: bool = False\n", 1)
    text = text.replace('    "kita": (', '    "nagashi": ("every discard was a terminal or honour", "nagashi", "hand"),\n    "kita": (', 1)
    source.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy)}
    run = [sys.executable, "-m", "ruledsl.regenerate"]
    first = subprocess.run(run, cwd=copy, env=env, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr
    wrote = {line.split()[1] for line in first.stdout.splitlines() if line.startswith("wrote ")}
    assert {"ruledsl/situation_words.py", "docs/language.md", "engine/scoring/request_situation.py", "engine/scoring/situation_facts_display.py"} <= wrote
    again = subprocess.run([*run, "--check"], cwd=copy, env=env, capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    assert "nagashi" in (copy / "docs" / "language.md").read_text(encoding="utf-8")
