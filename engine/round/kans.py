"""Kans and the set-aside North: the closed and the added kan, the North (``nukidora``), and what follows when
nobody robbed them: the kan's indicator (``calls kan_dora``) and the replacement draw. An open kan is a call
(``engine.round.calls``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import tiles as T
from engine.round import calls, turns
from engine.round.actions import Action, held_sorted
from engine.round.events import Ankan, Kakan, Nukidora
from engine.round.facts import MOVED_BY_KAN
from engine.round.state import MeldRecord

if TYPE_CHECKING:
    from engine.round.state import RoundState


def own_ankan(r: RoundState, a: Action) -> None:
    """A closed kan: the meld, then a window for the hands that may rob it (thirteen orphans, where allowed)."""
    seat = a.actor
    s = r.seats[seat]
    for c in a.consumed:
        s.remove(c)
    s.melds.append(MeldRecord("ankan", a.consumed))
    r.log.append(Ankan(seat, a.consumed))
    turns.release_on_call(r, seat)
    kan_declared(r, seat)
    s.rest(r.kinds)
    r.pending_kan = a
    calls.open_window(r, "ankan", a.pai, seat)  # type: ignore[arg-type]


def own_kakan(r: RoundState, a: Action) -> None:
    """An added kan: the pon becomes a kan, then the window for a robbing ron (chankan)."""
    seat, tile = a.actor, a.pai
    assert tile is not None
    s = r.seats[seat]
    s.remove(tile)
    for i, m in enumerate(s.melds):
        if m.type == "pon" and m.tiles == a.consumed:
            s.melds[i] = MeldRecord("kakan", held_sorted((*m.tiles, tile)), m.called, m.source)
            s.pon_kinds.remove(T.kind_of(tile))
            break
    r.log.append(Kakan(seat, tile, a.consumed))
    turns.release_on_call(r, seat)
    kan_declared(r, seat)
    s.rest(r.kinds)
    r.pending_kan = a
    calls.open_window(r, "kakan", tile, seat)


def own_nukidora(r: RoundState, a: Action) -> None:
    """A North set aside (`table kita`): counted as dora, then a window where `table kita_ron` allows a ron on
    it."""
    seat, tile = a.actor, a.pai
    assert tile is not None
    s = r.seats[seat]
    s.remove(tile)
    s.kita += 1
    r.kita_tiles.append(tile)
    s.rest(r.kinds)
    r.log.append(Nukidora(seat, tile))
    if r.rules.kita_interrupts:
        turns.break_first_turn(r)
    r.pending_kan = a
    if r.rules.kita_ron != "nobody":
        calls.open_window(r, "kita", tile, seat)
    else:
        after_window(r)


def kan_declared(r: RoundState, seat: int) -> None:
    """A closed or added kan is counted at once; an earlier open kan's indicator, the interruption of the first
    go-around and of ippatsu wait until nobody robbed it (``_after_window``): a robbed kan never happened."""
    r.kan_makers.append(seat)
    r.steady_changes += 1
    r.moved |= MOVED_BY_KAN


def after_window(r: RoundState) -> None:
    """A kan or a set-aside North nobody robbed: its indicator (by ``calls kan_dora``), then the replacement."""
    a = r.pending_kan
    assert a is not None
    r.pending_kan = None
    if a.type != "nukidora":
        turns.break_first_turn(r)
        while r.pending_dora:  # an earlier open kan's indicator comes before this kan's
            turns.reveal(r)
            r.pending_dora -= 1
    if a.type == "ankan" or (a.type == "kakan" and r.rules.kan_dora == "immediately"):
        turns.reveal(r)
    elif a.type == "kakan":
        r.pending_dora += 1
    turns.draw(r, a.actor, replacement=True, rinshan=a.type != "nukidora" or r.rules.kita_rinshan)
