"""``riichi check`` of a big rulebook, cold: a generated file of 2,000 items extending ``house``.

Run: ``python benchmarks/check.py [--items N] [--runs R] [--baseline DIR] [--keep FILE] [--varied] [--impossible K]``.
The file is written fresh each run (``--items`` yaku and fu items, half each, every one citing a clause and none
with an example, so the checker warns about each; nothing in it is an error and no rule of it is shadowed; its
items take a few shapes, so most lines recur; with ``--varied``, one or two conditions drawn per item with their
own numbers, tiles and names, so that nearly every line is distinct, as in a file written by hand; with
``--impossible K``, K of the items yaku and yakuman whose conditions no hand can meet, each drawing a "can never
apply" warning and so the steered search that guards it, ``engine.services.check._guard_impossible``), then

- ``riichi check FILE`` is timed in fresh processes (``python -m engine.cli``, our modules byte-compiled first),
  best and median of ``--runs`` (default 5): processor time (user + system of the child, from ``wait4``, steadier
  than the wall clock on a shared machine) and wall time; with ``--baseline DIR`` the same command under another
  checkout (``PYTHONPATH=DIR``), the two interleaved so that the machine's load falls on both;
- one more fresh process splits its processor time: importing what ``riichi check`` imports, reading the file
  (parse, with the ``extends`` chain), the checker, the flow-rule shadowing search (run, as the command runs it,
  only for a file that writes a flow rule: not this one), the examples, and printing.

No peer: no other library reads this language.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "big_rules"

# In a fresh process: the phases of `riichi check FILE`, in the order the command runs them, with the collector
# paused as the command pauses it (``engine.cli.check``) and the process left the way ``engine.cli.console`` leaves
# it. `process_time` counts from the start of the process, so its first reading is the interpreter's start-up; the
# parent reads the process's whole processor time from ``wait4`` and shows what comes after the last reading.
SPLIT = """\
import time
clock = time.process_time
t0 = clock()
import gc, os, sys
gc.disable()
import engine.cli
from engine.cli import _load, build_parser
argv = ["check", sys.argv[1]]
args = build_parser(argv).parse_args(argv)
_load(args._module)
from engine.services import check as service
from ruledsl import check as checker
t1 = clock()
display, text = service.read_target(sys.argv[1])
resolved = service.resolve(display, text=text, file=display, keep_going=True)
t2 = clock()
report = service.FileReport(resolved.chain[-1].file, diagnostics=service._ordered(checker.check(resolved)), items=len(resolved.items))
t3 = clock()
service._guard_impossible(resolved, report)
if resolved.extends is not None and service.writes_flow_rules(resolved):
    from engine.diff.shadowing import shadowed
    report.diagnostics = service._ordered([*report.diagnostics, *shadowed(resolved)])
t4 = clock()
service._run_examples(resolved, report)
t5 = clock()
with open(os.devnull, "w", encoding="utf-8") as out:
    out.write("".join(f"{d.render()}\\n\\n" for d in report.diagnostics) + f"{report.summary()}\\n")
