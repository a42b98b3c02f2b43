"""The HTTP API's validation errors in words: ``engine.scoring.validation_words`` (the one formatter, which score
requests use too) with the API's own field patterns said in words (an upload's file name)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.scoring.validation_words import describe as _describe
from engine.web.models import PATTERN_WORDS


def describe(errors: Iterable[Mapping[str, Any]]) -> str:
    """One sentence naming each field and what is wrong with it."""
    return _describe(errors, PATTERN_WORDS)


__all__ = ["describe"]
