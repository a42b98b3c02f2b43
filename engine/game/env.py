"""A game stepped from outside, the way riichienv's users drive theirs: `reset`, then `step` until `done`.

    from engine.game.env import RiichiEnv
    env = RiichiEnv(rulebook=NAME_OR_PATH, seed=1)  # any bundled rulebook or file; three or four players
    obs = env.reset()                               # {seat: Observation} of every seat that must act now
    while not env.done:
        obs = env.step({seat: my_bot(o) for seat, o in obs.items()})   # one of o.legal_actions per seat
    env.result()                                    # the contract's game result, as `Game.play` returns it

Each seat is shown only its own `Observation` (its hand and draws, what is in the open, and the events as its
mjai client received them), never the round: a bot cannot peek. Several seats are asked at once when a discard
may be called or ronned; their answers are applied together, and one illegal answer refuses the whole step
before any is played. The same seed and the same choices play the same game as `Game(...).play()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.errors import InvalidRequest
from engine.game.observation import Observation
from engine.game.selfplay import Game
from engine.round import Action, IllegalAction
from rulebooks import DEFAULT_RULEBOOK
from ruledsl.compile import Rulebook


class RiichiEnv:
    """One game under a rulebook, stepped by the caller's bots (see the module's docstring)."""

    def __init__(self, rulebook: str | Rulebook = DEFAULT_RULEBOOK, seed: int = 0, name: str | None = None) -> None:
        if isinstance(rulebook, str):
            from engine.scoring.library import rulebook as load

            rulebook = load(rulebook)
        self.rulebook = rulebook
        self.seed = seed
        self.name = name
        self.game = self._new_game()

    def _new_game(self) -> Game:
        # the game's own agents never play here: every move comes from `step`
        game = Game(self.rulebook, self.seed, "tsumogiri", self.name)
        game.watch()
        return game

    @property
    def players(self) -> int:
        return self.game.rules.players

    @property
    def done(self) -> bool:
        """Whether the game is over."""
        return self.game.state.finished

    def reset(self, seed: int | None = None) -> dict[int, Observation]:
        """A new game (from ``seed``, else this env's); the observations of the seats that must act first."""
        if seed is not None:
            self.seed = seed
        self.game = self._new_game()
        return self.observations()

    def observations(self) -> dict[int, Observation]:
        """``{seat: Observation}`` of every seat the game waits for now (empty once it is over)."""
        return {seat: self.game.observe(seat) for seat in self.game.waiting()}

    def step(self, actions: Mapping[int, Action]) -> dict[int, Observation]:
        """Play one action for each waiting seat; the observations of the seats that must act next."""
        if self.done:
            raise InvalidRequest("the game is over: `reset` starts another")
        waiting = self.game.waiting()
        if not isinstance(actions, Mapping):
            raise InvalidRequest(f"`step` takes {{seat: action}} for the seats {list(waiting)}, not {type(actions).__name__}")
        if set(actions) != set(waiting):
            raise InvalidRequest(f"`step` needs one action for each seat in {list(waiting)}, got seats {sorted(actions, key=str)}")
        rnd = self.game.round_now()
        for seat in waiting:
            action = actions[seat]
            if not isinstance(action, Action) or action.actor != seat or not rnd.is_legal(seat, action):
                raise IllegalAction(f"seat {seat}: `{action}` is not one of its legal actions")
        for seat in waiting:
            self.game.apply(actions[seat])
        return {} if self.done else self.observations()

    def result(self) -> dict[str, Any]:
        """The game result of the contract (final points, placements, uma and oka), once the game is over."""
        if not self.done:
            raise InvalidRequest("the game is not over yet")
        return self.game.result()

    @property
    def scores(self) -> tuple[int, ...]:
        """Each seat's points now (between rounds: after the last settlement)."""
        return tuple(self.game.live.scores) if self.game.live is not None else self.game.state.scores

    def mjai_events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The game so far as mjai events (the rounds played), or as ``seat`` received them (``Game.mjai_events``)."""
        return self.game.mjai_events(seat)
