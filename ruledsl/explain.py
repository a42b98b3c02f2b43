"""A rulebook in plain English: what each item is worth, when it applies, which clause it encodes, and which
file of the ``extends`` chain wrote or changed it.

Conditions are rendered from the syntax tree with the vocabulary's meanings, e.g. ``all(t in tiles:
is_simple(t))`` reads "every tile t of the hand is a number tile 2 to 8". The English is a faithful reading
aid, not a second source of truth: the clause and the rule text remain the authority.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.clause_origin import clause_for_players
from ruledsl.diagnostics import did_you_mean
from ruledsl.render import render_expr
from ruledsl.resolve import Removal, ResolvedItem, ResolvedRulebook
from ruledsl.tiles import HONOR_NAMES

# ---- expressions -------------------------------------------------------------------------------------------------

# Predicates of the vocabulary's functions as (positive, negative) sentences; ``{0}``, ``{1}`` are the arguments.
# A function missing here is read from its meaning in the vocabulary (see ``_fallback_call``).
_PREDICATES: dict[str, tuple[str, str]] = {
    "is_sequence": ("{0} is a sequence", "{0} is not a sequence"),
    "is_triplet": ("{0} is a triplet or kan", "{0} is not a triplet or kan"),
    "is_kan": ("{0} is a kan", "{0} is not a kan"),
    "is_pair": ("{0} is a pair", "{0} is not a pair"),
    "is_called": ("{0} was called (chi, pon or open kan)", "{0} was not called"),
    "is_concealed": ("{0} is concealed (no tile of it came from another player)", "{0} is not concealed"),
    "is_simple": ("{0} is a number tile 2 to 8", "{0} is not a number tile 2 to 8"),
    "is_terminal": ("{0} is a terminal (1 or 9)", "{0} is not a terminal"),
    "is_honor": ("{0} is an honour", "{0} is not an honour"),
    "is_yaochuu": ("{0} is a terminal or honour", "{0} is not a terminal or honour"),
    "is_wind": ("{0} is a wind", "{0} is not a wind"),
    "is_dragon": ("{0} is a dragon", "{0} is not a dragon"),
    "is_value": (
        "{0} is a value tile (a dragon, the seat wind or the round wind)",
        "{0} is not a value tile (a dragon, the seat wind or the round wind)",
    ),
    "has_yaochuu": ("{0} holds a terminal or honour", "{0} holds no terminal or honour"),
    "has_terminal": ("{0} holds a terminal", "{0} holds no terminal"),
    "contains": ("{0} holds {1}", "{0} does not hold {1}"),
    "has_sequence": (
        "the hand has the sequence of suit {0} starting at {1}",
        "the hand does not have the sequence of suit {0} starting at {1}",
    ),
    "has_triplet": ("the hand has a triplet or kan of {0}", "the hand has no triplet or kan of {0}"),
    "has_yaku": ("`{0}` was scored", "`{0}` was not scored"),
}
_NOUNS: dict[str, str] = {
    "suit": "the suit of {0}",
    "number": "the number of {0}",
    "tile": "the tile of {0}",
    "tile_of": "the tile of suit {0} numbered {1}",
    "round_up": "{0} rounded up to a multiple of {1}",
    "size": "the number of elements of {0}",
    "value_roles": "the number of value roles of {0} (dragon, seat wind, round wind)",
    "count_of": "the number of copies of {0} in the hand",
}
# How a loop over a list fact names one element: (singular, plural); ``{v}`` is the loop variable.
_ELEMENTS: dict[str, tuple[str, str]] = {
    "tiles": ("tile {v} of the hand", "tiles {v} of the hand"),
    "sets": ("set {v} of the hand", "sets {v} of the hand"),
    "pairs": ("pair {v} of the hand", "pairs {v} of the hand"),
    "groups": ("group {v} of the hand (sets and pair)", "groups {v} of the hand (sets and pair)"),
}
_COMPARE = {
    "==": ("is", "is not"),
    "!=": ("is not", "is"),
    ">=": ("is at least", "is less than"),
    "<=": ("is at most", "is more than"),
    ">": ("is more than", "is at most"),
    "<": ("is less than", "is at least"),
}
_ARITHMETIC = {"+": "+", "-": "−", "*": "×", "/": "÷", "^": "^"}


def _clip(meaning: str) -> str:
    """A meaning shortened to a noun phrase: up to its first colon or parenthesis."""
    text = re.split(r":| \(|; ", meaning, maxsplit=1)[0].strip()
    for prefix in ("how many of ", "how many "):
        if text.startswith(prefix):
            return "the number of " + text[len(prefix) :]
    return text


def _negate_sentence(sentence: str) -> str:
    """A fact's meaning negated: "the winner is the dealer" -> "the winner is not the dealer"."""
    if sentence.startswith("every "):
        return "not " + sentence
    if sentence.startswith("no "):
        return "some " + sentence[3:]
    match = re.match(r"^(\S+(?: \S+){0,3}?) (is|was|had|has|are|were) (?!not )", sentence)
    if match:
        return f"{sentence[: match.end(2)]} not {sentence[match.end() :]}"
    return f"it is not true that {sentence}"


