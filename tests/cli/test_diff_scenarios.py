"""`riichi diff` shows a game-flow setting on a scenario that this change alone settles differently (a round's end
or a final table, from `engine.game.witness`), as a scoring change is shown on a hand."""

from __future__ import annotations

from engine.library import scorer
from engine.rulebook_diff import diff_with_witnesses


def test_game_settings_get_a_scenario_and_hand_rules_do_not() -> None:
    report = diff_with_witnesses(scorer("tenhou"), scorer("mleague"), random_hands=50).to_json()
    by_item = {change["item"]: change for change in report["changes"]}
    for item in ("setting agari_yame", "setting uma", "setting tie_break", "setting bust_ends_game"):
        scenario = by_item[item]["scenario"]
        assert scenario is not None and scenario["a"] != scenario["b"], item
    assert by_item["setting uma"]["scenario"]["kind"] == "final_table"
    assert by_item["setting agari_yame"]["scenario"]["kind"] == "round_end"
    assert all(change["scenario"] is None for change in report["changes"] if not change["item"].startswith("setting "))
