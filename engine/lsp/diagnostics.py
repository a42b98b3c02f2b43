"""The checker's diagnostics as the LSP publishes them: range, severity, the message with its help line (the
did-you-mean included), and related locations (the item a message names, where it is written in the chain).

A diagnostic about another file of the ``extends`` chain is shown at the document's ``extends`` line, pointing to
where it really is: an editor shows diagnostics only in the file they are published for.
"""

from __future__ import annotations

import re

from engine.lsp.documents import Document
from engine.lsp.shapes import LspDiagnostic, PublishDiagnostics, Range, RelatedInformation
from engine.lsp.text import file_uri, lines_of, span_range
from engine.services.check import FileReport
from ruledsl.ast import Span
from ruledsl.diagnostics import Diagnostic
from ruledsl.resolve import ResolvedRulebook

ERROR, WARNING = 1, 2
SOURCE = "riichi check"
SUGGESTION = re.compile(r"did you mean `([^`]+)`\?")
ITEM_NAMED = re.compile(r"`([a-z_]+) ([A-Za-z_][A-Za-z0-9_]*)`")
MAX_RELATED = 8
ACTIONS = {"define": "defined", "override": "overridden", "exception": "refined by an exception"}


def publish(document: Document, report: FileReport | None) -> PublishDiagnostics:
    """The ``textDocument/publishDiagnostics`` parameters for a document's last report."""
    items: list[LspDiagnostic] = []
    if report is not None:
        if report.unreadable is not None:
            items.append(_plain(report.unreadable, {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}))
        items.extend(lsp_diagnostic(d, document) for d in report.diagnostics)
    return {"uri": document.uri, "version": document.version, "diagnostics": items}


def _plain(message: str, rng: Range) -> LspDiagnostic:
    return {"range": rng, "severity": ERROR, "source": SOURCE, "message": message}


def lsp_diagnostic(diagnostic: Diagnostic, document: Document) -> LspDiagnostic:
    """One diagnostic; a did-you-mean's replacement travels in ``data`` for the code action."""
    lines = document.lines
    span = diagnostic.span
    related = _related(diagnostic, document)
    message = diagnostic.message if not diagnostic.help else f"{diagnostic.message}\nhelp: {diagnostic.help}"
    if span.file == document.path:
        rng = span_range(span, lines)
    else:
        rng = _extends_range(document, lines)
        message = f"{span.file}:{span.line}:{span.column}: {message}"
        related.insert(0, _location(span, document, "here", lines_of(_text_of(document, span.file))))
    out: LspDiagnostic = {
        "range": rng,
        "severity": ERROR if diagnostic.is_error else WARNING,
        "source": SOURCE,
        "message": message,
    }
    if related:
        out["relatedInformation"] = related[:MAX_RELATED]
    suggestion = SUGGESTION.search(diagnostic.help or "")
    if suggestion and span.file == document.path:
        out["data"] = {"replacement": suggestion.group(1)}
    return out


def _text_of(document: Document, file: str) -> str:
    if document.resolved is not None:
        return document.resolved.texts.get(file, "")
    return ""


def _extends_range(document: Document, lines: list[str]) -> Range:
    """The ``extends NAME`` of the header when the document has one, else its first line."""
    for number, line in enumerate(lines):
        at = line.find("extends")
        if at >= 0:
            return {"start": {"line": number, "character": at}, "end": {"line": number, "character": len(line)}}
    return {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": max(1, len(lines[0]) if lines else 1)}}


def _location(span: Span, document: Document, message: str, lines: list[str]) -> RelatedInformation:
    uri = file_uri(span.file, document.path, document.uri)
    return {"location": {"uri": uri, "range": span_range(span, lines)}, "message": message}


def _related(diagnostic: Diagnostic, document: Document) -> list[RelatedInformation]:
    """Where the items the message names are written, in every file of the chain (other than the diagnostic's own
    spot): the base of an item defined twice, the target of an override, the removed item."""
    resolved = document.resolved
    if resolved is None:
        return []
    out: list[RelatedInformation] = []
    suggestion = SUGGESTION.search(diagnostic.help or "")
    if suggestion is not None:
        for key in [k for k in resolved.items if k[1] == suggestion.group(1)]:
            for label, span in _item_spans(resolved, key)[:1]:
                out.append(_location(span, document, f"`{key[0]} {key[1]}` {label}", lines_of(resolved.texts.get(span.file, ""))))
    for kind, name in ITEM_NAMED.findall(diagnostic.message):
        for label, span in _item_spans(resolved, (kind, name)):
            if (span.file, span.line) != (diagnostic.span.file, diagnostic.span.line):
                out.append(_location(span, document, f"`{kind} {name}` {label}", lines_of(resolved.texts.get(span.file, ""))))
    return out


def _item_spans(resolved: ResolvedRulebook, key: tuple[str, str]) -> list[tuple[str, Span]]:
    item = resolved.items.get(key)
    spans = [] if item is None else [(f"{ACTIONS.get(p.action, p.action)} in {p.rulebook}", p.span) for p in item.history]
    spans += [(f"removed in {r.rulebook}", r.span) for r in resolved.removed if r.key == key]
    return spans
