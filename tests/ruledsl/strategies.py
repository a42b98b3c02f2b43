"""Hypothesis strategies for rulebooks: syntax trees built directly, and text generated from our own grammar.

Names are drawn mostly from the vocabulary (so generated rulebooks reach the checker's deeper paths) and never
from the grammar's keywords, which the lexer would read as keywords.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark, get_terminal_names
from lark import Lark

from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.parser import grammar_keywords, grammar_text
from ruledsl.resolve import bundled_names

KEYWORDS = frozenset(grammar_keywords())

VOCABULARY_NAMES = sorted(
    (set(V.FACTS) | set(V.FUNCTIONS) | set(V.CONSTANTS) | set(V.ITEM_KINDS) | set(V.SETTINGS) | set(V.DECORATORS)
     | {key for group in V.SETTINGS.values() for key in group}
     | {name for kind in V.ITEM_KINDS.values() for name in kind.fields}
     | set(bundled_names()) | {"closed", "open", "x", "g", "t", "n", "a", "b"})
    - KEYWORDS
)

names = st.one_of(
    st.sampled_from(VOCABULARY_NAMES),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True).filter(lambda s: s not in KEYWORDS),
)
tile_texts = st.one_of(
    st.sampled_from(["5z", "1m", "9p", "23468s6z", "0m", "123456789m", "1234z", "8z", "0z"]),
    st.from_regex(r"([0-9]{1,4}[mpsz]){1,3}", fullmatch=True),
)
# printable text: a rulebook may not hold control or bidi characters (ruledsl.diagnostics.UNSAFE_CHARS)
strings = st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp")), max_size=12)


def _leaf() -> st.SearchStrategy[ast.Expr]:
    return st.one_of(
        st.integers(0, 10**6).map(ast.Int),
        st.booleans().map(ast.Bool),
        strings.map(ast.Str),
        tile_texts.map(ast.Tiles),
        names.map(ast.Name),
    )


_BINARY_OPS = ["or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "notin", "+", "-", "*", "/", "^"]


def _extend(children: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[ast.Expr]:
    small = st.lists(children, max_size=3).map(tuple)
    return st.one_of(
        st.builds(ast.BinOp, st.sampled_from(_BINARY_OPS), children, children),
        st.builds(ast.Not, children),
        st.builds(ast.Negate, children),
        st.builds(ast.Conditional, children, children, children),
        st.builds(ast.Range, children, children),
        st.builds(ast.Call, names, small),
        st.builds(ast.Quantifier, st.sampled_from(sorted(V.QUANTIFIERS)), names, children, children),
        st.builds(ast.ListLit, small),
        st.builds(ast.Record, st.lists(st.builds(ast.Entry, names, children), max_size=3).map(tuple)),
    )


expressions = st.recursive(_leaf(), _extend, max_leaves=12)

records = st.builds(ast.Record, st.lists(st.builds(ast.Entry, names, expressions), max_size=3).map(tuple))
fields = st.builds(ast.Field, names, expressions)
examples = st.builds(ast.Example, strings, records)
decorators = st.builds(ast.Decorator, names, strings)
titles = st.none() | strings


@st.composite
def items(draw) -> ast.Item:
    action = draw(st.sampled_from(["define", "define", "override", "remove", "exception"]))
    decos = tuple(draw(st.lists(decorators, max_size=2)))
    name = draw(names)
    if action == "remove":
        return ast.Item("remove", draw(names), name, decorators=decos)
    body = {
        "fields": tuple(draw(st.lists(fields, max_size=4))),
        "examples": tuple(draw(st.lists(examples, max_size=2))),
        "decorators": decos,
    }
    if action == "override":
        return ast.Item("override", draw(names), name, **body)
    if action == "exception":
        return ast.Item(
            "exception", "exception", name, draw(titles), target_kind=draw(names), target_name=draw(names), **body
        )
    return ast.Item("define", draw(names), name, draw(titles), **body)


rulebooks = st.builds(
    ast.Rulebook,
    names,
    titles,
    st.none() | names,
    st.none() | strings,
    st.lists(items(), max_size=5).map(tuple),
    adoptions=st.lists(st.builds(ast.Adoption, names, strings), max_size=2).map(tuple),
)


# ---- text from the grammar -------------------------------------------------------------------------------------


def grammar() -> Lark:
    # both start symbols, so that whole files or single expressions can be generated
    return Lark(grammar_text(), parser="lalr", start=["start", "expr"])


def _spaced(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Every token is followed by whitespace so that two generated tokens never run into one."""
    return st.tuples(strategy, st.sampled_from([" ", "\n", "  ", "\n  "])).map("".join)


def _string_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def explicit_terminals(lark: Lark) -> dict[str, st.SearchStrategy[str]]:
    """A strategy per terminal, producing tokens the lexer reads back as generated (no keyword as a name)."""
    explicit: dict[str, st.SearchStrategy[str]] = {}
    for terminal in lark.terminals:
        if terminal.pattern.type == "str":
            explicit[terminal.name] = _spaced(st.just(terminal.pattern.value))
    explicit.update(
        NAME=_spaced(names),
        TILES=_spaced(tile_texts),
        INT=_spaced(st.integers(0, 200).map(str)),
        STRING=_spaced(strings.map(_string_literal)),
        COMPARE=_spaced(st.sampled_from(["==", "!=", "<=", ">=", "<", ">"])),
        ADD_OP=_spaced(st.sampled_from(["+", "-"])),
        MUL_OP=_spaced(st.sampled_from(["*", "/"])),
        WS=st.just(" "),
        COMMENT=st.just("# note\n"),
    )
    return explicit


