"""``riichi rulebooks``: the bundled rulebooks, one a line: name, title, and the rulebook it extends."""

from __future__ import annotations

import argparse
import json
from importlib import resources

from ruledsl.diagnostics import RulebookError
from ruledsl.parser import parse
from ruledsl.resolve import RULEBOOK_SUFFIX, bundled_names


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of {name, title, extends}")


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


def run(args: argparse.Namespace) -> int:
    rows = listing()
    if args.json:
        print(json.dumps(rows))
        return 0
    name_width = max((len(r["name"] or "") for r in rows), default=0)
    title_width = max((len(r["title"] or "") for r in rows), default=0)
    for row in rows:
        parent = f"extends {row['extends']}" if row["extends"] else "-"
        print(f"{row['name']:<{name_width}}  {row['title']:<{title_width}}  {parent}".rstrip())
    return 0