class English:
    """Reads expressions aloud. ``condition`` gives a clause, ``noun`` a value; loop variables stay as names."""

    def condition(self, expr: ast.Expr, negated: bool = False) -> str:
        match expr:
            case ast.Bool(value=value):
                return "always" if value != negated else "never"
            case ast.Name(id=name):
                fact = V.FACTS.get(name)
                if fact is not None and fact.type == V.BOOL:
                    return _negate_sentence(fact.meaning) if negated else fact.meaning
                return f"`{name}` is false" if negated else f"`{name}` is true"
            case ast.Not(operand=operand):
                return self.condition(operand, not negated)
            case ast.BinOp(op="and" | "or" as op):
                # De Morgan, so that "not (a and b)" reads "not a or not b"
                joined = {"and": "and", "or": "or"}[op] if not negated else {"and": "or", "or": "and"}[op]
                parts = [self._operand(p, negated) for p in _flatten(expr, op)]
                return _join(parts, joined)
            case ast.BinOp(op=op, left=left, right=right) if op in _COMPARE:
                verb = _COMPARE[op][1 if negated else 0]
                return f"{self.noun(left)} {verb} {self.noun(right)}"
            case ast.BinOp(op="in" | "notin" as op, left=left, right=right):
                inside = (op == "in") != negated
                return f"{self.noun(left)} {'is' if inside else 'is not'} {self._one_of(right)}"
            case ast.Call(func=func, args=args):
                return self._call(func, args, negated)
            case ast.Quantifier(kind="any" | "all" as kind, var=var, domain=domain, body=body):
                return self._quantified(kind, var, domain, body, negated)
            case ast.Conditional(condition=c, then=t, otherwise=o):
                return f"{self.condition(t, negated)} if {self.condition(c)}, otherwise {self.condition(o, negated)}"
        text = self.noun(expr)
        return f"it is not true that {text}" if negated else text

    def _operand(self, expr: ast.Expr, negated: bool) -> str:
        text = self.condition(expr, negated)
        nested = isinstance(expr, ast.BinOp) and expr.op in ("and", "or")
        if nested or (isinstance(expr, ast.Not) and isinstance(expr.operand, ast.BinOp) and expr.operand.op in ("and", "or")):
            return f"({text})"
        return text

    def _call(self, func: str, args: tuple[ast.Expr, ...], negated: bool) -> str:
        fn = V.FUNCTIONS.get(func)
        template = _PREDICATES.get(func)
        if fn is not None and template is not None and len(args) == len(fn.params):
            words = [a.id if func == "has_yaku" and isinstance(a, ast.Name) else self.noun(a) for a in args]
            return template[1 if negated else 0].format(*words)
        text = self._fallback_call(func, args)
        return f"it is not true that {text}" if negated else text

    def _fallback_call(self, func: str, args: tuple[ast.Expr, ...]) -> str:
        fn = V.FUNCTIONS.get(func)
        words = ", ".join(self.noun(a) for a in args)
        if fn is None or len(args) != len(fn.params):
            return f"`{func}` of ({words})"
        return f"{_clip(fn.meaning)} (`{func}` of {words})"

    def _quantified(self, kind: str, var: str, domain: ast.Expr, body: ast.Expr, negated: bool) -> str:
        element = self._element(var, domain, plural=False)
        if kind == "any" and negated:  # "not any" reads "no ..."
            inner = self.condition(body)
            if inner.startswith(f"{var} "):
                return f"no {element} {inner[len(var) + 1 :]}"
            return f"for every {element}, {self.condition(body, True)}"
        if negated:  # "not all" reads "some ... not"
            kind = "any"
        inner = self.condition(body, negated)
        lead = "every" if kind == "all" else "some"
        if inner.startswith(f"{var} "):
            return f"{lead} {element} {inner[len(var) + 1 :]}"
        return f"for {lead} {element}, {inner}"

    def noun(self, expr: ast.Expr) -> str:
        match expr:
            case ast.Int(value=value):
                return str(value)
            case ast.Bool(value=value):
                return "true" if value else "false"
            case ast.Str(value=value):
                return f'"{value}"'
            case ast.Tiles(text=text):
                return _tiles(text)
            case ast.Name(id=name):
                return _name_noun(name)
            case ast.Call(func=func, args=args):
                fn = V.FUNCTIONS.get(func)
                template = _NOUNS.get(func)
                if fn is not None and template is not None and len(args) == len(fn.params):
                    return template.format(*(self._arith_operand(a) for a in args))
                if fn is not None and fn.returns == V.BOOL:
                    return self._call(func, args, False)
                return self._fallback_call(func, args)
            case ast.Quantifier(kind="count", var=var, domain=domain, body=body):
                return f"the number of {self._element(var, domain, plural=True)} where {self.condition(body)}"
            case ast.Quantifier(kind="sum", var=var, domain=domain, body=body):
                return f"the sum over {self._element(var, domain, plural=True)} of {self._arith_operand(body)}"
            case ast.Quantifier(kind="max" | "min" as kind, var=var, domain=domain, body=body):
                word = "largest" if kind == "max" else "smallest"
                value = self.noun(body)
                if value.startswith("the ") and not isinstance(body, (ast.BinOp, ast.Conditional, ast.Quantifier)):
                    value = value[len("the ") :]
                else:
                    value = f"value of {self._arith_operand(body)}"
                return f"the {word} {value} over {self._element(var, domain, plural=True)}"
            case ast.Quantifier():
                return self.condition(expr)
            case ast.ListLit(items=items):
                return _join([self.noun(i) for i in items], "and") if items else "nothing"
            case ast.Range(low=low, high=high):
                return f"{self.noun(low)} to {self.noun(high)}"
            case ast.Negate(operand=operand):
                return f"−{self._arith_operand(operand)}"
            case ast.BinOp(op=op, left=left, right=right) if op in _ARITHMETIC:
                return f"{self._arith_operand(left)} {_ARITHMETIC[op]} {self._arith_operand(right)}"
            case ast.Conditional(condition=c, then=t, otherwise=o):
                return f"{self.noun(t)} if {self.condition(c)}, otherwise {self.noun(o)}"
            case ast.BinOp() | ast.Not():
                return self.condition(expr)
        return render_expr(expr)

    def _arith_operand(self, expr: ast.Expr) -> str:
        text = self.noun(expr)
        if isinstance(expr, (ast.BinOp, ast.Conditional, ast.Quantifier)) or (isinstance(expr, ast.Call) and " " in text):
            return f"({text})"
        return text

    def _one_of(self, expr: ast.Expr) -> str:
        match expr:
            case ast.ListLit(items=items):
                return "one of " + _join([self.noun(i) for i in items], "or") if items else "in an empty list"
            case ast.Tiles(text=text):
                return f"one of the tiles {text}"
            case ast.Range(low=low, high=high):
                return f"between {self.noun(low)} and {self.noun(high)}"
        return f"among {self.noun(expr)}"

    def _element(self, var: str, domain: ast.Expr, plural: bool) -> str:
        match domain:
            case ast.Name(id=name) if name in _ELEMENTS:
                return _ELEMENTS[name][1 if plural else 0].format(v=var)
            case ast.Range(low=low, high=high):
                return f"{'numbers' if plural else 'number'} {var} from {self.noun(low)} to {self.noun(high)}"
            case ast.Tiles(text=text):
                return f"{'tiles' if plural else 'tile'} {var} of {text}"
            case ast.ListLit(items=items):
                return f"{var} of {_join([self.noun(i) for i in items], 'and')}"
        return f"{var} in {self.noun(domain)}"


