"""Play riichienv self-play games and store their mjai events with every legal-action set riichienv offered.

riichienv (Rust, Tenhou rules, 4 and 3 players) is an independent implementation: replaying its games through our
round engine and comparing the legal sets decision by decision is the oracle of ``tests/oracle/test_riichienv.py``.
It is a test-only dependency; nothing under ``engine/`` imports it.

The agents win whenever they can, declare riichi whenever they can, set aside every North, make closed and added
kans, call pon/chi/open kan when the call does not worsen the hand (and now and then when it does), and discard
the tile that leaves the lowest shanten (ties broken by a seeded generator). So rounds end in wins, riichi,
calls and kans, not only in exhaustive draws. Deterministic per seed for a given riichienv version.

    python -m tests.oracle.generate_riichienv --players 4 --games 1000 --out tests/data/riichienv/tenhou4p.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from tests.oracle.corpus import (
    action_token,
    compress_legal,
    decode_event,
    encode_event,
    expand_legal,
    write_games,
)

MODES = {4: "4p-red-half", 3: "3p-red-half"}


class Agent:
    """A greedy shanten agent; its whims are drawn from its own seeded generator."""

    def __init__(self, seed: int, players: int) -> None:
        import riichienv

        self.rng = random.Random(seed)
        self.shanten = riichienv.calculate_shanten_3p if players == 3 else riichienv.calculate_shanten
        self.types = riichienv.ActionType

    def _after(self, hand: list[int], removed: list[int]) -> int:
        rest = list(hand)
        for tile in removed:
            rest.remove(tile)
        return int(self.shanten(rest))

    def act(self, obs: Any) -> Any:
        t = self.types
        legal = obs.legal_actions()
        by_type: dict[Any, list[Any]] = {}
        for action in legal:
            by_type.setdefault(action.action_type, []).append(action)
        for kind in (t.TSUMO, t.RON, t.RIICHI, t.KITA, t.ANKAN, t.KAKAN):
            if kind in by_type:
                return self.rng.choice(by_type[kind])
        if t.KYUSHU_KYUHAI in by_type and self.rng.random() < 0.5:
            return by_type[t.KYUSHU_KYUHAI][0]
        hand = list(obs.hand)
        calls = [a for k in (t.DAIMINKAN, t.PON, t.CHI) for a in by_type.get(k, [])]
        if calls:
            now = int(self.shanten(hand)) if len(hand) % 3 == 1 else 8
            call = self.rng.choice(calls)
            try:
                after = min(self._after(hand, list(call.consume_tiles) + [x]) for x in hand if x not in call.consume_tiles)
            except (ValueError, IndexError):
                after = now
            if after < now or self.rng.random() < 0.08:
                return call
        if t.DISCARD in by_type:
            options = by_type[t.DISCARD]
            scored = []
            for action in options:
                try:
                    scored.append((self._after(hand, [action.tile]), action))
                except ValueError:
                    scored.append((9, action))
            best = min(s for s, _ in scored)
            return self.rng.choice([a for s, a in scored if s == best])
        if t.PASS in by_type:
            return by_type[t.PASS][0]
        return self.rng.choice(legal)


def play(players: int, seed: int) -> dict[str, Any]:
    """One whole game: its events (compact tokens) and, per decision, the legal set riichienv offered."""
    import riichienv

    env = riichienv.RiichiEnv(game_mode=MODES[players], seed=seed, rule=riichienv.GameRule.default_tenhou())
    agents = [Agent(seed * 10 + seat, players) for seat in range(players)]
    obs = env.reset()
    legal: list[list[Any]] = []
    # env.mjai_log converts the whole log on every access: count each seat's new events instead
    seen = [0] * players
    while not env.done():
        actions = {}
        for seat in sorted(obs):
            seen[seat] += len(obs[seat].events)
            offered = obs[seat].legal_actions()
            if not offered:
                continue
            tokens = sorted({action_token(json.loads(a.to_mjai())) for a in offered})
            legal.append([seen[seat], seat, " ".join(tokens)])
            actions[seat] = agents[seat].act(obs[seat])
        obs = env.step(actions)
    log = env.mjai_log
    events = [encode_event(e) for e in log]
    for original, token in zip(log, events, strict=True):
        if decode_event(token) != original:
            raise AssertionError(f"codec loses {original} as {token}")
    compact = compress_legal(log, legal)
    if expand_legal(log, compact) != sorted((i, s, frozenset(t.split())) for i, s, t in legal):
        raise AssertionError(f"legal-set compression is lossy in game {seed}")
    return {"seed": seed, "mode": MODES[players], "players": players, "scores": env.scores(), "events": events, "legal": compact}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(3, 4), required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    games = [play(args.players, seed) for seed in range(args.first_seed, args.first_seed + args.games)]
    write_games(args.out, games)
    print(f"{len(games)} games in {time.perf_counter() - started:.1f} s -> {args.out} ({args.out.stat().st_size} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
