"""Mortal's libriichi (``mjai.mlibriichi.state.PlayerState``, shipped in the ``mjai`` 0.2.1 wheel) as an oracle of
the legal action set: at every decision of a four-player game, the set of moves libriichi offers a seat must be the
set our round engine offers, and where libriichi says a seat's waits and furiten, they must be ours.

A game is a list of mjai events. libriichi follows it seat by seat (``PlayerState(seat).update(event)`` answers the
``ActionCandidate`` of that seat after the event); our round engine replays the same events
(``engine.replay.through_round``) and is observed just before the first replay event that comes from the next mjai
event: the same moment of play. Both sides are written in one vocabulary of moves (``d5m`` a discard of a 5m kind,
``chi_low``/``chi_mid``/``chi_high`` by the place of the called tile, ``ankan:5m``, ``kakan:5m``, ``pon``,
``daiminkan``, ``riichi``, ``tsumo``, ``ron``, ``ryukyoku``, and ``pass``: the refusal offered with them). libriichi tells chi only by the
place of the called tile, kans by kind and discards by kind (a red five is a five): so do we, here.

Tenhou's games come as mjlog / tenhou.net/6 files: our readers parse them, our round engine replays each round,
and our mjai writer (``engine.protocol.mjai.round_to_mjai``) writes the round's records as mjai: the game libriichi
reads is the one our own writer produced. Test-only: nothing under ``engine/`` imports libriichi.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.tiles import KIND_OF
from engine.protocol.mjai import round_to_mjai, tile_from_mjai
from engine.replay.compare import rulebook_for
from engine.replay.mjai_log import parse_mjai_events
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round.actions import Action
from engine.round.round import Round
from engine.round.rules import RoundRules, round_rules
from engine.scoring import library

SUITS = "mps"
HONOURS = "ESWNPFC"
# after these events a seat may have a choice (the drawer, the caller, or the others: ron, calls, chankan)
CHOICE_AFTER = frozenset({"tsumo", "dahai", "chi", "pon", "kakan", "ankan"})
OWN_TURN = frozenset({"tsumo", "chi", "pon"})


def kind_name(kind: int) -> str:
    """A 34-kind index (0..33, libriichi's order and ours) as an mjai tile name without red: 0 -> 1m, 27 -> E."""
    return f"{kind % 9 + 1}{SUITS[kind // 9]}" if kind < 27 else HONOURS[kind - 27]


def _mjai_kind(name: str) -> str:
    return name[:2] if name.endswith("r") else name


def libriichi_moves(state: Any, cans: Any, after: str) -> frozenset[str]:
    """libriichi's candidates for one seat after an event of type ``after``, in the shared vocabulary."""
    moves: set[str] = set()
    if cans.can_discard and not state.self_riichi_accepted and after in ("tsumo", "chi", "pon"):
        forbidden = state.forbidden_tiles
        moves |= {"d" + kind_name(k) for k, n in enumerate(state.tehai) if n and not forbidden[k]}
    flags = (
        ("riichi", cans.can_riichi), ("tsumo", cans.can_tsumo_agari), ("ron", cans.can_ron_agari),
        ("ryukyoku", cans.can_ryukyoku), ("chi_low", cans.can_chi_low), ("chi_mid", cans.can_chi_mid),
        ("chi_high", cans.can_chi_high), ("pon", cans.can_pon), ("daiminkan", cans.can_daiminkan),
        ("pass", cans.can_pass and after not in OWN_TURN),
    )
    moves |= {name for name, on in flags if on}
    if cans.can_ankan:
        moves |= {"ankan:" + _mjai_kind(t) for t in state.ankan_candidates()}
    if cans.can_kakan:
        moves |= {"kakan:" + _mjai_kind(t) for t in state.kakan_candidates()}
    return frozenset(moves)


def our_move(action: Action, riichi: bool) -> str | None:
    """One of our round's legal actions in the shared vocabulary (None: a discard under riichi)."""
    kind = action.type
    if kind == "none":
        return "pass"
    if kind == "dahai":
        return None if riichi else "d" + kind_name(KIND_OF[action.pai]) if action.pai is not None else None
    if kind == "hora":
        return "tsumo" if action.target in (None, action.actor) else "ron"
    if kind == "reach":
        return "riichi"
    if kind == "chi":
        called, low, high = KIND_OF[action.pai], *sorted(KIND_OF[t] for t in action.consumed)
        return "chi_low" if called < low else "chi_high" if called > high else "chi_mid"
    if kind in ("ankan", "kakan"):
        tile = action.pai if action.pai is not None else action.consumed[-1]
        return f"{kind}:{kind_name(KIND_OF[tile])}"
    return kind  # pon, daiminkan, ryukyoku, nukidora


def our_moves(rnd: Round, seat: int, own_turn: bool) -> frozenset[str]:
    """Our round's moves for ``seat``: on its own turn (after its draw or call), or answering another's discard
    or kan (when nobody may answer, the round has already gone on to the next draw: no moves)."""
    if own_turn != (rnd.phase == "own"):
        return frozenset()
    riichi = rnd.seats[seat].riichi
    return frozenset(m for a in rnd.legal_actions(seat) if (m := our_move(a, riichi)) is not None)


@dataclass
class Seen:
    """libriichi's view of one seat at one decision."""

    after: str
    actor: int
    moves: frozenset[str]
    waits: frozenset[int]
    furiten: bool
    shanten: int
    pai: int | None  # the kind of the event's tile (the discard answered), if any
    tiles_seen: tuple[int, ...]  # per kind, the copies this seat can see (hand, rivers, melds, indicators)
    called: bool  # the seat made a chi or pon since its last draw


@dataclass
class GameResult:
    decisions: int = 0
    agreeing: int = 0
    waits_compared: int = 0
    furiten_compared: int = 0
    differing: list[dict[str, Any]] = field(default_factory=list)
    stopped: list[str] = field(default_factory=list)  # rounds our replay could not finish (they are not compared)


def libriichi_views(events: list[dict[str, Any]]) -> dict[int, dict[int, Seen]]:
    """For each mjai index ``i + 1`` after an event of ``CHOICE_AFTER``: every seat's libriichi view."""
    from mjai.mlibriichi.state import PlayerState

    states = [PlayerState(seat) for seat in range(4)]
    out: dict[int, dict[int, Seen]] = {}
    called = [False] * 4
    for i, event in enumerate(events):
        line = json.dumps(event)
        if event["type"] in ("tsumo", "chi", "pon"):
            called[event["actor"]] = event["type"] != "tsumo"
        views: dict[int, Seen] = {}
        for seat, state in enumerate(states):
            cans = state.update(line)
            if event["type"] in CHOICE_AFTER:
                waits = frozenset(k for k, w in enumerate(state.waits) if w)
                pai = event.get("pai")
                views[seat] = Seen(
                    event["type"], event.get("actor", -1), libriichi_moves(state, cans, event["type"]), waits,
                    bool(state.at_furiten), int(state.shanten), KIND_OF[tile_from_mjai(pai)] if pai else None,
                    tuple(state.tiles_seen), called[seat],
                )
        if views:
            out[i + 1] = views
    return out


def compare_game(events: list[dict[str, Any]], rules: RoundRules, name: str) -> GameResult:
    """Every decision of one four-player mjai game: libriichi's moves (and waits, furiten) against ours."""
    result = GameResult()
    views = libriichi_views(events)
    replay, origins = parse_mjai_events(events, source=name)
    _, rounds, _ = split_rounds(replay)
    for k, (start_index, start, body) in enumerate(rounds):
        first = start_index + 1
        body_origins = origins[first : first + len(body)]
        nxt = origins[first + len(body)] if first + len(body) < len(origins) else len(events)
        pending: dict[int, list[tuple[int, dict[int, Seen]]]] = {}
        for index in range(origins[start_index] + 1, nxt + 1):
            if index in views:
                position = next((j for j, o in enumerate(body_origins) if o >= index), len(body))
                pending.setdefault(position, []).append((index, views.pop(index)))

        def observe(position: int, rnd: Round, pending: dict = pending, label: str = start.label) -> None:
            for index, seats in pending.pop(position, ()):
                for seat, seen in seats.items():
                    _compare(result, rnd, seat, seen, {"game": name, "round": label, "event": index - 1, "seat": seat})

        played = replay_round(rules, start, body, first, first_round=k == 0, observer=observe)
        if played.mismatches:
            result.stopped.append(f"{name} {start.label}: {played.mismatches[0].text()}")
    return result


def _compare(result: GameResult, rnd: Round, seat: int, seen: Seen, where: dict[str, Any]) -> None:
    own_turn = seen.after in OWN_TURN
    if own_turn != (seat == seen.actor):
        return  # after a draw or call only its maker chooses; after a discard or kan only the others
    ours = our_moves(rnd, seat, own_turn)
    if not ours and not seen.moves:
        return  # nobody offers this seat anything: no decision
    result.decisions += 1
    s = rnd.seats[seat]
    diff: dict[str, Any] = {}
    if ours != seen.moves:
        diff["only_libriichi"] = sorted(seen.moves - ours)
        diff["only_ours"] = sorted(ours - seen.moves)
    resting = len(s.hand) % 3 == 1
    if resting and seen.shanten == 0:  # a resting tenpai hand: libriichi's waits are its winning kinds
        result.waits_compared += 1
        if frozenset(s.waits) != seen.waits:
            diff["waits"] = {"libriichi": sorted(seen.waits), "ours": sorted(s.waits), "seen": seen.tiles_seen}
        if seen.after == "dahai" and seat != seen.actor:
            result.furiten_compared += 1
            if s.furiten != seen.furiten:
                diff["furiten"] = {"answered": seen.pai, "waits": sorted(s.waits),"libriichi": seen.furiten, "ours": s.furiten, "temporary": s.furiten_temporary,
                                   "riichi": s.furiten_riichi, "permanent": s.furiten_permanent, "called": seen.called}
    if diff:
        result.differing.append({**where, "after": seen.after, **diff, "in_riichi": s.riichi, "melds": len(s.melds),
                                 "wall": rnd.wall.remaining})
    else:
        result.agreeing += 1


def tenhou_as_mjai(path: Path) -> tuple[str, list[dict[str, Any]]] | None:
    """A four-player Tenhou log (mjlog or tenhou.net/6) as mjai events written by our own writer after our round
    engine replayed each round; with the rulebook the log names. None for a three-player log (libriichi plays
    four)."""
    events = read_events(path)
    start, rounds, _ = split_rounds(events)
    if start.players != 4:
        return None
    name = rulebook_for(start)
    rules = rules_named(name)
    out: list[dict[str, Any]] = [{"type": "start_game"}]
    for k, (index, rstart, body) in enumerate(rounds):
        played = replay_round(rules, rstart, body, index + 1, first_round=k == 0)
        if played.round is None or played.mismatches:
            raise ValueError(f"{path.name} {rstart.label} does not replay: {played.mismatches[:1]}")
        out += round_to_mjai(played.round.log, rules.riichi_deposit)
    out.append({"type": "end_game"})
    return name, out


@dataclass
class Summary:
    games: int = 0
    decisions: int = 0
    agreeing: int = 0
    waits_compared: int = 0
    furiten_compared: int = 0
    categories: Counter[str] = field(default_factory=Counter)
    unexplained: list[dict[str, Any]] = field(default_factory=list)
    stopped: list[str] = field(default_factory=list)

    def add(self, result: GameResult, classify: Any) -> None:
        self.games += 1
        self.decisions += result.decisions
        self.agreeing += result.agreeing
        self.waits_compared += result.waits_compared
        self.furiten_compared += result.furiten_compared
        self.stopped += result.stopped
        for d in result.differing:
            categories = classify(d)
            if categories is None:
                self.unexplained.append(d)
            else:
                self.categories.update(categories)

    def line(self) -> str:
        return (
            f"{self.games} games, {self.decisions} decisions ({self.agreeing} agree), waits compared at "
            f"{self.waits_compared}, furiten at {self.furiten_compared}; categories {dict(self.categories)}; "
            f"unexplained {len(self.unexplained)}; rounds not replayed {len(self.stopped)}"
        )


def tenhou_files() -> list[Path]:
    """The vendored whole Tenhou games (mjlog and tenhou.net/6), in name order."""
    root = Path(__file__).resolve().parents[1] / "data" / "tenhou"
    return sorted([*root.joinpath("mjlog").glob("*.mjlog"), *root.joinpath("json").glob("*.json")])


def run_tenhou(files: list[Path], classify: Any) -> Summary:
    summary = Summary()
    for path in files:
        converted = tenhou_as_mjai(path)
        if converted is None:
            continue
        name, events = converted
        summary.add(compare_game(events, rules_named(name), path.name), classify)
    return summary


def run_riichienv(games: Any, classify: Any) -> Summary:
    summary = Summary()
    for game in games:
        summary.add(compare_game(game["events"], rules_named("tenhou"), f"seed {game['seed']}"), classify)
    return summary


@cache
def rules_named(name: str) -> RoundRules:
    return round_rules(library.scorer(name))
