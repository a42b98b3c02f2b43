"""A package's shipped file as ``importlib.resources`` reads it, standing in for the real one: a test of what a
reader does with a missing, damaged or foreign file gives the text (None: the file cannot be read).

Only the named file is replaced. Every other shipped file reads as it is, so that a reader met on the way (a
cached table of another file, read for the first time while the stand-in is in place) does not keep the
stand-in's text for the rest of the process."""

from __future__ import annotations

from typing import Any

import pytest


class _File:
    """The stand-in file: its text, or an ``OSError`` when it has none."""

    def __init__(self, text: str | None) -> None:
        self.text = text

    def read_text(self, encoding: str = "utf-8") -> str:
        if self.text is None:
            raise OSError("no such file")
        return self.text


class _Folder:
    """What ``importlib.resources.files`` gives: the stand-in for ``name``, the real folder's file otherwise."""

    def __init__(self, real: Any, name: str, text: str | None) -> None:
        self.real, self.name, self.text = real, name, text

    def joinpath(self, name: str) -> Any:
        return _File(self.text) if name == self.name else self.real.joinpath(name)


def ship(monkeypatch: pytest.MonkeyPatch, name: str, text: str | None) -> None:
    """The shipped file ``name`` (of any package) has ``text`` for the rest of the test."""
    from importlib import resources

    files = resources.files
    monkeypatch.setattr(resources, "files", lambda package: _Folder(files(package), name, text))
