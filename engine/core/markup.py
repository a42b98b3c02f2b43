"""Escaping for the reports meant to be published: Markdown (``--format md``) and HTML (``--format html``).

A report quotes words it did not write: a rulebook's clauses, values, names and file paths, a log's file names.
A clause ``<img src=x onerror=...>`` or a file named ``[click](javascript:...)`` must come out as the characters
it is, never as markup. Every such word goes through one of these, and a report's own markup is written around
them, so the escaping is decided in one place:

* ``md_text``: running text or a table cell; HTML is turned into entities, Markdown's punctuation is
  backslash-escaped, a line break becomes a space (a table row is one line);
* ``md_code``: a code span (a hand, a rule's name): literal by construction, with a fence of backticks longer
  than any run inside, and ``|`` escaped (a GitHub table splits on it even in code);
* ``md_text_and_code``: a sentence of the report's own that names rules in backticks: as ``md_text``, with
  each backtick span kept as a code span;
* ``html_text``: text or an attribute value in HTML.
"""

from __future__ import annotations

import html
import re

# inline Markdown: code, emphasis, links and images, table cells, strikethrough (and the escape itself)
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
# block Markdown, only where a text starts a line: a heading, a list item, a rule, a quote (`>` is an entity)
_MD_LINE_START = re.compile(r"^(\s*)([#+=-]|\d+(?=[.)]))")
_LINE_BREAKS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
_BACKTICKS = re.compile(r"`+")


def _one_line(text: str) -> str:
    return _LINE_BREAKS.sub(" ", text)


def md_text(text: object) -> str:
    """``text`` as Markdown text that shows exactly these characters (no HTML, no links, no emphasis)."""
    escaped = html.escape(_one_line(str(text)), quote=False)  # & < > first: the entities' own `&` and `;` are safe
    escaped = _MD_SPECIAL.sub(r"\\\1", escaped)
    return _MD_LINE_START.sub(_escape_line_start, escaped, count=1)


def _escape_line_start(match: re.Match[str]) -> str:
    indent, mark = match.group(1), match.group(2)
    if mark.isdigit():  # `1.` or `1)`: the backslash goes before the punctuation (a digit cannot be escaped)
        return f"{indent}{mark}\\"
    return f"{indent}\\{mark}"


def md_code(text: object) -> str:
    """``text`` as a Markdown code span: shown verbatim in monospace, whatever it holds."""
    body = _one_line(str(text)).replace("|", "\\|")
    longest = max((len(run) for run in _BACKTICKS.findall(body)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if body.startswith("`") or body.endswith("`") or not body.strip() else ""
    return f"{fence}{pad}{body}{pad}{fence}"


_CODE_SPAN = re.compile(r"`([^`\r\n]+)`")


def md_text_and_code(text: object) -> str:
    """``text`` as ``md_text`` does, except that each single-backtick span in it stays a code span (through
    ``md_code``): the report's own sentences name rules in backticks. A code span is literal in Markdown, so a
    span written by a rulebook shows its characters too, never markup."""
    source, parts, at = _one_line(str(text)), [], 0
    for match in _CODE_SPAN.finditer(source):
        parts += [md_text(source[at:match.start()]) if match.start() > at else "", md_code(match.group(1))]
        at = match.end()
    parts.append(md_text(source[at:]) if at < len(source) else "")
    return "".join(parts)


def html_text(text: object) -> str:
    """``text`` escaped for HTML text and quoted attribute values."""
    return html.escape(str(text), quote=True)


__all__ = ["html_text", "md_code", "md_text", "md_text_and_code"]
