"""Where the files shipped with the package lie: the bundled rulebooks and the rule language's own data.

Plain ``os.path`` strings beside the modules, since the package is always installed as files:
``importlib.resources`` would import ``zipfile`` and ``tempfile`` (about 8 ms) into every process that loads a
rulebook, and ``pathlib`` imports ``urllib.parse`` and ``ipaddress`` (about 5 ms where ``site`` has not already).
"""

from __future__ import annotations

import os

RULEDSL = os.path.dirname(os.path.realpath(__file__))


def bundled_dir() -> str:
    """The folder of the bundled rulebooks (the ``rulebooks`` package)."""
    import rulebooks

    return os.path.dirname(os.path.realpath(rulebooks.__file__))
