"""The ``riichi serve`` application: the HTTP API, the pages, their static files, and the request bounds.

``create_app`` builds one application for the operator's options; the contract's errors become the contract's
JSON body with a fitting status everywhere, FastAPI's own validation errors and unknown routes included, so that
a client never sees another error shape.
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from engine.core.errors import EngineError, InternalError
from engine.core.version import installed_version
from engine.scoring.request import ScoreRequest
from engine.web import api, pages, sheet
from engine.web.body_limit import BodyLimit
from engine.web.errors import STATUS, ContractJSON, body, from_exception
from engine.web.gate import HostPolicy, RequestGate
from engine.web.hide_paths import HidePaths
from engine.web.lanes import Busy
from engine.web.limits import MAX_BODY_BYTES
from engine.web.models import AnalyzeRequest
from engine.web.state import ServerOptions, ServerState
from engine.web.validation import describe

DESCRIPTION = """Score riichi mahjong hands under any rulebook, check and explain rulebooks, and compare two.

Every answer is the JSON of the command-line contract (`riichi score --json`, `check --json`, `diff --json`).
An error is `{"ok": false, "error": {"code", "message"}}` with status 400 (malformed request), 404 (unknown
rulebook), 422 (not a win, no yaku, a rulebook with errors: `POST /check` answers its report with 422 when the
rulebook has errors, 200 when only warnings) or 413 (past a size, count or time bound); 415 when a
POST body is not sent as `application/json`, 421 for a `Host` this server does not answer for, 408 when a body
is not whole in time, 503 with `Retry-After` when the server's queue for that kind of request is full, and 500
(`internal_error`) for a bug of the server's, to be reported.
"""


def create_app(options: ServerOptions | None = None) -> FastAPI:
    """The application for ``options``; without them (``uvicorn --factory engine.web.app:create_app``), the
    options of the ``RIICHI_*`` environment variables (``engine.web.environment``, docs/deploy.md)."""
    if options is None:
        from engine.web.environment import options_from_env

        options = options_from_env()
    state = ServerState.start(options)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if options.warm:
            threading.Thread(target=state.pool.warm, daemon=True).start()
        yield
        state.close()

    app = FastAPI(
        title="riichi-rulebook",
        description=DESCRIPTION,
        version=installed_version(),
        default_response_class=ContractJSON,
        lifespan=lifespan,
        docs_url=None if _offline_docs() else "/docs",
        redoc_url=None,
    )
    app.state.riichi = state
    # Outermost first: the gate (Host, content type), then paths hidden in every answer, then the body's bounds.
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, seconds=options.body_seconds)
    app.add_middleware(HidePaths, folders=_server_folders(state))
    app.add_middleware(RequestGate, hosts=HostPolicy(options.host, options.allow_hosts))
    _cors(app, options.cors_origins)
    _handlers(app)
    app.include_router(api.router, tags=["api"])
    app.include_router(pages.router, include_in_schema=False)
    app.include_router(sheet.router, tags=["api"])
    static = resources.files("engine.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    _schemas(app)
    _docs(app)
    return app


def _cors(app: FastAPI, origins: tuple[str, ...]) -> None:
    """Browser pages of these origins may call the API (off unless the operator names origins): outermost, so that
    a preflight is answered before the gate, and the gate's own refusals carry the headers too. Only GET and POST
    with a JSON body; no credentials (the API has none)."""
    if not origins:
        return
    from starlette.middleware.cors import CORSMiddleware

    app.add_middleware(CORSMiddleware, allow_origins=list(origins), allow_methods=["GET", "POST"],
                       allow_headers=["Content-Type"], expose_headers=["Retry-After"], max_age=600)


def _server_folders(state: ServerState) -> list[tuple[str, str]]:
    """The folders an answer must never show: the operator's rulebook folders, the workers' scratch folder, and
    the folder this package is installed in (a bundled rulebook shows as ``rulebooks/NAME.rulebook``)."""
    import rulebooks

    package_root = os.path.dirname(os.path.dirname(os.path.realpath(rulebooks.__file__)))
    folders = [(folder, "the rulebook folder") for folder in state.policy.dirs]
    if state.scratch is not None:
        folders.append((os.path.realpath(state.scratch), "the worker's folder"))
    folders.append((package_root, "the server's folder"))
    return folders


def _offline_docs() -> str | None:
    """The folder of Swagger UI's files shipped by ``fastapi-offline`` (in the ``web`` extra), if installed."""
    try:
        import fastapi_offline  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return None
    folder = os.path.join(os.path.dirname(fastapi_offline.__file__), "static")
    return folder if os.path.isfile(os.path.join(folder, "swagger-ui-bundle.js")) else None


