"""The front doors' lazily imported names (``engine.core.lazy``): imported on first read, kept, and any other
name the usual ``AttributeError``."""

from __future__ import annotations

import pytest

import engine.api
import engine.game


def test_a_lazy_name_is_the_defining_module_s_and_is_kept() -> None:
    from engine.game.selfplay import play_game

    assert engine.api.play_game is play_game is engine.game.play_game
    assert vars(engine.api)["play_game"] is play_game  # later reads skip ``__getattr__``


@pytest.mark.parametrize(("module", "name"), [(engine.api, "engine.api"), (engine.game, "engine.game")])
def test_an_unknown_name_is_an_attribute_error(module: object, name: str) -> None:
    with pytest.raises(AttributeError, match=f"module '{name}' has no attribute 'no_such_name'"):
        _ = module.no_such_name  # type: ignore[attr-defined]
