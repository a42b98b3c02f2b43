"""A hand-written parser for well-formed rulebooks: the same syntax tree as the lark parser, about ten times sooner.

``grammar.lark`` stays the one definition of the language. This module reads only text that the grammar accepts
and would read the same way, and builds exactly the tree ``lark_parser`` builds from it (every node, every span:
lark's rule that a node spans its first child's *container* to its last's, brackets included, is kept). Whatever
it is not sure of, it gives up on (``None``) and ``ruledsl.parser`` hands the text to lark, which then finds the
mistake and words every diagnostic as before: a syntax error, a name spelled like a keyword (lark's contextual
lexer decides those by parser state), a number too long, a field in an ``examples`` block, a tree nested deeper
than ``MAX_DEPTH``. It is used only while ``grammar.lark`` is the text it was written for (``GRAMMAR_SHA256``); a
test parses every bundled rulebook and thousands of generated files both ways and compares the trees, spans
included.
"""

from __future__ import annotations

import os
import re
from itertools import compress, count, repeat
from operator import itemgetter
from typing import Any

from ruledsl import ast
from ruledsl.record import maker

# The sha256 of the grammar this parser follows; after editing ``grammar.lark``, update the parser and this value
# (``tests/ruledsl/test_fast_parser.py`` fails until both agree; until then every text goes to lark).
GRAMMAR_SHA256 = "685b224791f4105033552be19c488d5974792f2bd1eef85204c03d40c4c9e508"

# The grammar's terminals, one line at a time (no token spans lines; a comment is ignored too), each match giving
# the blanks of the grammar's ignored WS before a token, the token, or any other character (the text goes to lark).
# The alternatives are tried in order: words first, then symbols (the commonest tokens; no other terminal starts
# with a letter or a symbol), TILES before INT (TILES has priority 2 in lark's order of preference, and both start
# with a digit), strings, comments. Every character of a line but its trailing blanks is in one match.
# The leading look-behind: no match starts inside a run of blanks. Every match ends on a token's last character or at
# the line's end, so a match never starts after a blank except where blanks run to the end of the line and none
# can; without it, ``findall`` tried each blank of such a run in turn, each trying the whole run again (quadratic:
# a line of 20,000 spaces took 29 s).
_LEXEME = re.compile(
    r'(?<![ \t\f\r])([ \t\f\r]*)(?:([A-Za-z_][A-Za-z0-9_]*|==|!=|<=|>=|=>|\.\.|[<>=+\-*/^@(){}\[\],:]'
    r'|(?:[0-9]+[mpsz])+(?![A-Za-z0-9_])|[0-9]+(?![A-Za-z0-9_])|"(?:[^"\\\n]|\\.)*"|#[^\n]*)|([^ \t\f\r]))'
)
# A token's kind by its first character: a word ``N``, a string ``S``, a number ``0`` (TILES ``T`` when it ends
# in a suit's letter, else INT ``I``), a comment ``#``; a symbol (not in the table) is its own kind.
_KIND_OF_FIRST = dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", "N")
_KIND_OF_FIRST |= dict.fromkeys("0123456789", "0") | {'"': "S", "#": "#"}
_KEYWORDS = frozenset(
    "rulebook extends source override remove exception to examples for clauses from example if then else or and "
    "not in true false any all count sum max min".split()
)
# Where lark's parser accepts only a name, every word is one; elsewhere a word is a keyword when the parser's state
# would accept that keyword. These are the keywords a state can accept where this parser reads a name:
_AFTER_EXPRESSION = frozenset(("then", "else", "and", "or", "in", "not", "example"))  # a field's name
_AT_ITEM = frozenset(("override", "remove", "exception", "examples", "clauses", "extends", "source"))  # a kind
_ANY_WORD: frozenset[str] = frozenset()  # after `rulebook`, `@`, `from`, a kind, `to`, `for`, `{`, `,`, `any(` ...
_QUANTIFIERS = frozenset(("any", "all", "count", "sum", "max", "min"))
# Binary operators by how tightly they bind (``_Parser.expr``); words are keys too, since a word's kind is ``N``.
_INFIX = {"or": 1, "and": 2, "==": 3, "!=": 3, "<=": 3, ">=": 3, "<": 3, ">": 3, "in": 3, "not": 3, "..": 4}
_INFIX |= {"+": 5, "-": 5, "*": 6, "/": 6, "^": 7}
_SINGLE = frozenset((3, 4))  # comparisons and ranges do not chain: `a < b < c` is not in the language
_ITEM_STARTS = frozenset(("override", "remove", "exception", "examples"))
MAX_DEPTH = 100  # ruledsl.parser.MAX_DEPTH (not imported: that module imports this one)
MAX_INT_DIGITS = 18
_FIELD_LEVEL = 5  # depth of a field or example in lark's tree: start, item, define, block, field

