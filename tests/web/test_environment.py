"""The server configured by ``RIICHI_*`` environment variables: ``create_app()`` without
options reads them, so ``uvicorn --factory engine.web.app:create_app --workers N`` takes every ``riichi serve``
option; CORS is off unless origins are named; a value that cannot be read is refused by its variable's name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from engine.core.errors import InvalidRequest
from engine.web.environment import VARIABLES, options_from_env, protocol_bounds
from engine.web.state import ServerOptions
from tests.web.conftest import TestClient, create_app
from tests.web.live import HOST, ROOT, Live, free_port

HAND = {"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True}
CLUB = 'rulebook club "Club" extends house\n'


def test_every_variable_sets_its_option(tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    env = {
        "RIICHI_RULEBOOK_DIR": f"{tmp_path}{os.pathsep}{other}",
        "RIICHI_RULEBOOK": "wrc2025",
        "RIICHI_HOST": "0.0.0.0",
        "RIICHI_ALLOW_HOSTS": "riichi.example.org, lan-box",
        "RIICHI_CORS_ORIGINS": "https://club.example.org",
        "RIICHI_WARM": "yes",
        "RIICHI_TIMEOUT": "7.5",
        "RIICHI_WORKERS": "3",
        "RIICHI_QUEUE": "4",
        "RIICHI_BODY_TIMEOUT": "12",
        "RIICHI_LIST_TIMEOUT": "30",
    }
    assert options_from_env(env) == ServerOptions(
        rulebook_dirs=(str(tmp_path), str(other)), default_rulebook="wrc2025", host="0.0.0.0",
        allow_hosts=("riichi.example.org", "lan-box"), cors_origins=("https://club.example.org",), warm=True,
        timeout=7.5, workers=3, queue=4, body_seconds=12.0, list_seconds=30.0,
    )
    assert options_from_env({}) == ServerOptions()
    assert protocol_bounds({"RIICHI_HEADER_TIMEOUT": "3", "RIICHI_MAX_CONNECTIONS": "64"}) == {"RIICHI_HEADER_TIMEOUT": 3.0, "RIICHI_MAX_CONNECTIONS": 64}
    assert set(env) | {"RIICHI_PORT", "RIICHI_HEADER_TIMEOUT", "RIICHI_MAX_CONNECTIONS"} == set(VARIABLES)


def test_bounds_are_clamped_as_on_the_command_line():
    options = options_from_env({"RIICHI_TIMEOUT": "0", "RIICHI_WORKERS": "0", "RIICHI_QUEUE": "-5", "RIICHI_BODY_TIMEOUT": "0.1",
                                "RIICHI_LIST_TIMEOUT": "0"})
    assert (options.timeout, options.workers, options.queue, options.body_seconds, options.list_seconds) == (0.5, 1, 0, 0.5, 0.5)


@pytest.mark.parametrize(
    "name, value",
    [("RIICHI_TIMEOUT", "soon"), ("RIICHI_TIMEOUT", "nan"), ("RIICHI_WORKERS", "2.5"), ("RIICHI_WARM", "maybe"),
     ("RIICHI_RULEBOOK_DIR", "/no/such/folder"), ("RIICHI_BODY_TIMEOUT", "inf"),
     ("RIICHI_LIST_TIMEOUT", "ten")],
)
def test_a_value_that_cannot_be_read_is_refused_by_name(name, value):
    with pytest.raises(InvalidRequest) as err:
        options_from_env({name: value})
    assert err.value.message.startswith(name)


def test_create_app_without_options_reads_the_environment(tmp_path, monkeypatch):
    (tmp_path / "club.rulebook").write_text(CLUB, encoding="utf-8")
    monkeypatch.setenv("RIICHI_RULEBOOK_DIR", str(tmp_path))
    monkeypatch.setenv("RIICHI_RULEBOOK", str(tmp_path / "club.rulebook"))
    monkeypatch.setenv("RIICHI_ALLOW_HOSTS", "testserver")
    with TestClient(create_app()) as client:
        assert "club.rulebook" in [row["name"] for row in client.get("/rulebooks").json()]
        assert client.post("/score", json=HAND).json()["rulebook"] == "club"
    monkeypatch.delenv("RIICHI_ALLOW_HOSTS")
    with TestClient(create_app()) as client:  # the Host policy comes from the environment too
        assert client.get("/health").status_code == 421


def test_cors_is_off_by_default_and_on_for_the_origins_named(monkeypatch):
    monkeypatch.setenv("RIICHI_ALLOW_HOSTS", "testserver")
    preflight = {"origin": "https://club.example.org", "access-control-request-method": "POST",
                 "access-control-request-headers": "content-type"}
    with TestClient(create_app()) as client:
        assert "access-control-allow-origin" not in client.options("/score", headers=preflight).headers
        assert "access-control-allow-origin" not in client.get("/health", headers={"origin": preflight["origin"]}).headers
    monkeypatch.setenv("RIICHI_CORS_ORIGINS", "https://club.example.org")
    with TestClient(create_app()) as client:
        granted = client.options("/score", headers=preflight)
        assert granted.status_code == 200 and granted.headers["access-control-allow-origin"] == "https://club.example.org"
        answer = client.post("/score", json=HAND, headers={"origin": preflight["origin"]})
        assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "https://club.example.org"
        stranger = client.options("/score", headers={**preflight, "origin": "https://evil.example"})
        assert "access-control-allow-origin" not in stranger.headers


def test_uvicorn_factory_with_workers_takes_the_environment(tmp_path):
    """The production command of docs/deploy.md, as a real process: two uvicorn workers, configured by variables."""
    (tmp_path / "club.rulebook").write_text(CLUB, encoding="utf-8")
    port = free_port()
    env = {**os.environ, "RIICHI_RULEBOOK_DIR": str(tmp_path), "RIICHI_RULEBOOK": str(tmp_path / "club.rulebook"), "RIICHI_WORKERS": "1",
           "RIICHI_ALLOW_HOSTS": "riichi.example.org", "PYTHONPATH": str(ROOT)}
    log = tmp_path / "uvicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "engine.web.app:create_app", "--workers", "2",
             "--host", HOST, "--port", str(port), "--log-level", "warning"],
            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=out,
        )
    live = Live(port, log, process)
    try:
        _wait_up(live, 90)
        status, _, body = live.request("POST", "/score", HAND)
        assert status == 200 and json.loads(body)["rulebook"] == "club"
        status, _, _ = live.request("GET", "/health", headers={"host": "riichi.example.org"})
        assert status == 200
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def _wait_up(live: Live, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if live.process.poll() is not None:
            raise AssertionError(f"uvicorn exited at start:\n{live.log.read_text()[-2000:]}")
        try:
            if live.request("GET", "/health", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"uvicorn did not answer within {seconds:g} s:\n{live.log.read_text()[-2000:]}")


def test_riichi_serve_refuses_a_variable_it_cannot_read(monkeypatch, capsys):
    from engine.cli import main

    monkeypatch.setenv("RIICHI_TIMEOUT", "soon")
    assert main(["serve"]) == 2
    assert "RIICHI_TIMEOUT must be a number of seconds" in capsys.readouterr().err


def test_the_version_of_a_source_tree_never_installed_is_unknown(monkeypatch):
    import importlib.metadata

    from engine.core.version import installed_version

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert installed_version.__wrapped__() == "unknown"
