"""Writes ``docs/language.md``, the language reference, from the vocabulary registry and the grammar.

The reference is generated so that it can never drift from what the checker accepts: every item kind, field,
settings key, fact, function, constant and quantifier comes from ``ruledsl.vocabulary``. A test fails when the
committed file is stale. Regenerate with ``python -m ruledsl.regenerate`` (or ``python -m ruledsl.docgen --write PATH``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from ruledsl import arithmetic as A
from ruledsl import example_words as example_notation
from ruledsl import vocabulary as V
from ruledsl.check import (
    CONSTANT_FIELDS,
    FIELD_SCOPES,
    FU_TOTAL_SCOPE,
    HAND_SCOPE,
    KIND_SCOPES,
    LIMIT_SCOPE,
    PAYMENT_SCOPE,
    RESULT_KEYS,
    ROUND_SCOPE,
)
from ruledsl.parser import MAX_DEPTH, MAX_NESTING

COMMAND = "python -m ruledsl.regenerate"  # every generated file; `--write PATH` here writes this one alone

TYPE_WORDS = {
    V.BOOL: "condition",
    V.INT: "number",
    V.STR: "string",
    V.TILE: "tile",
    V.GROUP: "group",
    V.SUIT: "suit",
    V.WAIT: "wait",
    V.SHAPE: "shape",
    V.ITEM: "yaku name",
    V.RECORD: "record",
    V.ANY: "any value",
    V.HAN_TYPE: "han (`n` or `{closed: n, open: n}`)",
}

SCOPE_TITLES = {
    V.HAND: ("Hand facts", "one reading of the winning hand; every hand rule may read them"),
    V.VALUE: ("Value facts", "known once the yaku are decided: limit and payment items (and `raw_fu` in `fixed`/`when` of fu items)"),
    V.TABLE: ("Table facts", "the counters on the table: payment items"),
    V.ROUND: ("Round facts", "the state of the round: draw, abortive_draw and liability items"),
}

SYNTAX = f"""\
## Syntax

A rulebook file is a header followed by items. Comments start with `#` and run to the end of the line;
whitespace and line breaks are free.

```text
rulebook my_rules "My club's rules" extends some_base
source "where the rules come from"

@clause("club rules 3.1: a local yaku")
yaku my_local_yaku "My local yaku" {{
  han = {{closed: 2, open: 1}}
  when = closed and all(t in tiles: is_simple(t))
  example "234m345m456m678p88s win 8s ron seat S" => {{han: 3}}
}}
```

- **Header**: `rulebook NAME ["Title"] [extends NAME] [source "..."]`. `extends` names a bundled rulebook or a
  `NAME.rulebook` file next to this one.
- **Items** are keyed by kind and name: `KIND NAME ["Title"] {{ ... }}`. Names are snake_case; titles are what
  players read.
- **Decorators** go above an item: `@clause("...")` cites the rule the item encodes (an item without one gets a
  warning); `@note("...")` is shown by `riichi explain`.
- **Fields**: `name = expression`, one per line. Which fields a kind takes is listed under *Item kinds*.
- **Examples**: `example "HAND AND SITUATION" => {{key: value, ...}}`, run by `riichi check` and the test suite;
  see *Examples* below.

### Changing an inherited rulebook

| form | does |
|---|---|
| `KIND NAME "Title" {{ ... }}` | adds a new item; redefining an inherited one this way is an error |
| `override KIND NAME {{ ... }}` | replaces the listed fields of an inherited item (its other fields stay) |
| `remove KIND NAME` | drops an inherited item |
| `exception NAME to KIND TARGET ["Title"] {{ ... }}` | refines `TARGET`: when the exception's `when` also holds, it takes the target's place with its own id and the fields it sets |
| `examples for KIND NAME {{ example ... }}` | adds examples to an item and changes nothing else: `riichi explain` does not list the file under "changed by", `riichi diff` sees no change |
| `clauses from NAME = "WORDS"` | adopts, under this file's words, every clause it inherits from the rulebook `NAME` (or from a rulebook `NAME` extends): players then read `WORDS (from NAME: CLAUSE)` instead of `from NAME: CLAUSE`; the clause's text is kept |

