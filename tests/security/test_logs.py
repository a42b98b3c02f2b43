"""Game logs from the internet (issue 11): bounded decompression and nesting, a clean error for a bad file."""

from __future__ import annotations

import gzip
import os
import time
import tracemalloc
from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.replay import mjlog
from engine.replay.mjlog import read_mjlog
from engine.replay.tenhou6 import read_tenhou6
from tests.spec_files import TENHOU

DATA = TENHOU  # vendored: tests/data/tenhou


def refused(reader, path: Path, seconds: float = 5.0, memory: int = 200_000_000) -> EngineError:
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(EngineError) as info:
            reader(path)
    finally:
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert elapsed < seconds and peak < memory, (elapsed, peak)
    return info.value


def test_a_gzip_bomb_stops_at_the_bound(tmp_path):
    path = tmp_path / "bomb.mjlog"
    path.write_bytes(gzip.compress(b"<" * (mjlog.MAX_DECOMPRESSED_BYTES + (1 << 20)), 1))
    assert path.stat().st_size < 1_000_000
    error = refused(read_mjlog, path, seconds=5, memory=3 * mjlog.MAX_DECOMPRESSED_BYTES)
    assert error.code == "limit_exceeded" and "decompresses to more than" in error.message


def test_a_file_past_the_size_bound_is_not_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(mjlog, "MAX_LOG_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 5000)
    assert refused(read_tenhou6, path).code == "limit_exceeded"


@pytest.mark.parametrize("data", [b"[" * 200_000, b'{"log": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"])
def test_deeply_nested_json_is_a_clean_error(tmp_path, data):
    path = tmp_path / "deep.json"
    path.write_bytes(data)
    assert refused(read_tenhou6, path).code in ("limit_exceeded", "invalid_request")


def test_deeply_nested_xml_is_a_clean_error(tmp_path):
    path = tmp_path / "deep.mjlog"
    path.write_bytes(b"<mjloggm>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</mjloggm>")
    assert refused(read_mjlog, path).code == "invalid_request"


@pytest.mark.parametrize(
    "data",
    [b"\x1f\x8b\x08\x00garbage", gzip.compress(b"<mjloggm ver='2.3'><GO type='169'/></mjloggm>")[:-12], b"\xff\xfe<mjloggm/>", b""],
)
def test_damaged_mjlogs_are_clean_errors(tmp_path, data):
    path = tmp_path / "bad.mjlog"
    path.write_bytes(data)
    assert refused(read_mjlog, path).code == "invalid_request"


@pytest.mark.parametrize("data", [b'{"log": 5}', b'{"rule": [], "log": [[1]]}', b'{"log": [[[0,0,0], "x"]]}', b"[]", b"null"])
def test_malformed_tenhou6_logs_are_clean_errors(tmp_path, data):
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    assert refused(read_tenhou6, path).code == "invalid_request"


@pytest.mark.parametrize("reader", [read_mjlog, read_tenhou6])
def test_special_files_are_never_read_as_logs(reader, tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        assert "not a regular file" in refused(reader, path).message


def test_a_gzipped_real_log_still_reads(tmp_path):
    source = sorted((DATA / "mjlog").glob("*.mjlog"))[0]
    raw = source.read_bytes()
    plain = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    path = tmp_path / "game.mjlog"
    path.write_bytes(gzip.compress(plain))
    assert read_mjlog(path) == read_mjlog(source)
