"""Self-play throughput: whole 4-player hanchan games per second with random agents, ours beside riichienv.

Run: ``python benchmarks/round.py [--games N] [--seed S] [--rulebook R] [--agents A] [--repeat R] [--warm] [--profile]``.

Both sides play complete games (East and South, until the rules end them) where every seat picks uniformly among
its legal actions, so each step asks the engine for the legal actions, checks the choice and applies it:
ours is ``engine.game.Game`` over ``engine.round.Round`` (pure Python, every rule read from the rulebook,
``tenhou`` by default as riichienv plays Tenhou rules); riichienv (Rust, test-only dependency) is
``RiichiEnv(game_mode="4p-red-half")`` stepped with a random legal action per acting player, mjai logging off.
Each side runs in a fresh process of its own (``--worker``), the two taking turns ``--repeat`` times (default 3), so
that a change in the machine's other load falls on both; each figure is the best of the runs, in the process's CPU
time (the wall clock of a shared machine counts other work too) and beside it the wall clock of the same run. The
games are timed from a cold start of the engine (imports done, nothing played: the rulebook's compile and every
cache are in the time), as a user's first games are; ``--warm`` plays one game first, untimed. The peer's worker
imports nothing of ours. Both play the same seeds (games differ: the walls are each engine's own shuffle).
``--profile`` prints where our time goes (cProfile, top entries by own time and by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))



def ours(games: int, seed: int, name: str, agents: str, warm: bool = True) -> tuple[float, int, int, float]:
    """(seconds, rounds, actions, CPU seconds) for `games` self-played games (``warm``: after one untimed game)."""
    from engine.game import Game
    from engine.scoring.library import rulebook

    began, began_cpu = time.perf_counter(), time.process_time()
    rb = rulebook(name)
    if warm:
        Game(rb, seed - 1, agents).play()  # warm-up: compiled rulebook, caches
        began, began_cpu = time.perf_counter(), time.process_time()
    rounds = actions = 0
    for s in range(seed, seed + games):
        g = Game(rb, s, agents)
        g.play()
        rounds += g.state.rounds_played
        actions += g.actions
    return time.perf_counter() - began, rounds, actions, time.process_time() - began_cpu


def peer(games: int, seed: int) -> tuple[float, int, float] | None:
    """(seconds, steps, CPU seconds) for `games` riichienv games with random legal actions; None without riichienv."""
    try:
        import riichienv
    except ImportError:
        return None
    steps = 0
    began, began_cpu = time.perf_counter(), time.process_time()
    for s in range(seed, seed + games):
        rng = random.Random(s)
        env = riichienv.RiichiEnv(game_mode="4p-red-half", seed=s, skip_mjai_logging=True)
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: rng.choice(o.legal_actions()) for pid, o in obs.items()})
            steps += 1
    return time.perf_counter() - began, steps, time.process_time() - began_cpu


def profile(games: int, seed: int, name: str, agents: str, top: int = 18) -> str:
    from engine.game import Game
    from engine.scoring.library import rulebook

    rb = rulebook(name)
    Game(rb, seed - 1, agents).play()  # imports, the compiled rulebook and warm caches stay out of the profile
    prof = cProfile.Profile()
    prof.enable()
    for s in range(seed, seed + games):
        Game(rb, s, agents).play()
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    out.write("own time by area:\n")
    for area, seconds in _by_area(stats):
        out.write(f"  {area:<40}{seconds:7.2f} s {100 * seconds / stats.total_tt:5.1f}%\n")  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def _worker(side: str, args: argparse.Namespace, argv: list[str]) -> dict:
    """One side's figures from a fresh process of its own."""
    passed = [a for a in argv if a not in ("--profile",)]
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), *passed, "--worker", side], capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"worker {side} failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout.splitlines()[-1])


AREAS = (
    ("engine/game (progression, agents, driver)", "engine/game/"),
    ("engine/round (legal actions, state, settlement)", "engine/round/"),
    ("engine/core/analysis (shanten, waits)", "engine/core/analysis"),
    ("scoring (engine/scoring/score, facts, ruledsl)", ("engine/scoring/score", "engine/scoring/facts", "ruledsl/")),
)


def _by_area(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Own time summed per part of the code, largest first (the rest: builtins and everything else)."""
    totals: dict[str, float] = {}
    for (filename, _line, _name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        area = next((label for label, prefix in AREAS if any(p in filename for p in ((prefix,) if isinstance(prefix, str) else prefix))), "other (builtins, tiles, ...)")
        totals[area] = totals.get(area, 0.0) + own
    return sorted(totals.items(), key=lambda item: -item[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rulebook", default="tenhou")
    parser.add_argument("--agents", default="random")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per side, interleaved; the best is shown")
    parser.add_argument("--warm", action="store_true", help="play one untimed game first in each process")
    parser.add_argument("--worker", choices=("ours", "peer"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker == "ours":
        secs, rounds, actions, cpu = ours(args.games, args.seed, args.rulebook, args.agents, args.warm)
        print(json.dumps({"wall": secs, "cpu": cpu, "rounds": rounds, "actions": actions}))
        return 0
    if args.worker == "peer":
        theirs = peer(args.games, args.seed)
        print(json.dumps(None if theirs is None else {"wall": theirs[0], "steps": theirs[1], "cpu": theirs[2]}))
        return 0
    runs: dict[str, list[dict]] = {"ours": [], "peer": []}
    for _ in range(max(args.repeat, 1)):
        for side in runs:
            runs[side].append(_worker(side, args, argv or sys.argv[1:]))
    best = min(runs["ours"], key=lambda r: r["cpu"])
    print(f"{args.games} games per process, best of {max(args.repeat, 1)} fresh processes per side, interleaved; {'warm' if args.warm else 'cold'} caches")
    print(f"{'engine':<34}{'games/CPU s':>13}{'games/s':>10}{'rounds/s':>10}{'actions/s':>11}")
    print(
        f"{'ours (' + args.rulebook + ', ' + args.agents + ')':<34}{args.games / best['cpu']:>13.2f}{args.games / best['wall']:>10.2f}"
        f"{best['rounds'] / best['wall']:>10.1f}{best['actions'] / best['wall']:>11.0f}"
    )
    if runs["peer"][0] is None:
        print("riichienv: not installed (pip install -e .[test])")
    else:
        theirs = min(runs["peer"], key=lambda r: r["cpu"])
        print(f"{'riichienv (4p-red-half, random)':<34}{args.games / theirs['cpu']:>13.2f}{args.games / theirs['wall']:>10.2f}{'':>10}{theirs['steps'] / theirs['wall']:>11.0f}")
        pairs = ", ".join(f"{p['cpu'] / o['cpu']:.2f}" for o, p in zip(runs["ours"], runs["peer"], strict=True))
        print(f"ours / riichienv: {theirs['cpu'] / best['cpu']:.2f}x CPU (best against best; each pair: {pairs}), {theirs['wall'] / best['wall']:.2f}x wall")
    if args.profile:
        print(profile(max(5, args.games // 4), args.seed, args.rulebook, args.agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
