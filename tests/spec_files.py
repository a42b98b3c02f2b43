"""Where the test oracle lives: vendored under ``tests/data`` so that a fresh clone runs every test on any machine.

``tests/data/spec`` is a copy of the project's spec (``../shared/spec/*.md``: its point tables and worked examples
are the oracle of the conformance tests); ``tests/data/tenhou`` is a copy of the real Tenhou game records
(``../shared/data/tenhou``, with their README and PROVENANCE). Nothing here may skip: a missing file is a broken
checkout and must fail loudly, not turn tests into silent skips.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SPEC = DATA / "spec"
TENHOU = DATA / "tenhou"


def spec_text(name: str) -> str:
    """The text of one vendored spec file; a missing one raises (``FileNotFoundError``), it never skips."""
    return (SPEC / name).read_text(encoding="utf-8")
