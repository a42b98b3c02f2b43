"""``riichi rulebooks``: the bundled rulebooks, one a line: name, title, and the rulebook it extends; with
``--sources``, per rulebook, each of its clauses that is not verified (and why) or names no source."""

from __future__ import annotations

import argparse
import json

from engine.services.rulebooks import listing
from ruledsl.clause_sources import bundled, gaps, summary


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of {name, title, extends}")
    parser.add_argument(
        "--sources", action="store_true",
        help="per rulebook, each clause not verified (with its reason) or without a source; exit 1 if any clause names no source",
    )


def sources_report() -> list[dict[str, object]]:
    """Per bundled rulebook: the counts of its own clauses by status and the clauses a reader should know about."""
    return [
        {"rulebook": name, "counts": summary(clauses), "clauses": [c.to_json() for c in gaps(clauses)]}
        for name, clauses in bundled().items()
    ]


def _print_sources(report: list[dict[str, object]]) -> None:
    for entry in report:
        counts = entry["counts"]
        assert isinstance(counts, dict)
        print(f"{entry['rulebook']}: {counts['sourced']} sourced, {counts['decision']} project decisions, "
              f"{counts['unverified']} not verified, {counts['unsourced']} without a source")
        for clause in entry["clauses"]:  # type: ignore[attr-defined]
            why = "; ".join(clause["problems"]) or "; ".join(clause["unverified"])
            label = "no source" if clause["problems"] else "not verified"
            print(f"  rulebooks/{entry['rulebook']}.rulebook:{clause['line']} {clause['item']}: {label}: {why}")


def run(args: argparse.Namespace) -> int:
    if args.sources:
        report = sources_report()
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
        else:
            _print_sources(report)
        return 1 if any(entry["counts"]["unsourced"] for entry in report) else 0  # type: ignore[index]
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
