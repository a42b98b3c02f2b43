"""Whose clause a player reads: the file that wrote an item's clause, and the words that adopted it.

A rulebook that ``extends`` another inherits its items with their clauses, and those clauses speak for the file
that wrote them ("... not on this site"). Every tool that shows a clause to players (``riichi
explain``, ``riichi score``, the players' handout) asks this module, so that an inherited clause is always marked
as inherited ("from BASE: ...") and a ``clauses from NAME = "WORDS"`` statement, which adopts the clauses a file
inherits from NAME under its own words, reads the same everywhere.

The rules, one place:
- the clause of an item is the one its last ``define``/``override`` with a ``@clause`` wrote; that file is its writer;
- a statement ``clauses from R = "WORDS"`` in file F covers the clauses F inherits whose writer is R or a rulebook
  R extends; when several files of the chain adopt one clause, the one nearest the rulebook shown wins, and within
  one file the statement naming the rulebook nearest the writer;
- players read the clause as written when the shown rulebook wrote it; ``from W: CLAUSE`` when it inherits it from
  W; ``WORDS (from W: CLAUSE)`` when it adopted it; ``from F: WORDS (from W: CLAUSE)`` when a file F between adopted it.
"""

from __future__ import annotations

from ruledsl.caches import ByIdentity
from ruledsl.record import record
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from ruledsl import ast
    from ruledsl.nodes import Rulebook
    from ruledsl.resolve import ResolvedRulebook


@record
class ClauseOrigin:
    """One clause as a rulebook gives it: the text, the file that wrote it, and the statement that adopted it."""

    clause: str | None  # the clause as written (None: the item cites none)
    written_by: str | None  # the rulebook file that wrote it
    shown_in: str  # the rulebook the clause is read under (the last file of the chain)
    adopted_by: str | None = None  # the file whose ``clauses from`` statement adopted it
    adopted_as: str | None = None  # that statement's words

    @property
    def inherited(self) -> bool:
        """Whether the clause was written by a file the shown rulebook extends, not by the rulebook itself."""
        return self.written_by is not None and self.written_by != self.shown_in

    def for_players(self) -> str | None:
        """The clause as players read it (see the module's docstring); None when the item cites no clause."""
        if self.clause is None:
            return None
        if not self.inherited:
            return self.clause
        if self.adopted_as is None:
            return f"from {self.written_by}: {self.clause}"
        adopted = f"{self.adopted_as} (from {self.written_by}: {self.clause})"
        return adopted if self.adopted_by == self.shown_in else f"from {self.adopted_by}: {adopted}"

    def to_json(self) -> dict[str, Any] | None:
        """The response's ``clause_from``: null when the shown rulebook wrote the clause (or none is cited), else
        ``{"rulebook": writer, "adopted": words or null, "adopted_in": file or null}``."""
        if self.clause is None or not self.inherited:
            return None
        return {"rulebook": self.written_by, "adopted": self.adopted_as, "adopted_in": self.adopted_by}


def from_response(clause: str | None, clause_from: dict[str, Any] | None, shown_in: str) -> str | None:
    """The players' form of a clause a score response carries with its ``clause_from`` (for text outputs that
    have the response, not the rulebook)."""
    if clause_from is None:
        return clause
    return ClauseOrigin(clause, clause_from["rulebook"], shown_in, clause_from.get("adopted_in"), clause_from.get("adopted")).for_players()


def _key(rulebook: ResolvedRulebook, item: tuple[str, str] | str) -> tuple[str, str] | None:
    """An item by ``(kind, name)``, ``"kind name"`` or a name that only one item has."""
    if isinstance(item, tuple):
        return item if item in rulebook.items else None
    parts = item.split()
    if len(parts) == 2 and (parts[0], parts[1]) in rulebook.items:
        return (parts[0], parts[1])
    found = [key for key in rulebook.items if key[1] == item.strip()]
    return found[0] if len(found) == 1 else None


INDEXES_KEPT = 8  # rulebooks whose index is kept (per rulebook object, dropped with it)
_INDEXES: ByIdentity[dict[tuple[str, str], list[tuple[str, ast.Item]]]] = ByIdentity("ruledsl.clause_origin.indexes", INDEXES_KEPT)


