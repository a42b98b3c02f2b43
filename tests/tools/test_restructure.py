"""tools/restructure.py, the script that moves the engine's top-level modules into subpackages: its
rewrites find every spelling of a moved module and nothing else, and running them twice changes nothing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("restructure", ROOT / "tools" / "restructure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


R = _script()


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("from engine.score import Scorer", "from engine.scoring.score import Scorer"),
        ("import engine.tiles as T", "import engine.core.tiles as T"),
        ('mock.patch("engine.library.scorer")', 'mock.patch("engine.scoring.library.scorer")'),
        ('importlib.import_module("engine.mjai")', 'importlib.import_module("engine.protocol.mjai")'),
        ("see `engine/witness.py` and ../engine/steer.py", "see `engine/diff/witness.py` and ../engine/diff/steer.py"),
        ('ROOT / "engine" / "example_runner.py"', 'ROOT / "engine" / "scoring" / "example_runner.py"'),
        # not a moved module: a module of the same name in a subpackage, a longer name, a test folder
        ("from engine.round.witness import x", "from engine.round.witness import x"),
        ("engine.cli.score and engine.cli.score_text", "engine.cli.score and engine.cli.score_text"),
        ("engine.scores engine.score_text engine.scoring", "engine.scores engine.score_text engine.scoring"),
        ("tests/engine/test_score.py tests.engine.tiles", "tests/engine/test_score.py tests.engine.tiles"),
        ("engine/round/witness.py engine/web/errors.py", "engine/round/witness.py engine/web/errors.py"),
    ],
)
def test_names_and_paths_are_rewritten_once(before: str, after: str) -> None:
    once, _ = R.rewrite_text(before)
    assert once == after
    assert R.rewrite_text(once) == (once, 0)  # idempotent


def test_from_engine_imports_split_by_new_home() -> None:
    source = "def f():\n    from engine import tiles as T, cli  # why\n    return T\nfrom engine import library\n"
    out, count = R.rewrite_from_engine(source)
    assert count == 2
    assert out == (
        "def f():\n    from engine.core import tiles as T  # why\n    from engine import cli\n    return T\n"
        "from engine.scoring import library\n"
    )
    assert R.rewrite_from_engine(out) == (out, 0)


def test_a_statement_sharing_its_line_is_refused() -> None:
    with pytest.raises(SystemExit, match="sharing its line"):
        R.rewrite_from_engine("x = 1; from engine import tiles\n")


def test_contracts_are_written_and_others_kept() -> None:
    text = (
        '[tool.importlinter]\nroot_packages = ["engine"]\n\n[[tool.importlinter.contracts]]\nname = "mine"\n'
        'type = "forbidden"\nsource_modules = ["a"]\nforbidden_modules = ["b"]\n\n[[tool.importlinter.contracts]]\n'
        f'name = "{next(iter(R.OLD_CONTRACTS))}"\ntype = "layers"\ncontainers = ["engine"]\nlayers = ["x"]\n\n'
        "[tool.ruff]\nline-length = 110\n"
    )
    once = R.write_contracts(text)
    assert R.write_contracts(once) == once
    config = tomllib.loads(once)
    names = [c["name"] for c in config["tool"]["importlinter"]["contracts"]]
    assert names == ["mine", R.LAYERS_CONTRACT, R.ACYCLIC_CONTRACT, R.CORE_CONTRACT]
    layers = config["tool"]["importlinter"]["contracts"][1]
    assert layers["layers"] == R.LAYERS and config["tool"]["ruff"]["line-length"] == 110


def test_every_moved_module_has_a_layer_and_every_package_a_job() -> None:
    named = {part.strip() for layer in R.LAYERS for part in layer.split("|")}
    assert set(R.MOVES.values()) <= named and set(R.MOVES.values()) <= set(R.PACKAGES)


def test_the_move_on_a_small_repository(tmp_path: Path) -> None:
    # a checkout with one moved module, one kept, a test and a doc: moved, rewritten, and a second run changes nothing
    (tmp_path / "engine").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "engine" / "__init__.py").write_text("import engine.tiles as _tiles  # noqa: F401\n")
    (tmp_path / "engine" / "tiles.py").write_text("X = 1\n")
    (tmp_path / "engine" / "api.py").write_text("from engine import tiles\n\nY = tiles.X\n")
    (tmp_path / "tests" / "test_x.py").write_text('from engine.tiles import X\n\nPATCH = "engine.tiles.X"\n')
    (tmp_path / "README.md").write_text("`engine/tiles.py` holds tiles.\n")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    assert R.main(["--root", str(tmp_path)]) == 0
    assert not (tmp_path / "engine" / "tiles.py").exists() and (tmp_path / "engine" / "core" / "tiles.py").exists()
    assert (tmp_path / "engine" / "api.py").read_text() == "from engine.core import tiles\n\nY = tiles.X\n"
    assert "engine.core.tiles.X" in (tmp_path / "tests" / "test_x.py").read_text()
    assert (tmp_path / "README.md").read_text() == "`engine/core/tiles.py` holds tiles.\n"
    done = subprocess.run(
        [sys.executable, "-c", "import engine.api; print(engine.api.Y)"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.stdout.strip() == "1", done.stderr
    snapshot = {p: p.read_text() for p in tmp_path.rglob("*.py")}
    assert R.main(["--root", str(tmp_path)]) == 0
    assert {p: p.read_text() for p in tmp_path.rglob("*.py")} == snapshot
