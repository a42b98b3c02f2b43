"""The players' handout as Markdown, to paste into a club's page or a repository.

Every word that comes from a rulebook (titles, clauses, values, names) goes through ``engine.core.markup``: a
rulebook is untrusted text, and a clause holding HTML or Markdown must print as the characters it is.
"""

from __future__ import annotations

from engine.core.markup import md_code, md_text
from engine.sheet.content import PAYMENT_NOTE, PayTable, Section, Sheet
from engine.sheet.payments import HANS


def _header(sheet: Sheet) -> list[str]:
    lines = [f"# {md_text(sheet.title or sheet.name)}: the rules at this table", ""]
    about = f"Rulebook {md_code(sheet.name)}"
    if sheet.extends:
        about += f", built on {md_code(sheet.extends)}"
    about += f"; {sheet.players} players."
    lines.append(about)
    if sheet.source:
        lines += ["", f"Source: {md_text(sheet.source)}"]
    lines += ["", "Each rule cites its clause. The payment tables are computed from these rules."]
    if sheet.against:
        lines += ["", f"Every rule that differs from {md_code(sheet.against)} is marked ≠ {md_text(sheet.against)}, with how {md_code(sheet.against)} has it."]
    return lines


def _section(section: Section, against: str | None) -> list[str]:
    headers = [*section.headers, "clause", "in the rulebook"] + ([f"differs from {against}"] if against else [])
    lines = [f"## {md_text(section.title)}", ""]
    if section.intro:
        lines += [md_text(section.intro), ""]
    lines += ["| " + " | ".join(md_text(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    for row in section.rows:
        cells = [md_text(c) for c in row.cells] + [md_text(row.clause), md_code(row.id)]
        if against:
            cells.append(md_text(row.mark or ""))
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def _table(table: PayTable) -> list[str]:
    lines = [f"### {md_text(table.title)}", "", md_text(table.caption), ""]
    lines += ["| fu | " + " | ".join(f"{han} han" for han in HANS) + " |", "|" + "---|" * (len(HANS) + 1)]
    for fu, cells in table.rows:
        shown = [md_text(text + (f" ({mark})" if mark else "")) for text, mark in cells]
        lines.append(f"| {md_text(fu)} | " + " | ".join(shown) + " |")
    return lines + [""]


def render(sheet: Sheet) -> str:
    """The whole handout: header, the hand's rules, the payment tables and limits, then the flow of play."""
    lines = _header(sheet) + [""]
    for section in sheet.hand:
        lines += _section(section, sheet.against)
    lines += ["## Payment tables", "", md_text(PAYMENT_NOTE), ""]
    for table in sheet.tables:
        lines += _table(table)
    lines += _section(sheet.tiers, sheet.against)
    for section in sheet.flow:
        lines += _section(section, sheet.against)
    return "\n".join(lines).rstrip() + "\n"


__all__ = ["render"]
