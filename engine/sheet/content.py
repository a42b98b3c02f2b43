"""The players' handout as data: every rule of a rulebook in words, each line with the clause it encodes.

An organiser publishes the whole rulebook, not its differences: table settings, yaku and yakuman with closed
and open han, fu, limits, the payment tables, and the flow of play (calls, riichi, furiten, draws, liability,
game end, uma). The words are the ones ``riichi explain`` uses (``ruledsl.explain``: an item's worth and
condition, a setting's value) and the vocabulary's meanings, so the handout never says a rule another way than
the tools do. With a second rulebook, each line that differs carries a mark taken from the semantic diff
(``ruledsl.rulebook_changes``), and the rules only the other rulebook has are listed.

This module decides what is said; ``engine.sheet.markdown`` and ``engine.sheet.html`` decide how it looks.
"""

from __future__ import annotations

from engine.scoring.score import Scorer
from engine.sheet import payments as P
from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.clause_origin import clause_for_players
from ruledsl.explain import English, describe_item, setting_words, worth
from ruledsl.record import record
from ruledsl.render import render_expr
from ruledsl.resolve import ResolvedItem, ResolvedRulebook
from ruledsl.rulebook_changes import Change, diff


@record
class Row:
    """One rule on the sheet: the rulebook's id for it, its cells in words, its clause, and (with ``--against``)
    how the other rulebook has it."""

    id: str
    cells: tuple[str, ...]
    clause: str
    mark: str | None = None


@record
class Section:
    title: str
    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    intro: str | None = None


@record
class PayTable:
    """One payment table: rows of fu, columns of han; a cell's mark says what the other rulebook pays."""

    title: str
    caption: str
    rows: tuple[tuple[str, tuple[tuple[str, str | None], ...]], ...]  # (fu label, ((cell, mark), ...))


@record
class Sheet:
    name: str
    title: str | None
    source: str | None
    extends: str | None
    players: int
    against: str | None
    hand: tuple[Section, ...]  # the table, scoring, yaku, yakuman, dora, fu
    tables: tuple[PayTable, ...]
    tiers: Section
    flow: tuple[Section, ...]  # payments, calls, riichi, furiten, draws, pao, game end, what is not played


def _default_words(spec: V.SettingSpec | None) -> str:
    """What an unwritten key means: the vocabulary's default, as the rule language would write it."""
    if spec is None:
        return "not set"
    return "not set: off" if spec.default is None else f"not set: the default, {V.default_text(spec)}"


def _clause(rulebook: ResolvedRulebook, key: tuple[str, str], field: str | None = None) -> str:
    """The clause a line cites: the one place every line of the sheet gets its clause from (the clause that last
    set the field, else the item's, marked as inherited where another file wrote it; for a rule this rulebook
    removed, the removal's)."""
    item = rulebook.items.get(key)
    if item is None:
        removal = next((r for r in rulebook.removed if r.key == key), None)
        text = removal.clause if removal is not None else None
    elif field is not None and field not in item.fields:
        return "(not written in this rulebook: the language's default applies)"
    else:  # an inherited clause reads "from BASE: ..." (and a `clauses from` adoption leads it)
        text = clause_for_players(rulebook, key, field) or (item.field_clauses.get(field) if field else None) or item.clause
    return text or "(no clause cited)"


class _Marks:
    """The differences from the other rulebook, looked up by the line they belong to."""

    def __init__(self, rulebook: ResolvedRulebook, other: ResolvedRulebook | None) -> None:
        self.other = other
        self.name = other.name if other is not None else ""
        self.changes: dict[tuple[str, str, str | None], Change] = {}
        if other is None:
            return
        for change in diff(other, rulebook):
            if change.kind == "settings":
                self.changes[("settings", change.group or "", change.name)] = change
            else:
                self.changes[(change.kind, change.name, None)] = change

    def setting(self, group: str, key: str) -> str | None:
        change = self.changes.get(("settings", group, key))
        if change is None or self.other is None:
            return None
        item = self.other.items.get(("settings", group))
        if item is None or key not in item.fields:
            return f"≠ {self.name}: not set"
        return f"≠ {self.name}: {setting_words(item.fields[key].value)}"

    def item(self, key: tuple[str, str]) -> str | None:
        change = self.changes.get((key[0], key[1], None))
        if change is None:
            return None
        if change.change == "added":
            return f"≠ {self.name}: not played"
        if change.change == "removed":
            return f"≠ {self.name}: played"
        said = change.a if isinstance(change.a, dict) else {}
        words = [(f"{f}: " if len(said) > 1 else "") + ("(not set)" if t is None else str(t)) for f, t in said.items()]
        return f"≠ {self.name}: " + "; ".join(words)

    def unset_here(self, group: str) -> list[str]:
        """The keys of a settings group the other rulebook sets and this one leaves to the engine's default."""
        return [c.name for c in self.changes.values() if c.kind == "settings" and c.group == group and c.change == "removed"]

    def only_there(self) -> list[Change]:
        return [c for c in self.changes.values() if c.change == "removed" and c.kind != "settings"]


