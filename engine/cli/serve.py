"""``riichi serve``: the web pages and HTTP API on this machine (``pip install '.[web]'`` brings the server).

Binds to 127.0.0.1 unless told otherwise: the server is meant for one person's browser or the programs of one
machine; an operator who opens it to a network says so with ``--host``. It answers only the Host names it is
bound to (plus ``--allow-host``), and runs uvicorn with the bounds of ``engine.web.limits``: headers within
``HEADER_SECONDS``, idle keep-alive ``KEEP_ALIVE_SECONDS``, at most ``MAX_CONNECTIONS`` open connections. FastAPI
and uvicorn are imported only here, when the command runs, so that the core install never needs them.
"""

from __future__ import annotations

import argparse
import os
import sys

from engine.core.errors import InvalidRequest
from ruledsl.record import replace

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8000


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=None, help=f"address to bind (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--port", type=int, default=None, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--rulebook-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="requests may name `.rulebook` files inside DIR (repeatable); otherwise only bundled rulebooks",
    )
    parser.add_argument("--rulebook", default=None, help="the default rulebook of score requests (default: the contract's default)")
    parser.add_argument("--timeout", type=float, default=None, help="seconds a check, explain or diff may run (default 20)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes for checks and diffs (default 2)")
    parser.add_argument("--queue", type=int, default=None, help="checks, explains and diffs that may wait for a worker (default 32; then 503)")
    parser.add_argument("--list-timeout", type=float, default=None,
                        help="seconds a list of scores or analyses may run (default 10; then 413)")
    parser.add_argument("--header-timeout", type=float, default=None, help="seconds a client may take to send a request's headers (default 10)")
    parser.add_argument("--body-timeout", type=float, default=None, help="seconds a client may take to send a request's body (default 30; then 408)")
    parser.add_argument("--max-connections", type=int, default=None, help="open connections at most (default 512; more are closed at once)")
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer requests whose Host is NAME (repeatable), e.g. the name a proxy or a LAN uses; "
        "otherwise only the --host address (and loopback names when bound to loopback)",
    )
    parser.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let pages of ORIGIN (e.g. https://club.example.org) call the API from a browser (repeatable); off by default",
    )
    parser.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"))
    parser.epilog = (
        "Every option may also be set by an environment variable, which the command line overrides: RIICHI_HOST, "
        "RIICHI_PORT, RIICHI_RULEBOOK_DIR (folders separated as in PATH), RIICHI_RULEBOOK, RIICHI_TIMEOUT, "
        "RIICHI_WORKERS, RIICHI_QUEUE, RIICHI_LIST_TIMEOUT, RIICHI_HEADER_TIMEOUT, RIICHI_BODY_TIMEOUT, RIICHI_MAX_CONNECTIONS, "
        "RIICHI_ALLOW_HOSTS and RIICHI_CORS_ORIGINS (comma-separated). See docs/deploy.md."
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from engine.web.app import create_app
        from engine.web.environment import number, options_from_env, protocol_bounds
        from engine.web.limits import HEADER_SECONDS, KEEP_ALIVE_SECONDS, MAX_CONNECTIONS
        from engine.web.protocol import guarded_protocol
        from engine.web.quiet_log import quiet
        from engine.web.state import ServerOptions
    except ModuleNotFoundError as exc:
        print(
            f"riichi serve: error: the web server needs the `web` extra ({exc.name} is missing); "
            "install it from the project's folder, as the README does: pip install '.[web]'",
            file=sys.stderr,
        )
        return 2
    for folder in args.rulebook_dir:
        if not os.path.isdir(folder):
            raise InvalidRequest(f"--rulebook-dir `{folder}` is not a folder")
    env = options_from_env(base=ServerOptions(warm=True))  # RIICHI_* variables; the command line wins
    bounds = protocol_bounds()
    port = args.port
    if port is None:
        port = number("RIICHI_PORT", os.environ["RIICHI_PORT"], int, "a port number") if os.environ.get("RIICHI_PORT") else DEFAULT_PORT
    if not 0 < port < 65536:
        raise InvalidRequest(f"--port must be between 1 and 65535, got {port}")
    options = replace(
        env,
        rulebook_dirs=tuple(args.rulebook_dir) or env.rulebook_dirs,
        default_rulebook=args.rulebook or env.default_rulebook,
        host=args.host or env.host,
        allow_hosts=tuple(args.allow_host) or env.allow_hosts,
        cors_origins=tuple(args.cors_origin) or env.cors_origins,
    )
    if args.timeout is not None:
        options = replace(options, timeout=max(0.5, args.timeout))
    if args.workers is not None:
        options = replace(options, workers=max(1, args.workers))
    if args.queue is not None:
        options = replace(options, queue=max(0, args.queue))
    if args.body_timeout is not None:
        options = replace(options, body_seconds=max(0.5, args.body_timeout))
    if args.list_timeout is not None:
        options = replace(options, list_seconds=max(0.5, args.list_timeout))
    header_timeout = args.header_timeout if args.header_timeout is not None else bounds.get("RIICHI_HEADER_TIMEOUT")
    max_connections = args.max_connections if args.max_connections is not None else bounds.get("RIICHI_MAX_CONNECTIONS")
    header_seconds = HEADER_SECONDS if header_timeout is None else max(0.5, header_timeout)
    connections = MAX_CONNECTIONS if max_connections is None else max(1, int(max_connections))
    app = create_app(options)
    # Threads that score lists hand the interpreter back to the event loop every 0.5 ms (not Python's 5 ms), so
    # that /health and a single score wait milliseconds, not a list, for their turn.
    sys.setswitchinterval(0.0005)
    quiet("uvicorn.error")  # a warning a client can cause (a malformed request) is logged once a minute at most
    print(f"riichi serve: http://{_shown(options.host)}:{port}/  (API docs at /docs; Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(
        app,
        host=options.host,
        port=port,
        log_level=args.log_level,
        http=guarded_protocol(header_seconds, connections),
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        # no `limit_concurrency`: the protocol caps connections (one request each at a time), and uvicorn's own
        # cap would log a line per refused request, a log an attacker could grow
    )
    return 0


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host else host
