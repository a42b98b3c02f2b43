"""`riichi diff` shows a game-flow setting on a scenario that this change alone settles differently (a round's end
or a final table, from `engine.game.witness`), as a scoring change is shown on a hand."""

from __future__ import annotations

from engine.diff.change_witnesses import diff_with_witnesses
from engine.scoring.library import scorer


def test_game_settings_get_a_scenario_and_hand_rules_do_not() -> None:
    report = diff_with_witnesses(scorer("tenhou"), scorer("mleague"), random_hands=50).to_json()
    by_item = {change["item"]: change for change in report["changes"]}
    for item in ("setting agari_yame", "setting uma", "setting tie_break", "setting bust_ends_game"):
        scenario = by_item[item]["scenario"]
        assert scenario is not None and scenario["a"] != scenario["b"], item
    assert by_item["setting uma"]["scenario"]["kind"] == "final_table"
    assert by_item["setting agari_yame"]["scenario"]["kind"] == "round_end"
    assert all(change["scenario"] is None for change in report["changes"] if change["affects_score"])


def test_a_setting_that_refuses_wins_is_shown_on_a_hand_one_side_refuses(tmp_path) -> None:
    """Atozuke off and a two-han minimum decide whether a hand wins at all: the witness is a hand that A scores and
    B refuses (`no_yaku`), not "no legal hand may meet it"."""
    for name, body in (("atz", "scoring {\n  atozuke = false\n}"), ("shibari", "scoring {\n  shibari_han = 2\n}")):
        path = tmp_path / f"{name}.rulebook"
        path.write_text(f'rulebook {name} extends house\n@clause("club rule 1")\noverride settings {body}\n')
        report = diff_with_witnesses(scorer("house"), scorer(str(path)), random_hands=2000).to_json()
        [change] = report["changes"]
        witness = change["witness"]
        assert witness is not None, name
        assert witness["a"]["ok"] and not witness["b"]["ok"], witness
        assert witness["b"]["error"]["code"] == "no_yaku"
