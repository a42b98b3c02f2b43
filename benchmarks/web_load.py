"""Load test of ``riichi serve`` on localhost: many score requests from many concurrent clients, every answer checked.

Run: ``python benchmarks/web_load.py [--requests 20000] [--clients 50] [--batch N]``.

Starts ``riichi serve`` on a free port of 127.0.0.1 (as an operator would: one uvicorn process), then opens
``--clients`` keep-alive connections that together send ``--requests`` ``POST /score`` requests, drawn in turn
from a fixed mix (wins under three rulebooks, tsumo and ron, dealer and not, red fives, calls, a yakuman, and
answers that are errors: no yaku, bad notation, an unknown rulebook). Every answer's status and body are compared
with the answer the engine gives in this process (``engine.cli.score.answer_line``, the JSON-lines interface), so
a wrong or mixed-up answer fails the run. Afterwards the server must still be healthy: ``/health`` answers and a
last request scores right. Prints requests/s and the latency percentiles; exits 1 on any wrong answer.

With ``--batch N`` every request is a list of N score requests (``POST /score`` answers a list item by item), as
tournament software scoring a whole session would send them; hands/s is then N times requests/s.

With ``--stress`` it measures instead what the cheap requests see under a flood of expensive requests: while
``--diffs`` (100) concurrent ``POST /diff`` uploads and a ``--batch`` (1,000) request ``POST /score`` list over
several rulebooks (sent again and again) run, one client alternates ``GET /health`` and a single ``POST /score``;
the figures are their p50/p99/max (the goal: p99 under 200 ms) and what the uploads were answered (200 or 503
with Retry-After, past the queue).

The load is bounded (a fixed number of requests, a time bound of ``--max-seconds``) and goes only to 127.0.0.1.
The clients run in this process, on the same two cores as the server, so the figure is a floor for the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.cli.score import answer_line  # noqa: E402
from engine.web.errors import status_of  # noqa: E402

MIX: list[dict] = [
    {"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True, "dora_indicators": "4s"},
    {"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True, "rulebook": "wrc2025"},
    {"hand": "123m456p789s11122z", "win": "3m", "tsumo": True, "seat_wind": "E", "round_wind": "E"},
    {"hand": "22m345p067s678s555z", "win": "5z", "melds": [], "seat_wind": "W", "rulebook": "mleague"},
    {"hand": "234m456m678p234s55p", "win": "4s", "seat_wind": "S", "riichi": True, "dora_indicators": "3s"},
    {"hand": "19m19p19s1234567z1m", "win": "1m", "seat_wind": "S"},
    {"hand": "23455m", "win": "5m", "melds": [{"type": "pon", "tiles": "777z"}, {"type": "chi", "tiles": "123p"}, {"type": "pon", "tiles": "999s"}], "seat_wind": "N"},
    {"hand": "11223344556677z", "win": "7z", "tsumo": True, "seat_wind": "S", "honba": 2, "riichi_sticks": 1},
    {"hand": "234m567m789p46s88p5s", "win": "5s"},  # no yaku
    {"hand": "234m567m789p46s88p5x", "win": "5s"},  # bad notation
    {"hand": "234m567m789p46s88p5s", "win": "5s", "rulebook": "nowhere"},  # unknown rulebook
    {"hand": "11123455678999m", "win": "5m", "riichi": True, "ura_indicators": "9p", "rulebook": "wrc2025"},
]


def expected_answers(batch: int = 0) -> list[tuple[bytes, int, object]]:
    """(request body, expected status, expected answer) for every request of the mix, from the engine itself;
    with ``batch``, bodies that are lists of ``batch`` requests of the mix, answered 200 with a list."""
    rows: list[tuple[bytes, int, object]] = []
    for request in MIX:
        text = json.dumps(request)
        answer = answer_line(text, None)
        rows.append((text.encode(), status_of(answer), answer))
    if not batch:
        return rows
    lists = []
    for start in range(len(MIX)):
        chosen = [MIX[(start + i) % len(MIX)] for i in range(batch)]
        answers = [answer_line(json.dumps(r), None) for r in chosen]
        lists.append((json.dumps(chosen).encode(), 200, answers))
    return lists


async def one_client(host: str, port: int, jobs: list[int], rows: list, latencies: list[float], failures: list[str]) -> None:
    """One keep-alive connection sending its share of the requests one after another (HTTP/1.1, by hand:
    the client must cost little next to the server)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for index in jobs:
            body, status, answer = rows[index % len(rows)]
            head = (
                f"POST /score HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode()
            start = time.perf_counter()
            writer.write(head + body)
            got_status, got_body = await read_response(reader)
            latencies.append(time.perf_counter() - start)
            if got_status != status or json.loads(got_body) != answer:
                failures.append(f"request {index}: status {got_status} (wanted {status}), body {got_body[:200]!r}")
    finally:
        writer.close()


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next(int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:"))
    return status, await reader.readexactly(length)


async def run_load(
    host: str, port: int, requests: int, clients: int, max_seconds: float, batch: int = 0
) -> tuple[float, list[float], list[str]]:
    rows = expected_answers(batch)
    latencies: list[float] = []
    failures: list[str] = []
    shares = [list(range(c, requests, clients)) for c in range(clients)]
    start = time.perf_counter()
    await asyncio.wait_for(
        asyncio.gather(*(one_client(host, port, share, rows, latencies, failures) for share in shares)), max_seconds
    )
    return time.perf_counter() - start, latencies, failures


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "engine.cli", "serve", "--port", str(port), "--log-level", "error"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return process
        except OSError:
            if process.poll() is not None:
                raise SystemExit("riichi serve exited at start") from None
            time.sleep(0.1)
    process.kill()
    raise SystemExit("riichi serve did not answer within 30 s")


def healthy(port: int) -> bool:
    """The server answers /health and still scores the first request of the mix right."""
    base = f"http://127.0.0.1:{port}"
    with urllib.request.urlopen(base + "/health", timeout=5) as response:
        if json.load(response).get("ok") is not True:
            return False
    body, _status, answer = expected_answers()[0]
    request = urllib.request.Request(base + "/score", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return bool(json.load(response) == answer)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def post(port: int, path: str, data: object, timeout: float = 120) -> tuple[int, bytes]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(data).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def uploads(count: int) -> list[dict]:
    """``count`` distinct uploaded rulebooks (the house rules under another name), so that no answer is cached."""
    text = (ROOT / "rulebooks" / "house.rulebook").read_text()
    return [{"file": f"club{i}.rulebook", "text": text.replace("rulebook house", f"rulebook club{i}", 1)} for i in range(count)]


def mixed_batch(size: int) -> list[dict]:
    """A list of ``size`` score requests cycling through 8 rulebooks (the most one list may name)."""
    from engine.scoring.library import bundled_names
    from engine.web.limits import MAX_RULEBOOKS_PER_REQUEST

    names = sorted(bundled_names())[:MAX_RULEBOOKS_PER_REQUEST]
    return [{**MIX[i % 8], "rulebook": names[i % len(names)]} for i in range(size)]


def stress(port: int, diffs: int, batch: int, max_seconds: float) -> int:
    """Probe /health and a single /score while the diffs and the lists run; print the figures."""
    probe = {"health": [], "score": []}  # type: dict[str, list[float]]
    done = threading.Event()
    single = {k: v for k, v in MIX[0].items()}
    lists: list[tuple[int, float]] = []

    def send_lists() -> None:
        chosen = mixed_batch(batch)
        while not done.is_set():
            start = time.perf_counter()
            status, _ = post(port, "/score", chosen)
            lists.append((status, time.perf_counter() - start))

    def probes() -> None:
        while not done.is_set():
            start = time.perf_counter()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30) as response:
                response.read()
            probe["health"].append(time.perf_counter() - start)
            start = time.perf_counter()
            status, _ = post(port, "/score", single, timeout=30)
            probe["score"].append(time.perf_counter() - start)
            assert status == 200, status
            time.sleep(0.02)

    bodies = [{"a": upload, "b": "mleague"} for upload in uploads(diffs)]
    start = time.perf_counter()
    with ThreadPoolExecutor(diffs + 2) as pool:
        helpers = [pool.submit(send_lists), pool.submit(probes)]
        time.sleep(0.3)  # the probes' first figures are taken before the load, as a baseline
        answers = list(pool.map(lambda b: post(port, "/diff", b, timeout=max_seconds), bodies))
        done.set()
        for helper in helpers:
            helper.result(timeout=max_seconds)
    elapsed = time.perf_counter() - start
    codes: dict[int, int] = {}
    for status, _ in answers:
        codes[status] = codes.get(status, 0) + 1
    print(f"riichi serve under load for {elapsed:.1f} s: {diffs} concurrent POST /diff uploads "
          f"(answered {', '.join(f'{n} x {c}' for c, n in sorted(codes.items()))}), "
          f"{len(lists)} POST /score lists of {batch} over 8 rulebooks "
          f"(statuses {sorted({s for s, _ in lists})}, {statistics.median([t for _, t in lists]) * 1000:.0f} ms each)")
    worst = 0.0
    for name, values in probe.items():
        p99 = percentile(values, 0.99)
        worst = max(worst, p99)
        print(f"  {'GET /health' if name == 'health' else 'single /score':14} {len(values)} requests: "
              f"p50 {statistics.median(values) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {max(values) * 1000:.1f} ms")
    print(f"  goal p99 < 200 ms: {'met' if worst < 0.2 else 'NOT met'}")
    return 0 if worst < 0.2 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--batch", type=int, default=0, help="score requests per HTTP request, as a list (default: one, not a list)")
    parser.add_argument("--max-seconds", type=float, default=280.0, help="bound of the whole load (default 280)")
    parser.add_argument("--stress", action="store_true", help="the latency of /health and one score under diffs and lists")
    parser.add_argument("--diffs", type=int, default=100, help="concurrent diff uploads of --stress (default 100)")
    args = parser.parse_args()
    port = free_port()
    server = start_server(port)
    if args.stress:
        try:
            return stress(port, args.diffs, args.batch or 1000, args.max_seconds)
        finally:
            server.terminate()
            server.wait(timeout=10)
    try:
        elapsed, latencies, failures = asyncio.run(
            run_load("127.0.0.1", port, args.requests, args.clients, args.max_seconds, max(0, args.batch))
        )
        ok_after = healthy(port)
        alive = server.poll() is None
    finally:
        server.terminate()
        server.wait(timeout=10)
    answered = len(latencies)
    print(f"riichi serve, POST /score: {answered:,} requests from {args.clients} concurrent clients in {elapsed:.2f} s")
    per = f" ({max(1, args.batch) * answered / elapsed:,.0f} hands/s, lists of {args.batch})" if args.batch else ""
    print(f"  throughput  {answered / elapsed:,.0f} requests/s{per}")
    print(
        "  latency     "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, p90 {percentile(latencies, 0.90) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    print(f"  answers     {answered - len(failures):,} checked right, {len(failures)} wrong")
    print(f"  afterwards  server {'alive' if alive else 'DEAD'}, {'healthy' if ok_after else 'NOT healthy'}")
    for failure in failures[:5]:
        print("  wrong:", failure)
    return 0 if not failures and answered == args.requests and ok_after and alive else 1


if __name__ == "__main__":
    sys.exit(main())
