"""The bundled rulebooks shipped compiled, so that scoring under one neither reads its syntax tree nor folds and
compiles it again.

Loading a bundled rulebook to score a hand used to decode its whole syntax tree (the examples too, which scoring
never reads), fold the ``extends`` chain, and compile every rule: three quarters of what a one-hand command did
besides importing. All of that is pure: the same texts read by the same code give the same rules. The generated
file ``rulebooks/compiled.jsonl`` holds, for each bundled rulebook whose chain the checker finds no error in, what
scoring reads of it: its settings, its compiled rules (``ruledsl.compile`` nodes), the files of its chain with each
text's sha256, the clause of each settings group and where each inherited clause comes from. The header records a
fingerprint of the code that produced them (``SOURCES``); a file written under another fingerprint, or a chain
whose texts differ from those recorded, is ignored and the rulebook is loaded the full way, so a stale file is only
slower, never wrong. ``python -m ruledsl.regenerate`` rebuilds it; ``tests/ruledsl/test_compiled_cache.py`` holds
every shipped rulebook equal to the one compiled from its texts.

The resolved rulebook (items, history, examples) stays available: ``Rulebook.resolved`` of a shipped rulebook
resolves its chain on first read (``ShippedRulebook``), for the tools that read it (explain, check, diff).

Encoding: a node is ``[class name, field values...]`` of a fixed table of classes (no other class is ever built);
a value is JSON's own for ``None``, booleans, integers and strings, and ``{"t": [...]}``, ``{"l": [...]}``,
``{"f": [...]}`` or ``{"d": [[key, value], ...]}`` for a tuple, list, frozenset or dict. Functions are never
written: an ``Apply`` gets the vocabulary's function of its name, a ``Binary`` the operator of its symbol, as the
compiler gives them. No pickle, no eval.
"""

from __future__ import annotations

import json
import os
import sys
from functools import partial

from ruledsl import vocabulary as V
from ruledsl.caches import once
from ruledsl.nodes import (
    _BINARY,
    And,
    Apply,
    Binary,
    Cond,
    Const,
    ListNode,
    NotNode,
    Or,
    Quant,
    RangeNode,
    Ref,
    Rule,
    Rulebook,
    ShippedRulebook,
    Variant,
)
from ruledsl.package_files import PARSED_SOURCES, RULEDSL, bundled_dir, text_sha256
from ruledsl.package_files import fingerprint as _fingerprint
from ruledsl.package_files import shipped_text as _shipped_text
from ruledsl.rulebook_files import read_bundled
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ruledsl.resolve import ResolvedRulebook

COMMAND = "python -m ruledsl.regenerate"
FILE_NAME = "compiled.jsonl"
PATH = os.path.join(os.path.dirname(RULEDSL), "rulebooks", FILE_NAME)
# What a shipped entry depends on besides the rulebooks' texts: parsing, folding and checking (the parsed cache's
# sources), compiling, the clause origins, and this encoding. ``tests/ruledsl/test_compiled_cache.py`` holds it
# equal to what those modules import.
SOURCES = (*PARSED_SOURCES, "compile.py", "nodes.py", "compiled_cache.py")

# The classes a shipped entry may hold, by name, with the fields written for each (a function field is restored).
_CLASSES: dict[str, type] = {
    cls.__name__: cls
    for cls in (Const, Ref, Apply, And, Or, NotNode, Binary, Cond, ListNode, RangeNode, Quant, Rule, Variant)
}


# ---- encoding ---------------------------------------------------------------------------------------------------


def _encode(value: Any) -> Any:
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is tuple:
        return {"t": [_encode(v) for v in value]}
    if kind is list:
        return {"l": [_encode(v) for v in value]}
    if kind is frozenset:
        return {"f": [_encode(v) for v in _set_order(value)]}
    if kind is dict:
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if kind is Apply:
        if V.FUNCTIONS[value.name].impl is not value.fn:
            raise ValueError(f"`{value.name}` is not the vocabulary's function of that name")
        return ["Apply", value.name, _encode(value.args), value.needs_env]
    if kind is Binary:
        if _BINARY[value.op] is not value.fn:
            raise ValueError(f"`{value.op}` is not the compiler's operator of that symbol")
        return ["Binary", value.op, _encode(value.left), _encode(value.right)]
    name = kind.__name__
    if _CLASSES.get(name) is not kind:
        raise ValueError(f"cannot encode a {name}")
    from ruledsl.record import fields

    return [name, *[_encode(getattr(value, f.name)) for f in fields(kind)]]


def _set_order(values: frozenset[Any]) -> list[Any]:
    """A set's elements in the order the file lists them: integers (tile kinds) in the set's own order, which
    decoding inserts them in again, so the set is laid out as the compiled one; anything else (names, whose order
    changes with every process's string hashing) sorted, so that the file does not change between runs."""
    if all(type(v) is int for v in values):
        return list(values)
    return sorted(values, key=repr)


