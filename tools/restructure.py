"""Move the engine's top-level modules into subpackages with one job each, and rewrite every reference to them.

The engine's top level is no grab-bag: ``core/`` (tiles, hands, their analysis), ``scoring/``
(the scorer, its request and its rulebook library), ``protocol/`` (mjai), ``diff/`` (the witnesses of a rule change
and their search), with the layers written down as import-linter contracts. The move is this script rather than a
hand-made commit, so that it can be run again on a tree whose other branches were merged since.

It is deterministic and idempotent (a second run changes nothing) and works on a tree that has gained files since
it was written, because it rewrites references by pattern rather than from a list of places:

1. ``git mv`` each module of ``MOVES`` into its subpackage (creating the package with a docstring of its job);
2. rewrites every reference in the tracked (and new, unignored) text files of ``ROOTS``: in Python, an
   ``from engine import tiles as T`` found by the AST becomes ``from engine.core import tiles as T``; everywhere
   (Python imports, strings given to ``importlib``/``mock.patch``, docs, ``pyproject.toml``), the dotted name
   ``engine.tiles`` becomes ``engine.core.tiles``, the path ``engine/tiles.py`` becomes ``engine/core/tiles.py``,
   and a path built as ``"engine" / "tiles.py"`` gains its folder;
3. writes the layer contracts of ``[tool.importlinter]`` in ``pyproject.toml`` (keeping any other contract) and
   the README's ``**Layers.**`` paragraph and ``engine/`` row of its layout table;
4. prints what it did, and what it could not place: a top-level module of ``engine/`` that ``MOVES`` does not name
   (add it to ``MOVES``), or an import of an old name that survived (e.g. a relative import).

Run it from anywhere: ``python tools/restructure.py`` (``--dry-run`` shows the moves and rewrites without making
them). It sorts the imports it renamed (``ruff --select I``) and rebuilds the generated files (``python -m
ruledsl.regenerate``: they name modules and fingerprint the sources). Then ``ruff check .``, ``lint-imports``,
``python -m mypy`` and the tests.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The new subpackages and their one job (each package's docstring)
PACKAGES = {
    "core": "The core: tiles, hands, their analysis (shanten, waits, decompositions), the win situation, and the "
    "pieces every layer shares (errors, the memo, the version, terminal markup). It knows no rulebook's scorer, "
    "round, game, log or front end.",
    "scoring": "Scoring one hand under a compiled rulebook, one job per module.",
    "protocol": "mjai, the JSON-lines protocol of Mortal, akochan and mjai.app: its events read into the round "
    "engine's ``Action``s and written back, the bounds of a log's values, and a round told in words.",
    "diff": "What a rule change does: hands, scenarios and played rounds that witness a change, their search, and "
    "the shadowing of one rulebook's items by another's.",
    "services": "The steps two front ends share (the CLI, the web server, the language server), so that no front "
    "end imports another.",
}

# Top-level module of engine/ -> the subpackage it moves into
MOVES = {
    "tiles": "core",
    "hand": "core",
    "analysis": "core",
    "analysis_tables": "core",
    "decompose": "core",
    "situation": "core",
    "memo": "core",
    "errors": "core",
    "version": "core",
    "markup": "core",
    "score": "scoring",
    "facts": "scoring",
    "library": "scoring",
    "request": "scoring",
    "plain_request": "scoring",
    "validation_words": "scoring",
    "example_notation": "scoring",
    "example_runner": "scoring",
    "mjai": "protocol",
    "log_bounds": "protocol",
    "narrate": "protocol",
    "schemas": "services",
    "outcome": "services",
    "witness": "diff",
    "change_witnesses": "diff",
    "change_scenarios": "diff",
    "shadowing": "diff",
    "steer": "diff",
}
# What stays at the top of engine/: the package itself and the public embedding surface
KEPT = {"__init__", "api"}

# Where references are rewritten: folders (every text file below them) and single files
ROOTS = ("engine", "ruledsl", "tests", "benchmarks", "tools", "docs", "editors", "README.md", "pyproject.toml", ".ci/run")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".json", ".js", ".ts", ".html", ".css", ".txt", ".cfg", ".ini", ".yml", ".yaml", ""}
SKIPPED = {"tools/restructure.py", "tests/tools/test_restructure.py"}  # they name the old modules on purpose

# The layers from the top: a layer may import the layers below it; `|` siblings never import each other
LAYERS = ["cli", "web | lsp | api", "services", "impact", "diff | replay | sheet", "game", "protocol", "round", "scoring", "core"]
LAYERS_CONTRACT = "the layers of the engine, from the front ends down to the core; nothing imports a layer above its own"
ACYCLIC_CONTRACT = "no two of the engine's packages import each other, directly or through others"
CORE_CONTRACT = "the core (tiles, hands, their analysis and decompositions) knows nothing of scoring, rounds, games, logs or front ends"
OLD_CONTRACTS = {  # contracts of the tree before the split, replaced by the three above
    "front ends on top: riichi (cli) may start the web server and the language server; they share engine.services; nothing below imports a front end",
    "the core (tiles, hands, their analysis and decompositions) knows nothing of rounds, games, logs or front ends",
}

README_LAYERS = """**Layers.** Imports point one way, written down as import-linter contracts in `pyproject.toml` (`lint-imports`; CI
and `tests/test_layers_contracts.py` run it): `engine` may import `ruledsl`, never the reverse; inside `engine`, from
the top: the `riichi` CLI (`cli/`); the web server (`web/`), the language server (`lsp/`) and the embedding API
(`api.py`), which never import each other; `services/` (the steps two front ends share, the JSON schemas, the
outcome envelopes); `impact/`; `diff/` (witnesses of a rule change and their search), `replay/` (logs) and `sheet/`
(the players' handout); `game/`; `protocol/` (mjai); `round/`; `scoring/` (the scorer, its request and rulebook
library, pao); `core/` (tiles, hands, shanten, waits, decompositions, the win situation, errors). No two of the
engine's packages import each other, counting deferred imports (inside a function) and those made only for type
checking (an `acyclic_siblings` contract, and `tests/test_layers_contracts.py`, which walks the graph); inside a
package modules may still call each other (the round's turns, calls and kans, as play moves from a discard to the call
window and on to the next draw). """

README_ENGINE_ROW = (
    "| `engine/` | `core/`: tiles, hands, decomposition and waits, shanten, the win situation; `scoring/`: the scorer "
    "(`score.py` puts together request reading, situation checks, prepared rules, valuation, settlement, pao), its "
    "request models, the rulebook library, the example notation and its runner; `round/` and `game/`: the round and "
    "game engines; `protocol/`: mjai; `replay/`: logs; `diff/`: witnesses of a rule change (`change_witnesses.py`: "
    "hands; `change_scenarios.py`: one change applied alone; `round/witness.py`, `game/witness.py`: scenarios) and the "
    "shadowing search; `impact/`; `sheet/`: the players' handout; the front ends: the web server (`web/`), the "
    "language server (`lsp/`), the `riichi` CLI (`cli/`), and what they share (`services/`); `api.py`: the embedding "
    "surface |"
)


def dotted_pattern() -> re.Pattern[str]:
    """``engine.<old>`` as a whole dotted name (not ``engine.round.witness``, ``tests.engine.x`` or ``engine.scores``)."""
    names = "|".join(sorted(MOVES, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])engine\.({names})(?![\w])")


def path_pattern() -> re.Pattern[str]:
    """``engine/<old>`` as a path (``engine/score.py``, ``../engine/mjai/``), not ``tests/engine/...``."""
    names = "|".join(sorted(MOVES, key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?<!tests/)engine/({names})(?![\w])")


def joined_pattern() -> re.Pattern[str]:
    """A path built in Python as ``"engine" / "<old>.py"``."""
    names = "|".join(sorted(MOVES, key=len, reverse=True))
    return re.compile(rf"""(["'])engine\1(\s*/\s*)(["'])({names})\.py\3""")


def rewrite_text(text: str) -> tuple[str, int]:
    """Every dotted name and path of a moved module, rewritten; and how many."""
    count = 0

    def dotted(m: re.Match[str]) -> str:
        return f"engine.{MOVES[m.group(1)]}.{m.group(1)}"

    def path(m: re.Match[str]) -> str:
        return f"engine/{MOVES[m.group(1)]}/{m.group(1)}"

    def joined(m: re.Match[str]) -> str:
        q, sep, q2, name = m.groups()
        return f"{q}engine{q}{sep}{q2}{MOVES[name]}{q2}{sep}{q2}{name}.py{q2}"

    for pattern, replace in ((dotted_pattern(), dotted), (path_pattern(), path), (joined_pattern(), joined)):
        text, n = pattern.subn(replace, text)
        count += n
    return text, count


def rewrite_from_engine(source: str) -> tuple[str, int]:
    """``from engine import tiles as T, cli`` (found by the AST) split by the new home of each name:
    ``from engine.core import tiles as T`` and ``from engine import cli``, at the statement's own indentation."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source, 0
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.module == "engine" and node.level == 0):
            continue
        if not any(alias.name in MOVES for alias in node.names):
            continue
        start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        indent = lines[start][: node.col_offset]
        comment = lines[end][node.end_col_offset or 0 :].strip()
        if indent.strip() or (comment and not comment.startswith("#")):
            raise SystemExit(f"restructure: cannot rewrite a statement sharing its line: {lines[start].strip()!r}")
        groups: dict[str, list[str]] = {}
        for alias in node.names:
            home = f"engine.{MOVES[alias.name]}" if alias.name in MOVES else "engine"
            groups.setdefault(home, []).append(alias.name + (f" as {alias.asname}" if alias.asname else ""))
        new = [f"{indent}from {home} import {', '.join(names)}" for home, names in groups.items()]
        if comment:
            new[0] += f"  {comment}"
        edits.append((start, end, "\n".join(new) + "\n"))
    for start, end, text in sorted(edits, reverse=True):
        lines[start : end + 1] = [text]
    return "".join(lines), len(edits)


def files(root: Path) -> list[Path]:
    """Tracked and new (unignored) text files under ``ROOTS``, in a fixed order."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *ROOTS],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    out = []
    for name in sorted(set(listed)):
        path = root / name
        if name in SKIPPED or not path.is_file() or path.suffix not in TEXT_SUFFIXES:
            continue
        if path.suffix == "" and name != ".ci/run":
            continue
        out.append(path)
    return out


def move_modules(root: Path, dry: bool) -> list[str]:
    """``git mv`` each module of ``MOVES`` not moved yet; the new packages get an ``__init__.py`` naming their job."""
    done = []
    for package, job in PACKAGES.items():
        init = root / "engine" / package / "__init__.py"
        if not init.exists():
            done.append(f"create engine/{package}/__init__.py")
            if not dry:
                init.parent.mkdir(parents=True, exist_ok=True)
                init.write_text(f'"""{wrap(job)}"""\n', encoding="utf-8")
                subprocess.run(["git", "add", str(init)], cwd=root, check=True)
    for name, package in MOVES.items():
        old, new = root / "engine" / f"{name}.py", root / "engine" / package / f"{name}.py"
        if old.exists() and new.exists():
            raise SystemExit(f"restructure: both engine/{name}.py and engine/{package}/{name}.py exist; merge them by hand")
        if old.exists():
            done.append(f"git mv engine/{name}.py engine/{package}/{name}.py")
            if not dry:
                subprocess.run(["git", "mv", str(old), str(new)], cwd=root, check=True)
        data, moved = old.with_suffix(".json"), new.with_suffix(".json")  # a module's data file moves with it
        if data.exists() and not moved.exists():
            done.append(f"git mv engine/{name}.json engine/{package}/{name}.json")
            if not dry:
                subprocess.run(["git", "mv", str(data), str(moved)], cwd=root, check=True)
    return done


def wrap(text: str, width: int = 116) -> str:
    """A docstring's text in lines of at most ``width`` characters."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines)


def contracts_toml() -> str:
    """The three contracts of the split engine, in ``pyproject.toml``'s syntax."""
    below_core = ["scoring", "round", "protocol", "game", "replay", "diff", "impact", "sheet", "services", "web", "cli", "lsp"]
    layers = ",\n".join(f'    "{layer}"' for layer in LAYERS)
    forbidden = ", ".join(f'"engine.{p}"' for p in below_core)
    return (
        f'[[tool.importlinter.contracts]]\nname = "{LAYERS_CONTRACT}"\ntype = "layers"\ncontainers = ["engine"]\n'
        f"exhaustive = true\nlayers = [\n{layers},\n]\n\n"
        f'[[tool.importlinter.contracts]]\nname = "{ACYCLIC_CONTRACT}"\ntype = "acyclic_siblings"\nancestors = ["engine"]\n'
        f"depth = 0\n\n"  # the engine's own children; a package's modules may still call each other (the round's)
        f'[[tool.importlinter.contracts]]\nname = "{CORE_CONTRACT}"\ntype = "forbidden"\nsource_modules = ["engine.core"]\n'
        f"forbidden_modules = [{forbidden}]\n"
    )


def write_contracts(text: str) -> str:
    """``pyproject.toml`` with the split's contracts in ``[tool.importlinter]`` in place of the old layer contracts;
    every other contract kept as it is."""
    start = text.index("[tool.importlinter]")
    after = re.search(r"^\[(?!\[?tool\.importlinter)", text[start + 1 :], re.M)
    end = start + 1 + after.start() if after else len(text)
    section = text[start:end]
    head, *blocks = section.split("[[tool.importlinter.contracts]]\n")
    mine = {LAYERS_CONTRACT, ACYCLIC_CONTRACT, CORE_CONTRACT} | OLD_CONTRACTS
    kept = []
    for block in blocks:
        named = re.search(r'^name = "(.*)"$', block, re.M)
        if named is None or named.group(1) not in mine:
            kept.append("[[tool.importlinter.contracts]]\n" + block.rstrip("\n") + "\n")
    new = head.rstrip("\n") + "\n\n" + "\n".join([*kept, contracts_toml()]) + "\n"
    return text[:start] + new + text[end:]


def write_readme(text: str) -> str:
    """The README's layers paragraph (its first sentences) and the ``engine/`` row of its layout table."""
    # the paragraph up to its sentences on other matters (from "Tile notation" on), which stay as they are
    text = re.sub(r"^\*\*Layers\.\*\*.*?(?=Tile\s+notation\s|\n\n)", lambda _: README_LAYERS, text, count=1, flags=re.M | re.S)
    return re.sub(r"^\| `engine/` \|.*$", lambda _: README_ENGINE_ROW, text, count=1, flags=re.M)


def leftovers(root: Path) -> list[str]:
    """What the move could not place: unknown top-level modules, and Python imports of an old name."""
    out = []
    for path in sorted((root / "engine").glob("*.py")):
        if path.stem not in KEPT and path.stem not in MOVES:
            out.append(f"engine/{path.name}: a top-level module MOVES does not place (add it to MOVES)")
    old = {f"engine.{name}" for name in MOVES}
    for path in files(root):
        if path.suffix != ".py":
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            names: Iterable[str] = ()
            if isinstance(node, ast.Import):
                names = (alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.ImportFrom) and node.level > 0 and path.is_relative_to(root / "engine"):
                out.append(f"{path.relative_to(root)}:{node.lineno}: a relative import (check it still resolves)")
            for name in names:
                if any(name == o or name.startswith(o + ".") for o in old):
                    out.append(f"{path.relative_to(root)}:{node.lineno}: still imports {name}")
    return out


def sort_imports(root: Path, names: list[str]) -> None:
    """Imports whose module was renamed sort elsewhere: ``ruff check --fix --select I`` orders them again."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ruff", "check", "--fix", "--quiet", "--select", "I", *names],
            cwd=root, capture_output=True, text=True,
        )
    except OSError:
        done = None
    if done is None or done.returncode not in (0, 1):
        print("sort the rewritten imports: ruff check --fix --select I .", file=sys.stderr)
    else:
        print(f"imports sorted in the {len(names)} rewritten Python file(s) (ruff --select I)")


def regenerate(root: Path) -> None:
    """The generated files name modules and fingerprint the sources: ``python -m ruledsl.regenerate`` rebuilds them."""
    if not (root / "ruledsl" / "regenerate.py").is_file():
        return
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "ruledsl.regenerate"], cwd=root, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"regenerate the generated files: python -m ruledsl.regenerate\n{done.stdout}{done.stderr}", file=sys.stderr)
    else:
        print("generated files rebuilt (python -m ruledsl.regenerate)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print what would change, change nothing")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to restructure (default: this one)")
    args = parser.parse_args(argv)
    root, dry = args.root.resolve(), args.dry_run
    for line in move_modules(root, dry):
        print(line)
    changed = 0
    touched: list[str] = []
    for path in files(root):
        try:
            before = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        after, imports = rewrite_from_engine(before) if path.suffix == ".py" else (before, 0)
        after, names = rewrite_text(after)
        rel = path.relative_to(root).as_posix()
        if rel == "pyproject.toml":
            after = write_contracts(after)
        elif rel == "README.md":
            after = write_readme(after)
        if after != before:
            changed += 1
            print(f"rewrite {rel}: {imports} `from engine import` statement(s), {names} name(s) and path(s)")
            if not dry:
                path.write_text(after, encoding="utf-8")
                if path.suffix == ".py":
                    touched.append(rel)
    print(f"{changed} file(s) rewritten" + (" (dry run: nothing written)" if dry else ""))
    if touched and not dry:
        sort_imports(root, touched)
        regenerate(root)
    problems = [] if dry else leftovers(root)
    for problem in problems:
        print(f"left: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
