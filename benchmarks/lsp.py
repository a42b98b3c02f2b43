"""How long ``riichi lsp`` takes to answer each kind of request on the bundled ``house`` rulebook (the goal: each
within 200 ms), and how long its diagnostics take after opening and after an edit.

Run: ``python benchmarks/lsp.py [--runs N]``. The server is a subprocess (``python -m engine.cli lsp``) spoken to
over a pipe, as an editor does; every request is timed from writing it to reading its answer, ``--runs`` times
(default 20) at positions spread over the file, and reported as median, p90 and max in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.lsp import protocol as P  # noqa: E402
from engine.lsp.text import path_to_uri  # noqa: E402

HOUSE = ROOT / "rulebooks" / "house.rulebook"


class Client:
    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "engine.cli", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env)
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(P.encode(message))
        self.process.stdin.flush()

    def read_until(self, wanted: Any) -> dict[str, Any]:
        assert self.process.stdout is not None
        while True:
            message = P.read_message(self.process.stdout)  # type: ignore[arg-type]
            assert message is not None, "the server closed its output"
            if wanted(message):
                return message

    def request(self, method: str, params: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        self.next_id += 1
        request_id = self.next_id
        start = time.perf_counter()
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        answer = self.read_until(lambda m: m.get("id") == request_id and "method" not in m)
        return (time.perf_counter() - start) * 1000, answer


def _positions(lines: list[str], runs: int, pick: Any) -> list[tuple[int, int]]:
    found = [(n, col) for n, line in enumerate(lines) if (col := pick(line)) is not None]
    step = max(1, len(found) // runs)
    return (found[::step] * runs)[:runs]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    text = HOUSE.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = path_to_uri(str(HOUSE))
    client = Client()
    start = time.perf_counter()
    client.request("initialize", {"capabilities": {}})
    print(f"initialize: {(time.perf_counter() - start) * 1000:.0f} ms (process start and imports included)")
    doc = {"uri": uri}
    start = time.perf_counter()
    client.send(P.notification("textDocument/didOpen", {"textDocument": {**doc, "languageId": "rulebook", "version": 1, "text": text}}))
    client.read_until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    print(f"diagnostics after opening: {(time.perf_counter() - start) * 1000:.0f} ms")
    start = time.perf_counter()
    edited = text + "\n# an edit\n"
    client.send(P.notification("textDocument/didChange", {"textDocument": {**doc, "version": 2}, "contentChanges": [{"text": edited}]}))
    client.read_until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    print(f"diagnostics after an edit: {(time.perf_counter() - start) * 1000:.0f} ms")
    item_names = lambda line: 5 if line.startswith("yaku ") else None  # noqa: E731
    inside = lambda line: 2 if line.startswith("  when = ") else None  # noqa: E731
    cases = {
        "hover (item name)": ("textDocument/hover", _positions(lines, args.runs, item_names)),
        "hover (fact in a condition)": ("textDocument/hover", [(n, c + 8) for n, c in _positions(lines, args.runs, inside)]),
        "completion (field)": ("textDocument/completion", _positions(lines, args.runs, inside)),
        "completion (expression)": ("textDocument/completion", [(n, c + 7) for n, c in _positions(lines, args.runs, inside)]),
        "definition": ("textDocument/definition", _positions(lines, args.runs, item_names)),
        "documentSymbol": ("textDocument/documentSymbol", [(0, 0)] * args.runs),
        "codeAction": ("textDocument/codeAction", [(0, 0)] * args.runs),
    }
    print(f"{'request':<30} {'median':>8} {'p90':>8} {'max':>8}  (ms, {args.runs} runs each)")
    worst = 0.0
    for label, (method, positions) in cases.items():
        times = []
        for line, character in positions:
            params: dict[str, Any] = {"textDocument": doc, "position": {"line": line, "character": character}}
            if method == "textDocument/codeAction":
                params = {"textDocument": doc, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}
            elapsed, answer = client.request(method, params)
            assert "result" in answer, answer
            times.append(elapsed)
        times.sort()
        worst = max(worst, times[-1])
        print(f"{label:<30} {statistics.median(times):8.1f} {times[int(len(times) * 0.9) - 1]:8.1f} {times[-1]:8.1f}")
    client.request("shutdown", {})
    client.send(P.notification("exit", {}))
    client.process.wait(timeout=30)
    print(f"slowest request: {worst:.1f} ms ({'within' if worst <= 200 else 'over'} the 200 ms goal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
