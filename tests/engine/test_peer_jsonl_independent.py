"""The peer's JSON-lines loop (``benchmarks/peer_jsonl.py``) is the peer's alone: it imports no module of this project,
so the time and memory the benchmarks print for it are not ours in disguise, and its own notation reader gives the
very arguments of the cross-check's conversion (``tests.peer_oracle.peer_arguments``)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from mahjong.hand_calculating.hand import HandCalculator

from tests.peer_oracle import peer_arguments, random_requests

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "peer_jsonl.py"
OURS = ("engine", "ruledsl", "rulebooks", "tests", "benchmarks")


def _peer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("peer_jsonl_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _described(arguments: dict) -> tuple:
    config = arguments["config"]
    melds = tuple((m.type, tuple(m.tiles), m.opened) for m in arguments["melds"] or ())
    return (
        tuple(arguments["tiles"]),
        arguments["win_tile"],
        melds,
        arguments["dora_indicators"],
        arguments["ura_dora_indicators"],
        sorted((k, v) for k, v in vars(config).items() if k not in ("options", "yaku")),
        sorted(vars(config.options).items()),
    )


def test_the_loop_imports_nothing_of_ours() -> None:
    requests = random_requests(7, 20)
    payload = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([sys.executable, "-X", "importtime", str(SCRIPT)], input=payload, capture_output=True, text=True, cwd=ROOT, check=True)
    imported = [line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")]
    assert "mahjong.hand_calculating.hand" in imported
    assert [name for name in imported if name.split(".")[0] in OURS] == []
    assert len(out.stdout.splitlines()) == len(requests)


def test_its_arguments_are_the_cross_checks() -> None:
    peer = _peer()
    for request in random_requests(20261202, 3000):
        assert _described(peer.peer_arguments(request)) == _described(peer_arguments(request)), request


def test_its_answers_are_the_peers() -> None:
    peer = _peer()
    for request in random_requests(11, 300):
        ours = peer.answer(json.dumps(request))
        result = HandCalculator.estimate_hand_value(**peer_arguments(request))
        assert ours["ok"] == (not result.error)
        if ours["ok"]:
            assert (ours["han"], ours["fu"], ours["total"]) == (result.han, result.fu, result.cost["total"])
