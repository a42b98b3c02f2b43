"""Every cache of the process is in one registry (``ruledsl.memo`` and ``ruledsl.caches``): each has a bound,
``clear_all`` empties each (an intern table, pinned, is bounded by its domain instead), and no module swaps the
class of the errors another raises."""

from __future__ import annotations

import gc
import re
import subprocess
import sys

import engine.api  # noqa: F401 - imports the modules that own caches
import engine.cli.score  # noqa: F401
import engine.replay.rounds  # noqa: F401
import engine.web.api  # noqa: F401
import ruledsl.lark_parser  # noqa: F401
from engine.scoring.score import Scorer
from ruledsl import memo
from ruledsl.caches import NAMED, ByIdentity, lru
from ruledsl.compile import load

# the named caches the engine and the rule language own: a new module-level cache is added here when registered
EXPECTED = {
    "engine.scoring.facts.interned_groups",
    "engine.scoring.facts.meld_groups", "engine.scoring.facts.successor_codes", "engine.core.hand.allowed_codes", "engine.core.hand.melds",
    "engine.scoring.library.rulebooks", "engine.scoring.library.scorers", "engine.scoring.library.failures", "engine.round.rules",
    "engine.round.state.waits_within", "engine.core.analysis.shanten_of_keys", "ruledsl.clause_origin.indexes", "ruledsl.tiles.parsed",
    "ruledsl.lark_parser._parser", "engine.web.api.diffs", "engine.web.api.impacts", "engine.replay.rounds._rules_named",
    "engine.round.legal.dahai", "engine.round.legal.hand_dahai", "engine.round.calls.orders", "engine.round.calls.order_tables",
    "engine.replay.through_round._copies_of", "engine.core.analysis.table_numbers",
    "engine.core.analysis._used_by_numbers",
}


def _fill() -> None:
    from engine.round.rules import round_rules
    from ruledsl.clause_origin import clause_origin

    scorer = Scorer(load("house"))
    scorer.score_json({"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S", "melds": [{"type": "pon", "tiles": "777z"}]})
    round_rules(scorer)
    clause_origin(scorer.rulebook.resolved, ("yaku", "riichi"))


def test_every_cache_is_registered_and_bounded() -> None:
    _fill()
    listed = memo.every_cache()
    names = {name for name, _, _ in listed}
    assert EXPECTED <= names, EXPECTED - names
    assert all(bound >= 1 and 0 <= size <= bound for _, size, bound in listed), [c for c in listed if c[1] > c[2]]


def test_clear_all_empties_every_cache_but_the_pinned_intern_tables() -> None:
    _fill()
    assert any(size for _, size, _ in memo.every_cache())
    memo.clear_all()
    pinned = {name for name, cache in NAMED.items() if cache.pinned}
    # the scorer's interned groups, and the shanten count's numbers of suit tables (a number kept in a cache must
    # name the same table for the life of the process)
    assert pinned == {"engine.scoring.facts.interned_groups", "engine.core.analysis.table_numbers"}
    assert [(name, size) for name, size, _ in memo.every_cache() if size and name not in pinned] == []
    _fill()  # emptied caches refill with the same answers (the scoring tests hold the answers themselves)


def test_the_entry_cap_and_trim_reach_lru_caches() -> None:
    @lru(100, name="tests.square")
    def square(x: int) -> int:
        return x * x

    try:
        for x in range(50):
            square(x)
        previous = memo.set_entry_cap(10)  # an lru_cache cannot lower its bound: holding more, it is emptied
        memo.set_entry_cap(previous)
        assert square.cache_info().currsize == 0
        for x in range(50):
            square(x)
        memo.clear_all()
        assert memo.entries() == 0  # the pinned intern table is outside the budget
        for x in range(50):
            square(x)
        assert memo.trim(0) >= 50 and square.cache_info().currsize == 0
    finally:
        del NAMED["tests.square"]


def test_an_identity_cache_drops_an_entry_with_its_key() -> None:
    class Key:
        pass

    cache: ByIdentity[int] = ByIdentity("tests.identity", 2)
    try:
        a, b = Key(), Key()
        cache.put(a, 1)
        assert cache.get(a) == 1 and cache.get(b) is None
        del a
        gc.collect()
        assert len(cache) == 0
        for _ in range(3):
            cache.put(Key(), 0)
        assert len(cache) <= 2
    finally:
        del NAMED["tests.identity"]


def test_importing_the_engine_does_not_change_what_the_notation_parser_raises() -> None:
    probe = (
        "import ruledsl.tiles as t\n"
        "def raised():\n"
        "    try:\n        t.parse_tiles('12x')\n"
        "    except Exception as exc:\n        return type(exc), exc.code, exc.message, exc.position\n"
        "before = raised()\n"
        "import engine, engine.core.tiles, engine.scoring.score\n"
        "after = raised()\n"
        "assert before == after, (before, after)\n"
        "from engine.core.errors import EngineError\n"
        "assert issubclass(before[0], EngineError) and engine.core.tiles.NotationError is before[0]\n"
        "print(before[1])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "invalid_notation"


def test_no_module_makes_an_unregistered_functools_cache() -> None:
    """``functools.cache`` and a bare ``lru_cache`` escape the registry; ``ruledsl.caches.lru`` and ``once`` do not."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = [
        f"{path.relative_to(root)}:{number}"
        for package in ("engine", "ruledsl")
        for path in sorted((root / package).rglob("*.py"))
        if path.name != "caches.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"@(functools\.)?(cache|lru_cache)\b", line.lstrip())
    ]
    assert found == []
