"""Peak and sampled resident memory of ``riichi score --json`` fed N hands, beside the ``mahjong`` peer's loop.

Run: ``python benchmarks/memory.py [--hands 1,10000,100000] [--big] [--interval S] [--side both|ours|peer]``. ``--big`` adds
200,000 and 600,000 hands (several minutes on a 2-core machine; the hands alone take about 20 s per 100,000 to
generate, once, into a file under the system's temporary folder that later runs reuse).

Each process is fed the same random score requests (``tests.peer_oracle.random_request``: complete hands with
calls, red fives, dora and random situations, about 10% not a win or without a yaku) from a file on its stdin, its
answers counted as they arrive; its resident set (``VmRSS``) is sampled every ``--interval`` seconds (default
0.25) against the number of answers so far, and its peak is the kernel's own high-water mark (``ru_maxrss``), not
a sample. Linux carries a process's ``ru_maxrss`` over from the process that forked it, so a child of this script
would report at least this script's size: each process is started by a small launcher (``LAUNCHER``, a bare
interpreter of about 10 MiB, less than any process measured) that reports its child's figure. A long batch whose memory is flat shows the same RSS at half way as at the end;
one that grows (a cache that is not bounded, strings kept forever, a collector that cannot keep up) shows a slope,
printed as MiB per 100,000 hands over the second half of the run.

ours      ``riichi score --json`` (the console script beside this interpreter, modules byte-compiled first).
peer      ``benchmarks/peer_jsonl.py``: the same JSON-lines loop around ``mahjong``'s ``HandCalculator``; it imports
          nothing of ours (``tests/engine/test_peer_jsonl_independent.py``), so its memory is the peer's alone.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_SIZES = (1, 10_000, 100_000)
BIG_SIZES = (200_000, 600_000)
SEED = 20261201


def hands_file(count: int, seed: int) -> Path:
    """A file of ``count`` request lines (the first ``count`` of the stream for ``seed``), written once and kept:
    generating them costs more than scoring them."""
    path = Path(tempfile.gettempdir()) / f"riichi-memory-{seed}-{count}.jsonl"
    if path.exists():
        return path
    partial = path.with_suffix(".partial")
    longer = sorted(Path(tempfile.gettempdir()).glob(f"riichi-memory-{seed}-*.jsonl"), key=lambda p: -int(p.stem.rsplit("-", 1)[1]))
    if longer and int(longer[0].stem.rsplit("-", 1)[1]) > count:  # the same stream, cut short
        with longer[0].open("rb") as source, partial.open("wb") as out:
            for _ in range(count):
                out.write(source.readline())
    else:
        from tests.peer_oracle import random_request  # the peer cross-check's generator (imports mahjong)

        rng = random.Random(seed)
        with partial.open("w", encoding="utf-8") as out:
            for _ in range(count):
                out.write(json.dumps(random_request(rng)) + "\n")
    partial.replace(path)
    return path


def our_command() -> list[str]:
    """``riichi`` beside this interpreter, not a shell shim (which would be a process of its own to sample)."""
    script = Path(sys.executable).parent / "riichi"
    if not script.exists():
        raise SystemExit(f"no console script at {script}: install the package first (pip install -e .)")
    return [str(script), "score", "--json"]


def peer_command() -> list[str]:
    return [sys.executable, str(ROOT / "benchmarks" / "peer_jsonl.py")]


def byte_compile() -> None:
    """Our modules' bytecode, as an installed package has it (the peer was installed so)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "ruledsl", "rulebooks"], cwd=ROOT, check=True)


