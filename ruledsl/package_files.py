"""Where the files shipped with the package lie: the bundled rulebooks and the rule language's own data.

Plain paths beside the modules, since the package is always installed as files: ``importlib.resources`` would
import ``zipfile`` and ``tempfile`` (about 8 ms) into every process that loads a rulebook.
"""

from __future__ import annotations

from pathlib import Path

RULEDSL = Path(__file__).resolve().parent


def bundled_folder() -> Path:
    """The folder of the bundled rulebooks (the ``rulebooks`` package)."""
    import rulebooks

    return Path(rulebooks.__file__).resolve().parent
