"""``riichi score``'s arguments read without argparse, in the form players type them.

argparse, with what it brings in (``gettext``, ``locale``, ``shutil`` and its compressors) and the parser it
builds, was about a tenth of a one-hand command's start-up. This reader takes only what it reads exactly as
argparse would: every option spelt out in full, each value a word of its own that does not start with ``-``, the
hand's words together, a count as plain digits, a wind as one of ``E S W N``. Anything else (``--help``, an
abbreviation, ``--win=5s``, a mistake) is left to argparse (``read`` gives None), so every usage message and exit
code is argparse's. ``tests/cli/test_score_args.py`` holds the two readers equal.
"""

from __future__ import annotations

from types import SimpleNamespace

from engine.core.situation import COUNTER_FIELDS, COUNTER_OPTIONS, FLAG_FIELDS, counter_dest

MODULE = "engine.cli.score"
# option -> the attribute it sets, by kind of option (``engine.cli.score_options`` is the parser's side)
VALUES = {"--win": "win", "--rulebook": "rulebook", "--dora": "dora", "--ura": "ura"}
WINDS = {"--seat": "seat", "--round": "round", "--liable": "liable", "--from": "discarder"}
COUNTS = {COUNTER_OPTIONS[name][0]: counter_dest(name) for name in COUNTER_FIELDS}
LISTS = {"--rulebook-dir": "rulebook_dir"}
MELDS = {f"--{kind}": kind for kind in ("chi", "pon", "daiminkan", "kakan", "ankan")}
SWITCHES = {"--json": "json", **{f"--{name.replace('_', '-')}": name for name in FLAG_FIELDS}}
_WIND_LETTERS = frozenset("ESWN")
_TAKES_A_WORD = {**VALUES, **WINDS, **COUNTS, **LISTS, **MELDS}


def defaults() -> dict[str, object]:
    """Every attribute argparse sets when no option is given (fresh lists: argparse's are its parser's own)."""
    values: dict[str, object] = {"command": "score", "_module": MODULE, "hand": []}
    values.update(dict.fromkeys(VALUES.values()))
    values.update(dict.fromkeys(WINDS.values()))
    values["round"] = "E"
    values.update(dict.fromkeys(COUNTS.values(), 0))
    values.update({name: [] for name in (*LISTS.values(), *MELDS.values())})
    values.update(dict.fromkeys(SWITCHES.values(), False))
    values["dora"] = values["ura"] = ""
    return values


def read(words: list[str]) -> SimpleNamespace | None:
    """The arguments after ``score`` as argparse's namespace would hold them, or None when argparse must read them."""
    values = defaults()
    lists: dict[str, list[str]] = {}
    melds: list[tuple[str, str]] = []
    hand: list[str] | None = None
    i, count = 0, len(words)
    while i < count:
        word = words[i]
        if not word.startswith("-"):
            if hand is not None:  # a second run of hand words: argparse's "unrecognized arguments"
                return None
            start = i
            while i < count and not words[i].startswith("-"):
                i += 1
            hand = words[start:i]
            continue
        if word in SWITCHES:
            values[SWITCHES[word]] = True
            i += 1
            continue
        name = _TAKES_A_WORD.get(word)
        if name is None or i + 1 >= count or words[i + 1].startswith("-"):
            return None
        value = words[i + 1]
        i += 2
        if word in WINDS:
            if value not in _WIND_LETTERS:
                return None
            values[name] = value
        elif word in COUNTS:
            if not (value.isascii() and value.isdigit()):
                return None
            values[name] = int(value)
        elif word in LISTS or word in MELDS:
            lists.setdefault(name, []).append(value)
            if word in MELDS:
                melds.append((name, value))
        else:
            values[name] = value
    values.update(lists)
    values["hand"] = hand or []
    if melds:
        values["melds_in_order"] = melds
    return SimpleNamespace(**values)
