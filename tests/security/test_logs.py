"""Game logs from the internet: bounded decompression and nesting, a clean error for a bad file."""

from __future__ import annotations

import gzip
import os
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core.errors import EngineError
from engine.replay import mjlog
from engine.replay.mjlog import read_mjlog
from engine.replay.tenhou6 import read_tenhou6
from tests.spec_files import TENHOU

DATA = TENHOU  # vendored: tests/data/tenhou


def refused(reader, path: Path, seconds: float = 5.0, memory: int = 200_000_000) -> EngineError:
    """The reader refuses the file within a bound of processor time (the work, which other processes on a loaded
    machine do not change) and of traced memory."""
    tracemalloc.start()
    start = time.process_time()
    try:
        with pytest.raises(EngineError) as info:
            reader(path)
    finally:
        elapsed = time.process_time() - start
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


@pytest.mark.parametrize("data", [b"[" * 200_000, b'{"log": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"], ids=["array", "log"])
def test_deeply_nested_json_is_a_clean_error(tmp_path, data):
    path = tmp_path / "deep.json"
    path.write_bytes(data)
    assert refused(read_tenhou6, path).code in ("limit_exceeded", "invalid_request")


def test_deeply_nested_xml_is_a_clean_error(tmp_path):
    path = tmp_path / "deep.mjlog"
    path.write_bytes(b"<mjloggm>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</mjloggm>")
    assert refused(read_mjlog, path).code == "limit_exceeded"  # more tags than a game log holds


@pytest.mark.parametrize(
    "data",
    [b"\x1f\x8b\x08\x00garbage", gzip.compress(b"<mjloggm ver='2.3'><GO type='169'/></mjloggm>", mtime=0)[:-12], b"\xff\xfe<mjloggm/>", b""],
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


# Compressed and uncompressed memory bombs: the byte bounds hold, so the bombs fit inside them
# and cost objects instead. Every reader counts what a text can hold before parsing it; the peak stays bounded.


def _gzip_file(path: Path, chunks) -> Path:
    """A gzip file written a chunk at a time: the test never holds the decompressed bomb."""
    with gzip.open(path, "wb", compresslevel=9) as stream:
        for chunk in chunks:
            stream.write(chunk)
    return path


def _repeat(unit: bytes, total: int, head: bytes = b"", tail: bytes = b"") -> Iterator[bytes]:
    yield head
    block = unit * (1 << 16)
    for _ in range(total // len(block)):
        yield block
    yield tail


BOMB_BYTES = 30 * 1024 * 1024  # under the 32 MiB decompression bound: the shape bounds must stop it
BOMB_MEMORY = 4 * mjlog.MAX_DECOMPRESSED_BYTES  # the bytes read, their text, and little more


@pytest.mark.parametrize(
    "what, head, unit, tail, words",
    [
        ("one event of empty objects", b'{"type":"start_game","x":[', b"{},", b"{}]}\n", "JSON values"),
        ("a line per empty object", b"", b"{}\n", b"", "more than 100,000 lines"),
        ("events of nested empty objects", b"", b'{"type":"none","a":[[[[[[[[[{}]]]]]]]]]}\n', b"", "lines"),
    ],
)
def test_a_compressed_mjai_bomb_is_refused_with_bounded_memory(tmp_path, what, head, unit, tail, words):
    from engine.replay.mjai_log import read_mjai_log

    path = _gzip_file(tmp_path / "bomb.mjson", _repeat(unit, BOMB_BYTES, head, tail))
    assert path.stat().st_size < 200_000, what
    error = refused(read_mjai_log, path, seconds=20, memory=BOMB_MEMORY)
    assert error.code == "limit_exceeded" and words in error.message, error.message
    assert str(path) in error.message


@pytest.mark.parametrize(
    "line, words",
    [
        ('{"type":"start_game","x":' + "[" * 40 + "]" * 40 + "}", "nested more than 32 deep"),
        ('{"type":"start_game","x":[' + "{}," * 5000 + "{}]}", "more than 4,096 JSON values"),
    ],
)
def test_one_mjai_event_is_bounded_in_depth_and_values(tmp_path, line, words):
    from engine.replay.mjai_log import read_mjai_log

    path = tmp_path / "one.mjson"
    path.write_text(line + "\n", encoding="utf-8")
    error = refused(read_mjai_log, path)
    assert error.code == "limit_exceeded" and words in error.message and f"{path}:1" in error.message


def test_tenhou6_and_mjlog_bombs_are_refused_with_bounded_memory(tmp_path):
    """The same bounds in the other readers: values and nesting of a tenhou.net/6 object, tags and attributes
    of an mjlog (plain text here: tenhou.net/6 is never gzipped, and an mjlog bomb reads like a plain one)."""
    json_bomb = tmp_path / "bomb.json"
    with json_bomb.open("wb") as stream:
        for chunk in _repeat(b"{},", 12 * 1024 * 1024, b'{"log":[', b"{}]}"):
            stream.write(chunk)
    error = refused(read_tenhou6, json_bomb, seconds=20, memory=BOMB_MEMORY)
    assert error.code == "limit_exceeded" and "JSON values" in error.message
    xml_bomb = _gzip_file(tmp_path / "bomb.mjlog", _repeat(b"<a/>", BOMB_BYTES, b"<mjloggm>", b"</mjloggm>"))
    error = refused(read_mjlog, xml_bomb, seconds=20, memory=BOMB_MEMORY)
    assert error.code == "limit_exceeded" and "XML tags" in error.message
    attrs = _gzip_file(tmp_path / "attrs.mjlog", _repeat(b' a0="" ', 8 * 1024 * 1024, b"<mjloggm><GO", b"/></mjloggm>"))
    error = refused(read_mjlog, attrs, seconds=20, memory=BOMB_MEMORY)
    assert error.code == "limit_exceeded" and "XML attributes" in error.message


def test_the_cli_answers_a_bomb_with_exit_2_and_the_file(tmp_path):
    import subprocess
    import sys

    path = _gzip_file(tmp_path / "bomb.mjson", _repeat(b"{},", BOMB_BYTES, b'{"type":"start_game","x":[', b"{}]}\n"))
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "replay", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "bomb.mjson" in done.stdout + done.stderr and "Traceback" not in done.stderr


def test_real_logs_are_far_inside_the_shape_bounds():
    from engine.protocol import log_bounds

    for source in sorted((DATA / "json").glob("*.json"))[:20]:
        text = source.read_text(encoding="utf-8")
        assert log_bounds.json_values(text) * 20 < log_bounds.MAX_VALUES
        assert log_bounds.json_depth(text) * 4 <= log_bounds.MAX_DEPTH


def test_a_malformed_log_is_bad_input_and_a_reader_bug_is_not():
    """What a malformed log makes a reader raise is ``invalid_request``; any other exception is a bug of ours and
    propagates (each interface answers it as ``internal_error``), never passed off as the log's fault."""
    from engine.core.errors import InvalidRequest

    def malformed(text, source):
        return int(text)

    def buggy(text, source):
        raise AttributeError("'NoneType' object has no attribute 'get'")

    with pytest.raises(InvalidRequest, match="not a readable mjlog"):
        mjlog.parse_guarded(malformed, "x", "a.mjlog", "mjlog")
    with pytest.raises(AttributeError):
        mjlog.parse_guarded(buggy, "x", "a.mjlog", "mjlog")
