"""The facts a rulebook reads about a win, computed from the tiles and the situation.

Facts that depend only on the hand (its tiles, dora, wait count) are computed once per hand; facts of one
reading (its groups, its wait) are set per reading. Either kind is computed on first use, so a rulebook that
never asks for ura dora never pays for counting them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import analysis
from engine import tiles as T
from engine.decompose import PAIR as D_PAIR
from engine.decompose import SEQ as D_SEQ
from engine.decompose import TRIP as D_TRIP
from engine.hand import Hand
from engine.request import Situation
from ruledsl.values import KAN, PAIR, SEQUENCE, TRIPLET, Group
from ruledsl.vocabulary import SEQUENCE_STARTS, TRIPLET_KINDS


class Env(dict):
    """A fact table: a dict that computes a missing fact through its hand's providers and keeps it."""

    __slots__ = ("hand_facts",)

    def __init__(self, hand_facts: HandFacts, *args: Any) -> None:
        super().__init__(*args)
        self.hand_facts = hand_facts

    def __missing__(self, key: str) -> Any:
        provider = READING_PROVIDERS.get(key)
        value = provider(self) if provider is not None else self.hand_facts[key]
        self[key] = value
        return value


def _successor_table(cycles: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    table: dict[int, int] = {}
    for cycle in cycles:
        kinds = [T.kind_of(c) for c in cycle]
        for i, kind in enumerate(kinds):
            table[kind] = kinds[(i + 1) % len(kinds)]
    return table


class HandFacts(dict):
    """Hand-level facts, computed lazily; one per scored hand, shared by all its readings."""

    def __init__(
        self,
        hand: Hand,
        situation: Situation,
        dora: tuple[int, ...],
        ura: tuple[int, ...],
        successors: dict[int, int],
        players: int,
    ) -> None:
        super().__init__()
        self.hand = hand
        self.situation = situation
        self.dora = dora
        self.ura = ura
        self.successors = successors
        s = situation
        self.update(
            tsumo=s.tsumo,
            ron=not s.tsumo,
            dealer=s.dealer,
            riichi=s.riichi or s.double_riichi,
            double_riichi=s.double_riichi,
            ippatsu=s.ippatsu,
            haitei=s.haitei,
            houtei=s.houtei,
            rinshan=s.rinshan,
            chankan=s.chankan,
            tenhou=s.tenhou,
            chiihou=s.chiihou,
            renhou=s.renhou,
            kita=s.kita,
            players=players,
            honba=s.honba,
            riichi_sticks=s.riichi_sticks,
            closed=hand.is_closed,
            win_tile=hand.win_kind,
            seat_wind=T.wind_kind(s.seat_wind),
            round_wind=T.wind_kind(s.round_wind),
        )

    def __missing__(self, key: str) -> Any:
        provider = HAND_PROVIDERS.get(key)
        if provider is None:
            raise KeyError(key)
        value = provider(self)
        self[key] = value
        return value

    @property
    def meld_groups(self) -> tuple[Group, ...]:
        groups = self.get("__meld_groups__")
        if groups is None:
            groups = tuple(_meld_group(m) for m in self.hand.melds)
            self["__meld_groups__"] = groups
        return groups


def _meld_group(meld) -> Group:
    kinds = meld.kinds
    if meld.type == "chi":
        ordered = tuple(sorted(kinds))
        return Group(SEQUENCE, ordered[0], ordered, called=True, concealed=False)
    if meld.type == "pon":
        return Group(TRIPLET, kinds[0], kinds, called=True, concealed=False)
    concealed = meld.type == "ankan"
    return Group(KAN, kinds[0], kinds, called=not concealed, concealed=concealed)


def _all_kinds(f: HandFacts) -> tuple[int, ...]:
    hand = f.hand
    return tuple(T.kind_of(c) for c in hand.concealed) + tuple(k for m in hand.melds for k in m.kinds)


def _hits(indicators: tuple[int, ...], f: HandFacts) -> int:
    if not indicators:
        return 0
    counts = [0] * T.KINDS
    for kind in f["tiles"]:
        counts[kind] += 1
    return sum(counts[f.successors.get(T.kind_of(i), -1)] if f.successors.get(T.kind_of(i), -1) >= 0 else 0 for i in indicators)


def _wait_count(f: HandFacts) -> int:
    counts = list(f.hand.counts)
    counts[f.hand.win_kind] -= 1
    return len(analysis.waits(counts, len(f.hand.melds)))


def _number_suits(f: HandFacts) -> int:
    return len({k // 9 for k in f["tiles"] if k < 27})


def _kita_dora(f: HandFacts) -> int:
    north = T.wind_kind("N")
    per = sum(1 for i in f.dora if f.successors.get(T.kind_of(i)) == north)
    return per * f.situation.kita


HAND_PROVIDERS: dict[str, Callable[[HandFacts], Any]] = {
    "tiles": _all_kinds,
    "dora_hits": lambda f: _hits(f.dora, f),
    "ura_hits": lambda f: _hits(f.ura, f),
    "red_fives": lambda f: sum(1 for c in f.hand.all_tiles() if T.is_red(c)),
    "kita_dora_hits": _kita_dora,
    "wait_count": _wait_count,
    "number_suits": _number_suits,
    "honors": lambda f: sum(1 for k in f["tiles"] if k >= 27),
}


def _peikou(env: Env) -> int:
    seen: dict[int, int] = {}
    for g in env["sets"]:
        if g.shape == SEQUENCE and not g.called:
            seen[g.kind] = seen.get(g.kind, 0) + 1
    return sum(n // 2 for n in seen.values())


READING_PROVIDERS: dict[str, Callable[[Env], Any]] = {
    SEQUENCE_STARTS: lambda env: frozenset(g.kind for g in env["sets"] if g.shape == SEQUENCE),
    TRIPLET_KINDS: lambda env: frozenset(g.kind for g in env["sets"] if g.shape == TRIPLET or g.shape == KAN),
    "peikou": _peikou,
    "groups": lambda env: env["sets"] + env["pairs"],
}


def concealed_group(shape: int, kind: int, completed_by_ron: bool) -> Group:
    if shape == D_SEQ:
        return Group(SEQUENCE, kind, (kind, kind + 1, kind + 2))
    if shape == D_TRIP:
        return Group(TRIPLET, kind, (kind, kind, kind), concealed=not completed_by_ron)
    if shape == D_PAIR:
        return Group(PAIR, kind, (kind, kind))
    return Group(PAIR, kind, (kind,))  # a lone tile of thirteen orphans
