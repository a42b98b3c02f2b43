"""The bundled rulebooks already parsed, shipped as JSON so that loading one neither imports nor runs lark.

Parsing is pure: the same text read by the same grammar and parser code gives the same tree. The generated file
``rulebooks/parsed.json`` maps the sha256 of each bundled rulebook's text to its encoded tree, and records a
fingerprint of the code that produced the trees (``SOURCES``). It lives beside the rulebooks because it is their
data, item names and all: ruledsl/ holds no rules. When the fingerprint differs, the whole file is ignored and
every text is parsed as before: a stale file is only slower, never wrong. After editing a bundled rulebook or the
parser, run ``python -m ruledsl.regenerate``; the tests and ``--check`` fail while the file is stale.

A node is written ``{"k": class name, "v": [its fields in order]}``, a span as ``[line, column, end_line,
end_column]`` and ``NO_SPAN`` as ``null``. Spans are stored without their file, which differs between installs:
decoding gives every span the file the text is being parsed under. Decoding builds only the classes of
``ruledsl.ast``, looked up by name in a fixed table, and checks every value against ast.py's annotations; no
pickle, no eval.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from ruledsl import ast
from ruledsl.package_files import RULEDSL, bundled_folder

COMMAND = "python -m ruledsl.regenerate"  # every generated file; `--write` here rewrites this one alone
FILE_NAME = "parsed.json"
# Everything a successful parse's result depends on: any change to one of them can change a tree or a span.
SOURCES = ("grammar.lark", "parser.py", "lark_parser.py", "ast.py", "parsed_cache.py")
_ROOT = Path(__file__).resolve().parent.parent
PATH = _ROOT / "rulebooks" / FILE_NAME  # where --write writes, in a checkout

# How a field is written, from its annotation in ast.py.
_SPAN, _FILE, _SCALAR, _NODE, _NODES = range(5)
_SCALARS: dict[str, type] = {"int": int, "bool": bool, "str": str}


@dataclasses.dataclass(frozen=True, slots=True)
class _Slot:
    name: str
    kind: int
    types: tuple[type, ...]  # the scalar type, or the node classes allowed
    optional: bool


def _node_classes() -> dict[str, type]:
    """Every syntax-tree class of ast.py by name: the only classes ``decode`` will build."""
    return {
        name: value
        for name, value in vars(ast).items()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == ast.__name__
        and value is not ast.Span
    }


_CLASSES = _node_classes()
_GROUPS: dict[str, tuple[type, ...]] = {"Expr": ast.Expr.__args__, **{n: (c,) for n, c in _CLASSES.items()}}


def _slot(cls: type, field: dataclasses.Field) -> _Slot:
    """Read one field's annotation (a string, ast.py has ``from __future__ import annotations``) into a ``_Slot``."""
    annotation = str(field.type)
    optional = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    many = re.fullmatch(r"tuple\[(\w+), \.\.\.\]", base)
    if cls is ast.Rulebook and field.name == "file":
        return _Slot(field.name, _FILE, (), False)
    if base == "Span":
        return _Slot(field.name, _SPAN, (), False)
    if base in _SCALARS:
        return _Slot(field.name, _SCALAR, (_SCALARS[base],), optional)
    if base in _GROUPS:
        return _Slot(field.name, _NODE, _GROUPS[base], optional)
    if many and many[1] in _GROUPS:
        return _Slot(field.name, _NODES, _GROUPS[many[1]], optional)
    raise ValueError(f"`{cls.__name__}.{field.name}: {annotation}` has a type parsed_cache cannot store; teach it")


_SLOTS: dict[type, tuple[_Slot, ...]] = {
    cls: tuple(_slot(cls, f) for f in dataclasses.fields(cls)) for cls in _CLASSES.values()
}


def encode(node: Any, file: str | None = None) -> dict[str, Any]:
    """A syntax tree as JSON data; ``file`` (default: a rulebook's own) is the file every span must be in.

    A span in another file could not be restored by ``decode``, so it is an error rather than silently moved.
    """
    if file is None and isinstance(node, ast.Rulebook):
        file = node.file
    slots = _SLOTS.get(type(node))
    if slots is None:
        raise ValueError(f"cannot encode a {type(node).__name__}: not a class of ruledsl.ast")
    return {"k": type(node).__name__, "v": [_encode_value(node, slot, file) for slot in slots]}


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
    if type(data) is not dict or len(data) != 2 or "k" not in data or "v" not in data:
        raise ValueError(f"expected a node {{'k': ..., 'v': [...]}}, got {_short(data)}")
    name, values = data["k"], data["v"]
    cls = _CLASSES.get(name) if type(name) is str else None
    if cls is None:
        raise ValueError(f"unknown node class {_short(name)}")
    slots = _SLOTS[cls]
    if type(values) is not list or len(values) != len(slots):
        raise ValueError(f"`{name}` needs a list of {len(slots)} field values, got {_short(values)}")
    return cls(*[_decode_value(name, slot, value, file) for slot, value in zip(slots, values, strict=True)])


