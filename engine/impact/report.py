"""The impact report as text for a terminal and as Markdown for an organiser to publish.

Both read only ``Summary.to_json()``, the same stable form ``--json`` prints, so the three never disagree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core.markup import md_code, md_text


def points(value: int) -> str:
    """Signed points with thousands separators: ``+61,800``, ``-300``, ``0``."""
    return f"{value:+,}" if value else "0"


def result_words(side: dict[str, Any]) -> str:
    """One win's result under one rulebook: ``7,700 (4 han 30 fu)``, ``8,000 (4 han 30 fu, mangan)``."""
    if not side.get("ok"):
        return f"not a win ({side.get('error')})"
    if side["yakuman"]:
        shape = f"yakuman x{side['yakuman']}"
    else:
        shape = f"{side['han']} han {side['fu']} fu"
    limit = f", {side['limit']}" if side.get("limit") else ""
    return f"{side['total']:,} ({shape}{limit})"


def example_line(win: dict[str, Any]) -> str:
    return (
        f"{Path(win['file']).name} {win['round']} seat {win['seat']}: {win['hand']}; "
        f"A {result_words(win['a'])} -> B {result_words(win['b'])}"
    )


def charged(item: dict[str, Any]) -> bool:
    """Whether any win or round of the corpus is charged to this item."""
    return bool(item["wins"] or item.get("rounds_course_changed") or item.get("rounds_diverged"))


def _charged(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for item in report["items"] if charged(item)]


