"""The attacks on ``riichi serve`` that could stall or exhaust it, one test per class, each against a real server process on a free
port of 127.0.0.1 (``tests/web/live.py``), bounded in time and in requests.

1. a list that names many rulebooks stalls nothing and is refused past its bound (413);
2. jobs waiting for a worker hold no thread: past the queue 503 with Retry-After, cheap pages still answered;
3. slow headers, half-sent bodies and too many connections are cut off, and the server stays up;
4. a client that hangs up mid-body leaves no traceback in the log;
6. only this server's Host names are answered, a POST must be JSON, and no answer shows a server folder.
"""

from __future__ import annotations

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.scoring.library import bundled_names
from engine.web.limits import MAX_RULEBOOKS_PER_REQUEST
from tests.web.live import HOST, ROOT, error_of, serve

pytest.importorskip("uvicorn", reason="the web server needs the `web` extra")

WIN = {"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True}


def timed(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def test_a_list_of_many_rulebooks_is_bounded_and_stalls_nothing(tmp_path: Path) -> None:
    names = sorted(bundled_names())
    # a generous --list-timeout: the list at the bound must be answered in full on a loaded machine too
    with serve("--workers", "1", "--list-timeout", "300", folder=tmp_path) as live:
        too_many = [{**WIN, "rulebook": names[i % (MAX_RULEBOOKS_PER_REQUEST + 1)]} for i in range(1000)]
        status, _headers, body = live.request("POST", "/score", too_many)
        assert status == 413
        error = error_of(body)
        assert error["code"] == "limit_exceeded" and f"at most {MAX_RULEBOOKS_PER_REQUEST} distinct" in error["message"]

        # A list at the bound compiles its rulebooks in a thread: /health answers meanwhile.
        heavy = [{**WIN, "rulebook": names[-1 - i % MAX_RULEBOOKS_PER_REQUEST]} for i in range(1000)]
        with ThreadPoolExecutor(1) as pool:
            batch = pool.submit(timed, live.request, "POST", "/score", heavy, None, 300)
            time.sleep(0.05)
            health, (health_status, _h, _b) = timed(live.request, "GET", "/health")
            list_running = not batch.done()  # a loop busy with the list would answer only once it is done
            batch_seconds, (status, _h, body) = batch.result(timeout=300)
        assert status == 200 and len(json.loads(body)) == 1000 and health_status == 200
        assert list_running or health < 0.5, f"/health took {health:.2f} s while a list of {batch_seconds:.2f} s ran"


def _upload(han: int) -> dict[str, str]:
    text = (ROOT / "rulebooks" / "house.rulebook").read_text()
    return {"file": f"v{han}.rulebook", "text": text.replace("rulebook house", f"rulebook v{han}", 1)}


def test_jobs_past_the_queue_get_503_with_retry_after_and_cheap_pages_still_answer(tmp_path: Path) -> None:
    with serve("--workers", "1", "--queue", "2", "--timeout", "5", folder=tmp_path) as live:
        diff = {"a": _upload(1), "b": "mleague", "hands": 4000}
        with ThreadPoolExecutor(10) as pool:
            jobs = [pool.submit(live.request, "POST", "/diff", diff, None, 60) for _ in range(10)]
            time.sleep(0.2)
            cheap = [timed(live.request, "GET", path)[0] for path in ("/health", "/", "/rulebooks", "/health")]
            answers = [job.result(timeout=90) for job in jobs]
        busy = [a for a in answers if a[0] == 503]
        assert busy, [a[0] for a in answers]
        for _status, headers, body in busy:
            assert int(headers["retry-after"]) >= 1
            assert error_of(body)["code"] == "limit_exceeded"
        assert all(status in (200, 413, 503) for status, _h, _b in answers)
        # before: 22-39 s, the time the jobs waiting before them took (loose: the machine is shared)
        assert max(cheap) < 5.0, f"a cheap page took {max(cheap):.2f} s while jobs waited"


def _half_open(port: int, data: bytes) -> socket.socket:
    s = socket.create_connection((HOST, port), timeout=10)
    s.sendall(data)
    return s


def _closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closed the connection within ``seconds``, and what it sent first."""
    s.settimeout(seconds)
    got = b""
    try:
        while chunk := s.recv(65536):
            got += chunk
    except TimeoutError:
        return False, got
    except ConnectionResetError:
        pass
    return True, got


def test_slow_headers_half_bodies_and_too_many_connections_are_cut_off(tmp_path: Path) -> None:
    options = ("--header-timeout", "1", "--body-timeout", "2", "--max-connections", "20")
    with serve(*options, folder=tmp_path) as live:
        half_head = [_half_open(live.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") for _ in range(15)]
        time.sleep(0.2)
        head = (f"POST /score HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                "Content-Length: 1000\r\n\r\n").encode()
        half_body = [_half_open(live.port, head + b'{"hand": "234m') for _ in range(4)]
        extra = [_half_open(live.port, b"GET /") for _ in range(6)]  # 25 > 20: the 5 oldest silent ones make room
        try:
            assert [_closed_within(s, 0.5)[0] for s in half_head[:5]] == [True] * 5
            # every slot held by a slow client, and a client that sends its request at once still gets in
            assert live.request("GET", "/health", timeout=5)[0] == 200
            for s in half_body:
                done, got = _closed_within(s, 6)
                assert done and got.startswith(b"HTTP/1.1 408"), got[:200]
                assert error_of(got.split(b"\r\n\r\n", 1)[1])["code"] == "limit_exceeded"
            assert all(_closed_within(s, 6)[0] for s in half_head + extra)
        finally:
            for s in half_head + half_body + extra:
                s.close()
        assert live.process.poll() is None
        assert live.request("GET", "/health")[0] == 200
        assert live.request("POST", "/score", WIN)[0] == 200


def test_clients_hanging_up_mid_body_leave_no_traceback(tmp_path: Path) -> None:
    with serve("--log-level", "info", folder=tmp_path) as live:
        for path in ("/score", "/analyze", "/check") * 10:
            head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                    "Content-Length: 5000\r\n\r\n").encode()
            s = _half_open(live.port, head + b'{"hand": "123m", "tiles": "12')
            time.sleep(0.02)
            s.close()
        for _ in range(20):  # garbage, which uvicorn notes in the log: at most once a minute
            live.raw(b"NOT HTTP AT ALL\r\n\r\n", timeout=2)
        time.sleep(0.5)
        assert live.request("GET", "/health")[0] == 200
    log = live.log.read_text()
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]
    assert log.count("hung up") <= 1 and log.count("Invalid HTTP request") <= 1, log[-3000:]


@pytest.fixture
def rulebook_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "club rules"
    (folder / "sub").mkdir(parents=True)
    (folder / "ours.rulebook").write_text((ROOT / "rulebooks" / "house.rulebook").read_text())
    (folder / "sub" / "bad.rulebook").write_text('rulebook bad "x" extends house\nyaku q "Q" {\n han = 2\n when = nosuch\n}\n')
    return folder


def test_host_content_type_and_server_paths(tmp_path: Path, rulebook_dir: Path) -> None:
    with serve("--rulebook-dir", str(rulebook_dir), "--allow-host", "club.example", folder=tmp_path) as live:
        for host in ("evil.example", f"evil.example:{live.port}", "127.0.0.2", "localhost.evil.example"):
            status, _h, body = live.request("GET", "/rulebooks", headers={"Host": host})
            assert status == 421 and error_of(body)["code"] == "invalid_request", (host, status)
        for host in (f"127.0.0.1:{live.port}", f"localhost:{live.port}", "club.example", "CLUB.example:80"):
            assert live.request("GET", "/rulebooks", headers={"Host": host})[0] == 200, host

        raw = json.dumps(WIN).encode()
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            status, _h, body = live.request("POST", "/score", raw, headers={"content-type": kind})
            assert status == 415 and error_of(body)["code"] == "invalid_request", kind
        assert live.request("POST", "/score", raw, headers={"content-type": "application/json; charset=utf-8"})[0] == 200

        answers = [
            live.request("GET", "/rulebooks"),
            live.request("POST", "/check", {"rulebook": "sub/bad.rulebook"}),
            live.request("POST", "/check", {"rulebook": "ours"}),
            live.request("POST", "/explain", {"rulebook": "ours"}),
            live.request("POST", "/explain", {"rulebook": "sub/bad"}),
            live.request("POST", "/explain", {"rulebook": "house"}),
            live.request("POST", "/score", {**WIN, "rulebook": "sub/bad"}),
            live.request("POST", "/score", {**WIN, "rulebook": "nowhere"}),
            live.request("POST", "/diff", {"a": "ours", "b": "sub/bad", "hands": 10}),
            live.request("POST", "/check", {"rulebook": {"text": 'rulebook x "x" extends nosuch\n'}}),
            live.request("GET", "/editor"),
        ]
    text = "\n".join(body.decode() for _status, _h, body in answers)
    for folder in (str(rulebook_dir), str(rulebook_dir.resolve()), str(ROOT), str(tmp_path)):
        assert folder not in text and json.dumps(folder)[1:-1] not in text, folder
    assert "sub/bad.rulebook:4:" in text  # a diagnostic names the file relative to the rulebook folder
    assert "ours.rulebook" in text
