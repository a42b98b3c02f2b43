"""Pydantic's validation errors as one sentence a person can act on: each names its field and says, in words, what
is wrong with it (``"`tiles` must be a string, got a number"``), never "2 validation errors for AnalyzeRequest".

The one formatter of every request: a score request (``engine.scoring.request``, for the CLI's JSON lines and ``POST
/score``), FastAPI's validation of the HTTP API's bodies, and the bodies an endpoint validates itself (a list of
analyses) all come here, so every interface words the same mistake the same way. ``patterns`` words a field's
pattern (``engine.web.models.PATTERN_WORDS``), as a regular expression means nothing to most readers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# At most this many problems are named; past it the message says how many more there are.
MAX_NAMED = 3
# What each of pydantic's type errors expects, in words (``string_type``: "a string").
EXPECTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "int_parsing": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "float_type": "a number",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "none_required": "null",
}
# Parts of an error's location that name a member of a union (``rulebook.str``, ``rulebook.Upload``), not a field.
_UNION_TAGS = {"str", "int", "float", "bool", "list", "dict", "none"}


def describe(errors: Iterable[Mapping[str, Any]], patterns: Mapping[str, str] | None = None) -> str:
    """Every problem of one validation, one clause each, joined with ``;``."""
    grouped: dict[str, list[tuple[str, bool, Mapping[str, Any]]]] = {}
    for err in errors:
        where, field, in_union = _where(err.get("loc", ()))
        grouped.setdefault(where, []).append((field, in_union, err))
    parts = [_one_field(where, found, patterns or {}) for where, found in grouped.items()]
    more = len(parts) - MAX_NAMED
    named = parts[:MAX_NAMED] + ([f"and {more} more"] if more > 0 else [])
    return "; ".join(named) or "the request is not valid"


def _where(loc: Sequence[Any]) -> tuple[str, str, bool]:
    """The field an error is about, as far as its first union member (``rulebook``), the whole field it names
    (``rulebook.file``) and whether it went through a union's member (``rulebook.Upload.file``)."""
    path: list[str] = []
    head: str | None = None
    for part in loc:
        if part in ("body", "query", "path") and not path:  # FastAPI's word for where it looked
            continue
        if isinstance(part, str) and (part in _UNION_TAGS or part[:1].isupper() or "[" in part):
            head = head if head is not None else _dotted(path)
            continue
        path.append(f"[{part}]" if isinstance(part, int) else str(part))
    field = _dotted(path)
    return (head if head is not None else field), field, head is not None


def _dotted(path: list[str]) -> str:
    return ".".join(path).replace(".[", "[") or "the body"


def _one_field(where: str, found: list[tuple[str, bool, Mapping[str, Any]]], patterns: Mapping[str, str]) -> str:
    """One field's problem. A union's members each fail: if only type errors, say every type it may be; if one
    member failed deeper (an object with a bad file name), that member was meant, so say that."""
    if len(found) == 1 or not any(in_union for _field, in_union, _err in found):
        return "; ".join(_sentence(field, err, patterns) for field, _in_union, err in found)
    if all(err.get("type") in EXPECTED for _field, _in_union, err in found):
        kinds = list(dict.fromkeys(EXPECTED[str(err["type"])] for _field, _in_union, err in found))
        return f"`{where}` must be {' or '.join(kinds)}, got {_kind_of(found[0][2].get('input'))}"
    return "; ".join(_sentence(field, err, patterns) for field, _in_union, err in found if err.get("type") not in EXPECTED)


def _sentence(field: str, err: Mapping[str, Any], patterns: Mapping[str, str]) -> str:
    kind, ctx = str(err.get("type", "")), err.get("ctx") or {}
    if kind == "missing":
        return f"missing field `{field}`"
    if kind == "extra_forbidden":
        return f"unknown field `{field}`"
    if kind in EXPECTED:
        return f"`{field}` must be {EXPECTED[kind]}, got {_kind_of(err.get('input'))}"
    if kind == "string_pattern_mismatch":
        words = patterns.get(str(ctx.get("pattern")), f"match the pattern `{ctx.get('pattern')}`")
        return f"`{field}` must {words}, got {_shown(err.get('input'))}"
    if kind in ("literal_error", "enum"):
        return f"`{field}` must be {ctx.get('expected', 'one of its values')}, got {_shown(err.get('input'))}"
    bounds = {
        "string_too_long": "have at most {max_length} characters",
        "string_too_short": "have at least {min_length} characters",
        "too_long": "hold at most {max_length} items",
        "too_short": "hold at least {min_length} items",
        "less_than_equal": "be at most {le}",
        "less_than": "be less than {lt}",
        "greater_than_equal": "be at least {ge}",
        "greater_than": "be more than {gt}",
    }
    if kind in bounds:
        return f"`{field}` must {bounds[kind].format(**ctx)}, got {_shown(err.get('input'))}"
    return f"`{field}`: {str(err.get('msg', 'is not valid')).lower()}"


def _kind_of(value: Any) -> str:
    """The JSON type of a value, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "an object"


def _shown(value: Any) -> str:
    """A short view of a rejected value (a long string by its length only)."""
    if isinstance(value, str):
        return f"{len(value):,} characters" if len(value) > 40 else f"`{value}`"
    if isinstance(value, (list, tuple)):
        return f"{len(value):,} items"
    return f"`{value}`" if isinstance(value, (int, float)) else _kind_of(value)


__all__ = ["describe", "EXPECTED", "MAX_NAMED"]