def _flatten(expr: ast.Expr, op: str) -> list[ast.Expr]:
    if isinstance(expr, ast.BinOp) and expr.op == op:
        return _flatten(expr.left, op) + _flatten(expr.right, op)
    return [expr]


def _join(parts: list[str], word: str) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} {word} {parts[-1]}"


def _tiles(text: str) -> str:
    match = re.fullmatch(r"([1-7])z", text)
    if match:
        return f"{text} ({HONOR_NAMES[int(match.group(1)) - 1]})"
    return text


def _name_noun(name: str) -> str:
    constant = V.CONSTANTS.get(name)
    if constant is not None:
        return name if constant.type == V.SUIT else f"{name} ({constant.meaning})"
    fact = V.FACTS.get(name)
    if fact is not None:
        return _clip(fact.meaning)
    return name


def english(expr: ast.Expr) -> str:
    """A condition or value in plain English."""
    return English().condition(expr) if _is_condition(expr) else English().noun(expr)


def _is_condition(expr: ast.Expr) -> bool:
    match expr:
        case ast.Bool() | ast.Not():
            return True
        case ast.BinOp(op=op):
            return op in ("and", "or", "in", "notin") or op in _COMPARE
        case ast.Quantifier(kind=kind):
            return kind in ("any", "all")
        case ast.Name(id=name):
            fact = V.FACTS.get(name)
            return fact is not None and fact.type == V.BOOL
        case ast.Call(func=func):
            fn = V.FUNCTIONS.get(func)
            return fn is not None and fn.returns == V.BOOL
        case ast.Conditional(then=then, otherwise=otherwise):
            return _is_condition(then) or _is_condition(otherwise)
    return False


