"""``riichi diff A B``: what changes between two rulebooks, each scoring change shown on a real hand.

Exit codes follow diff(1): 0 identical, 1 different, 2 trouble. Three forms: text for a terminal, ``--json``
for tools, ``--format md`` for an organiser to publish to players.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.cli import no_collections
from engine.cli.arguments import counter, load_scorer
from engine.cli.progress import ticker
from engine.cli.score_text import has_yakuman_pattern, sorted_tiles
from engine.core.markup import md_code, md_text, md_text_and_code
from engine.diff.change_witnesses import DiffReport, diff_with_witnesses
from engine.game.witness import render as render_scenario
from ruledsl.example_words import COUNT_WORDS, FLAG_WORDS
from ruledsl.rulebook_changes import Change

EXIT_SAME, EXIT_DIFFERENT = 0, 1


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", help="first rulebook (bundled name or path)")
    parser.add_argument("b", help="second rulebook (bundled name or path)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--format", choices=("text", "md", "json"), default="text")
    parser.add_argument(
        "--hands",
        type=counter,
        default=4000,
        help="random hands searched for witnesses (default 4000); the rulebooks' examples and hands built from each "
        "changed rule come on top",
    )


def run(args: argparse.Namespace) -> int:
    # The garbage collector paused while the two rulebooks load, the diff runs and its report is written: what they
    # build (the rulebooks, the pool of hands, the mixes, their scorers and rounds) stays alive until the diff ends,
    # so a collection frees little, yet each walks all of it: some 150 collections were a tenth of the processor
    # time of a diff of two bundled rulebooks, for 3.6 MiB of cyclic garbage left by the scripted rounds (a bounded
    # amount: the scripts, the changes and the steered hands are all bounded).
    with no_collections():
        a, b = load_scorer(args.a), load_scorer(args.b)
        fmt = "json" if args.json else args.format
        with ticker(label="witness search", enabled=False if fmt == "json" else None) as tick:
            report = diff_with_witnesses(a, b, random_hands=args.hands, tick=tick)
        if fmt == "json":
            print(json.dumps(report.to_json(), ensure_ascii=False))
        elif fmt == "md":
            print(render_markdown(report))
        else:
            print(render_text(report))
        return EXIT_DIFFERENT if report.changes else EXIT_SAME


def _short(value: Any) -> str:
    """A change's value for people: the JSON keeps ``1000``, ``true`` and lists; the page reads ``1,000``, ``yes``."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, list):
        return ", ".join(_short(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_short(v) if v is not None else '(not set)'}" for k, v in value.items())
    return str(value)


def _situation(request: dict[str, Any]) -> str:
    words = [sorted_tiles(request["hand"])]
    for meld in request.get("melds", []):
        words.append(f"{meld['type']} {sorted_tiles(meld['tiles'])}")
    words.append(f"win {request['win']}")
    words.append("tsumo" if request.get("tsumo") else "ron")
    words.append("dealer" if request.get("seat_wind", "E") == "E" else f"seat {request.get('seat_wind')}")
    if request.get("round_wind", "E") != "E":
        words.append(f"round {request['round_wind']}")
    for flag in FLAG_WORDS:  # the example notation's words, so a witness reads as an `example` line
        if request.get(flag):
            words.append(flag)
    counters = tuple((key, word) for word, key in COUNT_WORDS.items())
    for key, word in (("dora_indicators", "dora"), ("ura_indicators", "ura"), *counters):
        if request.get(key):
            words.append(f"{word} {request[key]}")
    return " ".join(words)


def _result(response: dict[str, Any]) -> str:
    if not response.get("ok"):
        return response["error"]["code"]
    if has_yakuman_pattern(response):  # han and fu mean nothing here; the tier's name is the rulebook's
        return f"{response['total']} ({response['limit']} x{response['yakuman']})"
    return f"{response['total']} ({response['han']} han {response['fu']} fu)"


def _verb(change: Change) -> str:
    return {"added": "+", "removed": "-", "changed": "~"}[change.change]


def _witness_lines(report: DiffReport, change: Change, witness: dict[str, Any]) -> list[str]:
    """The hand (each side's version when a red five exists on one side only), its results under the whole of A
    and of B, and, when the change alone does not explain the difference, its result under A with this change
    only."""
    if "request_b" in witness:
        shown = [
            f"    witness  {_situation(witness['request'])} under {report.a}",
            f"             {_situation(witness['request_b'])} under {report.b}",
        ]
    else:
        shown = [f"    witness  {_situation(witness['request'])}"]
    shown.append(f"             {report.a} {_result(witness['a'])} · {report.b} {_result(witness['b'])}")
    if not witness.get("isolated", True):
        shown.append("             (other changes also move this hand: no hand found that this rule alone moves)")
        if witness.get("alone") is not None:
            shown.append(f"             {_changed(report, change, {})} {_result(witness['alone'])}")
    return shown


def _changed(report: DiffReport, change: Change, scenario: dict[str, Any]) -> str:
    """The label of A with only this change (and the changes it is valid only with): "A + `KEY` only",
    never B's name, which labels the whole of B."""
    names = [change.name if change.kind == "settings" else change.item, *[_item_name(i) for i in scenario.get("together_with") or ()]]
    return f"{report.a} + " + ", ".join(f"`{n}`" for n in names) + " only"


def _item_name(item: str) -> str:
    return item.removeprefix("setting ")


def _searched(report: DiffReport) -> str:
    counts = report.counts or {}
    parts = [f"{counts[k]:,} {word}" for k, word in (("random", "random"), ("example", "from examples"), ("steered", "built from the changed rules")) if counts.get(k)]
    return f"{report.searched:,} hands" + (f" ({', '.join(parts)})" if parts else "")


def render_text(report: DiffReport) -> str:
    lines = []
    previous_clause = None
    for index, (change, witness) in enumerate(report.changes):
        clause = f"{change.clause_a or '-'} -> {change.clause_b or '-'}"
        if change.change == "changed":
            body = f"{_short(change.a)} -> {_short(change.b)}"
        elif change.change == "added":
            body = _short(change.b)
        else:
            body = f"removed (was {_short(change.a)})"
        lines.append(f"{_verb(change)} {change.item}: {body}")
        lines.append(f"    clause   {clause}" if clause != previous_clause else "    clause   (same as above)")
        previous_clause = clause
        if witness is not None:
            lines += _witness_lines(report, change, witness)
        elif change.affects_score:
            lines.append(
                f"    no witness found among {report.searched:,} hands searched, hands built from its own condition "
                "included: no legal hand may meet it"
            )
        elif (scenario := report.scenario(index)) is not None:
            together = scenario.get("together_with")
            alone = f"this change with {', '.join(together)}, valid only together" if together else "this change alone"
            lines.append(f"    scenario ({alone}; last line: the whole of {report.b}):")
            lines += [f"      {line}" for line in render_scenario(scenario, report.a, _changed(report, change, scenario), report.b)]
        else:
            lines.append(f"    no scenario: {report.reason(index) or 'no hand, round or game shows this change'}")
    if report.changes:
        found = sum(1 for _, w in report.changes if w is not None)
        shown = sum(1 for i in range(len(report.changes)) if report.scenario(i) is not None)
        lines.append(f"{len(report.changes)} rules differ; {found} shown on a hand, found by searching {_searched(report)}" + (f"; {shown} on a scenario" if shown else ""))
    else:
        lines.append(
            f"no differences found between {report.a} and {report.b} "
            f"(items compared one by one; {report.searched:,} hands searched)"
        )
    return "\n".join(lines)


def render_markdown(report: DiffReport) -> str:
    """The table an organiser publishes. Every word quoted from a rulebook (names, values, clauses) or built from
    one goes through ``engine.core.markup``: a clause holding HTML or Markdown is shown, never rendered."""
    a_name, b_name = md_code(report.a), md_code(report.b)
    lines = [f"# Rule differences: {a_name} and {b_name}", ""]
    if not report.changes:
        lines.append(f"No differences found ({report.searched:,} hands searched).")
        return "\n".join(lines)
    lines += [f"| rule | {md_text(report.a)} | {md_text(report.b)} | sources | example hand |", "|---|---|---|---|---|"]
    for index, (change, witness) in enumerate(report.changes):
        a = _short(change.a) if change.change != "added" else "—"
        b = _short(change.b) if change.change != "removed" else "—"
        cells = [
            md_code(change.item),
            md_text(a),
            md_text(b),
            md_text(f"{change.clause_a or '—'} / {change.clause_b or '—'}"),
            _md_example(report, index, change, witness, b_name),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"{len(report.changes)} rules differ; witnesses found by searching {md_text(_searched(report))}."]
    return "\n".join(lines)


def _md_example(report: DiffReport, index: int, change: Change, witness: dict[str, Any] | None, b_name: str) -> str:
    """The example cell of a change: its witness hand and both results, its scenario, or why there is none."""
    if witness is not None:
        hand = md_code(_situation(witness["request"]))
        if "request_b" in witness:
            hand += f" (under {b_name}: {md_code(_situation(witness['request_b']))})"
        example = f"{hand}: {md_text(_result(witness['a']))} vs {md_text(_result(witness['b']))}"
        if not witness.get("isolated", True):
            alone = witness.get("alone")
            if alone is not None:
                example += f" (other changes also move this hand; {md_text_and_code(_changed(report, change, {}))}: {md_text(_result(alone))})"
            else:
                example += " (other changes also move this hand)"
        return example
    if change.affects_score:
        return f"none found in {report.searched:,} hands"
    scenario = report.scenario(index)
    if scenario is not None:
        return md_text_and_code("; ".join(render_scenario(scenario, report.a, _changed(report, change, scenario), report.b)))
    return md_text_and_code(f"no scenario: {report.reason(index) or 'no hand, round or game shows this change'}")

