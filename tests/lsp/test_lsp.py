"""``riichi lsp`` driven as an editor drives it: JSON-RPC over a pipe to ``python -m engine.cli lsp``
for what the issue names (a typo's did-you-mean, a hover, a completion, a jump across ``extends``, fuzzed texts),
and the same server in this process for every other path of each feature."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.lsp.text import path_to_uri
from tests.lsp.client import ROOT, InProcess, Piped
from tests.ruledsl import strategies as S
from tests.security.test_fuzz import BUNDLED, MUTATIONS, SMALL_BUNDLED, as_text, mutants

TYPO = '''rulebook mine "Mine" extends tenhou

@clause("Local rule 1")
override yaku pinfu {
  han = {closed: 2}
  when = shape == standard and all(g in sets: is_sequnce(g))
}
'''
HOUSE = ROOT / "rulebooks" / "house.rulebook"
PINFU_LINE = next(n for n, line in enumerate(HOUSE.read_text(encoding="utf-8").split("\n")) if line.startswith("yaku pinfu "))


@pytest.fixture(scope="module")
def piped():
    client = Piped()
    answer = client.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert answer["result"]["capabilities"]["hoverProvider"] is True
    client.notify("initialized")
    yield client
    assert client.close() == 0


def test_a_typo_gets_the_checkers_did_you_mean(piped, tmp_path):
    uri = path_to_uri(str(tmp_path / "mine.rulebook"))
    piped.open(uri, TYPO)
    (typo,) = [d for d in piped.diagnostics(uri) if "is_sequnce" in d["message"]]
    assert "did you mean `is_sequence`?" in typo["message"]
    assert typo["severity"] == 1 and typo["range"]["start"] == {"line": 5, "character": 46}
    assert typo["data"] == {"replacement": "is_sequence"}


def test_a_misspelt_override_links_to_the_item_it_probably_means(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, 'rulebook mine "Mine" extends tenhou\n@clause("x")\noverride yaku pinfuu {\n  han = 2\n}\n')
    (typo,) = [d for d in local.diagnostics(uri) if "pinfuu" in d["message"]]
    (related,) = typo["relatedInformation"]
    assert related["message"] == "`yaku pinfu` defined in house" and related["location"]["uri"].endswith("/rulebooks/house.rulebook")


def test_hover_on_pinfu_is_its_explanation(piped, tmp_path):
    uri = path_to_uri(str(tmp_path / "mine.rulebook"))
    piped.open(uri, TYPO)
    value = piped.at("textDocument/hover", uri, 3, 16)["contents"]["value"]
    assert 'yaku pinfu "Pinfu"' in value and "worth" in value


def test_completion_inside_settings_table_offers_its_keys(piped, tmp_path):
    uri = path_to_uri(str(tmp_path / "keys.rulebook"))
    piped.open(uri, 'rulebook keys "Keys" extends tenhou\n\noverride settings table {\n  \n}\n')
    labels = {item["label"] for item in piped.at("textDocument/completion", uri, 3, 2)["items"]}
    assert {"players", "start_points", "red_fives", "kita_ron"} <= labels


def test_definition_of_an_overridden_item_is_its_base(piped, tmp_path):
    uri = path_to_uri(str(tmp_path / "mine.rulebook"))
    piped.open(uri, TYPO)
    (location,) = piped.at("textDocument/definition", uri, 3, 16)
    assert location["uri"].endswith("/rulebooks/house.rulebook")
    assert location["range"]["start"]["line"] == PINFU_LINE


def test_fuzzed_texts_never_stop_the_server(piped):
    """A share of the security fuzzers' rulebook mutants, opened and then edited into one another: after each,
    the server still answers a request (it publishes what it found, or logs; it never dies)."""
    rng = random.Random(25)
    uri = "untitled:fuzz"
    texts = [as_text(m) for name in SMALL_BUNDLED[:3] for m in mutants(BUNDLED[name].encode(), rng.randrange(2**32), 8)]
    piped.open(uri, texts[0])
    for version, text in enumerate(texts[1:], start=2):
        piped.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
        answer = piped.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": rng.randrange(40), "character": rng.randrange(30)}})
        assert "result" in answer, answer
    assert piped.process.poll() is None


# ---- the same server in this process: every path of each feature ----------------------------------------------


@pytest.fixture()
def local():
    client = InProcess()
    client.request("initialize", {"capabilities": {}})
    return client


def _uri(tmp_path, name: str = "mine.rulebook") -> str:
    return path_to_uri(str(tmp_path / name))


def labels(items) -> set[str]:
    return {item["label"] for item in items["items"]}


def test_a_failing_example_is_reported_at_its_line_on_save(local, tmp_path):
    uri = _uri(tmp_path)
    text = TYPO.replace("is_sequnce", "is_sequence").replace("(g))\n}", '(g))\n  example "123m456m789p123s99p win 1s ron seat S" => {han: 9}\n}')
    local.open(uri, text)
    assert not [d for d in local.diagnostics(uri) if d["severity"] == 1]
    local.notify("textDocument/didSave", {"textDocument": {"uri": uri}, "text": text})
    (failed,) = [d for d in local.diagnostics(uri) if d["severity"] == 1]
    assert failed["range"]["start"]["line"] == 6


def test_the_quick_fix_replaces_the_unknown_word(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, TYPO)
    diagnostics = local.diagnostics(uri)
    rng = {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}
    actions = local.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": rng, "context": {"diagnostics": [*diagnostics, "junk", {"data": 3}]}})["result"]
    (fix,) = actions
    assert fix["title"] == "Replace with `is_sequence`" and fix["edit"]["changes"][uri][0]["newText"] == "is_sequence"


def test_incremental_edits_are_applied_and_checked(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, TYPO)
    change = {"range": {"start": {"line": 5, "character": 56}, "end": {"line": 5, "character": 46}}, "text": "is_sequence"}
    local.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]})
    assert "is_sequence(g)" in local.server.documents[uri].text
    assert not [d for d in local.diagnostics(uri) if d["severity"] == 1]
    tail = {"range": {"start": {"line": 99, "character": 0}, "end": {"line": 99, "character": 0}}, "text": "remove yaku chiitoitsu\n"}
    local.notify("textDocument/didChange", {"textDocument": {"uri": uri}, "contentChanges": [tail]})
    assert local.server.documents[uri].text.endswith("remove yaku chiitoitsu\n")
    local.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    closing = [m for m in local.drain() if m.get("method") == "textDocument/publishDiagnostics"]
    assert uri not in local.server.documents and closing[-1]["params"] == {"uri": uri, "diagnostics": []}


def test_diagnostics_of_another_file_of_the_chain_point_there(local, tmp_path):
    (tmp_path / "base.rulebook").write_text('rulebook base "Base" extends tenhou\n\nyaku dup "A" {\n  han = 1\n  when = riichii\n}\n', encoding="utf-8")
    uri = _uri(tmp_path, "leaf.rulebook")
    local.open(uri, 'rulebook leaf "Leaf" extends base\n\n@clause("x")\noverride yaku dup {\n  han = 2\n}\n')
    found = local.diagnostics(uri)
    elsewhere = [d for d in found if "base.rulebook" in d["message"]]
    assert elsewhere and elsewhere[0]["range"]["start"]["line"] == 0
    assert elsewhere[0]["relatedInformation"][0]["location"]["uri"].endswith("/base.rulebook")
    (location,) = local.at("textDocument/definition", uri, 3, 15)
    assert location["uri"].endswith("/base.rulebook") and location["range"]["start"]["line"] == 2
    (base,) = local.at("textDocument/definition", uri, 0, 31)
    assert base["uri"].endswith("/base.rulebook")


def test_related_locations_name_the_base_item(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, 'rulebook mine "Mine" extends tenhou\n\n@clause("x")\nsettings table {\n  players = 4\n}\n')
    (twice,) = [d for d in local.diagnostics(uri) if "already defined" in d["message"]]
    assert twice["relatedInformation"][0]["location"]["uri"].endswith("/rulebooks/house.rulebook")


def test_an_unknown_base_and_an_unparsable_text(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, 'rulebook mine "Mine" extends tenhuo\n')
    (missing,) = local.diagnostics(uri)
    assert "did you mean `tenhou`?" in missing["message"]
    assert local.at("textDocument/hover", uri, 0, 2)["contents"]["value"].startswith("**`rulebook`**")
    local.open("untitled:Untitled-1", "yaku {")
    assert local.diagnostics("untitled:Untitled-1")[0]["severity"] == 1
    assert local.at("textDocument/hover", "untitled:Untitled-1", 5, 0) is None
    assert local.at("textDocument/definition", "untitled:Untitled-1", 0, 1) == []


def test_hover_reads_the_vocabulary(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, 'rulebook mine "Mine" extends tenhou\n@clause("x")\nyaku x "X" {\n  han = 1\n  when = riichi and any(g in sets: is_sequence(g)) and wait == ryanmen\n}\n'
               '@clause("y")\noverride settings table {\n  players = 4\n}\nexamples for yaku x {\n}\n')
    def value(line: int, character: int) -> str:
        return local.at("textDocument/hover", uri, line, character)["contents"]["value"]
    assert value(4, 10).startswith("**fact `riichi`**")
    assert value(4, 21).startswith("**quantifier `any")
    assert value(4, 36).startswith("**function `is_sequence")
    assert value(4, 64).startswith("**constant `ryanmen`**")
    assert value(2, 1).startswith("**kind `yaku`**")
    assert value(1, 2).startswith("**`@clause")
    assert value(3, 3).startswith("**field `han`**")
    assert "setting players" in value(8, 3)
    assert value(7, 12).startswith("**kind `settings`**")
    assert value(7, 20).startswith("```text\nsettings table")
    assert value(10, 1).startswith("**`examples`**")
    assert local.at("textDocument/hover", uri, 4, 7) is None  # `=`: no word
    assert local.at("textDocument/hover", uri, 40, 0) is None


def test_hover_on_a_settings_group_and_a_field_word_elsewhere():
    from engine.lsp.hover import explain, vocabulary_entry

    assert vocabulary_entry("furiten").startswith("**settings group `furiten`**")
    assert vocabulary_entry("when", "yaku").startswith("**field `when`**")
    assert vocabulary_entry("nothing_at_all") is None
    assert explain(None, "kita_ron", "settings", "  ") is None
    assert explain(None, "excludes", "no_such_kind", "") is None


def test_completion_at_every_place(local, tmp_path):
    uri = _uri(tmp_path)
    text = ('rulebook mine "Mine" extends tenhou\n'
            '\n'  # 1
            'override \n'  # 2
            'override yaku \n'  # 3
            'examples \n'  # 4
            'examples for \n'  # 5
            'examples for yakuman \n'  # 6
            'exception small \n'  # 7
            'exception small to \n'  # 8
            'exception small to yaku \n'  # 9
            'settings \n'  # 10
            'override settings game {\n'  # 11
            '  tie_break = "\n'  # 12
            '  score_rounding = \n'  # 13
            '  uma = \n'  # 14
            '  nothing = \n'  # 15
            '  uma = [1, \n'  # 16
            '}\n'  # 17
            'override settings calls {\n'  # 18
            '  precedence = [\n'  # 19
            '}\n'  # 20
            '@clause("x") yaku x "X" {\n'  # 21
            '  \n'  # 22
            '  when = \n'  # 23
            '  when = f(\n'  # 24
            '}\n'  # 25
            'yaku x y z \n'  # 26
            'strange_kind x {\n'  # 27
            '  \n'  # 28
            '}\n'
            '# a comment { with a brace\n'  # 30
            'yaku q "a { b" {\n'  # 31
            '  \n'  # 32
            '}\n'
            'yaku r "R" {\n'  # 33
            '  excludes = [\n'  # 34
            '}\n'
            'limit big {\n'  # 36
            '  when = \n'  # 37
            '}\n')
    local.open(uri, text)
    def at(line: int, character: int | None = None) -> set[str]:
        character = len(text.split("\n")[line]) if character is None else character
        return labels(local.at("textDocument/completion", uri, line, character))
    assert {"yaku", "override", "examples", "settings"} <= at(1)
    assert "yaku" in at(2) and "pinfu" not in at(2)
    assert {"pinfu", "tanyao"} <= at(3)
    assert at(4) == {"for"} and "yakuman" in at(5)
    assert "kokushi" in at(6) or "kokushi_musou" in at(6) or at(6)
    assert at(7) == {"to"} and "yaku" in at(8) and "pinfu" in at(9)
    assert {"table", "game"} <= at(10)
    assert {'"seat_order"', '"share"'} == at(12) and '"exact"' in at(13)
    assert at(14) == {"[15, 5, -5, -15]"} and at(15) == set()
    assert {"ron", "pon"} <= at(19)
    assert {"han", "when", "excludes", "example"} <= at(22)
    assert {"riichi", "is_sequence", "ryanmen", "any"} <= at(23) and "pinfu" not in at(23) and "han" not in at(23)
    assert "pinfu" in at(35) and "riichi" not in at(35)  # `excludes`: item names only
    assert {"han", "fu", "pinfu"} <= at(38)  # a limit's condition reads the han and the yaku
    assert "riichi" in at(24)
    assert at(26) == set() and at(28) == set()
    assert "han" in at(32)


def test_completion_without_any_fold():
    from engine.lsp.completion import _names, _quote, completions
    from engine.lsp.context import context_at

    assert {i["label"] for i in _names(None, "settings")} >= {"table"} and _names(None, "yaku") == []
    assert _quote("share", '  tie_break = ') == '"share"' and _quote("share", '  tie_break = "sh') == 'share"'
    assert "riichi" in {i["label"] for i in completions(context_at("yaku x {\n  when = ", 99), None)}
    assert "riichi" in {i["label"] for i in completions(context_at("yaku x {\n  when = a and\n  (", 99), None)}


def test_document_symbols_list_the_items(local, tmp_path):
    uri = _uri(tmp_path)
    text = ('rulebook mine "Mine" extends tenhou\nsource "s"\n@clause("x")\nyaku x "X" {\n  han = 1\n  example "a { b" => {han: 1}\n}\n'
            'override yaku pinfu {\n  han = 2\n}\nremove yaku chiitoitsu\nexamples for yaku tanyao {\n}\n'
            'exception open_tanyao to yaku tanyao {\n}\nyaku unclosed {\n  han = 1\n')
    local.open(uri, text)
    found = local.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})["result"]
    assert [(s["name"], s["detail"]) for s in found] == [
        ("x", "yaku"), ("pinfu", "override yaku"), ("chiitoitsu", "remove yaku"), ("tanyao", "examples yaku"),
        ("open_tanyao", "exception to yaku tanyao"), ("unclosed", "yaku")]
    assert found[0]["range"]["end"]["line"] == 6 and found[2]["range"]["end"]["line"] == 10


def test_definition_of_names_in_expressions_and_removed_items(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, 'rulebook mine "Mine" extends tenhou\n@clause("x")\nremove yaku pinfu\n@clause("y")\nyaku x "X" {\n  han = 1\n  when = has_yaku(tanyao)\n}\n')
    (removed,) = local.at("textDocument/definition", uri, 2, 14)
    assert removed["range"]["start"]["line"] == PINFU_LINE
    (tanyao,) = local.at("textDocument/definition", uri, 6, 20)
    assert tanyao["uri"].endswith("/rulebooks/house.rulebook")
    assert local.at("textDocument/definition", uri, 5, 10) == []  # a number
    assert local.at("textDocument/definition", uri, 5, 3) == []  # a field: no item of that name


def test_bad_requests_get_errors_and_the_session_goes_on(local):
    assert local.request("no/such/method")["error"]["code"] == -32601
    assert local.request("textDocument/hover", {"textDocument": {"uri": "file:///not/open.rulebook"}, "position": {"line": 0, "character": 0}})["error"]["code"] == -32602
    assert local.request("textDocument/hover", {"textDocument": {}})["error"]["code"] == -32602
    local.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.rulebook", "text": 5}})
    local.notify("textDocument/didChange", {"textDocument": {"uri": "file:///never-opened.rulebook"}})
    local.notify("no/such/notification")
    local.server.handle({"jsonrpc": "2.0", "id": 7, "result": None})  # a response: ignored
    logs = [n for n in local.notes + local.drain() if n.get("method") == "window/logMessage"]
    assert len(logs) == 2
    assert local.request("shutdown")["result"] is None


def test_an_internal_failure_is_an_error_answer(local, monkeypatch, tmp_path):
    import engine.lsp.server as server

    uri = _uri(tmp_path)
    local.open(uri, TYPO)
    monkeypatch.setitem(local.server.requests, "textDocument/hover", lambda p: 1 / 0 if p else None)
    assert local.request("textDocument/hover", {"x": 1})["error"]["code"] == -32603
    monkeypatch.setattr(server.Document, "analyse", lambda self, examples=False: 1 / 0)
    local.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 9}, "contentChanges": [{"text": "x"}]})
    assert "checking" in local._next()["params"]["message"] and not local.server.documents[uri].stale


def test_the_whole_loop_over_byte_streams():
    import io

    from engine.lsp import protocol as P
    from engine.lsp.server import run

    frames = [
        P.encode({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
        b"\r\n",  # a stray blank line
        b"Content-Length: nope\r\n\r\n",
        b"Content-Length: 3\r\n\r\n[1]",
        b"Content-Length: 2\r\n\r\n\xff\xfe",
        b"Content-Length: 99999999999\r\n\r\n",
        P.encode({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "untitled:x", "text": "rulebook x"}}}),
        P.encode({"jsonrpc": "2.0", "id": 3, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": "untitled:x"}}}),
        P.encode({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
        P.encode({"jsonrpc": "2.0", "method": "exit"}),
    ]
    out = io.BytesIO()
    assert run(io.BytesIO(b"".join(frames)), out) == 0
    out.seek(0)
    answers = []
    while (message := P.read_message(out)) is not None:
        answers.append(message)
    assert answers[0]["result"]["serverInfo"]["name"] == "riichi-rulebook"
    assert sum(1 for a in answers if a.get("method") == "window/logMessage") == 4
    assert any(a.get("method") == "textDocument/publishDiagnostics" for a in answers)
    assert answers[-1] == {"jsonrpc": "2.0", "id": 2, "result": None}
    assert run(io.BytesIO(P.encode({"jsonrpc": "2.0", "method": "exit"})), io.BytesIO()) == 1  # exit without shutdown
    assert run(io.BytesIO(b"Content-Length: 10\r\n\r\n{}"), io.BytesIO()) == 1  # the pipe closed mid-frame


def test_positions_count_utf16_and_uris_map_to_paths():
    from engine.lsp.text import file_uri, from_utf16, to_utf16, uri_to_path, word_at

    line = "a\U0001f004b word"
    assert to_utf16(line, 2) == 3 and from_utf16(line, 3) == 2 and from_utf16(line, 99) == len(line)
    assert word_at([line], 0, 6) == ("word", 4, 8) and word_at([line], 3, 0) is None and word_at(["  "], 0, 1) is None
    assert uri_to_path("file:///tmp/a%20b.rulebook") == "/tmp/a b.rulebook"
    assert uri_to_path("untitled:Untitled-1") == "Untitled-1.rulebook" and uri_to_path("untitled:") == "untitled.rulebook"
    assert uri_to_path("untitled:x.rulebook") == "x.rulebook"
    assert file_uri("rulebooks/house.rulebook", "/elsewhere/x.rulebook", "file:///elsewhere/x.rulebook").endswith("/rulebooks/house.rulebook")


def test_riichi_lsp_is_a_subcommand(monkeypatch):
    import engine.lsp.server as server
    from engine import cli

    monkeypatch.setattr(server, "run", lambda: 0)
    assert cli.main(["lsp"]) == 0

    assert "lsp" in {name for name, _, _ in cli.SUBCOMMANDS}
    parser = cli.build_parser(["lsp", "--stdio"])
    assert parser.parse_args(["lsp", "--stdio"]).stdio is True


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(S.rulebook_texts(), MUTATIONS), line=st.integers(0, 30), character=st.integers(0, 60))
def test_generated_texts_get_answers_never_failures(text, line, character):
    """The fuzzers' generated rulebooks and mutants, through an edit and every request at a random place: each
    answer is a result (never a JSON-RPC error), and the checker never fails (no log message)."""
    client = InProcess()
    client.open("untitled:gen", "")
    client.notify("textDocument/didChange", {"textDocument": {"uri": "untitled:gen", "version": 2}, "contentChanges": [{"text": text}]})
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/documentSymbol"):
        client.at(method, "untitled:gen", line, character)
    assert not [n for n in client.notes + client.drain() if n.get("method") == "window/logMessage"]


def test_completion_of_the_clauses_from_statement(local, tmp_path):
    uri = _uri(tmp_path)
    local.open(uri, 'rulebook mine "Mine" extends tenhou\n')  # folded once: completion reads the last good fold
    local.diagnostics(uri)
    text = 'rulebook mine "Mine" extends tenhou\n\nclauses \nclauses from \n'
    local.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]})
    assert "clauses" in labels(local.at("textDocument/completion", uri, 1, 0))
    assert labels(local.at("textDocument/completion", uri, 2, len("clauses "))) == {"from"}
    assert labels(local.at("textDocument/completion", uri, 3, len("clauses from "))) == {"tenhou", "house"}
