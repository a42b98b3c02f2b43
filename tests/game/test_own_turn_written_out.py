"""``Game.play_round`` plays an own turn's chosen discard itself when it is one of the offered objects; an agent that
answers with an equal discard built anew, or with a move it was not offered, goes through ``Round.apply`` as
before: the same game, or the same refusal."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.game.agents import RandomAgent
from engine.round import Action, IllegalAction
from engine.scoring.library import rulebook


class Copying(RandomAgent):
    """The random player's choice, handed back as a new object equal to the offered one."""

    def act(self, rnd, seat, legal):
        a = super().act(rnd, seat, legal)
        return Action(a.type, a.actor, a.pai, consumed=a.consumed, target=a.target, tsumogiri=a.tsumogiri, open=a.open)


class Cheating(RandomAgent):
    """Discards a tile it does not hold once, on its tenth turn."""

    turns = 0

    def act(self, rnd, seat, legal):
        if rnd.phase == "own":
            self.turns += 1
            if self.turns == 10:
                held = set(rnd.seats[seat].hand)
                return Action("dahai", seat, next(c for c in range(34) if c not in held))
        return super().act(rnd, seat, legal)


@pytest.mark.parametrize(("name", "seed"), [("tenhou", 3), ("tenhou_sanma", 2)])
def test_a_discard_equal_to_the_offered_one_plays_the_same_game(name, seed):
    rb = rulebook(name)
    players = Game(rb, seed).rules.players
    plain = Game(rb, seed, [RandomAgent(seed * 1009 + k) for k in range(players)])
    copied = Game(rb, seed, [Copying(seed * 1009 + k) for k in range(players)])
    assert plain.play() == copied.play()
    assert plain.mjai_events() == copied.mjai_events()


def test_a_discard_not_offered_is_refused_by_apply():
    rb = rulebook("tenhou")
    game = Game(rb, 1, [Cheating(k) for k in range(4)])
    with pytest.raises(IllegalAction, match="refused"):
        game.play()
