"""``riichi replay``: play every round of real game logs through the round engine under a rulebook, report what
differs (readable text, or the contract's JSON with ``--json``).

Exit 0 when every round matches, 1 when some round differs or some file could not be read (each bad file is
reported and skipped; every good one is still replayed), 2 when no path exists or nothing could be replayed (no
log among the paths, or none readable: the files are named on stderr), 3 when the engine itself failed on a round
(a bug of ours, never counted as the log differing: one line on stderr naming the round, asking for a report).

``--narrate`` (as on ``riichi play``) tells each replayed round in words before the report (``engine.protocol.narrate``):
the deal, calls, riichi, kita, new dora, wins with their yaku as the rulebook scores them, draws, payments, and
each game's final table; ``--discards`` lists every discard too.

``--workers N`` replays the files in N processes (``engine.core.pool``, as ``riichi impact`` does), each file's
part of the report (and its story) merged in the order of the files, so the output is the same for every N. The
default is all cores, never more workers than files: one file is replayed in this process, with no pool to start
(a file is never split), while a folder's files share the cores. Ctrl-C ends the workers with the run: one line
on stderr, exit 130.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path

from engine.cli import no_collections
from engine.cli.arguments import positive
from engine.cli.narrate_flags import add_narrate
from engine.core.errors import InvalidRequest
from engine.replay.rounds import ReplayReport, replay
from engine.replay.through_round import RoundReplay
from engine.scoring import library
from engine.scoring.score import Scorer

EXIT_MATCH, EXIT_MISMATCH, EXIT_BAD_INPUT = 0, 1, 2
SHOWN = 50


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="PATH",
        help="mjlog XML, tenhou.net/6 JSON or mjai JSON-lines (.mjson, .jsonl, .json) files, or folders of them",
    )
    parser.add_argument("--rulebook", default=None, help="replay under this rulebook (default: the log's own rules)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--workers", type=positive, default=None,
        help="worker processes (default: all cores, at most one per file: a single file is replayed without a pool); the report is the same for any count",
    )
    add_narrate(parser)


class _Story:
    """``--narrate``: each replayed round in words, a header per file and each game's final table (the points the
    last round settled) at the end of its file. Kept as lines until the file is done (``told``), so that a worker
    process sends back the words of its file and they are printed in the order of the files."""

    def __init__(self, discards: bool) -> None:
        self.discards = discards
        self.source: str | None = None
        self.last: list[int] | None = None
        self.lines: list[str] = []

    def __call__(self, source: str, played: RoundReplay) -> None:
        from engine.protocol.narrate import round_lines

        if source != self.source:
            self._close()
            self.source = source
            self.lines.append(f"Game {source}:")
        rnd = played.round
        if rnd is None:
            self.lines.append(f"{played.label}: not replayed: {'; '.join(m.text() for m in played.mismatches)}")
            self.last = None
            return
        self.lines.extend(round_lines(rnd.log, rnd.settled, discards=self.discards))
        self.lines.extend(f"  Mismatch: {m.text()}" for m in played.mismatches)
        self.last = list(rnd.settled.scores) if rnd.settled is not None else None

    def told(self) -> str:
        self._close()
        text, self.lines = "\n".join(self.lines), []
        return text

    def _close(self) -> None:
        from engine.protocol.narrate import final_lines

        if self.source is not None and self.last is not None:
            self.lines.extend(final_lines(self.last))
        self.source, self.last = None, None


class _Progress:
    """A one-line progress bar on a terminal's stderr; silent when stderr is not a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.started = time.monotonic()
        self.shown = False

    def __call__(self, number: int, total: int, name: str) -> None:
        if not self.enabled or total < 2 or time.monotonic() - self.started < 0.5:
            return
        width = 30
        filled = width * number // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {number}/{total} {Path(name).name[:40]:<40}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 80 + "\r")
            sys.stderr.flush()
            self.shown = False


def run(args: argparse.Namespace) -> int:
    for raw in args.paths:
        if not Path(raw).exists():
            raise InvalidRequest(f"`{raw}` does not exist")
    if args.rulebook is not None:
        library.scorer(args.rulebook)  # an unknown or broken rulebook is bad input before any log is read
    narrate = args.narrate or args.discards
    if narrate and args.json:
        raise InvalidRequest("--narrate prints words and --json prints JSON: choose one")
    progress = _Progress(enabled=not args.json and not narrate and sys.stderr.isatty())
    story = _Story(args.discards) if narrate else None
    try:
        report = replay(args.paths, args.rulebook, scorer_frozen, progress=progress, narrator=story, on_story=print, workers=args.workers)
    except KeyboardInterrupt:
        progress.close()
        print("riichi replay: interrupted", file=sys.stderr)
        raise
    finally:
        progress.close()
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        _print_text(report)
    if report.games == 0:
        _nothing_read(report)
        return EXIT_BAD_INPUT
    return EXIT_MATCH if not report.mismatches and not report.errors else EXIT_MISMATCH


def scorer_frozen(name: str) -> Scorer:
    """``library.scorer`` for the replay, asked once per rulebook a run meets: loaded with the garbage collector
    paused, then everything alive (modules, the compiled rulebook and its tables) moved out of its sight
    (``gc.freeze``), as ``riichi score --json`` does. These objects stay alive to the end of the run, and every full
    collection the replayed rounds trigger would walk them all again."""
    with no_collections():
        scorer = library.scorer(name)
    gc.freeze()
    return scorer


def _nothing_read(report: ReplayReport) -> None:
    """Say on stderr why no game was replayed, naming the files: none could be read, or none was a log."""
    if report.errors:
        shown = "; ".join(f"{e['file']}: {e['message'].removeprefix(e['file'] + ': ')}" for e in report.errors[:5])
        more = f"; and {len(report.errors) - 5:,} more" if len(report.errors) > 5 else ""
        print(f"riichi replay: error: no game log could be read: {shown}{more}", file=sys.stderr)
    else:
        skipped = ", ".join(note["file"] for note in report.skipped[:5]) or "none"
        print(f"riichi replay: error: no game log among the paths (skipped: {skipped})", file=sys.stderr)


def _print_text(report: ReplayReport) -> None:
    for error in report.errors:
        message = error["message"].removeprefix(f"{error['file']}: ")
        print(f"{error['file']}: not replayed: {message}")
    for note in report.skipped:
        print(f"{note['file']}: skipped: {note['reason']}")
    for note in report.notes:
        print(f"{note['file']}: note: {note['note']}")
    for m in report.mismatches[:SHOWN]:
        print(f"{m['file']} {m['text']}")
    if len(report.mismatches) > SHOWN:
        print(f"... and {len(report.mismatches) - SHOWN} more mismatches (--json lists them all)")
    print(
        f"{report.games} games, {report.rounds} rounds, {report.rounds_matched} matched, {report.wins} wins, "
        f"{report.actions} moves checked, {len(report.mismatches)} mismatches"
        + (f", {len(report.errors)} files not replayed" if report.errors else "")
    )
