"""Tiles and the mpsz notation, as the engine uses them: ``ruledsl.tiles`` re-exported.

The notation lives in the rule language (the lowest layer: rulebooks name tiles too, and ``ruledsl`` never imports
the engine). These are the very same functions, not wrappers, because scoring's hot paths call them, and ``NotationError`` is the
very same class: an ``EngineError`` (``ruledsl.user_error``), so every interface reports bad notation like any other
user error, whether or not the engine was imported before the notation was parsed.
"""

from __future__ import annotations

from ruledsl.tiles import (
    HONOR_NAMES,
    KIND_OF,
    KINDS,
    RED_BASE,
    RED_FIVE_KINDS,
    SUITS,
    WIND_LETTERS,
    YAOCHUU_KINDS,
    NotationError,
    counts_of,
    format_kind,
    format_tiles,
    is_dragon,
    is_honor,
    is_red,
    is_simple,
    is_terminal,
    is_wind,
    is_yaochuu,
    kind_of,
    make_kind,
    number_of,
    parse_tile,
    parse_tiles,
    suit_of,
    tile_codes,
    wind_kind,
)

__all__ = ["KINDS", "RED_BASE", "SUITS", "RED_FIVE_KINDS", "HONOR_NAMES", "WIND_LETTERS", "kind_of", "KIND_OF", "is_red", "suit_of", "number_of", "make_kind", "is_honor", "is_terminal", "is_yaochuu", "is_simple", "is_wind", "is_dragon", "YAOCHUU_KINDS", "parse_tiles", "tile_codes", "parse_tile", "format_tiles", "format_kind", "counts_of", "wind_kind", "NotationError"]
