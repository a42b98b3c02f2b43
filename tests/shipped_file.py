"""A package's shipped file as ``importlib.resources`` reads it, standing in for the real one: a test of what a
reader does with a missing, damaged or foreign file gives the text (None: the file cannot be read)."""

from __future__ import annotations

import pytest


class _Folder:
    """What ``importlib.resources.files`` gives, holding one file's text (None: the file cannot be read)."""

    def __init__(self, text: str | None) -> None:
        self.text = text

    def joinpath(self, _name: str) -> _Folder:
        return self

    def read_text(self, encoding: str = "utf-8") -> str:
        if self.text is None:
            raise OSError("no such file")
        return self.text


def ship(monkeypatch: pytest.MonkeyPatch, text: str | None) -> None:
    """Every file read through ``importlib.resources`` has ``text`` for the rest of the test."""
    from importlib import resources

    monkeypatch.setattr(resources, "files", lambda _package: _Folder(text))
