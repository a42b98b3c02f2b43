"""Fixtures of the web tests: an application per test through FastAPI's test client (httpx), no socket."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the web tests need the `web` extra (pip install '.[web]')")
pytest.importorskip("httpx", reason="FastAPI's test client needs httpx (in the `test` extra)")

with warnings.catch_warnings():  # Starlette's notice about its own choice of HTTP client, not about our code
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from engine.web.app import create_app  # noqa: E402
from engine.web.state import ServerOptions  # noqa: E402


def make_client(**options: object) -> TestClient:
    """A client of an application that answers the test client's own Host name (``testserver``), with a generous
    time bound on its workers unless a test sets one: these tests check answers, and on a loaded machine (the whole
    suite on two cores) a sample games' impact report or a diff has taken longer than the server's default; tests
    of the bound build a client with a short one."""
    options.setdefault("allow_hosts", ("testserver",))
    options.setdefault("timeout", 300.0)
    return TestClient(create_app(ServerOptions(**options)))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One application for a module's tests: its worker processes start once."""
    with make_client() as c:
        yield c
