"""The bundled rulebooks as test parameters, with the rounded copies of the Tenhou flag variants behind ``slow``.

Each ``tenhou*_rounded`` rulebook is its unrounded twin with one setting changed (``score_rounding``), so a check
that runs once per bundled rulebook learns little from fourteen of them that the twins and two representatives
(``tenhou_rounded``, ``tenhou_sanma_rounded``) do not show. The default run keeps every other rulebook and the
representatives; ``pytest -m slow`` runs every rounded copy too.
"""

from __future__ import annotations

from typing import Any

import pytest

from ruledsl.resolve import bundled_names

REPRESENTATIVE_ROUNDED = ("tenhou_rounded", "tenhou_sanma_rounded")


def is_rounded_copy(name: str) -> bool:
    """A rounded Tenhou variant whose checks the default run leaves to ``-m slow``."""
    return name.startswith("tenhou") and name.endswith("_rounded") and name not in REPRESENTATIVE_ROUNDED


def bundled_params(names: list[str] | None = None) -> list[Any]:
    """``names`` (every bundled rulebook by default) as parameters, the rounded copies marked ``slow``."""
    chosen = bundled_names() if names is None else names
    return [pytest.param(n, marks=pytest.mark.slow) if is_rounded_copy(n) else n for n in chosen]
