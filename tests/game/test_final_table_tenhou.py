"""The final table of real Tenhou games: the `owari` record of every Phoenix-room game in data/tenhou/mjlog
(final points and placement score per seat) recomputed from the final points under the rulebook the log routes to
(rulebooks/log_rules.json): logs of 2022 and later print exact tenths (`tenhou`, `score_rounding = "exact"`); the
older ones round each player's points to a whole thousand (`tenhou_rounded`, `"four_down_five_up"`). No log is
excused."""

from __future__ import annotations

import re
from fractions import Fraction

from engine.game.result import final_scores
from engine.game.rules import GameRules
from engine.replay.compare import rulebook_for
from engine.replay.events import GameStart
from engine.scoring.library import rulebook
from tests.spec_files import TENHOU

MJLOG = TENHOU / "mjlog"  # vendored: tests/data/tenhou
PHOENIX = 0xA9  # GO type: four players, red fives, open tanyao, hanchan, Phoenix room
PHOENIX_FLAGS = GameStart(red_fives=True, kuitan=True, hanchan=True, players=4, raw_type=PHOENIX)


def _owari():
    found = []
    for path in sorted(MJLOG.iterdir()):
        text = path.read_text(encoding="utf-8", errors="replace")
        go = re.search(r'<GO type="(\d+)"', text)
        owari = re.search(r'owari="([^"]*)"', text)
        if go and owari and int(go.group(1)) == PHOENIX:
            values = owari.group(1).split(",")
            points = tuple(int(v) * 100 for v in values[0:8:2])
            scores = tuple(Fraction(v) for v in values[1:8:2])
            found.append((path.name, points, scores))
    return found


GAMES = _owari()


def test_every_phoenix_final_table_matches_its_record():
    misses, counts = [], {"tenhou": 0, "tenhou_rounded": 0}
    for name, points, recorded in GAMES:
        routed = rulebook_for(PHOENIX_FLAGS, log_id=name)
        got = final_scores(GameRules.of(rulebook(routed)), points)
        if got != recorded:
            misses.append((name, points, recorded, got))
        counts[routed] += 1
    assert misses == []
    assert counts["tenhou"] >= 100 and counts["tenhou_rounded"] >= 50


def test_a_negative_half_thousand_rounds_away_from_zero():
    """2016090900gm-00a9-0000-a2a25bb6: fourth place with -4,500 points is recorded -55 (-5,000: -35, uma -20)."""
    rules = GameRules.of(rulebook("tenhou_rounded"))
    assert final_scores(rules, (66200, 5200, 33100, -4500)) == (77, -35, 13, -55)
