"""Loading a rulebook with its ``extends`` chain and folding it into one table of items.

A variant only says what differs: ``override`` changes fields of an inherited item, ``remove`` drops one,
``exception ... to`` refines one, and new items are added. ``examples for KIND NAME`` adds examples to an item
and changes nothing else: it is recorded apart from the item's history, so that a variant that only illustrates
an inherited rule is never reported as changing it. Redefining an inherited item without ``override``,
overriding or removing something that does not exist, and cycles are errors: a variant must say what it means.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from ruledsl import ast
from ruledsl.diagnostics import Diagnostic, Reporter, RulebookError, did_you_mean, printable
from ruledsl.package_files import bundled_dir
from ruledsl.parser import normalise, parse
from ruledsl.record import field, record
from ruledsl.rulebook_files import (  # the bundled rulebooks' names and files, re-exported where they were always imported
    RULEBOOK_SUFFIX,
    UnreadableRulebook,
    bundled_names,
    read_rulebook_file,
)
from ruledsl.rulebook_files import (
    UnknownRulebookError as UnknownRulebookError,
)
from ruledsl.rulebook_files import (
    is_bundled_name as is_bundled_name,
)
from ruledsl.rulebook_files import (
    read_bundled as read_bundled,
)
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path  # only for rulebooks named by path: ``pathlib`` costs start-up (package_files)
    from typing import NoReturn

MAX_CHAIN = 16
MAX_ERRORS = 200  # errors reported for one rulebook; the rest are not looked for


@record(slots=False)
class Provenance:
    """Which file of the chain did what to an item, with the clause it cited."""

    rulebook: str
    action: str  # define, override, exception
    clause: str | None
    span: ast.Span


@record(frozen=False, slots=False)
class ResolvedItem:
    kind: str
    name: str
    title: str | None
    fields: dict[str, ast.Field]
    examples: list[tuple[ast.Example, str]]  # (example, rulebook that wrote it)
    clause: str | None
    target: tuple[str, str] | None  # exceptions: the (kind, name) they refine
    history: list[Provenance] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    definition: ast.Item | None = None  # the item as first written, for the spans of its kind, name and target
    field_clauses: dict[str, str | None] = field(default_factory=dict)  # the clause that last set each field
    # the ``examples for`` blocks that added cases, in chain order; not in ``history``, which lists field changes
    example_blocks: list[Provenance] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.name)

    @property
    def defined_in(self) -> str:
        return self.history[0].rulebook

    @property
    def span(self) -> ast.Span:
        return self.history[-1].span


@record(frozen=False, slots=False)
class Removal:
    key: tuple[str, str]
    rulebook: str
    clause: str | None
    span: ast.Span
    previous: ResolvedItem


@record(frozen=False, slots=False)
class ResolvedRulebook:
    name: str
    title: str | None
    source: str | None
    chain: list[ast.Rulebook]
    items: dict[tuple[str, str], ResolvedItem]
    removed: list[Removal]
    texts: dict[str, str]
    warnings: list[Diagnostic] = field(default_factory=list)
    # errors of the fold, kept only by ``resolve(..., keep_going=True)``: the checker then reports them with its
    # own findings, so that an organiser sees every independent mistake of a file in one run
    errors: list[Diagnostic] = field(default_factory=list)

    @property
    def extends(self) -> str | None:
        return self.chain[-1].extends

    def of_kind(self, kind: str) -> list[ResolvedItem]:
        return [item for item in self.items.values() if item.kind == kind]


class _Diagnostics:
    """Collects diagnostics across the files of a chain, each with its own source line."""

    def __init__(self) -> None:
        self.reporters: dict[str, Reporter] = {}
        self.items: list[Diagnostic] = []
        self.errors = 0

    def add_file(self, file: str, text: str) -> None:
        self.reporters[file] = Reporter(file, text)

    def error(self, message: str, span: ast.Span, help: str | None = None, settings: tuple[str, ...] = ()) -> None:
        self._add("error", message, span, help, settings)

    def warning(self, message: str, span: ast.Span, help: str | None = None) -> None:
        self._add("warning", message, span, help)

    def _add(self, severity: str, message: str, span: ast.Span, help: str | None, settings: tuple[str, ...] = ()) -> None:
        if self.full:
            return
        if severity == "error":
            self.errors += 1
            if self.full:
                message, help, settings = f"too many errors: stopped after {MAX_ERRORS}", "fix these first, then check again", ()
        reporter = self.reporters.get(span.file)
        line = reporter.line(span.line) if reporter else None
        self.items.append(Diagnostic(severity, message, span, help, line, settings))

    @property
    def full(self) -> bool:
        """Past ``MAX_ERRORS``: the loops over items stop, so that a file of thousands of mistakes (each asking for
        a did-you-mean among thousands of names) is still checked in bounded time."""
        return self.errors >= MAX_ERRORS

    @property
    def has_errors(self) -> bool:
        return self.errors > 0 or any(d.is_error for d in self.items)


def item_kind(item: ResolvedItem, rulebook: ResolvedRulebook) -> str:
    """The kind whose fields an item uses: its own, or for an exception its target's."""
    if item.target is not None:
        return item.target[0]
    return item.kind


