"""Readable round scenarios: rulebook variants, walls written per seat in mpsz, and a driver that plays the
scripted moves and lets every other decision default to the quietest choice (discard the drawn tile, pass).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping

from engine.api import load_rulebook_text, scorer
from engine.core import tiles as T
from engine.round import Action, Round, RoundSetup, Wall, round_rules
from engine.round.rules import RoundRules
from engine.round.witness import quiet_action


@functools.lru_cache(maxsize=256)
def rules(base: str = "house", override: str = "") -> RoundRules:
    """The round rules of a bundled rulebook, or of a variant extending it with the given items."""
    if not override:
        return round_rules(scorer(base))
    return round_rules(load_rulebook_text(f'rulebook variant "variant" extends {base}\n{override}\n'))


def interleave(players: int, dealer: int, draws: Mapping[int, str]) -> list[int | None]:
    """Live draws in the order they happen when nobody calls: the dealer first, then each seat in turn; a seat
    whose draws run out before another's draws any tile (None) meanwhile."""
    per_seat = {seat: list(T.tile_codes(text)) for seat, text in draws.items()}
    out: list[int | None] = []
    turn = 0
    while any(per_seat.values()):
        seat = (dealer + turn) % players
        out.append(per_seat[seat].pop(0) if per_seat.get(seat) else None)
        turn += 1
    return out


def make_round(
    r: RoundRules,
    hands: Mapping[int, str],
    draws: Mapping[int, str] | None = None,
    *,
    dealer: int = 0,
    dora: str = "",
    ura: str = "",
    replacements: str = "",
    honba: int = 0,
    sticks: int = 0,
    scores: tuple[int, ...] = (),
    round_wind: str = "E",
    tail: str = "",
    order: list[int | None] | None = None,
) -> Round:
    """A round on a wall arranged per seat (``draws`` per seat, interleaved as if nobody calls, or ``order``:
    the live draws in the order they happen, None for any tile)."""
    if order is None:
        order = interleave(r.players, dealer, draws or {})
    wall = Wall.build(r, hands, order, dealer=dealer, dora=dora, ura=ura, replacements=replacements, tail=tail)
    return Round(r, RoundSetup(round_wind=round_wind, dealer=dealer, honba=honba, sticks=sticks, scores=scores), wall)


def parse_step(step: str) -> tuple[int, str, int | None, tuple[int, ...]]:
    """``"1 pon 5p"``, ``"0 dahai 3m"``, ``"2 hora"``, ``"1 chi 3m 45m"`` -> seat, type, tile, consumed."""
    parts = step.split()
    seat, kind = int(parts[0]), parts[1]
    tile = T.tile_codes(parts[2])[0] if len(parts) > 2 else None
    consumed = tuple(sorted(T.tile_codes(parts[3]))) if len(parts) > 3 else ()
    return seat, kind, tile, consumed


def find(r: Round, step: str) -> Action:
    """The legal action a step names (a tile matches by kind unless written red), or AssertionError."""
    seat, kind, tile, consumed = parse_step(step)
    for a in r.legal_actions(seat):
        if a.type != kind:
            continue
        if tile is not None and a.pai is not None and a.pai != tile and not (tile < 34 and T.kind_of(a.pai) == tile):
            continue
        if consumed and tuple(sorted(T.kind_of(c) for c in a.consumed)) != tuple(sorted(T.kind_of(c) for c in consumed)):
            continue
        return a
    raise AssertionError(f"`{step}` is not legal now; seat {seat} may: {[str(a) for a in r.legal_actions(seat)]}")


def play(r: Round, *steps: str, until: Callable[[Round], bool] | None = None, finish: bool = True) -> Round:
    """Play the scripted steps in order, every other decision by ``quiet_action``; then, with ``finish``, go on
    by default until the round ends (or ``until`` holds)."""
    pending = list(steps)
    guard = 0
    while not r.finished and (pending or finish):
        if until is not None and until(r):
            break
        guard += 1
        assert guard < 2000, "scenario does not end"
        waiting = r.waiting()
        if pending:
            seat = parse_step(pending[0])[0]
            if seat in waiting:
                try:
                    action = find(r, pending[0])
                except AssertionError:
                    if r.phase != "respond":
                        raise
                else:  # a step waits for its moment: a seat answering a discard first passes
                    pending.pop(0)
                    r.apply(action)
                    continue
        r.apply(quiet_action(r, waiting[0]))
    assert not pending, f"round over before `{pending[0]}`: {r.settlement}"
    return r


def kinds(codes: Iterable[int]) -> list[int]:
    return sorted(T.kind_of(c) for c in codes)