Overriding, removing or adding examples to an item that does not exist, an exception whose target is missing
or removed, two exceptions with the same condition that disagree, and `extends` cycles are all errors.

An inherited item keeps the clause the file that wrote it cited, and every tool shows it as inherited:
`from NAME: ...` (`riichi explain`, `riichi score`; in JSON, `clause_from`). To give it this file's
source, re-attribute it: `@clause("...")` above `override KIND NAME {{}}` for one item, `clauses from NAME = "..."`
for all of them. `riichi check` warns when an inherited clause names a rule this file adds, changes or removes
(an item id, or a settings key such as `multiple_ron`, written as the id or in words), since players would read a clause that
may no longer hold; a `clauses from` naming a rulebook this file does not extend, or written twice, is an error.

### Expressions

From loosest to tightest binding:

| form | meaning |
|---|---|
| `if C then A else B` | a choice; only at the top of an expression, parenthesise it elsewhere |
| `A or B` | either condition |
| `A and B` | both conditions |
| `not A` | the opposite condition |
| `A == B`, `!=`, `<`, `<=`, `>`, `>=`; `A in L`, `A not in L` | comparisons and membership (do not chain) |
| `A..B` | the whole numbers from `A` to `B`, both included |
| `A + B`, `A - B` | arithmetic on whole numbers |
| `A * B`, `A / B` | `/` divides and rounds down (bounds: see "Whole numbers") |
| `-A` | negation |
| `A ^ B` | power (right-associative) |
| `f(x, y)`, `any(x in L: C)`, `[a, b]`, `{{k: v}}`, `(A)` | calls, quantifiers, lists, records, grouping |

Literals: whole numbers (`25`), `true`, `false`, strings in double quotes (`"discarder"`, with `\\"` and `\\\\`
escapes), and tiles in mpsz notation (`5z`, `23468s6z`; red fives `0m` only in `settings table`).