def _words(item: ResolvedItem) -> str:
    """An item in a sentence, without its title (the row shows the title apart)."""
    text = describe_item(item)
    return text.removeprefix(f"{item.title}: ") if item.title else text


def _kind(item: ResolvedItem) -> str:
    return item.target[0] if item.target is not None else item.kind


def _items(rulebook: ResolvedRulebook, kind: str) -> list[ResolvedItem]:
    return [item for item in rulebook.items.values() if _kind(item) == kind and item.kind != "settings"]


def _title(item: ResolvedItem) -> str:
    return item.title or item.name.replace("_", " ")


def _id(item: ResolvedItem) -> str:
    return f"{item.kind} {item.name}"


def _when(item: ResolvedItem) -> str:
    when = item.fields.get("when")
    return English().condition(when.value) if when is not None else "always"


def _condition(rulebook: ResolvedRulebook, item: ResolvedItem) -> str:
    """When an item applies; an exception's condition narrows its target's, so it reads as the target's too."""
    if item.target is None:
        return _when(item)
    target = rulebook.items.get(item.target)
    named = target.title if target is not None and target.title else item.target[1]
    return f"{named}, and {_when(item)}"


def _han(item: ResolvedItem) -> tuple[str, str]:
    """(closed, open) han as players print them; ``—`` where the yaku needs a closed hand."""
    han = item.fields.get("han")
    if han is None:
        return ("—", "—")
    value = han.value
    if isinstance(value, ast.Int):
        return (str(value.value), str(value.value))
    if isinstance(value, ast.Record):
        closed, opened = value.get("closed"), value.get("open")
        return (render_expr(closed) if closed is not None else "—", render_expr(opened) if opened is not None else "—")
    words = English().noun(value)
    return (words, words)


def _settings_section(rulebook: ResolvedRulebook, marks: _Marks, group: str, title: str) -> Section | None:
    item = rulebook.items.get(("settings", group))
    if item is None:
        return None
    specs = V.SETTINGS.get(group, {})
    rows = tuple(
        Row(
            f"settings {group} {key}",
            (specs[key].meaning if key in specs else key, setting_words(f.value)),
            _clause(rulebook, ("settings", group), key),
            marks.setting(group, key),
        )
        for key, f in item.fields.items()
    )
    rows += tuple(
        Row(f"settings {group} {key}", (specs[key].meaning if key in specs else key, _default_words(specs.get(key))),
            _clause(rulebook, ("settings", group), key), marks.setting(group, key))
        for key in marks.unset_here(group)
    )
    return Section(title, ("rule", "value"), rows)


def _item_section(rulebook: ResolvedRulebook, marks: _Marks, kind: str, title: str, intro: str | None = None) -> Section | None:
    items = _items(rulebook, kind)
    if not items:
        return None
    rows = tuple(Row(_id(i), (_title(i), _words(i)), _clause(rulebook, i.key), marks.item(i.key)) for i in items)
    return Section(title, ("rule", "what it does"), rows, intro)


def _yaku_section(rulebook: ResolvedRulebook, marks: _Marks) -> Section:
    rows = tuple(
        Row(_id(i), (_title(i), *_han(i), _condition(rulebook, i)), _clause(rulebook, i.key), marks.item(i.key))
        for i in _items(rulebook, "yaku")
    )
    return Section("Yaku", ("yaku", "closed", "open", "when"), rows, "han for a closed hand and for an open one; — : closed hands only")


