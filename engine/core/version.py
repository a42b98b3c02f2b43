"""The installed distribution's version: the HTTP API shows it (read once) in ``/health`` and its OpenAPI
document, so that a client knows which server answers it; ``riichi --version`` and the language server show it too."""

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


def shown_version() -> str:
    """The version as ``riichi --version`` and the language server show it: read afresh each time, and saying
    ``unknown (not installed)`` when run from a source tree never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("riichi-rulebook")
    except PackageNotFoundError:
        return "unknown (not installed)"


__all__ = ["installed_version", "shown_version"]
