"""Instruction counts of the README's per-pass figures, this checkout beside another (callgrind: no drift with the
machine's load or speed, so two releases compare exactly, run minutes or days apart).

Run: ``python benchmarks/instructions.py [--baseline DIR] [--only replay,score,jsonl,selfplay,peer]`` (needs valgrind;
some minutes). ``DIR`` is another checkout of the project, e.g. ``git worktree add --detach ../base <commit>``.

Each figure is a difference of whole processes run alike, so that what every process pays (start-up, imports,
the rulebook's compile, reading the inputs) cancels out:

replay     the first 20 vendored mjlog logs read, two of them replayed untimed (the rulebooks compiled, the
           collector frozen), then 0, 1 or 2 passes over the 20: first pass = I(1) - I(0), warm = I(2) - I(1)
score      ``Scorer.score_json`` over the first 1,000 of ``benchmarks/score.py``'s requests (``tests/peer_oracle.py``
           ``random_requests(20260301, 5000)``), 0, 1 or 2 passes: per request, first pass and again
jsonl      ``riichi score --json`` fed 1,001 of those requests as JSON lines, less the same fed one: per request
selfplay   12 self-played games (``tenhou``, random agents, seeds 0-11), less the same process playing none
peer       the ``mahjong`` peer over the same 1,000 requests as ``score`` (``benchmarks/peer_jsonl.py``'s conversion
           of a request, which imports nothing of ours, then ``estimate_hand_value``), 0, 1 or 2 passes: per
           request, first pass and again, printed beside ours with the ratio (the peer's instructions over ours;
           counted for this checkout only: the peer is the same beside any baseline)

Both trees are byte-compiled first, as an installed package is. A whole process in a checkout that has never
written its source-fingerprint stamp (``ruledsl.package_files``: not written when bytecode is not, e.g. under
``PYTHONDONTWRITEBYTECODE``) counts some millions of instructions more at every start: the differences above are
unaffected.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FIGURES = ("replay", "score", "jsonl", "selfplay", "peer")

_REPLAY = """
import gc, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from engine.replay.compare import rulebook_for
from engine.replay.rounds import ReplayReport, game_start, read_events, replay_events
from engine.round.rules import round_rules
from engine.scoring import library
logs = sorted(Path({root!r}, "tests", "data", "tenhou", "mjlog").iterdir())[:20]
games = [(p.name, read_events(p)) for p in logs]
def run(gs):
    report = ReplayReport()
    for name, events in gs:
        replay_events(events, round_rules(library.scorer(rulebook_for(game_start(events)))), name, report)
run(games[:2])
gc.freeze()
for _ in range({passes}):
    run(games)
"""

_SCORE = """
import json, sys
sys.path.insert(0, {root!r})
from engine.scoring.library import scorer
requests = [json.loads(line) for line in open({requests!r}, encoding="utf-8")]
score_json = scorer("house").score_json
for _ in range({passes}):
    for request in requests:
        score_json(request)
"""

_PEER = """
import json, sys
sys.path.insert(0, {root!r})
from benchmarks.peer_jsonl import peer_arguments
from mahjong.hand_calculating.hand import HandCalculator
requests = [json.loads(line) for line in open({requests!r}, encoding="utf-8")]
estimate = HandCalculator.estimate_hand_value
for _ in range({passes}):
    for request in requests:
        estimate(**peer_arguments(request))
"""

_JSONL = """
import sys
sys.path.insert(0, {root!r})
sys.argv = ["riichi", "score", "--json"]
sys.stdin = open({requests!r}, encoding="utf-8")
from engine.cli import console
console()
"""

_SELFPLAY = """
import sys
sys.path.insert(0, {root!r})
from engine.game import Game
from engine.scoring.library import rulebook
book = rulebook("tenhou")
for seed in range({games}):
    Game(book, seed, "random").play()
"""


def count(code: str, root: Path) -> int:
    """Instructions of one ``python -c code`` run (callgrind, ``PYTHONHASHSEED=0``), from ``root``."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        env["PYTHONHASHSEED"] = "0"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", code],
            cwd=root, capture_output=True, check=True, env=env,
        )
        with open(out, encoding="utf-8") as counts:
            for line in counts:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    raise SystemExit("callgrind wrote no summary")