def _uncharged(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Items that can move a score but moved none of these wins."""
    return [item for item in report["items"] if not charged(item) and item["affects_score"]]


def _flow(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Items of table flow (draws, multiple ron, game end): not re-settled by re-scoring wins."""
    return [item for item in report["items"] if not charged(item) and not item["affects_score"]]


def item_line(item: dict[str, Any]) -> str:
    words = [f"{item['rounds']:,} rounds", f"{item['wins']:,} wins", f"{points(item['points_to_winners'])} points to winners"]
    if item["illegal_wins"]:
        words.append(f"{item['illegal_wins']:,} wins no longer legal")
    if item.get("rounds_course_changed"):
        words.append(f"the course of {item['rounds_course_changed']:,} rounds changed")
    if item.get("rounds_diverged"):
        words.append(f"{item['rounds_diverged']:,} rounds diverge from the log")
    return f"{item['item']}: " + ", ".join(words)


def render_text(report: dict[str, Any]) -> str:
    lines = [
        f"riichi impact {report['a']} -> {report['b']}: {report['files']:,} files, {report['rounds']:,} rounds "
        f"({report['rounds_with_wins']:,} with a win, {report['wins']:,} wins re-scored)",
        f"changed: {report['changed_rounds']:,} rounds, {report['changed_wins']:,} wins, "
        f"{points(report['points_to_winners'])} points to winners; {report['illegal_wins']:,} wins B makes illegal "
        f"({report['points_at_stake']:,} points at stake)",
    ]
    if report.get("tiles"):
        lines.append(f"tiles: {report['tiles']}")
    if report["rounds_left_out"]:
        lines.append(f"left out: {report['rounds_left_out']:,} rounds that {report['a']} does not reproduce")
        lines += [f"  {Path(e['file']).name} {e['round']}: {e['reason']}" for e in report["left_out"][:5]]
    if report["unreadable_files"]:
        lines.append(f"unreadable: {report['unreadable_files']:,} files")
        lines += [f"  {Path(e['file']).name}: {e['error']}" for e in report["unreadable"][:5]]
    lines.append("by item:")
    blamed = _charged(report)
    lines += [f"  {item_line(item)}" for item in blamed] or ["  (no item changes any win)"]
    if report["unattributed_wins"]:
        lines.append(f"  {report['unattributed_wins']:,} changed wins no single item explains (items acting together)")
    if report["points_interaction"]:
        lines.append(
            f"  items acting together: {points(report['points_interaction'])} points beyond the sum of the items alone "
            "(a hand that reaches a changed limit only once another item moved it)"
        )
    uncharged = _uncharged(report)
    if uncharged:
        lines.append("no win charged to: " + ", ".join(item["item"] for item in uncharged))
    flow = _flow(report)
    resettled = report.get("rounds_resettled", {})
    if flow:
        words = "flow rules with no effect on these rounds" if resettled.get("files") else "flow rules, not re-settled"
        lines.append(f"{words}: " + ", ".join(item["item"] for item in flow))
    if resettled.get("files"):
        lines.append(
            f"rounds re-settled through the round engine: {resettled['compared']:,} compared "
            f"({resettled['left_out']:,} left out), {resettled['changed']:,} settle otherwise, of which "
            f"{resettled['course_changed']:,} change course (outcome, winners, counters) and {resettled['diverged']:,} "
            "diverge from the log"
        )
        lines += [f"  {Path(r['file']).name} {r['round']}: {r['text']}" for r in resettled["examples"][:5]]
    games = report["games"]
    lines.append(
        f"games: {games['total']:,}, {games['compared']:,} compared to the end, placements change in "
        f"{games['placement_changed']:,}; {games['diverged']:,} diverge (comparison stops there); "
        f"{games.get('left_out', 0):,} left out (A does not play them as the log did)"
    )
    lines += [f"  {Path(g['file']).name}: places {g['placements_a']} -> {g['placements_b']}" for g in games["examples"][:5]]
    lines += [f"  {Path(g['file']).name}: stops at {g['where']}" for g in games["diverged_examples"][:5]]
    lines += [f"  {Path(g['file']).name}: left out, {g['where']}" for g in games.get("left_out_examples", [])[:3]]
    for item in blamed:
        lines.append(f"examples of {item['item']}:")
        lines += [f"  {example_line(win)}" for win in item["examples"][:3]]
        lines += [f"  {Path(r['file']).name} {r['round']}: {r['text']}" for r in item.get("round_examples", [])[:3]]
    lines.append(f"scope: {report['scope']}")
    return "\n".join(lines)


def render_markdown(report: dict[str, Any]) -> str:
    """The report to publish. Every word that came from a rulebook or a log (names, paths, file names, hands,
    round texts) goes through ``engine.core.markup``: a hostile name is shown, never rendered."""
    games = report["games"]
    a, b = md_code(report["a"]), md_code(report["b"])
    lines = [
        f"# Rule change impact: {a} → {b}",
        "",
        f"{report['files']:,} game files, {report['rounds']:,} rounds, {report['wins']:,} wins re-scored; "
        f"{report['changed_rounds']:,} rounds change ({points(report['points_to_winners'])} points to winners); "
        f"{report['illegal_wins']:,} wins are not legal under {b}; "
        f"{report['rounds_left_out']:,} rounds left out (not reproduced by {a}).",
        "",
        *([f"**Tiles**: {md_text(report['tiles'])}.", ""] if report.get("tiles") else []),
        "| item | rounds | wins | points to winners | wins no longer legal | rounds changing course | rounds diverging |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for item in _charged(report):
        lines.append(
            f"| {md_code(item['item'])} | {item['rounds']:,} | {item['wins']:,} | {points(item['points_to_winners'])} | {item['illegal_wins']:,} "
            f"| {item.get('rounds_course_changed', 0):,} | {item.get('rounds_diverged', 0):,} |"
        )
    if report["unattributed_wins"]:
        lines.append(f"| (no single item) | | {report['unattributed_wins']:,} | | | | |")
    if report["points_interaction"]:
        lines.append(f"| (items acting together) | | | {points(report['points_interaction'])} | | | |")
    uncharged = _uncharged(report)
    if uncharged:
        lines += ["", "No win is charged to: " + ", ".join(md_code(item["item"]) for item in uncharged) + "."]
    flow = _flow(report)
    resettled = report.get("rounds_resettled", {})
    if flow:
        words = "Flow rules with no effect on these rounds" if resettled.get("files") else "Flow rules, not re-settled"
        lines += ["", f"{words}: " + ", ".join(md_code(item["item"]) for item in flow) + "."]
    if resettled.get("files"):
        lines += [
            "",
            f"**Rounds re-settled** through the round engine: {resettled['compared']:,} compared, {resettled['changed']:,} "
            f"settle otherwise, {resettled['course_changed']:,} change course, {resettled['diverged']:,} diverge from the log.",
        ]
    lines += [
        "",
        f"**Games**: {games['total']:,}; {games['compared']:,} compared to the end; final placements change in "
        f"{games['placement_changed']:,}; {games['diverged']:,} diverge (the comparison stops at the round named).",
        "",
        "## Example rounds",
        "",
        "| item | file | round | seat | hand | before | after |",
        "|---|---|---|---:|---|---|---|",
    ]
    lines += _md_examples(report)
    lines += ["", f"_Scope: {md_text(report['scope'])}._"]
    return "\n".join(lines)


def _md_examples(report: dict[str, Any]) -> list[str]:
    """The rows of the example wins, then the table of rounds whose course changes (when there are some)."""
    lines = []
    for item in _charged(report):
        for win in item["examples"]:
            lines.append(
                f"| {md_code(item['item'])} | {md_text(Path(win['file']).name)} | {md_text(win['round'])} | {md_text(win['seat'])} "
                f"| {md_code(win['hand'])} | {md_text(result_words(win['a']))} | {md_text(result_words(win['b']))} |"
            )
    rounds = [(item["item"], r) for item in _charged(report) for r in item.get("round_examples", [])]
    if rounds:
        lines += ["", "## Rounds whose course changes", "", "| item | file | round | under A and under B |", "|---|---|---|---|"]
        lines += [
            f"| {md_code(name)} | {md_text(Path(r['file']).name)} | {md_text(r['round'])} | {md_text(r['text'])} |"
            for name, r in rounds
        ]
    return lines
