"""Where the files shipped with the package lie, reading them, and telling whether the installed code made them.

Plain ``os.path`` strings beside the modules, since the package is always installed as files:
``importlib.resources`` would import ``zipfile`` and ``tempfile`` (about 8 ms) into every process that loads a
rulebook, and ``pathlib`` imports ``urllib.parse`` and ``ipaddress`` (about 3 ms where ``site`` has not already).

The generated files beside the bundled rulebooks (the parsed and the compiled rulebooks) are trusted only while the
code that made them is the code installed: each records a ``fingerprint`` of its sources. Hashing some thirty
sources (300 kB) took a one-hand command 7 M instructions, a twentieth of its own work, at every start; so the
digest is kept beside the bytecode (``__pycache__``) with the size and modification time of every source, and
computed again only when one of them differs: the interpreter trusts its bytecode on the same evidence, and
whoever may write the stamp may write that bytecode too. The stamp follows the interpreter's own settings for
bytecode: it goes under ``sys.pycache_prefix`` when one is set, and is not written when bytecode is not
(``python -B``, ``PYTHONDONTWRITEBYTECODE``), a stamp already there still being read.
"""

from __future__ import annotations

import json
import os
import sys
import time

from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

RULEDSL = os.path.dirname(os.path.realpath(__file__))
# A source modified this recently may change again within the same tick of a coarse file-system clock: its digest
# is not kept (git's "racily clean" files), so the next process hashes it again.
RECENT_NS = 2_000_000_000
STAMP_FORMAT = 1
# Everything a successful parse's result or the checker's verdict depends on, the sources of the parsed rulebooks
# (``ruledsl.parsed_cache``) and, with the compiler's, of the compiled ones (``ruledsl.compiled_cache``): any change
# to one of them can change a tree, a span or a diagnostic. ``tests/ruledsl/test_parsed_cache.py`` holds it equal to
# what the parser and the checker import.
PARSED_SOURCES = (
    "grammar.lark",
    "parser.py",
    "lark_parser.py",
    "fast_parser.py",
    "grammar_tables.py",
    "ast.py",
    "record.py",
    "caches.py",
    "memo.py",
    "parsed_cache.py",
    "package_files.py",
    "diagnostics.py",
    "resolve.py",
    "rulebook_files.py",
    "check.py",
    "check_settings.py",
    "clause_checks.py",
    "clause_origin.py",
    "limits.py",
    "arithmetic.py",
    "render.py",
    "tiles.py",
    "user_error.py",
    "values.py",
    "vocabulary.py",
    "situation_words.py",
    "typing_names.py",
)


def bundled_dir() -> str:
    """The folder of the bundled rulebooks (the ``rulebooks`` package)."""
    import rulebooks

    return os.path.dirname(os.path.realpath(rulebooks.__file__))


def shipped_text(name: str) -> str | None:
    """The text of a file shipped beside the bundled rulebooks; None when it is missing or not UTF-8."""
    try:
        with open(os.path.join(bundled_dir(), name), encoding="utf-8") as shipped:
            return shipped.read()
    except (OSError, ValueError):
        return None


def shipped_bytes(name: str) -> bytes | None:
    """The bytes of a file shipped beside the bundled rulebooks, or None: a start-up parses a few of its lines, so
    the rest is neither decoded nor copied into strings (``json.loads`` reads UTF-8 bytes as it reads their text)."""
    try:
        with open(os.path.join(bundled_dir(), name), "rb") as shipped:
            return shipped.read()
    except OSError:
        return None


