"""Launch-to-exit time of the ``riichi`` console script beside the ``mahjong`` peer's import and one scored hand.

Run: ``python benchmarks/startup.py [--runs N] [--importtime]``. Every figure is a fresh process timed from
``fork`` to its exit (interpreter start-up, imports, rulebook load and compile, one answer, exit), best and median
of ``--runs`` (default 20), the commands interleaved so that the machine's load falls on all of them alike, in
wall time and in processor time; the peak resident memory of each process is the kernel's own figure
(``ru_maxrss``, one more run through ``LAUNCHER``), not a sample.

ours      ``riichi --help``; ``riichi score HAND`` under the default rulebook and under a bundled rulebook that
          extends it (``--rulebook mleague``: its chain is loaded and compiled too); ``riichi score --json`` fed one
          request. The console script beside this interpreter is run directly, not through a shell shim such as
          pyenv's (which adds its own ~100 ms); our modules are byte-compiled first, as an installed package's are.
peer      ``python -c "import mahjong.hand_calculating.hand"`` (what scoring one hand needs to import) and the
          same import plus scoring the same hand (riichi, ron on 5s, dora indicator 4s) with ``HandCalculator``.
floor     ``python -c pass``: the interpreter's own start-up (``site`` included), which neither side can go below.

``--importtime`` also prints the slowest imports of ``riichi score HAND`` (``python -X importtime``, cumulative),
which is where the start-up goes.

When ``valgrind`` is installed, every command also runs once under ``valgrind --tool=callgrind`` (with
``PYTHONHASHSEED=0``): its instruction count, and the ratio to the peer's import, printed beside the CPU ratio. A
count is the same whatever else the machine runs (times drift by a fifth on a shared machine), so it is the figure
to compare across runs; ``--no-instructions`` skips it (about a minute).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND = ["234m567m789p46s88p5s", "--win", "5s", "--seat", "S", "--riichi", "--dora", "4s"]
REQUEST = b'{"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": true, "dora_indicators": "4s"}\n'
PEER_IMPORT = "import mahjong.hand_calculating.hand"
PEER_SCORE = """\
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.constants import EAST, SOUTH
from mahjong.tile import TilesConverter
tiles = TilesConverter.string_to_136_array(man="234567", pin="78988", sou="456")
win = TilesConverter.string_to_136_array(sou="5")[0]
dora = TilesConverter.string_to_136_array(sou="4")
config = HandConfig(is_riichi=True, player_wind=SOUTH, round_wind=EAST)
result = HandCalculator().estimate_hand_value(tiles, win, dora_indicators=dora, config=config)
assert result.cost["total"] == 2600, (result.error, result.cost)
"""
# the peer's own answer must be the one ours prints (2,600): both sides do the same work


def console_script() -> str:
    """``riichi`` beside this interpreter (what ``pip install`` wrote); a shell shim would time the shim."""
    script = Path(sys.executable).parent / "riichi"
    if not script.exists():
        raise SystemExit(f"no console script at {script}: install the package first (pip install -e .)")
    return str(script)


def byte_compile() -> None:
    """Write our modules' bytecode, as ``pip install`` does (the peer was installed so): an editable checkout would
    otherwise compile a changed module at its first start and time the compiler."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "ruledsl", "rulebooks"], cwd=ROOT, check=True)
    # the fingerprint stamps beside that bytecode (``ruledsl.package_files``), which a first run writes unless
    # bytecode is not written (PYTHONDONTWRITEBYTECODE, set on some machines)
    stamps = "from ruledsl import compiled_cache, parsed_cache; parsed_cache.fingerprint(); compiled_cache.fingerprint()"
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", stamps], cwd=ROOT, check=True, env=env)


def commands() -> dict[str, tuple[list[str], bytes | None]]:
    riichi = console_script()
    return {
        "python -c pass (floor)": ([sys.executable, "-c", "pass"], None),
        "peer: import": ([sys.executable, "-c", PEER_IMPORT], None),
        "peer: import + score one hand": ([sys.executable, "-c", PEER_SCORE], None),
        "riichi --help": ([riichi, "--help"], None),
        "riichi score HAND (default rulebook)": ([riichi, "score", *HAND], None),
        "riichi score HAND --rulebook mleague": ([riichi, "score", *HAND, "--rulebook", "mleague"], None),
        "riichi score --json, one request": ([riichi, "score", "--json"], REQUEST),
    }