# ---- items -------------------------------------------------------------------------------------------------------

INDENT = "  "


def _kind_of(item: ResolvedItem) -> str:
    return item.target[0] if item.target is not None else item.kind


def worth(item: ResolvedItem) -> str | None:
    """What the item is worth, in words, for the kinds that score."""
    kind = _kind_of(item)
    fields = item.fields
    say = English()
    if kind == "yaku" and "han" in fields:
        return _han_words(fields["han"].value)
    if kind == "yakuman":
        mult = fields.get("multiplier")
        if mult is None:
            return "yakuman" if item.target is None else None
        if isinstance(mult.value, ast.Int):
            n = mult.value.value
            return "yakuman" if n == 1 else ("double yakuman" if n == 2 else f"{n}× yakuman")
        return f"{say.noun(mult.value)} × yakuman"
    if kind == "bonus" and "han" in fields:
        return _amount(say, fields["han"].value, "han")
    if kind == "fu":
        if "fixed" in fields:
            return f"the hand's fu total is {say.noun(fields['fixed'].value)}, not rounded"
        if "fu" in fields:
            return _amount(say, fields["fu"].value, "fu")
    if kind == "limit" and "base" in fields:
        tier = fields.get("tier")
        named = f", reported as {say.noun(tier.value)}" if tier is not None else ""
        return f"base points {say.noun(fields['base'].value)}{named}"
    if kind == "payment" and "amount" in fields:
        payer = fields.get("from")
        who = payer.value.value if payer is not None and isinstance(payer.value, ast.Str) else "each payer"
        return f"{who.replace('_', '-')} pays {say.noun(fields['amount'].value)}"
    return None


def _amount(say: English, value: ast.Expr, unit: str) -> str:
    """``2 fu``, or ``fu equal to <expression>`` when the amount is computed."""
    if isinstance(value, ast.Int):
        return f"{value.value} {unit}"
    return f"{unit} equal to {say.noun(value)}"


_WORTH_FIELDS = {
    "yaku": {"han"},
    "yakuman": {"multiplier"},
    "bonus": {"han"},
    "fu": {"fu", "fixed"},
    "limit": {"base", "tier"},
    "payment": {"amount", "from"},
}


def _han_words(value: ast.Expr) -> str:
    if isinstance(value, ast.Int):
        return f"{value.value} han, open or closed"
    if isinstance(value, ast.Record):
        closed, opened = value.get("closed"), value.get("open")
        c = closed.value if isinstance(closed, ast.Int) else None
        o = opened.value if isinstance(opened, ast.Int) else None
        if c is not None and opened is None:
            return f"{c} han, closed hands only"
        if c is not None and o is not None:
            return f"{c} han, open or closed" if c == o else f"{c} han closed, {o} han open"
    return render_expr(value)


