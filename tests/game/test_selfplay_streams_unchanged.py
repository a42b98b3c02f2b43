"""Self-play plays the very same games as the release it was recorded with: for several seeds, agents and
rulebooks (four and three players), the mjai event stream, the game result and every seat's legal actions at every
decision hash to the digests in ``tests/golden/selfplay_streams.json``.

The round engine's turn loop carries shortcuts for speed (the call window skipped when no seat can answer a tile,
the shanten bounds of a resting hand, the identity checks of a chosen action); a shortcut that changed a single
event, result or offered action would change a digest here. ``python -m tests.game.test_selfplay_streams_unchanged``
rewrites the file: only when a rule change is meant to change the games.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engine.game import Game
from engine.scoring.library import rulebook

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "selfplay_streams.json"
# (rulebook, agents, seeds): the principal four-player books, three-player ones (kita), and the agents that call,
# declare riichi and win (shanten) beside the uniform player that takes every path (random)
CASES = (
    ("tenhou", "random", (1, 2, 3, 4)),
    ("tenhou", "shanten", (1, 2)),
    ("tenhou_sanma", "random", (1, 2, 3)),
    ("tenhou_sanma", "shanten", (1,)),
    ("sanma", "random", (1, 2)),
    ("house", "random", (1, 2)),
    ("wrc2025", "random", (1,)),
    ("mleague", "shanten", (1,)),
    ("ema2016", "random", (1,)),
    ("mahjchina", "random", (1,)),
    ("tenhou_east_nored_nokuitan", "random", (5,)),
)


def stream_digest(name: str, agents: str, seed: int) -> str:
    """The sha256 of the game's events (mjai), result, and the legal actions of each waiting seat at each step;
    then of the same game's result and events as ``Game.play`` plays it."""
    game = Game(rulebook(name), seed, agents)
    h = hashlib.sha256()
    while True:
        seats = game.waiting()
        if not seats:
            break
        rnd = game.round_now()
        for seat in seats:
            h.update(json.dumps([seat, [a.to_json() for a in rnd.legal_actions(seat)]]).encode())
        game.apply(game.choose(seats[0]))
    h.update(json.dumps(game.mjai_events(), sort_keys=True).encode())
    h.update(json.dumps(game.result(), sort_keys=True, default=str).encode())
    played = Game(rulebook(name), seed, agents)  # and as `play` runs it, no seat asked more than its agent asks
    h.update(json.dumps(played.play(), sort_keys=True, default=str).encode())
    h.update(json.dumps(played.mjai_events(), sort_keys=True).encode())
    return h.hexdigest()


def _keys() -> list[tuple[str, str, int]]:
    return [(name, agents, seed) for name, agents, seeds in CASES for seed in seeds]


@pytest.mark.parametrize(("name", "agents", "seed"), _keys(), ids=lambda v: str(v))
def test_self_play_stream_is_byte_identical(name, agents, seed):
    golden = json.loads(GOLDEN.read_text())
    assert stream_digest(name, agents, seed) == golden[f"{name}/{agents}/{seed}"]


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({f"{n}/{a}/{s}": stream_digest(n, a, s) for n, a, s in _keys()}, indent=1) + "\n")
