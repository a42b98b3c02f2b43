"""Checking a rulebook: every diagnostic of a file, its ``example`` lines scored, and the flow rules another rule
keeps from ever acting (``engine.diff.shadowing``).

``riichi check`` prints these reports, the web server's worker returns them as JSON, and the language server
underlines them: all three call this module, so that a file gets the same verdict wherever it is checked, and no
front end imports another.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from engine.core.errors import EngineError
from engine.scoring.example_runner import ExampleOutcome, run_example, run_examples
from ruledsl import ast
from ruledsl.check import check
from ruledsl.compile import compile_rulebook, compile_settings
from ruledsl.diagnostics import Diagnostic, RulebookError, did_you_mean
from ruledsl.parser import MAX_SOURCE_BYTES
from ruledsl.record import field, record
from ruledsl.resolve import (
    RULEBOOK_SUFFIX,
    ResolvedRulebook,
    UnknownRulebookError,
    bundled_names,
    resolve,
)
from ruledsl.rulebook_files import UnreadableRulebook, allowed_folders, read_bytes
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.services.impossible_guard import WholeScorer


class Unreadable(Exception):
    """The file could not be read as text: missing, a directory, or not UTF-8."""


@record(frozen=False, slots=False)
class FileReport:
    """What checking one file found."""

    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    items: int = 0
    examples_run: int = 0
    examples_failed: int = 0
    unreadable: str | None = None

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if not d.is_error)

    @property
    def ok(self) -> bool:
        return self.unreadable is None and self.errors == 0

    def summary(self) -> str:
        if self.unreadable is not None:
            return f"{self.file}: unreadable"
        if self.ok:
            details = [f"{self.items} item{_s(self.items)}"]
            if self.examples_run:
                details.append(f"{self.examples_run} example{_s(self.examples_run)} passed")
            if self.warnings:
                details.append(f"{self.warnings} warning{_s(self.warnings)}")
            return f"{self.file}: ok ({', '.join(details)})"
        parts = [f"{self.errors} error{_s(self.errors)}"]
        if self.warnings:
            parts.append(f"{self.warnings} warning{_s(self.warnings)}")
        return f"{self.file}: {', '.join(parts)}"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "file": self.file,
            "ok": self.ok,
            "errors": self.errors,
            "warnings": self.warnings,
            "items": self.items,
            "examples": {"run": self.examples_run, "failed": self.examples_failed},
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
        if self.unreadable is not None:
            data["unreadable"] = self.unreadable
        return data


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def read_target(target: str) -> tuple[str, str | None]:
    """(display name, text) for a path, or (name, None) for a bundled rulebook; ``Unreadable`` otherwise."""
    path = Path(target)
    try:
        exists, is_dir = path.exists(), path.is_dir()
    except OSError:  # a name the system refuses (too long, say): reading it below says why
        exists = is_dir = False
    if exists or target.endswith(RULEBOOK_SUFFIX) or "/" in target or "\\" in target:
        if is_dir:
            raise Unreadable(f"`{target}` is a directory, not a rulebook file")
        try:
            data = _read_bounded(path)
        except UnreadableRulebook as exc:
            raise Unreadable(str(exc)) from None
        except FileNotFoundError:
            raise Unreadable(f"`{target}`: no such file") from None
        except OSError as exc:
            raise Unreadable(f"`{target}` cannot be read: {exc.strerror or exc}") from None
        try:
            return target, data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Unreadable(f"`{target}` is not UTF-8 text (byte {exc.start} cannot be decoded)") from None
    if target in bundled_names():
        return target, None
    hint = did_you_mean(target, bundled_names())
    message = f"`{target}` is neither a file nor a bundled rulebook"
    raise Unreadable(f"{message} ({hint})" if hint else message)


def _read_bounded(path: Path) -> bytes:
    """The first ``MAX_SOURCE_BYTES + 1`` bytes of a file. Confined (a server's worker), the read follows the
    rulebook-file policy (``ruledsl.rulebook_files``); on an operator's own command line a device or an endless
    pipe (`/dev/zero`) is read too, up to the limit."""
    if allowed_folders() is not None:
        return read_bytes(path)
    with open(path, "rb") as handle:
        return handle.read(MAX_SOURCE_BYTES + 1)


def check_target(target: str, *, examples: bool = True) -> FileReport:
    """Read, resolve and check one file or bundled name, then (when clean) run its examples."""
    try:
        display, text = read_target(target)
    except Unreadable as exc:
        return FileReport(target, unreadable=str(exc))
    return check_source(display, text, examples=examples)


def check_source(display: str, text: str | None, *, examples: bool = True) -> FileReport:
    """Resolve and check a rulebook's text (None: the bundled rulebook ``display``), then (when clean) run its
    examples: the steps `riichi check` takes after reading a file, and the web page's check of an upload, so that
    both report the same diagnostics."""
    return check_resolving(display, text, examples=examples)[0]


def check_resolving(display: str, text: str | None, *, examples: bool = True) -> tuple[FileReport, ResolvedRulebook | None]:
    """``check_source``, also returning the rulebook as folded (None when it could not be): the language server
    answers hovers and completions from the same fold that its diagnostics came from."""
    try:
        # keep_going: the fold's errors come back with the rulebook, so the checker reports its own findings too
        resolved = resolve(display, text=text, file=display if text is not None else None, keep_going=True)
    except UnknownRulebookError as exc:
        return FileReport(display, unreadable=exc.message), None
    except RulebookError as exc:
        return FileReport(_leaf_file(display, text), diagnostics=_ordered(exc.diagnostics)), None
    return _checked(resolved, examples), resolved


def _checked(resolved: ResolvedRulebook, examples: bool) -> FileReport:
    report = FileReport(resolved.chain[-1].file, diagnostics=_ordered(check(resolved)), items=len(resolved.items))
    whole = None
    if report.ok:
        whole = _guard_impossible(resolved, report)
        # rules of this file another rule decides first (`engine.diff.shadowing`, bounded, so quick on any file); the
        # diff's scenario machinery is imported only for a file that extends another and writes a flow rule
        if resolved.extends is not None and writes_flow_rules(resolved):
            from engine.diff.shadowing import shadowed

            report.diagnostics = _ordered([*report.diagnostics, *shadowed(resolved)])
    if examples and report.ok:
        _run_examples(resolved, report, shared=whole)
    return report


# The kinds of item the shadowing search judges (``engine.diff.shadowing``: settings and the round items)
FLOW_KINDS = frozenset(("settings", "draw", "abortive_draw", "liability"))


def writes_flow_rules(resolved: ResolvedRulebook) -> bool:
    """Whether the last file of the chain writes an item of a kind the shadowing search judges. Only such an item
    makes the file's flow rules differ from those it extends, so a file of yaku and fu alone has none to search
    (and the search's round machinery is not imported for it)."""
    return any(item.kind in FLOW_KINDS for item in resolved.chain[-1].items)


IMPOSSIBLE = "can never apply"  # the words of ruledsl.check's warning about a condition no hand can meet


def _guard_impossible(resolved: ResolvedRulebook, report: FileReport) -> WholeScorer | None:
    """Drop a "can never apply" warning when a hand steered by the item's condition does score the item
    (``engine.services.impossible_guard``, imported only for a file with such a warning); the whole rulebook's
    scorer it used, built there if a hand needed it, for the examples step to take."""
    flagged = [d for d in report.diagnostics if not d.is_error and IMPOSSIBLE in d.message]
    if not flagged:
        return None
    from engine.services import impossible_guard as guard

    whole = guard.WholeScorer(resolved)
    guard.guard_impossible(resolved, report.diagnostics, flagged, whole)
    return whole


def _leaf_file(display: str, text: str | None) -> str:
    return display if text is not None else f"rulebooks/{display}{RULEBOOK_SUFFIX}"


def _run_examples(resolved: ResolvedRulebook, report: FileReport, *, whole: bool = False, shared: WholeScorer | None = None) -> None:
    """Score the file's own examples. A file with none of its own still has a scorer built for it, since one that
    refuses the rulebook (its settings) is an error to report; that scorer is built from the settings alone, no
    rule compiled or prepared, as building the rules refuses nothing (``whole``: every rule all the same, which
    ``tests/cli/test_check_examples_step.py`` holds equal on every rulebook and fixture). ``shared``: the whole
    rulebook's scorer if the guard of "can never apply" built one, taken for the examples instead of a second."""
    built = shared.scorer if shared is not None and _writes_examples(resolved) else None
    if built is not None:
        _report_outcomes(resolved, report, [run_example(built, key, example, writer) for key, example, writer in _own_examples(resolved)])
        return
    try:
        if whole or _writes_examples(resolved):
            compiled = compile_rulebook(resolved, checked=report.ok)  # the checker has just run: not twice
        else:
            compiled = compile_settings(resolved)
    except RulebookError as exc:  # pragma: no cover - check() found no error, so compiling cannot fail
        report.diagnostics.extend(exc.diagnostics)
        return
    try:
        outcomes = run_examples(compiled)
    except EngineError as exc:  # the rulebook itself cannot score (e.g. a broken settings table)
        report.diagnostics.append(
            Diagnostic("error", f"the scorer cannot use this rulebook: {exc.message}", resolved.chain[-1].span)
        )
        return
    _report_outcomes(resolved, report, outcomes)


def _report_outcomes(resolved: ResolvedRulebook, report: FileReport, outcomes: list[ExampleOutcome]) -> None:
    """Count the examples run and report each that failed, at its line."""
    report.examples_run = len(outcomes)
    for outcome in outcomes:
        if outcome.passed:
            continue
        report.examples_failed += 1
        span = outcome.example.span
        lines = resolved.texts.get(span.file, "").splitlines()
        source = lines[span.line - 1] if 1 <= span.line <= len(lines) else None
        report.diagnostics.append(outcome.diagnostic(source))
    report.diagnostics = _ordered(report.diagnostics)


def _own_examples(resolved: ResolvedRulebook) -> Iterator[tuple[tuple[str, str], ast.Example, str]]:
    """The examples the file itself writes, in the order ``run_examples`` scores them."""
    name = resolved.name
    for item in resolved.items.values():
        for example, writer in item.examples:
            if writer == name:
                yield item.key, example, writer


def _writes_examples(resolved: ResolvedRulebook) -> bool:
    """Whether the file itself writes an example (those of the files it extends are not run: ``run_examples``)."""
    name = resolved.name
    return any(writer == name for item in resolved.items.values() for _example, writer in item.examples)


def _ordered(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=lambda d: (d.span.file, d.span.line, d.span.column))


__all__ = ["FileReport", "Unreadable", "check_resolving", "check_source", "check_target", "read_target"]
