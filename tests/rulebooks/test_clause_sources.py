"""Every clause of every bundled rulebook tells players where it comes from: a source (rule number, page and
revision, log id), a `[project decision Dn]`, or `(not verified: reason)`; never our own process. `riichi rulebooks
--sources` and docs/fidelity.md list the clauses not verified, with their reasons."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ruledsl.clause_sources import bundled, judge, unverified_reasons

ROOT = Path(__file__).resolve().parents[2]
JUDGED = bundled()


@pytest.mark.parametrize("name", sorted(JUDGED))
def test_every_clause_is_sourced_decided_or_says_why_not_verified(name: str) -> None:
    bad = [f"rulebooks/{name}.rulebook:{c.line} {c.item}: {'; '.join(c.problems)}" for c in JUDGED[name] if c.problems]
    assert bad == []


def test_every_bundled_rulebook_is_judged() -> None:
    files = {p.stem for p in (ROOT / "rulebooks").glob("*.rulebook")}
    assert set(JUDGED) == files


@pytest.mark.parametrize(
    ("clause", "status"),
    [
        ("WRC 2025 rules 9.1: a discard is won by one player only", "sourced"),
        ("M-League rules, chapter 3 article 2: no abortive draws", "sourced"),
        ("Site rules, 'Limit tiers' table: baiman, 8-10 han", "sourced"),
        ("Tenhou records: 2025020203gm-00b9-0000-bea67528 S3-1 pays 200 per honba", "sourced"),
        ("[project decision D21] every yakuman single", "decision"),
        ("kept from four-player (not verified: no three-player record (of ten) has it)", "unverified"),
        ("three players cannot all ron one discard (derived)", "unsourced"),
        ("WRC 2025 rules 8.9: riichi at any score (issue 10's audit)", "unsourced"),
        ("WRC 2025 rules 8.9: riichi at any score (not verified)", "unsourced"),
        ("project decision D21: no counted yakuman", "unsourced"),  # the label is `[project decision Dn]`
    ],
)
def test_a_clause_is_judged_by_its_marks(clause: str, status: str) -> None:
    assert judge("x", 1, "yaku y", clause).status == status


def test_a_reason_keeps_its_own_parentheses() -> None:
    assert unverified_reasons("a (not verified: none (of ten) has it) b (not verified: c)") == ("none (of ten) has it", "c")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", "rulebooks", *args], capture_output=True, text=True, cwd=ROOT, check=False)


def test_rulebooks_sources_lists_each_clause_not_verified_and_why() -> None:
    done = _cli("--sources")
    assert done.returncode == 0, done.stderr
    assert "house: " in done.stdout and "wrc2025: " in done.stdout
    assert "rulebooks/tenhou_east.rulebook:" in done.stdout and "not verified: no east-only log at hand" in done.stdout


def test_rulebooks_sources_json_matches_the_generated_page() -> None:
    done = _cli("--sources", "--json")
    report = json.loads(done.stdout)
    page = (ROOT / "docs" / "fidelity.md").read_text(encoding="utf-8")
    assert {entry["rulebook"] for entry in report} == set(JUDGED)
    for entry in report:
        assert f"## {entry['rulebook']}\n" in page
        for clause in entry["clauses"]:
            assert clause["status"] == "unverified" and clause["unverified"]
            assert f"| {clause['line']} | `{clause['item']}` |" in page
