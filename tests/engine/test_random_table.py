"""The shipped random hands of ``riichi diff`` fall back to drawing whenever the file cannot be trusted: missing,
damaged, of another format, or written by a generator that draws other hands. Slower, never different."""

from __future__ import annotations

import json

import pytest

from engine.diff import random_table


@pytest.fixture(autouse=True)
def fresh_caches():
    random_table._file.cache_clear()
    random_table._decoded.cache_clear()
    yield
    random_table._file.cache_clear()
    random_table._decoded.cache_clear()


def _shipped_all_kinds():
    kinds, reds = random_table.TILE_SETS[1]
    return random_table.shipped(kinds, reds, random_table.SEED)


@pytest.mark.parametrize(
    "text",
    [None, "not json", json.dumps([1]), json.dumps({"format": -1, "seed": random_table.SEED}), json.dumps({"format": 1, "seed": random_table.SEED, "tile_sets": []})],
    ids=["missing", "not json", "not an object", "another format", "tile sets not an object"],
)
def test_an_unusable_file_draws_the_hands(tmp_path, monkeypatch, text):
    path = tmp_path / random_table.FILE_NAME
    if text is not None:
        path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(random_table, "PATH", path)
    assert _shipped_all_kinds() is None


def _file_with(tmp_path, monkeypatch, lines):
    kinds, reds = random_table.TILE_SETS[1]
    data = {"format": random_table._FORMAT, "seed": random_table.SEED, "tile_sets": {random_table._key(kinds, reds): lines}}
    path = tmp_path / random_table.FILE_NAME
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(random_table, "PATH", path)


def test_a_damaged_tile_set_draws_the_hands(tmp_path, monkeypatch):
    _file_with(tmp_path, monkeypatch, ["not base64 of zlib!"])
    assert _shipped_all_kinds() is None


def test_hands_another_generator_drew_are_not_used(tmp_path, monkeypatch):
    kinds, reds = random_table.TILE_SETS[1]
    row = next(random_table.rows(kinds, reds))
    other = [row[0], row[1], "111222333m444p55s", "5s", [], True, "E", "E", False, "1m"]
    _file_with(tmp_path, monkeypatch, random_table.encode([other]))
    assert _shipped_all_kinds() is None


def test_the_committed_file_is_read_again_while_its_fingerprint_holds():
    assert random_table.render() == random_table.PATH.read_text(encoding="utf-8")


def test_a_stale_file_is_drawn_afresh(tmp_path, monkeypatch):
    """A changed generator (another fingerprint) draws every tile set again; the rows are the generator's."""
    monkeypatch.setattr(random_table, "ROWS", 12)
    monkeypatch.setattr(random_table, "fingerprint", lambda: "another")
    data = json.loads(random_table.render())
    assert data["fingerprint"] == "another" and data["rows"] == 12
    path = tmp_path / random_table.FILE_NAME
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(random_table, "PATH", path)
    table = _shipped_all_kinds()
    assert table is not None and len(table.rows) == 12
    kinds, reds = random_table.TILE_SETS[1]
    assert table.rows == list(random_table.rows(kinds, reds))
