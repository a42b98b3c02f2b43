"""The game engine: rounds from the first deal to the final table, under any compiled rulebook.

    from engine.game import Game
    from engine.scoring.library import rulebook
    result = Game(rulebook("my_club.rulebook"), seed=1, agents="shanten").play()

`progression` (pure: the next round or the end), `result` (final table, uma and oka, the JSON result),
`agents` (built-in players and the `Bot` protocol), `observation` (what one seat sees), `selfplay` (the driver)
and `env` (`RiichiEnv`: a game stepped from outside by bots). See docs/round-engine.md and docs/embedding.md.
"""

from engine.game.agents import AGENTS, Agent, Bot, make_agents
from engine.game.env import RiichiEnv
from engine.game.observation import Discard, Observation
from engine.game.progression import GameState, advance, start
from engine.game.result import GameResult, game_result
from engine.game.rules import GameRules
from engine.game.selfplay import Game, GameStuck, play_game
from engine.game.witness import game_witness

__all__ = [
    "AGENTS", "Agent", "Bot", "Discard", "Game", "GameResult", "GameRules", "GameState", "GameStuck", "advance", "game_result", "game_witness",
    "make_agents", "Observation", "RiichiEnv",
    "play_game", "start",
]
