"""Bots that see only their seat: `Observation`, the masked mjai streams and `RiichiEnv` (reset / step / done).

A bot must never see another seat's concealed tiles: not in its observation, not in its event history, not in the
mjai stream written for its seat. Stepping the env with the built-in agents' `decide` plays the very game that
`Game.play` plays with their `act`, under four- and three-player rulebooks.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.core.errors import InvalidRequest
from engine.game import Game, Observation, RiichiEnv, make_agents
from engine.game.agents import ShantenAgent
from engine.game.observation import Discard, TableViews
from engine.protocol.mjai import HIDDEN, masked_for, tile_to_mjai
from engine.round import Action, IllegalAction, Round, RoundSetup, Wall, round_rules
from engine.scoring.library import rulebook
from ruledsl.record import FrozenRecordError, fields

FOUR, THREE = "tenhou_east", "tenhou_sanma_east"
# the fields that are the seat's own; every other field of an observation is public
PRIVATE = {"hand", "drawn", "draws"}


def play_env(env: RiichiEnv, agents: str, seed: int, check=None) -> dict:
    """One whole game through `reset`/`step`, each seat answered by the built-in agent's `decide`."""
    bots = make_agents(agents, seed, env.players)
    obs = env.reset(seed)
    while not env.done:
        if check is not None:
            for o in obs.values():
                check(env, o)
        obs = env.step({seat: bots[seat].decide(o) for seat, o in obs.items()})  # type: ignore[union-attr]
    return env.result()


def assert_no_peeking(env: RiichiEnv, obs: Observation) -> None:
    """Nothing in `obs` is another seat's concealed tile."""
    rnd = env.game.round_now()
    seat = obs.seat
    assert {f.name for f in fields(Observation)} - PRIVATE == {
        "seat", "players", "round_wind", "dealer", "honba", "sticks", "scores", "dora_indicators", "wall_remaining",
        "discards", "melds", "riichi", "kita", "open_hands", "legal_actions", "events", "new_events",
    }  # a new field is either private (and then its own seat's, checked below) or public: classify it here
    assert Counter(obs.hand) == Counter(rnd.seats[seat].hand)
    assert obs.drawn is None or obs.drawn in obs.hand
    assert all(a.actor == seat for a in obs.legal_actions)
    for other, shown in enumerate(obs.open_hands):
        assert shown is None or rnd.seats[other].open_riichi
    for event in obs.events:
        if event["type"] == "tsumo" and event["actor"] != seat:
            assert event["pai"] == HIDDEN
        if event["type"] == "start_kyoku":
            for other, hand in enumerate(event["tehais"]):
                assert other == seat or set(hand) == {HIDDEN}
    assert obs.events[-len(obs.new_events) :] == obs.new_events if obs.new_events else True


@pytest.mark.parametrize("rb", [FOUR, THREE])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_no_observation_shows_another_seats_concealed_tiles(rb, seed):
    play_env(RiichiEnv(rb, seed), "random", seed, assert_no_peeking)


@pytest.mark.parametrize("rb", [FOUR, THREE])
@pytest.mark.parametrize("agents", ["random", "shanten", "tsumogiri"])
def test_stepping_the_env_plays_the_game_that_game_play_plays(rb, agents):
    seed = 11
    env = RiichiEnv(rb, seed)
    result = play_env(env, agents, seed)
    game = Game(rulebook(rb), seed, agents)
    assert result == game.play()
    assert env.mjai_events() == game.mjai_events()


class ObservingOnly:
    """A bot of the new protocol only (no `act`): `Game` hands it its observation."""

    def __init__(self, seed: int) -> None:
        self.inner = ShantenAgent(seed)

    def decide(self, obs: Observation) -> Action:
        return self.inner.decide(obs)


