"""Prebuilt parser tables for the rule language, shipped as JSON so that a process starts without building them.

Building the LALR parser from ``grammar.lark`` costs about 210 ms when ``interegular`` is installed (lark then looks
for colliding terminals) and about 80 ms without; loading these tables costs a few milliseconds. The file records
the sha256 of the grammar and the lark version it was built from, and is ignored (the parser is built as before)
when either differs. After editing ``grammar.lark``, run ``python -m ruledsl.regenerate``; the tests
and ``--check`` fail while the file is stale.

The tables are lark's own serialisation (``memo_serialize``), loaded through ``Lark._load_from_dict`` as lark's
standalone generator does; never pickle. JSON has no integer keys, so a dict keyed by integers is written as
``{"__int_keys__": [[key, value], ...]}``. Tuples come back as lists, which lark only indexes and unpacks.
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

COMMAND = "python -m ruledsl.regenerate"  # every generated file; `--write` here rewrites this one alone
FILE_NAME = "grammar_tables.json"
# The one place the parser's options are stated: a loaded table must have been built with the same ones.
LARK_OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}
_INT_KEYS = "__int_keys__"


def build(grammar: str) -> Lark:
    """The parser built from the grammar text: the slow path, and the reference the shipped tables must match."""
    return Lark(grammar, **LARK_OPTIONS)


def fingerprint(grammar: str) -> dict[str, str]:
    """What the tables were built from; any difference makes them stale."""
    return {
        "grammar_sha256": hashlib.sha256(grammar.encode("utf-8")).hexdigest(),
        "lark_version": lark.__version__,
    }


def encode(value: Any) -> Any:
    """Lark's serialised data made JSON-safe without loss: integer-keyed dicts become tagged pair lists."""
    if isinstance(value, dict):
        if value and all(isinstance(k, int) for k in value):
            return {_INT_KEYS: [[k, encode(v)] for k, v in value.items()]}
        if not all(isinstance(k, str) for k in value) or _INT_KEYS in value:
            raise TypeError(f"cannot encode dict keys {list(value)[:5]}")
        return {k: encode(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    return value


def _decode_object(obj: dict[str, Any]) -> dict[Any, Any]:
    """``json.loads`` hook undoing ``encode``; it runs innermost first, so values are already decoded."""
    if _INT_KEYS in obj:
        return {k: v for k, v in obj[_INT_KEYS]}
    return obj


def decode(text: str) -> dict[str, Any]:
    """A tables file read back into lark's serialised form."""
    return json.loads(text, object_hook=_decode_object)


def _canonical(table: dict[str, Any]) -> dict[str, Any]:
    """The same LALR table with tokens numbered in name order and states in breadth-first order from the start.

    Lark numbers both while iterating sets, so two builds under different hash seeds write different files for the
    same grammar; renumbering makes the file a function of the grammar and the lark version alone.
    """
    names, states = table["tokens"], table["states"]
    tokens = {old: new for new, old in enumerate(sorted(names, key=names.__getitem__))}
    renumber: dict[int, int] = {}
    queue = [
        *(table["start_states"][s] for s in sorted(table["start_states"])),
        *table["end_states"].values(),
    ]
    for state in queue:  # the queue grows while it is read: breadth first
        if state not in renumber:
            renumber[state] = len(renumber)
            queue.extend(
                arg
                for _, (action, arg) in sorted(states[state].items(), key=lambda a: names[a[0]])
                if action == 0
            )
    if len(renumber) != len(states):
        raise ValueError(f"{len(states) - len(renumber)} parser states are unreachable from the start")
    return {
        "tokens": {tokens[old]: name for old, name in sorted(names.items(), key=lambda t: tokens[t[0]])},
        "states": {
            renumber[s]: {
                tokens[tok]: [action, renumber[arg] if action == 0 else arg]
                for tok, (action, arg) in sorted(states[s].items(), key=lambda a: tokens[a[0]])
            }
            for s in renumber
        },
        "start_states": {k: renumber[v] for k, v in table["start_states"].items()},
        "end_states": {k: renumber[v] for k, v in table["end_states"].items()},
    }


def dumps(grammar: str) -> str:
    """The tables file for this grammar: a readable header, then lark's data and memo, one line each."""
    data, memo = build(grammar).memo_serialize([TerminalDef, Rule])
    data["parser"]["parser"] = _canonical(data["parser"]["parser"])
    header = {**fingerprint(grammar), "regenerate": COMMAND}
    lines = [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in header.items()]
    lines.append(f' "data": {json.dumps(encode(data), separators=(",", ":"))},')
    lines.append(f' "memo": {json.dumps(encode(memo), separators=(",", ":"))}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def shipped() -> str | None:
    """The tables file installed with the package, if there is one."""
    try:
        return resources.files("ruledsl").joinpath(FILE_NAME).read_text(encoding="utf-8")
    except OSError:
        return None


def load(grammar: str, text: str | None = None) -> Lark | None:
    """The parser from the tables ``text`` (default: the shipped file), or None when they are missing or stale."""
    text = shipped() if text is None else text
    if text is None:
        return None
    try:
        tables = decode(text)
    except ValueError:
        return None
    if not isinstance(tables, dict) or any(tables.get(k) != v for k, v in fingerprint(grammar).items()):
        return None
    if any(tables["data"]["options"].get(k) != v for k, v in LARK_OPTIONS.items()):
        return None  # parser.py asks for other options than the tables were built with
    return Lark._load_from_dict(tables["data"], tables["memo"])


def main(argv: list[str] | None = None) -> int:
    from ruledsl.generated import write_or_check
    from ruledsl.parser import grammar_text

    return write_or_check(
        "python -m ruledsl.grammar_tables", __doc__.splitlines()[0], f"ruledsl/{FILE_NAME}",
        Path(__file__).with_name(FILE_NAME), lambda: dumps(grammar_text()), shipped, COMMAND, argv,
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
