"""Self-play: a `Game` drives `Round`s with agents from the first deal to the final table.

The game asks the round engine for each seat's legal actions and applies the agent's choice (`Round.apply`
refuses an illegal one, so every applied action was legal); between rounds the pure progression of
`engine.game.progression` decides the next wind, dealer and counters, or the end. Walls are shuffled from the
game's seed and the round's number, and agents are seeded from the game's seed: the same seed plays the same game.

A game can also be stepped from outside, one action at a time (`waiting`, `observe`, `apply`), which is what
`engine.game.env.RiichiEnv` does; `play` is that same loop with the game's own agents answering.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.errors import EngineError, InvalidRequest
from engine.game.agents import Agent, Bot, make_agents
from engine.game.observation import Observation, TableViews
from engine.game.progression import GameState, advance, start
from engine.game.result import game_result
from engine.game.rules import GameRules
from engine.round import Action, Round, RoundSetup, legal, round_rules, turns
from engine.round.events import RoundEvent, StartKyoku
from engine.round.settlement import Settlement
from ruledsl.compile import Rulebook
from ruledsl.record import record

# A game that has not ended after this many rounds is a bug (an end condition that can never hold), not a game.
MAX_ROUNDS = 500
# Actions in one round beyond which the round is stuck (a round has at most a few hundred decisions).
MAX_ACTIONS = 5000
DEFAULT_AGENT = "random"  # `Game(rulebook, seed)` with no agents: every seat plays any legal action


class GameStuck(EngineError):
    """A game or round that does not end: a rulebook whose end conditions never hold, or an engine bug."""

    code = "game_stuck"


@record
class StartGame:
    """The game begins: the players' names, in seat order (mjai's ``start_game``)."""

    names: tuple[str, ...]

    def json(self) -> dict[str, Any]:
        return {"type": "start_game", "names": list(self.names)}


GameEvent = StartGame | RoundEvent


class Game:
    """One game of self-play under a compiled rulebook: `Game(rulebook, seed, agents).play()` -> the result."""

    def __init__(self, rulebook: Rulebook, seed: int, agents: str | Sequence[Agent | Bot] | None = None, name: str | None = None) -> None:
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
        self.agents: list[Agent | Bot] = list(make_agents(agents, seed, self.rules.players) if isinstance(agents, str) else agents)
        if len(self.agents) != self.rules.players:
            raise InvalidRequest(f"{len(self.agents)} agents for {self.rules.players} players")
        for seat, agent in enumerate(self.agents):
            if not (callable(getattr(agent, "act", None)) or callable(getattr(agent, "decide", None))):
                raise InvalidRequest(f"the agent of seat {seat} has neither `decide(obs)` nor `act(rnd, seat, legal)`")
        self.state: GameState = start(self.rules)
        self.settlements: list[Settlement] = []  # each played round's (``Round.settled``)
        # the game's events, typed: ``StartGame``, then each played round's records (``Round.log``); ``events``
        # writes them as dicts when read, so that a game nobody reads the events of never writes them
        self.start = StartGame(tuple(f"seat{s}" for s in range(self.rules.players)))
        self.log: list[GameEvent] = [self.start]
        self._written: list[dict[str, Any]] = []
        self.actions = 0
        self.last_round: Round | None = None  # the round just played, for observers (tests, tools)
        self.live: Round | None = None  # the round being played, while one is
        self.round_actions = 0
        # every seat's view, kept once some player sees only its seat (a `Bot`, or `RiichiEnv`)
        self.views: TableViews | None = None
        if any(not callable(getattr(a, "act", None)) for a in self.agents):
            self.watch()

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event of the played rounds as the round writes them (``Round.events``), ``start_game`` first: the
        game's ``log`` as dicts, for an embedder who wants them (nothing in the engine reads them)."""
        written, log = self._written, self.log
        if len(written) < len(log):
            written.extend([e.json() for e in log[len(written) :]])
        return written

    def watch(self) -> TableViews:
        """Every seat's view of the game, kept from now on (and made up from the rounds already played)."""
        if self.views is None:
            views = TableViews(self.rules.players, self.rules.riichi_deposit, self.start.names)
            for played in self.round_logs():
                views.close_round(played)
            if self.state.finished:
                views.end_game(self.result()["final_points"])
            self.views = views
        return self.views

    def round_logs(self) -> list[list[RoundEvent]]:
        """The records of each round played (``Round.log``), in order: the game's ``log`` split at each deal."""
        rounds: list[list[RoundEvent]] = []
        for event in self.log:
            if isinstance(event, StartKyoku):
                rounds.append([])
            if rounds and not isinstance(event, StartGame):
                rounds[-1].append(event)
        return rounds

    def round_now(self) -> Round:
        """The round being played, dealt now if the last one has ended."""
        if self.live is None:
            if self.state.finished:
                raise InvalidRequest("the game is over: no round follows its end")
            if self.state.rounds_played >= MAX_ROUNDS:
                raise GameStuck(f"the game did not end after {MAX_ROUNDS} rounds")
            self.live = self.next_round()
            self.round_actions = 0
        return self.live

    def waiting(self) -> tuple[int, ...]:
        """The seats whose move the game waits for now (none once it is over)."""
        while not self.state.finished:
            rnd = self.round_now()
            if rnd.finished:  # over at its deal, nothing to decide: settled as it stands
                self._settle(rnd)
                continue
            seats = rnd.waiting()
            if not seats:
                raise GameStuck("the round waits for nobody but is not finished")
            return seats
        return ()

    def observe(self, seat: int) -> Observation:
        """What ``seat`` sees now and what it may do (``engine.game.observation``)."""
        return self.watch().observe(self.round_now(), seat)

    def apply(self, action: Action) -> dict[str, Any] | None:
        """Play one seat's action (``IllegalAction`` for one it may not make); the settlement when it ended the
        round, which then is settled and the game advanced."""
        ended = self._step(action)
        return None if ended is None else _written(ended)

    def _step(self, action: Action) -> Round | None:
        """``apply`` without the settlement's dict: the round when the action ended it."""
        rnd = self.round_now()
        rnd.apply(action)
        self.round_actions += 1
        if self.round_actions > MAX_ACTIONS:
            raise GameStuck(f"a round did not end after {MAX_ACTIONS} actions")
        if not rnd.finished:
            return None
        self._settle(rnd)
        return rnd

    def choose(self, seat: int) -> Action:
        """The move this seat's agent makes now: ``act`` of the older protocol, else ``decide`` on its view."""
        agent = self.agents[seat]
        rnd = self.round_now()
        act = getattr(agent, "act", None)
        if callable(act):
            chosen: Action = act(rnd, seat, rnd.legal_actions(seat))
            return chosen
        return agent.decide(self.observe(seat))  # type: ignore[union-attr]

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
        return _written(self._play_round())

    def _play_round(self) -> Round:
        """``play_round`` without the settlement's dict (the game reads the typed one): the round, settled."""
        rnd = self.round_now()
        if rnd.finished:
            self._settle(rnd)
            return rnd
        acts = [getattr(agent, "act", None) for agent in self.agents]
        if not all(callable(act) for act in acts):
            while True:
                seat = self.waiting()[0]
                ended = self._step(self.choose(seat))
                if ended is not None:
                    return ended
        # every agent takes the older protocol: ``waiting``, ``choose`` and ``apply`` written out on the one round,
        # which is a move's whole cost for a random player (the same calls in the same order, the same checks)
        legal_actions, apply, waiting = rnd.legal_actions, rnd.apply, rnd.waiting
        own_turn, own_dahai = legal.own_turn, turns.own_dahai  # read from their modules per round: a stand-in put there is the one played
        actions = self.round_actions  # counted in a local, written back however the loop ends
        try:
            while not rnd.finished:
                if rnd.phase == "own":  # ``waiting()`` of an own turn, without the call and its tuple
                    seat = rnd.actor
                    # ``legal_actions`` and ``apply`` of an own turn written out: the listing kept for the turn, and a
                    # chosen discard that is one of the offered objects played at once (what ``apply`` does with it)
                    options = rnd.own_cache
                    if options is None:
                        options = rnd.own_cache = own_turn(rnd, seat)
                    action = acts[seat](rnd, seat, options)  # type: ignore[misc]
                    if action.__class__ is Action and action.type == "dahai":
                        for option in options:
                            if option is action:
                                rnd.own_cache = None
                                own_dahai(rnd, action)
                                break
                        else:
                            apply(action)
                    else:
                        apply(action)
                else:
                    seats = waiting()
                    if not seats:
                        raise GameStuck("the round waits for nobody but is not finished")
                    seat = seats[0]
                    apply(acts[seat](rnd, seat, legal_actions(seat)))  # type: ignore[misc]
                actions += 1
                if actions > MAX_ACTIONS:
                    raise GameStuck(f"a round did not end after {MAX_ACTIONS} actions")
        finally:
            self.round_actions = actions
        self._settle(rnd)
        return rnd

    def _settle(self, rnd: Round) -> None:
        """Settle a finished round: keep its events and typed settlement, advance the game. The contract's dict
        (``Round.settlement``) is written only for a caller that returns it (``apply``, ``play_round``)."""
        self.actions += self.round_actions
        self.last_round, self.live = rnd, None
        settled = rnd.settled
        if settled is None:
            raise GameStuck("a finished round has no settlement")
        self.settlements.append(settled)
        self.log.extend(rnd.log)
        self.state = advance(self.rules, self.state, settled)
        if self.views is not None:
            self.views.close_round(rnd.log)
            if self.state.finished:
                self.views.end_game(self.result()["final_points"])

    def play(self) -> dict[str, Any]:
        """Play rounds until the game ends; the contract's game result."""
        while not self.state.finished:
            self._play_round()
        return self.result()

    def result(self) -> dict[str, Any]:
        return game_result(self.rules, self.state, self.name, self.seed)

    def mjai_events(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Every event of the game's played rounds, `start_game` to `end_game`, as mjai dicts (mjai tile names),
        written as every mjai producer writes them (a `hora`'s deltas include the riichi sticks its winner
        collects), so that `riichi replay` and other mjai readers take the file as it is. With ``seat``, the
        stream as that seat's client receives it: other seats' draws and dealt hands as ``?``."""
        from engine.protocol.mjai import masked_stream, round_to_mjai

        played = [e for rnd in self.round_logs() for e in rnd]
        events = [self.start.json(), *round_to_mjai(played, self.rules.riichi_deposit)]
        if self.state.finished:
            events.append({"type": "end_game", "scores": list(self.result()["final_points"])})
        if seat is None:
            return events
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise InvalidRequest(f"a seat of this game is 0 to {self.rules.players - 1}, not {seat!r}")
        return masked_stream(events, seat)


def play_game(rulebook: Rulebook, seed: int, agents: str | Sequence[Agent | Bot] | None = None, name: str | None = None) -> dict[str, Any]:
    """Play one whole game; its result (contract.md, "Round and game")."""
    return Game(rulebook, seed, agents, name).play()


def _written(rnd: Round) -> dict[str, Any]:
    """A settled round's contract settlement (``Round.settlement``, written at its first read)."""
    settlement = rnd.settlement
    if settlement is None:
        raise GameStuck("a finished round has no settlement")
    return settlement
