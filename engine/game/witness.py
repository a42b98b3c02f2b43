"""A witness for a difference in game rules: a short final table or one round's end on which two rulebooks'
game settings give different outcomes, so that `riichi diff` can show an organiser what a game-level change does
(as a witness hand shows a scoring change).

Candidates are built from the rulebooks' own numbers (start points, return, target, players), never from a
ruleset's: final tables spread around the return points (with a tie, a half-thousand and sticks left on the
table), and the deciding rounds of a game (the last dealer winning or tenpai while leading, the last round passing
below the target, an extension round reaching it, a score dropping below the bust line).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core.errors import InvalidRulebook
from engine.game.progression import GameState, advance, start
from engine.game.result import final_table
from engine.game.rules import GameRules
from ruledsl.compile import Rulebook
from ruledsl.record import replace

STEP = 1000  # a thousand points: the unit of final scores


def _spread(r: GameRules, players: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Final points around the return (each summing with its sticks to the table's total), with sticks left."""
    total = r.start_points * players
    centre = r.return_points
    shapes = (
        (15, 5, -5, -15),  # a plain table
        (5, 5, -5, -5),  # two ties
        (15.3, 5.5, -5.4, -15.4),  # half-thousands and tenths
        (12, 4, -4, -12),
    )
    for shape in shapes:
        pts = [int(centre + s * STEP) for s in shape[:players]]
        for sticks in (0, 2):
            pts_now = list(pts)
            pts_now[-1] += total - sum(pts_now) - sticks * r.riichi_deposit
            yield tuple(pts_now), sticks


def _final(rules: GameRules, state: GameState) -> dict[str, Any] | None:
    """A final table's outcome under these rules; None for a table of another size."""
    if rules.players != len(state.scores):
        return None
    return final_table(rules, state)  # what ``game_result`` says of it, without its pydantic validation


def final_tables(a: GameRules, b: GameRules, whole: GameRules | None = None) -> Iterator[dict[str, Any]]:
    """Final tables that ``a`` and ``b`` score differently; ``whole``: a third rules (the whole of the other
    rulebook, when ``b`` is ``a`` with one change) whose outcome of the same table each one also carries."""
    for points, sticks in _spread(a, a.players):
        state = replace(start(a), scores=points, sticks=sticks, rounds_played=1, ended_by="last_round")
        ra, rb = _final(a, state), _final(b, state)
        if ra is not None and rb is not None and ra != rb:
            found = {"kind": "final_table", "points": list(points), "sticks": sticks, "a": ra, "b": rb}
            if whole is not None:
                found["whole"] = {"a": ra, "b": _final(whole, state)}
            yield found


def _settlement(kind: str, dealer: int, players: int, renchan: bool, deltas: tuple[int, ...] | None = None, winner: int | None = None) -> dict[str, Any]:
    return {
        "kind": kind,
        "wins": [{"seat": winner}] if winner is not None else [],
        "deltas": list(deltas or (0,) * players),
        "honba_next": 0,
        "sticks_next": 0,
        "dealer_next": dealer if renchan else (dealer + 1) % players,
        "renchan": renchan,
        "tenpai": [seat == dealer for seat in range(players)],
    }