def _docs(app: FastAPI) -> None:
    """``/docs`` from Swagger UI files served here, so that the API's docs open offline as the pages do
    (without ``fastapi-offline`` FastAPI's own ``/docs`` is left, which loads Swagger UI from a CDN)."""
    folder = _offline_docs()
    if folder is None:
        return
    app.mount("/static-docs", StaticFiles(directory=folder), name="static-docs")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} · HTTP API",
            swagger_js_url="/static-docs/swagger-ui-bundle.js",
            swagger_css_url="/static-docs/swagger-ui.css",
            swagger_favicon_url="/static-docs/favicon.png",
        )


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(EngineError)
    async def engine_error(request: Request, exc: EngineError) -> JSONResponse:
        data = from_exception(exc)
        return ContractJSON(data, status_code=STATUS[data["error"]["code"]])

    @app.exception_handler(Busy)
    async def busy(request: Request, exc: Busy) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)}
        return ContractJSON(body("limit_exceeded", str(exc)), status_code=503, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return ContractJSON(body("invalid_request", describe(exc.errors())), status_code=400)

    @app.exception_handler(InternalError)
    async def internal(request: Request, exc: InternalError) -> JSONResponse:
        return ContractJSON(from_exception(exc), status_code=500)

    @app.exception_handler(Exception)
    async def bug(request: Request, exc: Exception) -> JSONResponse:
        """Anything else is a bug of ours: 500 with the contract's body, asking for a report, never a traceback
        (Starlette still logs the exception for the operator). This handler runs outside the middleware that hides
        the server's folders, so the answer names the exception's type only, never its text (which may hold a path)."""
        message = (f"internal error ({type(exc).__name__}); this is a bug of the server, please report it with the "
                   "request that caused it")
        return ContractJSON(from_exception(InternalError(message)), status_code=500)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return ContractJSON(body("invalid_request", str(exc.detail)), status_code=exc.status_code)


def _schemas(app: FastAPI) -> None:
    """OpenAPI: add ``ScoreRequest`` and ``AnalyzeRequest`` (``POST /score`` and ``/analyze`` read their bodies
    themselves, to answer lists item by item, so FastAPI does not know their models), and drop FastAPI's own
    validation-error models: every route declares its 422 and the server never answers that shape."""
    base = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = base()
            defs = ScoreRequest.model_json_schema(ref_template="#/components/schemas/{model}")
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            components.update(defs.pop("$defs", {}))
            components["ScoreRequest"] = defs
            components["AnalyzeRequest"] = AnalyzeRequest.model_json_schema(ref_template="#/components/schemas/{model}")
            for unused in ("HTTPValidationError", "ValidationError"):
                components.pop(unused, None)
            for operation in (op for path in schema["paths"].values() for op in path.values()):
                responses = operation.get("responses", {})
                for status in [s for s, r in responses.items() if "HTTPValidationError" in str(r)]:
                    del responses[status]
                content = responses.get("200", {}).get("content", {})
                if len(content) > 1 and not content.get("application/json", {}).get("schema"):
                    content.pop("application/json", None)  # a page (the handout) answers its own media types
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


__all__ = ["create_app", "ServerOptions"]
