"""The lark half of the parser: text to syntax tree to AST, and syntax mistakes worded for an organiser.

Kept apart from ``ruledsl.parser`` because importing lark (and ``interegular``/``regex`` when installed) costs about
40 ms: a process that only loads bundled rulebooks gets their AST from ``parsed_cache`` and never imports this module.
``ruledsl.parser.parse`` is the entry point; call ``parse_tree`` only after its checks on the raw text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta

from ruledsl import ast, grammar_tables
from ruledsl.caches import once
from ruledsl.diagnostics import Reporter, RulebookError
from ruledsl.fast_parser import unquote
from ruledsl.parser import MAX_DEPTH, MAX_INT_DIGITS, _code_brackets, grammar_text, report_too_deep

_TOKEN_WORDS = {
    "LBRACE": "`{`",
    "RBRACE": "`}`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "LSQB": "`[`",
    "RSQB": "`]`",
    "EQUAL": "`=`",
    "COLON": "`:`",
    "COMMA": "`,`",
    "STRING": "a quoted string",
    "NAME": "a name",
    "INT": "a number",
    "TILES": "tiles",
    "$END": "the end of the file",
    "AT": "`@`",
    "COMPARE": "a comparison",
    "ADD_OP": "`+`, `-`",
    "MUL_OP": "`*`, `/`",
}


@once
def _parser() -> Lark:
    """The parser, from the shipped tables when they match ``grammar.lark`` and lark; else built, which is slower."""
    grammar = grammar_text()
    loaded = grammar_tables.load(grammar)
    return loaded if loaded is not None else grammar_tables.build(grammar)


def parse_tree(text: str, file: str, reporter: Reporter) -> ast.Rulebook:
    """Parse text that passed ``ruledsl.parser``'s size and nesting checks; mistakes raise ``RulebookError``."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        _report_syntax(exc, text, reporter)
        raise RulebookError(reporter.diagnostics) from None
    _check_depth(tree, reporter)
    if reporter.has_errors:
        raise RulebookError(reporter.diagnostics)
    try:
        rulebook = _ToAst(file, reporter).transform(tree)
    except VisitError as exc:  # pragma: no cover - defensive: a transformer bug must still not leak a traceback
        reporter.error(f"internal error while reading the rulebook: {exc.orig_exc}", ast.Span(file))
        raise RulebookError(reporter.diagnostics) from None
    if reporter.has_errors:
        raise RulebookError(reporter.diagnostics)
    return rulebook


def _check_depth(tree: Tree, reporter: Reporter) -> None:
    """Bound the depth of the syntax tree (measured without recursion) before anything walks it recursively."""
    stack: list[tuple[Tree, int, Tree | None]] = [(tree, 1, None)]
    while stack:
        node, depth, owner = stack.pop()
        if node.data in ("field", "example", "decorator"):
            owner = node
        if depth > MAX_DEPTH:
            where = owner if owner is not None else node
            meta = where.meta
            empty = getattr(meta, "empty", True)
            field = str(where.children[0]) if owner is not None and owner.data == "field" else None
            report_too_deep(reporter, 1 if empty else meta.line, 1 if empty else meta.column, field)
            return
        stack.extend((child, depth + 1, owner) for child in node.children if isinstance(child, Tree))


def _report_syntax(exc: UnexpectedInput, text: str, reporter: Reporter) -> None:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        if not re.sub(r"#[^\n]*", "", text).strip():
            reporter.error(
                "the rulebook is empty",
                ast.Span(reporter.file, 1, 1, 1, 2),
                'a rulebook starts with its header: `rulebook my_rules "Title"`',
            )
            return
        last = text.rstrip().splitlines() or [""]
        line = max(1, len(text.rstrip().splitlines()))
        column = len(last[-1]) + 1 if last else 1
        opened = _open_brackets(text, len(text))
        help_text = "the file ends inside an item or expression; is a `}` or `)` missing?"
        if opened:
            ch, at_line, at_col = opened[-1]
            help_text = f"the `{ch}` at line {at_line}, column {at_col} is never closed"
        reporter.error(
            "unexpected end of file",
            ast.Span(reporter.file, line, max(1, column - 1), line, column),
            help_text,
        )
        return
    if isinstance(exc, UnexpectedCharacters):
        pos = cast(int, exc.pos_in_stream)  # lark declares it None on the base class; the lexer always sets an int
        ch = text[pos] if pos < len(text) else "?"
        help_text = _char_help(ch)
        reporter.error(
            f"unexpected character `{ch}`", ast.Span(reporter.file, line, column, line, column + 1), help_text
        )
        return
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        width = max(1, len(str(token)))
        expected = _expected_words(exc.expected)
        reporter.error(
            f"unexpected {_describe(token)}",
            ast.Span(reporter.file, line, column, line, column + width),
            _decorated_adoption_help(text, token)
            or _token_help(token, exc.expected, expected, _open_brackets(text, token.start_pos or 0)),
        )
        return
    reporter.error("syntax error", ast.Span(reporter.file, line, column, line, column + 1))  # pragma: no cover