# Positional constructors (``ruledsl.record.maker``): every field given, in order.
_Span = ast.make_span  # one tuple of (file, line, column, end line, end column)
_Int = maker(ast.Int)
_Bool = maker(ast.Bool)
_Str = maker(ast.Str)
_Tiles = maker(ast.Tiles)
_Name = maker(ast.Name)
_Call = maker(ast.Call)
_Quant = maker(ast.Quantifier)
_List = maker(ast.ListLit)
_Entry = maker(ast.Entry)
_Record = maker(ast.Record)
_Range = maker(ast.Range)
_BinOp = maker(ast.BinOp)
_Not = maker(ast.Not)
_Negate = maker(ast.Negate)
_Cond = maker(ast.Conditional)
_Field = maker(ast.Field)
_Example = maker(ast.Example)
_Decorator = maker(ast.Decorator)
_Item = maker(ast.Item)
_Adoption = maker(ast.Adoption)
_Rulebook = maker(ast.Rulebook)


class _GiveUp(Exception):
    """Raised anywhere below: the text goes to lark."""


class TooDeep(Exception):
    """The text is well formed, but a field's value or an example's record is nested deeper than ``MAX_DEPTH``:
    what lark's reader would report, and where, without a second parse of the whole file by lark (for a long chain
    of operators, some ten times the fast parser's time). The place is the last such field or example of the file:
    lark's depth check walks its tree last child first, so that is the one it meets first and reports."""

    def __init__(self, line: int, column: int, field: str | None) -> None:
        super().__init__(line, column, field)
        self.line = line
        self.column = column
        self.field = field  # the field's name, or None for an example


def unquote(raw_token: str) -> str:
    """A STRING token's text without its quotes, ``\\n`` and ``\\t`` decoded and any other escaped character kept."""
    raw = raw_token[1:-1]
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def grammar_matches(grammar: str) -> bool:
    """Whether ``grammar`` is the text this parser follows."""
    from ruledsl.parsed_cache import text_sha256

    return text_sha256(grammar) == GRAMMAR_SHA256


def _tokens(text: str) -> list[tuple[str, str, int, int]]:
    """(kind, text, line, column) of every token; kind is ``N`` (a word), ``S``, ``I``, ``T`` or the symbol.

    A line's tokens depend on its text alone, and a rulebook writes many lines again (``}``, ``han = 1``, a
    condition shared by several items): a line seen before has its tokens made by one C-level ``zip`` of the
    kinds, texts and columns found the first time with its own number (taken apart from the tokens at the line's
    second sight, so that a file of distinct lines pays for no more than remembering where each was read).
    ``_tokens_reference`` reads every line afresh; a test holds the two equal."""
    out: list[tuple[str, str, int, int]] = []
    append = out.append
    extend = out.extend
    first: dict[str, tuple[int, int]] = {}  # where a line seen once put its tokens in ``out``
    again: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]] = {}  # kinds, texts, columns
    number = 0
    for number, line in enumerate(text.split("\n"), 1):
        if not line:  # no token (nor do blanks alone make one)
            continue
        known = again.get(line)
        if known is None:
            at = first.get(line)
            if at is None:
                start = len(out)
                _line_tokens(line, number, append)
                first[line] = (start, len(out))
                continue
            kinds, texts, _, columns = zip(*out[at[0] : at[1]], strict=True) if at[0] < at[1] else ((), (), (), ())
            known = again[line] = (kinds, texts, columns)
        extend(zip(known[0], known[1], repeat(number), known[2]))
    out.append(("$", "", number, 0))
    return out


