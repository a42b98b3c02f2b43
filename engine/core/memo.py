"""The engine's caches are the rule language's bounded, registered memos (``ruledsl.memo``), imported from there
so the engine and the closures of ``ruledsl.fast`` share one registry and one ``clear_all``."""

from __future__ import annotations

from ruledsl.memo import REGISTRY, BoundedCache, Memo, clear_all, live_caches

__all__ = ["REGISTRY", "BoundedCache", "Memo", "clear_all", "live_caches"]
