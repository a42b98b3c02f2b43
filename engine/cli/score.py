"""``riichi score``: one hand with a readable breakdown, or a JSON-lines batch where every line is answered."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from typing import Any

from engine import library
from engine.errors import EngineError, InvalidRequest
from engine.score import Scorer

FLAGS = ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou")
EXIT_SCORED, EXIT_NOT_A_WIN, EXIT_BAD_INPUT = 0, 1, 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", nargs="?", help="concealed tiles with the winning tile, e.g. 234m567m789p46s88p5s")
    parser.add_argument("--win", help="the winning tile, e.g. 5s")
    parser.add_argument("--rulebook", default=None, help="bundled name or path (default: the contract's default rulebook)")
    parser.add_argument("--json", action="store_true", help="read JSON score requests from stdin, one per line")
    parser.add_argument("--tsumo", action="store_true", help="self-drawn (default: ron)")
    parser.add_argument("--seat", default="E", choices="ESWN", help="seat wind (E = dealer)")
    parser.add_argument("--round", default="E", choices="ESWN", help="round wind")
    for meld in ("chi", "pon", "daiminkan", "kakan", "ankan"):
        parser.add_argument(f"--{meld}", action="append", default=[], metavar="TILES", help=f"a {meld} meld")
    for flag in FLAGS:
        parser.add_argument(f"--{flag.replace('_', '-')}", dest=flag, action="store_true")
    parser.add_argument("--dora", default="", help="dora indicators")
    parser.add_argument("--ura", default="", help="ura dora indicators")
    parser.add_argument("--kita", type=int, default=0)
    parser.add_argument("--honba", type=int, default=0)
    parser.add_argument("--sticks", type=int, default=0, help="riichi sticks on the table")


def run(args: argparse.Namespace) -> int:
    if args.hand is None:
        if not args.json:
            print("riichi score: error: give a HAND and --win, or --json to read requests from stdin", file=sys.stderr)
            return EXIT_BAD_INPUT
        return _batch(args.rulebook)
    request = _request_from_args(args)
    try:
        scorer = library.scorer(request.get("rulebook") or library.DEFAULT_RULEBOOK)
        result = scorer.score(request)
    except EngineError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": exc.to_json()}))
        else:
            print(f"riichi score: {exc.code}: {exc.message}", file=sys.stderr)
        return EXIT_NOT_A_WIN if exc.code in ("not_a_win", "no_yaku") else EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(render(result, request))
    return EXIT_SCORED


def _request_from_args(args: argparse.Namespace) -> dict[str, Any]:
    if not args.win:
        raise InvalidRequest("--win is required: the winning tile, e.g. --win 5s")
    melds = [{"type": t, "tiles": tiles} for t in ("chi", "pon", "daiminkan", "kakan", "ankan") for tiles in getattr(args, t)]
    request: dict[str, Any] = {
        "hand": args.hand,
        "win": args.win,
        "melds": melds,
        "tsumo": args.tsumo,
        "seat_wind": args.seat,
        "round_wind": args.round,
        "dora_indicators": args.dora,
        "ura_indicators": args.ura,
        "kita": args.kita,
        "honba": args.honba,
        "riichi_sticks": args.sticks,
    }
    for flag in FLAGS:
        request[flag] = getattr(args, flag)
    if args.rulebook:
        request["rulebook"] = args.rulebook
    return request


def _batch(default_rulebook: str | None) -> int:
    """Answer every stdin line in order; a bad line gets ``ok: false`` and the rest go on."""
    write = sys.stdout.write
    dumps = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode  # answers are trees, never cyclic
    scorers = _Scorers()
    for line in sys.stdin:
        if not line.strip():
            continue
        write(dumps(answer_line(line, default_rulebook, scorers)) + "\n")
    sys.stdout.flush()
    return EXIT_SCORED


class _Scorers(dict):
    """The scorers a batch has used. After loading one, everything alive then (modules, compiled rulebooks) is
    moved out of the garbage collector's sight (``gc.freeze``): it lives as long as the process, and the
    collections a long batch triggers then walk only what the hands themselves leave behind."""

    def __missing__(self, name: str) -> Scorer:
        scorer = self[name] = library.scorer(name)
        gc.freeze()
        return scorer


def answer_line(line: str, default_rulebook: str | None, scorers: dict[str, Scorer] | None = None) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        return {"ok": False, "error": {"code": "invalid_request", "message": f"not valid JSON: {exc}"}}
    try:
        if not isinstance(data, dict):
            from engine.request import parse_request  # imported on first need (see engine.plain_request)

            parse_request(data)  # raises the contract's invalid_request
        named = data.get("rulebook")
        if named is not None and not isinstance(named, str):
            from engine.request import parse_request

            named = parse_request(data).rulebook  # raises: `rulebook` must be a string
        name = named or default_rulebook or library.DEFAULT_RULEBOOK
        return (scorers[name] if scorers is not None else library.scorer(name)).score(data)
    except EngineError as exc:
        return {"ok": False, "error": exc.to_json()}


def render(result: dict[str, Any], request: dict[str, Any]) -> str:
    """A breakdown a player can check by hand: yaku and han, fu items, the formula, who pays, each clause."""
    lines = [f"{request['hand']} win {request['win']} ({'tsumo' if request.get('tsumo') else 'ron'}) under {result['rulebook']}"]
    width = max((len(y["name"]) for y in result["yaku"]), default=10)
    for y in result["yaku"]:
        value = f"yakuman x{y['yakuman']}" if "yakuman" in y else f"{y['han']} han"
        lines.append(f"  {y['name']:<{width}}  {value:<12} [{y.get('clause') or ''}]")
    if not result["yakuman"] or result["limit"] != "yakuman":
        items = " + ".join(f"{f['id']} {f['fu']}" for f in result["fu_items"])
        lines.append(f"  fu: {items} -> {result['fu']} fu")
    if result["limit"]:
        lines.append(f"  {result['han']} han {result['fu']} fu: {result['limit']}, base {result['base_points']}")
    else:
        lines.append(f"  base = {result['fu']} x 2^({result['han']} + 2) = {result['base_points']}")
    pays = ", ".join(f"{who} {amount}" for who, amount in result["payments"].items())
    lines.append(f"  payments: {pays}")
    lines.append(f"  total: {result['total']}")
    return "\n".join(lines)
