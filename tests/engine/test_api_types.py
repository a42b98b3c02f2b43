"""The documented Python examples type-check under ``mypy --strict``: ``engine.api`` gives type checkers its real
names (not the ``object`` a lazy ``__getattr__`` alone would give), and the typed answers are what they say.

The examples are the ``python`` blocks of docs/embedding.md and of the README; a control file that misuses a name
must fail, so that a name silently typed ``Any`` would be noticed. mypy's cache lives in ``.mypy_cache`` (the
first run analyses the engine, about 20 s on the shared machine; later ones take a few seconds)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "docs" / "embedding.md", ROOT / "README.md"]

NAMES = """\
from typing import assert_type

from engine.api import (
    Action, Agent, EngineError, ErrorCode, Failed, Game, GameResult, IllegalAction, Ok, ReplayReport, Round,
    RoundSetup, RulebookPolicy, ScoreResponse, Settled, Situation, attempt, play_model, replay, rulebook,
    score_model, scorer, settle_model,
)

r = Round(rulebook("house"), RoundSetup(dealer=0), seed=7)
action: Action = r.legal_actions(r.waiting()[0])[-1]
try:
    r.apply(action)
except IllegalAction as exc:
    assert_type(exc.code, str)
assert_type(score_model(scorer("house"), {"hand": "234m567m789p46s88p5s", "win": "5s"}), ScoreResponse)
assert_type(settle_model(scorer("house"), 3, 30, dealer=False, tsumo=False), Settled)
assert_type(play_model(Game(rulebook("house"), seed=1, agents="shanten")), GameResult)
outcome = attempt(lambda: scorer("house").score({"hand": "123m", "win": "1m"}))
if isinstance(outcome, Failed):
    assert_type(outcome.error.code, ErrorCode)
elif isinstance(outcome, Ok):
    print(outcome.value["total"])
report: ReplayReport = replay(b"<mjloggm ver='2.3'></mjloggm>")
players: list[Agent] = []
policy = RulebookPolicy.of("house", ())
situation = Situation(seat_wind="S")
errors: tuple[type[EngineError], ...] = (IllegalAction,)
"""

MISUSE = """\
from engine.api import Game, scorer

count: int = scorer("house")
Game.no_such_method()
"""


def examples() -> list[str]:
    blocks: list[str] = []
    for doc in DOCS:
        blocks += re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    return blocks


def test_the_documented_examples_type_check_strictly(tmp_path):
    for number, code in enumerate(examples()):
        (tmp_path / f"example_{number}.py").write_text(code, encoding="utf-8")
    (tmp_path / "names.py").write_text(NAMES, encoding="utf-8")
    (tmp_path / "misuse.py").write_text(MISUSE, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\nfollow_imports = silent\n", encoding="utf-8")
    files = sorted(p.name for p in tmp_path.glob("*.py"))
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(ROOT / ".mypy_cache" / "strict-examples"), *files],
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [e for e in errors if not e.startswith("misuse.py")] == [], done.stdout
    assert any("misuse.py:3:" in e for e in errors) and any("misuse.py:4:" in e for e in errors), done.stdout


@pytest.mark.parametrize("name", ["Game", "Round", "Action", "IllegalAction", "Agent", "GameResult", "ReplayReport", "replay"])
def test_lazy_names_load_on_first_use_and_are_the_real_objects(name):
    import importlib

    import engine.api as api

    value = getattr(api, name)
    module = importlib.import_module(api._LAZY[name])
    assert value is getattr(module, name) and name in api.__all__
