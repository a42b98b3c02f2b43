"""The shipped parsed rulebooks (``rulebooks/parsed.jsonl``) are current and give exactly what lark gives,
spans included; anything the cache does not hold, or a stale cache, is parsed as before."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings

from ruledsl import ast, parsed_cache, parser, record
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
    """The files parsed during the test rather than read from the cache (by lark, or by the fast parser that reads
    well-formed text to lark's tree: ``tests/ruledsl/test_fast_parser.py``)."""
    calls: list[str] = []
    parse_uncached = parser.parse_uncached

    def spy(text: str, file: str = "<input>"):
        calls.append(file)
        return parse_uncached(text, file)

    monkeypatch.setattr(parser, "parse_uncached", spy)
    return calls


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    """Forget the process's copy of the shipped cache before and after, for tests that change what it reads."""
    parsed_cache.forget_shipped()
    yield
    parsed_cache.forget_shipped()


def _spans(node: object) -> Iterator[ast.Span]:
    if isinstance(node, ast.Span):
        yield node
    elif isinstance(node, tuple):
        for child in node:
            yield from _spans(child)
    elif record.is_record(node):
        for f in record.fields(node):
            yield from _spans(getattr(node, f.name))


def _classes(node: object) -> Iterator[str]:
    if isinstance(node, tuple):
        for child in node:
            yield from _classes(child)
    elif record.is_record(node) and not isinstance(node, ast.Span):
        yield type(node).__name__
        for f in record.fields(node):
            yield from _classes(getattr(node, f.name))


@pytest.fixture(scope="module")
def current() -> str:
    """``parsed_cache.dumps()`` made once for this module: it parses and checks every bundled rulebook (seconds),
    and the command tests below only need its text."""
    return parsed_cache.dumps()


def test_shipped_cache_is_current(current: str, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = parsed_cache.shipped()
    assert shipped is not None, f"rulebooks/{parsed_cache.FILE_NAME} is missing; generate it with `{parsed_cache.COMMAND}`"
    assert parsed_cache.entries(shipped), (
        f"rulebooks/{parsed_cache.FILE_NAME} was written by other parser sources: {STALE}"
    )
    assert current == shipped, f"rulebooks/{parsed_cache.FILE_NAME} is {STALE}"
    monkeypatch.setattr(parsed_cache, "dumps", lambda: current)
    assert parsed_cache.main(["--check"]) == 0


def test_every_bundled_rulebook_is_covered(lark_parses: list[str]) -> None:
    """The shipped file lists every bundled rulebook and guide example under its text's sha256, holds a tree for
    each, and that tree is the rulebook of that name: parsing any of them runs no lark."""
    names = {p.relative_to(ROOT).as_posix() for p in RULEBOOKS}
    assert {f"rulebooks/{name}.rulebook" for name in bundled_names()} <= names
    assert any(name.startswith("rulebooks/examples/") for name in names)
    shipped = parsed_cache.shipped()
    assert shipped is not None
    listed = json.loads(shipped.split("\n")[0])["files"]
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
def test_cached_tree_is_the_lark_tree(path: Path, lark_parses: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    file = f"/another/install/{path.name}"  # not the name it was generated under: spans take the caller's file
    cached = parser.parse(text, file)
    assert lark_parses == [], "a bundled rulebook was parsed by lark instead of read from the cache"
    monkeypatch.setenv("RIICHI_LARK_ONLY", "1")  # lark's own tree, not the fast parser's (tests/ruledsl/test_fast_parser.py)
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
        "from engine.scoring.library import scorer\n"
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


@pytest.mark.parametrize("text", [None, "", "not json", "[]", '{"fingerprint": 1}', '{"trees": []}', "{}\n[1]"])
def test_missing_or_unreadable_cache_is_ignored(
    text: str | None, monkeypatch: pytest.MonkeyPatch, fresh_cache: None, lark_parses: list[str]
) -> None:
    assert parsed_cache.entries(text) == {}
    monkeypatch.setattr(parsed_cache, "shipped_bytes", lambda: None if text is None else text.encode("utf-8"))
    assert parser.parse(HOUSE.read_text(encoding="utf-8"), "house.rulebook").name == "house"
    assert lark_parses == ["house.rulebook"]


def test_a_damaged_entry_falls_back_to_lark(monkeypatch: pytest.MonkeyPatch, lark_parses: list[str]) -> None:
    text = HOUSE.read_text(encoding="utf-8")
    damaged = {parsed_cache.text_sha256(text): ["Int", 1, None]}  # a node, but not a rulebook
    monkeypatch.setattr(parsed_cache._CacheFile, "tree", lambda self, key: damaged.get(key))
    assert parser.parse(text, "house.rulebook").name == "house"
    damaged[parsed_cache.text_sha256(text)] = ["Rulebook"]
    assert parser.parse(text, "house.rulebook").name == "house"
    assert lark_parses == ["house.rulebook", "house.rulebook"]


BAD = [
    (["Exploit"], "unknown node class"),
    (["__class__"], "unknown node class"),
    (["Span", 1, 1, 1, 1], "unknown node class"),  # spans are lists of ints, never nodes
    (["Field"], "needs 3 field values"),
    (["Int", 1], "needs 2 field values"),
    (["Int", "1", None], "`Int.value`"),
    (["Int", True, None], "`Int.value`"),
    (["Bool", 1, None], "`Bool.value`"),
    (["Int", 1, [1, 2, 3]], "`Int.span`"),
    (["Int", 1, [1, 2, 3, "4"]], "`Int.span`"),
    (["Not", None, None], "`Not.operand`"),
    (["Example", "x", ["Int", 1, None], None], "`Example.expected`"),
    (["ListLit", [["Int", 1, None], "Int"], None], "expected a node"),
    (["ListLit", [["Entry", "k", ["Int", 1, None], None]], None], "`ListLit.items`"),  # an entry is no expression
    (["Record", [["Int", 1, None]], None], "`Record.entries`"),
    ([1, 2], "unknown node class"),
    ([], "expected a node"),
    ({"k": "Int", "v": [1, None]}, "expected a node"),
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
    assert seen == {cls.__name__ for cls in ast.STORED}


@settings(max_examples=25, deadline=None)
@given(S.rulebooks)
def test_encoding_is_lossless_for_any_tree(rulebook: ast.Rulebook) -> None:
    back = parsed_cache.decode(json.loads(json.dumps(parsed_cache.encode(rulebook))), rulebook.file)
    assert back == rulebook
    assert parsed_cache.encode(back) == parsed_cache.encode(rulebook)


def test_check_command_fails_on_a_stale_cache(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, fresh_cache: None, current: str
) -> None:
    monkeypatch.setattr(parsed_cache, "shipped", lambda: "{}")
    monkeypatch.setattr(parsed_cache, "dumps", lambda: current)
    assert parsed_cache.main(["--check"]) == 1
    assert parsed_cache.COMMAND in capsys.readouterr().err


def test_write_command_writes_what_check_expects(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fresh_cache: None, current: str
) -> None:
    target = tmp_path / parsed_cache.FILE_NAME
    monkeypatch.setattr(parsed_cache, "PATH", target)
    monkeypatch.setattr(parsed_cache, "dumps", lambda: current)
    assert parsed_cache.main(["--write"]) == 0
    assert target.read_text(encoding="utf-8") == current
    monkeypatch.setattr(parsed_cache, "shipped", lambda: target.read_text(encoding="utf-8"))
    assert parsed_cache.main(["--check"]) == 0


# ---- checker verdicts: a bundled rulebook is checked when the cache is made, not at every start-up ------------


def test_fingerprint_covers_everything_the_parser_and_the_checker_import() -> None:
    code = (
        "import json, sys\n"
        "import ruledsl.check, ruledsl.lark_parser, ruledsl.parsed_cache\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('ruledsl.'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    imported = {name.removeprefix("ruledsl.").replace(".", "/") + ".py" for name in json.loads(result.stdout)}
    assert imported <= set(parsed_cache.SOURCES), f"add to parsed_cache.SOURCES: {sorted(imported - set(parsed_cache.SOURCES))}"
    assert "grammar.lark" in parsed_cache.SOURCES


def test_every_bundled_rulebook_is_recorded_clean() -> None:
    from ruledsl.resolve import resolve

    clean = parsed_cache.clean_chains(parsed_cache.shipped())
    assert {name for name in bundled_names() if parsed_cache.chain_key(resolve(name).texts) in clean} == set(bundled_names())


@pytest.fixture
def checker_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The rulebooks the checker was run on during the test."""
    from ruledsl import check

    runs: list[str] = []
    real = check.check

    def spy(rulebook, **options):  # type: ignore[no-untyped-def]
        runs.append(rulebook.name)
        return real(rulebook, **options)

    monkeypatch.setattr(check, "check", spy)
    return runs


def test_loading_a_bundled_rulebook_does_not_check_it_again(checker_runs: list[str]) -> None:
    from ruledsl.compile import load

    assert load("mleague").name == "mleague"  # its chain, house included, was checked when the cache was made
    assert checker_runs == []


def test_a_changed_text_or_another_file_name_is_checked(checker_runs: list[str], tmp_path: Path) -> None:
    from ruledsl.compile import load

    text = HOUSE.read_text(encoding="utf-8")
    load("house", text=text + "\n# one more line\n", file="rulebooks/house.rulebook")
    copy = tmp_path / "house.rulebook"
    copy.write_text(text, encoding="utf-8")
    load(str(copy))  # the same text under another file name: the checker reads the name too
    assert checker_runs == ["house", "house"]


def test_a_stale_cache_checks_everything(checker_runs: list[str], monkeypatch: pytest.MonkeyPatch, fresh_cache: None) -> None:
    from ruledsl import compiled_cache
    from ruledsl.compile import load

    monkeypatch.setattr(parsed_cache, "fingerprint", lambda: "other sources")
    monkeypatch.setattr(compiled_cache, "entry", lambda name: None)  # stale as well: the same sources changed
    load("house")
    assert checker_runs == ["house"]
    assert parsed_cache.clean_chains(parsed_cache.shipped()) == frozenset()


@pytest.mark.parametrize("clean", ['"not a list"', "[1, 2]", "null"])
def test_a_damaged_verdict_list_is_ignored(clean: str) -> None:
    header, rest = (parsed_cache.shipped() or "{}").split("\n", 1)
    text = json.dumps({**json.loads(header), "clean": json.loads(clean)}) + "\n" + rest
    assert parsed_cache.clean_chains(text) == frozenset()
    assert parsed_cache.entries(text)  # the trees are still read
