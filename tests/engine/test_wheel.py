"""The wheel works on its own: built from the checkout, installed in a fresh virtual environment outside the
repository, it scores a hand from Python and from the ``riichi`` command, with no file of the checkout reachable.

The environment gets the wheel and its two dependencies only (lark and pydantic, linked from this interpreter's
site-packages, so that no download is needed to install): not tqdm (the ``cli`` extra), not the editable install of
the checkout. Building needs setuptools 77 or later in pip's isolated build environment (a download when it is not
cached): the test is skipped when pip cannot reach an index. About a minute: marked slow."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPENDENCIES = ("lark", "pydantic", "pydantic_core", "typing_extensions", "annotated_types", "typing_inspection")
OFFLINE = ("Could not find a version", "No matching distribution", "Failed to establish", "NewConnectionError", "Temporary failure")

pytestmark = pytest.mark.slow


def build_wheel(out: Path) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0 and any(sign in done.stderr for sign in OFFLINE):
        pytest.skip(f"pip cannot fetch the build backend: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stderr
    return next(out.glob("riichi_rulebook-*.whl"))


def link_dependencies(site: Path, into: Path) -> None:
    """Each dependency's package (or module) linked into ``into``, which a ``.pth`` file puts on the path."""
    into.mkdir()
    for name in DEPENDENCIES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue  # an older pydantic has no typing_inspection
        source = Path(module.__file__ or "")
        source = source.parent if source.name == "__init__.py" else source
        os.symlink(source, into / source.name)
    (site / "dependencies.pth").write_text(f"{into}\n", encoding="utf-8")


def test_the_wheel_scores_a_hand_in_a_fresh_environment():
    # a folder of its own rather than pytest's tmp_path: pytest sessions running beside this one prune the
    # numbered folders of /tmp/pytest-of-USER, and this test runs for a minute or two
    with tempfile.TemporaryDirectory(prefix="riichi-wheel-") as folder:
        check_the_wheel(Path(folder))


def check_the_wheel(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "dist")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith("licenses/LICENSE") for n in names) and "rulebooks/house.rulebook" in names
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "Requires-Dist: tqdm" in metadata.replace('; extra == "cli"', "")
    assert "\nRequires-Dist: tqdm>=4.60\n" not in metadata  # tqdm only with an extra

    # nothing of the checkout on the path (a PYTHONPATH to it would show pip its egg-info as installed already)
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "RIICHI_PROGRESS")}
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300, env=clean)
    python = env_dir / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)]
    subprocess.run(install, check=True, timeout=300, env=clean, cwd=tmp_path)
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = Path(subprocess.check_output([str(python), "-c", purelib], text=True, env=clean).strip())
    link_dependencies(site, tmp_path / "deps")

    work = tmp_path / "elsewhere"
    work.mkdir()
    code = (
        "import engine, json; from engine.api import scorer\n"
        "r = scorer('house').score({'hand': '234m567m789p46s88p5s', 'win': '5s', 'seat_wind': 'S', 'riichi': True, 'dora_indicators': '4s'})\n"
        "print(json.dumps({'file': engine.__file__, 'total': r['total']}))\n"
    )
    answer = json.loads(subprocess.check_output([str(python), "-c", code], cwd=work, env=clean, text=True, timeout=300))
    assert answer["total"] == 2600 and answer["file"].startswith(str(site))
    assert subprocess.run([str(python), "-c", "import tqdm"], cwd=work, env=clean, capture_output=True).returncode != 0

    riichi = env_dir / "bin" / "riichi"
    line = json.dumps({"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True, "dora_indicators": "4s"})
    out = subprocess.run([str(riichi), "score", "--json"], input=line + "\n", cwd=work, env=clean, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and json.loads(out.stdout)["total"] == 2600, out.stderr
