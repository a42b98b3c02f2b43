"""Count how loosely typed ``engine/`` and ``ruledsl/`` are: ``Any``, ``dict[str, Any]`` and ``type: ignore``.

A typed core has few escapes from the type checker, and a change is judged by this count before and after. A
grep for the word would also count docstrings, comments and ``from typing import Any`` lines, which say nothing
about the types, so this reads each file's syntax tree and tokens instead:

- ``Any``: every use of the name in code (``Any`` or ``typing.Any``): annotations of parameters, returns and
  variables, type aliases, ``cast(Any, ...)`` and the type arguments of generics; not its import, and not a word
  in a docstring or comment. A string annotation (``"dict[str, Any]"``) is parsed and counted like one written
  bare.
- ``dict[str, Any]``: every subscript ``dict[str, Any]`` (or ``Dict``/``Mapping``/``MutableMapping`` of
  ``str, Any``) in the same places; each is counted in the first figure too.
- ``type: ignore``: every comment that holds ``type: ignore`` (with or without a bracketed code).

Usage::

    python tools/count_any.py [ROOT] [--by-file]

ROOT is the checkout to count (this one by default); ``--by-file`` adds each file's three figures, largest first.
Exit 0 always: a count, not a gate.
"""

from __future__ import annotations

import argparse
import ast
import io
import tokenize
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "ruledsl")
_MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping"})


class Counts(NamedTuple):
    """The three figures of one file (or of a whole tree, summed)."""

    any: int
    dict_str_any: int
    type_ignore: int


def _is_any(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "Any") or (
        isinstance(node, ast.Attribute) and node.attr == "Any"
    )


def _is_dict_str_any(node: ast.AST) -> bool:
    if not isinstance(node, ast.Subscript):
        return False
    head = (
        node.value.id
        if isinstance(node.value, ast.Name)
        else node.value.attr
        if isinstance(node.value, ast.Attribute)
        else ""
    )
    args = node.slice.elts if isinstance(node.slice, ast.Tuple) else []
    return (
        head in _MAPPINGS
        and len(args) == 2
        and isinstance(args[0], ast.Name)
        and args[0].id == "str"
        and _is_any(args[1])
    )


def _tree_counts(tree: ast.AST, annotation_strings: frozenset[int] = frozenset()) -> tuple[int, int]:
    """``Any`` names and ``dict[str, Any]`` subscripts in a tree; the string constants whose ids are in
    ``annotation_strings`` are parsed and counted too."""
    anys = dicts = 0
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.expr)
            and _is_any(node)
            and not (isinstance(node, ast.Attribute) and _is_any(node.value))
        ):
            anys += 1
        dicts += _is_dict_str_any(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) in annotation_strings:
            try:
                more = _tree_counts(ast.parse(node.value, mode="eval"))
            except (
                SyntaxError
            ):  # words inside an annotation (``Annotated[str, "a rulebook name"]``), not a type
                continue
            anys, dicts = anys + more[0], dicts + more[1]
    return anys, dicts


def _annotation_strings(tree: ast.AST) -> frozenset[int]:
    """The ids of the string constants written as annotations (not docstrings or messages that mention ``Any``)."""
    annotations: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            annotations += [
                x.annotation
                for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                if x and x.annotation
            ]
            annotations += [node.returns] if node.returns else []
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
    return frozenset(
        id(inner)
        for annotation in annotations
        for inner in ast.walk(annotation)
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str)
    )


def count_source(source: str) -> Counts:
    """The three figures of one module's source."""
    tree = ast.parse(source)
    anys, dicts = _tree_counts(tree, _annotation_strings(tree))
    ignores = sum(
        1
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT and "type: ignore" in tok.string
    )
    return Counts(anys, dicts, ignores)


def count_tree(root: Path) -> dict[str, Counts]:
    """Each ``.py`` file of the packages under ``root``, by its path relative to ``root``."""
    return {
        path.relative_to(root).as_posix(): count_source(path.read_text(encoding="utf-8"))
        for package in PACKAGES
        for path in sorted((root / package).rglob("*.py"))
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Count Any, dict[str, Any] and type: ignore in engine/ and ruledsl/."
    )
    parser.add_argument(
        "root", nargs="?", type=Path, default=ROOT, help="the checkout to count (default: this one)"
    )
    parser.add_argument("--by-file", action="store_true", help="also each file's figures, largest first")
    args = parser.parse_args(argv)
    per_file = count_tree(args.root)
    total = Counts(*(sum(column) for column in zip(Counts(0, 0, 0), *per_file.values(), strict=False)))
    print(f"Any: {total.any}")
    print(f"dict[str, Any]: {total.dict_str_any}")
    print(f"type: ignore: {total.type_ignore}")
    if args.by_file:
        for name, counts in sorted(per_file.items(), key=lambda item: (-item[1].any, item[0])):
            if any(counts):
                print(f"{counts.any:5d} {counts.dict_str_any:5d} {counts.type_ignore:3d}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