def encode_rulebook(rulebook: Rulebook) -> dict[str, Any]:
    """What a shipped entry holds of a compiled rulebook (``decode_rulebook`` reads it back)."""
    resolved = rulebook.resolved
    return {
        "name": rulebook.name,
        "title": rulebook.title,
        "settings": _encode(rulebook.settings),
        "rules": _encode(rulebook.rules),
        "settings_clauses": _encode(rulebook.settings_clauses()),
        "origins": _encode(rulebook.clause_origins()),
        "files": [[file, text_sha256(text)] for file, text in resolved.texts.items()],
    }


# ---- decoding ---------------------------------------------------------------------------------------------------


def _decode(data: Any) -> Any:
    kind = type(data)
    if data is None or kind is bool or kind is int or kind is str:
        return data
    if kind is dict and len(data) == 1:
        tag, items = next(iter(data.items()))
        if type(items) is list:
            if tag == "t":
                return tuple([_decode(v) for v in items])
            if tag == "l":
                return [_decode(v) for v in items]
            if tag == "f":
                return frozenset([_decode(v) for v in items])
            if tag == "d":
                return {_decode(k): _decode(v) for k, v in items}
    elif kind is list and data and type(data[0]) is str:
        return _node(data)
    raise ValueError(f"unexpected value {str(data)[:60]}")


def _node(data: list[Any]) -> Any:
    name = data[0]
    if name == "Apply" and len(data) == 4:
        function = V.FUNCTIONS.get(data[1])
        args = _decode(data[2])
        if function is None or type(args) is not tuple or type(data[3]) is not bool:
            raise ValueError(f"bad application {str(data)[:60]}")
        return Apply(data[1], function.impl, args, data[3])
    if name == "Binary" and len(data) == 4:
        op = _BINARY.get(data[1]) if type(data[1]) is str else None
        if op is None:
            raise ValueError(f"unknown operator {str(data[1])[:20]}")
        return Binary(data[1], op, _decode(data[2]), _decode(data[3]))
    plan = _plans().get(name)
    if plan is None or len(data) != plan[1] + 1:
        raise ValueError(f"unknown node class or wrong field count {str(data)[:60]}")
    return plan[0](*[_decode(v) for v in data[1:]])


_PLANS: dict[str, tuple[Callable[..., Any], int]] = {}


def _plans() -> dict[str, tuple[Callable[..., Any], int]]:
    """Per class name (but ``Apply`` and ``Binary``, whose functions are restored): its constructor taking every
    field positionally (``ruledsl.record.maker`` for the slotted nodes, the few rules through ``__init__``) and
    its number of fields; made on the first decode."""
    if not _PLANS:
        from ruledsl.record import fields, maker

        for name, cls in _CLASSES.items():
            if cls is not Apply and cls is not Binary:
                make = maker(cls) if "__slots__" in cls.__dict__ else cls
                _PLANS[name] = (make, len(fields(cls)))
    return _PLANS


def decode_rulebook(entry: Any, resolve: Callable[[], ResolvedRulebook]) -> ShippedRulebook:
    """The compiled rulebook of a shipped entry; ``resolve`` gives its resolved chain when that is first read."""
    settings, rules = _decode(entry["settings"]), _decode(entry["rules"])
    if type(settings) is not dict or type(rules) is not dict:
        raise ValueError("a shipped rulebook's settings and rules are tables")
    for kind_rules in rules.values():
        if type(kind_rules) is not tuple or any(type(rule) is not Rule for rule in kind_rules):
            raise ValueError("a shipped rulebook's rules are compiled rules")
    clauses, origins = _decode(entry["settings_clauses"]), _decode(entry["origins"])
    if type(clauses) is not dict or type(origins) is not dict:
        raise ValueError("a shipped rulebook's clauses are tables")
    name, title = entry["name"], entry["title"]
    if type(name) is not str or type(title) is not str:
        raise ValueError("a shipped rulebook's name and title are strings")
    files = tuple(file for file, _ in entry["files"])
    return ShippedRulebook.shipped(name, title, settings, rules, files, clauses, origins, resolve)


# ---- the shipped file -------------------------------------------------------------------------------------------


def fingerprint() -> str:
    """The digest of ``SOURCES`` (``ruledsl.package_files.fingerprint``): a file written under another is stale."""
    return _fingerprint(SOURCES)


