"""Replay throughput: real rounds played through the round engine with full legality checking, in rounds/s.

Run: ``python benchmarks/replay.py [--repeat N] [--profile]``. The logs are the vendored Tenhou mjlog games
(``tests/data/tenhou/mjlog``, 1,734 rounds) and, when present, a slice of the riichienv corpus
(``tests/data/riichienv``). Parsing is done before the clock starts; the clock covers what ``riichi replay`` does
per round: building the wall from the log, checking every move (``Round.is_legal``, the same answer as membership
in ``Round.legal_actions``), scoring the wins and comparing the settlement and the next round's counters. One
process, one core. The first pass over the games is the cold figure (the caches of hands and tables hold only
the two warm-up games that compile the rulebooks), the best of the next ``N - 1`` passes the warm one. Each
source's own figure follows, from its games' processor time within the same passes: the Tenhou logs' rounds are
shorter than the riichienv games' (62 moves checked a round against 73), so the two differ; the Tenhou logs come
first, so the slice's "first pass" starts with caches the logs warmed.
``--profile`` prints where the time goes (cProfile, top functions by own time) in one more, warm, pass;
``--profile cold`` profiles the first pass instead (its figures then include the profiler's own cost).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.replay.compare import rulebook_for  # noqa: E402
from engine.replay.mjai_log import parse_mjai  # noqa: E402
from engine.replay.rounds import ReplayReport, game_start, read_events, replay_events  # noqa: E402
from engine.round.rules import round_rules  # noqa: E402
from engine.scoring import library  # noqa: E402


def _games() -> list[tuple[str, list]]:
    games = []
    for path in sorted((ROOT / "tests" / "data" / "tenhou" / "mjlog").iterdir()):
        games.append((path.name, read_events(path)))
    corpus = ROOT / "tests" / "data" / "riichienv" / "tenhou4p.jsonl.gz"
    if corpus.exists():
        from tests.oracle.corpus import read_games

        for game in read_games(corpus, limit=50):
            games.append((f"riichienv {game['seed']}", parse_mjai([json.dumps(e) for e in game["events"]])))
    return games


def run(games: list[tuple[str, list]], spent: dict[str, list[float]] | None = None) -> ReplayReport:
    """Replay every game into one report; with ``spent``, each game's processor time and its rounds and moves are
    added to its source's entry (``_source``), so that one pass gives each source's own figure too."""
    report = ReplayReport()
    for name, events in games:
        if spent is None:
            rules = round_rules(library.scorer(rulebook_for(game_start(events))))
            replay_events(events, rules, name, report)
            continue
        rounds, actions, started = report.rounds, report.actions, time.process_time()
        rules = round_rules(library.scorer(rulebook_for(game_start(events))))
        replay_events(events, rules, name, report)
        entry = spent.setdefault(_source(name), [0.0, 0, 0])
        entry[0] += time.process_time() - started
        entry[1] += report.rounds - rounds
        entry[2] += report.actions - actions
    return report


def _source(name: str) -> str:
    """Where a game comes from: the vendored Tenhou logs or the riichienv slice (their rounds differ in length)."""
    return "riichienv slice" if name.startswith("riichienv ") else "tests/data/tenhou/mjlog"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="passes over the games: the first is the cold figure, the best of the others the warm one")
    parser.add_argument("--profile", nargs="?", const="warm", choices=("warm", "cold"), help="profile a further warm pass, or the first (cold) one")
    args = parser.parse_args(argv)
    games = _games()
    run(games[:2])  # compile the rulebooks outside the clock
    # what ``riichi replay`` does once a rulebook is loaded (``engine.cli.replay.scorer_frozen``): everything alive
    # then is moved out of the garbage collector's sight. Here that includes the parsed games of every log, which
    # the command never holds at once (it reads one file at a time): without it, each full collection of the timed
    # passes would walk some hundred thousand events that the command does not have
    gc.freeze()
    passes: list[tuple[float, float]] = []
    by_source: list[dict[str, list[float]]] = []
    profile = cProfile.Profile()
    for number in range(max(1, args.repeat)):
        cold_profile = number == 0 and args.profile == "cold"
        if cold_profile:
            profile.enable()
        spent: dict[str, list[float]] = {}
        started, started_cpu = time.perf_counter(), time.process_time()
        report = run(games, spent)
        passes.append((time.perf_counter() - started, time.process_time() - started_cpu))
        by_source.append(spent)
        if cold_profile:
            profile.disable()
    print(
        f"{report.games} games, {report.rounds} rounds ({report.rounds_matched} matched), {report.actions} moves "
        "checked, one core:"
    )
    for label, (elapsed, cpu) in [("first pass (cold)", passes[0])] + (
        [(f"again (warm, best of {len(passes) - 1})", min(passes[1:], key=lambda p: p[1]))] if len(passes) > 1 else []
    ):
        print(
            f"  {label}: {cpu:.2f} s CPU, {report.rounds / cpu:.0f} rounds per CPU second ({report.rounds / elapsed:.0f} "
            f"per wall second), {report.actions / cpu:.0f} moves per CPU second"
        )
    if len(by_source[0]) > 1:  # each source's own figure, from the same passes (its games' time within them)
        for source in by_source[0]:
            first = by_source[0][source]
            line = f"  {source}: {first[1]} rounds, {first[2]} moves; first pass {first[1] / first[0]:.0f} rounds per CPU second"
            if len(by_source) > 1:
                warm = min((spent[source] for spent in by_source[1:]), key=lambda entry: entry[0])
                line += f", warm (best of {len(by_source) - 1}) {warm[1] / warm[0]:.0f}"
            print(line)
    if args.profile == "warm":
        profile.enable()
        run(games)
        profile.disable()
    if args.profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
