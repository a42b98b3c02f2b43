"""Built-in players for self-play: `random`, `tsumogiri` and `shanten`, each deterministic for its seed.

A player answers one question: which of its seat's legal actions to play. Two ways to ask it:

- `Bot.decide(obs)`: the player sees only its seat's `Observation` (`engine.game.observation`: its own hand and
  draws, what is in the open, the events as its mjai client received them) and picks one of
  `obs.legal_actions`. This is the protocol for bots that must not peek (a ladder, `RiichiEnv`).
- `Agent.act(rnd, seat, legal)`: the older protocol, kept for existing agents: it is handed the whole `Round`, so
  nothing stops it from reading other hands. `Game` asks `act` of a player that has it, `decide` otherwise.

The built-in agents offer both and choose the same move either way (a test plays whole games both ways); through
`act` they read only their own seat. They know no rule: whatever the rulebook allows is in the legal actions.

- `random`: any legal action, uniformly (calls, kans, riichi and abortive draws included), so that every path of
  the round engine is exercised.
- `tsumogiri`: the least a player can do: wins when it may, otherwise discards the tile it drew and calls nothing.
- `shanten`: a simple greedy player: wins whenever it can, declares riichi when it may, discards the tile that
  leaves the lowest shanten (keeping the drawn tile on ties), and sometimes calls a pon or chi that brings it
  closer to tenpai, so that games have calls.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine.core import tiles as T
from engine.core.analysis import shanten
from engine.core.errors import InvalidRequest
from engine.game.observation import Observation
from engine.round import Action

# A shanten agent calls a pon or chi that lowers its shanten this often (enough for games with calls).
CALL_RATE = 0.35
# At an exhaustive draw where noten may be declared, the built-in agents state their real hand.
PREFERRED_DECLARATION = ("tenpai", "noten")


class Agent(Protocol):
    """A player of the older protocol: given the whole round (it may read any seat), picks one of the legal
    actions of its seat."""

    def act(self, rnd: Any, seat: int, legal: Sequence[Action]) -> Action: ...


class Bot(Protocol):
    """A player that sees only its own seat: picks one of ``obs.legal_actions``."""

    def decide(self, obs: Observation) -> Action: ...


def own_counts(hand: Sequence[int]) -> list[int]:
    """The 34 kind counts of a hand's tiles (what ``Seat.counts`` keeps for the round)."""
    counts = [0] * T.KINDS
    for code in hand:
        counts[T.KIND_OF[code]] += 1
    return counts


class RandomAgent:
    """Any legal action, uniformly at random."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        # ``randrange(n)`` for n > 0 draws bits of length ``n.bit_length()`` until one is below n: written into
        # ``act`` (a random player picks once per move), where this Python's randrange draws so (``_DRAWS_INLINE``)
        self._bits = self.rng.getrandbits if _draws_inline() else None

    def act(self, rnd: Any, seat: int, legal: Sequence[Action]) -> Action:
        n = len(legal)
        bits = self._bits
        if bits is None or not n:  # nothing to pick: randrange's own error
            return legal[self.rng.randrange(n)]
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        return legal[j]

    def decide(self, obs: Observation) -> Action:
        return self.act(None, obs.seat, obs.legal_actions)


def _draw_inline(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` as ``RandomAgent.act`` draws it."""
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def _draws_inline() -> bool:
    """Whether ``randrange`` of this Python draws as ``_draw_inline`` does: asked once, of a few hundred draws, so
    that a Python that draws otherwise keeps the random player's picks of its own ``randrange``."""
    if not _DRAWS_INLINE:
        ours, theirs = random.Random(7), random.Random(7)
        _DRAWS_INLINE.append(all(_draw_inline(ours, n) == theirs.randrange(n) for n in (*range(1, 70), 100, 128, 129) * 3))
    return _DRAWS_INLINE[0]


_DRAWS_INLINE: list[bool] = []


def _first(legal: Sequence[Action], *types: str) -> Action | None:
    for t in types:
        for a in legal:
            if a.type == t:
                return a
    return None


