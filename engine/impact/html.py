"""The impact report as one offline HTML file: charts drawn as inline SVG by pygal, example rounds to open.

pygal renders pure SVG on the server side: the charts need no JavaScript and no network, so the file opens the
same from a USB stick as from a web server (its optional tooltip script is a CDN link, which we leave out). It is
an optional extra (``pip install '.[report]'``); text, JSON and Markdown need nothing of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.core.errors import InvalidRequest
from engine.core.markup import html_text
from engine.impact.report import charged, item_line, points, result_words

STYLE = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem} h2{font-size:1.15rem;margin-top:2rem} figure{margin:1rem 0}
table{border-collapse:collapse;font-size:.9rem} td,th{border:1px solid #ccc;padding:.2rem .4rem;text-align:left}
code{font-size:.85rem} details{margin:.4rem 0} summary{cursor:pointer}
"""


def _pygal() -> Any:
    try:
        import pygal
    except ImportError:
        raise InvalidRequest("`--format html` needs the `report` extra; install it from the project's folder, as the README does: pip install '.[report]'") from None
    return pygal


def _config(pygal: Any, title: str) -> dict[str, Any]:
    return {"title": title, "js": [], "disable_xml_declaration": True, "width": 800, "height": 360, "style": pygal.style.CleanStyle}


def _svg(chart: Any) -> str:
    return chart.render(is_unicode=True)


def chart_point_flow(report: dict[str, Any]) -> str:
    pygal = _pygal()
    chart = pygal.HorizontalBar(**_config(pygal, "Points to winners, per item of the diff"))
    for item in report["items"]:
        if item["wins"]:
            chart.add(item["item"], [item["points_to_winners"]])
    if not any(item["wins"] for item in report["items"]):
        chart.add("no item changes any win", [0])
    return _svg(chart)


def chart_rounds(report: dict[str, Any]) -> str:
    pygal = _pygal()
    chart = pygal.StackedBar(**_config(pygal, "Rounds per item: wins re-scored, course changed, diverged from the log"))
    items = [item for item in report["items"] if charged(item)]
    chart.x_labels = [item["item"] for item in items] or ["none"]
    chart.x_label_rotation = 20
    chart.add("wins re-scored", [item["rounds"] for item in items] or [0])
    chart.add("course changed", [item.get("rounds_course_changed", 0) for item in items] or [0])
    chart.add("diverged", [item.get("rounds_diverged", 0) for item in items] or [0])
    return _svg(chart)


def chart_score_changes(report: dict[str, Any]) -> str:
    pygal = _pygal()
    chart = pygal.Bar(**_config(pygal, "Distribution of score changes (winner's points, B minus A)"))
    rows = report["score_changes"]
    chart.x_labels = [points(row["delta"]) for row in rows] or ["none"]
    chart.add("wins", [row["wins"] for row in rows] or [0])
    return _svg(chart)


def chart_placements(report: dict[str, Any]) -> str:
    pygal = _pygal()
    chart = pygal.Bar(**_config(pygal, "Final places, A then B (games compared to the end)"))
    moves = report["games"]["moves"]
    chart.x_labels = [f"{m['a']} -> {m['b']}" for m in moves] or ["none"]
    chart.add("seats", [m["seats"] for m in moves] or [0])
    return _svg(chart)


def _examples(report: dict[str, Any]) -> str:
    parts = []
    for item in report["items"]:
        if not charged(item):
            continue
        rows = "".join(
            "<tr>"
            + "".join(
                f"<td>{html_text(str(cell))}</td>"
                for cell in (Path(w["file"]).name, w["round"], w["seat"])
            )
            + f"<td><code>{html_text(w['hand'])}</code></td>"
            + f"<td>{html_text(result_words(w['a']))}</td><td>{html_text(result_words(w['b']))}</td></tr>"
            for w in item["examples"]
        )
        rows += "".join(
            "<tr>"
            + "".join(f"<td>{html_text(str(cell))}</td>" for cell in (Path(r["file"]).name, r["round"], "")
            )
            + f"<td>whole round</td><td colspan='2'>{html_text(r['text'])}</td></tr>"
            for r in item.get("round_examples", [])
        )
        parts.append(
            f"<details class='item'><summary>{html_text(item_line(item))}</summary>"
            "<table><tr><th>file</th><th>round</th><th>seat</th><th>hand</th><th>before (A)</th><th>after (B)</th></tr>"
            f"{rows}</table></details>"
        )
    return "".join(parts) or "<p>No round changes.</p>"


def render_html(report: dict[str, Any]) -> str:
    """The whole report, one self-contained page."""
    a, b = html_text(report["a"]), html_text(report["b"])
    games = report["games"]
    summary = (
        f"{report['files']:,} files, {report['rounds']:,} rounds, {report['wins']:,} wins re-scored; "
        f"{report['changed_rounds']:,} rounds change, {points(report['points_to_winners'])} points to winners; "
        f"{report['illegal_wins']:,} wins not legal under {b}; {report['rounds_left_out']:,} rounds left out. "
        f"Games: {games['compared']:,} of {games['total']:,} compared to the end, placements change in "
        f"{games['placement_changed']:,}."
    )
    tiles = f"<p id='tiles'>Tiles: {html_text(report['tiles'])}.</p>" if report.get("tiles") else ""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>Impact {a} to {b}</title><style>{STYLE}</style></head><body>"
        f"<h1>Rule change impact: {a} → {b}</h1><p id='summary'>{summary}</p>{tiles}"
        f"<h2>Point flow per item</h2><figure class='chart'>{chart_point_flow(report)}</figure>"
        f"<h2>Rounds per item</h2><figure class='chart'>{chart_rounds(report)}</figure>"
        f"<h2>Score changes</h2><figure class='chart'>{chart_score_changes(report)}</figure>"
        f"<h2>Placements</h2><figure class='chart'>{chart_placements(report)}</figure>"
        f"<h2>Example rounds</h2>{_examples(report)}"
        f"<p><small>Scope: {html_text(report['scope'])}.</small></p></body></html>"
    )
