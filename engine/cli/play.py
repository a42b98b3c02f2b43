"""``riichi play``: self-play whole games under a rulebook with built-in agents; results, mjai logs and games/s.

    riichi play --rulebook tenhou --games 100 --seed 7 --agents shanten --json > results.jsonl

Game ``i`` of a run is played from seed ``S + i``, so one game of a run can be played again alone. ``--json``
prints one game result a line (contract.md, "Round and game"); without it, one line per game for a reader.
``--mjai DIR`` writes each game's events as mjai JSON lines to ``DIR/game-<seed>.mjson``; with ``--mjai-seat N``
(repeatable), beside it ``DIR/game-<seed>-seat<N>.mjson``, the stream as seat N's client receives it (other seats'
draws and dealt hands as ``?``: what a bot of that seat may read). The rate in games per
second goes to stderr, and a progress bar too when stderr is a terminal. ``--narrate`` tells each game in words
before its line (``engine.protocol.narrate``: the deal, calls, riichi, kita, new dora, wins with their yaku, draws, payments,
the final table); ``--discards`` lists every discard too.

``--workers N`` plays the games in N processes (``engine.core.pool``, as ``riichi replay`` and ``riichi impact``
do; default all cores, never more workers than games). A game depends on its seed alone, and each game's words,
line and mjai files are made where it is played and printed in the order of the seeds: the output is the same for
every N, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from itertools import chain
from pathlib import Path

from engine.cli.arguments import load_scorer, positive
from engine.cli.narrate_flags import add_narrate
from engine.cli.progress import progress
from engine.core.errors import InvalidRequest
from engine.core.pool import in_order
from engine.game.agents import AGENTS, Agent, make_agents
from engine.game.rules import GameRules
from engine.game.selfplay import Game
from rulebooks import DEFAULT_RULEBOOK


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rulebook", default=DEFAULT_RULEBOOK, help="a bundled rulebook or a .rulebook file")
    parser.add_argument("--games", type=positive, default=1, help="how many games (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed + i")
    parser.add_argument(
        "--agents",
        type=_agents,
        default="shanten",
        metavar="AGENT[,AGENT...]",
        help=f"the built-in agent of every seat, or one per seat from the first dealer ({', '.join(sorted(AGENTS))}; default shanten)",
    )
    parser.add_argument("--mjai", metavar="DIR", default=None, help="write each game's mjai events into DIR")
    parser.add_argument(
        "--mjai-seat",
        type=int,
        action="append",
        default=[],
        metavar="N",
        help="with --mjai, also write the stream seat N received (others' draws and hands as ?); repeatable",
    )
    parser.add_argument("--json", action="store_true", help="one game result per line, as JSON")
    parser.add_argument(
        "--workers", type=positive, default=None,
        help="worker processes (default: all cores, at most one per game); the output is the same for any count",
    )
    add_narrate(parser)


def _agents(text: str) -> str:
    """argparse type of `--agents`: one agent name, or a comma-separated name per seat."""
    for name in text.split(","):
        if name not in AGENTS:
            raise argparse.ArgumentTypeError(f"unknown agent `{name}`; agents: {', '.join(sorted(AGENTS))}")
    return text


def _seat_agents(text: str, seed: int, players: int) -> str | list[Agent]:
    """The `Game` agents for `--agents`: the name itself for every seat, or one seeded agent per seat."""
    names = text.split(",")
    if len(names) == 1:
        return text
    if len(names) != players:
        raise InvalidRequest(f"--agents {text}: {len(names)} agents for {players} players")
    return [make_agents(name, seed, players)[seat] for seat, name in enumerate(names)]


def _line(result: dict) -> str:
    scores = " ".join(f"{s:+.1f}" for s in result["scores"])
    points = " ".join(str(p) for p in result["final_points"])
    return f"seed {result['seed']}: {result['rounds']} rounds, {result['ended_by']}; points {points}; scores {scores}"


def run(args: argparse.Namespace) -> int:
    narrate = args.narrate or args.discards
    if narrate and args.json:
        raise InvalidRequest("--narrate prints words and --json prints JSON: choose one")
    rb = load_scorer(args.rulebook).rulebook
    folder = Path(args.mjai) if args.mjai else None
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            raise InvalidRequest(f"--mjai {args.mjai}: not a directory")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidRequest(f"--mjai {args.mjai}: cannot create it ({exc.strerror})") from None
    players = GameRules.of(rb).players
    seats = sorted(set(args.mjai_seat))
    if seats and folder is None:
        raise InvalidRequest("--mjai-seat writes beside the full log: give --mjai DIR too")
    for seat in seats:
        if not 0 <= seat < players:
            raise InvalidRequest(f"--mjai-seat {seat}: the seats of {rb.name} are 0 to {players - 1}")
    began = time.perf_counter()
    seeds = range(args.seed, args.seed + args.games)
    task = partial(
        _played, rulebook=args.rulebook, agents=args.agents, folder=folder, seats=tuple(seats), narrate=narrate,
        discards=args.discards, as_json=args.json,
    )
    told = in_order(task, seeds, args.workers)  # None: all cores; never more workers than games
    # the first game asked for before a bar is drawn: a pool forks its workers then, while this process has no
    # other thread (a ``tqdm`` bar starts one, and a fork copies whatever lock such a thread holds)
    first = next(told)
    for text in progress(chain((first,), told), total=args.games, label="play", enabled=False if args.json else None):
        print(text, flush=args.games > 1)
    elapsed = time.perf_counter() - began
    rate = args.games / elapsed if elapsed > 0 else float("inf")
    print(f"riichi play: {args.games} games under {rb.name} with {args.agents} agents in {elapsed:.2f} s ({rate:.2f} games/s)", file=sys.stderr)
    return 0


def _played(
    seed: int, *, rulebook: str, agents: str, folder: Path | None, seats: tuple[int, ...], narrate: bool, discards: bool, as_json: bool
) -> str:
    """One game played from its seed, in this process or a worker's: its mjai files written, and the text the
    command prints for it (its story under ``--narrate``, then its line). The rulebook is loaded by name where the
    game is played (``load_scorer``: once per process), so that a worker is sent a name, not a compiled rulebook."""
    rb = load_scorer(rulebook).rulebook
    game = Game(rb, seed, _seat_agents(agents, seed, GameRules.of(rb).players))
    result = game.play()
    if folder is not None:
        _write_mjai(folder / f"game-{seed}.mjson", game)
        for seat in seats:
            _write_mjai(folder / f"game-{seed}-seat{seat}.mjson", game, seat)
    line = json.dumps(result, separators=(",", ":")) if as_json else _line(result)
    return "\n".join([*_story(game, result, discards), line]) if narrate else line


def _story(game: Game, result: dict, discards: bool) -> list[str]:
    """The game in words (``engine.protocol.narrate``), each round from its events and settlement, then the final table."""
    from engine.protocol.narrate import final_lines, round_lines

    lines = [f"Game of seed {result['seed']} under {result['rulebook']}:"]
    for log, settlement in zip(game.round_logs(), game.settlements, strict=True):
        lines.extend(round_lines(log, settlement, discards=discards))
    lines.extend(final_lines(result["final_points"], result["scores"], result["ended_by"]))
    return lines


def _write_mjai(path: Path, game: Game, seat: int | None = None) -> None:
    from engine.protocol.mjai import write_lines

    with path.open("w", encoding="utf-8") as stream:
        write_lines(game.mjai_events(seat), stream)
