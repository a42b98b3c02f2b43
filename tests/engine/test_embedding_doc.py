"""The Python examples of docs/embedding.md run as written (the log replay one, which reads every bundled log,
is left to the replay tests)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "embedding.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("code", [b for b in BLOCKS if "replay(" not in b], ids=lambda b: b.splitlines()[0][:40])
def test_an_embedding_example_runs(code, capsys):
    exec(compile(code, str(DOC), "exec"), {})  # noqa: S102 - our own documentation's example code
