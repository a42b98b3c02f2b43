"""The final table of a game: leftover sticks, placement, uma and oka, final scores, as the contract's JSON.

Scores are in thousands of points relative to the return points (`oka_return`, else the start points), plus
each place's uma, plus the oka to first place; a tie either follows seat order or shares the tied places'
uma and oka (`tie_break`). Arithmetic is exact (fractions) and rounded only as `score_rounding` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.game.progression import ENDED_BY, GameState, placement
from engine.game.rules import GameRules

if TYPE_CHECKING:  # the model lives in ``engine.game.result_model``; read here through ``__getattr__``
    from engine.game.result_model import GameResult as GameResult

THOUSAND = 1000
DECIMALS = 6  # enough to print a shared uma of thirds without float noise


def __getattr__(name: str) -> Any:
    """``GameResult``, imported (with pydantic) only when a caller reads it."""
    if name == "GameResult":
        from engine.game.result_model import GameResult

        return GameResult
    raise AttributeError(f"module 'engine.game.result' has no attribute {name!r}")


def final_points(rules: GameRules, state: GameState) -> tuple[int, ...]:
    """Points at the end: the sticks still on the table go to first place, or stay there (`leftover_sticks`)."""
    points = list(state.scores)
    if rules.leftover_sticks == "first_place" and state.sticks:
        points[placement(points)[0]] += state.sticks * rules.riichi_deposit
    return tuple(points)


def uma_for(rules: GameRules, points: Sequence[int]) -> tuple[int, ...]:
    """The uma per place: `floating_uma`'s entry for the number of players at or above the return points when
    the rulebook has one for that number, else `uma` (none: zeros)."""
    floating = sum(p >= rules.return_points for p in points)
    if 1 <= floating <= len(rules.floating_uma):
        return rules.floating_uma[floating - 1]
    return rules.uma or (0,) * rules.players


def place_bonus(rules: GameRules, points: Sequence[int]) -> tuple[Fraction, ...]:
    """Uma plus oka per place, in thousands: the oka is every player's difference between return and start."""
    uma = [Fraction(u) for u in uma_for(rules, points)]
    uma[0] += Fraction((rules.return_points - rules.start_points) * rules.players, THOUSAND)
    return tuple(uma)


def seat_bonus(rules: GameRules, points: Sequence[int]) -> tuple[Fraction, ...]:
    """Uma plus oka per seat; with `tie_break = "share"` tied seats split the bonus of the places they occupy."""
    order = placement(points)
    by_place = place_bonus(rules, points)
    bonus = [Fraction(0)] * len(points)
    for place, seat in enumerate(order):
        bonus[seat] = by_place[place]
    if rules.tie_break == "share":
        for value in set(points):
            places = [p for p, seat in enumerate(order) if points[seat] == value]
            shared = sum((by_place[p] for p in places), Fraction(0)) / len(places)
            for p in places:
                bonus[order[p]] = shared
    return tuple(bonus)


def _half_toward_zero(x: Fraction) -> int:
    """Round to a whole number, a half going toward zero (five down, six up)."""
    whole = int(x)  # truncates toward zero
    rest = x - whole
    if abs(rest) > Fraction(1, 2):
        whole += 1 if rest > 0 else -1
    return whole


def _half_away_from_zero(x: Fraction) -> int:
    """Round to a whole number, a half going away from zero (四捨五入 on a signed score)."""
    whole = int(x)
    rest = x - whole
    if abs(rest) >= Fraction(1, 2):
        whole += 1 if rest > 0 else -1
    return whole


def _rounded_relative(rules: GameRules, seat_points: int) -> Fraction | int:
    """One player's score before uma, rounded to a whole thousand as `score_rounding` says: "five_down_six_up"
    rounds the score relative to the return, "four_down_five_up" the points themselves (then subtracts)."""
    if rules.score_rounding == "four_down_five_up":
        return _half_away_from_zero(Fraction(seat_points, THOUSAND)) - Fraction(rules.return_points, THOUSAND)
    return _half_toward_zero(Fraction(seat_points - rules.return_points, THOUSAND))


def final_scores(rules: GameRules, points: Sequence[int]) -> tuple[Fraction, ...]:
    """Each seat's score: (points - return) / 1000 + uma + oka, rounded as `score_rounding` says; when it rounds,
    every player but the first is rounded and the first takes what keeps the sum."""
    bonus = seat_bonus(rules, points)
    exact = [Fraction(p - rules.return_points, THOUSAND) + b for p, b in zip(points, bonus, strict=True)]
    if rules.score_rounding == "exact":
        return tuple(exact)
    order = placement(points)
    rounded = list(exact)
    for seat in order[1:]:
        rounded[seat] = _rounded_relative(rules, points[seat]) + bonus[seat]
    rounded[order[0]] = sum(exact, Fraction(0)) - sum((rounded[s] for s in order[1:]), Fraction(0))
    return tuple(rounded)


def _number(x: Fraction) -> float:
    return round(float(x), DECIMALS)


def final_table(rules: GameRules, state: GameState) -> dict[str, list[int] | list[float]]:
    """A finished game's final points and scores, as ``game_result`` gives them, without the contract's model."""
    points = final_points(rules, state)
    return {"final_points": list(points), "scores": [_number(s) for s in final_scores(rules, points)]}


def game_result(rules: GameRules, state: GameState, rulebook: str, seed: int | None) -> dict[str, Any]:
    """The contract's game result for a finished game, validated by `GameResult` (``plain_result`` first)."""
    if not state.finished:
        raise ValueError("the game is not over yet")
    points = final_points(rules, state)
    result = {
        "rulebook": rulebook,
        "seed": seed,
        "rounds": state.rounds_played,
        "final_points": list(points),
        "placement": list(placement(points)),
        "uma_oka": [_number(b) for b in seat_bonus(rules, points)],
        "scores": [_number(s) for s in final_scores(rules, points)],
        "ended_by": state.ended_by,
    }
    plain = plain_result(result)
    if plain is not None:
        return plain
    from engine.game.result_model import GameResult

    return GameResult.model_validate(result).model_dump()


def plain_result(result: dict[str, Any]) -> dict[str, Any] | None:
    """``result`` itself when every field already has the exact type and bounds `GameResult` declares, else None.

    Such a dict is what the model's validation and dump give back (the same keys in the same order, each value
    unchanged), so a self-played game's result needs no pydantic: importing it cost more than a first game's
    play. Anything else (a bool where a number goes, an int among floats) goes through the model, which converts
    or refuses it as before."""
    if list(result) != _FIELDS:
        return None
    seed, rounds = result["seed"], result["rounds"]
    if (
        type(result["rulebook"]) is str
        and (seed is None or type(seed) is int)
        and type(rounds) is int
        and rounds >= 1
        and _all_of(result["final_points"], int)
        and _all_of(result["placement"], int)
        and _all_of(result["uma_oka"], float)
        and _all_of(result["scores"], float)
        and type(result["ended_by"]) is str
        and result["ended_by"] in ENDED_BY
    ):
        return result
    return None


def _all_of(values: object, kind: type) -> bool:
    return type(values) is list and all(type(v) is kind for v in values)


# the fields of `GameResult`, in its order (``tests/game/test_plain_result.py`` holds the two equal)
_FIELDS = ["rulebook", "seed", "rounds", "final_points", "placement", "uma_oka", "scores", "ended_by"]
