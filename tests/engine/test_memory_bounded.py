"""A long JSON-lines batch keeps bounded memory: every cache stays within its limit and the process-wide
cap, no cache is created per hand, and no module-level container of the engine or the rule language grows with
the number of hands. The creep the issue measured (100 MiB after 200,000 hands) was caches of 65,536 entries of
about 0.5 KiB each filling up; ``benchmarks/memory.py`` measures the process itself.

The default test scores 3,000 distinct random hands with the cap lowered to 128 entries, so that every cache wraps
many times within a second; the slow test runs ``riichi score --json`` on 50,000 hands and checks its peak RSS.
"""

from __future__ import annotations

import functools
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.cli import jsonlines, main
from engine.cli import score as score_cli
from engine.scoring import library
from ruledsl import memo
from ruledsl.caches import NAMED
from tests.peer_oracle import random_requests

ROOT = Path(__file__).resolve().parents[2]
CAP = 128
# A module-level container may still learn a few new things (an interned group not met before); one that grows
# with every hand grows by hundreds over the second half.
SLACK = 64


def _answerer() -> Callable[[bytes], dict[str, Any]]:
    scorers = score_cli._Scorers()
    policy = library.RulebookPolicy.of(None)

    def answer(line: bytes) -> dict[str, Any]:
        return jsonlines.answer_bytes(line, lambda text: score_cli.answer_line(text, None, scorers, policy))

    return answer


def _containers() -> dict[tuple[str, str], int]:
    """The size of every module-level dict, list, set and ``functools`` cache of ``engine`` and ``ruledsl``
    (registered caches aside: the registry checks those)."""
    named = [cache.clear for cache in NAMED.values()]
    sizes: dict[tuple[str, str], int] = {}
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in ("engine", "ruledsl"):
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, memo.BoundedCache) or getattr(value, "clear", getattr(value, "cache_clear", None)) in named:
                continue
            if isinstance(value, (dict, list, set)):
                sizes[(name, attribute)] = len(value)
            elif isinstance(value, functools._lru_cache_wrapper):
                sizes[(name, attribute)] = value.cache_info().currsize
    return sizes


def test_a_long_batch_keeps_every_cache_bounded() -> None:
    answer = _answerer()
    lines = [json.dumps(r).encode() for r in random_requests(20261201, 3000)]
    previous = memo.set_entry_cap(CAP)
    try:
        answers = [answer(line) for line in lines[:1500]]
        live, before = memo.live_caches(), _containers()
        answers += [answer(line) for line in lines[1500:]]
        after = _containers()
        caches = list(memo.REGISTRY.values())
        assert all(len(cache) <= cache.limit <= CAP for cache in caches)
        assert memo.live_caches() == live  # no cache is made per hand or per request
        assert sum(map(len, caches)) <= CAP * len(caches)
        # the named caches (``lru_cache``s among them, whose own bound cannot be lowered) keep their bound, and the
        # cap empties those past it whenever it is applied (a batch does, with ``trim``, between requests)
        assert all(cache.size() <= cache.bound for cache in NAMED.values())
        memo.trim(CAP * len(caches))
        assert all(cache.size() <= CAP for cache in NAMED.values() if not cache.pinned)
        grown = {key: (before.get(key, 0), size) for key, size in after.items() if size > before.get(key, 0) + SLACK}
        assert grown == {}, f"module-level containers that grow with the number of hands: {grown}"
    finally:
        memo.set_entry_cap(previous)
    assert sum(a.get("ok", False) for a in answers) > 2000  # most are wins: the hands were really scored
    assert all(isinstance(a.get("ok"), bool) for a in answers)


def test_the_cap_lowers_live_caches_and_is_restored() -> None:
    cache = memo.BoundedCache(1000)
    for key in range(500):
        cache.put(key, key)
    previous = memo.set_entry_cap(100)
    try:
        assert cache.limit == 100 and len(cache) == 0  # held more than the new cap: emptied
        assert memo.BoundedCache(1000).limit == 100 and memo.BoundedCache(10).limit == 10
    finally:
        memo.set_entry_cap(previous)
    assert cache.limit == 1000  # what its owner asked for, once the cap allows it again
    with pytest.raises(ValueError):
        memo.set_entry_cap(0)


