"""Loading rulebooks once per process: a batch or a server compiles each rulebook a single time."""

from __future__ import annotations

import functools

from engine.errors import EngineError, UnknownRulebook
from engine.score import Scorer
from rulebooks import DEFAULT_RULEBOOK
from ruledsl.compile import Rulebook, load
from ruledsl.diagnostics import RulebookError
from ruledsl.resolve import UnknownRulebookError, bundled_names


class InvalidRulebook(EngineError):
    code = "unknown_rulebook"


@functools.lru_cache(maxsize=32)
def rulebook(ref: str = DEFAULT_RULEBOOK) -> Rulebook:
    """The compiled rulebook for a bundled name or a path; errors carry the contract's code."""
    try:
        return load(ref)
    except UnknownRulebookError as exc:
        raise UnknownRulebook(exc.message) from None
    except RulebookError as exc:
        raise InvalidRulebook(f"rulebook `{ref}` has errors:\n{exc.message}") from None


@functools.lru_cache(maxsize=32)
def scorer(ref: str = DEFAULT_RULEBOOK) -> Scorer:
    return Scorer(rulebook(ref))


__all__ = ["rulebook", "scorer", "bundled_names", "DEFAULT_RULEBOOK"]
