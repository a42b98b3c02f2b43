"""Real Tenhou games through the game progression: for each of the four-player mjlog games in data/tenhou, the
settlements the log records (point changes, honba, sticks, dealer) are fed to `advance` under the rulebook the
log's flags route to, which must then stand at the log's next round every time (wind and dealer), and end after
the log's last round, on the log's final points, and with the final table the log records.

This checks the game rules of the `tenhou` family against the site's own records: renchan, the end after South 4,
agari-yame and tenpai-yame of a leading dealer at 30,000, the sudden-death West, and bust below 0."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from engine.game.progression import advance, start
from engine.game.result import final_points, final_scores
from engine.game.rules import GameRules
from engine.replay.compare import rulebook_for
from engine.replay.events import GameStart
from engine.scoring.library import rulebook
from tests.spec_files import TENHOU

MJLOG = TENHOU / "mjlog"  # vendored: tests/data/tenhou
TAG = re.compile(r"<(INIT|AGARI|RYUUKYOKU|GO)\b([^>]*)>")
ATTR = re.compile(r'(\w+)="([^"]*)"')


@dataclass
class LoggedRound:
    wind: int  # 0 E, 1 S, 2 W
    dealer: int
    honba: int
    sticks: int
    scores: tuple[int, ...]
    kind: str = ""
    winners: tuple[int, ...] = ()
    tenpai: tuple[bool, ...] = ()
    owari: tuple[str, ...] = ()


def _games():
    out = []
    for path in sorted(MJLOG.iterdir()):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "owari=" not in text:
            continue
        go, lobby, rounds = 0, "0", []
        for tag, body in TAG.findall(text):
            a = dict(ATTR.findall(body))
            if tag == "GO":
                go, lobby = int(a["type"]), a.get("lobby", "0")
            elif tag == "INIT":
                seed = [int(v) for v in a["seed"].split(",")]
                rounds.append(LoggedRound(seed[0] // 4, int(a["oya"]), seed[1], seed[2], tuple(int(v) * 100 for v in a["ten"].split(","))))
            elif rounds:
                r = rounds[-1]
                r.kind = "win" if tag == "AGARI" else ("exhaustive" if "type" not in a or a["type"] == "nm" else "abortive")
                if tag == "AGARI":
                    r.winners += (int(a["who"]),)
                else:
                    r.tenpai = tuple(f"hai{s}" in a for s in range(4))
                if "owari" in a:
                    r.owari = tuple(a["owari"].split(","))
        if go & 0x10 == 0 and lobby == "0" and rounds and rounds[-1].owari:
            out.append((path.name, go, rounds))
    return out


# Only games of Tenhou's public lobby (0): a private lobby sets its own rules (the one in the data, lobby 10011,
# starts at 30,000 and pays another uma), which no bundled rulebook claims to be.
GAMES = _games()


def _settlement(r: LoggedRound, scores_after: tuple[int, ...], nxt: LoggedRound | None) -> dict:
    sticks_next = nxt.sticks if nxt else 0
    return {
        "kind": r.kind,
        "wins": [{"seat": s} for s in r.winners],
        "deltas": [a - b for a, b in zip(scores_after, r.scores, strict=True)],
        "honba_next": nxt.honba if nxt else 0,
        "sticks_next": sticks_next,
        "dealer_next": nxt.dealer if nxt else (r.dealer + 1) % 4,
        "renchan": nxt.dealer == r.dealer if nxt else r.kind == "win" and r.dealer in r.winners or (r.kind == "exhaustive" and r.tenpai[r.dealer]),
        "tenpai": list(r.tenpai),
    }


def test_every_logged_game_follows_and_ends_as_the_routed_rulebook_says():
    mismatches, endings = [], Counter()
    for name, go, rounds in GAMES:
        flags = GameStart(red_fives=not go & 0x02, kuitan=not go & 0x04, hanchan=bool(go & 0x08), players=4, raw_type=go)
        rules = GameRules.of(rulebook(rulebook_for(flags)))
        state = start(rules)
        owari = rounds[-1].owari
        final = tuple(int(v) * 100 for v in owari[0::2])
        for i, r in enumerate(rounds):
            if (state.wind_index, state.dealer, state.honba, state.sticks) != (r.wind, r.dealer, r.honba, r.sticks):
                mismatches.append((name, i, "stands at", (state.wind_index, state.dealer, state.honba, state.sticks), "log", (r.wind, r.dealer, r.honba, r.sticks)))
                break
            nxt = rounds[i + 1] if i + 1 < len(rounds) else None
            state = advance(rules, state, _settlement(r, nxt.scores if nxt else final, nxt))
            if state.finished != (nxt is None):
                mismatches.append((name, i, "ended" if state.finished else "goes on", state.ended_by))
                break
        else:
            endings[state.ended_by] += 1
            if final_points(rules, state) != final:
                mismatches.append((name, "final points", final_points(rules, state), final))
            recorded = tuple(Fraction(v) for v in owari[1::2])
            if name.startswith(("2022", "2023")) and final_scores(rules, final) != recorded:
                mismatches.append((name, "final table", final_scores(rules, final), recorded))
    assert mismatches == []
    assert len(GAMES) >= 160
    # every way a Tenhou game ends occurs in the data
    assert set(endings) == {"last_round", "bust", "agari_yame", "tenpai_yame", "extension"}, endings
