"""Diagnostics in one format everywhere: ``FILE:LINE:COL: error: message``, the line, a caret, a help line.

An organiser reads these, so messages are lowercase, quote user input in backticks, point at the exact span,
and suggest the closest known name where a typo is likely.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ruledsl.ast import Span
from ruledsl.record import record

# Characters that must never reach a terminal from untrusted text: C0 and C1 controls (tab aside), DEL, and the
# Unicode controls that reorder or hide text (bidirectional embeddings, overrides and isolates, zero-width marks,
# line and paragraph separators). A rulebook containing one is refused (``ruledsl.parser``); messages that quote
# other untrusted words (a request's rulebook name) escape them with ``printable``.
UNSAFE_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
QUOTE_LIMIT = 80  # characters of an untrusted word quoted in a message


def printable(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Untrusted text made safe to quote in a message: unsafe characters escaped (``\\u202e``), long text cut."""
    if len(text) > limit:
        text = text[:limit] + "..."
    return UNSAFE_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


@record
class Diagnostic:
    severity: str  # "error" or "warning"
    message: str
    span: Span
    help: str | None = None
    source_line: str | None = None
    # the settings an error between settings is about, as names (``x`` has no effect without ``y``: ``x`` then
    # ``y``): a program (a diff trying one change alone) reads them here, never out of the message's words
    settings: tuple[str, ...] = ()
    # other places the message is about (severity "note"): the rule of another file that decides first, say;
    # each is shown with its own location, line and caret under the main one
    related: tuple[Diagnostic, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def render(self) -> str:
        """The human form: location, message, the source line with a caret under the span, the help line."""
        lines = [f"{self.span.file}:{self.span.line}:{self.span.column}: {self.severity}: {self.message}"]
        if self.source_line is not None:
            text = printable(self.source_line.rstrip("\n").expandtabs(1), limit=1000)
            gutter = str(self.span.line)
            pad = " " * len(gutter)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            width = max(1, min(width, max(1, len(text) - self.span.column + 1)))
            lines.append(f"{pad} |")
            lines.append(f"{gutter} | {text}")
            lines.append(f"{pad} | {' ' * (self.span.column - 1)}{'^' * width}")
        for note in self.related:
            lines.extend("  " + line for line in note.render().split("\n"))
        if self.help:
            lines.append(f"  = help: {self.help}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "help": self.help,
            **({"related": [note.to_json() for note in self.related]} if self.related else {}),
        }


class RulebookError(Exception):
    """Raised when a rulebook cannot be used; carries every diagnostic found, rendered in its message."""

    code = "invalid_rulebook"

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))
        self.message = str(self)


class Reporter:
    """Collects diagnostics for one source text, attaching the source line to each."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        # lines end at "\n" only, as the parser counts them (``str.splitlines`` also splits at form feeds,
        # U+2028 and more, which would show the wrong line under a diagnostic); "\r\n" and a lone "\r" were
        # made "\n" before parsing (``ruledsl.parser.normalise``)
        self._lines = text.split("\n")
        self.diagnostics: list[Diagnostic] = []

    def line(self, number: int) -> str | None:
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1]
        return None

    def error(self, message: str, span: Span, help: str | None = None, settings: tuple[str, ...] = ()) -> None:
        self._add("error", message, span, help, settings)

    def warning(self, message: str, span: Span, help: str | None = None) -> None:
        self._add("warning", message, span, help)

    def _add(self, severity: str, message: str, span: Span, help: str | None, settings: tuple[str, ...] = ()) -> None:
        if span.file != self.file:
            span = Span(self.file, span.line, span.column, span.end_line, span.end_column)
        self.diagnostics.append(Diagnostic(severity, message, span, help, self.line(span.line), settings))

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)


# Candidates compared in full for one suggestion; a larger pool (a rulebook defining thousands of items) is first
# cut to the names most like the word by cheap measures, so that a file full of typos is still checked in
# linear time (every comparison of difflib costs microseconds).
SUGGESTION_POOL = 64


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The ``help:`` text suggesting the closest candidate, or None when nothing is close."""
    unique = set(candidates)
    if len(unique) > SUGGESTION_POOL:
        unique = _nearest_by_prefix(word, unique)
    pool = sorted(unique)
    import difflib  # only when a name is unknown: about 1 ms of start-up otherwise

    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in pool}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return f"did you mean `{close[0]}`?" if close else None


def _nearest_by_prefix(word: str, pool: set[str]) -> set[str]:
    """At most ``SUGGESTION_POOL`` candidates sharing the longest prefix with the word (C-speed filters only)."""
    near = [c for c in pool if c.startswith(word[:1])] or sorted(pool)[:SUGGESTION_POOL]
    length = 1
    while len(near) > SUGGESTION_POOL and length < len(word):
        length += 1
        narrower = [c for c in near if c.startswith(word[:length])]
        if not narrower:
            break
        near = narrower
    return set(sorted(near, key=len)[:SUGGESTION_POOL]) if len(near) > SUGGESTION_POOL else set(near)
