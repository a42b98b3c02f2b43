"""Self-play throughput: whole 4-player hanchan games per second with random agents, ours beside riichienv.

Run: ``python benchmarks/round.py [--games N] [--seed S] [--rulebook R] [--agents A] [--profile]``.

Both sides play complete games (East and South, until the rules end them) where every seat picks uniformly among
its legal actions, so each step asks the engine for the legal actions, checks the choice and applies it:
ours is ``engine.game.Game`` over ``engine.round.Round`` (pure Python, every rule read from the rulebook,
``tenhou`` by default as riichienv plays Tenhou rules); riichienv (Rust, test-only dependency) is
``RiichiEnv(game_mode="4p-red-half")`` stepped with a random legal action per acting player, mjai logging off.
Each side runs in this process one after the other on the same seeds (games differ: the walls are each engine's
own shuffle). ``--profile`` prints where our time goes (cProfile, top entries by own time and by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.game import Game  # noqa: E402
from engine.library import rulebook  # noqa: E402


def ours(games: int, seed: int, name: str, agents: str) -> tuple[float, int, int, float]:
    """(seconds, rounds, actions, CPU seconds) for `games` self-played games."""
    rb = rulebook(name)
    Game(rb, seed - 1, agents).play()  # warm-up: imports, compiled rulebook, caches
    rounds = actions = 0
    began, began_cpu = time.perf_counter(), time.process_time()
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
    prof = cProfile.Profile()
    prof.enable()
    ours(games, seed, name, agents)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    out.write("own time by area:\n")
    for area, seconds in _by_area(stats):
        out.write(f"  {area:<40}{seconds:7.2f} s {100 * seconds / stats.total_tt:5.1f}%\n")  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


AREAS = (
    ("engine/game (progression, agents, driver)", "engine/game/"),
    ("engine/round (legal actions, state, settlement)", "engine/round/"),
    ("engine/analysis (shanten, waits)", "engine/analysis"),
    ("scoring (engine/score, facts, ruledsl)", ("engine/score", "engine/facts", "ruledsl/")),
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
    args = parser.parse_args(argv)
    secs, rounds, actions, cpu = ours(args.games, args.seed, args.rulebook, args.agents)
    # games per CPU second beside the wall-clock figures: on a shared machine the wall clock counts other work too
    print(f"{'engine':<34}{'games/s':>10}{'rounds/s':>10}{'actions/s':>11}{'games/CPU s':>13}")
    print(
        f"{'ours (' + args.rulebook + ', ' + args.agents + ')':<34}{args.games / secs:>10.2f}{rounds / secs:>10.1f}"
        f"{actions / secs:>11.0f}{args.games / cpu:>13.2f}"
    )
    theirs = peer(args.games, args.seed)
    if theirs is None:
        print("riichienv: not installed (pip install -e .[test])")
    else:
        psecs, steps, pcpu = theirs
        print(f"{'riichienv (4p-red-half, random)':<34}{args.games / psecs:>10.2f}{'':>10}{steps / psecs:>11.0f}{args.games / pcpu:>13.2f}")
        print(f"ours / riichienv: {(args.games / secs) / (args.games / psecs):.2f}x wall, {pcpu / cpu:.2f}x CPU")
    if args.profile:
        print(profile(max(5, args.games // 4), args.seed, args.rulebook, args.agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
