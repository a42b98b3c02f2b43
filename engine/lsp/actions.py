"""Code actions: a did-you-mean of the checker, offered as the edit that makes it (replace the unknown word by
the suggestion)."""

from __future__ import annotations

from typing import Any

QUICKFIX = "quickfix"


def code_actions(uri: str, diagnostics: list[Any]) -> list[dict[str, Any]]:
    """One quick fix per diagnostic (among those the client sends back) that carries a suggestion."""
    out = []
    for diagnostic in diagnostics:
        if not isinstance(diagnostic, dict):
            continue
        data = diagnostic.get("data")
        replacement = data.get("replacement") if isinstance(data, dict) else None
        rng = diagnostic.get("range")
        if not isinstance(replacement, str) or not isinstance(rng, dict):
            continue
        out.append({
            "title": f"Replace with `{replacement}`",
            "kind": QUICKFIX,
            "diagnostics": [diagnostic],
            "isPreferred": True,
            "edit": {"changes": {uri: [{"range": rng, "newText": replacement}]}},
        })
    return out
