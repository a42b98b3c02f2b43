"""The rule language is the lower layer: ``engine`` may import ``ruledsl``, never the other way round.

A cycle between the two would make neither usable (or testable) alone and lets engine details leak into the
language; these tests fail the moment a ``ruledsl`` module imports anything of the engine, directly or through
another package.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import ruledsl

RULEDSL_DIR = Path(ruledsl.__file__).parent


def _modules() -> list[str]:
    return sorted(f"ruledsl.{info.name}" for info in pkgutil.iter_modules([str(RULEDSL_DIR)]))


def test_importing_every_ruledsl_module_imports_no_engine_module() -> None:
    modules = _modules()
    assert "ruledsl.tiles" in modules and len(modules) > 10  # the walk found the package, not nothing
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'engine' or m.startswith('engine.'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=RULEDSL_DIR.parent, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def _engine_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [f"{path.name}:{node.lineno}" for alias in node.names if alias.name.split(".")[0] == "engine"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "engine":
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_ruledsl_file_imports_engine() -> None:
    files = sorted(RULEDSL_DIR.rglob("*.py"))
    assert files
    assert [hit for path in files for hit in _engine_imports(path)] == []


def test_the_check_itself_sees_an_engine_import(tmp_path: Path) -> None:
    # the scan above must not pass vacuously: it finds both spellings, also inside a function
    sample = tmp_path / "sample.py"
    sample.write_text("import engine.core.tiles\ndef f():\n    from engine import examples\n", encoding="utf-8")
    assert _engine_imports(sample) == ["sample.py:1", "sample.py:3"]


def test_engine_tiles_re_exports_the_same_objects() -> None:
    # the same functions, not wrappers: scoring's hot paths call them
    from engine.core import tiles as engine_tiles
    from ruledsl import tiles as notation

    for name in engine_tiles.__all__:
        if name != "NotationError":
            assert getattr(engine_tiles, name) is getattr(notation, name), name
    assert issubclass(engine_tiles.NotationError, notation.NotationError)


def test_bad_notation_from_the_shared_parser_is_an_engine_error() -> None:
    from engine.core.errors import EngineError
    from engine.core.tiles import NotationError
    from ruledsl import tiles as notation

    try:
        notation.parse_tiles("12x")
    except EngineError as exc:
        assert isinstance(exc, NotationError) and isinstance(exc, notation.NotationError)
        assert exc.to_json()["code"] == "invalid_notation" and exc.position == 2 and exc.text == "12x"
    else:
        raise AssertionError("bad notation was accepted")


def test_ruledsl_alone_raises_its_own_notation_error() -> None:
    script = (
        "from ruledsl import tiles\n"
        "try:\n    tiles.parse_tile('12x')\n"
        "except tiles.NotationError as exc:\n    print(type(exc).__module__, exc.code, exc.position)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=RULEDSL_DIR.parent, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ruledsl.tiles", "invalid_notation", "2"]