def explain_item(rulebook: ResolvedRulebook, item: ResolvedItem) -> str:
    """One item: head, kind, clause, worth, condition, other fields, examples, and its history in the chain."""
    say = English()
    kind = _kind_of(item)
    title = f' "{item.title}"' if item.title else ""
    if item.target is not None:
        head = f"exception {item.name} to {item.target[0]} {item.target[1]}{title}"
    else:
        head = f"{item.kind} {item.name}{title}"
    lines = [head]
    spec = V.ITEM_KINDS.get(kind)
    if item.target is not None:
        lines.append(f"{INDENT}refines: {item.target[0]} {item.target[1]}, taking its place when this condition also holds")
    elif spec is not None and kind != "settings":
        lines.append(f"{INDENT}kind: {spec.meaning}")
    lines.append(f"{INDENT}clause: {clause_for_players(rulebook, item.key) or '(none cited)'}")
    for note in _notes(rulebook, item):
        lines.append(f"{INDENT}note: {note}")
    if kind == "settings":
        group = V.SETTINGS.get(item.name, {})
        for name, f in item.fields.items():
            meaning = f" — {group[name].meaning}" if name in group else ""
            lines.append(f"{INDENT}{name} = {render_expr(f.value)}{meaning}")
    else:
        value = worth(item)
        if value is not None:
            lines.append(f"{INDENT}worth: {value}")
        when = item.fields.get("when")
        if when is not None:
            lines.append(f"{INDENT}when: {say.condition(when.value)}")
        elif spec is not None and spec.hand_rule:
            lines.append(f"{INDENT}when: always")
        skip = {"when"} | (_WORTH_FIELDS.get(kind, set()) if value is not None else set())
        for name, f in item.fields.items():
            if name in skip:
                continue
            lines.append(f"{INDENT}{name}: {_field_words(name, f.value)}")
    for example, writer in item.examples:
        where = f", added at {example.span.file}:{example.span.line}" if _from_block(item, example) else ""
        lines.append(f"{INDENT}example ({writer}{where}): {example.text} => {render_expr(example.expected)}")
    lines.extend(f"{INDENT}{line}" for line in history(item))
    lines.extend(f"{INDENT}{line}" for line in example_history(item))
    return "\n".join(lines)


def _from_block(item: ResolvedItem, example: ast.Example) -> bool:
    """Whether an example was added by an ``examples for`` block (not written in the item): those are shown with
    their file and line, since the item's own history does not say where they come from."""
    span = example.span
    return any(
        b.span.file == span.file and b.span.line <= span.line <= b.span.end_line for b in item.example_blocks
    )


def describe_item(item: ResolvedItem) -> str:
    """One item in a sentence or two, for a diff's cell: its title, what it is worth, when it applies, and any
    other field in words."""
    say = English()
    kind = _kind_of(item)
    parts = []
    value = worth(item)
    if value is not None:
        parts.append(value)
    when = item.fields.get("when")
    if when is not None:
        parts.append(f"when {say.condition(when.value)}")
    skip = {"when"} | (_WORTH_FIELDS.get(kind, set()) if value is not None else set())
    parts += [f"{name}: {_field_words(name, f.value)}" for name, f in item.fields.items() if name not in skip]
    title = f"{item.title}: " if item.title else ""
    return title + ("; ".join(parts) if parts else "no fields")


def describe_field(item: ResolvedItem, name: str) -> str | None:
    """One field of an item in words (None when the item lacks it): a condition as a sentence, han as players
    say it ("2 han closed, 1 han open"), a setting as its plain value."""
    f = item.fields.get(name)
    if f is None:
        return None
    if item.kind == "settings":
        return setting_words(f.value)
    kind = _kind_of(item)
    if name == "when":
        return English().condition(f.value)
    if name == "han" and kind == "yaku":
        return _han_words(f.value)
    return _field_words(name, f.value)