def _yakuman_section(rulebook: ResolvedRulebook, marks: _Marks) -> Section:
    rows = tuple(
        Row(_id(i), (_title(i), worth(i) or "yakuman", _condition(rulebook, i)), _clause(rulebook, i.key), marks.item(i.key))
        for i in _items(rulebook, "yakuman")
    )
    return Section("Yakuman", ("yakuman", "worth", "when"), rows)


def _worth_section(rulebook: ResolvedRulebook, marks: _Marks, kind: str, title: str) -> Section | None:
    items = _items(rulebook, kind)
    if not items:
        return None
    rows = tuple(Row(_id(i), (_title(i), worth(i) or "", _when(i)), _clause(rulebook, i.key), marks.item(i.key)) for i in items)
    return Section(title, ("rule", "worth", "when"), rows)


def _not_played(rulebook: ResolvedRulebook, marks: _Marks) -> Section | None:
    """Rules the chain removed, and (with ``--against``) rules only the other rulebook has."""
    rows = [
        Row(f"{r.key[0]} {r.key[1]}", (_title(r.previous), f"not played (removed from {r.previous.defined_in})"), _clause(rulebook, r.key), marks.item(r.key))
        for r in rulebook.removed
    ]
    removed = {r.key for r in rulebook.removed}
    other = marks.other
    for change in marks.only_there():
        key = (change.kind, change.name)
        if other is None or key in removed or key not in other.items:
            continue
        there = other.items[key]
        words = f"not played here; {marks.name} has it: {_words(there)}"
        rows.append(Row(change.item, (_title(there), words), f"{marks.name}: {_clause(other, key)}", f"≠ {marks.name}: played"))
    return Section("Not played", ("rule", "what it means"), tuple(rows)) if rows else None


# Said above the payment tables: a cell is computed for every han and fu, whether or not a hand can have it.
PAYMENT_NOTE = (
    "What a win of 1 to 4 han pays, by fu, before honba and riichi sticks; from 5 han see the limits. "
    "A cell is what the payment rules give for that han and fu: some cannot occur at the table "
    "(a hand's yaku and fu decide which)."
)

_WIN_TITLES = {
    (False, False): ("Non-dealer ron", "what the discarder pays"),
    (False, True): ("Non-dealer tsumo", "what each non-dealer pays / what the dealer pays"),
    (True, False): ("Dealer ron", "what the discarder pays"),
    (True, True): ("Dealer tsumo", "what each other player pays"),
}


def _tables(scorer: Scorer, other: Scorer | None) -> tuple[PayTable, ...]:
    """The four tables, each cell computed; with another rulebook, a cell it pays differently is marked."""
    mine = P.grid(scorer)
    theirs = P.grid(other) if other is not None else None
    tables = []
    for dealer, tsumo in P.WINS:
        rows = []
        for fu in P.FUS:
            cells = []
            for han in P.HANS:
                paid = mine[(dealer, tsumo, han, fu)]
                text = paid.words(dealer=dealer, tsumo=tsumo) + (f" ({paid.limit})" if paid.limit else "")
                mark = None
                if theirs is not None and other is not None:
                    there = theirs[(dealer, tsumo, han, fu)]
                    if there.payments != paid.payments:
                        mark = f"≠ {other.rulebook.name}: {there.words(dealer=dealer, tsumo=tsumo)}"
                cells.append((text, mark))
            rows.append((f"{fu} fu", tuple(cells)))
        title, caption = _WIN_TITLES[(dealer, tsumo)]
        tables.append(PayTable(title, caption, tuple(rows)))
    return tuple(tables)


def _multiples(rulebook: ResolvedRulebook) -> int:
    """The largest yakuman multiple one item of the rulebook is worth (exceptions included)."""
    found = 1
    for item in _items(rulebook, "yakuman"):
        multiplier = item.fields.get("multiplier")
        if multiplier is not None and isinstance(multiplier.value, ast.Int):
            found = max(found, multiplier.value.value)
    return found