class TsumogiriAgent:
    """Wins when it may; otherwise discards the drawn tile and passes every call."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, rnd: Any, seat: int, legal: Sequence[Action]) -> Action:
        win = _first(legal, "hora")
        if win is not None:
            return win
        drawn = next((a for a in legal if a.type == "dahai" and a.tsumogiri), None)
        if drawn is not None:
            return drawn
        return _first(legal, "none", *PREFERRED_DECLARATION, "dahai") or legal[0]

    def decide(self, obs: Observation) -> Action:
        return self.act(None, obs.seat, obs.legal_actions)


class ShantenAgent:
    """Greedy: win, riichi, lowest-shanten discard, and some calls that lower the shanten."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, rnd: Any, seat: int, legal: Sequence[Action]) -> Action:
        own = rnd.seats[seat]  # its own seat only: the same move as `decide` makes from the observation
        return self.choose(own.counts, len(own.melds), legal)

    def decide(self, obs: Observation) -> Action:
        return self.choose(own_counts(obs.hand), len(obs.melds[obs.seat]), obs.legal_actions)

    def choose(self, counts: Sequence[int], melds: int, legal: Sequence[Action]) -> Action:
        """The move for a hand of these kind counts beside ``melds`` melds."""
        win = _first(legal, "hora")
        if win is not None:
            return win
        types = {a.type for a in legal}
        if "dahai" in types or "reach" in types:
            return self._own_turn(counts, melds, legal)
        if types & {"tenpai", "noten"}:
            return _first(legal, *PREFERRED_DECLARATION) or legal[0]
        return self._respond(counts, melds, legal)

    def _own_turn(self, hand: Sequence[int], melds: int, legal: Sequence[Action]) -> Action:
        kita = _first(legal, "nukidora")
        if kita is not None:
            return kita
        reach = _first(legal, "reach")
        if reach is not None:
            return reach
        discards = [a for a in legal if a.type == "dahai"]
        if not discards:
            return legal[0]
        counts = list(hand)
        best: tuple[int, int, int] | None = None
        choice = discards[0]
        seen: dict[int, int] = {}
        for a in discards:
            pai = a.pai if a.pai is not None else 0  # a dahai always names its tile
            kind = T.KIND_OF[pai]
            if kind not in seen:
                counts[kind] -= 1
                seen[kind] = shanten(counts, melds)
                counts[kind] += 1
            key = (seen[kind], 0 if a.tsumogiri else 1, pai)
            if best is None or key < best:
                best, choice = key, a
        return choice

    def _respond(self, hand: Sequence[int], melds: int, legal: Sequence[Action]) -> Action:
        passing = _first(legal, "none") or legal[0]
        calls = [a for a in legal if a.type in ("pon", "chi")]
        if not calls or self.rng.random() >= CALL_RATE:
            return passing
        before = shanten(hand, melds)
        for a in calls:
            counts = list(hand)
            for c in a.consumed:
                counts[T.KIND_OF[c]] -= 1
            # after the call the hand discards one tile: its best shanten over those discards
            after = min((_minus(counts, k, melds + 1) for k in range(T.KINDS) if counts[k]), default=before + 1)
            if after < before:
                return a
        return passing


def _minus(counts: list[int], kind: int, melds: int) -> int:
    counts[kind] -= 1
    try:
        return shanten(counts, melds)
    finally:
        counts[kind] += 1


AGENTS: dict[str, type[RandomAgent] | type[TsumogiriAgent] | type[ShantenAgent]] = {
    "random": RandomAgent,
    "tsumogiri": TsumogiriAgent,
    "shanten": ShantenAgent,
}


def make_agents(name: str, seed: int, players: int) -> list[Agent]:
    """One agent per seat, each with its own seed derived from the game's (so seats do not mirror each other)."""
    if name not in AGENTS:
        raise InvalidRequest(f"unknown agent `{name}`; agents: {', '.join(AGENTS)}")
    return [AGENTS[name](seed * 1009 + seat) for seat in range(players)]
