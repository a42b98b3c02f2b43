"""The fingerprint of the sources that made the shipped files is kept beside the bytecode and trusted only while
every source keeps its size and modification time; the shipped files are read by name."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from ruledsl import compiled_cache, package_files, parsed_cache

SOURCES = ("a.py", "b.lark")
OLD = 1_600_000_000_000_000_000  # a modification time long past (ns)


@pytest.fixture
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder standing for ``ruledsl``, with two sources last modified long ago."""
    for name, text in zip(SOURCES, ("x = 1\n", 'start: "a"\r\n'), strict=True):
        (tmp_path / name).write_bytes(text.encode())
        os.utime(tmp_path / name, ns=(OLD, OLD))
    monkeypatch.setattr(package_files, "RULEDSL", str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    return tmp_path


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The source lists ``digest`` was asked to read (the stamp answers the others)."""
    calls: list[tuple[str, ...]] = []
    real = package_files.digest

    def counted(names: tuple[str, ...]) -> str:
        calls.append(names)
        return real(names)

    monkeypatch.setattr(package_files, "digest", counted)
    return calls


def _stamp(folder: Path) -> Path:
    (found,) = (folder / "__pycache__").glob("fingerprint-*.json")
    return found


def test_the_stamp_answers_while_the_sources_are_unchanged(sources: Path, hashed: list[tuple[str, ...]]) -> None:
    first = package_files.fingerprint(SOURCES)
    assert first == package_files.digest(SOURCES) and len(first) == 64
    hashed.clear()
    assert package_files.fingerprint(SOURCES) == first and hashed == []  # read from the stamp, not hashed
    assert json.loads(_stamp(sources).read_text())["digest"] == first


def test_line_endings_do_not_change_the_digest(sources: Path) -> None:
    before = package_files.digest(SOURCES)
    (sources / "b.lark").write_bytes(b'start: "a"\n')
    assert package_files.digest(SOURCES) == before


@pytest.mark.parametrize("change", ["size", "time"])
def test_a_changed_source_is_hashed_again(change: str, sources: Path, hashed: list[tuple[str, ...]]) -> None:
    first = package_files.fingerprint(SOURCES)
    if change == "size":
        (sources / "a.py").write_text("x = 12\n")
    else:  # the same size, another text, another modification time
        (sources / "a.py").write_text("x = 2\n")
    os.utime(sources / "a.py", ns=(OLD + 10**9, OLD + 10**9))
    hashed.clear()
    second = package_files.fingerprint(SOURCES)
    assert second != first and second == package_files.digest(SOURCES) and hashed[0] == SOURCES
    hashed.clear()
    assert package_files.fingerprint(SOURCES) == second and hashed == []


def test_a_source_modified_just_now_is_not_stamped(sources: Path, hashed: list[tuple[str, ...]]) -> None:
    """Another edit within the same tick of a coarse clock would keep its size and time: hashed at every start
    until it is older."""
    (sources / "a.py").write_text("x = 3\n")
    package_files.fingerprint(SOURCES)
    assert not (sources / "__pycache__").exists()
    hashed.clear()
    package_files.fingerprint(SOURCES)
    assert hashed == [SOURCES]


@pytest.mark.parametrize("content", ["not json", "[]", '{"format": 0}', '{"format": 1, "sources": [], "stats": [], "digest": 3}'])
def test_a_damaged_or_foreign_stamp_is_ignored_and_replaced(content: str, sources: Path) -> None:
    right = package_files.fingerprint(SOURCES)
    stamp = _stamp(sources)
    stamp.write_text(content)
    assert package_files.fingerprint(SOURCES) == right
    assert json.loads(stamp.read_text())["digest"] == right


def test_a_stamp_of_other_stats_is_not_trusted(sources: Path) -> None:
    right = package_files.fingerprint(SOURCES)
    stamp = _stamp(sources)
    kept = json.loads(stamp.read_text())
    stamp.write_text(json.dumps({**kept, "stats": [[0, 0], [0, 0]], "digest": "0" * 64}))
    assert package_files.fingerprint(SOURCES) == right


def test_each_list_of_sources_has_its_own_stamp(sources: Path) -> None:
    package_files.fingerprint(SOURCES)
    package_files.fingerprint(SOURCES[:1])
    assert len(list((sources / "__pycache__").glob("fingerprint-*.json"))) == 2
    assert package_files.fingerprint(SOURCES[:1]) == package_files.digest(SOURCES[:1])


def test_a_folder_that_cannot_be_written_still_gives_the_digest(sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (sources / "__pycache__").write_text("a file where the folder would be")
    assert package_files.fingerprint(SOURCES) == package_files.digest(SOURCES)
    assert list(sources.glob("__pycache__*")) == [sources / "__pycache__"]


def test_no_stamp_is_written_where_bytecode_is_not(
    sources: Path, monkeypatch: pytest.MonkeyPatch, hashed: list[tuple[str, ...]]
) -> None:
    """``python -B`` and ``PYTHONDONTWRITEBYTECODE`` ask for no files beside the sources: each start hashes them,
    and a stamp written earlier is still read."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    right = package_files.fingerprint(SOURCES)
    assert right == package_files.digest(SOURCES) and not (sources / "__pycache__").exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    package_files.fingerprint(SOURCES)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    hashed.clear()
    assert package_files.fingerprint(SOURCES) == right and hashed == []


def test_the_stamp_follows_the_pycache_prefix(
    sources: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix = tmp_path_factory.mktemp("prefix")
    monkeypatch.setattr(sys, "pycache_prefix", str(prefix))
    package_files.fingerprint(SOURCES)
    assert not (sources / "__pycache__").exists()
    (found,) = prefix.rglob("fingerprint-*.json")
    assert found.parent == prefix / str(sources).lstrip(os.sep)


def test_a_missing_source_raises_as_hashing_it_would(sources: Path) -> None:
    (sources / "a.py").unlink()
    with pytest.raises(OSError):
        package_files.fingerprint(SOURCES)


def test_the_shipped_files_are_read_by_name() -> None:
    assert parsed_cache.shipped() == package_files.shipped_text(parsed_cache.FILE_NAME)
    assert compiled_cache.shipped_text() == package_files.shipped_text(compiled_cache.FILE_NAME)
    assert parsed_cache.shipped_bytes() == package_files.shipped_bytes(parsed_cache.FILE_NAME)
    assert package_files.shipped_text("no-such-file.jsonl") is None
    assert package_files.shipped_bytes("no-such-file.jsonl") is None


def test_the_caches_fingerprints_are_their_sources_digests() -> None:
    assert parsed_cache.fingerprint() == package_files.digest(parsed_cache.SOURCES)
    assert compiled_cache.fingerprint() == package_files.digest(compiled_cache.SOURCES)