def _tiers(scorer: Scorer, rulebook: ResolvedRulebook, marks: _Marks, other: Scorer | None) -> Section:
    """One row per limit tier: what reaches it (the limit items' conditions) and what each win pays."""
    limits = _items(rulebook, "limit")
    theirs = {t.name: t for t in P.tiers(other, _multiples(other.rulebook.resolved))} if other is not None else {}
    rows = []
    for tier in P.tiers(scorer, _multiples(rulebook)):
        reaching = [i for i in limits if _tier_name(i) == tier.name]
        when = "; ".join(_when(i) for i in reaching) or "a yakuman hand worth this multiple"
        if not reaching:  # a yakuman multiple: paid by the limits whose base counts the yakuman
            reaching = [i for i in limits if "base" in i.fields and "yakuman" in render_expr(i.fields["base"].value)]
        pays = tuple(tier.at(d, t).words(dealer=d, tsumo=t) for d, t in P.WINS)
        clause = " / ".join(_clause(rulebook, i.key) for i in reaching) or "(no clause cited)"
        there = theirs.get(tier.name)
        said = []
        if other is not None and (there is None or there.paid != tier.paid):
            paid = "no such tier" if there is None else ", ".join(there.at(d, t).words(dealer=d, tsumo=t) for d, t in P.WINS)
            said.append(f"≠ {other.rulebook.name}: {paid}")
        for item in reaching:  # an item reaching the tier differs (a limit the other rulebook lacks, say)
            item_mark = marks.item(item.key)
            if item_mark:
                said.append(f"{_id(item)} {item_mark}" if len(reaching) > 1 else item_mark)
        mark = "; ".join(said) or None
        rows.append(Row(", ".join(_id(i) for i in reaching), (tier.name, when, f"{tier.base:,}", *pays), clause, mark))
    headers = ("limit", "reached when", "base points", *(_WIN_TITLES[w][0] for w in P.WINS))
    return Section("Limits", headers, tuple(rows), "from 5 han on a hand is paid by these limits, whatever its fu")


def _tier_name(item: ResolvedItem) -> str:
    tier = item.fields.get("tier")
    if tier is not None and isinstance(tier.value, ast.Str):
        return tier.value.value
    return item.name


# (settings group, section title), in the order of a hand at the table
_FLOW_SETTINGS = (
    ("calls", "Calls"),
    ("riichi", "Riichi"),
    ("furiten", "Furiten"),
    ("tenpai", "Tenpai"),
    ("win", "Several winners"),
    ("game", "Dealer, honba and the end of the game"),
)


def build(scorer: Scorer, other: Scorer | None = None) -> Sheet:
    """The whole handout of ``scorer``'s rulebook; with ``other``, every difference from it marked."""
    rulebook = scorer.rulebook.resolved
    marks = _Marks(rulebook, other.rulebook.resolved if other is not None else None)
    hand: list[Section | None] = [
        _settings_section(rulebook, marks, "table", "The table"),
        _settings_section(rulebook, marks, "scoring", "Scoring"),
        _yaku_section(rulebook, marks),
        _yakuman_section(rulebook, marks),
        _worth_section(rulebook, marks, "bonus", "Dora and other bonus han"),
        _worth_section(rulebook, marks, "fu", "Fu"),
    ]
    flow: list[Section | None] = [_worth_section(rulebook, marks, "payment", "Payments")]
    flow += [_settings_section(rulebook, marks, group, title) for group, title in _FLOW_SETTINGS]
    flow += [
        _item_section(rulebook, marks, "draw", "Exhaustive draw"),
        _item_section(rulebook, marks, "abortive_draw", "Abortive draws"),
        _item_section(rulebook, marks, "liability", "Liability (pao)"),
        _not_played(rulebook, marks),
    ]
    return Sheet(
        name=rulebook.name,
        title=rulebook.title,
        source=rulebook.source,
        extends=rulebook.extends,
        players=scorer.prepared.players,
        against=other.rulebook.name if other is not None else None,
        hand=tuple(s for s in hand if s is not None),
        flow=tuple(s for s in flow if s is not None),
        tables=_tables(scorer, other),
        tiers=_tiers(scorer, rulebook, marks, other),
    )


__all__ = ["PAYMENT_NOTE", "PayTable", "Row", "Section", "Sheet", "build"]
