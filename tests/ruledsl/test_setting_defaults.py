"""Each settings key has one default, in the vocabulary, and every reader (scorer, round, game) takes it from there.

A key a rulebook does not write means its default; these tests write the default out as rulebook text and check
that it compiles to the very value an absent key gives, and that the engine's settings records read it.
"""

from __future__ import annotations

import pytest

from ruledsl import vocabulary as V
from ruledsl.compile import Rulebook, compile_rulebook, load
from ruledsl.resolve import resolve

KEYS = [(group, key) for group, keys in V.SETTINGS.items() for key, spec in keys.items() if spec.default is not None]


def _compiled(text: str) -> Rulebook:
    return load("defaults", text, "defaults.rulebook")


@pytest.mark.parametrize(("group", "key"), KEYS, ids=[f"{g}.{k}" for g, k in KEYS])
def test_the_default_written_out_compiles_to_the_default(group: str, key: str) -> None:
    spec = V.SETTINGS[group][key]
    text = f"rulebook defaults\nsettings {group} {{ {key} = {V.default_text(spec)} }}\n"
    # compiled without the checker: some defaults are only meaningful beside other keys (the checker says so)
    rulebook = compile_rulebook(resolve("defaults", text, "defaults.rulebook"), checked=True)
    assert rulebook.settings[group][key] == spec.default
    assert _compiled("rulebook defaults\n").setting(group, key) == spec.default


def test_the_round_and_the_game_read_the_vocabulary_defaults() -> None:
    from engine.game.rules import GameRules
    from engine.round.rules import round_rules

    rules = round_rules(_compiled("rulebook bare\nsettings table { players = 4 start_points = 0 rounds = [\"E\"] riichi_deposit = 1000 }\n"))
    for group, keys in V.SETTINGS.items():
        for key, spec in keys.items():
            if hasattr(rules, key) and key not in ("kinds", "red_fives"):
                value = getattr(rules, key)
                assert value == (tuple(spec.default) if isinstance(value, tuple) else spec.default), (group, key)
    game = GameRules.of(rules.rulebook)
    for key, spec in V.SETTINGS["game"].items():
        if hasattr(game, key):
            assert getattr(game, key) == spec.default, key