def request_files(root: Path, folder: str) -> tuple[str, str, str]:
    """The first 1,000 requests, and 1 and 1,001 of them as JSON lines, written by ``root``'s own generator."""
    code = (
        f"import json, sys; sys.path.insert(0, {str(root)!r}); from tests.peer_oracle import random_requests; "
        "print(json.dumps(random_requests(20260301, 5000)[:1001]))"
    )
    made = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    requests = json.loads(made.stdout)
    paths = []
    for name, chosen in (("score", requests[:1000]), ("one", requests[:1]), ("all", requests)):
        path = os.path.join(folder, f"{name}.jsonl")
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(r) + "\n" for r in chosen)
        paths.append(path)
    return paths[0], paths[1], paths[2]


PEER_FIRST = "peer, score first pass (k per request)"
PEER_AGAIN = "peer, score again (k per request)"


def figures(root: Path, only: tuple[str, ...]) -> dict[str, float]:
    """Each figure of ``only`` for the checkout at ``root``, in instructions (per request for scoring)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "ruledsl", "rulebooks"], cwd=root, check=True)
    found: dict[str, float] = {}
    here = str(root)
    if "replay" in only:
        i0, i1, i2 = (count(_REPLAY.format(root=here, passes=n), root) for n in (0, 1, 2))
        found["replay, first pass (M)"] = (i1 - i0) / 1e6
        found["replay, warm pass (M)"] = (i2 - i1) / 1e6
    with tempfile.TemporaryDirectory() as folder:
        scored, one, every = request_files(root, folder)
        if "score" in only:
            i0, i1, i2 = (count(_SCORE.format(root=here, requests=scored, passes=n), root) for n in (0, 1, 2))
            found["score_json, first pass (k per request)"] = (i1 - i0) / 1000 / 1e3
            found["score_json, again (k per request)"] = (i2 - i1) / 1000 / 1e3
        if "peer" in only:
            i0, i1, i2 = (count(_PEER.format(root=here, requests=scored, passes=n), root) for n in (0, 1, 2))
            found[PEER_FIRST] = (i1 - i0) / 1000 / 1e3
            found[PEER_AGAIN] = (i2 - i1) / 1000 / 1e3
        if "jsonl" in only:
            fed_one = count(_JSONL.format(root=here, requests=one), root)
            fed_all = count(_JSONL.format(root=here, requests=every), root)
            found["JSON lines (k per further request)"] = (fed_all - fed_one) / 1000 / 1e3
    if "selfplay" in only:
        none, twelve = (count(_SELFPLAY.format(root=here, games=n), root) for n in (0, 12))
        found["self-play, 12 games (M)"] = (twelve - none) / 1e6
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout of the project, counted beside this one")
    parser.add_argument("--only", default=",".join(FIGURES), help=f"a comma-separated subset of {', '.join(FIGURES)}")
    args = parser.parse_args(argv)
    only = tuple(name.strip() for name in args.only.split(",") if name.strip())
    unknown = [name for name in only if name not in FIGURES]
    if unknown:
        parser.error(f"unknown figure {', '.join(unknown)}: choose among {', '.join(FIGURES)}")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: these figures are counted by callgrind", file=sys.stderr)
        return 2
    with open(sys.executable, "rb") as start:
        if start.read(2) == b"#!":
            print(f"{sys.executable} is a script, not the interpreter: callgrind would count the script's shell", file=sys.stderr)
            return 2
    if args.baseline is not None and not (args.baseline / "engine").is_dir():
        parser.error(f"--baseline {args.baseline}: not a checkout of this project (no engine/ folder)")
    ours = figures(ROOT, only)
    base = figures(args.baseline.resolve(), tuple(n for n in only if n != "peer")) if args.baseline is not None else None
    print("instructions (callgrind, PYTHONHASHSEED=0, byte-compiled); each a difference of processes run alike")
    print(f"{'figure':42} {'this checkout':>14}" + (f" {'baseline':>10} {'change':>8}" if base else ""))
    for name, value in ours.items():
        line = f"{name:42} {value:14.1f}"
        if base and name in base:
            line += f" {base[name]:10.1f} {100 * (value - base[name]) / base[name]:+7.1f}%"
        print(line)
    for peer, mine in ((PEER_FIRST, "score_json, first pass (k per request)"), (PEER_AGAIN, "score_json, again (k per request)")):
        if peer in ours and mine in ours:
            print(f"{peer.split(', ', 1)[1].split(' (')[0]}: the peer runs {ours[peer] / ours[mine]:.2f}x our instructions a request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