def _locate(ref: str, base_dir: Path | None, extended: bool = False) -> tuple[str, str, Path | None]:
    """Find a rulebook by bundled name or path; returns (display file name, text, folder of its siblings).

    The folder is None for a bundled rulebook: what a bundled rulebook extends is bundled too. Every file is
    read through ``ruledsl.rulebook_files``, whose policy (regular files, real paths, the allowed folders, and
    for a file named by an ``extends`` a real name ending in ``.rulebook``) holds at each read.
    """
    looks_like_path = ref.endswith(RULEBOOK_SUFFIX) or "/" in ref or "\\" in ref
    if looks_like_path:
        if extended and not ref.endswith(RULEBOOK_SUFFIX):
            raise FileNotFoundError(ref)
        from pathlib import Path

        path = Path(ref)
        if not path.is_absolute() and base_dir is not None and not path.exists():
            path = base_dir / path
        return str(path), read_rulebook_file(path, extended=extended), path.parent
    if base_dir is not None:
        sibling = base_dir / f"{ref}{RULEBOOK_SUFFIX}"
        if os.path.lexists(sibling):  # a link counts, even a broken one: the read below says why it is refused
            return str(sibling), read_rulebook_file(sibling, extended=True), base_dir
    entry = os.path.join(bundled_dir(), f"{ref}{RULEBOOK_SUFFIX}")
    if not os.path.isfile(entry):
        raise FileNotFoundError(ref)
    return f"rulebooks/{ref}{RULEBOOK_SUFFIX}", read_rulebook_file(entry), None


def _identity(display: str, folder: Path | None) -> str:
    """One key per file, however its path was spelled, so that an `extends` cycle is always noticed."""
    if folder is None:
        return f"bundled:{display}"
    return os.path.normcase(os.path.abspath(display))


def load_chain(ref: str, text: str | None = None, file: str | None = None) -> tuple[list[ast.Rulebook], dict[str, str]]:
    """Parse a rulebook and every rulebook it extends, base first."""
    chain: list[ast.Rulebook] = []
    texts: dict[str, str] = {}
    seen: list[str] = []
    base_dir: Path | None = None
    current_ref: str | None = ref
    referrer: ast.Rulebook | None = None
    while current_ref is not None:
        if text is not None and not chain:
            from pathlib import Path

            display, source = file or ref, normalise(text)
            folder: Path | None = Path(display).parent
        else:
            try:
                display, source, folder = _locate(current_ref, base_dir, extended=referrer is not None)
            except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError, OSError) as exc:
                if referrer is None:
                    raise UnknownRulebookError(current_ref, str(exc) if isinstance(exc, UnreadableRulebook) else None) from None
                _refuse_extends(referrer, texts, current_ref, exc)
        identity = _identity(display, folder)
        if identity in seen:
            assert referrer is not None
            cycle = " -> ".join([*(rb.name for rb in chain), chain[0].name if chain else current_ref])
            _raise_at(referrer, texts, f"`extends` cycle: {cycle}", referrer.extends_span, "a rulebook cannot extend itself, directly or through others")
        if len(seen) >= MAX_CHAIN:
            assert referrer is not None
            _raise_at(referrer, texts, f"`extends` chain longer than {MAX_CHAIN}", referrer.extends_span, None)
        seen.append(identity)
        texts[display] = source
        try:
            rulebook = parse(source, display)
        except RulebookError as exc:
            raise RulebookError(_explain_hyphens(exc.diagnostics, source)) from None
        chain.append(rulebook)
        base_dir = folder
        referrer = rulebook
        current_ref = rulebook.extends
    chain.reverse()
    return chain, texts


