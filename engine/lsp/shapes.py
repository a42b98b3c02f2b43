"""The shapes of the LSP's JSON objects this server writes (positions, ranges, locations, diagnostics), as
``TypedDict``s: the type checker then sees each key and value the specification names, where a ``dict[str, Any]``
would let a misspelt key through to the editor."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class Position(TypedDict):
    line: int  # 0-based
    character: int  # UTF-16 code units from the line's start


class Range(TypedDict):
    start: Position
    end: Position


class Location(TypedDict):
    uri: str
    range: Range


class RelatedInformation(TypedDict):
    location: Location
    message: str


class Replacement(TypedDict):
    replacement: str  # a did-you-mean's word, for the quick fix


class LspDiagnostic(TypedDict):
    range: Range
    severity: int  # 1 error, 2 warning
    source: str
    message: str
    relatedInformation: NotRequired[list[RelatedInformation]]
    data: NotRequired[Replacement]


class PublishDiagnostics(TypedDict):
    """The parameters of ``textDocument/publishDiagnostics``."""

    uri: str
    version: int | None
    diagnostics: list[LspDiagnostic]


class CompletionItem(TypedDict):
    label: str
    kind: int  # the LSP's CompletionItemKind
    detail: NotRequired[str]
    documentation: NotRequired[str]
    insertText: NotRequired[str]
    sortText: NotRequired[str]


class CompletionList(TypedDict):
    isIncomplete: bool
    items: list[CompletionItem]


class MarkupContent(TypedDict):
    kind: str  # "markdown"
    value: str


class Hover(TypedDict):
    contents: MarkupContent
    range: Range


class DocumentSymbol(TypedDict):
    name: str
    detail: str
    kind: int  # the LSP's SymbolKind
    range: Range
    selectionRange: Range