t6 = clock()
print(report.summary())
print(f"{t0:.4f} {t1 - t0:.4f} {t2 - t1:.4f} {t3 - t2:.4f} {t4 - t3:.4f} {t5 - t4:.4f} {t6 - t5:.4f} {t6:.4f}")
sys.stdout.flush()
os._exit(0)
"""
PHASES = (
    "interpreter start-up",
    "imports, arguments",
    "read and parse (extends chain)",
    "check",
    "shadowing (and its guard)",
    "examples",
    "print",
)


def rulebook(items: int) -> str:
    """A valid rulebook of ``items`` new items extending ``house``: yaku and fu that can apply (four kans, a closed
    ron with kans), so the checker proves nothing impossible and no example of ``house`` changes."""
    lines = [f'rulebook {NAME} "Generated for benchmarks/check.py" extends house', 'source "generated"']
    for i in range(items):
        if i % 2 == 0:
            win = "tsumo" if i % 4 else "ron"
            lines += [f'@clause("G{i}")', f'yaku g{i} "Y{i}" {{', "  han = 2", f"  when = count(g in sets: is_kan(g)) >= 4 and {win}", "}"]
        else:
            lines += [
                f'@clause("G{i}")',
                f'fu g{i} "F{i}" {{',
                f"  fu = {2 * (i % 4 + 1)} * count(g in sets: is_kan(g) and is_simple(g))",
                f"  when = closed and ron and count(g in sets: is_kan(g)) >= {1 + i % 4}",
                "}",
            ]
    return "\n".join(lines) + "\n"


# The conditions of ``varied``: each template draws its own numbers, tiles and names, so that nearly every line of
# the file is a line no other item writes (a file written by hand repeats far less than ``rulebook``'s).
VARIED_TERMS = (
    lambda r: f"count(g in sets: is_kan(g)) >= {r.randint(1, 4)}",
    lambda r: f"has_triplet({r.randint(1, 7)}z)",
    lambda r: f"count(t in tiles: is_honor(t)) >= {r.randint(0, 9)}",
    lambda r: f"any(n in 1..{r.randint(1, 7)}: has_sequence({r.choice('mps')}, n))",
    lambda r: f"count(g in sets: is_triplet(g) and is_concealed(g)) >= {r.randint(1, 3)}",
    lambda r: f"all(t in tiles: t in {r.randint(1, 5)}{r.randint(5, 9)}{r.choice('mps')}{r.randint(1, 7)}z or is_simple(t))",
    lambda r: f"count(w in {''.join(str(x) for x in sorted(r.sample(range(1, 8), 3)))}z: has_triplet(w)) >= {r.randint(1, 2)}",
    lambda r: f"number_suits == {r.randint(1, 2)}",
    lambda r: f"honors {r.choice(['>', '==', '>='])} {r.randint(0, 4)}",
    lambda r: f"peikou == {r.randint(0, 1)}",
    lambda r: f"wait in [{', '.join(sorted(r.sample(['kanchan', 'penchan', 'tanki', 'ryanmen', 'shanpon'], r.randint(1, 3))))}]",
    lambda r: r.choice(["riichi", "tsumo", "ron", "closed", "ippatsu", "not riichi", "not closed"]),
    lambda r: f"count_of({r.randint(1, 9)}{r.choice('mps')}) >= {r.randint(1, 2)}",
    lambda r: f"any(g in sets: is_sequence(g) and has_terminal(g)) and count(t in tiles: is_terminal(t)) >= {r.randint(0, 3)}",
)


def varied(items: int, seed: int = 1) -> str:
    """A valid rulebook of ``items`` items extending ``house`` whose lines are nearly all distinct: one or two
    conditions of different templates joined per item (never two bounds on one term, which the checker would
    prove impossible: its warnings would add the search that guards them to the figure)."""
    r = random.Random(seed)
    lines = [f'rulebook {NAME} "Generated for benchmarks/check.py, lines varied" extends house', 'source "generated"']
    for i in range(items):
        when = " and ".join(term(r) for term in r.sample(VARIED_TERMS, r.randint(1, 2)))
        if i % 2 == 0:
            lines += [f'@clause("V{i}")', f'yaku v{i} "Y{i}" {{', f"  han = {r.randint(1, 6)}", f"  when = {when}", "}"]
        else:
            fu = f"  fu = {2 * r.randint(1, 8)} * count(g in sets: is_kan(g) and is_simple(g))"
            lines += [f'@clause("V{i}")', f'fu v{i} "F{i}" {{', fu, f"  when = {when}", "}"]
    return "\n".join(lines) + "\n"


# Conditions the checker proves no hand can meet (``ruledsl.check.unsatisfiable``), of several shapes, each beside a
# term a hand can meet (the tiles, the flags) that steers the guard's hands towards the item.
IMPOSSIBLE_TERMS = (
    lambda r: "tsumo and ron",
    lambda r: "shape == standard and size(sets) == 0",
    lambda r: "count(g in sets: is_kan(g)) == 5",
    lambda r: f"wait_count >= {r.randint(4, 6)} and closed and wait_count <= {r.randint(1, 3)}",
    lambda r: "shape == seven_pairs and count(g in sets: is_triplet(g)) >= 1",
    lambda r: "(tsumo and ron) or (closed and not closed)",
    lambda r: _equal_and_not(r.randint(1, 4)),
    lambda r: _both_ways(r.choice(["riichi", "ippatsu", "haitei", "rinshan"])),
)


def _equal_and_not(n: int) -> str:
    return f"wait_count == {n} and wait_count != {n}"


def _both_ways(flag: str) -> str:
    return f"{flag} and not {flag}"


IMPOSSIBLE_COMPANIONS = (
    lambda r: f"has_triplet({r.randint(1, 7)}z)",
    lambda r: f"count_of({r.randint(1, 9)}{r.choice('mps')}) >= {r.randint(1, 2)}",
    lambda r: r.choice(["riichi", "tsumo", "closed", "ippatsu", "haitei"]),
)


def impossible(count: int, seed: int = 2) -> str:
    """``count`` yaku and yakuman (alternately) whose conditions the checker proves impossible, each warned about:
    the lines ``--impossible`` appends to the generated file."""
    r = random.Random(seed)
    lines = []
    for i in range(count):
        term = r.choice(IMPOSSIBLE_TERMS)(r)
        when = f"{r.choice(IMPOSSIBLE_COMPANIONS)(r)} and ({term})"
        if i % 2 == 0:
            lines += [f'@clause("X{i}")', f'yaku x{i} "X{i}" {{', f"  han = {r.randint(1, 6)}", f"  when = {when}", "}"]
        else:
            lines += [f'@clause("X{i}")', f'yakuman x{i} "X{i}" {{', f"  when = {when}", "}"]
    return "\n".join(lines) + "\n" if lines else ""


def launch(command: list[str], checkout: Path) -> tuple[float, float]:
    """(processor seconds, wall seconds) of one fresh process run in ``checkout`` (``-m`` puts the working folder
    first on the path); exit 0 or 1 (warnings, errors) are both timed."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=checkout, env=environment(checkout), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}): {err.decode(errors='replace').strip()}")
    return usage.ru_utime + usage.ru_stime, wall


