"""Where the shared spec and data live: beside the repository, as on every developer machine and in CI."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SPEC = SHARED / "spec"
TENHOU = SHARED / "data" / "tenhou"


def spec_text(name: str) -> str:
    path = SPEC / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return path.read_text(encoding="utf-8")
