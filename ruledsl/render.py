"""Syntax tree back to rulebook text, so tools can rewrite a rulebook and a human can still read the result.

``parse(render(book)) == book`` for every rulebook the parser produces (spans and comments are not kept):
operators get the fewest parentheses the grammar's precedence allows, strings are re-escaped, and each item
is written as its kind, name and title, one field or example a line.
"""

from __future__ import annotations

from typing import assert_never

from ruledsl import ast

INDENT = "  "

# Binding strength of each expression form, loosest first, following grammar.lark: `if` only at the top of an
# expression, then or, and, not, comparisons (non-associative), ranges, + -, * /, unary minus, ^, atoms.
EXPR, OR, AND, NOT, COMPARE, RANGE, SUM, PRODUCT, UNARY, POWER, ATOM = range(11)

_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "notin"}
_OPERATOR_LEVEL = {"or": OR, "and": AND, "+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT, "^": POWER}
_SPELLING = {"notin": "not in"}


def render(rulebook: ast.Rulebook) -> str:
    """The rulebook as text: header, then each item separated by a blank line."""
    parts = [_header(rulebook)]
    parts.extend(f"clauses from {a.rulebook} = {quote(a.words)}" for a in rulebook.adoptions)
    parts.extend(render_item(item) for item in rulebook.items)
    return "\n\n".join(parts) + "\n"


def _header(rulebook: ast.Rulebook) -> str:
    line = f"rulebook {rulebook.name}"
    if rulebook.title is not None:
        line += f" {quote(rulebook.title)}"
    if rulebook.extends is not None:
        line += f" extends {rulebook.extends}"
    if rulebook.source is not None:
        line += f"\nsource {quote(rulebook.source)}"
    return line


def render_item(item: ast.Item) -> str:
    """One item with its decorators, e.g. ``@clause("...")`` then ``yaku name "Title" { ... }``."""
    lines = [f"@{d.name}({quote(d.value)})" for d in item.decorators]
    if item.action == "remove":
        lines.append(f"remove {item.kind} {item.name}")
        return "\n".join(lines)
    if item.action == "override":
        head = f"override {item.kind} {item.name}"
    elif item.action == "examples":
        head = f"examples for {item.kind} {item.name}"
    elif item.action == "exception":
        head = f"exception {item.name} to {item.target_kind} {item.target_name}"
    else:
        head = f"{item.kind} {item.name}"
    if item.title is not None and item.action not in ("override", "examples"):
        head += f" {quote(item.title)}"
    members = [f"{INDENT}{f.name} = {render_expr(f.value)}" for f in item.fields]
    members += [f"{INDENT}example {quote(e.text)} => {render_expr(e.expected)}" for e in item.examples]
    if members:
        lines.append(head + " {")
        lines.extend(members)
        lines.append("}")
    else:
        lines.append(head + " {}")
    return "\n".join(lines)


def quote(text: str) -> str:
    """A string literal the parser reads back as ``text``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def level(expr: ast.Expr) -> int:
    """How tightly an expression binds; a child looser than its slot needs parentheses."""
    match expr:
        case ast.Conditional():
            return EXPR
        case ast.BinOp(op=op):
            return COMPARE if op in _COMPARISONS else _OPERATOR_LEVEL[op]
        case ast.Not():
            return NOT
        case ast.Range():
            return RANGE
        case ast.Negate():
            return UNARY
    return ATOM


def render_expr(expr: ast.Expr, slot: int = EXPR) -> str:
    """The expression as text, parenthesised only when it binds more loosely than the ``slot`` it fills."""
    text = _expr(expr)
    return f"({text})" if level(expr) < slot else text


def _expr(expr: ast.Expr) -> str:
    match expr:
        case ast.Int(value=value):
            return str(value)
        case ast.Bool(value=value):
            return "true" if value else "false"
        case ast.Str(value=value):
            return quote(value)
        case ast.Tiles(text=text):
            return text
        case ast.Name(id=name):
            return name
        case ast.Call(func=func, args=args):
            return f"{func}({', '.join(render_expr(a) for a in args)})"
        case ast.Quantifier(kind=kind, var=var, domain=domain, body=body):
            return f"{kind}({var} in {render_expr(domain)}: {render_expr(body)})"
        case ast.ListLit(items=items):
            return f"[{', '.join(render_expr(i) for i in items)}]"
        case ast.Record(entries=entries):
            return "{" + ", ".join(f"{e.key}: {render_expr(e.value)}" for e in entries) + "}"
        case ast.Range(low=low, high=high):
            return f"{render_expr(low, SUM)}..{render_expr(high, SUM)}"
        case ast.Not(operand=operand):
            return f"not {render_expr(operand, NOT)}"
        case ast.Negate(operand=operand):
            inner = render_expr(operand, UNARY)
            # `- -1` rather than `--1`: both lex the same, the space is for the reader
            return f"- {inner}" if inner.startswith("-") else f"-{inner}"
        case ast.Conditional(condition=c, then=t, otherwise=o):
            return f"if {render_expr(c)} then {render_expr(t)} else {render_expr(o)}"
        case ast.BinOp(op=op, left=left, right=right):
            spelled = _SPELLING.get(op, op)
            if op in _COMPARISONS:
                return f"{render_expr(left, RANGE)} {spelled} {render_expr(right, RANGE)}"
            if op == "^":
                return f"{render_expr(left, ATOM)} ^ {render_expr(right, UNARY)}"
            mine = _OPERATOR_LEVEL[op]
            if op == "or":  # `(a and b) or c`: correct without, but a reader should not need the precedence table
                return f"{_grouped(left, mine)} {spelled} {_grouped(right, mine + 1)}"
            # left-associative: the left child may sit at the same level, the right one must bind tighter
            return f"{render_expr(left, mine)} {spelled} {render_expr(right, mine + 1)}"
    assert_never(expr)


def _grouped(expr: ast.Expr, slot: int) -> str:
    """An operand of ``or``: an ``and`` inside it keeps its parentheses, as an author writes them."""
    if isinstance(expr, ast.BinOp) and expr.op == "and":
        return f"({_expr(expr)})"
    return render_expr(expr, slot)


__all__ = ["render", "render_item", "render_expr", "quote", "level"]