def _tokens_reference(text: str) -> list[tuple[str, str, int, int]]:
    """``_tokens`` reading every line afresh, token by token: what the shortcut is held equal to."""
    out: list[tuple[str, str, int, int]] = []
    number = 0
    for number, line in enumerate(text.split("\n"), 1):
        _line_tokens(line, number, out.append)
    out.append(("$", "", number, 0))
    return out


def _line_tokens(
    line: str, number: int, append: Any, kind_of: dict[str, str] = _KIND_OF_FIRST, findall: Any = _LEXEME.findall
) -> None:
    """Append the tokens of ``line`` (line ``number``), or raise ``_GiveUp`` at a character no token starts with."""
    column = 1
    for blanks, token, other in findall(line):
        if other:
            raise _GiveUp
        column += len(blanks)
        kind = kind_of.get(token[0], token)
        if kind == "0":
            kind = "T" if token[-1] in "mpsz" else "I"
        elif kind == "#":
            break  # a comment runs to the end of its line
        append((kind, token, number, column))
        column += len(token)


# Every expression parser returns (node, depth in lark's tree, container: start line, column, end line, column).
_Parsed = tuple[Any, int, int, int, int, int]


class _Parser:
    def __init__(self, text: str, file: str) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.file = file
        self.too_deep: TooDeep | None = None  # the last field or example nested too deep, read on to the end

    def checked(self) -> ast.Rulebook:
        """The whole text's tree; raises ``TooDeep`` when it holds a part nested too deep (only once every other
        part has been read: a mistake anywhere else is lark's to report, and gives up first)."""
        tree = self.rulebook()
        if self.too_deep is not None:
            raise self.too_deep
        return tree

    # ---- tokens
    def peek(self) -> tuple[str, str, int, int]:
        return self.toks[self.i]

    def take(self, kind: str) -> tuple[str, str, int, int]:
        tok = self.toks[self.i]
        if tok[0] != kind:
            raise _GiveUp
        self.i += 1
        return tok

    def word(self, keyword: str) -> tuple[str, str, int, int]:
        tok = self.toks[self.i]
        if tok[0] != "N" or tok[1] != keyword:
            raise _GiveUp
        self.i += 1
        return tok

    def name(self, reserved: frozenset[str] = _ANY_WORD) -> tuple[str, str, int, int]:
        """A NAME token: a word, unless it is one of the keywords the parser's state accepts here (``reserved``:
        lark's contextual lexer reads such a word as the keyword)."""
        tok = self.toks[self.i]
        if tok[0] != "N" or tok[1] in reserved:
            raise _GiveUp
        self.i += 1
        return tok

    def at_word(self, keyword: str) -> bool:
        tok = self.toks[self.i]
        return tok[0] == "N" and tok[1] == keyword

    def tok_span(self, tok: tuple[str, str, int, int]) -> ast.Span:
        return _Span((self.file, tok[2], tok[3], tok[2], tok[3] + len(tok[1])))

    def span(self, first: tuple[str, str, int, int], last: tuple[str, str, int, int]) -> ast.Span:
        return _Span((self.file, first[2], first[3], last[2], last[3] + len(last[1])))

    # ---- file structure
    def rulebook(self) -> ast.Rulebook:
        first = self.word("rulebook")
        name = self.name()
        last = name
        title = extends = source = None
        extends_span = ast.NO_SPAN
        if self.peek()[0] == "S":
            last = self.take("S")
            title = unquote(last[1])
        if self.at_word("extends"):
            self.i += 1
            last = self.name()
            extends, extends_span = last[1], self.tok_span(last)
        if self.at_word("source"):
            self.i += 1
            last = self.take("S")
            source = unquote(last[1])
        items: list[ast.Item] = []
        adoptions: list[ast.Adoption] = []
        end = (last[2], last[3] + len(last[1]))
        while self.peek()[0] != "$":
            if self.at_word("clauses"):
                adoption = self.adoption()
                adoptions.append(adoption)
                end = (adoption.span.end_line, adoption.span.end_column)
            else:
                item = self.item()
                items.append(item)
                end = (item.span.end_line, item.span.end_column)
        span = _Span((self.file, first[2], first[3], end[0], end[1]))
        return _Rulebook(name[1], title, extends, source, tuple(items), span, self.tok_span(name), extends_span, self.file, tuple(adoptions))

    def adoption(self) -> ast.Adoption:
        first = self.word("clauses")
        self.word("from")
        name = self.name()
        self.take("=")
        words = self.take("S")
        return _Adoption(name[1], unquote(words[1]), self.span(first, words), self.tok_span(name))

    def item(self) -> ast.Item:
        first = self.peek()
        decorators: list[ast.Decorator] = []
        while self.peek()[0] == "@":
            at = self.take("@")
            name = self.name()
            self.take("(")
            value = self.take("S")
            close = self.take(")")
            decorators.append(_Decorator(name[1], unquote(value[1]), self.span(at, close)))
        head = self.peek()
        if head[0] != "N":
            raise _GiveUp
        action = head[1] if head[1] in _ITEM_STARTS else "define"
        if action != "define":
            self.i += 1
        title = None
        target_kind = target_name = None
        target_span = ast.NO_SPAN
        if action == "exception":
            kind_tok = None
            name = self.name()
            self.word("to")
            target = self.name()
            target_last = self.name()
            target_kind, target_name = target[1], target_last[1]
            target_span = self.span(target, target_last)
        else:
            if action == "examples":
                self.word("for")
            kind_tok = self.name(_AT_ITEM if action == "define" else _ANY_WORD)
            name = self.name()
        if action in ("define", "exception") and self.peek()[0] == "S":
            title = unquote(self.take("S")[1])
        fields: tuple[ast.Field, ...] = ()
        examples: tuple[ast.Example, ...] = ()
        if action == "remove":
            end = (name[2], name[3] + len(name[1]))
        else:
            fields, examples, close = self.block()
            if action == "examples" and fields:
                raise _GiveUp  # lark's reader reports the field
            end = (close[2], close[3] + 1)
        return _Item(
            action,
            kind_tok[1] if kind_tok is not None else "exception",
            name[1],
            title,
            fields,
            examples,
            tuple(decorators),
            target_kind,
            target_name,
            _Span((self.file, first[2], first[3], end[0], end[1])),
            self.tok_span(kind_tok) if kind_tok is not None else ast.NO_SPAN,
            self.tok_span(name),
            target_span,
        )

    def block(self) -> tuple[tuple[ast.Field, ...], tuple[ast.Example, ...], tuple[str, str, int, int]]:
        self.take("{")
        fields: list[ast.Field] = []
        examples: list[ast.Example] = []
        while True:
            tok = self.peek()
            if tok[0] == "}":
                self.i += 1
                return tuple(fields), tuple(examples), tok
            if tok[0] == "N" and tok[1] == "example":
                self.i += 1
                text = self.take("S")
                self.take("=>")
                record, depth, _, _, end_line, end_col = self.record()
                if _FIELD_LEVEL + depth > MAX_DEPTH:
                    self.too_deep = TooDeep(tok[2], tok[3], None)
                examples.append(_Example(unquote(text[1]), record, _Span((self.file, tok[2], tok[3], end_line, end_col))))
                continue
            if tok[0] != "N" or tok[1] in _AFTER_EXPRESSION:  # a field's name (``name``), then `=`
                raise _GiveUp
            if self.toks[self.i + 1][0] != "=":  # a token follows a word: at least the end's
                raise _GiveUp
            self.i += 2
            name = tok
            value, depth, _, _, end_line, end_col = self.expr()
            if _FIELD_LEVEL + depth > MAX_DEPTH:
                self.too_deep = TooDeep(name[2], name[3], name[1])
            fields.append(_Field(name[1], value, _Span((self.file, name[2], name[3], end_line, end_col))))

    # ---- expressions
    # One loop for every binary operator (precedence climbing) instead of a function per level of the grammar:
    # ``expr(floor)`` reads an operand, then every operator that binds tighter than ``floor`` and may follow what
    # has been read so far. The levels, loosest first: or 1, and 2, comparisons and `in` 3 (at most one: they do
    # not chain), `..` 4 (at most one), + - 5, * / 6, ^ 7 (right to left, after an operand alone). ``floor`` is
    # the grammar's rule being read: 0 an expression (`if` allowed), 1 after `or`, 2 after `and` or `not` (`not`
    # allowed up to here), 3 a comparison's side, 4 a range's end, 5 after + or -, 6 after * / or `-`, or `^`.
    def expr(self, floor: int = 0) -> _Parsed:
        toks = self.toks
        tok = toks[self.i]
        kind = tok[0]
        if kind == "N":
            word = tok[1]
            if word not in _KEYWORDS:
                self.i += 1
                line, col = tok[2], tok[3]
                if toks[self.i][0] == "(":
                    left = self.call(tok)
                else:
                    end = col + len(word)
                    left = _Name(word, _Span((self.file, line, col, line, end))), 1, line, col, line, end
                ceiling = 8
            elif word == "not":
                if floor > 2:
                    raise _GiveUp
                self.i += 1
                operand, depth, _, _, el, ec = self.expr(2)
                left = _Not(operand, _Span((self.file, tok[2], tok[3], el, ec))), depth + 1, tok[2], tok[3], el, ec
                ceiling = 2
            elif word == "if":
                if floor:
                    raise _GiveUp
                return self.conditional(tok)
            else:
                left = self.keyword_atom(tok)
                ceiling = 8
        elif kind == "-":
            self.i += 1
            operand, depth, _, _, el, ec = self.expr(6)
            left = _Negate(operand, _Span((self.file, tok[2], tok[3], el, ec))), depth + 1, tok[2], tok[3], el, ec
            ceiling = 6
        else:
            left = self.atom(tok)
            ceiling = 8
        while True:
            tok = toks[self.i]
            kind = tok[0]
            level = _INFIX.get(tok[1]) if kind == "N" else _INFIX.get(kind)
            # an operator binding looser than the rule being read ends it; one binding tighter than the operator
            # before it (or as tight, for those that do not chain) was refused by that operator's right side
            if level is None or level <= floor or level > ceiling or (level == ceiling and level in _SINGLE):
                return left
            self.i += 1
            if level == 7:
                right = self.expr(6)
            elif level == 4:
                high = self.expr(4)
                sl, sc, el, ec = left[2], left[3], high[4], high[5]
                left = _Range(left[0], high[0], _Span((self.file, sl, sc, el, ec))), 1 + max(left[1], high[1]), sl, sc, el, ec
                ceiling = 4
                continue
            else:
                if kind == "N" and tok[1] == "not":
                    self.word("in")
                    kind = "notin"
                elif kind == "N":
                    kind = tok[1]
                right = self.expr(level)
            sl, sc, el, ec = left[2], left[3], right[4], right[5]
            depth = left[1] if left[1] > right[1] else right[1]
            left = _BinOp(kind, left[0], right[0], _Span((self.file, sl, sc, el, ec))), depth + 1, sl, sc, el, ec
            ceiling = level

    def conditional(self, tok: tuple[str, str, int, int]) -> _Parsed:
        self.i += 1
        cond, d1 = self.expr()[:2]
        self.word("then")
        then, d2 = self.expr()[:2]
        self.word("else")
        other, d3, _, _, el, ec = self.expr()
        span = _Span((self.file, tok[2], tok[3], el, ec))
        return _Cond(cond, then, other, span), 1 + max(d1, d2, d3), tok[2], tok[3], el, ec

    def atom(self, tok: tuple[str, str, int, int]) -> _Parsed:
        """An operand other than a name, a call or a word of the language: a literal, a bracketed expression, a
        list or a record."""
        kind = tok[0]
        line, col = tok[2], tok[3]
        end = col + len(tok[1])
        self.i += 1
        if kind == "I":
            digits = tok[1].lstrip("0") or "0"
            if len(digits) > MAX_INT_DIGITS:
                raise _GiveUp  # lark's reader reports it
            return _Int(int(digits), _Span((self.file, line, col, line, end))), 1, line, col, line, end
        if kind == "S":
            return _Str(unquote(tok[1]), _Span((self.file, line, col, line, end))), 1, line, col, line, end
        if kind == "T":
            return _Tiles(tok[1], _Span((self.file, line, col, line, end))), 1, line, col, line, end
        if kind == "(":
            inner = self.expr()
            close = self.take(")")
            return inner[0], inner[1], line, col, close[2], close[3] + 1
        if kind == "[":
            return self.list_lit(tok)
        if kind == "{":
            self.i -= 1
            return self.record()
        raise _GiveUp

    def keyword_atom(self, tok: tuple[str, str, int, int]) -> _Parsed:
        word, line, col = tok[1], tok[2], tok[3]
        self.i += 1
        if word == "true" or word == "false":
            end = col + len(word)
            return _Bool(word == "true", _Span((self.file, line, col, line, end))), 1, line, col, line, end
        if word not in _QUANTIFIERS:
            raise _GiveUp
        toks = self.toks
        i = self.i
        if toks[i][0] != "(":  # then a token follows each read below, the last being the end's
            raise _GiveUp
        var = toks[i + 1]
        if var[0] != "N":
            raise _GiveUp
        keyword = toks[i + 2]
        if keyword[0] != "N" or keyword[1] != "in":
            raise _GiveUp
        self.i = i + 3
        domain, d1 = self.expr()[:2]
        if toks[self.i][0] != ":":
            raise _GiveUp
        self.i += 1
        body, d2 = self.expr()[:2]
        close = toks[self.i]
        if close[0] != ")":
            raise _GiveUp
        self.i += 1
        el, ec = close[2], close[3] + 1
        return _Quant(word, var[1], domain, body, _Span((self.file, line, col, el, ec))), 1 + max(1, d1, d2), line, col, el, ec

    def call(self, func: tuple[str, str, int, int]) -> _Parsed:
        """A call: ``func`` and the ``(`` after it (seen by ``expr``), its arguments, the ``)``."""
        toks = self.toks
        self.i += 1
        args: list[Any] = []
        depth = 0
        if toks[self.i][0] != ")":
            while True:
                arg = self.expr()
                args.append(arg[0])
                if arg[1] > depth:
                    depth = arg[1]
                if toks[self.i][0] != ",":
                    break
                self.i += 1
        close = toks[self.i]
        if close[0] != ")":
            raise _GiveUp
        self.i += 1
        line, col, el, ec = func[2], func[3], close[2], close[3] + 1
        file = self.file
        node = _Call(func[1], tuple(args), _Span((file, line, col, el, ec)), _Span((file, line, col, line, col + len(func[1]))))
        return node, depth + 1, line, col, el, ec

    def list_lit(self, open_tok: tuple[str, str, int, int]) -> _Parsed:
        items: list[Any] = []
        depth = 0
        while self.toks[self.i][0] != "]":
            item = self.expr()
            items.append(item[0])
            depth = max(depth, item[1])
            if self.toks[self.i][0] != ",":
                break
            self.i += 1
        close = self.take("]")
        line, col, el, ec = open_tok[2], open_tok[3], close[2], close[3] + 1
        return _List(tuple(items), _Span((self.file, line, col, el, ec))), depth + 1, line, col, el, ec

    def record(self) -> _Parsed:
        open_tok = self.take("{")
        entries: list[ast.Entry] = []
        depth = 0
        while self.toks[self.i][0] != "}":
            key = self.name()
            self.take(":")
            value, d, _, _, el, ec = self.expr()
            entries.append(_Entry(key[1], value, _Span((self.file, key[2], key[3], el, ec))))
            depth = max(depth, d + 1)
            if self.toks[self.i][0] != ",":
                break
            self.i += 1
        close = self.take("}")
        line, col, el, ec = open_tok[2], open_tok[3], close[2], close[3] + 1
        return _Record(tuple(entries), _Span((self.file, line, col, el, ec))), depth + 1, line, col, el, ec


