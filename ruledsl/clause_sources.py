"""Where each clause of a rulebook comes from: a cited source, a project decision, or an admitted gap.

A clause is for players: it names the text a rule comes from (a rule number, a page or section, a revision, a log
id), or says `[project decision Dn]` where the sources are silent, and a clause nobody could check says so with
its reason, `(not verified: reason)`. This module reads those marks so that `riichi rulebooks --sources`, the
generated docs/fidelity.md and the tests all judge a clause the same way; it never decides what a rule is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ruledsl import ast
from ruledsl.record import record

# A cited source, by its form: each pattern is one way a published text or record is named.
SOURCE_FORMS: dict[str, re.Pattern[str]] = {
    "log id": re.compile(r"\b\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}\b"),
    "address": re.compile(r"https?://\S+|\bgithub\.com/\S+"),
    "rule number": re.compile(
        r"\b(?:rules?|section|chapter|article|§)\s*\d+(?:\.\d+)*|\b\d{1,2}\.\d{1,2}(?:\.\d{1,2})?\b|第\s*\d+\s*[章条節]",
        re.IGNORECASE,
    ),
    "page": re.compile(r"\bsite rules\b,? *'[^']+'|\brules guide\b|\b00\d L\d+", re.IGNORECASE),
    "log field": re.compile(r"\bGO type\b"),
    "wiki page": re.compile(r"\briichi\.wiki '[^']+'"),
    "publication": re.compile(r"\bannouncement of the \d{4} revision\b", re.IGNORECASE),
}
DECISION = re.compile(r"\[project (?:decisions?|principles?) [DP]\d+[^\]]*\]")
UNVERIFIED_OPEN = "(not verified: "
# words about how the project works, not about the game: a clause is read by players
PROCESS_WORDS = re.compile(r"\b(?:issues?|audits?|sessions?|helpers?|TODO)\b", re.IGNORECASE)
BARE_UNVERIFIED = re.compile(r"not verified(?!: )", re.IGNORECASE)


@record
class ClauseSource:
    """One clause judged: the sources it cites, its decision label, its admitted gaps, and what is wrong."""

    rulebook: str
    line: int
    item: str  # "kind name", as the rulebook writes it
    clause: str
    sources: tuple[str, ...]  # the forms of source it cites ("rule number", "log id" ...)
    decision: str | None  # the `[project decision Dn]` label
    unverified: tuple[str, ...]  # the reasons given in each `(not verified: reason)`
    problems: tuple[str, ...]  # why the clause does not meet the rule (empty: it does)

    @property
    def status(self) -> str:
        """"unsourced" (a problem), "unverified", "decision" or "sourced"."""
        if self.problems:
            return "unsourced"
        if self.unverified:
            return "unverified"
        return "sourced" if self.sources else "decision"

    def to_json(self) -> dict[str, object]:
        return {
            "rulebook": self.rulebook,
            "line": self.line,
            "item": self.item,
            "status": self.status,
            "sources": list(self.sources),
            "decision": self.decision,
            "unverified": list(self.unverified),
            "problems": list(self.problems),
            "clause": self.clause,
        }


def unverified_reasons(text: str) -> tuple[str, ...]:
    """The reason of every `(not verified: reason)`, read to its closing parenthesis (reasons may hold their own)."""
    reasons = []
    start = text.find(UNVERIFIED_OPEN)
    while start >= 0:
        depth, at = 1, start + len(UNVERIFIED_OPEN)
        end = at
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        reasons.append(text[at : end - 1 if depth == 0 else end].strip())
        start = text.find(UNVERIFIED_OPEN, end)
    return tuple(reasons)


def judge(rulebook: str, line: int, item: str, clause: str) -> ClauseSource:
    """One clause's sources, label and gaps, and the problems that keep it from telling players where it comes from."""
    sources = tuple(name for name, form in SOURCE_FORMS.items() if form.search(clause))
    decision = DECISION.search(clause)
    reasons = unverified_reasons(clause)
    problems = []
    if not sources and decision is None and not reasons:
        problems.append("names no source, no [project decision Dn] and no (not verified: reason)")
    word = PROCESS_WORDS.search(clause)
    if word:
        problems.append(f"speaks of the project's work ({word.group(0)!r}), not of the game")
    if BARE_UNVERIFIED.search(clause.replace(UNVERIFIED_OPEN, "")):
        problems.append("says 'not verified' without '(not verified: reason)'")
    return ClauseSource(rulebook, line, item, clause, sources, decision.group(0) if decision else None, reasons, tuple(problems))


def judge_rulebook(book: ast.Rulebook) -> list[ClauseSource]:
    """Every clause a rulebook file writes itself (inherited clauses are judged under the rulebook that wrote them);
    an item without a clause is a problem too."""
    found = []
    for item in book.items:
        label = f"{item.action} {item.kind} {item.name}" if item.action in {"remove", "override", "examples"} else f"{item.kind} {item.name}"
        clause = item.clause
        if clause is None:
            found.append(ClauseSource(book.name, item.span.line, label, "", (), None, (), ("has no clause",)))
            continue
        found.append(judge(book.name, item.span.line, label, clause))
    return found


def summary(judged: Iterable[ClauseSource]) -> dict[str, int]:
    """How many clauses have each status."""
    counts = {"sourced": 0, "decision": 0, "unverified": 0, "unsourced": 0}
    for clause in judged:
        counts[clause.status] += 1
    return counts


def bundled() -> dict[str, list[ClauseSource]]:
    """Every bundled rulebook's own clauses, judged, by rulebook name (a file that cannot be read is left out:
    `riichi check` reports it)."""
    from importlib import resources

    from ruledsl.diagnostics import RulebookError
    from ruledsl.parser import parse
    from ruledsl.resolve import RULEBOOK_SUFFIX, bundled_names

    judged: dict[str, list[ClauseSource]] = {}
    for name in bundled_names():
        text = resources.files("rulebooks").joinpath(f"{name}{RULEBOOK_SUFFIX}").read_text(encoding="utf-8")
        try:
            judged[name] = judge_rulebook(parse(text, f"rulebooks/{name}{RULEBOOK_SUFFIX}"))
        except RulebookError:
            continue
    return judged


def gaps(clauses: Iterable[ClauseSource]) -> list[ClauseSource]:
    """The clauses a reader should know about: those not verified (with their reasons) and those with a problem."""
    return [c for c in clauses if c.status in ("unverified", "unsourced")]
