"""The layers written down in pyproject.toml (``[tool.importlinter]``) hold: ``lint-imports`` keeps every contract.

The contracts say which package may import which (the rule language never the engine, no module below the front
ends imports one of them, the core knows nothing of rounds or front ends); import-linter counts deferred imports
inside functions too, and chains through other modules. Skipped where import-linter is not installed (it is in the
``test`` extra, and CI runs it).

Beside the contracts, ``test_no_cycle_between_engine_packages`` walks the import graph itself (grimp, the library
import-linter is built on): no two of the engine's packages (its subpackages, and any module still at its top level)
import each other, directly or through others, counting every import: deferred ones inside functions and those
made only for type checking.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The layers from the top once the engine is split into subpackages (tools/restructure.py writes them)
SPLIT_LAYERS = ["cli", "web | lsp | api", "services", "impact", "diff | replay | sheet", "game", "protocol", "round", "scoring", "core"]


def _lint_imports() -> str:
    found = shutil.which("lint-imports")
    if found is None:
        pytest.skip("import-linter is not installed (pip install import-linter)")
    return found


def test_every_layer_contract_is_kept() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [_lint_imports(), "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_name_the_layers_of_the_issue() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contracts = config["contracts"]
    forbidden = {(tuple(c["source_modules"]), tuple(c["forbidden_modules"])) for c in contracts if c["type"] == "forbidden"}
    assert (("ruledsl",), ("engine",)) in forbidden
    core = next(f for s, f in forbidden if s[0] in ("engine.core", "engine.core.tiles"))  # before and after the split
    assert {"engine.round", "engine.game", "engine.replay", "engine.impact", "engine.web", "engine.cli"} <= set(core)
    layers = next(c for c in contracts if c["type"] == "layers")
    assert layers["containers"] == ["engine"] and layers["exhaustive"] is True
    assert layers["layers"][0] == "cli" and layers["layers"][1].startswith("web | lsp")  # web and lsp never import each other
    if (ROOT / "engine" / "core").is_dir():  # split into subpackages: the whole order, and no cycle among siblings
        assert layers["layers"] == SPLIT_LAYERS
        assert any(c["type"] == "acyclic_siblings" and c["ancestors"] == ["engine"] for c in contracts)
    else:
        assert layers["layers"][2] == "services"


def _engine_package(module: str) -> str | None:
    """The package of the engine a module belongs to: ``engine.round.turns`` -> ``engine.round``; a module at the
    top level is its own (``engine.api``); the ``engine`` package itself (its ``__init__``) none."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "engine" and len(parts) > 1 else None


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_cycle_between_engine_packages() -> None:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("engine", cache_dir=None)  # type-checking imports and deferred ones count
    edges: dict[str, set[str]] = {}
    why: dict[tuple[str, str], str] = {}
    for module in graph.modules:
        source = _engine_package(module)
        for imported in graph.find_modules_directly_imported_by(module):
            target = _engine_package(imported)
            if source is None or target is None or source == target:
                continue
            edges.setdefault(source, set()).add(target)
            why.setdefault((source, target), f"{module} -> {imported}")
    cycles = _cycles(edges)
    shown = [
        " / ".join(why[(a, b)] for a in cycle for b in sorted(edges[a]) if b in cycle) for cycle in cycles
    ]
    assert not cycles, "import cycles between engine packages: " + "; ".join(shown)


def test_a_broken_contract_fails_the_run(tmp_path: Path) -> None:
    # the run above must not pass vacuously: the same tool on a package that breaks a contract exits non-zero
    package = tmp_path / "layered"
    (package / "low").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "top.py").write_text("")
    (package / "low" / "__init__.py").write_text("def f():\n    from layered import top\n")
    (tmp_path / ".importlinter").write_text(
        "[importlinter]\nroot_package = layered\n\n[importlinter:contract:one]\nname = low never imports top\n"
        "type = forbidden\nsource_modules = layered.low\nforbidden_modules = layered.top\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [_lint_imports(), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0 and "BROKEN" in done.stdout, done.stdout + done.stderr

