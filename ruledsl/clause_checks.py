"""`riichi check`'s findings about inherited clauses: ``clauses from`` statements, and clauses that contradict.

A variant inherits its base's clauses, written for the base: a limit's clause saying "no such rounding on this site"
stays on the limit of a club file that adds the rounding. The checker cannot read a clause's meaning, but it can see
which rules a clause names: the ids of items and the compound keys of settings, written as ids (``some_key``) or as
words (``some key``), and the first word of an id that no other name of the rulebook starts with (``word`` for
``word_limit``); an id that is itself a word of the language's own descriptions (the name of a common yaku or bonus)
is said by too many clauses to be matched. When an inherited clause names a rule the checked file adds, changes or removes, players may
read a clause that no longer holds: a warning points at the change and names the clause's own place.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.caches import once
from ruledsl.clause_origin import clause_origin
from ruledsl.diagnostics import did_you_mean
from ruledsl.memo import Memo
from ruledsl.record import fields, is_record
from ruledsl.resolve import ResolvedItem, ResolvedRulebook, _Diagnostics

MIN_DISTINCT_PREFIX = 5  # a shorter first word of an id (`aka`, `ura`) names too little to be matched alone


def check_clauses(rulebook: ResolvedRulebook, diags: _Diagnostics) -> None:
    """Both checks, for the last file of the chain (the files it extends were checked as themselves)."""
    if not rulebook.chain or rulebook.chain[-1].extends is None:
        return
    check_adoptions(rulebook, diags)
    check_inherited_clauses(rulebook, diags)


# ---- clauses from NAME = "..." --------------------------------------------------------------------------------------


def check_adoptions(rulebook: ResolvedRulebook, diags: _Diagnostics) -> None:
    """Each statement names a rulebook this file extends, once, and adopts at least one clause."""
    leaf = rulebook.chain[-1]
    ancestors = [book.name for book in rulebook.chain[:-1]]
    seen: dict[str, ast.Adoption] = {}
    for adoption in leaf.adoptions:
        name = adoption.rulebook
        if name not in ancestors:
            own = name == leaf.name
            diags.error(
                f"`clauses from {name}`: `{leaf.name}` {'is this file' if own else f'does not extend `{name}`'}",
                adoption.rulebook_span,
                "a file's own clauses need no adopting"
                if own
                else did_you_mean(name, ancestors) or f"name a rulebook this file extends: {', '.join(reversed(ancestors))}",
            )
            continue
        if name in seen:
            diags.error(
                f"`clauses from {name}` is written twice",
                adoption.rulebook_span,
                f"the first is at line {seen[name].span.line}; keep one",
            )
            continue
        seen[name] = adoption
        if not _adopts_any(rulebook, adoption):
            diags.warning(
                f"`clauses from {name}` adopts no clause: every item inherited from `{name}` cites this file's own clause",
                adoption.rulebook_span,
                "delete the line",
            )


def _adopts_any(rulebook: ResolvedRulebook, adoption: ast.Adoption) -> bool:
    for key in rulebook.items:
        origin = clause_origin(rulebook, key)
        if origin is not None and origin.adopted_by == rulebook.name and origin.adopted_as == adoption.words:
            return True
    return False


# ---- inherited clauses that name a changed rule ---------------------------------------------------------------------


def _changes(rulebook: ResolvedRulebook) -> list[tuple[str, bool, str, ast.Span]]:
    """(name, whether it is an item, what the file did, where) for each item id and settings key the last file
    adds, changes or removes."""
    found: list[tuple[str, bool, str, ast.Span]] = []
    for item in rulebook.chain[-1].items:
        action = item.action
        if action == "examples":
            continue
        if item.kind == "settings":  # a one-word key (`players`, `tiles`) is a common word of every clause
            found.extend((f.name, False, "sets", f.span) for f in item.fields if "_" in f.name)
            continue
        if action == "override" and not item.fields:
            continue
        if not _took_effect(rulebook, item):  # a redefinition or an override of nothing: an error says so
            continue
        found.append((item.name, True, _VERBS.get(action, "changes"), item.name_span))
        if action == "exception" and item.target_name is not None:
            found.append((item.target_name, True, "changes", item.name_span))
    return found


_VERBS = {"define": "adds", "exception": "adds", "remove": "removes"}  # what an item's action does to its rule


# a quoted title of the source ('Counting the bonuses') names a page, not a rule of the item
QUOTED_TITLE = re.compile(r"(?<![A-Za-z])'[^']*'(?![A-Za-z])")


def _rule_words(clause: str) -> str:
    """The clause without the quoted titles of the pages it cites."""
    return QUOTED_TITLE.sub(" ", clause)


def _took_effect(rulebook: ResolvedRulebook, item: ast.Item) -> bool:
    span = item.span
    if item.action == "remove":
        return any(r.key == item.key and r.span == span for r in rulebook.removed)
    found = rulebook.items.get(item.key)
    if found is None:
        return False
    name = rulebook.name
    for p in found.history:  # (a loop, not a generator: a big file asks this of thousands of items)
        if p.span == span and p.rulebook == name:
            return True
    return False


def _every_name(rulebook: ResolvedRulebook) -> list[str]:
    names = [name for (_kind, name) in rulebook.items] + [r.key[1] for r in rulebook.removed]
    names += [key for item in rulebook.of_kind("settings") for key in item.fields]
    return names


@once
def _common_words() -> frozenset[str]:
    """The words the language's own descriptions use (``ruledsl.vocabulary``): a first word of an id among them
    (an English word such as `rounded` or `double`) is too common to name one rule."""
    texts: list[str] = []
    stack: list[tuple[Any, int]] = [(value, 0) for value in vars(V).values()]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            texts.append(value)
        elif depth < 4 and isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif depth < 4 and isinstance(value, (tuple, list, frozenset, set)):
            stack.extend((v, depth + 1) for v in value)
        elif depth < 4 and is_record(value) and not isinstance(value, type):
            stack.extend((getattr(value, f.name, None), depth + 1) for f in fields(value))
    # the words of every text at once: a line end between two texts parts their words as the texts did
    return frozenset(word.lower() for word in re.findall(r"[A-Za-z]+", "\n".join(texts)))


MAX_ID_WORDS = 5  # the longest id, in words, a clause is searched for


def _spellings(name: str, item: bool, first_words: Counter[str], common: frozenset[str]) -> tuple[str, ...]:
    """How a clause may name ``name``, lowercased, words joined by `_`: the id itself (written as the id, or in
    words, or with hyphens), and for an item a distinctive first word (item ids are the game's own terms; settings
    keys are English, whose first words are common). ``common``: ``_common_words()``."""
    lowered = name.lower()
    if lowered in common:  # a common yaku's or bonus's name: every other clause says it
        return ()
    first = lowered.split("_")[0]
    if item and first != lowered and len(first) >= MIN_DISTINCT_PREFIX and first not in common:
        if first_words[first] == 1:
            return (lowered, first)
    return (lowered,)


def _word_runs(text: str) -> dict[str, str]:
    """Every run of one to ``MAX_ID_WORDS`` consecutive words of a text, lowercased and joined by `_`, with the
    text as written: a name is looked up here instead of searched for, so that checking stays linear."""
    found = [(m.group(0).lower(), m.start(), m.end()) for m in _WORD.finditer(text)]
    runs: dict[str, str] = {}
    for i, (run, start, end) in enumerate(found):
        runs.setdefault(run, text[start:end])
        for word, _start, end in found[i + 1 : i + MAX_ID_WORDS]:  # each longer run is the one before and a word
            run = f"{run}_{word}"
            runs.setdefault(run, text[start:end])
    return runs


_WORD = re.compile(r"[A-Za-z0-9]+")


# a clause's word runs, by its text: a diff checks the same inherited clauses once per change
_CLAUSE_RUNS: Memo[str, dict[str, str]] = Memo(lambda clause: _word_runs(_rule_words(clause)), 2048)


def check_inherited_clauses(rulebook: ResolvedRulebook, diags: _Diagnostics) -> None:
    """Warn, once per inherited item, when its clause names a rule this file adds, changes or removes."""
    changes = _changes(rulebook)
    if not changes:
        return
    first_words = Counter(name.lower().split("_")[0] for name in set(_every_name(rulebook)))
    common = _common_words()
    matchers = [(name, verb, span, _spellings(name, is_item, first_words, common)) for name, is_item, verb, span in changes]
    # which matchers each spelling belongs to, so that a clause is looked up by its own word runs (a few) rather
    # than against every change of a big file; the matchers found are then taken in their order, as before
    by_spelling: dict[str, set[int]] = {}
    for position, (_name, _verb, _span, spellings) in enumerate(matchers):
        for spelling in spellings:
            by_spelling.setdefault(spelling, set()).add(position)
    written_before = _written_before(rulebook)
    for key, item in rulebook.items.items():
        if key not in written_before:  # its clause was written by this file, or it cites none: not inherited
            continue
        origin = clause_origin(rulebook, key)
        if origin is None or not origin.inherited or origin.clause is None:
            continue
        runs = _CLAUSE_RUNS[origin.clause]
        hits = sorted({position for run in runs for position in by_spelling.get(run, ())})
        named = []
        for position in hits:
            name, verb, span, spellings = matchers[position]
            said = next(runs[s] for s in spellings if s in runs)
            named.append((said, name, verb, span))
        if named:
            _warn(item, origin.written_by or "", origin.clause, named, diags)


def _written_before(rulebook: ResolvedRulebook) -> set[tuple[str, str]]:
    """The keys of the items a file of the chain named otherwise than the last defines, refines or overrides: the
    only items whose clause can be inherited. ``clause_origin`` takes an item's clause and writer from the last
    such statement of the chain that writes one (``ruledsl.clause_origin._writer``); an item none of those files
    writes has its writer named as the last file, or none, so its clause is not inherited, and a big file's own
    thousands of items are not asked about."""
    shown = rulebook.name
    return {
        written.key
        for book in rulebook.chain
        if book.name != shown
        for written in book.items
        if written.action in ("define", "exception", "override")
    }


def _warn(
    item: ResolvedItem, writer: str, clause: str, named: list[tuple[str, str, str, ast.Span]], diags: _Diagnostics
) -> None:
    """One warning at the first change the clause names; the others are listed by line."""
    written_at = next((p.span for p in reversed(item.history) if p.rulebook == writer and p.clause == clause), item.span)
    words, name, verb, span = named[0]
    also = "".join(f"; it also names `{w}` ({v} at line {s.line})" for w, _n, v, s in named[1:4])
    head = "exception" if item.target is not None else item.kind
    diags.warning(
        f"`{head} {item.name}` shows players the clause `{writer}` wrote ({written_at}), which says `{words}`; "
        f"this file {verb} `{name}` here{also}",
        span,
        f'if that clause no longer holds, re-attribute it: `@clause("this file\'s rule") override {head} {item.name} {{}}`; '
        f'`clauses from {writer} = "..."` adopts inherited clauses in bulk but keeps their text',
    )


__all__ = ["check_adoptions", "check_clauses", "check_inherited_clauses"]
