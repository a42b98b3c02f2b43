"""The installed distribution's version, read once: the HTTP API shows it in ``/health`` and its OpenAPI
document, so that a client knows which server answers it."""

from __future__ import annotations

from ruledsl.caches import once


@once
def installed_version() -> str:
    """The version ``pip`` reports for riichi-rulebook; ``unknown`` in a source tree never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("riichi-rulebook")
    except PackageNotFoundError:
        return "unknown"


__all__ = ["installed_version"]
