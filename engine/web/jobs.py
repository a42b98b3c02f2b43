"""What a worker process does for ``riichi serve``: check, explain and diff rulebooks, uploaded or named.

These run in a separate process (``engine.web.worker``) because an uploaded rulebook is a stranger's program:
its check, its examples and a diff's witness search are bounded in time by killing the process, and in memory by
the process's own limit. Every function takes and returns plain JSON-ready data, so that it can cross a pipe.

A rulebook reference here is already vetted by the server: ``{"name": ...}`` is a bundled name or a path the
operator's ``--rulebook-dir`` allows, ``{"text": ..., "file": ...}`` is an upload whose ``file`` is a bare
``NAME.rulebook``. An upload's ``extends NAME`` is looked up beside it, that is in the worker's working folder,
which the server sets to the operator's first ``--rulebook-dir`` or to an empty folder of its own. The worker
process is confined (``ruledsl.rulebook_files.confine``): every file any job reads, through any ``extends``, must
be a regular file whose real path lies in an allowed folder, so a symlink in a folder leads nowhere else.
"""

from __future__ import annotations

import os
from typing import Any

from engine.core.errors import EngineError, InvalidRequest, InvalidRulebook, UnknownRulebook
from engine.diff.change_witnesses import diff_with_witnesses
from engine.scoring import library
from engine.scoring.score import Scorer
from engine.services import check as check_service
from ruledsl import ast
from ruledsl.compile import compile_rulebook
from ruledsl.diagnostics import Diagnostic, RulebookError
from ruledsl.explain import UnknownItem, explain_query, explain_rulebook
from ruledsl.resolve import ResolvedRulebook, UnknownRulebookError, resolve

Ref = dict[str, str]


def diagnostic_json(d: Diagnostic) -> dict[str, Any]:
    """A diagnostic for the editor: the contract's fields, its end (to underline the span) and the rendered
    form with source line, caret and help, exactly as ``riichi check`` prints it."""
    return {**d.to_json(), "end_line": d.span.end_line, "end_column": d.span.end_column, "rendered": d.render()}


def _resolve(ref: Ref) -> ResolvedRulebook:
    if "text" in ref:
        return resolve(ref["file"], text=ref["text"], file=ref["file"])
    return resolve(ref["name"])


def check(ref: Ref, examples: bool = True) -> dict[str, Any]:
    """``riichi check`` of one rulebook: every diagnostic, and (when it checks clean) its examples run."""
    if "text" not in ref:
        report = check_service.check_target(ref["name"], examples=examples)
    else:
        report = _check_text(ref["text"], ref["file"], examples)
    if report.unreadable is not None:
        raise UnknownRulebook(report.unreadable)
    data = report.to_json()
    data["diagnostics"] = [diagnostic_json(d) for d in report.diagnostics]
    data["summary"] = report.summary()
    return {"ok": True, **data}


def _check_text(text: str, file: str, examples: bool) -> check_service.FileReport:
    """``riichi check``'s steps for text held in memory (the CLI reads a file first): the same report, every
    independent mistake of the upload at once."""
    return check_service.check_source(file, text, examples=examples)


def explain(ref: Ref, item: str | None = None, line: int | None = None) -> dict[str, Any]:
    """``riichi explain``: one item by name, the item written at ``line`` of an upload, or the whole rulebook."""
    try:
        resolved = _resolve(ref)
    except UnknownRulebookError as exc:
        raise UnknownRulebook(exc.message) from None
    except RulebookError as exc:
        raise InvalidRulebook(f"the rulebook has errors; `check` lists them:\n{exc.message}") from None
    query = item
    if query is None and line is not None:
        query = _item_at(resolved, line)
    if not query:
        return {"ok": True, "item": None, "text": explain_rulebook(resolved)}
    try:
        return {"ok": True, "item": query, "text": explain_query(resolved, query)}
    except UnknownItem as exc:
        raise EngineError(exc.message) from None


def _item_at(resolved: ResolvedRulebook, line: int) -> str | None:
    """``KIND NAME`` of the item of the leaf file written at ``line`` (its decorators included), if any."""
    leaf: ast.Rulebook = resolved.chain[-1]
    found: ast.Item | None = None
    for item in leaf.items:
        first = min([item.span.line, *(d.span.line for d in item.decorators)])
        if first <= line <= item.span.end_line:
            found = item
    if found is None:
        return None
    key = (found.kind, found.name)
    if key in resolved.items or any(r.key == key for r in resolved.removed):
        return f"{found.kind} {found.name}"
    return found.name


def _scorer(ref: Ref) -> Scorer:
    if "text" not in ref:
        return library.scorer(ref["name"])
    try:
        return Scorer(compile_rulebook(_resolve(ref)))  # an upload: a missing base is a RulebookError
    except RulebookError as exc:
        raise InvalidRulebook(f"rulebook `{ref['file']}` has errors:\n{exc.message}") from None


def diff(a: Ref, b: Ref, hands: int) -> dict[str, Any]:
    """``riichi diff --json``: every changed item, each scoring one with a witness hand and both scores."""
    report = diff_with_witnesses(_scorer(a), _scorer(b), random_hands=hands)
    return {"ok": True, **report.to_json()}


def impact(a: Ref, b: Ref, logs: list[str], flow: bool) -> dict[str, Any]:
    """``riichi impact --json`` of named rulebooks over the sample logs the server chose (``engine.web.impact``),
    in this one process (the worker's time bound covers the whole run), with bare file names."""
    from engine.impact.run import run_impact
    from engine.web.impact import bare_names

    summary = run_impact(a["name"], b["name"], logs, workers=1, flow=flow)
    if summary.files and summary.unreadable_count == summary.files:  # "no change" over nothing read would mislead
        named = ", ".join(os.path.basename(e["file"]) for e in summary.unreadable[:5])
        raise InvalidRequest(f"no sample log could be read ({named})")
    return {"ok": True, **bare_names(summary.to_json())}


def sheet(ref: Ref, against: Ref | None, format: str) -> dict[str, Any]:
    """``riichi sheet``: the players' handout of a rulebook (Markdown or an HTML page), with ``against``'s
    differences marked."""
    from engine.sheet import handout

    text = handout(_scorer(ref), _scorer(against) if against is not None else None, format)
    return {"ok": True, "format": format, "text": text}


JOBS = {"check": check, "explain": explain, "diff": diff, "impact": impact, "sheet": sheet}

__all__ = ["JOBS", "check", "explain", "diff", "impact", "sheet", "diagnostic_json"]
