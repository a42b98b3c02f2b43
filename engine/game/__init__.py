"""The game engine: rounds from the first deal to the final table, under any compiled rulebook.

    from engine.game import Game
    from engine.scoring.library import rulebook
    result = Game(rulebook("my_club.rulebook"), seed=1, agents="shanten").play()

`progression` (pure: the next round or the end), `result` (final table, uma and oka, the JSON result),
`agents` (built-in players and the `Bot` protocol), `observation` (what one seat sees), `selfplay` (the driver)
and `env` (`RiichiEnv`: a game stepped from outside by bots). See docs/round-engine.md and docs/embedding.md.

The names below are imported when first read (PEP 562): ``riichi diff`` reads one final table through
``engine.game.witness`` and need not load the players, the driver and the contract's pydantic model with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.lazy import lazy_names

# name -> the module that defines it
_LAZY = {
    "AGENTS": "engine.game.agents",
    "Agent": "engine.game.agents",
    "Bot": "engine.game.agents",
    "make_agents": "engine.game.agents",
    "RiichiEnv": "engine.game.env",
    "Discard": "engine.game.observation",
    "Observation": "engine.game.observation",
    "GameState": "engine.game.progression",
    "advance": "engine.game.progression",
    "start": "engine.game.progression",
    "GameResult": "engine.game.result_model",
    "game_result": "engine.game.result",
    "GameRules": "engine.game.rules",
    "Game": "engine.game.selfplay",
    "GameStuck": "engine.game.selfplay",
    "play_game": "engine.game.selfplay",
    "game_witness": "engine.game.witness",
}

if TYPE_CHECKING:  # type checkers see the real names; at run time ``__getattr__`` imports them on first use
    from engine.game.agents import AGENTS, Agent, Bot, make_agents
    from engine.game.env import RiichiEnv
    from engine.game.observation import Discard, Observation
    from engine.game.progression import GameState, advance, start
    from engine.game.result import game_result
    from engine.game.result_model import GameResult
    from engine.game.rules import GameRules
    from engine.game.selfplay import Game, GameStuck, play_game
    from engine.game.witness import game_witness


_lazy = lazy_names(__name__, _LAZY, globals())


def __getattr__(name: str) -> Any:
    return _lazy(name)


__all__ = [
    "AGENTS", "Agent", "Bot", "Discard", "Game", "GameResult", "GameRules", "GameState", "GameStuck", "advance", "game_result", "game_witness",
    "make_agents", "Observation", "RiichiEnv",
    "play_game", "start",
]
