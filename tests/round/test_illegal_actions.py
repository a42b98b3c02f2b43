"""Illegal actions are refused with a message naming the rule and its clause, and change nothing."""

from __future__ import annotations

import copy

import pytest

from engine.core.errors import EngineError, InvalidRequest
from engine.round import Action, IllegalAction, InvalidRoundRules, Round, RoundSetup, Wall, legal
from tests.round.scenario import find, make_round, play, rules
from tests.round.test_every_name_executes import RIICHI_HANDS, RON_HANDS, plain


def snapshot(r: Round) -> tuple:
    return (len(r.events), list(r.scores), copy.deepcopy([s.hand for s in r.seats]), r.waiting(), r.phase, r.wall.remaining)


def refused(r: Round, action: Action) -> str:
    before = snapshot(r)
    with pytest.raises(IllegalAction) as info:
        r.apply(action)
    assert snapshot(r) == before
    assert info.value.code == "illegal_action" and isinstance(info.value, EngineError)
    return info.value.message


def test_a_seat_out_of_turn_is_told_who_is_waited_for() -> None:
    r = make_round(rules("house", plain()), RIICHI_HANDS)
    assert "seat 2 has nothing to decide now" in refused(r, Action("dahai", 2, 0))


def test_a_tile_not_held_is_not_discarded() -> None:
    r = make_round(rules("house", plain()), RIICHI_HANDS, {0: "7z"})
    assert "not among the legal actions" in refused(r, Action("dahai", 0, 33 - 1))


def test_kuikae_names_the_setting_and_its_clause() -> None:
    hands = {0: "4m19m19p19s1234z56z", 1: "4567m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    r = play(make_round(rules("house", plain()), hands), "0 dahai 4m", "1 chi 4m 56m", finish=False)
    message = refused(r, Action("dahai", 1, 6))  # 7m, the suji swap
    assert "settings calls kuikae" in message and r.rules.clause("calls") in message


def test_chi_where_the_rulebook_has_none() -> None:
    hands = {0: "4m19m19p19s1234z56z", 1: "4567m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    r = play(make_round(rules("house", plain("override settings calls { chi = false }")), hands), "0 dahai 4m", finish=False)
    assert "settings calls chi = false" in refused(r, Action("chi", 1, 3, consumed=(4, 5), target=0))


def test_riichi_without_the_points_names_min_points() -> None:
    r = make_round(rules("house", plain()), RIICHI_HANDS, {0: "7z"}, scores=(500, 25000, 25000, 25000))
    message = refused(r, Action("reach", 0))
    assert "min_points = 1000" in message and r.rules.clause("riichi") in message


def test_ron_in_furiten_is_refused() -> None:
    """Seat 1 passes the dealer's 4m, then may not ron seat 3's 4m before drawing again (temporary furiten)."""
    hands = {**RON_HANDS, 2: "2468m3579p1357s1z", 3: "4m2468p3579s1357s"}
    r = make_round(rules("house", plain()), hands, {3: "7z"})
    play(r, "0 dahai 4m", until=lambda r: r.actor == 3 and r.phase == "own")
    play(r, "3 dahai 4m", finish=False)
    assert r.legal_actions(1) == ()
    assert "nothing to decide" in refused(r, Action("hora", 1, 3, target=3))


def test_after_the_end_nothing_is_legal() -> None:
    r = play(make_round(rules("house", plain()), RIICHI_HANDS))
    assert r.finished and r.waiting() == () and r.legal_actions(0) == ()
    assert "the round is over" in refused(r, Action("dahai", 0, 0))


def test_not_an_action() -> None:
    r = make_round(rules("house", plain()), RIICHI_HANDS)
    with pytest.raises(IllegalAction):
        r.apply("dahai 1m")  # type: ignore[arg-type]


def test_every_legal_action_is_accepted_and_a_twin_with_another_flag_is_not() -> None:
    r = make_round(rules("house", plain()), RIICHI_HANDS, {0: "7z"})
    drawn = next(a for a in r.legal_actions(0) if a.type == "dahai" and a.tsumogiri)
    assert "not among the legal actions" in refused(r, Action("dahai", 0, drawn.pai, tsumogiri=False))
    r.apply(find(r, "0 dahai 7z"))


def test_bad_setups_and_walls_are_clear_errors() -> None:
    R = rules()
    with pytest.raises(InvalidRequest, match="round_wind"):
        RoundSetup(round_wind="X")
    with pytest.raises(InvalidRequest, match="dealer"):
        Round(R, RoundSetup(dealer=7), seed=1)
    with pytest.raises(InvalidRequest, match="one entry per player"):
        Round(R, RoundSetup(scores=(1, 2)), seed=1)
    with pytest.raises(InvalidRequest, match="exactly the rulebook"):
        Round(R, RoundSetup(), Wall((0,) * 136))
    with pytest.raises(InvalidRequest, match="13 expected"):
        Wall.build(R, {0: "123m"})


def test_a_dead_wall_too_small_for_the_indicators_is_named() -> None:
    with pytest.raises(InvalidRoundRules, match="dead_wall"):
        rules("house", plain(table="dead_wall = 4"))


def test_a_misspelt_word_of_a_flow_item_is_named() -> None:
    with pytest.raises(InvalidRoundRules, match="dealer = 'stay'"):
        rules("house", plain('override abortive_draw suukaikan { dealer = "stay" }'))


def test_the_refusal_comes_from_the_deciding_module_with_its_clause() -> None:
    """``legal.refusal`` is None for every offered move and, for a refused one, names the rule and its clause:
    the message of ``IllegalAction`` is its text."""
    hands = {0: "4m19m19p19s1234z56z", 1: "4567m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    r = play(make_round(rules("house", plain()), hands), "0 dahai 4m", "1 chi 4m 56m", finish=False)
    assert all(legal.refusal(r, 1, a) is None for a in r.legal_actions(1))
    found = legal.refusal(r, 1, Action("dahai", 1, 6))
    assert found is not None and "settings calls kuikae" in found.reason and found.clause == r.rules.clause("calls")
    assert str(found) in refused(r, Action("dahai", 1, 6))
    assert legal.refusal(r, 2, Action("dahai", 2, 0)) == legal.Refusal("seat 2 has nothing to decide now (the round waits for seats [1])")



def _clause_from_resolved(rulebook: object, group: str) -> str:
    found = next((item for item in rulebook.resolved.of_kind("settings") if item.name == group), None)  # type: ignore[attr-defined]
    return (found.clause or "no clause given") if found is not None else "no clause given"


def test_a_settings_clause_is_the_resolved_rulebooks() -> None:
    """``RoundRules.clause`` reads the clauses by group (shipped with a bundled rulebook) rather than the resolved
    chain: the same clause for every settings group of every bundled rulebook, and of a rulebook compiled from
    text, as the first settings item of that name in the resolved chain gives."""
    from types import SimpleNamespace

    from engine.round.rules import RoundRules
    from engine.scoring import library
    from ruledsl import vocabulary as V

    groups = (*V.SETTINGS, "no_such_group")
    for name in library.bundled_names():
        rb = library.rulebook(name)
        for group in groups:
            assert RoundRules.clause(SimpleNamespace(rulebook=rb), group) == _clause_from_resolved(rb, group), (name, group)  # type: ignore[arg-type]
    for made in (rules("house"), rules("house", plain())):
        for group in groups:
            assert made.clause(group) == _clause_from_resolved(made.rulebook, group)