def _refuse_extends(referrer: ast.Rulebook, texts: dict[str, str], ref: str, exc: Exception) -> NoReturn:
    """An ``extends`` whose file is missing, or may not be read (``ruledsl.rulebook_files`` says why)."""
    reason = str(exc)
    if isinstance(exc, UnreadableRulebook) and not reason.startswith("no such file"):
        message = f"`{referrer.name}` extends `{ref}`, which may not be read: {reason}"
        help_text = "a rulebook may extend a bundled rulebook or a `.rulebook` file of an allowed folder"
    else:
        message = f"`{referrer.name}` extends `{ref}`, which cannot be found"
        help_text = did_you_mean(ref, bundled_names()) or f"bundled rulebooks: {', '.join(bundled_names())}"
    _raise_at(referrer, texts, message, referrer.extends_span, help_text)


# `extends` followed by a name with a hyphen: the language's names are letters, digits and `_`, so the parser
# stops at the hyphen; the message it gives ("unexpected `-`") does not tell an organiser what to do.
_HYPHENATED_EXTENDS = re.compile(r"\bextends\s+([A-Za-z0-9_]+(?:-[A-Za-z0-9_-]*)+)")


def _explain_hyphens(diagnostics: Iterable[Diagnostic], source: str) -> list[Diagnostic]:
    """Parse errors, with the one caused by a hyphenated ``extends`` name said in words an organiser can act on.

    A hyphenated file cannot be extended: a rulebook name is a name of the language (letters, digits, ``_``), the
    same everywhere it appears, and `extends` finds the file by that name. The fix is to rename the file.
    """
    lines = source.split("\n")
    explained: list[Diagnostic] = []
    for d in diagnostics:
        line = lines[d.span.line - 1] if 1 <= d.span.line <= len(lines) else ""
        match = _HYPHENATED_EXTENDS.search(line)
        if d.is_error and match is not None and match.start(1) < d.span.column - 1 < match.end(1):
            written = match.group(1)
            fixed = re.sub(r"[^A-Za-z0-9_]", "_", written)
            start, end = match.start(1) + 1, match.end(1) + 1
            d = Diagnostic(
                "error",
                f"`extends {printable(written)}`: a rulebook name cannot contain `-`, so a file named "
                f"`{printable(written)}{RULEBOOK_SUFFIX}` cannot be extended",
                ast.Span(d.span.file, d.span.line, start, d.span.line, end),
                f"rename the file `{printable(fixed)}{RULEBOOK_SUFFIX}`, name it `rulebook {printable(fixed)}` inside, "
                f"and write `extends {printable(fixed)}` (names are letters, digits and `_`)",
                d.source_line,
            )
        explained.append(d)
    return explained


def _raise_at(rulebook: ast.Rulebook, texts: dict[str, str], message: str, span: ast.Span, help: str | None) -> NoReturn:
    diags = _Diagnostics()
    for file, text in texts.items():
        diags.add_file(file, text)
    diags.error(message, span, help)
    raise RulebookError(diags.items)


def resolve(ref: str, text: str | None = None, file: str | None = None, *, keep_going: bool = False) -> ResolvedRulebook:
    """Load and fold a rulebook chain; raises ``RulebookError`` with every structural problem found.

    With ``keep_going`` (``riichi check``), problems of the fold (a duplicate, an override of nothing, an
    exception to a missing item) do not raise: the items they concern are left out, the rest is folded, and the
    errors travel in ``errors`` so that the checker can add the findings that do not depend on them. A file that
    cannot be read or parsed, or an ``extends`` chain that cannot be loaded, still raises: nothing is independent
    of those.
    """
    chain, texts = load_chain(ref, text, file)
    return fold(chain, texts, keep_going=keep_going)