def setting_words(value: ast.Expr) -> str:
    """A setting's value as a player reads it: ``0m, 0p, 0s``, ``none``, ``yes``, ``30,000``, ``head_bump``."""
    match value:
        case ast.ListLit(items=()):
            return "none"
        case ast.ListLit(items=items):
            return ", ".join(setting_words(i) for i in items)
        case ast.Record():
            return english(value)
    plain = setting_value(value)  # the same reading as the JSON's, printed for people
    if isinstance(plain, bool):
        return "yes" if plain else "no"
    if isinstance(plain, int):
        return f"{plain:,}"
    return str(plain)


def setting_value(value: ast.Expr) -> Any:
    """A setting's value as JSON keeps it (``1000``, ``true``, ``["0m", "0p", "0s"]``, ``{"first": 30}``): for tools,
    while ``setting_words`` prints it for people. A value that is an expression is its plain-English reading."""
    match value:
        case ast.ListLit(items=items):
            return [setting_value(i) for i in items]
        case ast.Record(entries=entries):
            return {e.key: setting_value(e.value) for e in entries}
        case ast.Bool(value=flag):
            return flag
        case ast.Int(value=number):
            return number
        case ast.Str(value=text):
            return text
        case ast.Tiles(text=text):
            return text
        case ast.Name(id=name):
            return name
        case ast.Negate(operand=ast.Int(value=number)):
            return -number
    return english(value)


# Fields whose plain value means nothing to a player: what each value does at the table.
_FLAG_WORDS = {
    "standalone": (
        "scored on its own: the hand is worth the better of this yaku alone (no other yaku, no dora) and its usual "
        "score without it",
        "added to the hand's other yaku and dora as usual",
    ),
}


def _field_words(name: str, value: ast.Expr) -> str:
    if name in _FLAG_WORDS and isinstance(value, ast.Bool):
        return _FLAG_WORDS[name][0 if value.value else 1]
    if name in ("excludes", "affects") and isinstance(value, ast.ListLit):
        names = [i.id if isinstance(i, ast.Name) else render_expr(i) for i in value.items]
        verb = "not scored together with this one" if name == "excludes" else "the yakuman it applies to"
        return f"{', '.join(names)} ({verb})"
    if isinstance(value, (ast.Int, ast.Str, ast.Bool, ast.ListLit, ast.Tiles, ast.Record)):
        return render_expr(value)
    return english(value)


def history(item: ResolvedItem) -> list[str]:
    """Which file of the chain defined the item and which changed it, with the clause each cited."""
    lines = []
    for prov in item.history:
        verb = {"define": "defined", "exception": "defined", "override": "changed"}.get(prov.action, prov.action)
        clause = f' citing "{prov.clause}"' if prov.clause and prov.action == "override" else ""
        lines.append(f"{verb} by {prov.rulebook} at {prov.span.file}:{prov.span.line}{clause}")
    return lines


def example_history(item: ResolvedItem) -> list[str]:
    """Which files added examples with an ``examples for`` block: said apart from ``history``, because adding an
    example changes no field, so the file did not change the rule."""
    lines = []
    for prov in item.example_blocks:
        clause = f' citing "{prov.clause}"' if prov.clause else ""
        lines.append(f"examples added by {prov.rulebook} at {prov.span.file}:{prov.span.line}{clause}")
    return lines


def explain_removal(removal: Removal) -> str:
    item = removal.previous
    title = f' "{item.title}"' if item.title else ""
    clause = f', citing "{removal.clause}"' if removal.clause else ""
    return (
        f"{removal.key[0]} {removal.key[1]}{title}\n"
        f"{INDENT}removed by {removal.rulebook} at {removal.span.file}:{removal.span.line}{clause}\n"
        f"{INDENT}it was defined by {item.defined_in}"
    )


def _notes(rulebook: ResolvedRulebook, item: ResolvedItem) -> list[str]:
    notes: list[str] = []
    for rb in rulebook.chain:
        for ast_item in rb.items:
            if ast_item.key == item.key:
                notes.extend(d.value for d in ast_item.decorators if d.name == "note")
    return notes


KIND_ORDER = ("settings", "yakuman", "yaku", "exception", "bonus", "fu", "limit", "payment", "draw", "abortive_draw", "liability")


def _ordered(items: Iterable[ResolvedItem]) -> list[ResolvedItem]:
    rank = {k: i for i, k in enumerate(KIND_ORDER)}
    return sorted(items, key=lambda it: rank.get(it.kind, len(rank)))


