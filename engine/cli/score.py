"""``riichi score``: one hand with a readable breakdown, or a JSON-lines batch where every line is answered."""

from __future__ import annotations

import gc
import itertools
import json
import sys
from types import SimpleNamespace

from engine.cli import no_collections
from engine.cli.arguments import checked_tiles, load_scorer
from engine.cli.score_text import render
from engine.core.errors import EngineError, InvalidRequest
from engine.core.situation import COUNTER_FIELDS, FLAG_FIELDS, counter_dest
from engine.scoring import library
from engine.scoring.score import Scorer
from engine.services.answers import encode_shared, loads
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import Any

FLAGS = tuple(name for name in FLAG_FIELDS if name != "tsumo")  # each a --flag; tsumo has its own help text
EXIT_SCORED, EXIT_NOT_A_WIN, EXIT_BAD_INPUT = 0, 1, 2
# The entries each cache of a JSON-lines batch keeps (``ruledsl.memo.set_entry_cap``): uncapped, the caches of a
# long batch grow with every new hand until they are most of its memory. A lower cap empties the decomposition
# caches over and over and costs speed per request; a higher one lets memory grow. ``benchmarks/memory.py`` measures
# a batch of 100,000 requests under these bounds (its peak and its growth), ``benchmarks/score.py`` its speed.
BATCH_ENTRY_CAP = 4096
# ... and all of them together, checked every ``TRIM_EVERY`` answers (``ruledsl.memo.trim``): caches with rare keys
# take hundreds of thousands of hands to fill, so without a total the batch's memory crept up until every one was full.
# The total drops the largest caches first, which in such traffic are those whose keys rarely repeat (readings of
# whole hands, hands' notation).
BATCH_ENTRY_BUDGET = 8192
TRIM_EVERY = 256
# Requests of a batch a rulebook's reference scorer answers before its fast scorer is built (``_Warming``): the fast
# one costs more to build than a few requests save with it, and saves far more than that over a long batch, so a
# batch of one request (a program asking once per process) does not build it, and a long batch answers its first
# few requests the slower way. When the lines already arrived show that a batch goes past its ``FAST_AFTER``-th
# request under a rulebook (a file, or a whole batch piped in), its fast scorer is built at once
# (``_lines_waiting``). ``benchmarks/startup.py`` measures the one-request process, ``benchmarks/score.py`` the batch.
FAST_AFTER = 16


def configure(parser: argparse.ArgumentParser) -> None:
    """The options, built by argparse (``engine.cli.score_options``) only when ``engine.cli.score_args`` leaves the
    reading to it."""
    from engine.cli.score_options import configure as add_options

    add_options(parser)


def run(args: argparse.Namespace | SimpleNamespace) -> int:
    if not args.hand:
        if not args.json:
            print("riichi score: error: give a HAND and --win, or --json to read requests from stdin", file=sys.stderr)
            return EXIT_BAD_INPUT
        return _batch(args.rulebook, args.rulebook_dir)
    try:
        request = _request_from_args(args)
        with no_collections():  # one hand: loading the rulebook is the work, and it frees nothing
            scorer = load_scorer(request.get("rulebook") or library.DEFAULT_RULEBOOK, plain=True)
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
        print(render(result, request, players=scorer.prepared.players, seat_given=args.seat is not None))
    return EXIT_SCORED


def _request_from_args(args: argparse.Namespace | SimpleNamespace) -> dict[str, Any]:
    if not args.win:
        raise InvalidRequest("--win is required: the winning tile, e.g. --win 5s")
    hand = " ".join(args.hand)
    checked_tiles("HAND", hand)
    checked_tiles("--win", args.win)
    melds = []
    for kind, tiles in getattr(args, "melds_in_order", None) or []:
        checked_tiles(f"--{kind}", tiles)
        melds.append({"type": kind, "tiles": tiles})
    checked_tiles("--dora", args.dora)
    checked_tiles("--ura", args.ura)
    request: dict[str, Any] = {
        "hand": hand,
        "win": args.win,
        "melds": melds,
        "tsumo": args.tsumo,
        "seat_wind": args.seat or "E",
        "round_wind": args.round,
        "dora_indicators": args.dora,
        "ura_indicators": args.ura,
        **{name: getattr(args, counter_dest(name)) for name in COUNTER_FIELDS},
    }
    for flag in FLAGS:
        request[flag] = getattr(args, flag)
    if args.liable:
        request["liable"] = args.liable
    if args.discarder:
        request["from"] = args.discarder
    if args.rulebook:
        request["rulebook"] = args.rulebook
    return request


def _batch(default_rulebook: str | None, rulebook_dirs: list[str] | None = None) -> int:
    """Answer every stdin line in order (``engine.cli.jsonlines``); a bad line gets ``ok: false`` and the rest go
    on. Requests may name only the rulebooks the operator allowed (``library.RulebookPolicy``)."""
    from engine.cli import jsonlines
    from ruledsl import memo

    policy = library.RulebookPolicy.of(default_rulebook, rulebook_dirs)
    source = getattr(sys.stdin, "buffer", None)
    scorers = _Scorers(policy.folders, waiting=(lambda: _lines_waiting(source)) if source is not None else None)
    previous = memo.set_entry_cap(BATCH_ENTRY_CAP)
    answered = itertools.count(1)

    def answer(line: str) -> dict[str, Any]:
        if next(answered) % TRIM_EVERY == 0:  # between two requests: no entry is being read back
            memo.trim(BATCH_ENTRY_BUDGET)
        return answer_line(line, default_rulebook, scorers, policy, shared=True)

    try:
        return jsonlines.serve(answer, source, encode=encode_shared)  # each answer written at once, then dropped
    finally:
        memo.set_entry_cap(previous)  # a caller in the same process (a test, an embedding) gets its caches back