# Runs argv[1:] and prints its peak RSS (KiB) on stderr. Linux carries ``ru_maxrss`` over from the process that
# forked a child, so a child of this script would report at least this script's size: a bare interpreter (about
# 10 MiB, less than any process measured) starts the measured one instead, in one more run of each command.
LAUNCHER = (
    "import os, subprocess, sys\n"
    "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(child.pid, 0)\n"
    "child.returncode = 0\n"
    "sys.stderr.write(f'{usage.ru_maxrss}\\n')\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def peak_rss(command: list[str], stdin: bytes | None) -> int:
    """The peak RSS (KiB) of one run of ``command`` alone (through ``LAUNCHER``)."""
    out = subprocess.run([sys.executable, "-c", LAUNCHER, *command], cwd=ROOT, input=stdin or b"", capture_output=True, check=True)
    return int(out.stderr.split()[-1])


def launch(command: list[str], stdin: bytes | None) -> tuple[float, float]:
    """(seconds from launch to exit, processor seconds) of one fresh process; a failure stops the benchmark.
    Processor time (user + system, from ``wait4``: not carried over from the parent, unlike the peak RSS) moves
    less than wall time when other work shares the machine's cores."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stderr is not None
    if stdin:
        proc.stdin.write(stdin)
    proc.stdin.close()
    err = proc.stderr.read()  # small: an error line at most
    _, status, usage = os.wait4(proc.pid, 0)  # reaps the child with its rusage (Popen.wait would drop it)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {err.decode(errors='replace').strip()}")
    return elapsed, usage.ru_utime + usage.ru_stime


def measure(runs: int) -> dict[str, tuple[list[float], list[float], int]]:
    todo = commands()
    for command, stdin in todo.values():  # one untimed run each: page cache, bytecode, the sources' fingerprint stamp
        launch(command, stdin)
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in todo}
    for _ in range(runs):
        for name, (command, stdin) in todo.items():
            for figures, value in zip(times[name], launch(command, stdin), strict=True):
                figures.append(value)
    return {name: (wall, cpu, peak_rss(*todo[name])) for name, (wall, cpu) in times.items()}


def is_binary(path: str) -> bool:
    """Whether ``path`` is an executable binary rather than a script: valgrind following a shell shim (pyenv's)
    into its shell counts nothing of Python (``sys.executable`` is the real interpreter, not the shim)."""
    with open(path, "rb") as start:
        return start.read(2) != b"#!"


def instructions(command: list[str], stdin: bytes | None) -> int:
    """The instructions one run of ``command`` executes, counted by callgrind (``PYTHONHASHSEED=0``: the same count
    at every run). A console script is run by the interpreter itself, so that valgrind counts Python's work."""
    argv = command if command[0] == sys.executable else [sys.executable, *command]
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
            cwd=ROOT, input=stdin or b"", capture_output=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        with open(out, encoding="utf-8") as counts:
            for line in counts:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    raise SystemExit(f"callgrind wrote no summary for {' '.join(command)}")


def print_instructions() -> None:
    """Each command's instruction count beside the peer's import."""
    counts = {name: instructions(command, stdin) for name, (command, stdin) in commands().items()}
    peer = counts["peer: import"]
    print("\ninstructions of one run (callgrind, PYTHONHASHSEED=0; 'x peer' = / the peer's import):")
    print(f"{'':40} {'M instr':>9} {'x peer':>7}")
    for name, count in counts.items():
        print(f"{name:40} {count / 1e6:9.1f} {count / peer:7.2f}")


def import_profile(top: int) -> None:
    """The slowest imports of one ``riichi score HAND`` (cumulative microseconds), deepest package first."""
    code = f"import sys; from engine.cli import main; sys.argv[1:] = {['score', *HAND]!r}; main()"
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    rows = []
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), int(parts[0].split(":")[1]), parts[2].rstrip()))
    print("\nslowest imports of riichi score HAND (python -X importtime; us, cumulative / self):")
    for cumulative, own, name in sorted(rows, reverse=True)[:top]:
        print(f"  {cumulative:8,d} {own:8,d}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="fresh processes per figure (default 20)")
    parser.add_argument("--importtime", action="store_true", help="also list the slowest imports of riichi score")
    parser.add_argument("--no-instructions", action="store_true", help="skip the instruction counts (callgrind)")
    args = parser.parse_args()
    if args.runs < 1:
        raise SystemExit("--runs must be at least 1")
    byte_compile()
    results = measure(args.runs)
    peer, peer_cpu = min(results["peer: import"][0]), min(results["peer: import"][1])
    print(f"launch to exit, {args.runs} runs each: wall ms (best, median), processor ms (best), peak RSS MiB;")
    print("'x peer' = best / the peer's import best, of wall and of processor time")
    print(f"{'':40} {'best':>7} {'median':>7} {'x peer':>7} {'cpu':>7} {'x peer':>7} {'RSS':>6}")
    for name, (seconds, cpu, rss) in results.items():
        best, median, cpu_best = min(seconds), statistics.median(seconds), min(cpu)
        print(
            f"{name:40} {1000 * best:7.1f} {1000 * median:7.1f} {best / peer:7.2f} {1000 * cpu_best:7.1f} {cpu_best / peer_cpu:7.2f}"
            f" {rss / 1024:6.1f}"
        )
    if not args.no_instructions:
        if shutil.which("valgrind") and is_binary(sys.executable):
            print_instructions()
        else:
            print("\ninstruction counts skipped: valgrind is not installed, or this interpreter is a script")
    if args.importtime:
        import_profile(25)


if __name__ == "__main__":
    main()