def _sha256_class() -> Any:
    """SHA-256 from the interpreter's own module: ``hashlib`` loads OpenSSL, 2-5 ms of a one-hand command's start-up."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12 and later

        return sha256
    except ImportError:
        pass
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]  # Python 3.11

        return sha256
    except ImportError:  # an interpreter built without them
        from hashlib import sha256

        return sha256


SHA256 = _sha256_class()


def _blake2b_class() -> Any:
    """BLAKE2b from the interpreter's own module, for the fingerprint of the sources: as strong as SHA-256 against
    an accidental match and about three times quicker over their 300 kB."""
    try:
        from _blake2 import blake2b  # type: ignore[import-not-found, unused-ignore]
    except ImportError:  # an interpreter built without it: the fingerprint differs, the shipped files are ignored
        return SHA256
    return lambda data=b"": blake2b(data, digest_size=32)  # 32 bytes, as long as a SHA-256


BLAKE2B = _blake2b_class()
# the digests of the last texts asked for: loading a bundled rulebook asks for its text's twice (its tree, then its
# chain's verdict), and a text is a rulebook's whole file
_TEXT_DIGESTS: dict[str, str] = {}


def text_sha256(text: str) -> str:
    """The key of a rulebook text (``surrogatepass``: any str has a key, even one no file could hold)."""
    found = _TEXT_DIGESTS.get(text)
    if found is None:
        found = SHA256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if len(_TEXT_DIGESTS) >= 16:
            _TEXT_DIGESTS.clear()
        _TEXT_DIGESTS[text] = found
    return found


def digest(sources: tuple[str, ...]) -> str:
    """The BLAKE2b digest of these files of ``ruledsl`` (their names and contents), read as bytes with line
    endings made ``\\n`` (a checkout may have ``\\r\\n``)."""
    total = BLAKE2B()
    for name in sources:
        with open(os.path.join(RULEDSL, name), "rb") as source:
            data = source.read().replace(b"\r\n", b"\n")
        total.update(name.encode() + b"\0" + BLAKE2B(data).digest())
    return str(total.hexdigest())


def fingerprint(sources: tuple[str, ...]) -> str:
    """``digest(sources)``, taken from the stamp beside the bytecode while every source has the size and
    modification time it had when the stamp was written; computed (and the stamp written, where this process may
    write) otherwise. A source that cannot be read raises ``OSError``, as ``digest`` does."""
    stats = _stats(sources)
    path = _stamp_path(sources)
    if stats is not None:
        found = _read_stamp(path)
        if found is not None and found.get("sources") == list(sources) and found.get("stats") == stats:
            kept = found.get("digest")
            if type(kept) is str:
                return kept
    made = digest(sources)
    settled = stats is not None and all(time.time_ns() - mtime > RECENT_NS for _size, mtime in stats)
    if settled and stats is not None and not sys.dont_write_bytecode:
        _write_stamp(path, {"format": STAMP_FORMAT, "sources": list(sources), "stats": stats, "digest": made})
    return made


def _stats(sources: tuple[str, ...]) -> list[list[int]] | None:
    """[size, modification time in ns] of every source, or None when one cannot be told."""
    stats = []
    for name in sources:
        try:
            info = os.stat(os.path.join(RULEDSL, name))
        except (OSError, ValueError):
            return None
        stats.append([info.st_size, info.st_mtime_ns])
    return stats


def _stamp_path(sources: tuple[str, ...]) -> str:
    """One stamp per list of sources (the parsed and the compiled rulebooks depend on different ones), in the
    folder where this interpreter writes the bytecode of ``ruledsl``."""
    key = BLAKE2B("\0".join(sources).encode()).hexdigest()[:16]
    if sys.pycache_prefix:
        folder = os.path.join(sys.pycache_prefix, os.path.splitdrive(RULEDSL)[1].lstrip(os.sep))
    else:
        folder = os.path.join(RULEDSL, "__pycache__")
    return os.path.join(folder, f"fingerprint-{key}.json")


def _read_stamp(path: str) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as stamp:
            found = json.loads(stamp.read())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and found.get("format") == STAMP_FORMAT else None


def _write_stamp(path: str, data: dict[str, Any]) -> None:
    """Written whole under a temporary name, then renamed: a process reading it meanwhile sees the old stamp or
    the new one, never half of one. Where the folder cannot be written (an installation owned by another user), the
    digest is simply computed again by the next process."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as stamp:
            stamp.write(json.dumps(data))
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
