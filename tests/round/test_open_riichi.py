"""Open riichi as data: `settings riichi open_riichi` lets the round offer `reach` with
`open`, the hand is shown in every observation, and the rulebook's own items (rulebooks/examples/open_riichi.rulebook)
score it: one han more than riichi, and a yakuman when a player not in riichi deals in (facts `open_riichi` and
`discarder_in_riichi`, which the round fills in for the scorer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.protocol.mjai import action_from_event, event_from_action
from engine.round import Action, IllegalAction, Round
from engine.round.rules import RoundRules, round_rules
from ruledsl.compile import load
from tests.round.scenario import make_round, play, rules

EXAMPLE = Path(__file__).resolve().parents[2] / "rulebooks" / "examples" / "open_riichi.rulebook"
# Seat 0 (dealer) is tenpai on 1s-4s after drawing 7z; the others are far from tenpai.
HANDS = {0: "123m456p789s2355s", 1: "2468m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
# Seat 1 waits on 1z alone (a White triplet for a yaku) and may declare riichi after drawing 2z.
PLAIN = "override settings table {\n  red_fives = []\n}"
RIICHI_SEAT_1 = {**HANDS, 1: "111m222p999p555z1z"}


def example_without_red_fives(name: str) -> RoundRules:
    """The round rules of an example rulebook with the red fives left out (the scenarios name plain fives)."""
    text = f'rulebook t "t" extends {name}\n@clause("test")\noverride settings table {{\n  red_fives = []\n}}\n'
    return round_rules(load("t", text=text, file=str(EXAMPLE.parent / "t.rulebook")))


@pytest.fixture(scope="module")
def R() -> RoundRules:
    return example_without_red_fives("open_riichi")


def reaches(r: Round, seat: int) -> list[Action]:
    return [a for a in r.legal_actions(seat) if a.type == "reach"]


def test_open_riichi_is_offered_only_where_the_rulebook_allows_it(R: RoundRules) -> None:
    assert [a.open for a in reaches(make_round(R, HANDS, {0: "7z"}), 0)] == [False, True]
    house = rules("house", PLAIN)
    assert [a.open for a in reaches(make_round(house, HANDS, {0: "7z"}), 0)] == [False]
    r = make_round(house, HANDS, {0: "7z"})
    with pytest.raises(IllegalAction, match="open_riichi"):
        r.apply(Action("reach", 0, open=True))


def test_the_open_hand_is_shown_to_everybody(R: RoundRules) -> None:
    r = make_round(R, HANDS, {0: "7z", 1: "9m"})
    r.apply(Action("reach", 0, open=True))
    play(r, "0 dahai 7z", finish=False)
    assert {"type": "reach", "actor": 0, "open": True} in r.events
    for seat in range(4):
        shown = r.observation(seat)["open_hands"]
        assert shown[0] == "123m456p2355789s" and shown[1:] == [None, None, None]
    plain = make_round(R, HANDS, {0: "7z"})
    play(plain, "0 reach", "0 dahai 7z", finish=False)
    assert plain.observation(1)["open_hands"] == [None] * 4
    assert "open_hands" not in make_round(rules("house", PLAIN), HANDS, {0: "7z"}).observation(1)


def _won(r: Round) -> dict:
    wins = r.settlement["wins"]  # type: ignore[index]
    assert len(wins) == 1
    return wins[0]


def test_a_player_not_in_riichi_who_deals_in_pays_a_yakuman(R: RoundRules) -> None:
    r = make_round(R, HANDS, {0: "7z", 1: "4s"})
    r.apply(Action("reach", 0, open=True))
    play(r, "0 dahai 7z", "1 dahai 4s", "0 hora")
    win = _won(r)
    assert [y["id"] for y in win["yaku"]] == ["open_riichi_deal_in"] and win["yakuman"] == 1
    assert r.settlement["deltas"] == [48000, -48000, 0, 0]  # type: ignore[index]  # his own riichi stick comes back


def test_a_closed_riichi_dealt_into_is_an_ordinary_win(R: RoundRules) -> None:
    r = make_round(R, HANDS, {0: "7z", 1: "4s"})
    play(r, "0 reach", "0 dahai 7z", "1 dahai 4s", "0 hora")
    assert "open_riichi_deal_in" not in {y["id"] for y in _won(r)["yaku"]}
    assert _won(r)["yakuman"] == 0


def test_a_riichi_player_who_deals_in_pays_the_hand_with_the_open_riichi_han(R: RoundRules) -> None:
    """Seat 1, in riichi, must discard the 4s he draws: no yakuman, but open riichi's extra han."""
    r = make_round(R, RIICHI_SEAT_1, {0: "7z9m", 1: "2z4s", 2: "6z6z", 3: "6z6z"})
    r.apply(Action("reach", 0, open=True))
    play(r, "0 dahai 7z", "1 reach", "1 dahai 2z", "1 dahai 4s", "0 hora")
    win = _won(r)
    ids = {y["id"] for y in win["yaku"]}
    assert "open_riichi" in ids and "open_riichi_deal_in" not in ids
    assert win["yakuman"] == 0 and win["han"] == 4  # double riichi 2, open riichi 1, pinfu 1


def test_open_riichi_adds_a_han_to_a_tsumo(R: RoundRules) -> None:
    def han(open_: bool) -> int:
        r = make_round(R, HANDS, {0: "7z1s", 1: "9m", 2: "9m", 3: "9m"})
        r.apply(Action("reach", 0, open=open_))
        play(r, "0 dahai 7z", "0 hora")
        return _won(r)["han"]

    assert han(True) == han(False) + 1


def test_mjai_carries_the_open_flag() -> None:
    action = Action("reach", 2, open=True)
    event = event_from_action(action)
    assert event == {"type": "reach", "actor": 2, "open": True}
    assert action_from_event(event) == action
    assert action_from_event({"type": "reach", "actor": 2}) == Action("reach", 2)
    assert action.to_json() == {"type": "reach", "actor": 2, "open": True} and str(action) == "reach seat 2 open"


class _OpensEveryRiichi:
    """A shanten agent that declares every riichi open (the built-in agents take the plain one)."""

    def __init__(self, seed: int) -> None:
        from engine.game.agents import ShantenAgent

        self.inner = ShantenAgent(seed)

    def act(self, rnd: Round, seat: int, legal: tuple[Action, ...]) -> Action:
        opened = next((a for a in legal if a.type == "reach" and a.open), None)
        return opened if opened is not None else self.inner.act(rnd, seat, legal)


def test_a_self_played_game_with_open_riichi_replays_through_its_mjai(tmp_path: Path) -> None:
    from engine.api import scorer
    from engine.game import Game
    from engine.protocol.mjai import write_lines
    from engine.replay.rounds import replay
    from engine.scoring.library import rulebook

    game = Game(rulebook(str(EXAMPLE)), seed=2, agents=[_OpensEveryRiichi(seed) for seed in range(4)])
    game.play()
    events = game.mjai_events()
    assert any(e["type"] == "reach" and e.get("open") for e in events)
    path = tmp_path / "open.mjson"
    with path.open("w", encoding="utf-8") as out:
        write_lines(events, out)
    report = replay([str(path)], rulebook=str(EXAMPLE), scorer_of=scorer)
    assert report.errors == [] and report.mismatches == []
    assert report.rounds == report.rounds_matched == len(game.settlements)
