"""Non-negotiable 1: no rulebook name, yaku name or ruleset-specific number appears in engine/ or ruledsl/."""

from __future__ import annotations

import re
from pathlib import Path

from ruledsl.resolve import bundled_names

ROOT = Path(__file__).resolve().parent.parent
CODE_DIRS = ("engine", "ruledsl")
# Situation flags of the contract (riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou, renhou) are
# mechanics of how a hand was won, not rules, and may appear in code; the names of patterns may not.
YAKU_AND_RULE_WORDS = (
    "kiriage tanyao pinfu iipeikou ryanpeikou toitoi sanankou sankantsu sanshoku ittsu chanta junchan honroutou "
    "shousangen honitsu chinitsu chiitoitsu suuankou daisangen shousuushii daisuushii tsuuiisou ryuuiisou chinroutou "
    "suukantsu chuuren kokushi yakuhai"
).split()
RULESET_NUMBERS = ("25000", "30000", "35000", "7700", "11600")
# `tenhou` is also the contract's flag for a dealer's first-draw win and the name of a log format, so only the
# other rulebook names are banned outright.
FLAG_NAMES = {"tenhou"}


def _code_files() -> list[tuple[Path, str]]:
    """Every file under engine/ and ruledsl/ with its text, whatever its suffix: code, grammar, JSON data, generated
    parser tables. The caches written beside the sources at run time (``__pycache__``: Python's bytecode, which
    compiles the same sources this test reads, and the sources' fingerprint stamp of ``ruledsl.package_files``,
    their names, sizes, times and digest) are skipped, and so is nothing else: any other file that is not UTF-8
    text fails."""
    files = []
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if not path.is_file() or path.parent.name == "__pycache__":
                continue
            try:
                files.append((path, path.read_text(encoding="utf-8")))
            except UnicodeDecodeError:
                raise AssertionError(f"{path.relative_to(ROOT)} is binary: what rule data is in it?") from None
    return files


def test_every_file_is_scanned():
    suffixes = {path.suffix for path, _text in _code_files()}
    assert {".py", ".lark", ".json"} <= suffixes
    assert all(path.parent.name != "__pycache__" for path, _text in _code_files())


def _hits(pattern: re.Pattern[str]) -> list[str]:
    found = []
    for path, text in _code_files():
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_no_rulebook_names_in_code():
    names = [n for n in bundled_names() if n not in FLAG_NAMES] + ["wrc", "mleague", "m_league"]
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b", re.IGNORECASE)
    assert _hits(pattern) == []


def test_no_yaku_names_in_code():
    pattern = re.compile(r"\b(" + "|".join(YAKU_AND_RULE_WORDS) + r")\b", re.IGNORECASE)
    assert _hits(pattern) == []


def test_no_ruleset_numbers_in_code():
    pattern = re.compile(r"(?<![\d.])(" + "|".join(RULESET_NUMBERS) + r")(?![\d])")
    assert _hits(pattern) == []
