"""Replay a stored riichienv game through our round engine and compare, decision by decision, the legal actions
each engine offered, then every round's outcome (through ``engine.replay.rounds``).

A decision of the corpus is (index, seat, set of action tokens): riichienv asked ``seat`` to choose after the first
``index`` mjai events. Our round is observed just before it is given the first replay event that comes from mjai
event ``index`` or later: the same moment of play.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.core.tiles import KIND_OF
from engine.protocol import mjai
from engine.replay.events import GameEnd, RoundStart
from engine.replay.mjai_log import parse_mjai_events
from engine.replay.rounds import GameFollower, ReplayReport, compare_settlement, split_rounds
from engine.replay.through_round import replay_round
from engine.round.karaten import is_tenpai
from engine.round.round import Round
from engine.round.rules import RoundRules
from tests.oracle.corpus import action_token, expand_legal


def our_token(action: Any) -> str:
    return _normal(action_token(mjai.event_from_action(action)))


def _normal(token: str) -> str:
    """Closed kans compared by their four tiles only (riichienv also names one of them as ``pai``)."""
    if token.startswith("a") and "/" in token:
        return "a/" + token.split("/", 1)[1]
    return token


def karaten_copies(rnd: Round) -> dict[int, list[tuple[int, int]]]:
    """Seats with waits but noten when copies in the seat's own melds count (every wait a fifth copy): per wait, its copies in the concealed hand and
    in the seat's own melds, the two places Tenhou's karaten rule tells apart."""
    out = {}
    for i, s in enumerate(rnd.seats):
        if s.waits and not is_tenpai("concealed_or_melds", s.counts, s.melds, s.waits):
            melded = Counter(KIND_OF[t] for m in s.melds for t in m.tiles)
            out[i] = [(s.counts[k], melded[k]) for k in sorted(s.waits)]
    return out


@dataclass
class GameCheck:
    """What one game gave: decisions compared, decisions that differ (with both sets), and round mismatches."""

    decisions: int = 0
    differing: list[dict[str, Any]] = field(default_factory=list)
    report: ReplayReport = field(default_factory=ReplayReport)
    outcomes: Counter[str] = field(default_factory=Counter)
    rounds: list[dict[str, Any]] = field(default_factory=list)  # per round: label, settlement, mismatches, differing
    end: list[dict[str, Any]] = field(default_factory=list)  # mismatches of the game's end


def check_game(game: dict[str, Any], rules: RoundRules) -> GameCheck:
    out = GameCheck()
    events: list[dict[str, Any]] = game["events"]
    decisions = expand_legal(events, game["legal"])
    replay_events, origins = parse_mjai_events(events, source=f"seed {game['seed']}")
    _, rounds, _ = split_rounds(replay_events)
    by_index: dict[int, list[tuple[int, frozenset[str]]]] = {}
    for index, seat, tokens in decisions:
        by_index.setdefault(index, []).append((seat, frozenset(_normal(t) for t in tokens)))
    follower = GameFollower(rules, rounds[0][1])
    for k, (start_index, start, body) in enumerate(rounds):
        body_origins = origins[start_index + 1 : start_index + 1 + len(body)]
        next_origin = origins[start_index + 1 + len(body)] if start_index + 1 + len(body) < len(origins) else len(events)
        low = origins[start_index] + 1
        # the decisions of this round, keyed by the body position they precede
        pending: dict[int, list[tuple[int, frozenset[str]]]] = {}
        for index in range(low, next_origin + 1):
            if index in by_index:
                position = next((j for j, o in enumerate(body_origins) if o >= index), len(body))
                pending.setdefault(position, []).extend(by_index[index])

        differing: list[dict[str, Any]] = []

        def observe(position: int, rnd: Round, pending: dict = pending, start: RoundStart = start, differing: list = differing) -> None:
            for seat, theirs in pending.pop(position, ()):
                ours = frozenset(our_token(a) for a in rnd.legal_actions(seat))
                out.decisions += 1
                if ours != theirs:
                    differing.append(
                        {"seed": game["seed"], "round": start.label, "position": position, "seat": seat,
                         "only_riichienv": sorted(theirs - ours), "only_ours": sorted(ours - theirs),
                         "riichi": rnd.seats[seat].riichi, "players": len(rnd.seats), "kita_seen": any(s.kita for s in rnd.seats),
                         "wall": rnd.wall.remaining}
                    )

        played = replay_round(rules, start, body, start_index + 1, first_round=k == 0, observer=observe)
        for position, left in sorted(pending.items()):  # decisions the replay never reached
            for seat, theirs in left:
                out.decisions += 1
                differing.append({"seed": game["seed"], "round": start.label, "position": position, "seat": seat,
                                  "only_riichienv": sorted(theirs), "only_ours": ["(not reached)"]})
        out.differing += differing
        nxt = rounds[k + 1][1] if k + 1 < len(rounds) else None
        mismatches = list(played.mismatches)
        if not mismatches and played.round is not None and played.round.settlement is not None:
            mismatches = compare_settlement(played, start, body, nxt, start_index + 1 + len(body))
            settlement = played.round.settlement
            out.outcomes[settlement["abortive"] or settlement["kind"]] += 1
            assert played.round.settled is not None
            mismatches += follower.after(played.round.settled, nxt, start.label, start_index + 1 + len(body))
        else:
            follower.state = None
        out.report.rounds += 1
        out.report.rounds_matched += not mismatches and not differing
        found = [{"seed": game["seed"], **m.to_json(), "text": m.text()} for m in mismatches]
        out.report.mismatches.extend(found)
        rnd = played.round
        out.rounds.append(
            {"label": start.label, "honba": start.honba, "body": body, "mismatches": found, "differing": differing,
             "settlement": rnd.settlement if rnd is not None else None,
             "wall": rnd.wall.remaining if rnd is not None else None,
             "riichi": [s.riichi for s in rnd.seats] if rnd is not None else [],
             "players": len(start.scores),
             # seats waiting only on tiles they hold all copies of: (concealed, melded) copies of each wait
             "karaten": karaten_copies(rnd) if rnd is not None else {},
             "kita": [s.kita for s in rnd.seats] if rnd is not None else [],
             "indicators": [*rnd.wall.dora_indicators(), *rnd.wall.ura_indicators()] if rnd is not None else []}
        )
    out.report.games += 1
    for m in follower.end(GameEnd(tuple(game["scores"]), ()), rounds[-1][1].label):
        out.end.append({"seed": game["seed"], **m.to_json(), "text": m.text()})
    out.report.mismatches += out.end
    return out