def parent_of(rulebook: ResolvedRulebook) -> ResolvedRulebook | None:
    """The rulebook a file extends, folded from the chain already loaded (no file read again); None for a file
    that extends nothing. ``riichi check`` compares a file with it: what this file alone changes."""
    if len(rulebook.chain) < 2:
        return None
    return fold(rulebook.chain[:-1], rulebook.texts, keep_going=True)


def fold(chain: list[ast.Rulebook], texts: dict[str, str], *, keep_going: bool = False) -> ResolvedRulebook:
    """Fold a loaded chain (base first) into one table of items; see ``resolve``."""
    diags = _Diagnostics()
    for f, t in texts.items():
        diags.add_file(f, t)
    items: dict[tuple[str, str], ResolvedItem] = {}
    removed: list[Removal] = []
    for rulebook in chain:
        _apply(rulebook, items, removed, diags)
    _check_exception_targets(items, removed, diags)
    errors: list[Diagnostic] = []
    if diags.has_errors:
        if not keep_going:
            raise RulebookError(diags.items)
        errors = [d for d in diags.items if d.is_error]
        # an exception whose target is missing would be checked against nothing: leave it out
        for key in [k for k, item in items.items() if item.target is not None and item.target not in items]:
            del items[key]
    leaf = chain[-1]
    return ResolvedRulebook(
        name=leaf.name,
        title=leaf.title,
        source=leaf.source,
        chain=chain,
        items=items,
        removed=removed,
        texts=texts,
        warnings=[d for d in diags.items if not d.is_error],
        errors=errors,
    )


def _apply(
    rulebook: ast.Rulebook,
    items: dict[tuple[str, str], ResolvedItem],
    removed: list[Removal],
    diags: _Diagnostics,
) -> None:
    seen_here: dict[tuple[str, str], ast.Item] = {}
    blocks: list[ast.Item] = []
    for item in rulebook.items:
        if diags.full:
            return
        key = item.key
        if item.action == "examples":  # after the file's other items: where a block is written does not matter
            blocks.append(item)
            continue
        if item.action in ("define", "exception"):
            target = None  # an exception's (kind, name), which the grammar requires
            if item.action == "exception" and item.target_kind is not None and item.target_name is not None:
                target = (item.target_kind, item.target_name)
            if key in seen_here:
                diags.error(
                    f"duplicate item `{item.kind} {item.name}`",
                    item.name_span,
                    f"it is already defined at line {seen_here[key].name_span.line}; merge the two",
                )
                continue
            if key in items:
                diags.error(
                    f"`{item.kind} {item.name}` is already defined by `{items[key].defined_in}`",
                    item.name_span,
                    f"write `override {item.kind} {item.name} {{ ... }}` to change it, or `remove {item.kind} {item.name}`",
                )
                continue
            seen_here[key] = item
            resolved = ResolvedItem(
                kind=item.kind,
                name=item.name,
                title=item.title,
                fields={f.name: f for f in item.fields},
                examples=[(ex, rulebook.name) for ex in item.examples],
                clause=item.clause,
                target=target,
                definition=item,
            )
            resolved.history.append(Provenance(rulebook.name, item.action, item.clause, item.span))
            resolved.field_clauses = {f.name: item.clause for f in item.fields}
            _duplicate_fields(item, diags)
            items[key] = resolved
        elif item.action == "override":
            existing = items.get(key)
            if existing is None:
                diags.error(
                    f"`override {item.kind} {item.name}`: no such item to override",
                    item.name_span,
                    _missing_help(item, items),
                )
                continue
            _duplicate_fields(item, diags)
            for f in item.fields:
                existing.fields[f.name] = f
                existing.field_clauses[f.name] = item.clause or existing.clause
            existing.examples.extend((ex, rulebook.name) for ex in item.examples)
            if item.clause:
                existing.clause = item.clause
            existing.history.append(Provenance(rulebook.name, "override", item.clause, item.span))
        elif item.action == "remove":
            existing = items.pop(key, None)
            if existing is None:
                diags.error(
                    f"`remove {item.kind} {item.name}`: no such item to remove",
                    item.name_span,
                    _missing_help(item, items, removed),
                )
                continue
            removed.append(Removal(key, rulebook.name, item.clause, item.span, existing))
    for block in blocks:
        if diags.full:
            return
        _add_examples(rulebook, block, items, removed, diags)