def _positions(r: GameRules) -> Iterator[tuple[str, GameState, dict[str, Any]]]:
    n, last = r.players, r.players - 1
    top = max(r.return_points, r.target_points or 0, r.yame_min_points or 0) + 5 * STEP
    lead = [(n * r.start_points - top) // last // 100 * 100] * last + [top]
    lead[0] += n * r.start_points - sum(lead)
    close = [r.start_points] * n
    below = (r.target_points or r.start_points) - STEP
    spread = [below] + [(n * r.start_points - below) // last // 100 * 100] * last
    spread[-1] += n * r.start_points - sum(spread)
    south = len(r.rounds) - 1
    at_last = replace(start(r), wind_index=south, dealer=last)
    yield "the last dealer wins while leading", replace(at_last, scores=tuple(lead)), _settlement("win", last, n, True, winner=last)
    if r.yame_min_points:  # leading, but below the points agari-yame needs
        low = r.yame_min_points - STEP
        low_lead = [(n * r.start_points - low) // last // 100 * 100] * last + [low]
        low_lead[0] += n * r.start_points - sum(low_lead)
        if max(low_lead[:-1]) < low:
            yield "the last dealer wins while leading below the points needed to stop", replace(at_last, scores=tuple(low_lead)), _settlement("win", last, n, True, winner=last)
    yield "the last dealer is tenpai at the draw while leading", replace(at_last, scores=tuple(lead)), _settlement("exhaustive", last, n, True)
    yield "the last round passes to the next dealer", replace(at_last, scores=tuple(spread)), _settlement("exhaustive", last, n, False)
    yield "the last round passes with everybody level", replace(at_last, scores=tuple(close)), _settlement("exhaustive", last, n, False)
    if r.extension_rounds:
        first_ext = replace(start(r), wind_index=len(r.rounds), dealer=0, scores=tuple(spread))
        reach = tuple([-STEP] + [0] * (n - 2) + [STEP]) if n > 1 else (0,)
        yield "an extension round leaves a player at the target", first_ext, _settlement("win", 0, n, False, deltas=reach[::-1], winner=last)
    drop = (r.bust_below if r.bust_below is not None else 0) - STEP // 10
    bust = tuple([r.start_points - (r.start_points - drop)] + [r.start_points] * (n - 2) + [r.start_points + (r.start_points - drop)])
    deltas = tuple(b - r.start_points for b in bust)
    yield "a score drops below the bust line in the first round", start(r), _settlement("win", 0, n, False, deltas=deltas, winner=last)


def _describe(r: GameRules, s: GameState) -> str:
    if s.finished:
        return f"the game ends ({s.ended_by})"
    return f"the game goes on: {s.round_wind(r)} round, seat {s.dealer} deals"


def _after(rules: GameRules, state: GameState, settlement: dict[str, Any]) -> GameState | None:
    """The game after this round's end under these rules; None where they cannot play that round."""
    if rules.players != len(state.scores) or state.wind_index >= len(rules.winds):
        return None
    try:
        return advance(rules, state, settlement)
    except (ValueError, IndexError):
        return None


def round_ends(a: GameRules, b: GameRules, whole: GameRules | None = None) -> Iterator[dict[str, Any]]:
    """Round ends after which ``a`` and ``b`` go on differently (``whole`` as in ``final_tables``)."""
    if a.players != b.players:
        return
    for what, state, settlement in (*_positions(a), *_positions(b)):
        after_a, after_b = _after(a, state, settlement), _after(b, state, settlement)
        if after_a is None or after_b is None:
            continue
        if (after_a.ended_by, after_a.wind_index, after_a.dealer) != (after_b.ended_by, after_b.wind_index, after_b.dealer):
            found: dict[str, Any] = {
                "kind": "round_end",
                "situation": what,
                "round": f"{state.round_wind(a)} round, seat {state.dealer} deals",
                "scores_after": [s + d for s, d in zip(state.scores, settlement["deltas"], strict=True)],
                "a": _describe(a, after_a),
                "b": _describe(b, after_b),
            }
            if whole is not None:
                after_whole = _after(whole, state, settlement)
                found["whole"] = {"a": found["a"], "b": _describe(whole, after_whole) if after_whole is not None else None}
            yield found


def game_witness(a: GameRules, b: GameRules, whole: GameRules | None = None) -> dict[str, Any] | None:
    """The first scenario (a round's end, else a final table) whose outcome differs between the two game rules;
    None when every candidate agrees. With ``whole`` (the whole other rulebook, ``b`` being ``a`` with one change),
    the scenario also carries ``whole``: its outcome under ``a`` and under ``whole``."""
    for found in round_ends(a, b, whole):
        return found
    for found in final_tables(a, b, whole):
        return found
    return None


def same_game(a: Rulebook, b: Rulebook) -> bool:
    """Whether the two rulebooks play a game alike (an oka return equal to the start points is no oka): a game
    setting that changes nothing here only writes out what the other already does."""
    try:
        ga, gb = GameRules.of(a), GameRules.of(b)
    except InvalidRulebook:
        return False
    return replace(ga, oka_return=ga.return_points) == replace(gb, oka_return=gb.return_points)


def witness_for(a: Rulebook, b: Rulebook, whole: Rulebook | None = None) -> dict[str, Any] | None:
    """`game_witness` of two compiled rulebooks (for `riichi diff`: call it with A and A plus one change, and the
    whole of B as ``whole``)."""
    try:
        ga, gb = GameRules.of(a), GameRules.of(b)
    except InvalidRulebook:  # a rulebook without the table a game needs has no game to show
        return None
    try:
        gw = GameRules.of(whole) if whole is not None else None
    except InvalidRulebook:
        gw = None
    found = game_witness(ga, gb, gw)
    if found is not None and whole is not None and "whole" not in found:
        found["whole"] = {"a": found["a"], "b": None}
    return found


def render(witness: dict[str, Any], a: str = "A", b: str = "B", whole: str | None = None) -> list[str]:
    """The witness in words for an organiser: the situation, then what each rulebook makes of it (a scripted round
    of `engine.round.witness` too, so that one call renders every kind of scenario). With ``whole`` (the other
    rulebook's name), a last line says what the whole of that rulebook makes of the same situation."""
    if witness["kind"] == "round":
        from engine.round.witness import render as render_round

        return render_round(witness, a, b, whole)
    if witness["kind"] == "round_end":
        scores = " ".join(f"{s:,}" for s in witness["scores_after"])
        lines = [f"{witness['round']}: {witness['situation']}; scores after it {scores}"]
    else:
        points = " ".join(f"{p:,}" for p in witness["points"])
        sticks = f" with {witness['sticks']} riichi sticks on the table" if witness["sticks"] else ""
        lines = [f"final points {points}{sticks}"]
    lines += [f"{a}: {side_words(witness, witness['a'])}", f"{b}: {side_words(witness, witness['b'])}"]
    if whole is not None and "whole" in witness:
        other = witness["whole"]["b"]
        lines.append(f"{whole}: " + ("the same as with this change alone" if other == witness["b"] else side_words(witness, other)))
    return lines


def side_words(witness: dict[str, Any], side: Any) -> str:
    """What one rulebook makes of a scenario, in words (None: the scenario cannot be played under it)."""
    if side is None:
        return "this situation cannot arise under it (another table size, tile set or round count)"
    if witness["kind"] == "round":
        return str(side["words"])
    if witness["kind"] == "round_end":
        return str(side)
    final = " ".join(f"{p:,}" for p in side["final_points"])
    scores = " ".join(f"{s:+.1f}" for s in side["scores"])
    return f"points {final}, scores {scores}"