class _Scorers(dict):
    """The scorers a batch has used, by rulebook reference, at most ``library.CACHE_SIZE`` of them (the least
    recently added is dropped). After loading one, everything alive then (modules, compiled rulebooks) is moved
    out of the garbage collector's sight (``gc.freeze``): the collections a long batch triggers then walk only
    what the hands themselves leave behind."""

    def __init__(self, within: tuple[str, ...] | None = None, waiting: Callable[[], int] | None = None) -> None:
        super().__init__()
        self.within = within  # the folders the rulebooks' files must lie in (``RulebookPolicy.folders``)
        self.waiting = waiting  # how many further request lines have arrived already (``_lines_waiting``)

    def __missing__(self, name: str) -> Scorer | _Warming:
        with no_collections():
            if self.waiting is not None and self.waiting() >= FAST_AFTER:  # a long batch: its fast scorer at once
                scorer: Scorer | _Warming = library.scorer(name, within=self.within)
            else:
                scorer = _Warming(self, name, Scorer(library.rulebook(name, within=self.within), reference=True))
        if len(self) >= library.CACHE_SIZE:
            del self[next(iter(self))]
        self[name] = scorer
        gc.freeze()
        return scorer

    def fast(self, name: str) -> Scorer:
        """The shared fast scorer of a rulebook, in place of its ``_Warming`` one."""
        with no_collections():
            scorer = library.scorer(name, within=self.within)
        if name in self:
            self[name] = scorer
        gc.freeze()
        return scorer


def _lines_waiting(source: Any) -> int:
    """How many further lines of ``source`` (stdin's byte stream) are known to have arrived, found without waiting
    for anything: when more has arrived than its buffer holds (a file, or a batch piped in whole), the lines in its
    buffer; else 0, as the buffer cannot be looked at without perhaps waiting (a program that sends one request
    and waits for its answer has sent nothing more)."""
    import select

    try:
        ready, _, _ = select.select([source], [], [], 0)  # the stream's descriptor: readable, or at its end
        if not ready:  # nothing more has arrived; its buffer may hold lines, but looking there could wait
            return 0
        return source.peek().count(b"\n")  # one read at most, of what has arrived, when the buffer is empty
    except (AttributeError, OSError, ValueError, TypeError):  # not a buffered stream of a descriptor select takes
        return 0


class _Warming:
    """A rulebook's scorer for a batch's first ``FAST_AFTER`` requests under it: the reference scorer
    (``engine.cli.arguments.load_scorer``'s ``plain`` one, whose answers are the fast scorer's); then the shared
    fast scorer takes its place in the batch's table and answers the rest, or sooner, once the lines already
    arrived show that the batch goes on past them (``_Scorers.waiting``)."""

    __slots__ = ("scorers", "name", "plain", "left")

    def __init__(self, scorers: _Scorers, name: str, plain: Scorer) -> None:
        self.scorers, self.name, self.plain, self.left = scorers, name, plain, FAST_AFTER

    def _plain_answers(self) -> bool:
        """Whether this request is the reference scorer's (and counts it)."""
        self.left -= 1
        waiting = self.scorers.waiting
        return self.left >= 0 and (waiting is None or waiting() <= self.left)

    def score(self, request: dict[str, Any], *, chosen: bool = False) -> dict[str, Any]:
        if self._plain_answers():
            return self.plain.score(request, chosen=chosen)
        return self.scorers.fast(self.name).score(request, chosen=chosen)

    def score_shared(self, request: dict[str, Any], *, chosen: bool = False) -> dict[str, Any]:
        if self._plain_answers():
            return self.plain.score_shared(request, chosen=chosen)
        return self.scorers.fast(self.name).score_shared(request, chosen=chosen)


def answer_line(
    line: str,
    default_rulebook: str | None,
    scorers: dict[str, Scorer] | _Scorers | None = None,
    policy: library.RulebookPolicy | None = None,
    *,
    shared: bool = False,
) -> dict[str, Any]:
    """The answer to one request line; the request's ``rulebook`` must be one ``policy`` allows (by default:
    a bundled rulebook or ``default_rulebook``). ``shared``: the caller writes the answer out at once and drops
    it, so its result lines may be the rulebook's kept ones (``Scorer.score_shared``)."""
    try:
        data = loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        return {"ok": False, "error": {"code": "invalid_request", "message": f"not valid JSON: {exc}"}}
    try:
        if not isinstance(data, dict):
            from engine.scoring.request import (
                parse_request,  # imported on first need (see engine.scoring.plain_request)
            )

            parse_request(data)  # raises the contract's invalid_request
        named = data.get("rulebook")
        if named is not None and not isinstance(named, str):
            from engine.scoring.request import parse_request

            named = parse_request(data).rulebook  # raises: `rulebook` must be a string
        policy = policy or library.RulebookPolicy.of(default_rulebook)
        name = policy.default if named is None else policy.choose(named)  # most requests name none
        scorer = scorers[name] if scorers is not None else library.scorer(name, within=policy.folders)
        return scorer.score_shared(data, chosen=True) if shared else scorer.score(data, chosen=True)
    except EngineError as exc:
        return {"ok": False, "error": exc.to_json()}