def test_game_plays_bots_that_only_observe():
    seed = 5
    bots = [ObservingOnly(seed * 1009 + seat) for seat in range(4)]
    assert Game(rulebook(FOUR), seed, bots).play() == Game(rulebook(FOUR), seed, "shanten").play()


@pytest.mark.parametrize("rb", [FOUR, THREE])
def test_a_seats_masked_stream_is_the_full_stream_with_only_hidden_tiles_replaced(rb):
    game = Game(rulebook(rb), 3, "shanten")
    game.play()
    full = game.mjai_events()
    players = game.rules.players
    for seat in range(players):
        masked = game.mjai_events(seat)
        assert len(masked) == len(full)
        replaced = 0
        for whole, seen in zip(full, masked, strict=True):
            if whole == seen:
                assert not (whole["type"] == "tsumo" and whole["actor"] != seat)
                continue
            replaced += 1
            assert {k for k in whole if whole[k] != seen[k]} <= {"pai", "tehais"} and whole.keys() == seen.keys()
            if whole["type"] == "tsumo":
                assert whole["actor"] != seat and seen["pai"] == HIDDEN
            else:
                assert whole["type"] == "start_kyoku"
                for other in range(players):
                    want = whole["tehais"][other] if other == seat else [HIDDEN] * 13
                    assert seen["tehais"][other] == want
        assert replaced == sum(1 for e in full if e["type"] == "start_kyoku" or (e["type"] == "tsumo" and e["actor"] != seat))


def test_the_history_a_seat_is_shown_is_its_masked_stream():
    env = RiichiEnv(THREE, 8)
    play_env(env, "shanten", 8)
    views = env.game.views
    assert views is not None
    for seat in range(3):
        assert views.history(seat) == env.mjai_events(seat)


def test_ponds_carry_tsumogiri_riichi_and_who_called():
    env = RiichiEnv(FOUR, 2)
    seen: list[Observation] = []
    play_env(env, "shanten", 2, lambda e, o: seen.append(o) if o.seat == 0 else None)
    last = {}
    for o in seen:
        last[o.dealer, o.honba, o.round_wind] = o
    calls = riichi = tsumogiri = 0
    for o in last.values():
        for seat, pond in enumerate(o.discards):
            tsumogiri += sum(d.tsumogiri for d in pond)
            declared = sum(d.riichi for d in pond)
            assert declared <= 1 and (declared == 0 or o.riichi[seat] or pond[-1].riichi)
            riichi += declared
            for d in pond:
                if d.called_by is not None:
                    calls += 1
                    assert any(m.source == seat and m.called == d.tile for m in o.melds[d.called_by])
        assert o.draws and set(o.draws) >= {o.drawn} - {None}
    assert calls and tsumogiri and riichi  # the game exercised all three


def test_a_discard_lists_as_the_round_keeps_it():
    env = RiichiEnv(FOUR, 4)
    obs = env.reset()
    bots = make_agents("random", 4, 4)
    for _ in range(40):
        rnd = env.game.round_now()
        for o in obs.values():
            assert [[d.tile for d in pond] for pond in o.discards] == [s.discards for s in rnd.seats]
            assert o.dora_indicators == tuple(rnd.wall.dora_indicators()) and o.wall_remaining == rnd.wall.remaining
        obs = env.step({s: bots[s].decide(o) for s, o in obs.items()})  # type: ignore[union-attr]


def test_observations_are_frozen():
    obs = next(iter(RiichiEnv(FOUR, 1).reset().values()))
    with pytest.raises(FrozenRecordError):
        obs.hand = ()  # type: ignore[misc]
    with pytest.raises(FrozenRecordError):
        Discard(1, False).tile = 2  # type: ignore[misc]