# Runs argv[1:], its stderr dropped, and prints its peak RSS (KiB) on stderr when it exits, with its exit code.
LAUNCHER = (
    "import os, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[1:], stderr=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "child.returncode = 0\n"
    "sys.stderr.write(f'{usage.ru_maxrss}\\n')\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def child_of(pid: int) -> int | None:
    """The launcher's one child, once it has started."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as children:
            found = children.read().split()
    except OSError:
        return None
    return int(found[0]) if found else None


def rss_kib(pid: int) -> int | None:
    """The process's resident set now (KiB), or None once it has exited."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def run(command: list[str], source: Path, interval: float) -> dict:
    """Feed ``source`` to ``command``; returns its answers, seconds, peak RSS (KiB) and (answers, RSS KiB) samples."""
    answered = [0]

    def drain(stream) -> None:  # counts answer lines as they arrive: the progress the samples are plotted against
        for chunk in iter(lambda: stream.read(1 << 16), b""):
            answered[0] += chunk.count(b"\n")

    samples: list[tuple[int, int]] = []
    start = time.perf_counter()
    with source.open("rb") as stdin:
        launcher = [sys.executable, "-c", LAUNCHER, *command]
        proc = subprocess.Popen(launcher, cwd=ROOT, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        reader = threading.Thread(target=drain, args=(proc.stdout,), daemon=True)
        reader.start()
        child = None
        while reader.is_alive():
            child = child or child_of(proc.pid)
            rss = rss_kib(child) if child else None
            if rss is not None:
                samples.append((answered[0], rss))
            reader.join(interval)
        report = proc.stderr.read().decode("ascii", "replace").split()
        proc.wait()
    seconds = time.perf_counter() - start
    if proc.returncode != 0 or not report or not report[-1].isdigit():
        raise SystemExit(f"{' '.join(command)} exited {proc.returncode}")
    return {"answers": answered[0], "seconds": seconds, "peak": int(report[-1]), "samples": samples}


def slope(samples: list[tuple[int, int]], hands: int) -> float | None:
    """MiB per 100,000 hands over the second half of the run (least squares), None when too short to tell."""
    late = [(n, rss) for n, rss in samples if n >= hands // 2]
    if hands < 10_000 or len(late) < 4:
        return None
    mean_n = sum(n for n, _ in late) / len(late)
    mean_r = sum(r for _, r in late) / len(late)
    spread = sum((n - mean_n) ** 2 for n, _ in late)
    if spread == 0:
        return None
    per_hand = sum((n - mean_n) * (r - mean_r) for n, r in late) / spread
    return per_hand * 100_000 / 1024


def at_fraction(samples: list[tuple[int, int]], hands: int, fraction: float) -> float | None:
    """RSS (MiB) of the last sample taken before ``fraction`` of the hands were answered."""
    before = [rss for n, rss in samples if n <= hands * fraction]
    return before[-1] / 1024 if before else None


def report(name: str, hands: int, result: dict) -> None:
    cells = [at_fraction(result["samples"], hands, f) for f in (0.25, 0.5, 0.75, 1.0)]
    shown = " ".join(f"{c:6.1f}" if c is not None else "     -" for c in cells)
    growth = slope(result["samples"], hands)
    grows = f"{growth:+6.2f}" if growth is not None else "     -"
    print(f"{name:6} {hands:>9,d} {result['seconds']:8.1f} {result['peak'] / 1024:7.1f}  {shown}  {grows}", flush=True)
    if result["answers"] != hands:
        print(f"       ! {result['answers']:,} answers to {hands:,} lines", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default=",".join(map(str, DEFAULT_SIZES)), help="comma-separated batch sizes (default 1,10000,100000)")
    parser.add_argument("--big", action="store_true", help="also 200,000 and 600,000 hands (minutes)")
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between RSS samples (default 0.25)")
    parser.add_argument("--side", choices=("both", "ours", "peer"), default="both", help="whose process to run (default both)")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    try:
        sizes = sorted({int(word) for word in args.hands.split(",") if word.strip()} | (set(BIG_SIZES) if args.big else set()))
    except ValueError:
        raise SystemExit(f"--hands: expected comma-separated whole numbers, got {args.hands!r}") from None
    if not sizes or sizes[0] < 1 or args.interval <= 0:
        raise SystemExit("--hands must list numbers of at least 1, --interval must be positive")
    byte_compile()
    print("RSS in MiB: peak (ru_maxrss of the process alone); sampled at 25/50/75/100% of the answers; growth = MiB per 100,000 hands")
    print(f"{'':6} {'hands':>9} {'seconds':>8} {'peak':>7}  {'25%':>6} {'50%':>6} {'75%':>6} {'100%':>6}  {'growth':>6}")
    hands_file(sizes[-1], args.seed)  # the longest stream first: the shorter ones are cut from it
    for hands in sizes:
        source = hands_file(hands, args.seed)
        if args.side != "peer":
            report("ours", hands, run(our_command(), source, args.interval))
        if args.side != "ours":
            report("peer", hands, run(peer_command(), source, args.interval))


if __name__ == "__main__":
    main()
