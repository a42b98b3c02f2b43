"""The checker keeps what checking a field's value found when it reported nothing (``_Checker.clean_values``: the
cost the value adds, whether it read the rulebook's yaku names, why a condition can never apply), and gives it to
the same value written again in the same field instead of typing, bounding and proving it again. Checked here
against the checker keeping nothing: the same diagnostics, in the same order, with the same words and places, on
every rulebook of the repository, on the benchmark's generated file, and on files that write the same values
again and again, mistakes and conditions that never hold among them; and in ``reuse`` mode (`riichi diff`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from ruledsl import check as C
from ruledsl.diagnostics import RulebookError
from ruledsl.resolve import ResolvedRulebook, resolve

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("rulebooks/**/*.rulebook"), *ROOT.glob("tests/**/*.rulebook"), *ROOT.glob("docs/**/*.rulebook")})


class _KeepsNothing(dict[Any, Any]):
    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def findings(resolved: ResolvedRulebook, *, keep: bool, reuse: bool = False) -> list[tuple[str, bool]]:
    if keep:
        found = C.check(resolved, reuse=reuse)
    else:
        original = C._Checker.__init__

        def keeping_nothing(self: Any, *args: Any, **kwargs: Any) -> None:
            original(self, *args, **kwargs)
            self.clean_values = _KeepsNothing()

        C._Checker.__init__ = keeping_nothing  # type: ignore[method-assign]
        try:
            found = C.check(resolved, reuse=reuse)
        finally:
            C._Checker.__init__ = original  # type: ignore[method-assign]
    return [(d.render(), d.is_error) for d in found]


def same_findings(text: str, file: str = "values.rulebook") -> None:
    try:
        resolved = resolve(file, text=text, file=file, keep_going=True)
    except RulebookError:
        return
    kept_nothing = findings(resolved, keep=False)
    assert findings(resolved, keep=True) == kept_nothing
    assert findings(resolved, keep=True, reuse=True) == kept_nothing


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rulebook_of_the_repository(path: Path) -> None:
    same_findings(path.read_text(encoding="utf-8"), path.name)


def test_the_benchmark_s_generated_file() -> None:
    spec = importlib.util.spec_from_file_location("benchmark_check", ROOT / "benchmarks" / "check.py")
    assert spec is not None and spec.loader is not None
    benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(benchmark)
    same_findings(benchmark.rulebook(300), "big_rules.rulebook")


# values written once per item, in several fields and kinds: well typed or not, too costly, never true, reading the
# yaku names, out of bounds
_VALUES = [
    ("yaku", "when", "count(g in sets: is_kan(g)) >= 4 and ron"),
    ("yaku", "when", "tsumo and ron"),
    ("yaku", "when", "size(sets) > 9"),
    ("yaku", "when", "1 + true"),
    ("yaku", "when", "3"),
    ("yaku", "when", "any(a in tiles: any(b in tiles: any(c in tiles: any(d in tiles: any(e in tiles: a == e)))))"),
    ("yaku", "when", "riichi and not riichi"),
    ("fu", "when", "closed and ron and count(g in sets: is_kan(g)) >= 2"),
    ("fu", "fu", "4 * count(g in sets: is_kan(g) and is_simple(g))"),
    ("fu", "fu", "-2"),
    ("fu", "fu", "2 * count(g in sets: raw_fu > 30)"),
    ("fu", "fu", "4 *  count(g in sets: is_kan(g) and is_simple(g))"),
    ("fu", "fu", "99999999999 * 99999999999"),
    ("fu", "when", "tsumo and ron"),
    ("fu", "when", "tsumo and not has_yaku(pinfu)"),
    ("fu", "when", "has_yaku(no_such_yaku)"),
    ("bonus", "han", "count(t in tiles: t == 5z)"),
    ("bonus", "han", "10000000000000 * count(t in tiles: t == 5z)"),
]


@pytest.mark.parametrize("repeat", [1, 3])
def test_values_written_again(repeat: int) -> None:
    lines = ["rulebook values extends house", 'source "test"']
    for n in range(repeat):
        for i, (kind, name, value) in enumerate(_VALUES):
            lines += [f'@clause("V{n}.{i}")', f'{kind} v{n}_{i} "V{n}.{i}" {{']
            lines += ["  han = 1"] if kind == "yaku" else []
            lines += [f"  {name} = {value}", "}"]
    same_findings("\n".join(lines) + "\n")


@pytest.mark.parametrize("name", ["house", "wrc2025", "ema2016"])
def test_reuse_mode(name: str) -> None:
    resolved = resolve(name)
    assert findings(resolved, keep=True, reuse=True) == findings(resolved, keep=False)


def _field_values(text: str, file: str) -> list[tuple[tuple[str, str, object], object]]:
    try:
        resolved = resolve(file, text=text, file=file, keep_going=True)
    except RulebookError:
        return []
    diags = C._Diagnostics()
    for name, source in resolved.texts.items():
        diags.add_file(name, source)
    sources = C._value_sources(resolved, diags)
    return [
        (C._value_key(sources, item.kind, name, f.value), f.value)
        for item in resolved.items.values()
        for name, f in item.fields.items()
    ]


def test_values_kept_by_their_characters_are_equal_trees() -> None:
    """A value is kept by the characters it is written with when it fits on a line (``_value_key``): every two
    values of the repository's rulebooks (and of a file writing values again, spaced differently, over lines) kept
    under the same characters are equal trees, and a value over several lines is kept by its tree."""
    texts = [(path.read_text(encoding="utf-8"), path.name) for path in FILES]
    lines = ["rulebook values extends house", 'source "test"']
    for i, value in enumerate(["ron and  tsumo", "ron and tsumo", "ron and\n    tsumo", "(ron) and tsumo", "ron and (tsumo)"]):
        lines += [f'@clause("W{i}")', f'yaku w{i} "W{i}" {{', "  han = 1", f"  when = {value}", "}"]
    texts.append(("\n".join(lines) + "\n", "values.rulebook"))
    seen: dict[object, object] = {}
    by_characters = 0
    for text, file in texts:
        for key, value in _field_values(text, file):
            if isinstance(key[2], str):
                by_characters += 1
                assert seen.setdefault(key, value) == value
            else:
                assert key[2] is value
    assert by_characters > 1000
    multi_line = [key for key, _ in _field_values(texts[-1][0], "values.rulebook") if not isinstance(key[2], str)]
    assert len(multi_line) == 1


def test_a_chain_naming_a_file_twice_keeps_values_by_their_trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files of a chain under one name (an upload named as the bundled file it extends, in a folder without
    that file): their characters cannot be told apart by a span, so values are kept by their trees."""
    monkeypatch.chdir(tmp_path)
    text = 'rulebook house2 extends house\nsource "test"\n@clause("A")\nyaku a "A" {\n  han = 1\n  when = riichi\n}\n'
    resolved = resolve("rulebooks/house.rulebook", text=text, file="rulebooks/house.rulebook", keep_going=True)
    assert [book.file for book in resolved.chain] == ["rulebooks/house.rulebook"] * 2
    assert C._value_sources(resolved, C._Diagnostics()) == {}
    assert all(not isinstance(key[2], str) for key, _ in _field_values(text, "rulebooks/house.rulebook"))
