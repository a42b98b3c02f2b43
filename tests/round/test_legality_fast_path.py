"""``Round.is_legal(seat, action)`` answers exactly ``action in Round.legal_actions(seat)``.

The fast check decides a plain discard without building the list of legal moves (``engine.round.legal.is_legal``);
a replay and ``Round.apply`` rely on it, so it must never say yes to a move the list lacks, nor no to one it holds.
It is compared with the list at every decision point of the vendored Tenhou logs and of self-played games under
rulebooks that differ in calls, kuikae, riichi, kita and the player's abortive draw, on the legal moves and on
near misses: every discard of every tile code with either tsumogiri flag, a move of a seat not asked, a pass, a
riichi declared closed or open, a tsumo on the drawn tile or another, named with or without the winner.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.game import Game
from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round import Round
from engine.round.actions import TILE_CODES, Action, shape_problem
from engine.round.legal import built_move, dahai_action, is_legal, own_discard_ok, pass_action, refusal
from engine.round.rules import round_rules
from engine.scoring import library
from engine.scoring.library import rulebook

MJLOG = Path(__file__).resolve().parent.parent / "data" / "tenhou" / "mjlog"


def _candidates(rnd: Round, seat: int) -> list[Action]:
    """The legal moves of ``seat`` and the near misses of each kind the fast path decides."""
    out = list(rnd.legal_actions(seat))
    s = rnd.seats[seat]
    codes = set(s.hand) | {code for code in (rnd.drawn, 0, 4, 33) if code is not None}
    for code in codes:
        out.append(Action("dahai", seat, code))
        out.append(Action("dahai", seat, code, tsumogiri=True))
    out.append(Action("dahai", (seat + 1) % rnd.rules.players, rnd.drawn, tsumogiri=True))
    out.append(Action("dahai", seat, None, tsumogiri=True))
    out.append(Action("dahai", seat, rnd.drawn, consumed=(rnd.drawn,) if rnd.drawn is not None else ()))
    out.append(Action("none", seat))
    out.append(Action("reach", seat))
    out.append(Action("reach", seat, open=True))
    for tile in {rnd.drawn, 0} - {None}:  # the tsumo told without the list, and its near misses
        out.append(Action("hora", seat, tile, target=seat))
        out.append(Action("hora", seat, tile))
        out.append(Action("hora", seat, tile, target=(seat + 1) % rnd.rules.players))
    return out


def check_agreement(rnd: Round) -> int:
    """Compare the fast check with the list for every seat and candidate now; the number of checks made."""
    checks = 0
    waiting = rnd.waiting()
    idle = [seat for seat in range(rnd.rules.players) if seat not in waiting][:1]  # one seat not asked is enough
    for seat in (*waiting, *idle):
        candidates = _candidates(rnd, seat)
        fast = [rnd.is_legal(seat, a) for a in candidates]
        listed = rnd.legal_actions(seat)
        for action, answer in zip(candidates, fast, strict=True):
            assert answer == (action in listed), (str(action), answer, [str(a) for a in listed], rnd.phase)
            checks += 1
    return checks + _built_moves_agree(rnd)


def _built_moves_agree(rnd: Round) -> int:
    """``Round.apply`` plays a discard or a pass built by ``engine.round.legal`` on ``is_legal``'s word alone (an own
    turn's discard on ``own_discard_ok``'s), without the shape check and the refusal it asks of any other move: they
    must agree on every such move."""
    if rnd.finished:
        return 0
    players = rnd.rules.players
    moves = [pass_action(seat) for seat in range(players)]
    if rnd.phase == "own":
        for seat in range(players):
            codes = set(rnd.seats[seat].hand) | {code for code in (rnd.drawn, 0, 4, 33, TILE_CODES - 1) if code is not None}
            moves += [dahai_action(seat, code, flag) for code in codes for flag in (False, True)]
    for action in moves:
        assert built_move(action)
        full = shape_problem(action, players) is None and refusal(rnd, action.actor, action) is None
        assert is_legal(rnd, action.actor, action) == full, (str(action), full)
        if rnd.phase == "own" and action.type == "dahai":  # ``Round.apply``'s question for a built discard
            assert own_discard_ok(rnd, action) == full, (str(action), full)
    return len(moves)


def test_only_well_typed_discards_count_as_built() -> None:
    """A discard made from a bool seat or flag, or a float tile, is never taken for a built one (it gets the shape
    check), and the built ones keep their types; the passes are built ones."""
    assert not built_move(Action("dahai", 0, 5))  # equal to a built one, but not built
    assert not built_move(dahai_action(0, 5.5))  # type: ignore[arg-type]
    assert not built_move(dahai_action(7, 5, 1))  # type: ignore[arg-type]
    built = dahai_action(1, 6, True)
    assert built_move(built) and type(built.actor) is int and type(built.pai) is int and built.tsumogiri is True
    assert built_move(pass_action(2)) and not built_move(Action("none", 2))


def _observer(i: int, rnd: Round) -> None:
    check_agreement(rnd)


PARTS = 48  # the default run checks one part: every forty-eighth game (three or four games, some thirty-six rounds)


@pytest.mark.no_cover  # an equivalence check over many cases: run outside the coverage tracer (.ci/run)
@pytest.mark.parametrize("part", [pytest.param(p, marks=pytest.mark.slow) if p else p for p in range(PARTS)])
def test_fast_check_agrees_with_the_list_on_the_vendored_logs(part: int) -> None:
    """Every decision point of every forty-eighth mjlog game; ``-m slow`` adds the other parts (the whole
    folder)."""
    files = sorted(MJLOG.iterdir())[part::PARTS]
    assert files
    rounds = 0
    for path in files:
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for index, round_start, body in parts:
            played = replay_round(rules, round_start, body, index + 1, observer=_observer)
            assert played.round is not None
            check_agreement(played.round)  # the finished round: nothing is legal
            rounds += 1
    # every game was replayed round by round: a part holds three or four games, 24 to 50 rounds in all, and no game
    # of the folder ends before its second round (a bust can end one early)
    assert rounds >= 2 * len(files)


class _CheckingAgent:
    """A random player that first compares the fast check with the list at its decision."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, rnd: Round, seat: int, legal: tuple[Action, ...]) -> Action:
        check_agreement(rnd)
        # favour the rarer moves so that riichi, calls and kans are reached often
        special = [a for a in legal if a.type not in ("dahai", "none")]
        if special and self.rng.random() < 0.7:
            return self.rng.choice(special)
        return self.rng.choice(legal)


