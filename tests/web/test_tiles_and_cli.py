"""The tile pictures, the ``riichi serve`` command, and the promise that the core install never imports FastAPI."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from engine.cli import main
from engine.web.tile_art import ALL_TILES, tile_name, tile_svg


def test_every_tile_is_a_distinct_well_formed_svg():
    pictures = {code: tile_svg(code) for code in ALL_TILES}
    assert len(ALL_TILES) == 37 and len(set(pictures.values())) == 37
    for code, svg in pictures.items():
        root = ET.fromstring(svg)
        assert root.tag.endswith("svg") and root.get("aria-label") == tile_name(code)


def test_tile_names():
    assert tile_name("5p") == "5 of circles" and tile_name("0m") == "red 5 of characters"
    assert tile_name("7z") == "Red dragon"
    with pytest.raises(ValueError):
        tile_svg("8z")


def test_tiles_route(client):
    response = client.get("/tiles/0s.svg")
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
    assert client.get("/tiles/..%2Fapp.svg").status_code == 404
    assert client.get("/tiles/9z.svg").status_code == 404


def test_serve_help_lists_its_options(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["serve", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--rulebook-dir" in out and "127.0.0.1" in out


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    assert "pip install '.[web]'" in capsys.readouterr().err  # the README's own command


def test_serve_refuses_a_rulebook_dir_that_is_no_folder(tmp_path, capsys):
    assert main(["serve", "--rulebook-dir", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_core_commands_never_import_fastapi():
    code = (
        "import sys; from engine.cli import main; from engine import api; "
        "main(['score', '234m567m789p46s88p5s', '--win', '5s', '--riichi']); "
        "assert not any(m.split('.')[0] in ('fastapi', 'starlette', 'uvicorn', 'jinja2') for m in sys.modules), sorted(sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