def rulebook_texts(start: str = "start") -> st.SearchStrategy[str]:
    """Text the full grammar accepts from ``start`` (a whole file, or ``expr`` for one expression).

    Expressions recurse through a dozen precedence levels, so drawn directly they are mostly tiny files
    without a field, or overrun; ``structured_texts`` is the faster way to reach the checker.
    """
    lark = grammar()
    reachable = get_terminal_names(*lark.grammar.compile([start], ()))
    explicit = {name: strategy for name, strategy in explicit_terminals(lark).items() if name in reachable}
    return from_lark(lark, start=start, explicit=explicit)


def _structure_grammar() -> Lark:
    """The file grammar with every expression collapsed into one declared terminal, drawn separately."""
    text = grammar_text()
    assert "?expr: conditional | disjunction" in text
    text = text.replace("?expr: conditional | disjunction", "?expr: EXPR\n%declare EXPR")
    return Lark(text, parser="lalr")


def structured_texts() -> st.SearchStrategy[str]:
    """Whole files from the grammar, each expression a generated syntax tree rendered to text."""
    from ruledsl.render import render_expr

    lark = _structure_grammar()
    reachable = get_terminal_names(*lark.grammar.compile(["start"], ()))
    explicit = {name: strategy for name, strategy in explicit_terminals(lark).items() if name in reachable}
    explicit["EXPR"] = _spaced(expressions.map(render_expr))
    return from_lark(lark, explicit=explicit)


def mutations(text: str) -> st.SearchStrategy[str]:
    """The text with a few characters inserted, deleted or replaced: near-miss rulebooks, as typos make them."""
    alphabet = st.sampled_from(list('{}()[]=:,."\'#@-+*/^<>!|&;_ \n\tazmp0159') + ["é", "\x00", "\r"])

    @st.composite
    def mutate(draw) -> str:
        chars = list(text)
        for _ in range(draw(st.integers(1, 4))):
            position = draw(st.integers(0, len(chars)))
            op = draw(st.sampled_from(["insert", "delete", "replace"]))
            if op == "insert" or not chars:
                chars.insert(position, draw(alphabet))
            elif op == "delete":
                del chars[min(position, len(chars) - 1)]
            else:
                chars[min(position, len(chars) - 1)] = draw(alphabet)
        return "".join(chars)

    return mutate()


# ---- rulebooks that mostly use the vocabulary right, to reach the checker's deeper paths ------------------------

_KINDS = sorted(V.ITEM_KINDS)


@st.composite
def vocabulary_items(draw, names_pool: list[str]) -> ast.Item:
    kind = draw(st.sampled_from(_KINDS) | names)
    if kind == "settings":
        group = draw(st.sampled_from(sorted(V.SETTINGS)) | names)
        keys = sorted(V.SETTINGS.get(group, {})) or ["players"]
        item_fields = tuple(
            draw(st.lists(st.builds(ast.Field, st.sampled_from(keys) | names, _setting_values), max_size=4))
        )
        action = draw(st.sampled_from(["define", "override"]))
        return ast.Item(action, "settings", group, fields=item_fields, decorators=draw(_clause))
    spec = V.ITEM_KINDS.get(kind)
    field_names = sorted(spec.fields) if spec and spec.fields else ["when"]
    item_fields = tuple(
        draw(st.lists(st.builds(ast.Field, st.sampled_from(field_names) | names, expressions), max_size=4))
    )
    item_examples = tuple(draw(st.lists(_examples, max_size=2)))
    name = draw(st.sampled_from(names_pool) | names)
    action = draw(st.sampled_from(["define", "define", "define", "override", "remove", "exception"]))
    if action == "remove":
        return ast.Item("remove", kind, name, decorators=draw(_clause))
    if action == "exception":
        target = draw(st.sampled_from(names_pool) | names)
        return ast.Item(
            "exception", "exception", name, None, item_fields, item_examples, draw(_clause),
            target_kind=kind, target_name=target,
        )
    if action == "override":
        return ast.Item("override", kind, name, None, item_fields, item_examples, draw(_clause))
    return ast.Item("define", kind, name, draw(titles), item_fields, item_examples, draw(_clause))


_clause = st.lists(
    st.builds(ast.Decorator, st.sampled_from(["clause", "clause", "note", "claus"]), strings), max_size=2
).map(tuple)
_setting_values = st.one_of(
    st.integers(0, 40000).map(ast.Int),
    st.booleans().map(ast.Bool),
    st.sampled_from(["add", "highest", "tenhou", "abort", "x"]).map(ast.Str),
    tile_texts.map(ast.Tiles),
    st.lists(tile_texts.map(ast.Tiles) | strings.map(ast.Str), max_size=3).map(lambda xs: ast.ListLit(tuple(xs))),
    expressions,
)
_RESULT_KEYS = ["han", "fu", "yakuman", "limit", "total", "yaku", "error", "payments", "base_points", "hna"]
_examples = st.builds(
    ast.Example,
    st.sampled_from(["123m456p789s11z22z win 2z ron", "1m win 1m", "", "123m win 5z tsumo riichi dora 1m"]) | strings,
    st.builds(ast.Record, st.lists(st.builds(ast.Entry, st.sampled_from(_RESULT_KEYS), expressions), max_size=3).map(tuple)),
)


@st.composite
def vocabulary_rulebooks(draw) -> ast.Rulebook:
    pool = draw(st.lists(names, min_size=1, max_size=4))
    extends = draw(st.sampled_from([None, None, "house"] + sorted(bundled_names())) | names)
    return ast.Rulebook(
        draw(names),
        draw(titles),
        extends,
        draw(st.none() | strings),
        tuple(draw(st.lists(vocabulary_items(pool), max_size=6))),
    )
