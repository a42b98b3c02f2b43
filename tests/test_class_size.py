"""No class of the engine or the rule language runs past 400 lines: a class that large holds several jobs, and
the next reader has to learn them all to change one. The count runs from a class's first decorator to its last
line, docstring and comments included, for every class, nested ones too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_CLASS_LINES = 400


def _class_lengths() -> list[tuple[int, str]]:
    found = []
    for package in ("engine", "ruledsl"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
                if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    found.append((node.end_lineno - first + 1, f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"))
    return found


def test_no_class_is_over_400_lines() -> None:
    lengths = _class_lengths()
    assert len(lengths) > 100  # the walk found the code
    long = sorted((n, where) for n, where in lengths if n > MAX_CLASS_LINES)
    assert not long, f"classes over {MAX_CLASS_LINES} lines (split them by job): " + "; ".join(f"{where} ({n})" for n, where in long)
