"""`riichi check` asks whose clause an item shows only for the items a file of the chain named otherwise than the
last writes (``ruledsl.clause_checks._written_before``): every other item's clause is not inherited
(``ruledsl.clause_origin``), so the warnings are those of asking about every item. Checked on every rulebook of the
repository and on chains whose files share a name, redefine or override an item, with and without clauses."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruledsl import clause_checks
from ruledsl.clause_origin import clause_origin
from ruledsl.diagnostics import RulebookError
from ruledsl.resolve import ResolvedRulebook, _Diagnostics, resolve

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("rulebooks/**/*.rulebook"), *ROOT.glob("tests/**/*.rulebook"), *ROOT.glob("docs/**/*.rulebook")})


def warnings(rulebook: ResolvedRulebook) -> list[str]:
    diags = _Diagnostics()
    for file, text in rulebook.texts.items():
        diags.add_file(file, text)
    clause_checks.check_inherited_clauses(rulebook, diags)
    return [d.render() for d in diags.items]


def asking_about_every_item(rulebook: ResolvedRulebook, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    with monkeypatch.context() as patched:
        patched.setattr(clause_checks, "_written_before", lambda rb: set(rb.items))
        return warnings(rulebook)


def same_warnings(rulebook: ResolvedRulebook, monkeypatch: pytest.MonkeyPatch) -> None:
    skipped = set(rulebook.items) - clause_checks._written_before(rulebook)
    for key in skipped:
        origin = clause_origin(rulebook, key)
        assert origin is None or not origin.inherited, key
    assert warnings(rulebook) == asking_about_every_item(rulebook, monkeypatch)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rulebook_of_the_repository(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(path.parent)
    try:
        rulebook = resolve(path.name, text=path.read_text(encoding="utf-8"), file=path.name, keep_going=True)
    except RulebookError:
        return
    same_warnings(rulebook, monkeypatch)


_CHAINS = {
    # a base and a leaf of one name around a middle file that overrides with its own clause
    "same_names": [
        ("base", 'rulebook x extends house\n@clause("x says riichi_tsumo")\nyaku riichi_tsumo "A" {\n  han = 1\n  when = riichi and tsumo\n}\n'),
        ("mid", 'rulebook y extends base\n@clause("y rule")\noverride yaku riichi_tsumo {\n  han = 2\n}\n@clause("y on riichi_tsumo")\nyaku other "B" {\n  han = 1\n  when = ron\n}\n'),
        ("leaf", 'rulebook x extends mid\n@clause("mine")\noverride yaku riichi_tsumo {\n  han = 3\n}\n@clause("leaf adds other_rule")\nyaku other_rule "C" {\n  han = 1\n  when = tsumo\n}\n'),
    ],
    # an item redefined by a later file (an error the fold reports), removed and defined again, overridden without a clause
    "redefined": [
        ("base", 'rulebook b extends house\n@clause("b: see new_one")\nyaku k "K" {\n  han = 1\n  when = riichi\n}\n'),
        ("mid", 'rulebook m extends base\n@clause("m: k again, see new_one")\nyaku k "K" {\n  han = 2\n  when = riichi\n}\nremove yaku chiitoitsu\n'),
        ("leaf", 'rulebook l extends mid\nyaku chiitoitsu "C" {\n  han = 2\n  when = shape == seven_pairs\n}\noverride yaku k {\n  han = 4\n}\n@clause("l")\nyaku new_one "N" {\n  han = 1\n  when = tsumo\n}\n'),
    ],
}


@pytest.mark.parametrize("chain", sorted(_CHAINS))
def test_chains_of_shared_names_and_redefinitions(chain: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in _CHAINS[chain]:
        (tmp_path / f"{name}.rulebook").write_text(text, encoding="utf-8")
    leaf = tmp_path / "leaf.rulebook"
    rulebook = resolve("leaf.rulebook", text=leaf.read_text(encoding="utf-8"), file="leaf.rulebook", keep_going=True)
    assert len(rulebook.chain) == 4  # house, then the three files
    same_warnings(rulebook, monkeypatch)


def test_the_common_words_are_those_of_each_text_alone() -> None:
    """``_common_words`` reads the vocabulary's texts joined by line ends: the words of each text read alone."""
    import re
    from typing import Any

    from ruledsl import vocabulary as V
    from ruledsl.record import fields, is_record

    words: set[str] = set()
    stack: list[tuple[Any, int]] = [(value, 0) for value in vars(V).values()]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", value))
        elif depth < 4 and isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif depth < 4 and isinstance(value, (tuple, list, frozenset, set)):
            stack.extend((v, depth + 1) for v in value)
        elif depth < 4 and is_record(value) and not isinstance(value, type):
            stack.extend((getattr(value, f.name, None), depth + 1) for f in fields(value))
    assert clause_checks._common_words() == frozenset(words)
