"""Names a package hands out but imports only when a caller first reads them (PEP 562's module ``__getattr__``).

A package's front door (``engine.api``, ``engine.game``) lists everything an embedder may need; importing all of
it up front would make every command pay for the round engine, pydantic and the game's agents. Each such module
keeps a table of name -> defining module and delegates its ``__getattr__`` here.
"""

from __future__ import annotations

import importlib

from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def lazy_names(package: str, where: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: a name of ``where`` is imported from its module on first read and kept
    in ``namespace`` (the module's globals), so later reads find it without this function; any other name is the
    usual ``AttributeError``."""

    def get(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return get
