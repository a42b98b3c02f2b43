"""A rulebook's tile set as the Score page's palette: the tiles a hand may hold under it, in the palette's order.

The palette follows the rulebook chosen on the page: no red five a rulebook does not play with, and no 2m-8m
under a three-player rulebook whose ``settings table tiles`` leaves them out. The set is read off the rulebook's
scorer (the one its scores use), so the palette never offers a tile a score request would refuse.
"""

from __future__ import annotations

from typing import Any

from engine.core import tiles as T
from engine.scoring.library import RulebookPolicy
from engine.web.tile_art import ALL_TILES

_ORDER = {code: index for index, code in enumerate(ALL_TILES)}


def tile_set(policy: RulebookPolicy, named: object) -> dict[str, Any]:
    """``{"ok", "rulebook", "players", "tiles", "red_fives"}`` for a rulebook a request may name; raises the
    contract's ``EngineError`` (unknown rulebook, a rulebook with errors) otherwise."""
    prepared = policy.scorer(named).prepared
    codes = sorted((T.format_tiles([code]) for code in prepared.hand_codes), key=_ORDER.__getitem__)
    return {
        "ok": True,
        "rulebook": named if isinstance(named, str) else policy.default,
        "players": prepared.players,
        "tiles": codes,
        "red_fives": [code for code in codes if code[0] == "0"],
    }


__all__ = ["tile_set"]
