"""Every setting of `settings scoring` is live: for each, a hand whose score moves when only that value moves.

With `tests/round/test_every_name_executes.py` (the round's settings, item fields and round facts) and
`tests/game/test_every_game_name_executes.py` (the game's), this table closes the list: the last test fails when a
setting of the vocabulary appears in none of the three.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.api import load_rulebook_text, scorer
from engine.core.errors import EngineError
from ruledsl import vocabulary as V
from ruledsl.compile import RulebookError

NO_YAKU_WITH_DORA = {
    "hand": "234m567p99s",
    "win": "9s",
    "melds": [{"type": "pon", "tiles": "222p"}, {"type": "chi", "tiles": "345s"}],
    "dora_indicators": "1m",
    "seat_wind": "S",
}

# setting -> (the value that moves it, the request scored under house and under house with that value)
SCENARIOS: dict[str, tuple[str, dict[str, Any]]] = {
    "dora_cycles": (
        "[987654321m, 123456789p, 123456789s, 1234z, 567z]",
        {"hand": "111m234p567p789s55s", "win": "5s", "riichi": True, "dora_indicators": "9m"},
    ),
    "fu_rounding": ("2", {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True, "dora_indicators": "4s", "seat_wind": "S"}),
    "yakuman_stacking": ('"highest"', {"hand": "555z666z777z111z22z", "win": "2z", "seat_wind": "S"}),
    "yakuman_excludes_yaku": ("false", {"hand": "555z666z777z111m22m", "win": "2m", "seat_wind": "S", "riichi": True}),
    "bonus_needs_yaku": ("false", NO_YAKU_WITH_DORA),
    "shibari_han": ("3", {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True, "dora_indicators": "4s", "seat_wind": "S"}),
    "shibari_honba": ("5", {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True, "seat_wind": "S", "honba": 1}),
    # an open shanpon on White and 2m: White gives a yaku, 2m would not
    "atozuke": ("false", {"hand": "678m22m555z", "win": "5z", "melds": [{"type": "chi", "tiles": "234p"}, {"type": "chi", "tiles": "567s"}], "seat_wind": "S"}),
}
# settings whose scenario needs another value set in both rulebooks (the base), so that only the named one differs
BASES = {"shibari_honba": "shibari_han = 3\n  shibari_honba = 0"}
# read by the checker, not the scorer: a yaku written above the ceiling is refused
CHECKED_SETTINGS = {"han_ceiling"}


def _variant(*lines: str):
    body = "\n  ".join(lines)
    return load_rulebook_text(f'rulebook v "v" extends house\n@clause("test")\noverride settings scoring {{\n  {body}\n}}\n')


def _outcome(rules, request: dict[str, Any]) -> Any:
    try:
        r = rules.score(request)
    except EngineError as e:
        return e.code
    return (r["han"], r["fu"], r["yakuman"], r["total"], sorted(y["id"] for y in r["yaku"]))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_score_moves_when_only_that_setting_moves(name: str) -> None:
    value, request = SCENARIOS[name]
    base = BASES.get(name)
    before = _outcome(scorer("house") if base is None else _variant(base), request)
    after = _outcome(_variant(*(line for line in (base or "").split("\n") if not line.strip().startswith(name + " ")), f"{name} = {value}"), request)
    assert before != after


def test_han_ceiling_moves_what_the_checker_accepts() -> None:
    big = 'rulebook v "v" extends house\n@clause("t")\nyaku big "Big" {\n  han = 20\n  when = tsumo\n}\n'
    with pytest.raises(RulebookError):
        load_rulebook_text(big)
    load_rulebook_text(big + '@clause("t")\noverride settings scoring {\n  han_ceiling = 30\n}\n')


def test_every_setting_of_the_vocabulary_is_shown_live_somewhere() -> None:
    from tests.game.test_every_game_name_executes import ROUND_SCENARIOS, TABLE_NAMES_THE_GAME_READS
    from tests.game.test_every_game_name_executes import SCENARIOS as GAME
    from tests.round.test_every_name_executes import FACT_ROWS, RULEBOOK_ROWS

    round_names = {row.name.split(" (")[0] for row in RULEBOOK_ROWS} | {f.fact for f in FACT_ROWS}
    live = {f"scoring {k}" for k in SCENARIOS.keys() | CHECKED_SETTINGS}
    live |= {f"game {k}" for k in set(GAME) - TABLE_NAMES_THE_GAME_READS} | {f"table {k}" for k in TABLE_NAMES_THE_GAME_READS}
    live |= {name for name in round_names if " " in name} | {f"game {k}" for k in ROUND_SCENARIOS}
    every = {f"{group} {key}" for group, keys in V.SETTINGS.items() for key in keys}
    assert sorted(every - live) == []