def _index(rulebook: ResolvedRulebook) -> dict[tuple[str, str], list[tuple[str, ast.Item]]]:
    """Per item key, the (file, item) of every ``define``, ``exception`` and ``override`` of the chain, in order:
    built once per rulebook, so that asking for every item's clause stays linear in the size of the chain."""
    kept = _INDEXES.get(rulebook)
    if kept is not None:
        return kept
    index: dict[tuple[str, str], list[tuple[str, ast.Item]]] = {}
    for book in rulebook.chain:
        for written in book.items:
            if written.action in ("define", "exception", "override"):
                index.setdefault(written.key, []).append((book.name, written))
    return _INDEXES.put(rulebook, index)


def _writer(rulebook: ResolvedRulebook, key: tuple[str, str], field: str | None) -> tuple[str | None, str | None]:
    """(clause, file that wrote it) for an item, or for one field of it (a settings key): the chain read in order,
    as ``ruledsl.resolve`` folds it (an ``override`` without a clause keeps the item's clause for its fields)."""
    clause: str | None = None
    writer: str | None = None
    field_origin: tuple[str | None, str | None] | None = None
    for book_name, written in _index(rulebook).get(key, ()):
        if written.action != "override" or written.clause:
            clause, writer = written.clause, book_name
        if field is not None and written.field(field) is not None:
            field_origin = (clause, writer)
    if field is not None and field_origin is not None:
        return field_origin
    return clause, writer


def _adoption(rulebook: ResolvedRulebook, writer: str) -> tuple[str, ast.Adoption] | None:
    """The statement that adopts a clause written by ``writer``: (file, statement), or None."""
    names = [book.name for book in rulebook.chain]
    if writer not in names:
        return None
    start = names.index(writer)
    for at in range(len(names) - 1, start, -1):  # the file nearest the shown rulebook first
        covering = [a for a in rulebook.chain[at].adoptions if a.rulebook in names[start:at]]
        if covering:
            return names[at], min(covering, key=lambda a: names.index(a.rulebook))
    return None


def clause_origin(rulebook: ResolvedRulebook, item: tuple[str, str] | str, field: str | None = None) -> ClauseOrigin | None:
    """Where the clause of an item (or of one settings key, ``field``) comes from; None when there is no such item."""
    key = _key(rulebook, item)
    if key is None:
        return None
    clause, writer = _writer(rulebook, key, field)
    adopted = _adoption(rulebook, writer) if writer is not None and writer != rulebook.name else None
    if adopted is None:
        return ClauseOrigin(clause, writer, rulebook.name)
    return ClauseOrigin(clause, writer, rulebook.name, adopted[0], adopted[1].words)


def clause_for_players(
    rulebook: ResolvedRulebook | Rulebook, item: tuple[str, str] | str, field: str | None = None
) -> str | None:
    """The clause of an item as players should read it, inherited clauses marked ("from BASE: ...").

    ``rulebook`` is a resolved rulebook (``ruledsl.resolve.resolve``) or a compiled one (``ruledsl.compile.load``);
    ``item`` is ``(kind, name)``, ``"kind name"``, or a name only one item has (``"NAME"``); ``field`` names one
    key of a settings group (``clause_for_players(rb, ("settings", GROUP), KEY)``), whose clause may come from
    another file than the group's. Returns None when the item cites no clause or does not exist.
    """
    from ruledsl.resolve import ResolvedRulebook  # a score's text imports this module, and no resolver

    resolved = rulebook if isinstance(rulebook, ResolvedRulebook) else rulebook.resolved
    origin = clause_origin(resolved, item, field)
    return origin.for_players() if origin is not None else None


def origins_by_line(rulebook: ResolvedRulebook) -> dict[tuple[str, str | None], dict[str, Any] | None]:
    """``clause_from`` of every hand rule, keyed by (id, clause) as a score response's lines carry them (an exception
    reports its own id and clause); only inherited clauses are listed, the rest are null."""
    table: dict[tuple[str, str | None], dict[str, Any] | None] = {}
    for key, item in rulebook.items.items():
        if item.kind == "settings":
            continue
        origin = clause_origin(rulebook, key)
        if origin is not None and origin.inherited:
            table[(item.name, item.clause)] = origin.to_json()
    return table


__all__ = ["ClauseOrigin", "clause_for_players", "clause_origin", "from_response", "origins_by_line"]
