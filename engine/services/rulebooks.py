"""The bundled rulebooks as rows (name, title, the rulebook it extends): ``riichi rulebooks`` prints them and the
web server's ``GET /rulebooks`` returns them, from this one reading of the files' headers."""

from __future__ import annotations

from importlib import resources

from ruledsl.diagnostics import RulebookError
from ruledsl.parser import parse
from ruledsl.resolve import RULEBOOK_SUFFIX, bundled_names


def listing() -> list[dict[str, str | None]]:
    """Name, title and parent of each bundled rulebook, read from its header (a broken file shows its trouble)."""
    rows: list[dict[str, str | None]] = []
    for name in bundled_names():
        file = f"rulebooks/{name}{RULEBOOK_SUFFIX}"
        text = resources.files("rulebooks").joinpath(f"{name}{RULEBOOK_SUFFIX}").read_text(encoding="utf-8")
        try:
            book = parse(text, file)
        except RulebookError:
            rows.append({"name": name, "title": "(cannot be read; see `riichi check`)", "extends": None})
            continue
        rows.append({"name": name, "title": book.title or "", "extends": book.extends})
    return rows


__all__ = ["listing"]