def environment(checkout: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(checkout)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000, help="items in the generated rulebook (default 2,000)")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per figure (default 5)")
    parser.add_argument("--baseline", type=Path, help="another checkout to time the same command under, interleaved")
    parser.add_argument("--keep", type=Path, help="also write the generated rulebook here")
    parser.add_argument("--varied", action="store_true", help="a file whose lines are nearly all distinct (seeded)")
    parser.add_argument("--impossible", type=int, default=0, metavar="K", help="K more items no hand can meet, each warned about (seeded)")
    args = parser.parse_args()
    if args.runs < 1:
        raise SystemExit("--runs must be at least 1")
    if not 0 <= args.impossible <= args.items:
        raise SystemExit("--impossible must be between 0 and --items")
    plain = args.items - args.impossible  # a file holds at most 2,000 items: the impossible ones take some places
    text = (varied(plain) if args.varied else rulebook(plain)) + impossible(args.impossible)
    if args.keep is not None:
        args.keep.write_text(text, encoding="utf-8")
    checkouts = {"ours": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline is not None else {})
    for checkout in checkouts.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", "engine", "ruledsl"], cwd=checkout, check=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{NAME}.rulebook"
        path.write_text(text, encoding="utf-8")
        command = [sys.executable, "-m", "engine.cli", "check", str(path)]
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
        for checkout in checkouts.values():  # one untimed run each: page cache, bytecode
            launch(command, checkout)
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                times[name].append(launch(command, checkout))
        split, split_cpu = _split(path)
    shape = "lines varied" if args.varied else "items of a few shapes"
    more = f" ({args.impossible:,} of them never applying)" if args.impossible else ""
    print(f"riichi check of a generated rulebook ({shape}): {args.items:,} items extending house{more}, {len(text.encode()):,} bytes")
    print(f"  {split[0]}")
    print(f"fresh processes, {args.runs} runs each: processor s (best, median), wall s (best)")
    for name, figures in times.items():
        cpu = [c for c, _ in figures]
        print(f"  {name:9} {min(cpu):7.3f} {statistics.median(cpu):7.3f} {min(w for _, w in figures):7.3f}   ({checkouts[name]})")
    readings = [float(f) for f in split[1].split()]
    print(f"where the processor time of one more run goes (s; {split_cpu:.3f} in all, from wait4):")
    for phase, seconds in zip(PHASES, readings[:-1], strict=True):
        print(f"  {phase:32} {seconds:7.3f}")
    print(f"  {'exit (after the last reading)':32} {split_cpu - readings[-1]:7.3f}")


def _split(path: Path) -> tuple[list[str], float]:
    """The split's two lines of output, and the whole processor time of its process (``wait4``)."""
    command = [sys.executable, "-c", SPLIT, str(path)]
    proc = subprocess.Popen(command, cwd=ROOT, env=environment(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0 or len(out.splitlines()) < 2:
        raise SystemExit(f"the split failed ({proc.returncode}): {err.strip()}")
    return out.splitlines(), usage.ru_utime + usage.ru_stime

if __name__ == "__main__":
    main()