def _describe(token: Token) -> str:
    if token.type == "NAME":
        return f"name `{token}`"
    if token.type == "INT":
        return f"number `{token}`"
    if token.type == "STRING":
        return f"string {token}"
    return f"`{token}`"


@once
def _terminal_words() -> dict[str, str]:
    """How each terminal is named in a message: keywords and punctuation as written, the rest described."""
    words = {t.name: f"`{t.pattern.value}`" for t in _parser().terminals if t.pattern.type == "str"}
    words.update(_TOKEN_WORDS)
    return words


def _expected_words(expected: set[str]) -> str:
    known = _terminal_words()
    words = sorted({known[e] for e in expected if e in known})
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


def _char_help(ch: str) -> str:
    if ch == "'":
        return 'strings use double quotes: "like this"'
    if ch == ";":
        return "fields are separated by new lines, no `;` needed"
    if ch in "%&|!":
        return "use `and`, `or`, `not` for logic; numbers are plain integers"
    return "check for a typo; comments start with `#`"


_ITEM_STARTS = {"AT", "OVERRIDE", "REMOVE", "EXCEPTION", "EXAMPLES"}
_CLOSERS = {"RBRACE": "}", "RPAR": ")", "RSQB": "]"}


def _open_brackets(text: str, end: int) -> list[tuple[str, int, int]]:
    """The brackets still open at offset ``end``, outermost first, as (bracket, line, column)."""
    stack: list[tuple[str, int, int]] = []
    for ch, line, col in _code_brackets(text[:end]):
        if ch in "([{":
            stack.append((ch, line, col))
        elif stack:
            stack.pop()
    return stack


_ADOPTION_LINE = re.compile(r"\s*clauses\s+from\b")


def _decorated_adoption_help(text: str, token: Token) -> str | None:
    """After a decorator the parser reads ``clauses from NAME`` as an item's kind and name: say what went wrong."""
    lines = text.split("\n")
    line = lines[token.line - 1] if token.line and 0 < token.line <= len(lines) else ""
    before = [prior.strip() for prior in lines[: (token.line or 1) - 1] if prior.strip() and not prior.strip().startswith("#")]
    if _ADOPTION_LINE.match(line) and before and before[-1].startswith("@"):
        return "`clauses from NAME = \"...\"` takes no decorator (its words are the clause it gives); delete the `@` line above it"
    return None


def _token_help(token: Token, expected: set[str], words: str, opened: Sequence[tuple[str, int, int]] = ()) -> str:
    innermost = opened[-1] if opened else None
    if innermost is not None and innermost[0] == "{" and token.type in _ITEM_STARTS:
        return f"the `{{` at line {innermost[1]} is not closed; is a `}}` missing before this line?"
    if innermost is not None and token.type in _CLOSERS and _CLOSERS[token.type] != {"(": ")", "[": "]", "{": "}"}[innermost[0]]:
        return f"the `{innermost[0]}` at line {innermost[1]}, column {innermost[2]} is not closed"
    if (
        innermost is not None
        and innermost[0] == "{"
        and token.type == "NAME"
        and expected <= {"EQUAL", "COLON"}
    ):
        return "fields are written `name = value`; if a new item starts here, is a `}` missing above it?"
    if token.type == "COLON" and "EQUAL" in expected:
        return "fields are written `name = value`"
    if token.type == "EQUAL" and "COMPARE" in expected:
        return "compare with `==`; `=` only starts a field"
    if token.type == "EQUAL" and "COLON" in expected:
        return "record entries are written `key: value`"
    if token.type == "RBRACE" and "RPAR" in expected:
        return "a `(` is not closed"
    return f"expected {words}" if words else "check the syntax around here"


