"""``riichi analyze``: shanten and waits of a hand, or whether it is complete and every way to read it.

With ``--json`` and no tiles it serves a batch: one tile string per line on stdin, one JSON answer per line on
stdout, in order, so a bot or log analyser can keep one process open. A bad line (blank lines included) is
answered with an error object and the batch goes on.
"""

from __future__ import annotations

import argparse
import json

from engine.core.analysis import analyze
from engine.core.errors import EngineError, InvalidRequest
from engine.core.tiles import parse_tiles


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "tiles",
        nargs="*",
        metavar="TILES",
        help="tiles in mpsz notation, e.g. 2333m or 123m456p789s11122z; spaces between groups are allowed",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the JSON answer; without TILES, read one tile string per line from stdin",
    )


def run(args: argparse.Namespace) -> int:
    text = " ".join(args.tiles)
    if not text.strip():
        if not args.json:
            raise InvalidRequest(
                "give the tiles to analyse, e.g. `riichi analyze 2333m`, or --json to read stdin"
            )
        return _batch()
    result = analyze(text)
    if args.json:
        print(json.dumps({"ok": True, **result}))
    else:
        print(render(result))
    return 0


def _batch() -> int:
    """One answer per stdin line, in order, written at once (a bot waits for each); see ``engine.cli.jsonlines``."""
    from engine.cli import jsonlines

    return jsonlines.serve(_answer, flush_each=True)


def _answer(line: str) -> dict:
    try:
        return {"ok": True, **analyze(line.strip())}
    except EngineError as exc:
        return {"ok": False, "error": exc.to_json()}


def render(result: dict) -> str:
    """The human form: one line of verdict, then one line per reading of a complete hand."""
    tiles = result["tiles"]
    number = result["shanten"]
    if result["complete"]:
        lines = [f"{tiles}: complete (shanten -1)"]
        lines += [
            f"  {reading['shape']}: {' '.join(reading['groups'])}" for reading in result["decompositions"]
        ]
        return "\n".join(lines)
    if result["waits"]:
        return f"{tiles}: tenpai (shanten 0), waits {' '.join(result['waits'])}"
    if len(parse_tiles(tiles)) % 3 == 2:
        return f"{tiles}: not complete (shanten {number})"
    return f"{tiles}: not tenpai (shanten {number})"