def explain_rulebook(rulebook: ResolvedRulebook) -> str:
    """The whole rulebook: its header and chain, then every item by kind, then what it removed."""
    chain = " → ".join(f"{rb.name} ({rb.file})" for rb in rulebook.chain)
    lines = [f"rulebook {rulebook.name}" + (f": {rulebook.title}" if rulebook.title else "")]
    if rulebook.source:
        lines.append(f"source: {rulebook.source}")
    lines.append(f"extends: {rulebook.extends or 'nothing (a base rulebook)'}")
    lines.append(f"chain: {chain}")
    lines.append(f"items: {len(rulebook.items)}, removed: {len(rulebook.removed)}")
    for book in rulebook.chain[1:]:
        for adoption in book.adoptions:
            lines.append(f'{book.name} adopts the clauses it inherits from {adoption.rulebook} as: "{adoption.words}"')
    if rulebook.extends:
        lines.append(f'a clause marked "from NAME:" was written by the rulebook NAME, which {rulebook.name} extends')
    current = None
    for item in _ordered(rulebook.items.values()):
        if item.kind != current:
            current = item.kind
            lines.append("")
            lines.append(f"== {current} ==")
        lines.append("")
        lines.append(explain_item(rulebook, item))
    if rulebook.removed:
        lines.append("")
        lines.append("== removed ==")
        for removal in rulebook.removed:
            lines.append("")
            lines.append(explain_removal(removal))
    return "\n".join(lines)


class UnknownItem(Exception):
    """No item (or removed item) answers to the query; ``message`` suggests the closest name."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def find(rulebook: ResolvedRulebook, query: str) -> tuple[list[ResolvedItem], list[Removal]]:
    """Items and removals matching ``name`` or ``kind name``; ``UnknownItem`` when nothing does."""
    words = query.split()
    if len(words) == 2:
        key = (words[0], words[1])
        items = [rulebook.items[key]] if key in rulebook.items else []
        removals = [r for r in rulebook.removed if r.key == key]
        candidates = [f"{k} {n}" for (k, n) in rulebook.items]
    elif len(words) == 1:
        items = [it for (k, n), it in rulebook.items.items() if n == words[0]]
        removals = [r for r in rulebook.removed if r.key[1] == words[0]]
        candidates = [n for (k, n) in rulebook.items] + [key for keys in V.SETTINGS.values() for key in keys]
    else:
        raise UnknownItem(f"an item is named `NAME` or `KIND NAME`, got `{query}`")
    if not items and not removals:
        hint = did_you_mean(query, candidates)
        message = f"no item `{query}` in `{rulebook.name}`"
        raise UnknownItem(f"{message} ({hint})" if hint else message)
    return items, removals


def explain_query(rulebook: ResolvedRulebook, query: str) -> str:
    """An item (``KIND NAME`` or ``NAME``), or a setting by its key (``red_fives``: a key, not an item)."""
    try:
        items, removals = find(rulebook, query)
    except UnknownItem:
        setting = explain_setting(rulebook, query.strip())
        if setting is None:
            raise
        return setting
    parts = [explain_item(rulebook, item) for item in items] + [explain_removal(r) for r in removals]
    return "\n\n".join(parts)


def explain_setting(rulebook: ResolvedRulebook, key: str) -> str | None:
    """A setting asked for by its key: its group, value, meaning and clause; None when no group has the key."""
    groups = [group for group, keys in V.SETTINGS.items() if key in keys]
    if not groups:
        return None
    out = []
    for group in groups:
        spec = V.SETTINGS[group][key]
        item = rulebook.items.get(("settings", group))
        lines = [f"setting {key}, a key of `settings {group}` (not an item of its own)"]
        if item is not None and key in item.fields:
            lines.append(f"{INDENT}{key} = {render_expr(item.fields[key].value)} — {spec.meaning}")
            lines.append(f"{INDENT}clause: {clause_for_players(rulebook, item.key, key) or '(none cited)'}")
        else:
            lines.append(f"{INDENT}{rulebook.name} does not set it: the engine's default applies — {spec.meaning}")
        lines.append(f'{INDENT}the whole group: riichi explain {rulebook.name} "settings {group}"')
        out.append("\n".join(lines))
    return "\n\n".join(out)


__all__ = ["English", "english", "explain_item", "explain_rulebook", "explain_query", "find", "worth", "UnknownItem"]