def _decode_value(owner: str, slot: _Slot, value: Any, file: str) -> Any:
    kind = slot.kind
    if value is None:
        if kind == _SPAN:
            return ast.NO_SPAN
        if kind == _FILE:
            return file
        if slot.optional:
            return None
    elif kind == _SPAN:
        if type(value) is list and len(value) == 4:
            line, column, end_line, end_column = value  # unpacked, not all(...): spans are most of the file
            if type(line) is int and type(column) is int and type(end_line) is int and type(end_column) is int:
                return ast.Span(file, line, column, end_line, end_column)
    elif kind == _SCALAR:
        if type(value) in slot.types:
            return value
    elif kind == _NODE:
        node = decode(value, file)
        if type(node) in slot.types:
            return node
    elif kind == _NODES and type(value) is list:
        nodes = tuple(decode(v, file) for v in value)
        if all(type(n) in slot.types for n in nodes):
            return nodes
    raise ValueError(f"`{owner}.{slot.name}` cannot be {_short(value)}")


def _short(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, str | int | float | list | dict | type(None)) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def text_sha256(text: str) -> str:
    """The key of a rulebook text (``surrogatepass``: any str has a key, even one no file could hold)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def fingerprint() -> str:
    """The sha256 of the parser's sources; a file written under another fingerprint is stale."""
    digest = hashlib.sha256()
    for name in SOURCES:
        source = (RULEDSL / name).read_text(encoding="utf-8")
        digest.update(f"{name}\0{text_sha256(source)}\0".encode())
    return digest.hexdigest()


def shipped() -> str | None:
    """The cache file installed with the package, if there is one."""
    try:
        return (bundled_folder() / FILE_NAME).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None


def entries(text: str | None) -> dict[str, Any]:
    """The encoded trees by text sha256 from a cache file's ``text``; empty when it is missing, unreadable or stale."""
    if text is None:
        return {}
    try:
        data = json.loads(text)
        current = fingerprint()
    except (OSError, ValueError):  # a source missing from the install: the file cannot be trusted
        return {}
    if not isinstance(data, dict) or data.get("fingerprint") != current or not isinstance(data.get("asts"), dict):
        return {}
    return data["asts"]


@functools.cache
def _shipped_entries() -> dict[str, Any]:
    """The shipped file, read once per process and only when a rulebook is first parsed."""
    return entries(shipped())


def lookup(text: str, file: str) -> ast.Rulebook | None:
    """The tree of ``text`` parsed under ``file``, when the shipped cache holds it; None means parse it."""
    table = _shipped_entries()
    if not table:
        return None
    entry = table.get(text_sha256(text))
    if entry is None:
        return None
    try:
        rulebook = decode(entry, file)
    except (ValueError, RecursionError):  # a damaged entry: parsing is slower, and still right
        return None
    return rulebook if isinstance(rulebook, ast.Rulebook) else None


def bundled_files() -> list[Path]:
    """Every rulebook the cache covers: the bundled ones and the authoring guide's examples."""
    folder = _ROOT / "rulebooks"
    return sorted(folder.glob("*.rulebook")) + sorted((folder / "examples").glob("*.rulebook"))


def dumps() -> str:
    """The cache file for the rulebooks as they are now: a readable header, then one line per tree."""
    from ruledsl.parser import parse_uncached  # parsed with lark, never from the cache being replaced

    files: dict[str, str] = {}
    trees: dict[str, dict[str, Any]] = {}
    for path in bundled_files():
        name = path.relative_to(_ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        files[name] = key = text_sha256(text)
        trees.setdefault(key, encode(parse_uncached(text, name), name))
    header = {"fingerprint": fingerprint(), "regenerate": COMMAND, "files": files}
    lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in header.items()]
    body = [
        f"  {json.dumps(key)}: {json.dumps(trees[key], ensure_ascii=False, separators=(',', ':'))}"
        for key in sorted(trees)
    ]
    return "{\n" + "\n".join(lines) + '\n "asts": {\n' + ",\n".join(body) + "\n }\n}\n"


def main(argv: list[str] | None = None) -> int:
    from ruledsl.generated import write_or_check

    return write_or_check(
        "python -m ruledsl.parsed_cache", __doc__.splitlines()[0], f"rulebooks/{FILE_NAME}", PATH, dumps, shipped, COMMAND, argv
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
