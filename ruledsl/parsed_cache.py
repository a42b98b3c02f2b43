"""The bundled rulebooks already parsed and checked, shipped as JSON so that loading one neither imports nor runs
lark, and loading one to score a hand does not run the checker.

Parsing and checking are pure: the same text read by the same grammar, parser and checker code gives the same
tree and the same diagnostics. The generated file ``rulebooks/parsed.jsonl`` maps the sha256 of each bundled
rulebook's text to its encoded tree, lists the ``extends`` chains (file names and text digests) that the checker
finds no error in (``clean``), and records a fingerprint of the code that produced both (``SOURCES``: the parser,
the checker and everything they import). It lives beside the rulebooks because it is their data, item names and
all: ruledsl/ holds no rules. When the fingerprint differs, the whole file is ignored: every text is parsed and
checked as before, so a stale file is only slower, never wrong. After editing a bundled rulebook, the parser or the
checker, run ``python -m ruledsl.regenerate``; the tests and ``--check`` fail while the file is stale.

The file is one JSON value per line, so that a start-up parses only the trees it needs: the first line is the
header (``fingerprint``, ``files``: every bundled file's text sha256, ``clean``, and ``trees``: the sha256 of the
tree on each following line, in order), then one tree per line. A node is written ``[class name, its fields in
order...]``, a span as ``[line, column, end_line, end_column]`` and ``NO_SPAN`` as ``null``. Spans are stored
without their file, which differs between installs: decoding gives every span the file the text is being parsed
under. Decoding builds only the classes of ``ruledsl.ast``, looked up by name in a fixed table, and checks every
value against the fields each class stores (``ruledsl.ast.STORED``); no pickle, no eval.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable

from ruledsl import ast
from ruledsl.caches import once
from ruledsl.package_files import PARSED_SOURCES, RULEDSL, SHA256, shipped_text, text_sha256
from ruledsl.package_files import fingerprint as _fingerprint
from ruledsl.package_files import shipped_bytes as _shipped_bytes
from ruledsl.record import maker
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

COMMAND = "python -m ruledsl.regenerate"  # every generated file; `--write` here rewrites this one alone
FILE_NAME = "parsed.jsonl"
# Everything a successful parse's result or the checker's verdict depends on (``package_files.PARSED_SOURCES``).
SOURCES = PARSED_SOURCES
_ROOT = os.path.dirname(RULEDSL)
PATH = os.path.join(_ROOT, "rulebooks", FILE_NAME)  # where --write writes, in a checkout

# How each field is written: ``ruledsl.ast.STORED``, the classes it lists the only ones ``decode`` will build.
_SPAN, _FILE, _SCALAR, _NODE, _NODES = ast.SPAN, ast.FILE, ast.SCALAR, ast.NODE, ast.NODES
_Slot = ast.Stored
_SLOTS: dict[type, tuple[_Slot, ...]] = ast.STORED
# Per class name: its positional constructor (``ruledsl.record.maker``), the number of values a node holds (its name
# and its fields) and per field (kind, allowed types, may be None, name), flat for the decoder's loop. Made on the
# first decode: the constructors are compiled, and a command that loads no bundled rulebook needs none.
_Plan = tuple["Callable[..., Any]", int, tuple[tuple[int, tuple[type, ...], bool, str], ...]]
_PLANS: dict[str, _Plan] = {}
_MAKE_SPAN: list[Callable[..., ast.Span]] = []


def _plans() -> dict[str, _Plan]:
    if not _PLANS:
        for cls, slots in _SLOTS.items():
            _PLANS[cls.__name__] = (maker(cls), len(slots) + 1, tuple((s.kind, s.types, s.optional, s.name) for s in slots))
        _MAKE_SPAN.append(ast.make_span)
    return _PLANS


def encode(node: Any, file: str | None = None) -> list[Any]:
    """A syntax tree as JSON data; ``file`` (default: a rulebook's own) is the file every span must be in.

    A span in another file could not be restored by ``decode``, so it is an error rather than silently moved.
    """
    if file is None and isinstance(node, ast.Rulebook):
        file = node.file
    slots = _SLOTS.get(type(node))
    if slots is None:
        raise ValueError(f"cannot encode a {type(node).__name__}: not a class of ruledsl.ast")
    return [type(node).__name__, *[_encode_value(node, slot, file) for slot in slots]]


def _encode_value(node: Any, slot: _Slot, file: str | None) -> Any:
    value = getattr(node, slot.name)
    where = f"{type(node).__name__}.{slot.name}"
    if slot.kind == _SPAN:
        if not isinstance(value, ast.Span):
            raise ValueError(f"`{where}` is not a span: {value!r}")
        if value is ast.NO_SPAN or (value == ast.NO_SPAN and value.file != file):
            return None
        if file is not None and value.file != file:
            raise ValueError(f"`{where}` is in `{value.file}`, not in `{file}`")
        return [value.line, value.column, value.end_line, value.end_column]
    if slot.kind == _FILE:
        if file is not None and value != file:
            raise ValueError(f"`{where}` is `{value}`, not `{file}`")
        return None
    if value is None and slot.optional:
        return None
    if slot.kind == _SCALAR and type(value) in slot.types:
        return value
    if slot.kind == _NODE and type(value) in slot.types:
        return encode(value, file)
    if slot.kind == _NODES and type(value) is tuple and all(type(v) in slot.types for v in value):
        return [encode(v, file) for v in value]
    raise ValueError(f"`{where}` holds an unexpected value: {value!r}")


def decode(data: Any, file: str) -> Any:
    """The syntax tree written by ``encode``, every span in ``file``; a ``ValueError`` on anything else."""
    plans = _plans()
    return _decode(data, file, plans, _MAKE_SPAN[0])


def _decode(data: Any, file: str, plans: dict[str, _Plan], make_span: Callable[..., ast.Span]) -> Any:
    """Every value is checked against its field; each kind of field is read inline rather than by a call per
    field, since a bundled rulebook holds thousands of them and this runs at every start-up."""
    if type(data) is not list or not data:
        raise ValueError(f"expected a node [class name, fields...], got {_short(data)}")
    name = data[0]
    plan = plans.get(name) if type(name) is str else None
    if plan is None:
        raise ValueError(f"unknown node class {_short(name)}")
    make, size, slots = plan
    if len(data) != size:
        raise ValueError(f"`{name}` needs {size - 1} field values, got {_short(data[1:])}")
    decoded: list[Any] = []
    keep = decoded.append
    at = 0
    for kind, types, optional, field_name in slots:
        at += 1
        value = data[at]
        if kind == _SPAN:
            if value is None:
                keep(ast.NO_SPAN)
                continue
            if type(value) is list and len(value) == 4:
                line, column, end_line, end_column = value
                if type(line) is int and type(column) is int and type(end_line) is int and type(end_column) is int:
                    keep(make_span((file, line, column, end_line, end_column)))
                    continue
        elif kind == _SCALAR:
            if type(value) in types or (value is None and optional):
                keep(value)
                continue
        elif value is None:
            if kind == _FILE:
                keep(file)
                continue
            if optional:
                keep(None)
                continue
        elif kind == _NODE:
            node = _decode(value, file, plans, make_span)
            if type(node) in types:
                keep(node)
                continue
        elif kind == _NODES and type(value) is list:
            nodes = tuple([_decode(v, file, plans, make_span) for v in value])
            for n in nodes:
                if type(n) not in types:
                    break
            else:
                keep(nodes)
                continue
        raise ValueError(f"`{name}.{field_name}` cannot be {_short(value)}")
    return make(*decoded)


def _short(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, str | int | float | list | dict | type(None)) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_SHA256 = SHA256  # the interpreter's own SHA-256 (``ruledsl.package_files``)


def fingerprint(sources: tuple[str, ...] = SOURCES) -> str:
    """The digest of the parser's and the checker's sources (or of other ``sources`` of ``ruledsl``: the compiled
    cache's), as ``ruledsl.package_files.fingerprint`` keeps it; a file written under another is stale."""
    return _fingerprint(sources)


def shipped() -> str | None:
    """The cache file installed with the package, if there is one."""
    return shipped_text(FILE_NAME)


def shipped_bytes() -> bytes | None:
    """The installed cache file as bytes: a start-up parses two of its lines."""
    return _shipped_bytes(FILE_NAME)


class _CacheFile:
    """A cache file's header and its tree lines, each tree parsed (JSON) on first use; empty when the file is
    missing, unreadable or was written by other sources (its fingerprint differs from the installed code's)."""

    def __init__(self, text: str | bytes | None) -> None:
        self.header: dict[str, Any] = {}
        self.lines: list[str] | list[bytes] = []
        self.line_of: dict[str, int] = {}
        if text is None:
            return
        lines = text.split(b"\n") if isinstance(text, bytes) else text.split("\n")
        try:
            header = json.loads(lines[0])
            current = fingerprint()
        except (OSError, ValueError):  # a source missing from the install: the file cannot be trusted
            return
        if not isinstance(header, dict) or header.get("fingerprint") != current:
            return
        trees = header.get("trees")
        if not isinstance(trees, list) or len(lines) < len(trees) + 1:
            return
        self.header, self.lines = header, lines
        self.line_of = {key: i + 1 for i, key in enumerate(trees) if isinstance(key, str)}

    def tree(self, key: str) -> Any:
        """The encoded tree of the text with this sha256, or None."""
        line = self.line_of.get(key)
        if line is None:
            return None
        try:
            return json.loads(self.lines[line])
        except ValueError:
            return None

    def clean(self) -> frozenset[str]:
        clean = self.header.get("clean")
        return frozenset(key for key in clean if isinstance(key, str)) if isinstance(clean, list) else frozenset()


def entries(text: str | None) -> dict[str, Any]:
    """The encoded trees by text sha256 from a cache file's ``text``; empty when it is missing, unreadable or stale."""
    cache = _CacheFile(text)
    return {key: tree for key in cache.line_of if (tree := cache.tree(key)) is not None}


def clean_chains(text: str | None) -> frozenset[str]:
    """The chains (``chain_key``) a cache file's ``text`` records as checking clean; empty when it is missing,
    unreadable or stale."""
    return _CacheFile(text).clean()


def chain_key(texts: dict[str, str]) -> str:
    """One line per file of an ``extends`` chain, its name and its text's sha256: what a checker verdict is of
    (the checker reads the file name too: a rulebook must be named as its file)."""
    return "\n".join(f"{file} {text_sha256(text)}" for file, text in texts.items())


@once
def _shipped() -> _CacheFile:
    """The shipped file, read once per process and only when a rulebook is first loaded."""
    return _CacheFile(shipped_bytes())


@once
def _shipped_clean() -> frozenset[str]:
    return _shipped().clean()


def forget_shipped() -> None:
    """Read the shipped file again on next use (tests that change what it holds)."""
    _shipped.cache_clear()
    _shipped_clean.cache_clear()


def checked_clean(texts: dict[str, str]) -> bool:
    """Whether the checker is known to find no error in this chain (``ResolvedRulebook.texts``, leaf first)."""
    clean = _shipped_clean()
    return bool(clean) and chain_key(texts) in clean


def lookup(text: str, file: str) -> ast.Rulebook | None:
    """The tree of ``text`` parsed under ``file``, when the shipped cache holds it; None means parse it."""
    cache = _shipped()
    if not cache.line_of:
        return None
    entry = cache.tree(text_sha256(text))
    if entry is None:
        return None
    try:
        rulebook = decode(entry, file)
    except (ValueError, RecursionError):  # a damaged entry: parsing is slower, and still right
        return None
    return rulebook if isinstance(rulebook, ast.Rulebook) else None


def bundled_files() -> list[Path]:
    """Every rulebook the cache covers: the bundled ones and the authoring guide's examples."""
    from pathlib import Path

    folder = Path(_ROOT) / "rulebooks"
    return sorted(folder.glob("*.rulebook")) + sorted((folder / "examples").glob("*.rulebook"))


def dumps() -> str:
    """The cache file for the rulebooks as they are now: the header line, then one line per tree."""
    from ruledsl.parser import parse_uncached  # parsed with lark, never from the cache being replaced

    files: dict[str, str] = {}
    trees: dict[str, list[Any]] = {}
    for path in bundled_files():
        name = path.relative_to(_ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        files[name] = key = text_sha256(text)
        trees.setdefault(key, encode(parse_uncached(text, name), name))
    order = sorted(trees)
    header = {
        "fingerprint": fingerprint(),
        "regenerate": COMMAND,
        "files": files,
        "clean": _clean_chains(),
        "trees": order,
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps(trees[key], ensure_ascii=False, separators=(",", ":")) for key in order]
    return "\n".join(lines) + "\n"


def _clean_chains() -> list[str]:
    """The chain of every bundled rulebook, loaded by name as ``riichi score --rulebook NAME`` does, that the checker
    finds no error in."""
    from ruledsl.check import check
    from ruledsl.resolve import bundled_names, resolve

    clean: list[str] = []
    for name in bundled_names():
        resolved = resolve(name)
        if not any(d.is_error for d in check(resolved)):
            clean.append(chain_key(resolved.texts))
    return sorted(clean)


def main(argv: list[str] | None = None) -> int:
    from ruledsl.generated import write_or_check

    return write_or_check(
        "python -m ruledsl.parsed_cache", __doc__.splitlines()[0], f"rulebooks/{FILE_NAME}", PATH, dumps, shipped, COMMAND, argv
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
