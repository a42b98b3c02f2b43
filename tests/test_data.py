"""The vendored test data is complete and intact: every game record is the byte-exact copy its provenance names,
and the spec files the conformance tests read are present (a missing file fails here, it never skips a test)."""

from __future__ import annotations

import hashlib
import json
import re

from tests.spec_files import SPEC, TENHOU, spec_text

SPEC_FILES = ("contract.md", "decisions.md", "examples.md", "fu-and-payments.md", "rules-matrix.md", "yaku.md")


def test_every_game_record_matches_its_provenance() -> None:
    provenance = json.loads((TENHOU / "PROVENANCE.json").read_text(encoding="utf-8"))
    listed = {entry["local"]: entry for entry in provenance}
    present = {p.relative_to(TENHOU).as_posix() for p in TENHOU.rglob("*") if p.is_file()}
    assert present - set(listed) == {"PROVENANCE.json", "README.md"}
    assert set(listed) <= present
    counts = {folder: sum(1 for name in listed if name.startswith(folder + "/")) for folder in ("mjlog", "json", "excerpts", "partial")}
    assert counts == {"mjlog": 165, "json": 37, "excerpts": 18, "partial": 1}
    for name, entry in listed.items():
        data = (TENHOU / name).read_bytes()
        assert (len(data), hashlib.sha1(data).hexdigest()) == (entry["bytes"], entry["sha1"]), name


def test_the_spec_files_are_vendored() -> None:
    assert {p.name for p in SPEC.glob("*.md")} >= set(SPEC_FILES)
    assert "## 5. Cell-by-cell point-table vectors" in spec_text("examples.md")


def test_no_test_reads_data_from_beside_the_checkout() -> None:
    """A test reading the spec or logs beside the checkout passes on a developer machine and skips or fails on a
    fresh clone: every path to test data goes through ``tests/spec_files.py``, whose folders are in the checkout."""
    tests = SPEC.parents[1]
    beside = re.compile(r"""/\s*["']shared["']|\.\./shared|parents\[\d\]\.parent""")
    found = [
        f"{path.relative_to(tests.parent)}:{number}: {line.strip()}"
        for path in sorted(tests.rglob("*.py"))
        if path.name != "spec_files.py" and tests / "data" not in path.parents
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if beside.search(line)
    ]
    assert found == []
