"""The shipped parsed rulebooks (``rulebooks/parsed.json``) are current and give exactly what lark gives,
spans included; anything the cache does not hold, or a stale cache, is parsed as before."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings

from ruledsl import ast, lark_parser, parsed_cache, parser
from ruledsl.diagnostics import RulebookError
from ruledsl.resolve import bundled_names
from tests.ruledsl import strategies as S

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = parsed_cache.bundled_files()
GOOD_FIXTURES = sorted((Path(__file__).resolve().parent / "fixtures" / "good").glob("*.rulebook"))
HOUSE = ROOT / "rulebooks" / "house.rulebook"
STALE = f"stale; regenerate it with `{parsed_cache.COMMAND}`"


@pytest.fixture
def lark_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files parsed by lark during the test (cache misses)."""
    calls: list[str] = []
    parse_tree = lark_parser.parse_tree

    def spy(text: str, file: str, reporter):
        calls.append(file)
        return parse_tree(text, file, reporter)

    monkeypatch.setattr(lark_parser, "parse_tree", spy)
    return calls


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    """Forget the process's copy of the shipped cache before and after, for tests that change what it reads."""
    parsed_cache._shipped_entries.cache_clear()
    yield
    parsed_cache._shipped_entries.cache_clear()


def _spans(node: object) -> Iterator[ast.Span]:
    if isinstance(node, ast.Span):
        yield node
    elif isinstance(node, tuple):
        for child in node:
            yield from _spans(child)
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            yield from _spans(getattr(node, f.name))


def _classes(node: object) -> Iterator[str]:
    if isinstance(node, tuple):
        for child in node:
            yield from _classes(child)
    elif dataclasses.is_dataclass(node) and not isinstance(node, ast.Span):
        yield type(node).__name__
        for f in dataclasses.fields(node):
            yield from _classes(getattr(node, f.name))


def test_shipped_cache_is_current() -> None:
    shipped = parsed_cache.shipped()
    assert shipped is not None, f"rulebooks/{parsed_cache.FILE_NAME} is missing; generate it with `{parsed_cache.COMMAND}`"
    assert parsed_cache.entries(shipped), (
        f"rulebooks/{parsed_cache.FILE_NAME} was written by other parser sources: {STALE}"
    )
    assert parsed_cache.dumps() == shipped, f"rulebooks/{parsed_cache.FILE_NAME} is {STALE}"
    assert parsed_cache.main(["--check"]) == 0


def test_every_bundled_rulebook_is_covered(lark_parses: list[str]) -> None:
    """The shipped file lists every bundled rulebook and guide example under its text's sha256, holds a tree for
    each, and that tree is the rulebook of that name: parsing any of them runs no lark."""
    names = {p.relative_to(ROOT).as_posix() for p in RULEBOOKS}
    assert {f"rulebooks/{name}.rulebook" for name in bundled_names()} <= names
    assert any(name.startswith("rulebooks/examples/") for name in names)
    shipped = parsed_cache.shipped()
    assert shipped is not None
    listed = json.loads(shipped)["files"]
    assert set(listed) == names
    table = parsed_cache.entries(shipped)
    for path in RULEBOOKS:
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        assert listed[name] == parsed_cache.text_sha256(text), f"{name}: {STALE}"
        tree = parsed_cache.decode(table[listed[name]], name)
        assert isinstance(tree, ast.Rulebook) and tree.file == name
        assert parser.parse(text, name) == tree
    assert {tree.name for tree in (parser.parse(p.read_text(encoding="utf-8"), p.name) for p in RULEBOOKS)} >= set(
        bundled_names()
    )
    assert lark_parses == []