@once
def _shipped() -> dict[str, tuple[int, int]]:
    """Where each rulebook's line lies in the shipped file (its offset and length in bytes), by name, from the
    header (its first line); empty when the file is missing or stale. A start-up reads one rulebook's line of
    the 2 MB, so the rest is neither read nor split."""
    try:
        with open(os.path.join(bundled_dir(), FILE_NAME), "rb") as shipped:
            first = shipped.readline()
        header = json.loads(first)
        current = fingerprint()
    except (OSError, ValueError):
        return {}
    if not isinstance(header, dict) or header.get("fingerprint") != current:
        return {}
    names, sizes = header.get("rulebooks"), header.get("sizes")
    if not isinstance(names, list) or not isinstance(sizes, list) or len(names) != len(sizes):
        return {}
    at, where = len(first), {}
    for name, size in zip(names, sizes, strict=True):
        if not isinstance(name, str) or type(size) is not int or size < 0:
            return {}
        where[name] = (at, size)
        at += size + 1
    return where


def forget_shipped() -> None:
    """Read the shipped file again on next use (tests that change what it holds)."""
    _shipped.cache_clear()


def entry(name: str) -> dict[str, Any] | None:
    """The shipped entry of a bundled rulebook, or None."""
    where = _shipped().get(name)
    if where is None:
        return None
    try:
        with open(os.path.join(bundled_dir(), FILE_NAME), "rb") as shipped:
            shipped.seek(where[0])
            found = json.loads(shipped.read(where[1]))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and found.get("name") == name else None


def load(name: str, read: Callable[[str, bool], tuple[str, str]], resolve: Callable[[], ResolvedRulebook]) -> Rulebook | None:
    """The shipped compiled rulebook of a bundled name, or None (load it the full way): its chain's files are
    read as a full load reads them (``read(name, extended)``: the display name and text, with the same policy and
    errors) and must hold the texts it was compiled from."""
    found = entry(name)
    if found is None:
        return None
    try:
        files = found["files"]
        if type(files) is not list or not files:
            return None
        for position, recorded in enumerate(files):
            try:
                display, text = read(_bundled_name(recorded[0]), position > 0)
            except Exception as exc:  # a file that cannot be read: the full load says why
                if isinstance(exc, OSError) or _is_rulebook_error(exc):
                    return None
                raise
            if display != recorded[0] or text_sha256(text) != recorded[1]:
                return None
        return decode_rulebook(found, resolve)
    except (ValueError, KeyError, TypeError, IndexError, RecursionError):  # damaged: loading the full way is right
        return None


def _is_rulebook_error(exc: Exception) -> bool:
    """A ``RulebookError`` (a file past the size bound, or not UTF-8): whoever raised one imported its module."""
    from ruledsl.diagnostics import RulebookError

    return isinstance(exc, RulebookError)


def load_bundled(name: str) -> Rulebook | None:
    """``load`` of a bundled name, its chain read as loading it by name reads it, resolved on first read of
    ``resolved``; None: load it the full way (``ruledsl.compile.load``). Neither the syntax tree's classes nor
    the resolver are imported for it."""
    return load(name, read_bundled, partial(_resolved, name))  # a partial pickles, a lambda not


def _resolved(name: str) -> ResolvedRulebook:
    from ruledsl.resolve import resolve

    return resolve(name)


def _bundled_name(display: str) -> str:
    """The bundled name of a chain file as a bundled load shows it (``rulebooks/NAME.rulebook``)."""
    base = os.path.basename(display)
    if display != f"rulebooks/{base}" or not base.endswith(".rulebook"):
        raise ValueError(f"not a bundled file: {display[:60]}")
    return base[: -len(".rulebook")]


# ---- writing ----------------------------------------------------------------------------------------------------


def dumps() -> str:
    """The file for the bundled rulebooks as they are now: the header line, then one line per rulebook whose
    chain the checker finds no error in, compiled from its texts (never from the file being replaced)."""
    from ruledsl.check import check
    from ruledsl.compile import compile_rulebook
    from ruledsl.resolve import bundled_names, resolve

    entries: list[dict[str, Any]] = []
    for name in bundled_names():
        resolved = resolve(name)
        if any(d.is_error for d in check(resolved)):
            continue
        entries.append(encode_rulebook(compile_rulebook(resolved, checked=True)))
    lines = [json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in entries]
    header = {
        "fingerprint": fingerprint(),
        "regenerate": COMMAND,
        "rulebooks": [e["name"] for e in entries],
        "sizes": [len(line.encode("utf-8")) for line in lines],
    }
    return "\n".join([json.dumps(header, ensure_ascii=False), *lines]) + "\n"


def shipped_text() -> str | None:
    """The file installed with the package, if there is one."""
    return _shipped_text(FILE_NAME)


def main(argv: list[str] | None = None) -> int:
    from ruledsl.generated import write_or_check

    return write_or_check(
        "python -m ruledsl.compiled_cache", __doc__.splitlines()[0], f"rulebooks/{FILE_NAME}", PATH, dumps, shipped_text, COMMAND, argv
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
