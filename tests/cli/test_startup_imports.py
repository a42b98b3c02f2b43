"""What ``riichi --help``, ``riichi score`` and ``riichi score --json`` import.

Start-up time is mostly imports: pydantic (about 60 ms), lark (about 70 ms), ``importlib.metadata`` (about 20 ms,
for ``--version``) and the modules of the other subcommands are each a large share of it. These paths must never
import them; a fresh interpreter runs each command and lists what it loaded. Each test is one short process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HAND = ["234m567m789p46s88p5s", "--win", "5s", "--seat", "S", "--riichi", "--dora", "4s"]
# Never on these paths: the request validator's and the rule parser's libraries, and version metadata.
HEAVY = ("pydantic", "pydantic_core", "lark", "interegular", "importlib.metadata", "email")
SUBCOMMAND_MODULES = (
    "engine.cli.analyze", "engine.cli.check", "engine.cli.diff", "engine.cli.explain", "engine.cli.rulebooks",
    "engine.cli.replay", "engine.cli.play", "engine.cli.impact", "engine.cli.schema", "engine.cli.serve",
)


# Needed only to load a rulebook the full way (a file, or a bundled one the shipped compiled file does not hold as
# its texts are now) or to report an error: a bundled rulebook scores without them.
NOT_FOR_A_SHIPPED_RULEBOOK = (
    "ruledsl.compile", "ruledsl.resolve", "ruledsl.parser", "ruledsl.ast", "ruledsl.diagnostics", "ruledsl.parsed_cache",
    "ruledsl.check",
)


def loaded_by(argv: list[str], stdin: str = "") -> tuple[int, list[str], str]:
    """(exit code, the modules a fresh process holds after ``riichi ARGV``, its stdout)."""
    code = (
        "import sys, json, io, contextlib\n"
        "from engine.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        f"        rc = main({argv!r})\n"
        "    except SystemExit as exc:\n"
        "        rc = exc.code\n"
        "print(json.dumps([rc, sorted(sys.modules), out.getvalue()]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    rc, modules, out = json.loads(result.stdout.splitlines()[-1])
    return rc, modules, out


def heavy_in(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY) or m == "ruledsl.lark_parser"]


def test_help_imports_no_subcommand_and_nothing_heavy() -> None:
    rc, modules, out = loaded_by(["--help"])
    assert rc == 0 and "score" in out and "serve" in out  # every command is still listed, with its help line
    assert heavy_in(modules) == []
    assert [m for m in modules if m in SUBCOMMAND_MODULES or m == "engine.cli.score"] == []
    assert "engine.scoring.score" not in modules and "ruledsl.compile" not in modules  # no rulebook machinery either


def test_score_one_hand_imports_only_what_scoring_needs() -> None:
    rc, modules, out = loaded_by(["score", *HAND])
    assert rc == 0 and "total: 2,600" in out
    assert heavy_in(modules) == []
    assert [m for m in modules if m in SUBCOMMAND_MODULES] == []
    assert not any(m.startswith(("engine.round", "engine.game", "engine.replay", "engine.impact", "engine.web")) for m in modules)
    # a bundled rulebook was checked when the shipped cache was made (ruledsl.parsed_cache): not checked again,
    # and nothing builds classes with dataclasses' generated code
    assert "ruledsl.check" not in modules and "dataclasses" not in modules
    # its arguments are read without argparse (engine.cli.score_args)
    assert "argparse" not in modules
    # the rulebook comes compiled from the shipped file (ruledsl.compiled_cache): neither the compiler, the
    # resolver, the parser, the syntax tree's classes nor the diagnostics are imported (about 17 M instructions)
    assert [m for m in modules if m in NOT_FOR_A_SHIPPED_RULEBOOK] == []


@pytest.mark.parametrize("rulebook", ["house", "mleague"])
def test_score_json_batch_imports_nothing_heavy(rulebook: str) -> None:
    requests = [
        {"hand": "234m567m789p46s88p5s", "win": "5s", "seat_wind": "S", "riichi": True, "dora_indicators": "4s", "rulebook": rulebook},
        {"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S"},
    ]
    rc, modules, out = loaded_by(["score", "--json"], "".join(json.dumps(r) + "\n" for r in requests))
    answers = [json.loads(line) for line in out.splitlines()]
    assert rc == 0 and [a["ok"] for a in answers] == [True, True] and answers[0]["total"] == 2600
    assert heavy_in(modules) == [] and "argparse" not in modules
    assert [m for m in modules if m in NOT_FOR_A_SHIPPED_RULEBOOK] == []


def test_version_still_reads_the_installed_version() -> None:
    rc, modules, out = loaded_by(["--version"])
    assert rc == 0 and out.startswith("riichi ")
    assert "engine.cli.score" not in modules


def test_score_one_hand_without_site_imports_no_path_or_resource_machinery() -> None:
    """In a clean install ``site`` loads little of the standard library, so what the score path imports is paid in
    full: ``pathlib`` (with ``urllib.parse`` and ``ipaddress``), ``importlib.resources`` (with ``zipfile`` and
    ``tempfile``), ``hashlib`` (OpenSSL), ``dataclasses`` (with ``inspect``), ``typing`` and ``threading`` are not among them. Run without
    ``site`` (``-S``): the score path needs nothing outside the standard library and this checkout."""
    code = (
        "import sys, json, io, contextlib\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from engine.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    rc = main({['score', *HAND]!r})\n"
        "print(json.dumps([rc, out.getvalue(), sorted(sys.modules)]))\n"
    )
    result = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    rc, out, modules = json.loads(result.stdout.splitlines()[-1])
    assert rc == 0 and "total: 2,600" in out
    unwanted = (
        "pathlib", "importlib.resources", "zipfile", "tempfile", "hashlib", "_hashlib", "dataclasses", "inspect", "difflib",
        "argparse", "gettext", "locale", "shutil",  # argparse and what it imports (engine.cli.score_args)
        "typing",  # annotations only (ruledsl.typing_names): about 10 M instructions
        "threading",  # the loader's lock is the interpreter's own (_thread)
    )
    assert [m for m in unwanted if m in modules] == []


def test_checking_a_well_formed_file_does_not_import_lark(tmp_path: Path) -> None:
    """A file that is not bundled is read by the fast parser (``ruledsl.fast_parser``); lark is imported only for a
    text it is unsure of, a mistake above all, so that the diagnostics stay lark's."""
    good = tmp_path / "mine.rulebook"
    good.write_text('rulebook mine "Mine" extends house\n\noverride settings table {\n  start_points = 30000\n}\n', encoding="utf-8")
    rc, modules, out = loaded_by(["check", str(good)])
    assert rc == 0 and "ok" in out
    assert [m for m in modules if m == "lark" or m.startswith("lark.") or m == "ruledsl.lark_parser"] == []
    bad = tmp_path / "bad.rulebook"
    bad.write_text('rulebook bad extends house\n\noverride settings table {\n  start_points = = 30000\n}\n', encoding="utf-8")
    rc, modules, out = loaded_by(["check", str(bad)])
    assert rc == 1 and "ruledsl.lark_parser" in modules


def test_replay_does_not_import_the_self_play_command() -> None:
    """`riichi replay` shares two flags with `riichi play` (engine.cli.narrate_flags), not the command's module:
    the agents and the self-play game are not loaded to replay a log."""
    log = next((ROOT / "tests" / "data" / "tenhou" / "mjlog").iterdir())
    rc, modules, _ = loaded_by(["replay", str(log)])
    assert rc == 0
    assert [m for m in modules if m in ("engine.cli.play", "engine.game.selfplay", "engine.game.agents")] == []
