"""Hypothesis strategies for rulebooks: syntax trees built directly, and text generated from our own grammar.

Names are drawn mostly from the vocabulary (so generated rulebooks reach the checker's deeper paths) and never
from the grammar's keywords, which the lexer would read as keywords.
"""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.parser import grammar_text
from ruledsl.resolve import bundled_names

KEYWORDS = frozenset(
    "rulebook extends source override remove exception to example if then else or and not in true false "
    "any all count sum max min".split()
)

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
strings = st.text(max_size=12)


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
)


# ---- text from the grammar -------------------------------------------------------------------------------------


def grammar() -> Lark:
    return Lark(grammar_text(), parser="lalr")


def _spaced(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Every token is followed by whitespace so that two generated tokens never run into one."""
    return st.tuples(strategy, st.sampled_from([" ", "\n", "  ", "\n  "])).map("".join)


def rulebook_texts() -> st.SearchStrategy[str]:
    """Text the grammar accepts, with tokens a lexer reads back as generated (no keyword used as a name)."""
    lark = grammar()
    explicit: dict[str, st.SearchStrategy[str]] = {}
    for terminal in lark.terminals:
        if terminal.pattern.type == "str":
            explicit[terminal.name] = _spaced(st.just(terminal.pattern.value))
    explicit.update(
        NAME=_spaced(names),
        TILES=_spaced(tile_texts),
        INT=_spaced(st.integers(0, 200).map(str)),
        STRING=_spaced(strings.map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"')),
        COMPARE=_spaced(st.sampled_from(["==", "!=", "<=", ">=", "<", ">"])),
        ADD_OP=_spaced(st.sampled_from(["+", "-"])),
        MUL_OP=_spaced(st.sampled_from(["*", "/"])),
        WS=st.just(" "),
        COMMENT=st.just("# note\n"),
    )
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
