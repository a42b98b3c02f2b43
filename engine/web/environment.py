"""The server's options from environment variables, for ``uvicorn --factory engine.web.app:create_app`` (or
gunicorn, a container, a service manager), where no ``riichi serve`` command line exists to carry them.

Each ``riichi serve`` option has a variable (``RIICHI_`` and the option's name; lists separated by commas, a
folder list by the system's path separator as ``PATH`` is); ``riichi serve`` reads them too, and its command line
wins. A value that cannot be read is refused by name, so that a typo in a deployment never starts a server with
another configuration than the one written.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from engine.core.errors import InvalidRequest
from engine.web.state import ServerOptions
from ruledsl.record import replace

# variable -> (ServerOptions field, reader, what a value must be, clamp)
_NUMBERS: dict[str, tuple[str, Callable[[str], Any], str, Callable[[Any], Any]]] = {
    "RIICHI_TIMEOUT": ("timeout", float, "a number of seconds", lambda v: max(0.5, v)),
    "RIICHI_WORKERS": ("workers", int, "a whole number of worker processes", lambda v: max(1, v)),
    "RIICHI_QUEUE": ("queue", int, "a whole number of waiting jobs", lambda v: max(0, v)),
    "RIICHI_BODY_TIMEOUT": ("body_seconds", float, "a number of seconds", lambda v: max(0.5, v)),
    "RIICHI_LIST_TIMEOUT": ("list_seconds", float, "a number of seconds", lambda v: max(0.5, v)),
}
# the two bounds of the connection protocol, read by ``riichi serve`` only (uvicorn's own options under --factory)
PROTOCOL = {"RIICHI_HEADER_TIMEOUT": (float, "a number of seconds"), "RIICHI_MAX_CONNECTIONS": (int, "a whole number of connections")}
VARIABLES = ("RIICHI_PORT", "RIICHI_RULEBOOK_DIR", "RIICHI_RULEBOOK", "RIICHI_HOST", "RIICHI_ALLOW_HOSTS", "RIICHI_CORS_ORIGINS",
             "RIICHI_WARM", *_NUMBERS, *PROTOCOL)
_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


def options_from_env(environ: Mapping[str, str] | None = None, base: ServerOptions | None = None) -> ServerOptions:
    """``base`` (the defaults) with every ``RIICHI_*`` variable that is set applied."""
    env = os.environ if environ is None else environ
    options = base or ServerOptions()
    dirs = [d for d in env.get("RIICHI_RULEBOOK_DIR", "").split(os.pathsep) if d]
    for folder in dirs:
        if not os.path.isdir(folder):
            raise InvalidRequest(f"RIICHI_RULEBOOK_DIR: `{folder}` is not a folder")
    if dirs:
        options = replace(options, rulebook_dirs=tuple(dirs))
    if env.get("RIICHI_RULEBOOK"):
        options = replace(options, default_rulebook=env["RIICHI_RULEBOOK"])
    if env.get("RIICHI_HOST"):
        options = replace(options, host=env["RIICHI_HOST"])
    for name, field in (("RIICHI_ALLOW_HOSTS", "allow_hosts"), ("RIICHI_CORS_ORIGINS", "cors_origins")):
        if env.get(name):
            options = replace(options, **{field: words(env[name])})
    if "RIICHI_WARM" in env:
        options = replace(options, warm=flag("RIICHI_WARM", env["RIICHI_WARM"]))
    for name, (field, read, what, clamp) in _NUMBERS.items():
        if env.get(name):
            options = replace(options, **{field: clamp(number(name, env[name], read, what))})
    return options


def protocol_bounds(environ: Mapping[str, str] | None = None) -> dict[str, float | int]:
    """``RIICHI_HEADER_TIMEOUT`` and ``RIICHI_MAX_CONNECTIONS`` when set (``riichi serve``'s protocol)."""
    env = os.environ if environ is None else environ
    return {name: number(name, env[name], read, what) for name, (read, what) in PROTOCOL.items() if env.get(name)}


def words(text: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in text.split(",") if word.strip())


def flag(name: str, text: str) -> bool:
    value = text.strip().lower()
    if value not in _TRUE | _FALSE:
        raise InvalidRequest(f"{name} must be 1 or 0 (true or false), got `{text[:40]}`")
    return value in _TRUE


def number(name: str, text: str, read: Callable[[str], Any], what: str) -> Any:
    try:
        value = read(text.strip())
    except ValueError:
        raise InvalidRequest(f"{name} must be {what}, got `{text[:40]}`") from None
    if value != value or value in (float("inf"), float("-inf")):  # nan, inf: no bound at all
        raise InvalidRequest(f"{name} must be {what}, got `{text[:40]}`")
    return value


__all__ = ["VARIABLES", "PROTOCOL", "options_from_env", "protocol_bounds"]