def test_reset_shows_the_first_dealer_its_fourteen_tiles():
    obs = RiichiEnv(THREE, 1).reset()
    assert list(obs) == [0]
    first = obs[0]
    assert len(first.hand) == 14 and first.drawn is not None and first.draws == (first.drawn,)
    assert first.players == 3 and first.events[0]["type"] == "start_game"
    dealt = Counter(tile_to_mjai(c) for c in first.hand) - Counter([tile_to_mjai(first.drawn)])
    assert Counter(first.events[1]["tehais"][0]) == dealt
    assert masked_for(first.events[1], 0) == first.events[1]  # masking what is masked changes nothing
    assert all(set(hand) == {HIDDEN} for hand in first.events[1]["tehais"][1:])


def test_step_refuses_a_wrong_seat_an_illegal_move_and_a_finished_game():
    env = RiichiEnv(FOUR, 1)
    obs = env.reset()
    with pytest.raises(InvalidRequest, match="one action for each seat"):
        env.step({1: obs[0].legal_actions[0]})
    with pytest.raises(InvalidRequest, match="not over"):
        env.result()
    other = Action("dahai", 0, pai=33 if 33 not in obs[0].hand else 27)
    before = len(env.game.round_now().events)
    with pytest.raises(IllegalAction):
        env.step({0: other})
    assert len(env.game.round_now().events) == before
    play_env(env, "tsumogiri", 1)
    with pytest.raises(InvalidRequest, match="game is over"):
        env.step({})
    with pytest.raises(InvalidRequest, match="seat of this game"):
        env.mjai_events(4)


def test_a_response_window_asks_every_seat_that_may_answer_at_once():
    env = RiichiEnv(FOUR, 0)
    bots = make_agents("random", 0, 4)
    obs = env.reset(0)
    most = 0
    while not env.done:
        most = max(most, len(obs))
        obs = env.step({s: bots[s].decide(o) for s, o in obs.items()})  # type: ignore[union-attr]
    assert most >= 2


def test_views_taken_up_mid_game_know_the_rounds_already_played():
    game = Game(rulebook(THREE), 6, "shanten")
    game.play_round()
    game.play_round()
    seat = game.waiting()[0]  # the third round is dealt before anybody watches
    obs = game.observe(seat)
    assert obs.new_events == obs.events
    assert list(obs.events) == game.mjai_events(seat) + [masked_for(e, seat) for e in game.watch().live]
    game.play()
    assert game.watch().history(1) == game.mjai_events(1)


@pytest.mark.parametrize("rb", [FOUR, THREE])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 12))
def test_an_observation_does_not_move_when_only_other_seats_hands_do(rb, seed, pick):
    """Two deals that differ only in a tile swapped between seats 1 and 2: the dealer sees the same thing."""
    rules = round_rules(rulebook(rb))
    tiles = list(Wall.shuffled(rules, seed).tiles)
    one, two = 13 + pick, 26 + next(i for i in range(13) if T.kind_of(tiles[26 + i]) != T.kind_of(tiles[13 + pick]))
    tiles[one], tiles[two] = tiles[two], tiles[one]
    seen = []
    for wall in (Wall.shuffled(rules, seed), Wall(tuple(tiles))):
        rnd = Round(rules, RoundSetup(dealer=0), wall=wall)
        seen.append(TableViews(rules.players, 1000).observe(rnd, 0))
    assert seen[0] == seen[1]


def test_an_observation_as_json_is_json_and_shows_only_its_seat():
    env = RiichiEnv(FOUR, 9)
    bots = make_agents("shanten", 9, 4)
    obs = env.reset()
    for _ in range(60):
        for o in obs.values():
            data = json.loads(json.dumps(o.to_json()))
            assert Counter(T.tile_codes("".join(data["hand"]))) == Counter(o.hand)
            assert [a["type"] for a in data["legal_actions"]] == [a.type for a in o.legal_actions]
            assert [[d["tile"] for d in pond] for pond in data["discards"]] == [[T.format_tiles([d.tile]) for d in pond] for pond in o.discards]
        obs = env.step({s: bots[s].decide(o) for s, o in obs.items()})  # type: ignore[union-attr]
