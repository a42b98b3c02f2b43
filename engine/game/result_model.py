"""The contract's game result as a pydantic model: what ``riichi play --json`` prints and the schema publishes.

Apart from ``engine.game.result`` (the arithmetic of a final table), so that reading a final table, as
``riichi diff``'s game witness does, never imports pydantic.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.game.progression import ENDED_BY


class GameResult(BaseModel):
    """One finished game (contract.md, "Round and game"): `riichi play --json` prints one per line."""

    model_config = ConfigDict(extra="forbid")

    rulebook: str
    seed: int | None = Field(description="the seed the game was played from (null when its walls were given)")
    rounds: int = Field(ge=1, description="rounds (hands) played, renchan and abortive draws included")
    final_points: list[int] = Field(description="points per seat at the end, leftover sticks included")
    placement: list[int] = Field(description="seats from first to last place")
    uma_oka: list[float] = Field(description="uma plus oka per seat, in thousands")
    scores: list[float] = Field(description="final score per seat in thousands, after return, uma and oka")
    ended_by: Literal["last_round", "bust", "agari_yame", "tenpai_yame", "extension"]


assert set(GameResult.model_fields["ended_by"].annotation.__args__) == set(ENDED_BY)  # type: ignore[union-attr]