def _span(file: str, meta: Meta) -> ast.Span:
    if getattr(meta, "empty", True):
        return ast.Span(file)
    return ast.Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(file: str, tok: Token) -> ast.Span:
    return ast.Span(file, tok.line or 1, tok.column or 1, tok.end_line or tok.line or 1, tok.end_column or 1)


def _unquote(tok: Token) -> str:
    return unquote(str(tok))


@v_args(meta=True)
class _ToAst(Transformer[Token, ast.Rulebook]):
    """Builds the frozen AST; every node gets the span Lark recorded for it."""

    def __init__(self, file: str, reporter: Reporter | None = None) -> None:
        super().__init__()
        self.file = file
        self.reporter = reporter

    def _s(self, meta: Meta) -> ast.Span:
        return _span(self.file, meta)

    # ---- file structure
    def start(self, meta: Meta, children: list[Any]) -> ast.Rulebook:
        header, *statements = children
        name_tok, title, extends, source = header
        return ast.Rulebook(
            name=str(name_tok),
            title=title,
            extends=str(extends) if extends is not None else None,
            source=source,
            items=tuple(s for s in statements if isinstance(s, ast.Item)),
            adoptions=tuple(s for s in statements if isinstance(s, ast.Adoption)),
            span=self._s(meta),
            name_span=_tok_span(self.file, name_tok),
            extends_span=_tok_span(self.file, extends) if extends is not None else ast.NO_SPAN,
            file=self.file,
        )

    def header(self, meta: Meta, children: list[Any]) -> tuple[Token, str | None, Token | None, str | None]:
        name, title, extends, source = children
        return (name, _unquote(title) if title is not None else None, extends, source)

    def extends(self, meta: Meta, children: list[Any]) -> Token:
        return children[0]

    def source(self, meta: Meta, children: list[Any]) -> str:
        return _unquote(children[0])

    def adoption(self, meta: Meta, children: list[Any]) -> ast.Adoption:
        name, words = children
        return ast.Adoption(str(name), _unquote(words), self._s(meta), _tok_span(self.file, name))

    def decorator(self, meta: Meta, children: list[Any]) -> ast.Decorator:
        name, value = children
        return ast.Decorator(str(name), _unquote(value), self._s(meta))

    def item(self, meta: Meta, children: list[Any]) -> ast.Item:
        *decorators, item = children
        return _replace_item(item, decorators=tuple(decorators), span=self._s(meta))

    def define(self, meta: Meta, children: list[Any]) -> ast.Item:
        kind, name, title, members = children
        return self._item("define", kind, name, title, members, meta)

    def override(self, meta: Meta, children: list[Any]) -> ast.Item:
        kind, name, members = children
        return self._item("override", kind, name, None, members, meta)

    def remove(self, meta: Meta, children: list[Any]) -> ast.Item:
        kind, name = children
        return self._item("remove", kind, name, None, [], meta)

    def exception(self, meta: Meta, children: list[Any]) -> ast.Item:
        name, target_kind, target_name, title, members = children
        item = self._item("exception", None, name, title, members, meta)
        return _replace_item(
            item,
            target_kind=str(target_kind),
            target_name=str(target_name),
            target_span=ast.Span(
                self.file,
                target_kind.line,
                target_kind.column,
                target_name.end_line,
                target_name.end_column,
            ),
        )

    def examples(self, meta: Meta, children: list[Any]) -> ast.Item:
        """``examples for KIND NAME { ... }``: cases added to an item without touching its fields, so a field
        written here is a mistake (it would silently not apply): reported, with the form that does change it."""
        kind, name, members = children
        for member in members:
            if isinstance(member, ast.Field) and self.reporter is not None:
                self.reporter.error(
                    f"an `examples` block holds only `example` lines, not the field `{member.name}`",
                    ast.Span(self.file, member.span.line, member.span.column, member.span.line, member.span.column + len(member.name)),
                    f"to change the field, write `override {kind} {name} {{ {member.name} = ... }}`",
                )
        return self._item("examples", kind, name, None, [m for m in members if isinstance(m, ast.Example)], meta)

    def _item(
        self,
        action: str,
        kind: Token | None,
        name: Token,
        title: Token | None,
        members: list[ast.Field | ast.Example],
        meta: Meta,
    ) -> ast.Item:
        fields = tuple(m for m in members if isinstance(m, ast.Field))
        examples = tuple(m for m in members if isinstance(m, ast.Example))
        return ast.Item(
            action=action,
            kind=str(kind) if kind is not None else "exception",
            name=str(name),
            title=_unquote(title) if title is not None else None,
            fields=fields,
            examples=examples,
            span=self._s(meta),
            kind_span=_tok_span(self.file, kind) if kind is not None else ast.NO_SPAN,
            name_span=_tok_span(self.file, name),
        )

    def block(self, meta: Meta, children: list[Any]) -> list[ast.Field | ast.Example]:
        return list(children)

    def field(self, meta: Meta, children: list[Any]) -> ast.Field:
        name, value = children
        return ast.Field(str(name), value, self._s(meta))

    def example(self, meta: Meta, children: list[Any]) -> ast.Example:
        text, record = children
        return ast.Example(_unquote(text), record, self._s(meta))

    # ---- expressions
    def conditional(self, meta: Meta, children: list[Any]) -> ast.Conditional:
        cond, then, other = children
        return ast.Conditional(cond, then, other, self._s(meta))

    def or_(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        return ast.BinOp("or", children[0], children[1], self._s(meta))

    def and_(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        return ast.BinOp("and", children[0], children[1], self._s(meta))

    def not_(self, meta: Meta, children: list[Any]) -> ast.Not:
        return ast.Not(children[0], self._s(meta))

    def compare(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        left, op, right = children
        return ast.BinOp(str(op), left, right, self._s(meta))

    def member_of(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        return ast.BinOp("in", children[0], children[1], self._s(meta))

    def not_member_of(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        return ast.BinOp("notin", children[0], children[1], self._s(meta))

    def range(self, meta: Meta, children: list[Any]) -> ast.Range:
        return ast.Range(children[0], children[1], self._s(meta))

    def arith(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        left, op, right = children
        return ast.BinOp(str(op), left, right, self._s(meta))

    def negate(self, meta: Meta, children: list[Any]) -> ast.Negate:
        return ast.Negate(children[0], self._s(meta))

    def power(self, meta: Meta, children: list[Any]) -> ast.BinOp:
        return ast.BinOp("^", children[0], children[1], self._s(meta))

    def int_lit(self, meta: Meta, children: list[Any]) -> ast.Int:
        digits = str(children[0]).lstrip("0") or "0"
        if len(digits) > MAX_INT_DIGITS:
            if self.reporter is not None:
                self.reporter.error(
                    f"number is too large ({len(digits)} digits)",
                    _tok_span(self.file, children[0]),
                    f"numbers in a rulebook have at most {MAX_INT_DIGITS} digits",
                )
            return ast.Int(0, self._s(meta))
        return ast.Int(int(digits), self._s(meta))

    def str_lit(self, meta: Meta, children: list[Any]) -> ast.Str:
        return ast.Str(_unquote(children[0]), self._s(meta))

    def tiles_lit(self, meta: Meta, children: list[Any]) -> ast.Tiles:
        return ast.Tiles(str(children[0]), self._s(meta))

    def true_lit(self, meta: Meta, children: list[Any]) -> ast.Bool:
        return ast.Bool(True, self._s(meta))

    def false_lit(self, meta: Meta, children: list[Any]) -> ast.Bool:
        return ast.Bool(False, self._s(meta))

    def name(self, meta: Meta, children: list[Any]) -> ast.Name:
        return ast.Name(str(children[0]), self._s(meta))

    def call(self, meta: Meta, children: list[Any]) -> ast.Call:
        func, *args = children
        args = [a for a in args if a is not None]
        return ast.Call(str(func), tuple(args), self._s(meta), _tok_span(self.file, func))

    def quant_kind(self, meta: Meta, children: list[Any]) -> str:
        return str(children[0])

    def quantifier(self, meta: Meta, children: list[Any]) -> ast.Quantifier:
        kind, var, domain, body = children
        return ast.Quantifier(kind, str(var), domain, body, self._s(meta))

    def list_lit(self, meta: Meta, children: list[Any]) -> ast.ListLit:
        return ast.ListLit(tuple(c for c in children if c is not None), self._s(meta))

    def record(self, meta: Meta, children: list[Any]) -> ast.Record:
        return ast.Record(tuple(c for c in children if c is not None), self._s(meta))

    def entry(self, meta: Meta, children: list[Any]) -> ast.Entry:
        key, value = children
        return ast.Entry(str(key), value, self._s(meta))


def _replace_item(item: ast.Item, **changes: Any) -> ast.Item:
    from ruledsl.record import replace

    return replace(item, **changes)