def test_the_json_batch_caps_its_caches_and_restores_the_cap(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``riichi score --json`` answers under the batch cap (what keeps it under 40 MiB), and gives the process's
    cap back when it returns (a test or an embedding calling ``main`` keeps its own)."""
    during: list[int] = []
    serve = jsonlines.serve

    def spy(*args: Any, **kwargs: Any) -> int:
        during.append(memo.ENTRY_CAP)
        return serve(*args, **kwargs)

    monkeypatch.setattr(jsonlines, "serve", spy)
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": true}\n'))
    before = memo.ENTRY_CAP
    assert main(["score", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 2000
    assert during == [score_cli.BATCH_ENTRY_CAP] and memo.ENTRY_CAP == before


def test_trim_empties_the_largest_caches_down_to_a_budget() -> None:
    memo.clear_all()
    big, middle, small = memo.BoundedCache(1000), memo.BoundedCache(1000), memo.BoundedCache(1000)
    for cache, count in ((big, 300), (middle, 200), (small, 10)):
        for key in range(count):
            cache.put(key, key)
    assert memo.trim(250) == 300 and (len(big), len(middle), len(small)) == (0, 200, 10)
    assert memo.trim(250) == 0  # already within the budget: nothing dropped


def test_the_json_batch_trims_its_caches_between_requests(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every ``TRIM_EVERY`` answers the batch brings all caches together back within ``BATCH_ENTRY_BUDGET``."""
    left: list[int] = []
    trim = memo.trim

    def spy(budget: int) -> int:
        dropped = trim(budget)
        left.append(memo.entries())
        return dropped

    monkeypatch.setattr(memo, "trim", spy)
    monkeypatch.setattr(score_cli, "TRIM_EVERY", 100)
    monkeypatch.setattr(score_cli, "BATCH_ENTRY_BUDGET", 300)
    requests = random_requests(11, 1000)
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(r) + "\n" for r in requests)))
    assert main(["score", "--json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1000
    assert len(left) == 10 and all(n <= 300 for n in left)


@pytest.mark.slow
def test_a_batch_of_50000_hands_stays_under_40_mib(tmp_path: Path) -> None:
    """The process's own peak: Linux carries ``ru_maxrss`` over from the forking process (this test runner, about
    100 MiB), so a bare interpreter starts the batch and reports its child's figure."""
    source = tmp_path / "hands.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in random_requests(7, 50_000)), encoding="utf-8")
    launcher = (
        "import os, subprocess, sys\n"
        "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
        "_, status, usage = os.wait4(child.pid, 0)\n"
        "child.returncode = 0\n"
        "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n"
    )
    with source.open("rb") as stdin:
        out = subprocess.run(
            [sys.executable, "-c", launcher, sys.executable, "-m", "engine.cli", "score", "--json"],
            cwd=ROOT, stdin=stdin, capture_output=True, text=True, timeout=600,
        )
    code, peak_kib = map(int, out.stdout.split())
    assert code == 0, out.stderr
    assert peak_kib / 1024 <= 40, f"peak RSS {peak_kib / 1024:.1f} MiB"


def test_owners_store_with_put_and_memos_fill_without_setitem(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cache[key] = value`` goes through a Python-level ``__setitem__`` (the bound's safety net), one more call
    per insertion on a first pass: scoring, the situation checks and whole games store with ``put``, and a
    memo's miss inserts inline."""
    from engine.game.selfplay import play_game

    def refuse(self: memo.BoundedCache, key: Any, value: Any) -> None:
        raise AssertionError(f"a cache written with `cache[key] = value` instead of `put`: {type(self).__name__}")

    monkeypatch.setattr(memo.BoundedCache, "__setitem__", refuse)
    memo.clear_all()
    answer = _answerer()
    answers = [answer(json.dumps(r).encode()) for r in random_requests(7, 300)]
    assert sum(a.get("ok", False) for a in answers) > 150
    for seed in range(3):
        assert play_game(library.rulebook("house"), seed)["rounds"]
    cache = memo.Memo(lambda key: key * 2, 2)
    assert [cache[1], cache[2], cache[3]] == [2, 4, 6] and len(cache) == 1  # full at the third: emptied first