Limits: brackets nest at most {MAX_NESTING} deep and an expression at most {MAX_DEPTH} levels, numbers have at
most 18 digits; split anything larger into simpler items.
"""


def _type(t: str) -> str:
    if t.startswith("list of "):
        return f"list of {_type(t[len('list of '):])}"
    return TYPE_WORDS.get(t, t)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> list[str]:
    header = list(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def _scope_name(kind: str, field: str) -> str:
    if (kind, field) in CONSTANT_FIELDS:
        return "none: a constant"
    scope = FIELD_SCOPES.get((kind, field)) or KIND_SCOPES.get(kind) or HAND_SCOPE
    return {
        id(HAND_SCOPE): "hand",
        id(FU_TOTAL_SCOPE): "hand + `raw_fu`",
        id(LIMIT_SCOPE): "hand + value",
        id(PAYMENT_SCOPE): "hand + value + table",
        id(ROUND_SCOPE): "round",
    }.get(id(scope), "hand")


def item_kinds() -> list[str]:
    lines = ["## Item kinds", ""]
    for kind, spec in V.ITEM_KINDS.items():
        lines += [f"### `{kind}`", "", spec.meaning[0].upper() + spec.meaning[1:] + ".", ""]
        if not spec.fields:
            continue
        rows = []
        for name, f in spec.fields.items():
            facts = "" if f.type in (V.ITEMS, V.HAN_TYPE) or kind == "settings" else _scope_name(kind, name)
            rows.append([f"`{name}`", _type(f.type), "yes" if f.required else "", facts, f.meaning])
        lines += _table(["field", "type", "required", "facts it may read", "meaning"], rows) + [""]
    lines += [f"An `exception` takes the fields of its target's kind: {V.EXCEPTION_FIELDS_NOTE}.", ""]
    return lines


def decorators() -> list[str]:
    lines = ["## Decorators", ""]
    lines += _table(["decorator", "meaning"], [[f'`@{n}("...")`', m] for n, m in V.DECORATORS.items()])
    return lines + [""]


def settings() -> list[str]:
    lines = [
        "## Settings",
        "",
        "Each group is one item, `settings GROUP { key = value ... }`; values are literals. A key the rulebook does not",
        "write (nor any rulebook it extends) means its default, the same for scoring, the round and the game; `none`",
        "means the rule is off.",
        "",
    ]
    for group, keys in V.SETTINGS.items():
        lines += [f"### `settings {group}`", ""]
        rows = []
        for key, spec in keys.items():
            meaning = spec.meaning + (f" (one of {', '.join(f'`{c}`' for c in spec.choices)})" if spec.choices else "")
            rows.append([f"`{key}`", _type(spec.type), meaning, f"`{V.default_text(spec)}`", f"`{spec.example}`"])
        lines += _table(["key", "type", "meaning", "default (absent key)", "example"], rows) + [""]
    return lines


def facts() -> list[str]:
    lines = ["## Facts", "", "Names an expression may read. Which ones an item may read depends on its kind and field.", ""]
    for scope, (title, words) in SCOPE_TITLES.items():
        rows = [[f"`{f.name}`", _type(f.type), f.meaning, f"`{f.example}`"] for f in V.FACTS.values() if f.scope == scope]
        if not rows:
            continue
        lines += [f"### {title}", "", words[0].upper() + words[1:] + ".", ""]
        lines += _table(["name", "type", "meaning", "example"], rows) + [""]
    return lines


def functions() -> list[str]:
    lines = ["## Functions", ""]
    rows = []
    for fn in V.FUNCTIONS.values():
        params = ", ".join(" or ".join(_type(p) for p in param.split("|")) for param in fn.params)
        rows.append([f"`{fn.name}`", params, _type(fn.returns), fn.meaning, f"`{fn.example}`"])
    lines += _table(["function", "arguments", "returns", "meaning", "example"], rows)
    return lines + ["", "`has_yaku` takes the bare name of a yaku or yakuman of the rulebook.", ""]


def constants() -> list[str]:
    lines = ["## Constants", ""]
    rows = [[f"`{c.name}`", _type(c.type), c.meaning] for c in V.CONSTANTS.values()]
    return lines + _table(["name", "type", "meaning"], rows) + [""]


def quantifiers() -> list[str]:
    lines = [
        "## Quantifiers",
        "",
        "`KIND(x in LIST: BODY)` binds `x` to each element of a finite list (a list fact such as `sets` or",
        "`tiles`, a literal list, a range `1..9`, or tiles such as `567z`). `any`, `all` and `count` take a",
        "condition as body; `sum`, `max` and `min` a number.",
        "",
    ]
    rows = [[f"`{k}`", "condition" if k in ("any", "all") else "number", m] for k, m in V.QUANTIFIERS.items()]
    return lines + _table(["quantifier", "gives", "meaning"], rows) + [""]


def whole_numbers() -> list[str]:
    """The bounds of ``ruledsl.arithmetic``, which both evaluators obey (a silent wrong value is never an answer)."""
    return [
        "## Whole numbers and their bounds",
        "",
        "Arithmetic is exact on whole numbers, never fractions. Where a rule computes what cannot be a score, the",
        "scorer refuses the hand with an error naming the rulebook (`riichi check` reports what it can see ahead):",
        "",
        *_table(
            ["computation", "bound", "past it"],
            [
                ["`+`, `-`, `*`, `/`, `^`, `round_up`, `sum(...)`", f"results within ±{A.INT_LIMIT:,} (2^63 − 1)", f"`{A.LIMIT_EXCEEDED}`"],
                ["`A / B`", "rounds toward minus infinity (`-7 / 2` is -4); `B` is not 0", f"`{A.INVALID_RULEBOOK}`"],
                ["`A ^ B`", f"`B` from 0 to {A.POWER_LIMIT}", f"`{A.INVALID_RULEBOOK}` (negative), `{A.LIMIT_EXCEEDED}` (larger)"],
                ["`round_up(X, STEP)`", "`STEP` at least 1", f"`{A.INVALID_RULEBOOK}`"],
                ["`A..B`", f"at most {A.RANGE_LIMIT:,} numbers", f"`{A.LIMIT_EXCEEDED}`"],
                ["a reading's han and fu, a payment", "never negative; fu × 2^(han + 2) within the bound", f"`{A.INVALID_RULEBOOK}`, `{A.LIMIT_EXCEEDED}`"],
            ],
        ),
        "",
    ]


def examples() -> list[str]:
    lines = [
        "## Examples",
        "",
        "`example \"TEXT\" => {key: value, ...}` inside an item. `riichi check` scores each example a file writes",
        "(inherited files' examples are checked with those files) and reports a mismatch as an error at its line.",
        "",
        "A variant adds examples to an inherited item without overriding it, in a block of its own that holds only",
        "`example` lines (it may cite a clause; a field there is an error):",
        "",
        "```text",
        '@clause("club rules 3.1: the local yaku, also on a self-draw")',
        "examples for yaku my_local_yaku {",
        '  example "234m345m456m678p88s win 8s tsumo seat S" => {han: 4}',
        "}",
        "```",
        "",
        "Its examples are checked like the item's own, each failure reported at the example's line. `riichi explain`",
        "shows them with the file and line that added them, and says \"examples added by\", never \"changed by\".",
        "",
        "The text starts with the concealed tiles, the winning tile included, then any of:",
        "",
    ]
    rows = [
        ["`win T`", "the winning tile (required)"],
        ["`ron`, `tsumo`", "how it was won (default ron)"],
        [", ".join(f"`{w} TILES`" for w in example_notation.MELD_WORDS), "a called or closed meld"],
        ["`seat W`, `round W`", "winds `E`, `S`, `W`, `N` (default East: the dealer); `dealer` = `seat E`"],
        ["`dora TILES`, `ura TILES`", "dora and ura dora indicators"],
        [", ".join(f"`{w} N`" for w in example_notation.COUNT_WORDS), "counters"],
        [", ".join(f"`{w}`" for w in example_notation.FLAG_WORDS), "flags of the win"],
    ]
    lines += _table(["words", "meaning"], rows) + ["", "Expected keys:", ""]
    meanings = {
        "han": "total han, dora included",
        "fu": "fu after rounding",
        "yakuman": "total yakuman multiplier",
        "limit": "the limit tier reported (a string)",
        "total": "what the winner gains",
        "yaku": "the exact list of scored ids (any order), bonuses such as dora included",
        "error": "the error code expected instead of a score, e.g. `\"no_yaku\"`",
        "payments": "the payments record, e.g. `{ron: 8000}`",
        "base_points": "the base points",
    }
    rows = [[f"`{k}`", _type(t) if t in TYPE_WORDS else t, meanings.get(k, "")] for k, t in RESULT_KEYS.items()]
    return lines + _table(["key", "type", "meaning"], rows) + [""]


def generate() -> str:
    parts = [
        "# The rulebook language",
        "",
        f"<!-- Generated from ruledsl/vocabulary.py by `{COMMAND}`; do not edit by hand.",
        "     tests/ruledsl/test_docs.py fails when this file is stale. -->",
        "",
        "A rulebook states the rules of a riichi game as data: settings, yaku, fu, limits, payments, draws and",
        "liability, each citing the clause it encodes. `riichi check FILE` validates one, `riichi explain FILE`",
        "reads it back in English. The guide for writing one is `docs/authoring.md`.",
        "",
        SYNTAX,
        *item_kinds(),
        *decorators(),
        *settings(),
        *facts(),
        *functions(),
        *constants(),
        *quantifiers(),
        *whole_numbers(),
        *examples(),
    ]
    return "\n".join(parts).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ruledsl.docgen", description="print the language reference")
    parser.add_argument("--write", metavar="PATH", type=Path, help="write to PATH instead of stdout")
    args = parser.parse_args(argv)
    text = generate()
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
