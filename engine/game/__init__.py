"""The game engine: rounds from the first deal to the final table, under any compiled rulebook.

    from engine.game import Game
    from engine.library import rulebook
    result = Game(rulebook("my_club.rulebook"), seed=1, agents="shanten").play()

`progression` (pure: the next round or the end), `result` (final table, uma and oka, the JSON result),
`agents` (built-in players) and `selfplay` (the driver). See docs/round-engine.md.
"""

from engine.game.agents import AGENTS, make_agents
from engine.game.progression import GameState, advance, start
from engine.game.result import GameResult, game_result
from engine.game.rules import GameRules
from engine.game.selfplay import Game, GameStuck, play_game
from engine.game.witness import game_witness

__all__ = [
    "AGENTS", "Game", "GameResult", "GameRules", "GameState", "GameStuck", "advance", "game_result", "game_witness",
    "make_agents",
    "play_game", "start",
]
