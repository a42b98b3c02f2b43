"""Golden outputs: what `riichi check` prints for each bad rulebook, and what `riichi explain` prints for each
good one. Each ``NAME.expected`` holds the exact text (message, position, source line, caret and help).

Regenerate after an intended change with ``UPDATE_GOLDEN=1 python -m pytest tests/ruledsl/test_golden.py``
and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ruledsl.golden import UPDATE, compare_golden, rel, run

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BAD = sorted((FIXTURES / "bad").glob("*.rulebook"))
GOOD = sorted((FIXTURES / "good").glob("*.rulebook"))


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_rulebook_diagnostics(path: Path, capsys, monkeypatch) -> None:
    code, out, err = run(["check", rel(path)], capsys, monkeypatch)
    compare_golden(path.with_suffix(".expected"), out)
    assert err == ""
    errors = [line for line in out.splitlines() if ": error: " in line]
    warnings = [line for line in out.splitlines() if ": warning: " in line]
    assert errors or warnings, "a bad fixture must produce a diagnostic"
    assert code == (1 if errors else 0)
    # every diagnostic says where (file:line:col), shows the line with a caret, and helps
    assert out.count("= help: ") == len(errors) + len(warnings)
    assert out.count(" | ") >= len(errors) + len(warnings)


def test_enough_bad_fixtures() -> None:
    assert len(BAD) >= 25
    for path in BAD:
        assert path.with_suffix(".expected").exists() or UPDATE, path.name


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_good_rulebook_checks_clean(path: Path, capsys, monkeypatch) -> None:
    code, out, err = run(["check", rel(path)], capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert out.startswith(f"{rel(path)}: ok (") and out.count("\n") == 1, out


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_good_rulebook_explanation(path: Path, capsys, monkeypatch) -> None:
    code, out, err = run(["explain", rel(path)], capsys, monkeypatch)
    assert (code, err) == (0, "")
    if path.stem == "variant":  # extends the bundled house rules: keep the golden to what the file itself says
        out = "\n\n".join(block for block in out.split("\n\n") if "variant.rulebook" in block)
    compare_golden(path.with_suffix(".explain"), out)