def parse(text: str, file: str) -> ast.Rulebook | None:
    """The tree of ``text`` (normalised, and past ``ruledsl.parser``'s size checks), or None when lark must read it;
    raises ``TooDeep`` when lark would read it and report a part nested too deep."""
    try:
        parser = _Parser(text, file)
        return parser.checked()
    except (_GiveUp, RecursionError):
        return None


def parse_bounded(text: str, file: str, max_items: int, max_item_tokens: int, max_nesting: int) -> tuple[ast.Rulebook | None, bool | None]:
    """``parse`` of a text certainly within ``ruledsl.parser``'s size bounds (items, tokens per item, bracket
    nesting), told from the tokens before any tree is built instead of a second pass over the text; and whether it
    is: False when that cannot be told (no tree is built: the caller checks the bounds as before), None when the
    tokens cannot be read (the text goes to lark). Raises ``TooDeep`` as ``parse`` does, the bounds holding."""
    try:
        parser = _Parser(text, file)
    except _GiveUp:
        return None, None
    if not _within_bounds(parser.toks, max_items, max_item_tokens, max_nesting):
        return None, False
    try:
        return parser.checked(), True
    except (_GiveUp, RecursionError):
        return None, True


def _within_bounds(toks: list[tuple[str, str, int, int]], max_items: int, max_item_tokens: int, max_nesting: int) -> bool:
    """Whether ``ruledsl.parser._check_nesting`` certainly finds nothing in the text of these tokens. Brackets are
    the same tokens there (strings and comments hold none), so items (a ``{`` at depth 0) and nesting are counted
    exactly. Tokens per item are bounded: that pass counts every token from an item's ``{`` to the next item's
    (decorators between them included) and a two-character symbol such as ``==`` as two, so at most twice the
    tokens here; an item past half the bound is left to it.

    The kinds are read as one string (a kind is a character or two), the brackets' alone at C speed
    (``str.translate``), so the loop is a character's test per bracket; the items' ``{`` are then found in the
    string, where an item spans at least as many characters as tokens. An item that may be past half the bound
    by that count is measured in tokens by ``_within_bounds_reference``, one bracket token at a time, which a test
    holds equal to this."""
    kinds = "".join(map(_KIND, toks))
    depth = braces = 0
    items: list[int] = []  # each item's `{`, counted among the `{` of the file
    for kind in kinds.translate(_ONLY_BRACKETS):  # no kind but a bracket's holds a bracket character
        if kind in "([{":
            if kind == "{":
                if not depth:
                    items.append(braces)
                braces += 1
            depth += 1
            if depth > max_nesting:
                return False
        elif depth:  # a stray closing bracket leaves the depth at 0, as the pass counts it
            depth -= 1
    if len(items) > max_items:
        return False
    start = at = -1
    brace = -1
    for item in items:
        while brace < item:  # the next `{` of the kinds, up to this item's
            at = kinds.find("{", at + 1)
            brace += 1
        if start >= 0 and 2 * (at - start) > max_item_tokens:
            return _within_bounds_reference(toks, max_items, max_item_tokens, max_nesting)
        start = at
    if start >= 0 and 2 * (len(kinds) - start) > max_item_tokens:
        return _within_bounds_reference(toks, max_items, max_item_tokens, max_nesting)
    return True


