"""`GameRules`: every game-level setting of a rulebook (table size, rounds, end of game, placement) read once.

The progression and the final table are pure functions over these values, so a test can move one setting and
watch one result move without playing a hand. Absent keys take the neutral meaning the vocabulary documents
(no bust, no target, no extension, no uma, return = start points), never a number of some ruleset.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import InvalidRulebook
from ruledsl import vocabulary as V
from ruledsl.caches import ByIdentity
from ruledsl.compile import Rulebook
from ruledsl.record import record

NEEDED_TABLE_KEYS = ("players", "start_points", "rounds", "riichi_deposit")
# what may break a dealer's count of wins in a row while he keeps the seat; both by default: only wins count
STREAK_BREAKS = V.SETTINGS["game"]["dealer_win_streak_breaks"].choices


def _default(key: str) -> Any:
    """A `settings game` key's default, from the vocabulary (the one place defaults are written)."""
    return V.SETTINGS["game"][key].default


@record
class GameRules:
    """The game-level settings (`settings table` and `settings game`) of one compiled rulebook."""

    players: int
    start_points: int
    rounds: tuple[str, ...]
    riichi_deposit: int
    bust_below: int | None = _default("bust_below")
    bust_ends_game: bool = _default("bust_ends_game")
    agari_yame: bool = _default("agari_yame")
    tenpai_yame: bool = _default("tenpai_yame")
    yame_min_points: int | None = _default("yame_min_points")
    target_points: int | None = _default("target_points")
    extension_rounds: tuple[str, ...] = _default("extension_rounds")
    extension_ends: str = _default("extension_ends")
    leftover_sticks: str = _default("leftover_sticks")
    uma: tuple[int, ...] = _default("uma")
    floating_uma: tuple[tuple[int, ...], ...] = _default("floating_uma")
    oka_return: int | None = _default("oka_return")
    tie_break: str = _default("tie_break")
    score_rounding: str = _default("score_rounding")
    # hands after which the dealer keeps the seat but his count of wins in a row starts again (paarenchan)
    dealer_win_streak_breaks: tuple[str, ...] = _default("dealer_win_streak_breaks")

    @property
    def winds(self) -> tuple[str, ...]:
        """Every prevailing wind the game may reach, the extension included, in order."""
        return self.rounds + self.extension_rounds

    @property
    def return_points(self) -> int:
        """The points a player must give back before placement (the start points when there is no oka)."""
        return self.start_points if self.oka_return is None else self.oka_return

    @classmethod
    def of(cls, rulebook: Rulebook) -> GameRules:
        """Read a compiled rulebook's `table` and `game` settings, once per rulebook object: a replay's games, a
        self-play run's and an impact run's mostly share one rulebook (a refusal is not kept: it raises again)."""
        found = _READ.get(rulebook)
        return found if found is not None else _READ.put(rulebook, cls._read(rulebook))

    @classmethod
    def _read(cls, rulebook: Rulebook) -> GameRules:
        table = rulebook.settings.get("table", {})
        missing = [key for key in NEEDED_TABLE_KEYS if key not in table]
        if missing:
            names = ", ".join(f"`{key}`" for key in missing)
            raise InvalidRulebook(f"rulebook `{rulebook.name}`: a game needs {names} in `settings table`")

        def game(key: str) -> Any:  # absent keys take the vocabulary's default
            return rulebook.setting("game", key)

        return cls(
            players=int(table["players"]),
            start_points=int(table["start_points"]),
            rounds=tuple(table["rounds"]),
            riichi_deposit=int(table["riichi_deposit"]),
            bust_below=game("bust_below"),
            bust_ends_game=bool(game("bust_ends_game")),
            agari_yame=bool(game("agari_yame")),
            tenpai_yame=bool(game("tenpai_yame")),
            yame_min_points=game("yame_min_points"),
            target_points=game("target_points"),
            extension_rounds=tuple(game("extension_rounds")),
            extension_ends=str(game("extension_ends")),
            leftover_sticks=str(game("leftover_sticks")),
            uma=tuple(game("uma")),
            floating_uma=tuple(tuple(entry) for entry in game("floating_uma")),
            oka_return=game("oka_return"),
            tie_break=str(game("tie_break")),
            score_rounding=str(game("score_rounding")),
            dealer_win_streak_breaks=_streak_breaks(game("dealer_win_streak_breaks")),
        )

# per rulebook object (its identity: rulebooks compare by value), dropped with it, at most 64
_READ: ByIdentity[GameRules] = ByIdentity("engine.game.rules.game_rules", 64)


def _streak_breaks(value: object) -> tuple[str, ...]:
    """`settings game dealer_win_streak_breaks`, checked: a misspelt outcome would silently never break a streak."""
    words = tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else (str(value),)
    unknown = [w for w in words if w not in STREAK_BREAKS]
    if unknown:
        raise InvalidRulebook(f"`settings game dealer_win_streak_breaks`: {', '.join(map(repr, unknown))}; expected some of {', '.join(STREAK_BREAKS)}")
    return words
