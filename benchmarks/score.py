"""Scoring throughput on the same random hands, ours beside the mahjong package, at three levels of input.

Run: ``python benchmarks/score.py [--hands N] [--seed S] [--repeat R] [--cpu]`` (``--cpu``: every row in CPU time). The hands come from ``tests/peer_oracle.py`` (the
generator of the peer cross-check: complete hands with calls, red fives, dora and random situations, a few
incomplete ones). Every row scores the same hands; figures are hands per second and microseconds per hand.

pre-built inputs      what each library takes natively, built before the clock starts. Ours: ``Scorer.score_hand``
                      on a ``Hand`` from ``build_hand``, a ``Situation`` and indicator codes. mahjong 2.1.0:
                      ``HandCalculator.estimate_hand_value`` on 136-format tiles, ``Meld`` and ``HandConfig``
                      objects, options as the house rules.
request dicts         both start from the contract's request dicts, so reading notation and building the situation
                      are timed too. Ours: ``Scorer.score_json(request)`` (validation included). mahjong: the
                      conversion of ``benchmarks/peer_jsonl.py`` (``peer_arguments``, its own mpsz reader, which
                      gives the cross-check's arguments) then ``estimate_hand_value``.
JSON lines process    one process fed every request as a JSON line on stdin, timed from start to exit
                      (interpreter start-up, imports, rulebook compile or options, JSON in and out), split into
                      its start-up (a single request) and the time per further request. Ours: ``riichi score
                      --json`` (the console script beside this interpreter). mahjong: ``benchmarks/peer_jsonl.py``,
                      the same loop around the peer, answering the same information (yaku with han, fu, payments);
                      it imports nothing of ours. Timed in the child's CPU time (``--cpu``) or wall clock.

Our modules are byte-compiled first, as an installed package is. Each library's API figures come from a fresh
process of its own (so neither inherits the other's warm
interpreter): "first pass" is the first time that process sees the hands (caches empty), "again" the same hands
once more. The runs are interleaved (ours, the peer's, ours, ...) so that a change in the machine's other load
falls on both sides, and each figure is the best of ``--repeat``; below each ratio, the median and range of the
ratios within each round (ours and the peer's runs of the same round), which moves less with the machine's load. It also prints the cold load and compile time of the ``house`` rulebook, measured in a fresh process.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402

from benchmarks.load import cold  # noqa: E402
from benchmarks.peer_jsonl import peer_arguments  # noqa: E402  (the peer loop's own conversion: nothing of ours)
from engine.core import tiles as T  # noqa: E402
from engine.core.errors import EngineError  # noqa: E402
from engine.scoring.library import scorer  # noqa: E402
from engine.scoring.score import plain_request, situation_of  # noqa: E402
from tests.peer_oracle import random_requests  # noqa: E402

WORKERS = ("ours-built", "mahjong-built", "ours-request", "mahjong-request")


def _ours_built(requests: list[dict]) -> tuple[callable, int]:
    s = scorer("house")
    inputs = []
    for r in requests:
        q = plain_request(r)
        try:
            hand = s.build_hand(q)
        except EngineError:
            continue
        dora = T.tile_codes(q.dora_indicators) if q.dora_indicators else ()
        ura = T.tile_codes(q.ura_indicators) if q.ura_indicators else ()
        inputs.append((hand, situation_of(q), dora, ura))
    score_hand = s.score_hand

    def run() -> int:
        wins = 0
        for hand, situation, dora, ura in inputs:
            try:
                score_hand(hand, situation, dora, ura)
                wins += 1
            except EngineError:
                pass
        return wins

    return run, len(inputs)


def _ours_request(requests: list[dict]) -> tuple[callable, int]:
    score_json = scorer("house").score_json
    return (lambda: sum(score_json(r)["ok"] for r in requests)), len(requests)


def _mahjong_built(requests: list[dict]) -> tuple[callable, int]:
    calls = [peer_arguments(r) for r in requests]
    estimate = HandCalculator.estimate_hand_value
    return (lambda: sum(not estimate(**kwargs).error for kwargs in calls)), len(calls)


def _mahjong_request(requests: list[dict]) -> tuple[callable, int]:
    estimate = HandCalculator.estimate_hand_value
    return (lambda: sum(not estimate(**peer_arguments(r)).error for r in requests)), len(requests)


def worker(kind: str, requests: list[dict], cpu: bool = False) -> None:
    """Time one library at one level in this (fresh) process and print the figures as JSON (``cpu``: this
    thread's CPU time rather than the wall clock, which a busy shared machine stretches by whatever else runs)."""
    prepare = {"ours-built": _ours_built, "ours-request": _ours_request, "mahjong-built": _mahjong_built, "mahjong-request": _mahjong_request}[kind]
    run, count = prepare(requests)
    clock = time.thread_time if cpu else time.perf_counter
    start = clock()
    wins = run()
    first = clock() - start
    start = clock()
    run()
    again = clock() - start
    print(json.dumps({"first": first, "again": again, "hands": count, "wins": wins}))


def in_fresh_process(kind: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", kind, "--hands", str(args.hands), "--seed", str(args.seed)]
    if args.cpu:
        command.append("--cpu")
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"worker {kind} failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout)


def interleaved(runs: int, measures: dict[str, Callable[[], dict]]) -> tuple[dict[str, dict], dict[str, list[dict]]]:
    """Per worker, the fastest of several fresh processes, per figure (what the machine's other load perturbs
    least), and every run in its round; the workers take turns, so that a change in that load falls on every side
    (a round's sides ran minutes apart at most, so the ratio within a round is the steadier comparison)."""
    results: dict[str, list[dict]] = {kind: [] for kind in measures}
    for _ in range(max(runs, 1)):
        for kind, measure in measures.items():
            results[kind].append(measure())
    best = {
        kind: {**found[0], "first": min(r["first"] for r in found), "again": min(r["again"] for r in found)}
        for kind, found in results.items()
    }
    return best, results


def spread(ratios: list[float]) -> str:
    """The median of the rounds' ratios and their range: how far one best-of figure can be trusted."""
    ordered = sorted(ratios)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return f"median {median:.2f}x, {ordered[0]:.2f}-{ordered[-1]:.2f}x"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process(command: list[str], requests: list[dict], cpu: bool = False) -> tuple[float, list[dict]]:
    """(seconds, answers) of one process fed ``requests``: its own CPU time with ``cpu``, else the wall clock."""
    payload = "".join(json.dumps(dict(r, rulebook="house")) + "\n" for r in requests)
    clock = _children_cpu if cpu else time.perf_counter
    start = clock()
    out = subprocess.run(command, input=payload, capture_output=True, text=True, cwd=ROOT)
    elapsed = clock() - start
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({out.returncode}): {out.stderr.strip()}")
    return elapsed, [json.loads(line) for line in out.stdout.splitlines()]


def our_command() -> list[str]:
    """``riichi`` as installed beside this interpreter (not through a shell shim such as pyenv's, which would add
    its own start-up to ours), else the same entry point through ``-m``."""
    script = Path(sys.executable).parent / "riichi"
    return [str(script)] if script.exists() else [sys.executable, "-m", "engine.cli"]


def byte_compile() -> None:
    """Write our modules' bytecode, as ``pip install`` does for an installed package (the ``mahjong`` package
    was installed so): an editable checkout would otherwise compile every module at each start."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "ruledsl", "rulebooks"], cwd=ROOT, check=True)


def process_figures(
    commands: list[list[str]], requests: list[dict], repeat: int, cpu: bool
) -> tuple[list[tuple[float, float, list[dict]]], list[list[tuple[float, float]]]]:
    """Per command (seconds for one request, seconds for all of them, the answers): best of ``repeat`` runs each,
    the commands' runs interleaved; and every round's (one, all) per command."""
    ones: list[list[float]] = [[] for _ in commands]
    alls: list[list[tuple[float, list[dict]]]] = [[] for _ in commands]
    for _ in range(max(repeat, 1)):
        for i, command in enumerate(commands):
            ones[i].append(process(command, requests[:1], cpu)[0])
            alls[i].append(process(command, requests, cpu))
    out = []
    for one, runs in zip(ones, alls, strict=True):
        seconds, answers = min(runs, key=lambda r: r[0])
        out.append((min(one), seconds, answers))
    rounds = [[(one[k], runs[k][0]) for k in range(len(one))] for one, runs in zip(ones, alls, strict=True)]
    return out, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=20260301)
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per figure; the best is shown (default 5)")
    parser.add_argument("--cpu", action="store_true", help="time by CPU time, not the wall clock (a shared, busy machine)")
    parser.add_argument("--worker", choices=WORKERS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    requests = random_requests(args.seed, args.hands)
    if args.worker:
        worker(args.worker, requests, args.cpu)
        return

    byte_compile()
    load = cold("house")  # benchmarks/load.py's fresh-process load, for the last line
    api, api_rounds = interleaved(args.repeat, {kind: lambda kind=kind: in_fresh_process(kind, args) for kind in WORKERS})
    ((ours_one, ours_all, ours_answers), (peer_one, peer_all, peer_answers)), (ours_rounds, peer_rounds) = process_figures(
        [[*our_command(), "score", "--json"], [sys.executable, str(ROOT / "benchmarks" / "peer_jsonl.py")]], requests, args.repeat, args.cpu
    )
    assert len(ours_answers) == len(peer_answers) == len(requests), "a process left requests unanswered"
    assert api["ours-request"]["wins"] == sum(a["ok"] for a in ours_answers) == api["ours-built"]["wins"], "our answers differ"

    n = len(requests)
    wins = api["ours-request"]["wins"]
    clock = "CPU time" if args.cpu else "wall clock"
    print(f"{n:,} hands (seed {args.seed}; {wins:,} scored, {n - wins:,} no yaku or not complete); best of {args.repeat} fresh processes, interleaved, {clock}")
    print(f"{'':44}{'first pass':>20}{'again':>20}")
    print(f"{'':44}{'hands/s':>10}{'us/hand':>10}{'hands/s':>10}{'us/hand':>10}")

    def row(label: str, hands: int, first: float, again: float) -> None:
        print(f"  {label:42}{hands / first:>10,.0f}{first / hands * 1e6:>10,.0f}{hands / again:>10,.0f}{again / hands * 1e6:>10,.0f}")

    def ratio(ours_first: float, theirs_first: float, ours_again: float, theirs_again: float) -> None:
        print(f"  {'ours vs mahjong (higher: ours faster)':42}{theirs_first / ours_first:>19.2f}x{theirs_again / ours_again:>19.2f}x")

    levels = (
        ("pre-built inputs (conversion not timed)", "built", "Scorer.score_hand", "HandCalculator.estimate_hand_value"),
        ("the same request dicts", "request", "Scorer.score_json(request)", "own conversion + estimate_hand_value"),
    )
    for title, level, ours_label, peer_label in levels:
        ours, theirs = api[f"ours-{level}"], api[f"mahjong-{level}"]
        print(f"from {title}")
        row(f"ours    {ours_label}", ours["hands"], ours["first"], ours["again"])
        row(f"mahjong {peer_label}", theirs["hands"], theirs["first"], theirs["again"])
        ratio(ours["first"] / ours["hands"], theirs["first"] / theirs["hands"], ours["again"] / ours["hands"], theirs["again"] / theirs["hands"])
        pairs = list(zip(api_rounds[f"ours-{level}"], api_rounds[f"mahjong-{level}"], strict=True))
        first = spread([(t["first"] / t["hands"]) / (o["first"] / o["hands"]) for o, t in pairs])
        again = spread([(t["again"] / t["hands"]) / (o["again"] / o["hands"]) for o, t in pairs])
        print(f"    (each round's ratio: first pass {first}; again {again})")

    print(f"JSON lines, one process from start to exit{'start-up ms':>16}{'us/hand':>10}{'all, s':>10}{'hands/s':>10}")
    for label, one, every in (("ours    riichi score --json", ours_one, ours_all), ("mahjong benchmarks/peer_jsonl.py", peer_one, peer_all)):
        per_hand = (every - one) / max(n - 1, 1)
        print(f"  {label:42}{one * 1000:>14,.0f}{per_hand * 1e6:>10,.0f}{every:>10,.2f}{n / every:>10,.0f}")
    print(
        f"  {'ours vs mahjong (higher: ours faster)':42}{peer_one / ours_one:>13.2f}x"
        f"{(peer_all - peer_one) / (ours_all - ours_one):>9.2f}x{'':>10}{peer_all / ours_all:>9.2f}x"
    )
    further = spread([(p_all - p_one) / (o_all - o_one) for (o_one, o_all), (p_one, p_all) in zip(ours_rounds, peer_rounds, strict=True)])
    print(f"    (each round's ratio per further request: {further})")
    print("  (start-up: one request, from launch to exit; us/hand: each further request, the start-up taken off)")
    print(
        f"cold load+compile of `house` in a fresh process: {(load['load'] + load['scorer']) * 1000:,.0f} ms "
        f"(after {load['imports'] * 1000:,.0f} ms of imports)"
    )


if __name__ == "__main__":
    main()
