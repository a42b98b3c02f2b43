"""Reports meant to be published quote rulebook and log text escaped: a clause
`<img src=x onerror=...>`, a title with a script, a file named like a Markdown link are shown as the characters
they are in `riichi diff --format md` and `riichi impact --format md/html`, never rendered. One helper
(``engine.core.markup``) escapes for every format."""

from __future__ import annotations

import copy
import re

import pytest

from engine.cli import main as cli_main
from engine.core.markup import html_text, md_code, md_text

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    "[click](javascript:alert(3))",
    "![pic](http://x/y.png)",
    "a | b | c",
    "**bold** _em_ ~~gone~~ `code`",
    "# heading",
    "1. a list",
    "line\nbreak\r\nand\u2028more",
    "&lt;already an entity&gt;",
    "``` fenced",
]


def assert_inert_markdown(text: str) -> None:
    """Outside code spans (literal by construction): no HTML tag, no link or image."""
    text = re.sub(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)", "", text)
    assert not re.search(r"<[A-Za-z/!]", text), text
    assert not re.search(r"(?<!\\)\]\(", text), text  # `](` starts a link target only when `]` is unescaped
    assert "javascript:alert(3))" not in text or "\\](javascript" in text


@pytest.mark.parametrize("word", HOSTILE)
def test_md_text_shows_the_characters_and_nothing_else(word):
    out = md_text(word)
    assert_inert_markdown(out)
    assert "\n" not in out and "\r" not in out and "\u2028" not in out
    assert not re.search(r"(?<!\\)[|*_`\[\]~]", out)  # every inline mark escaped
    assert not re.match(r"\s*(#|\d+\.)", out) or out.lstrip().startswith(("\\#", "1\\."))


@pytest.mark.parametrize("word", HOSTILE)
def test_md_code_is_one_code_span_whatever_it_holds(word):
    out = md_code(word)
    fence = re.match(r"`+", out).group()
    assert out.endswith(fence) and fence not in out[len(fence) : -len(fence)]
    assert "\n" not in out and not re.search(r"(?<!\\)\|", out)


@pytest.mark.parametrize("word", HOSTILE)
def test_html_text_leaves_no_tag_or_attribute_break(word):
    out = html_text(word)
    assert "<" not in out and ">" not in out and '"' not in out and "'" not in out


CLAUSE = "<img src=x onerror=alert(1)> [click](javascript:alert(3)) | **x**"


def test_diff_md_escapes_a_hostile_clause_title_value_and_file_name(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "[evil](javascript:alert(4))<b>"
    folder.mkdir()
    path = folder / "evil.rulebook"
    path.write_text(
        'rulebook evil "<script>alert(2)</script>" extends house\n\n'
        f'@clause("{CLAUSE}")\n'
        'override yaku tanyao {\n  han = {closed: 1}\n}\n\n'
        f'@clause("{CLAUSE}")\n'
        'yaku hostile "<img src=y onerror=alert(5)>" {\n  han = 2\n  when = riichi and tsumo and closed\n}\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    code = cli_main(["diff", "house", str(path.relative_to(tmp_path)), "--format", "md", "--hands", "50"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "alert(1)" in out and "&lt;img src=x onerror=alert(1)&gt;" in out  # shown, as text
    assert_inert_markdown(out)
    assert "&lt;img src=y onerror=alert(5)&gt;" in out


def test_impact_md_and_html_escape_hostile_names_hands_and_texts():
    from engine.impact.html import render_html
    from engine.impact.report import render_markdown
    from tests.impact.test_report import summary

    data = copy.deepcopy(summary())
    data["a"] = "<b>a</b>.rulebook"
    data["b"] = "[b](javascript:alert(3)).rulebook"
    data["scope"] = "<script>alert(2)</script>"
    data.setdefault("score_changes", [{"delta": 300, "wins": 2}])
    data["games"].setdefault("moves", [{"a": 1, "b": 2, "seats": 1}])
    for item in data["items"]:
        for win in item.get("examples", []):
            win["file"] = "/logs/<img src=x onerror=alert(1)>.mjlog"
            win["hand"] = "`<img src=z>`"
        for r in item.get("round_examples", []):
            r["file"] = "/logs/[x](javascript:alert(3)).mjson"
            r["text"] = CLAUSE
    md = render_markdown(data)
    assert_inert_markdown(md)
    assert "&lt;img src=x onerror=alert(1)&gt;.mjlog" in md
    pytest.importorskip("pygal", reason="the HTML report needs the `report` extra")
    page = render_html(data)
    body = page.split("<body>", 1)[1]
    for raw in ("<img src=", "<script>alert", "<b>a</b>"):  # the charts' own scripts are pygal's
        assert raw not in body, raw
    assert "&lt;img src=x onerror=alert(1)&gt;.mjlog" in body
