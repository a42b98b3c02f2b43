"""The players' handout as one printable HTML page: inline style, no script, no file from elsewhere.

An organiser prints it or puts it on a club's site as is, so the page carries everything it needs (its style,
a print layout that keeps table rows whole) and nothing it would fetch. Every word from a rulebook goes through
``engine.core.markup.html_text``: a rulebook is untrusted text, and its clauses show as the characters they are.
"""

from __future__ import annotations

from engine.core.markup import html_text as h
from engine.sheet.content import PAYMENT_NOTE, PayTable, Section, Sheet
from engine.sheet.payments import HANS

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; color: #111; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 2px solid #333; }
h3 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem; }
th, td { border: 1px solid #bbb; padding: .25rem .4rem; vertical-align: top; text-align: left; }
th { background: #eee; }
table.pay td, table.pay th { text-align: right; white-space: nowrap; }
table.pay td:first-child, table.pay th:first-child { text-align: left; }
td.clause { font-size: .85em; color: #444; }
code { font-size: .85em; }
.mark { display: inline-block; background: #fff3b0; border: 1px solid #d9b800; padding: 0 .25rem; font-size: .85em; }
tr.differs td { background: #fffbe0; }
.note { color: #444; }
.pays { display: flex; flex-wrap: wrap; gap: 1rem; }
.pays > div { flex: 1 1 30rem; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  h2 { break-after: avoid; }
  tr, .pays > div { break-inside: avoid; }
  .mark, tr.differs td, th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def _header(sheet: Sheet) -> list[str]:
    out = [f"<h1>{h(sheet.title or sheet.name)}: the rules at this table</h1>"]
    about = f"Rulebook <code>{h(sheet.name)}</code>"
    if sheet.extends:
        about += f", built on <code>{h(sheet.extends)}</code>"
    out.append(f"<p>{about}; {sheet.players} players.</p>")
    if sheet.source:
        out.append(f"<p>Source: {h(sheet.source)}</p>")
    out.append('<p class="note">Each rule cites its clause. The payment tables are computed from these rules.</p>')
    if sheet.against:
        out.append(
            f'<p class="note">Every rule that differs from <code>{h(sheet.against)}</code> is marked '
            f'<span class="mark">≠ {h(sheet.against)}</span>, with how <code>{h(sheet.against)}</code> has it.</p>'
        )
    return out


def _section(section: Section, against: str | None) -> list[str]:
    headers = [*section.headers, "clause", "in the rulebook"] + ([f"differs from {against}"] if against else [])
    out = [f"<section><h2>{h(section.title)}</h2>"]
    if section.intro:
        out.append(f'<p class="note">{h(section.intro)}</p>')
    out.append("<table><thead><tr>" + "".join(f"<th>{h(x)}</th>" for x in headers) + "</tr></thead><tbody>")
    for row in section.rows:
        cells = [f"<td>{h(c)}</td>" for c in row.cells]
        cells += [f'<td class="clause">{h(row.clause)}</td>', f"<td><code>{h(row.id)}</code></td>"]
        if against:
            cells.append(f'<td>{_mark(row.mark)}</td>')
        css = ' class="differs"' if row.mark else ""
        out.append(f"<tr{css}>" + "".join(cells) + "</tr>")
    return out + ["</tbody></table></section>"]


def _mark(mark: str | None) -> str:
    return f'<span class="mark">{h(mark)}</span>' if mark else ""


def _table(table: PayTable) -> list[str]:
    out = [f"<div><h3>{h(table.title)}</h3>", f'<p class="note">{h(table.caption)}</p>', '<table class="pay">']
    out.append("<thead><tr><th>fu</th>" + "".join(f"<th>{han} han</th>" for han in HANS) + "</tr></thead><tbody>")
    for fu, cells in table.rows:
        shown = "".join(f"<td>{h(text)}{' ' + _mark(mark) if mark else ''}</td>" for text, mark in cells)
        out.append(f"<tr><th>{h(fu)}</th>{shown}</tr>")
    return out + ["</tbody></table></div>"]


def render(sheet: Sheet) -> str:
    """The whole page: the same sections, in the same order, as the Markdown handout."""
    body = _header(sheet)
    for section in sheet.hand:
        body += _section(section, sheet.against)
    body += ["<section><h2>Payment tables</h2>", f'<p class="note">{h(PAYMENT_NOTE)}</p>', '<div class="pays">']
    for table in sheet.tables:
        body += _table(table)
    body += ["</div></section>"]
    body += _section(sheet.tiers, sheet.against)
    for section in sheet.flow:
        body += _section(section, sheet.against)
    title = h(f"{sheet.title or sheet.name}: the rules at this table")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


__all__ = ["render"]
