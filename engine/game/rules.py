"""`GameRules`: every game-level setting of a rulebook (table size, rounds, end of game, placement) read once.

The progression and the final table are pure functions over these values, so a test can move one setting and
watch one result move without playing a hand. Absent keys take the neutral meaning the vocabulary documents
(no bust, no target, no extension, no uma, return = start points), never a number of some ruleset.
"""

from __future__ import annotations

from engine.errors import InvalidRulebook
from ruledsl.compile import Rulebook
from ruledsl.record import record

NEEDED_TABLE_KEYS = ("players", "start_points", "rounds", "riichi_deposit")
# what may break a dealer's count of wins in a row while he keeps the seat; both by default: only wins count
STREAK_BREAKS = ("exhaustive", "abortive")


@record
class GameRules:
    """The game-level settings (`settings table` and `settings game`) of one compiled rulebook."""

    players: int
    start_points: int
    rounds: tuple[str, ...]
    riichi_deposit: int
    bust_below: int | None = None
    bust_ends_game: bool = True
    agari_yame: bool = False
    tenpai_yame: bool = False
    yame_min_points: int | None = None
    target_points: int | None = None
    extension_rounds: tuple[str, ...] = ()
    extension_ends: str = "sudden_death"
    leftover_sticks: str = "first_place"
    uma: tuple[int, ...] = ()
    floating_uma: tuple[tuple[int, ...], ...] = ()
    oka_return: int | None = None
    tie_break: str = "seat_order"
    score_rounding: str = "exact"
    # hands after which the dealer keeps the seat but his count of wins in a row starts again (paarenchan)
    dealer_win_streak_breaks: tuple[str, ...] = STREAK_BREAKS

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
        """Read a compiled rulebook's `table` and `game` settings."""
        table = rulebook.settings.get("table", {})
        game = rulebook.settings.get("game", {})
        missing = [key for key in NEEDED_TABLE_KEYS if key not in table]
        if missing:
            names = ", ".join(f"`{key}`" for key in missing)
            raise InvalidRulebook(f"rulebook `{rulebook.name}`: a game needs {names} in `settings table`")
        defaults = cls(players=0, start_points=0, rounds=(), riichi_deposit=0)
        return cls(
            players=int(table["players"]),
            start_points=int(table["start_points"]),
            rounds=tuple(table["rounds"]),
            riichi_deposit=int(table["riichi_deposit"]),
            bust_below=game.get("bust_below"),
            bust_ends_game=bool(game.get("bust_ends_game", defaults.bust_ends_game)),
            agari_yame=bool(game.get("agari_yame", defaults.agari_yame)),
            tenpai_yame=bool(game.get("tenpai_yame", defaults.tenpai_yame)),
            yame_min_points=game.get("yame_min_points"),
            target_points=game.get("target_points"),
            extension_rounds=tuple(game.get("extension_rounds", ())),
            extension_ends=str(game.get("extension_ends", defaults.extension_ends)),
            leftover_sticks=str(game.get("leftover_sticks", defaults.leftover_sticks)),
            uma=tuple(game.get("uma", ())),
            floating_uma=tuple(tuple(entry) for entry in game.get("floating_uma", ())),
            oka_return=game.get("oka_return"),
            tie_break=str(game.get("tie_break", defaults.tie_break)),
            score_rounding=str(game.get("score_rounding", defaults.score_rounding)),
            dealer_win_streak_breaks=_streak_breaks(game.get("dealer_win_streak_breaks", STREAK_BREAKS)),
        )


def _streak_breaks(value: object) -> tuple[str, ...]:
    """`settings game dealer_win_streak_breaks`, checked: a misspelt outcome would silently never break a streak."""
    words = tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else (str(value),)
    unknown = [w for w in words if w not in STREAK_BREAKS]
    if unknown:
        raise InvalidRulebook(f"`settings game dealer_win_streak_breaks`: {', '.join(map(repr, unknown))}; expected some of {', '.join(STREAK_BREAKS)}")
    return words
