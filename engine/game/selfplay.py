"""Self-play: a `Game` drives `Round`s with agents from the first deal to the final table.

The game asks the round engine for each seat's legal actions and applies the agent's choice (`Round.apply`
refuses an illegal one, so every applied action was legal); between rounds the pure progression of
`engine.game.progression` decides the next wind, dealer and counters, or the end. Walls are shuffled from the
game's seed and the round's number, and agents are seeded from the game's seed: the same seed plays the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import tiles as T
from engine.errors import EngineError, InvalidRequest
from engine.game.agents import Agent, make_agents
from engine.game.progression import GameState, advance, start
from engine.game.result import game_result
from engine.game.rules import GameRules
from engine.round import Round, RoundSetup, round_rules
from ruledsl.compile import Rulebook

# A game that has not ended after this many rounds is a bug (an end condition that can never hold), not a game.
MAX_ROUNDS = 500
# Actions in one round beyond which the round is stuck (a round has at most a few hundred decisions).
MAX_ACTIONS = 5000
DEFAULT_AGENT = "random"  # `Game(rulebook, seed)` with no agents: every seat plays any legal action


class GameStuck(EngineError):
    """A game or round that does not end: a rulebook whose end conditions never hold, or an engine bug."""

    code = "game_stuck"


class Game:
    """One game of self-play under a compiled rulebook: `Game(rulebook, seed, agents).play()` -> the result."""

    def __init__(self, rulebook: Rulebook, seed: int, agents: str | Sequence[Agent] | None = None, name: str | None = None) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InvalidRequest(f"a game's seed is a whole number, not {type(seed).__name__}")
        self.rulebook = rulebook
        self.name = name or rulebook.name
        self.seed = seed
        self.rules = GameRules.of(rulebook)
        self.round_rules = round_rules(rulebook)
        agents = DEFAULT_AGENT if agents is None else agents
        if not isinstance(agents, (str, Sequence)):
            raise InvalidRequest(f"`agents` is an agent's name or one agent per seat, not {type(agents).__name__}")
        self.agents = make_agents(agents, seed, self.rules.players) if isinstance(agents, str) else list(agents)
        if len(self.agents) != self.rules.players:
            raise InvalidRequest(f"{len(self.agents)} agents for {self.rules.players} players")
        self.state: GameState = start(self.rules)
        self.settlements: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = [{"type": "start_game", "names": [f"seat{s}" for s in range(self.rules.players)]}]
        self.actions = 0
        self.last_round: Round | None = None  # the round just played, for observers (tests, tools)

    def next_round(self) -> Round:
        """The round the game stands at, dealt from the game's seed and the round's number."""
        s = self.state
        setup = RoundSetup(
            round_wind=s.round_wind(self.rules),
            dealer=s.dealer,
            honba=s.honba,
            sticks=s.sticks,
            scores=s.scores,
            first_round=s.rounds_played == 0,
            dealer_consecutive_wins=s.dealer_wins,
        )
        return Round(self.round_rules, setup, seed=f"{self.seed}/{s.rounds_played}")

    def play_round(self) -> dict[str, Any]:
        """Play the next round to its settlement with the agents; advance the game; return the settlement."""
        rnd = self.next_round()
        count = 0
        while not rnd.finished:
            waiting = rnd.waiting()
            if not waiting:
                raise GameStuck("the round waits for nobody but is not finished")
            seat = waiting[0]
            legal = rnd.legal_actions(seat)
            rnd.apply(self.agents[seat].act(rnd, seat, legal))
            count += 1
            if count > MAX_ACTIONS:
                raise GameStuck(f"a round did not end after {MAX_ACTIONS} actions")
        self.actions += count
        self.last_round = rnd
        settlement = rnd.settlement
        if settlement is None:
            raise GameStuck("a finished round has no settlement")
        self.settlements.append(settlement)
        self.events.extend(rnd.events)
        self.state = advance(self.rules, self.state, settlement)
        return settlement

    def play(self) -> dict[str, Any]:
        """Play rounds until the game ends; the contract's game result."""
        while not self.state.finished:
            if self.state.rounds_played >= MAX_ROUNDS:
                raise GameStuck(f"the game did not end after {MAX_ROUNDS} rounds")
            self.play_round()
        return self.result()

    def result(self) -> dict[str, Any]:
        return game_result(self.rules, self.state, self.name, self.seed)

    def mjai_events(self) -> list[dict[str, Any]]:
        """Every event of the game, `start_game` to `end_game`, as mjai dicts (mjai tile names), written as every
        mjai producer writes them (a `hora`'s deltas include the riichi sticks its winner collects), so that
        `riichi replay` and other mjai readers take the file as it is."""
        from engine.mjai import round_events_to_mjai

        end = [{"type": "end_game", "scores": list(self.result()["final_points"])}] if self.state.finished else []
        return round_events_to_mjai((_tiles_listed(e) for e in self.events + end), self.rules.riichi_deposit)


def _tiles_listed(event: dict[str, Any]) -> dict[str, Any]:
    """The event with its tile lists in mjai's shape (a list of single tiles) where the round wrote one mpsz
    string: each hand of `tehais`, and the ura indicators."""
    out = event
    hands = event.get("tehais")
    if hands and any(isinstance(h, str) for h in hands):
        out = {**out, "tehais": [_single(h) if isinstance(h, str) else h for h in hands]}
    for key in ("ura_markers", "uradora_markers"):
        if isinstance(event.get(key), str):
            out = {**out, key: _single(event[key])}
    return out


def _single(text: str) -> list[str]:
    return [T.format_tiles([c]) for c in T.parse_tiles(text)] if text else []


def play_game(rulebook: Rulebook, seed: int, agents: str | Sequence[Agent] | None = None, name: str | None = None) -> dict[str, Any]:
    """Play one whole game; its result (contract.md, "Round and game")."""
    return Game(rulebook, seed, agents, name).play()
