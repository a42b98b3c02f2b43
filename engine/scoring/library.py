"""Rulebooks and their scorers loaded once per process, and which rulebooks a request may name.

The loading and its bounded caches are ``engine.scoring.loading``'s (re-exported here, where they have always been
imported from); this module adds the shared ``Scorer`` of each loaded rulebook (``scorer``, ``scorer_from_text``).

Requests come from other programs, so what they may name is decided by the operator (``RulebookPolicy``): a
bundled rulebook, the operator's own ``--rulebook``, or a ``.rulebook`` file inside a ``--rulebook-dir``. Anything
else is ``unknown_rulebook`` with a message that quotes only the request's own (sanitised) words.
"""

from __future__ import annotations

import os
import stat

from engine.core.errors import UnknownRulebook
from engine.scoring.loading import (
    _RULEBOOKS,  # noqa: F401 (the compiled rulebooks' cache, which tests bound)
    CACHE_SIZE,
    FAILURE_CACHE_SIZE,
    _bundled,
    built,
    built_from_text,
    canonical,
    clear_caches,
    forget,
    is_bundled,
    rulebook,
    rulebook_from_text,
)
from engine.scoring.score import Scorer
from rulebooks import DEFAULT_RULEBOOK
from ruledsl.record import record
from ruledsl.rulebook_files import RULEBOOK_SUFFIX, bundled_names


def scorer(ref: str | None = DEFAULT_RULEBOOK, *, within: tuple[str, ...] | None = None) -> Scorer:
    """The scorer for a rulebook, built once per canonical rulebook and shared (a ``Scorer`` is thread-safe);
    a new one once the rulebook's files were edited."""
    return built(ref, within, Scorer)


def scorer_from_text(text: str, file: str = "<memory>") -> Scorer:
    """The scorer for rulebook text held in memory, shared like ``scorer``'s (keyed by the text's SHA-256)."""
    return built_from_text(text, file, Scorer)


@record(slots=False)
class RulebookPolicy:
    """Which rulebooks the requests of a batch may name, as the operator allowed on the command line.

    ``default`` is the operator's ``--rulebook`` (a bundled name or a path, trusted as given); ``dirs`` are the
    ``--rulebook-dir`` folders, whose ``.rulebook`` files (regular files, at any depth, symlinks resolved) a
    request may name by path. A request may always name a bundled rulebook.
    """

    default: str = DEFAULT_RULEBOOK
    dirs: tuple[str, ...] = ()

    @classmethod
    def of(cls, default: str | None, dirs: list[str] | tuple[str, ...] | None = ()) -> RulebookPolicy:
        real = tuple(os.path.realpath(d) for d in dirs or ())
        return cls(default or DEFAULT_RULEBOOK, real)

    @property
    def folders(self) -> tuple[str, ...]:
        """The real folders whose rulebook files a request's rulebook (and its ``extends`` chain) may read: the
        ``--rulebook-dir`` folders and the folder of the operator's own ``--rulebook`` file."""
        if self.default in _bundled():
            return self.dirs
        return (*self.dirs, os.path.dirname(os.path.realpath(self.default)))

    def scorer(self, named: object) -> Scorer:
        """The scorer for a request's ``rulebook`` field, every file it reads confined to ``folders``."""
        return scorer(self.choose(named), within=self.folders)

    def choose(self, named: object) -> str:
        """The rulebook reference to load for a request's ``rulebook`` field; ``UnknownRulebook`` when the
        request may not name it."""
        if named is None or named == self.default:
            return self.default
        if not isinstance(named, str):
            raise UnknownRulebook("`rulebook` must be a string naming a rulebook")
        if named in _bundled():
            return named
        if "\x00" in named or len(named) > 4096:
            from ruledsl.diagnostics import printable

            raise UnknownRulebook(f"unknown rulebook `{printable(named)}`")
        if canonical(named) == canonical(self.default):
            return self.default
        for folder in self.dirs:
            path = self._inside(named, folder)
            if path is not None:
                return path
        return self._refuse(named)

    def _inside(self, named: str, folder: str) -> str | None:
        candidate = named if os.path.isabs(named) else os.path.join(folder, named)
        if not candidate.endswith(RULEBOOK_SUFFIX):
            candidate += RULEBOOK_SUFFIX
        try:
            real = os.path.realpath(candidate)
            if os.path.commonpath([real, folder]) != folder:
                return None
            mode = os.stat(real).st_mode
        except (OSError, ValueError):
            return None
        return real if stat.S_ISREG(mode) else None

    def _refuse(self, named: str) -> str:
        from ruledsl.diagnostics import printable

        shown = printable(named)
        if self.dirs:
            raise UnknownRulebook(
                f"unknown rulebook `{shown}`: not a bundled rulebook, nor a `.rulebook` file in a folder allowed by `--rulebook-dir`"
            )
        raise UnknownRulebook(
            f"unknown rulebook `{shown}`: a request may name a bundled rulebook ({', '.join(sorted(_bundled()))}); "
            "files only inside a folder the operator allows with `--rulebook-dir`"
        )


__all__ = ["rulebook", "rulebook_from_text", "scorer", "scorer_from_text", "forget", "bundled_names", "is_bundled", "clear_caches", "canonical", "RulebookPolicy", "DEFAULT_RULEBOOK", "CACHE_SIZE", "FAILURE_CACHE_SIZE"]
