"""The progress helper: quiet unless asked or on a terminal, and never changes what it iterates."""

from __future__ import annotations

import io

import pytest

from engine.cli import progress as progress_module
from engine.cli.progress import progress, ticker, wanted


def test_quiet_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.delenv(progress_module.ENV_SWITCH, raising=False)
    assert list(progress(range(5), label="x")) == [0, 1, 2, 3, 4]
    with ticker(total=3, label="y") as tick:
        tick()
        tick(2, total=4)
    assert capsys.readouterr().err == ""


def test_explicit_choice_beats_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(progress_module.ENV_SWITCH, "1")
    assert wanted(False) is False
    assert wanted(None) is True
    monkeypatch.setenv(progress_module.ENV_SWITCH, "0")
    assert wanted(None) is False
    assert wanted(True) is True


def test_forced_bar_draws_on_stderr_and_yields_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert list(progress(iter(range(4)), total=4, label="replay", enabled=True)) == [0, 1, 2, 3]
    assert "replay" in err.getvalue()


def test_without_tqdm_a_plain_counter_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """tqdm is the optional `cli` extra: without it the command still runs and shows `label n/total`."""
    import sys

    monkeypatch.setitem(sys.modules, "tqdm", None)  # `from tqdm import tqdm` raises ImportError
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with ticker(total=3, label="replay", enabled=True) as tick:
        tick()
        tick(2, total=4)
    assert list(progress(range(3), label="x", enabled=True)) == [0, 1, 2]
    assert "replay 1/3" in err.getvalue() and "replay 1/4" in err.getvalue() and "x 3/3" in err.getvalue()
    assert err.getvalue().endswith("\r\x1b[K")  # erased when done
