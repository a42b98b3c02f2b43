"""Self-play writes mjai that our own replay (and so any mjai reader) takes as it is: every move legal, every
settlement, counter and final point matched. A `hora`'s deltas include the sticks its winner collects, as every
mjai producer writes them."""

from __future__ import annotations

import pytest

from engine.api import scorer
from engine.game import Game
from engine.protocol.mjai import write_lines
from engine.replay.rounds import replay
from engine.scoring.library import rulebook


@pytest.mark.parametrize(("name", "seed", "agents"), [("tenhou", 3, "random"), ("tenhou", 5, "shanten"), ("tenhou_sanma", 9, "shanten")])
def test_a_self_played_game_replays_through_its_own_mjai(name, seed, agents, tmp_path):
    game = Game(rulebook(name), seed=seed, agents=agents)
    game.play()
    path = tmp_path / f"game-{seed}.mjson"
    with path.open("w", encoding="utf-8") as out:
        write_lines(game.mjai_events(), out)
    report = replay([str(path)], rulebook=name, scorer_of=scorer)
    assert report.errors == [] and report.mismatches == []
    assert report.rounds == report.rounds_matched == len(game.settlements)