@pytest.mark.no_cover  # an equivalence check over many cases: run outside the coverage tracer (.ci/run)
@pytest.mark.parametrize(
    "name", ["tenhou", "tenhou_sanma", *(pytest.param(n, marks=pytest.mark.slow) for n in ("house", "mleague", "wrc2025"))]
)
def test_fast_check_agrees_with_the_list_in_self_play(name: str) -> None:
    rb = rulebook(name)
    for seed in range(2):
        players = round_rules(library.scorer(name)).players
        game = Game(rb, seed, [_CheckingAgent(seed * 10 + k) for k in range(players)])  # type: ignore[list-item]
        game.play()
        assert game.actions > 0


def test_clearing_the_caches_forgets_the_built_discards() -> None:
    """Once the kept discards are emptied (``clear_all``), no identity of a freed discard stays among the built
    moves (another object could take it and skip the shape check): what is left is the passes and the discards
    kept since, and a discard built again is known as built."""
    from engine.round import legal
    from ruledsl.memo import clear_all

    dahai_action(0, 5)
    legal._hand_dahai(1)
    legal._tsumogiri(1)
    clear_all()
    assert legal.BUILT_MOVES == {id(p) for p in legal._PASS}
    assert not legal._DAHAI and not legal._HAND_DAHAI and not legal._TSUMOGIRI
    again = dahai_action(0, 5, True)
    assert built_move(again) and built_move(pass_action(0))
    assert legal.BUILT_MOVES == {id(p) for p in legal._PASS} | {id(a) for a in legal._DAHAI.values()}
