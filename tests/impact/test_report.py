"""The impact report's text and Markdown on a summary that has every kind of line: rounds left out, unreadable
files, a win B makes illegal and a yakuman, changes no single item explains, items acting together, flow rules,
re-settled rounds and diverging games. An organiser reads these words to decide on a rule: each count must land
in its own sentence, and nothing may be shown that the summary does not hold.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.impact.report import render_markdown, render_text, result_words

WIN = {
    "file": "/logs/2022/g1.mjlog",
    "round": "E2-1",
    "seat": 3,
    "hand": "19m19p19s1234567z1m",
    "a": {"ok": True, "yakuman": 2, "han": 0, "fu": 0, "total": 64000, "limit": None},
    "b": {"ok": False, "error": "no_yaku"},
}
KIRIAGE_WIN = {
    "file": "/logs/2022/g2.mjlog",
    "round": "S1-0",
    "seat": 0,
    "hand": "234m456m678p234s55p",
    "a": {"ok": True, "yakuman": 0, "han": 4, "fu": 30, "total": 7700, "limit": None},
    "b": {"ok": True, "yakuman": 0, "han": 4, "fu": 30, "total": 8000, "limit": "mangan"},
}


def summary() -> dict[str, Any]:
    return {
        "a": "house",
        "b": "club",
        "files": 3,
        "rounds": 1200,
        "rounds_with_wins": 900,
        "wins": 950,
        "changed_rounds": 12,
        "changed_wins": 11,
        "points_to_winners": 2300,
        "illegal_wins": 1,
        "points_at_stake": 64000,
        "rounds_left_out": 1,
        "left_out": [{"file": "/logs/2022/g3.mjlog", "round": "E4-2", "reason": "house scores 3,900, the log 2,600"}],
        "unreadable_files": 1,
        "unreadable": [{"file": "/logs/broken.mjlog", "error": "not XML"}],
        "unattributed_wins": 2,
        "points_interaction": -300,
        "items": [
            {
                "item": "exception kokushi_13",
                "rounds": 1,
                "wins": 1,
                "points_to_winners": -64000,
                "illegal_wins": 1,
                "rounds_course_changed": 1,
                "rounds_diverged": 1,
                "affects_score": True,
                "examples": [WIN],
                "round_examples": [{"file": "/logs/2022/g1.mjlog", "round": "E2-1", "text": "A: ron | B: draw"}],
            },
            {
                "item": "limit kiriage",
                "rounds": 10,
                "wins": 10,
                "points_to_winners": 3000,
                "illegal_wins": 0,
                "affects_score": True,
                "examples": [KIRIAGE_WIN],
            },
            {"item": "yaku renhou", "rounds": 0, "wins": 0, "points_to_winners": 0, "illegal_wins": 0, "affects_score": True, "examples": []},
            {"item": "abortive_draw suufon_renda", "rounds": 0, "wins": 0, "points_to_winners": 0, "illegal_wins": 0, "affects_score": False, "examples": []},
        ],
        "rounds_resettled": {
            "files": 3,
            "compared": 1199,
            "left_out": 1,
            "changed": 2,
            "course_changed": 1,
            "diverged": 1,
            "examples": [{"file": "/logs/2022/g1.mjlog", "round": "E2-1", "text": "A: ron | B: draw"}],
        },
        "games": {
            "total": 3,
            "compared": 1,
            "placement_changed": 1,
            "diverged": 1,
            "left_out": 1,
            "examples": [{"file": "/logs/2022/g2.mjlog", "placements_a": [1, 2, 3, 4], "placements_b": [2, 1, 3, 4]}],
            "diverged_examples": [{"file": "/logs/2022/g1.mjlog", "where": "E2-1"}],
            "left_out_examples": [{"file": "/logs/2022/g3.mjlog", "where": "E4-2"}],
        },
        "scope": "wins re-scored and rounds re-settled",
    }


def test_result_words_for_a_yakuman_a_limit_and_a_hand_that_is_no_win() -> None:
    assert result_words(WIN["a"]) == "64,000 (yakuman x2)"
    assert result_words(KIRIAGE_WIN["b"]) == "8,000 (4 han 30 fu, mangan)"
    assert result_words(WIN["b"]) == "not a win (no_yaku)"


def test_text_puts_every_count_in_its_sentence() -> None:
    lines = render_text(summary()).splitlines()
    assert lines[0] == "riichi impact house -> club: 3 files, 1,200 rounds (900 with a win, 950 wins re-scored)"
    assert lines[1] == "changed: 12 rounds, 11 wins, +2,300 points to winners; 1 wins B makes illegal (64,000 points at stake)"
    assert "left out: 1 rounds that house does not reproduce" in lines
    assert "  g3.mjlog E4-2: house scores 3,900, the log 2,600" in lines
    assert "unreadable: 1 files" in lines and "  broken.mjlog: not XML" in lines
    assert (
        "  exception kokushi_13: 1 rounds, 1 wins, -64,000 points to winners, 1 wins no longer legal, "
        "the course of 1 rounds changed, 1 rounds diverge from the log"
    ) in lines
    assert "  limit kiriage: 10 rounds, 10 wins, +3,000 points to winners" in lines
    assert "  2 changed wins no single item explains (items acting together)" in lines
    assert any(line.startswith("  items acting together: -300 points beyond the sum") for line in lines)
    assert "no win charged to: yaku renhou" in lines
    assert "flow rules with no effect on these rounds: abortive_draw suufon_renda" in lines
    assert any(line.startswith("rounds re-settled through the round engine: 1,199 compared (1 left out), 2 settle otherwise") for line in lines)
    assert "games: 3, 1 compared to the end, placements change in 1; 1 diverge (comparison stops there); 1 left out (A does not play them as the log did)" in lines
    assert "  g2.mjlog: places [1, 2, 3, 4] -> [2, 1, 3, 4]" in lines
    assert "  g1.mjlog: stops at E2-1" in lines and "  g3.mjlog: left out, E4-2" in lines
    assert "examples of exception kokushi_13:" in lines
    assert "  g1.mjlog E2-1 seat 3: 19m19p19s1234567z1m; A 64,000 (yakuman x2) -> B not a win (no_yaku)" in lines
    assert lines[-1] == "scope: wins re-scored and rounds re-settled"
    assert "/logs/" not in "\n".join(lines)  # file names, never the folders they came from


def test_text_of_a_change_that_moves_nothing_says_so() -> None:
    quiet = summary()
    for key in ("rounds_left_out", "unreadable_files", "unattributed_wins", "points_interaction"):
        quiet[key] = 0
    quiet["items"] = [item for item in quiet["items"] if not item["wins"]]
    quiet["rounds_resettled"] = {}
    text = render_text(quiet)
    assert "  (no item changes any win)" in text
    assert "flow rules, not re-settled: abortive_draw suufon_renda" in text
    for words in ("left out: ", "unreadable: ", "acting together", "rounds re-settled through", "examples of"):
        assert words not in text


def test_markdown_has_a_row_per_charged_item_and_escapes_table_cells() -> None:
    data = summary()
    md = render_markdown(data)
    lines = md.splitlines()
    assert lines[0] == "# Rule change impact: `house` → `club`"
    assert "| `exception kokushi_13` | 1 | 1 | -64,000 | 1 | 1 | 1 |" in lines
    assert "| `limit kiriage` | 10 | 10 | +3,000 | 0 | 0 | 0 |" in lines
    assert "| (no single item) | | 2 | | | | |" in lines
    assert "| (items acting together) | | | -300 | | | |" in lines
    assert "No win is charged to: `yaku renhou`." in lines
    assert "Flow rules with no effect on these rounds: `abortive_draw suufon_renda`." in lines
    assert any(line.startswith("**Rounds re-settled** through the round engine: 1,199 compared, 2 settle otherwise") for line in lines)
    assert "| `exception kokushi_13` | g1.mjlog | E2-1 | 3 | `19m19p19s1234567z1m` | 64,000 (yakuman x2) | not a win (no\\_yaku) |" in lines  # `_` escaped (engine.core.markup)
    assert "## Rounds whose course changes" in lines
    assert "| `exception kokushi_13` | g1.mjlog | E2-1 | A: ron \\| B: draw |" in lines  # a `|` would split the cell
    assert lines[-1] == "_Scope: wins re-scored and rounds re-settled._"


def test_markdown_without_resettled_rounds_or_course_changes() -> None:
    data = copy.deepcopy(summary())
    data["rounds_resettled"] = {}
    data["unattributed_wins"] = data["points_interaction"] = 0
    for item in data["items"]:
        item.pop("round_examples", None)
    md = render_markdown(data)
    assert "Flow rules, not re-settled: `abortive_draw suufon_renda`." in md
    for words in ("Rounds re-settled", "## Rounds whose course changes", "(no single item)", "(items acting together)"):
        assert words not in md
