"""The shipped compiled rulebooks (``rulebooks/compiled.jsonl``) are exactly what compiling each bundled rulebook's
texts gives (rules, functions, settings, clauses, clause origins, files); anything else is loaded the full way."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ruledsl import compiled_cache, record
from ruledsl import vocabulary as V
from ruledsl.compile import _BINARY, Apply, Binary, Rulebook, ShippedRulebook, compile_rulebook, load
from ruledsl.resolve import bundled_names, resolve

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    compiled_cache.forget_shipped()
    yield
    compiled_cache.forget_shipped()


def _functions(node: object) -> Iterator[tuple[str, object]]:
    """(name, function) of every application and operator in a compiled value: they compare by name alone."""
    if isinstance(node, Apply):
        yield node.name, node.fn
    if isinstance(node, Binary):
        yield node.op, node.fn
    if isinstance(node, tuple | list | frozenset):
        for child in node:
            yield from _functions(child)
    elif isinstance(node, dict):
        for child in node.values():
            yield from _functions(child)
    elif record.is_record(node):
        for f in record.fields(node):
            yield from _functions(getattr(node, f.name))


def _full(name: str) -> Rulebook:
    return compile_rulebook(resolve(name))


def test_the_shipped_file_is_fresh() -> None:
    assert compiled_cache.shipped_text() == compiled_cache.dumps(), f"stale; regenerate it with `{compiled_cache.COMMAND}`"


@pytest.mark.parametrize("name", bundled_names())
def test_a_shipped_rulebook_is_the_one_compiled_from_its_texts(name: str) -> None:
    shipped, full = load(name), _full(name)
    assert type(shipped) is ShippedRulebook and "resolved" not in shipped.__dict__
    assert (shipped.name, shipped.title) == (full.name, full.title)
    assert shipped.settings == full.settings
    assert {k: [type(v) for v in values.values()] for k, values in shipped.settings.items()} == {
        k: [type(v) for v in values.values()] for k, values in full.settings.items()
    }
    assert shipped.rules == full.rules
    assert [repr(r) for rules in shipped.rules.values() for r in rules] == [repr(r) for rules in full.rules.values() for r in rules]
    assert list(_functions(shipped.rules)) == list(_functions(full.rules))
    for (op, fn), (_, fn_full) in zip(_functions(shipped.rules), _functions(full.rules), strict=True):
        assert fn is fn_full, op
        assert fn is (_BINARY[op] if op in _BINARY else V.FUNCTIONS[op].impl)
    assert shipped.files() == full.files()
    assert shipped.settings_clauses() == full.settings_clauses()
    assert shipped.clause_origins() == full.clause_origins()
    # the resolved chain, made when first read, is the full load's
    assert list(shipped.resolved.items) == list(full.resolved.items)
    assert shipped.resolved.texts == full.resolved.texts
    assert "resolved" in shipped.__dict__


def test_the_scorer_answers_alike_under_both() -> None:
    from engine.scoring.score import Scorer

    requests = [
        {"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True, "dora_indicators": "4s"},
        {"hand": "123m456p789s11z222z", "win": "2z", "tsumo": True},
        {"hand": "19m19p19s1234567z1m", "win": "1m"},
    ]
    for name in ("house", "mleague", "tenhou", "sanma", "wrc2025"):
        shipped, full = Scorer(load(name)), Scorer(_full(name))
        for request in requests:
            assert shipped.score_json(dict(request)) == full.score_json(dict(request)), (name, request)


def test_a_shipped_rulebook_copies_as_the_one_compiled() -> None:
    import copy

    shipped = load("mleague")
    made = copy.copy(shipped)
    assert made == shipped and made.settings_clauses() == shipped.settings_clauses()
    assert list(made.resolved.items) == list(_full("mleague").resolved.items)


def test_a_shipped_rulebook_replaced_answers_from_its_resolved_chain() -> None:
    shipped = load("mleague")
    made = record.replace(shipped, name="other")
    assert made.files() == shipped.files() and made.settings_clauses() == shipped.settings_clauses()
    assert made.clause_origins() == shipped.clause_origins()


def test_a_stale_or_missing_file_loads_the_full_way(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled_cache, "fingerprint", lambda: "another")
    compiled_cache.forget_shipped()
    assert type(load("house")) is Rulebook
    monkeypatch.setattr(compiled_cache, "FILE_NAME", "missing.jsonl")
    compiled_cache.forget_shipped()
    assert type(load("house")) is Rulebook


def test_a_chain_whose_text_changed_loads_the_full_way(fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:
    found = compiled_cache.entry("mleague")
    assert found is not None
    found["files"][-1][1] = "0" * 64  # the file it extends held another text when it was compiled
    monkeypatch.setattr(compiled_cache, "entry", lambda name: found)
    assert type(load("mleague")) is Rulebook


@pytest.mark.parametrize(
    "damage",
    [
        lambda e: e["rules"]["d"][0][1]["t"][0].__setitem__(0, "Evil"),
        lambda e: e["rules"]["d"][0][1]["t"][0].__setitem__(5, {"o": 1}),
        lambda e: e.__setitem__("settings", ["Const", 1]),
        lambda e: e.__setitem__("files", [["../secret.rulebook", "0"]]),
        lambda e: e.__setitem__("title", 3),
    ],
)
def test_a_damaged_entry_loads_the_full_way(damage, fresh_cache: None, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    found = compiled_cache.entry("house")
    assert found is not None
    damage(found)
    monkeypatch.setattr(compiled_cache, "entry", lambda name: found)
    assert type(load("house")) is Rulebook


def test_an_application_gets_the_vocabulary_function_of_its_name() -> None:
    with pytest.raises(ValueError):
        compiled_cache._decode(["Apply", "no_such_function", {"t": []}, False])
    with pytest.raises(ValueError):
        compiled_cache._decode(["Binary", "**", ["Const", 1], ["Const", 2]])


def test_fingerprint_covers_everything_the_compiler_imports() -> None:
    code = (
        "import json, sys\n"
        "import ruledsl.check, ruledsl.lark_parser, ruledsl.compiled_cache, ruledsl.clause_origin\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('ruledsl.'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    imported = {name.removeprefix("ruledsl.").replace(".", "/") + ".py" for name in json.loads(result.stdout)}
    assert imported <= set(compiled_cache.SOURCES), f"add to compiled_cache.SOURCES: {sorted(imported - set(compiled_cache.SOURCES))}"


def test_a_shipped_rulebook_equals_the_one_compiled_from_its_texts() -> None:
    """Whichever way a rulebook was loaded, it compares by its content: a shipped one equals the one compiled from
    its texts, both ways round, and differs from another rulebook."""
    shipped, full = load("mleague"), _full("mleague")
    assert type(shipped) is ShippedRulebook and type(full) is Rulebook
    assert shipped == full and full == shipped and not shipped != full
    assert shipped != _full("house") and _full("house") != shipped
    assert shipped != record.replace(full, title="another") and shipped != "mleague"
    assert load("mleague") == shipped


def test_a_chain_file_that_cannot_be_read_loads_the_full_way_and_a_bug_is_not_hidden(fresh_cache: None) -> None:
    """A file refused as a rulebook (unreadable, past the size bound) leaves the loading to the full way, which says
    why; any other exception is a bug and is raised."""
    from ruledsl.ast import Span
    from ruledsl.diagnostics import Diagnostic, RulebookError

    def refused(kind: type[Exception]) -> Callable[[str, bool], tuple[str, str]]:
        def read(name: str, extended: bool) -> tuple[str, str]:
            if kind is RulebookError:
                raise RulebookError([Diagnostic("error", "too large", Span("rulebooks/house.rulebook", 1, 1, 1, 2))])
            raise kind(name)

        return read

    never = lambda: pytest.fail("resolved")  # noqa: E731
    assert compiled_cache.load("house", refused(FileNotFoundError), never) is None
    assert compiled_cache.load("house", refused(RulebookError), never) is None
    with pytest.raises(ZeroDivisionError):
        compiled_cache.load("house", refused(ZeroDivisionError), never)
    assert compiled_cache.load("no_such_rulebook", refused(ZeroDivisionError), never) is None


def test_a_bundled_chain_is_read_by_name_and_a_path_as_the_resolver_reads_it() -> None:
    from ruledsl.rulebook_files import read_bundled

    display, text = read_bundled("house", False)
    assert display == "rulebooks/house.rulebook" and text == resolve("house").texts[display]
    with pytest.raises(FileNotFoundError):
        read_bundled("no_such_rulebook", True)
    path = str(ROOT / "rulebooks" / "house.rulebook")
    assert read_bundled(path, False) == (path, text)
