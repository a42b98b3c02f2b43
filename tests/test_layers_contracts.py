"""The layers written down in pyproject.toml (``[tool.importlinter]``) hold: ``lint-imports`` keeps every contract.

The contracts say which package may import which (the rule language never the engine, no module below the front
ends imports one of them, the core knows nothing of rounds or front ends); import-linter counts deferred imports
inside functions too, and chains through other modules. Skipped where import-linter is not installed (it is in the
``test`` extra, and CI runs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
    core = next(f for s, f in forbidden if "engine.tiles" in s)
    assert {"engine.round", "engine.game", "engine.replay", "engine.impact", "engine.web", "engine.cli"} <= set(core)
    layers = next(c for c in contracts if c["type"] == "layers")
    assert layers["containers"] == ["engine"] and layers["exhaustive"] is True
    assert layers["layers"][:3] == ["cli", "web | lsp", "services"]  # web and lsp independent: neither imports the other


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

