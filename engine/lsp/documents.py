"""The open documents: their text, and the last analysis of each (the checker's report and the folded rulebook).

Analysing a rulebook parses its whole ``extends`` chain, which takes a noticeable fraction of a second on a large
file, so the server analyses a document once per burst of edits (``Document.stale``) and answers hovers,
completions and jumps from the last fold, however many keystrokes old: a hover must never wait for a parse.
"""

from __future__ import annotations

import os
import re

from engine.lsp.text import lines_of, uri_to_path
from engine.services.check import FileReport, check_resolving
from ruledsl.diagnostics import RulebookError
from ruledsl.record import record
from ruledsl.resolve import ResolvedRulebook, UnknownRulebookError, resolve


@record(frozen=False, slots=False)
class Document:
    uri: str
    text: str
    version: int = 0
    analysed_version: int = -1
    report: FileReport | None = None
    resolved: ResolvedRulebook | None = None  # the last fold that succeeded, kept through broken edits

    @property
    def path(self) -> str:
        return uri_to_path(self.uri)

    @property
    def lines(self) -> list[str]:
        return lines_of(self.text)

    @property
    def stale(self) -> bool:
        return self.analysed_version != self.version

    def analyse(self, *, examples: bool = False) -> FileReport:
        """Check the text as ``riichi check`` does (examples only when asked: on save), keeping the fold."""
        report, resolved = check_resolving(self.path, self.text, examples=examples)
        self.report = report
        if resolved is None and self.resolved is None:
            resolved = base_of(self.text, self.path)
        if resolved is not None:
            self.resolved = resolved
        self.analysed_version = self.version
        return report


# ``[ \t]*``, not ``\s*``: under MULTILINE every line's start is tried anyway, and ``\s*`` read every blank line
# after each one again (quadratic on a text of blank lines)
EXTENDS = re.compile(r"^[ \t]*rulebook\s+\w+(?:\s+\"[^\"\n]*\")?\s+extends\s+(\w+)", re.M)


def base_of(text: str, path: str) -> ResolvedRulebook | None:
    """The rulebook a text extends, folded on its own: what hovers and completions read while the text itself
    has never parsed (a file being written from scratch)."""
    match = EXTENDS.search(text)
    if match is None:
        return None
    sibling = os.path.join(os.path.dirname(path), f"{match.group(1)}.rulebook")
    try:
        return resolve(sibling if os.path.isfile(sibling) else match.group(1), keep_going=True)
    except (RulebookError, UnknownRulebookError):
        return None


def apply_change(text: str, change: dict) -> str:
    """One ``contentChanges`` entry applied: a whole new text, or a range replaced (positions in UTF-16)."""
    from engine.lsp.text import from_utf16

    new = change.get("text")
    if not isinstance(new, str):
        raise ValueError("a content change carries its text")
    rng = change.get("range")
    if rng is None:
        return new
    lines = text.split("\n")

    def offset(pos: dict) -> int:
        line = min(max(0, int(pos["line"])), len(lines))
        if line == len(lines):
            return len(text)
        start = sum(len(ln) + 1 for ln in lines[:line])
        return start + from_utf16(lines[line], int(pos["character"]))

    begin, end = offset(rng["start"]), offset(rng["end"])
    if end < begin:
        begin, end = end, begin
    return text[:begin] + new + text[end:]