def _within_bounds_reference(toks: list[tuple[str, str, int, int]], max_items: int, max_item_tokens: int, max_nesting: int) -> bool:
    """``_within_bounds`` one bracket at a time, the depth clamped at 0 as ``ruledsl.parser._check_nesting`` clamps
    it: what the running sum is held equal to, and what reads a text with a stray closing bracket."""
    depth = items = 0
    start = -1
    kinds = list(map(_KIND, toks))
    for index in compress(count(), map(_BRACKETS.__contains__, kinds)):  # the brackets' places, found at C speed
        kind = kinds[index]
        if kind in _OPENING:
            depth += 1
            if depth == 1 and kind == "{":
                items += 1
                if items > max_items or (start >= 0 and 2 * (index - start) > max_item_tokens):
                    return False
                start = index
            if depth > max_nesting:
                return False
        else:
            depth = max(0, depth - 1)
    return start < 0 or 2 * (len(toks) - start) <= max_item_tokens


_BRACKETS = frozenset("([{)]}")
_KIND = itemgetter(0)
_OPENING = frozenset("([{")
# every other character of a kind dropped (kinds are ASCII: a word's, a string's, a number's letter or a symbol)
_ONLY_BRACKETS = str.maketrans("", "", "".join(chr(c) for c in range(128) if chr(c) not in _BRACKETS))


def enabled() -> bool:
    """False when ``RIICHI_LARK_ONLY`` is set (every text goes to lark: how the tests compare the two)."""
    return not os.environ.get("RIICHI_LARK_ONLY")


__all__ = ["GRAMMAR_SHA256", "grammar_matches", "parse", "parse_bounded", "unquote", "enabled"]