def _add_examples(
    rulebook: ast.Rulebook,
    block: ast.Item,
    items: dict[tuple[str, str], ResolvedItem],
    removed: Iterable[Removal],
    diags: _Diagnostics,
) -> None:
    """Append an ``examples for`` block's cases to the item of its key; its fields, title, clause and history
    stay as they are (the block's own clause is kept with the block, for `riichi explain`)."""
    existing = items.get(block.key)
    if existing is None:
        gone = next((r for r in removed if r.key == block.key), None)
        help_text = (
            f"it was removed by `{gone.rulebook}` at line {gone.span.line}; its examples went with it"
            if gone is not None
            else _missing_help(block, items, removed)
        )
        diags.error(f"`examples for {block.kind} {block.name}`: no such item", block.name_span, help_text)
        return
    if not block.examples:
        diags.warning(
            f"`examples for {block.kind} {block.name}` adds no example",
            block.name_span,
            'write `example "HAND AND SITUATION" => {key: value}` lines inside it, or delete it',
        )
        return
    existing.examples.extend((ex, rulebook.name) for ex in block.examples)
    existing.example_blocks.append(Provenance(rulebook.name, "examples", block.clause, block.span))


def _duplicate_fields(item: ast.Item, diags: _Diagnostics) -> None:
    seen: dict[str, ast.Field] = {}
    for f in item.fields:
        if f.name in seen:
            diags.error(
                f"field `{f.name}` is set twice in `{item.kind} {item.name}`",
                f.span,
                f"the first is at line {seen[f.name].span.line}; keep one",
            )
        seen[f.name] = f


def _missing_help(
    item: ast.Item, items: dict[tuple[str, str], ResolvedItem], removed: Iterable[Removal] = ()
) -> str:
    same_kind = [name for (kind, name) in items if kind == item.kind]
    hint = did_you_mean(item.name, same_kind)
    if hint:
        return hint
    other_kinds = [kind for (kind, name) in items if name == item.name]
    if other_kinds:
        return f"`{item.name}` is a `{other_kinds[0]}`, not a `{item.kind}`"
    gone = next((r for r in removed if r.key == item.key), None)
    if gone is not None:
        return f"it was already removed by `{gone.rulebook}` at line {gone.span.line}"
    if item.action == "remove":
        if not same_kind:
            return f"there is no `{item.kind}` item to remove"
        shown = ", ".join(f"`{n}`" for n in sorted(same_kind)[:6]) + (", ..." if len(same_kind) > 6 else "")
        return f"`{item.kind}` items that can be removed: {shown}"
    if item.action == "examples":
        return f"examples can be added only to an item this file or a file it extends defines; no `{item.kind}` has that name"
    return f"no inherited `{item.kind}` has that name; define it without `override`"


def _check_exception_targets(
    items: dict[tuple[str, str], ResolvedItem], removed: Iterable[Removal], diags: _Diagnostics
) -> None:
    removed_keys = {r.key for r in removed}
    for item in items.values():
        if item.target is None:
            continue
        if item.target not in items:
            tkind, tname = item.target
            if item.target in removed_keys:
                msg = f"exception `{item.name}` refines `{tkind} {tname}`, which was removed"
                help_text = f"remove the exception too: `remove exception {item.name}`"
            else:
                msg = f"exception `{item.name}` refines `{tkind} {tname}`, which does not exist"
                help_text = did_you_mean(tname, [n for (k, n) in items if k == tkind]) or "check the target's kind and name"
            span = item.definition.target_span if item.definition is not None else item.history[0].span
            diags.error(msg, span if span != ast.NO_SPAN else item.history[0].span, help_text)