@pytest.mark.parametrize("path", RULEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_cached_tree_is_the_lark_tree(path: Path, lark_parses: list[str]) -> None:
    text = path.read_text(encoding="utf-8")
    file = f"/another/install/{path.name}"  # not the name it was generated under: spans take the caller's file
    cached = parser.parse(text, file)
    assert lark_parses == [], "a bundled rulebook was parsed by lark instead of read from the cache"
    fresh = parser.parse_uncached(text, file)
    assert lark_parses == [file]
    assert cached == fresh
    assert parsed_cache.encode(cached) == parsed_cache.encode(fresh)  # spans too, which == ignores
    assert cached.file == file
    spans = list(_spans(cached))
    assert len(spans) == len(list(_spans(fresh)))
    assert {s.file for s in spans if s is not ast.NO_SPAN} == {file}


def test_scoring_house_never_imports_lark() -> None:
    code = (
        "import sys\n"
        "from engine.library import scorer\n"
        "result = scorer('house').score({'hand': '234m567m789p46s88p5s', 'win': '5s', 'riichi': True})\n"
        "assert result['total'] > 0, result\n"
        "import ruledsl.compile, ruledsl.parser, ruledsl.resolve\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'interegular', 'regex')"
        " or m == 'ruledsl.lark_parser'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_importing_the_parser_does_not_import_lark() -> None:
    code = "import sys, ruledsl.compile, ruledsl.parser, ruledsl.resolve; print('lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stdout.strip()) == (0, "False"), out.stderr


def test_tree_is_still_importable_from_the_parser() -> None:
    from lark import Tree

    assert parser.Tree is Tree
    with pytest.raises(AttributeError):
        parser.no_such_name  # noqa: B018


def test_a_changed_text_is_parsed_by_lark(lark_parses: list[str]) -> None:
    text = HOUSE.read_text(encoding="utf-8")
    title = 'rulebook house "Site house rules'
    assert title in text
    changed = text.replace(title, title.replace("Site", "Sitf"), 1)
    assert parsed_cache.lookup(changed, "house.rulebook") is None
    rulebook = parser.parse(changed, "house.rulebook")
    assert lark_parses == ["house.rulebook"]
    assert rulebook.title is not None and rulebook.title.startswith("Sitf house rules")

    broken = text.replace("{", "(", 1)
    with pytest.raises(RulebookError) as cached_path:
        parser.parse(broken, "house.rulebook")
    with pytest.raises(RulebookError) as direct:
        parser.parse_uncached(broken, "house.rulebook")
    assert cached_path.value.diagnostics == direct.value.diagnostics
    assert cached_path.value.diagnostics[0].span.file == "house.rulebook"


def test_stale_fingerprint_falls_back_to_lark(
    monkeypatch: pytest.MonkeyPatch, fresh_cache: None, lark_parses: list[str]
) -> None:
    text = HOUSE.read_text(encoding="utf-8")
    fresh = parser.parse_uncached(text, "house.rulebook")
    lark_parses.clear()
    monkeypatch.setattr(parsed_cache, "fingerprint", lambda: "0" * 64)
    assert parsed_cache.lookup(text, "house.rulebook") is None
    rulebook = parser.parse(text, "house.rulebook")
    assert lark_parses == ["house.rulebook"]
    assert parsed_cache.encode(rulebook) == parsed_cache.encode(fresh)


@pytest.mark.parametrize("text", [None, "", "not json", "[]", '{"fingerprint": 1}', "{\n \"asts\": {}\n}"])
def test_missing_or_unreadable_cache_is_ignored(
    text: str | None, monkeypatch: pytest.MonkeyPatch, fresh_cache: None, lark_parses: list[str]
) -> None:
    assert parsed_cache.entries(text) == {}
    monkeypatch.setattr(parsed_cache, "shipped", lambda: text)
    assert parser.parse(HOUSE.read_text(encoding="utf-8"), "house.rulebook").name == "house"
    assert lark_parses == ["house.rulebook"]


def test_a_damaged_entry_falls_back_to_lark(monkeypatch: pytest.MonkeyPatch, lark_parses: list[str]) -> None:
    text = HOUSE.read_text(encoding="utf-8")
    damaged = {parsed_cache.text_sha256(text): {"k": "Int", "v": [1, None]}}  # a node, but not a rulebook
    monkeypatch.setattr(parsed_cache, "_shipped_entries", lambda: damaged)
    assert parser.parse(text, "house.rulebook").name == "house"
    damaged[parsed_cache.text_sha256(text)] = {"k": "Rulebook", "v": []}
    assert parser.parse(text, "house.rulebook").name == "house"
    assert lark_parses == ["house.rulebook", "house.rulebook"]


BAD = [
    ({"k": "Exploit", "v": []}, "unknown node class"),
    ({"k": "__class__", "v": []}, "unknown node class"),
    ({"k": "Span", "v": [1, 1, 1, 1]}, "unknown node class"),  # spans are lists, never nodes
    ({"k": "Field", "v": []}, "needs a list of 3"),
    ({"k": "Int", "v": [1]}, "needs a list of 2"),
    ({"k": "Int", "v": ["1", None]}, "`Int.value`"),
    ({"k": "Int", "v": [True, None]}, "`Int.value`"),
    ({"k": "Bool", "v": [1, None]}, "`Bool.value`"),
    ({"k": "Int", "v": [1, [1, 2, 3]]}, "`Int.span`"),
    ({"k": "Int", "v": [1, [1, 2, 3, "4"]]}, "`Int.span`"),
    ({"k": "Not", "v": [None, None]}, "`Not.operand`"),
    ({"k": "Example", "v": ["x", {"k": "Int", "v": [1, None]}, None]}, "`Example.expected`"),
    ({"k": "ListLit", "v": [{"k": "Int", "v": [1, None]}, None]}, "`ListLit.items`"),
    ({"k": "Record", "v": [[{"k": "Int", "v": [1, None]}], None]}, "`Record.entries`"),
    ({"k": "Int", "v": [1, None], "x": 0}, "expected a node"),
    (["Int", 1], "expected a node"),
    ("Int", "expected a node"),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_decode_rejects_anything_but_ast_nodes(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parsed_cache.decode(data, "x.rulebook")


def test_encode_rejects_what_decode_could_not_restore() -> None:
    with pytest.raises(ValueError, match="not a class of ruledsl.ast"):
        parsed_cache.encode(ast.Span("x", 1, 1, 1, 2))
    elsewhere = ast.Int(1, ast.Span("other.rulebook", 1, 1, 1, 2))
    with pytest.raises(ValueError, match="is in `other.rulebook`"):
        parsed_cache.encode(elsewhere, "x.rulebook")
    with pytest.raises(ValueError, match="`Int.value`"):
        parsed_cache.encode(ast.Int(True))
    with pytest.raises(ValueError, match="`Call.args`"):
        parsed_cache.encode(ast.Call("f", [ast.Int(1)]))  # type: ignore[arg-type]


@pytest.mark.parametrize("path", [*RULEBOOKS, *GOOD_FIXTURES], ids=lambda p: p.name)
def test_encoding_round_trips_through_json(path: Path) -> None:
    rulebook = parser.parse_uncached(path.read_text(encoding="utf-8"), "a.rulebook")
    data = json.loads(json.dumps(parsed_cache.encode(rulebook)))
    back = parsed_cache.decode(data, "a.rulebook")
    assert back == rulebook
    assert parsed_cache.encode(back) == parsed_cache.encode(rulebook)
    assert [s for s in _spans(back)] == [s for s in _spans(rulebook)]  # Span itself compares every field


def test_every_node_class_is_exercised() -> None:
    seen: set[str] = set()
    for path in [*RULEBOOKS, *GOOD_FIXTURES]:
        seen.update(_classes(parser.parse_uncached(path.read_text(encoding="utf-8"), "a.rulebook")))
    assert seen == set(parsed_cache._CLASSES)


@settings(max_examples=60, deadline=None)
@given(S.rulebooks)
def test_encoding_is_lossless_for_any_tree(rulebook: ast.Rulebook) -> None:
    back = parsed_cache.decode(json.loads(json.dumps(parsed_cache.encode(rulebook))), rulebook.file)
    assert back == rulebook
    assert parsed_cache.encode(back) == parsed_cache.encode(rulebook)


def test_check_command_fails_on_a_stale_cache(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(parsed_cache, "shipped", lambda: "{}")
    assert parsed_cache.main(["--check"]) == 1
    assert parsed_cache.COMMAND in capsys.readouterr().err


def test_write_command_writes_what_check_expects(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    target = tmp_path / parsed_cache.FILE_NAME
    monkeypatch.setattr(parsed_cache, "PATH", target)
    assert parsed_cache.main(["--write"]) == 0
    assert target.read_text(encoding="utf-8") == parsed_cache.dumps()
