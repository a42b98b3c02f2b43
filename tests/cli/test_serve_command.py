"""``riichi serve`` (``engine.cli.serve``) run with uvicorn replaced by a recorder, so that the options reaching the
application (the clamped timeout and worker count, the host shown to the operator) are checked without opening a
socket; a mistake in them is one readable line and the contract's exit code, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.cli import main


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Any:
    """uvicorn.run replaced by a recorder; the application it was given is closed after the test."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    calls: list[dict[str, Any]] = []

    def record(app: Any, **kwargs: Any) -> None:
        calls.append({"app": app, **kwargs})

    monkeypatch.setattr(uvicorn, "run", record)
    yield calls
    for call in calls:
        call["app"].state.riichi.close()


def test_serve_passes_its_options_to_the_application(served: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "8123", "--rulebook-dir", str(tmp_path), "--timeout", "0.01", "--workers", "0", "--log-level", "info"]) == 0
    (call,) = served
    assert call["host"] == "127.0.0.1" and call["port"] == 8123 and call["log_level"] == "info"
    state = call["app"].state.riichi
    assert state.pool.timeout == 0.5  # a timeout under half a second is raised to it
    assert state.pool.size == 1  # and at least one worker
    assert state.pool.folder == str(tmp_path)  # uploads' `extends` look beside the operator's files
    assert "riichi serve: http://127.0.0.1:8123/" in capsys.readouterr().err


def test_serve_keeps_the_defaults_when_not_told(served: list[dict[str, Any]]) -> None:
    from engine.web.state import ServerOptions

    assert main(["serve"]) == 0
    pool = served[0]["app"].state.riichi.pool
    assert pool.timeout == ServerOptions().timeout and pool.size == ServerOptions().workers


def test_serve_shows_an_ipv6_host_in_brackets(served: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "::1", "--port", "8001"]) == 0
    assert served[0]["host"] == "::1"
    assert "http://[::1]:8001/" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["0", "65536", "-3"])
def test_serve_refuses_a_port_out_of_range(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    assert main(["serve", "--port", port]) == 2
    assert f"--port must be between 1 and 65535, got {port}" in capsys.readouterr().err


def test_serve_passes_its_bounds_to_the_application_and_uvicorn(served: list[dict[str, Any]]) -> None:
    options = ["--allow-host", "club.example", "--allow-host", "lan.example", "--queue", "3", "--body-timeout", "4",
               "--header-timeout", "2", "--max-connections", "50", "--list-timeout", "25"]
    assert main(["serve", "--port", "8002", *options]) == 0
    (call,) = served
    state = call["app"].state.riichi
    assert state.jobs.queue == 3 and call["timeout_keep_alive"] == 5 and state.list_seconds == 25
    assert "GuardedProtocol" in call["http"].__name__ and "limit_concurrency" not in call
