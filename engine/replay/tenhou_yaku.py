"""Tenhou's numbering of yaku and limits in its logs, read from ``rulebooks/tenhou_yaku.json``.

Both log readers (tenhou.net/6 and mjlog) and the comparison of a log's win with the engine's answer read it; it
sits apart from the win situations so that a parser and the code following the tiles never import each other.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ruledsl.caches import once


@once
def tenhou_table() -> dict[str, Any]:
    """Tenhou's log numbering of yaku and limits (data next to the rulebooks: ``rulebooks/tenhou_yaku.json``)."""
    return json.loads(resources.files("rulebooks").joinpath("tenhou_yaku.json").read_text(encoding="utf-8"))


@once
def tenhou_yaku_ids() -> dict[int, str]:
    """Tenhou's yaku numbers to contract yaku ids (read once: every replayed win asks; not to be changed)."""
    return {int(k): v for k, v in tenhou_table()["ids"].items()}


@once
def tenhou_limit_names() -> dict[int, str | None]:
    """Tenhou's limit codes to the names its logs use for them (read once, as ``tenhou_yaku_ids``)."""
    return {int(k): v for k, v in tenhou_table()["limits"].items()}
