"""The contract's models whose JSON Schema is published, by name: ``riichi schema NAME`` and HTTP
``GET /schema/{name}`` read this one table, so that the two never list different schemas."""

from __future__ import annotations

from pydantic import BaseModel

from engine.game.result import GameResult
from engine.scoring.request import SCHEMAS as REQUEST_SCHEMAS

# the request and response of a score, and the game result of `riichi play --json`
SCHEMAS: dict[str, type[BaseModel]] = {**REQUEST_SCHEMAS, "game-result": GameResult}

__all__ = ["SCHEMAS"]
