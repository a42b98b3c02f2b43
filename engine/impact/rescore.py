"""One logged win re-scored: under A (which must reproduce the log) and under B, with the same hand and table.

The winner's gain is the score response's ``total`` with the round's honba and riichi sticks, as the site paid it;
each other seat's share comes from the response's ``payments`` (the discarder pays a ron; a tsumo splits between
the dealer and the others), so a game's scores can be carried forward under B.
"""

from __future__ import annotations

from typing import Any

from engine.diff.witness import Outcome
from engine.impact.variants import Charge, Rules, charges, score
from engine.replay.compare import compare_win
from engine.replay.win_situations import WinCase
from ruledsl.record import record

WINDS = "ESWN"


@record(slots=False)
class Side:
    """A win's result under one rulebook, as a reader compares it: value, limit, yaku and who pays what."""

    ok: bool
    han: int
    fu: int
    yakuman: int
    limit: str | None
    yaku: tuple[str, ...]
    total: int
    seat_deltas: tuple[int, ...]
    error: str | None

    def to_json(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "error": self.error}
        return {
            "ok": True,
            "han": self.han,
            "fu": self.fu,
            "yakuman": self.yakuman,
            "limit": self.limit,
            "yaku": list(self.yaku),
            "total": self.total,
            "seat_deltas": list(self.seat_deltas),
        }


@record(slots=False)
class WinImpact:
    """One win of a log: where it is, the hand, its result under A and B, and the items charged for a change."""

    file: str
    round_label: str
    seat: int
    from_seat: int
    hand: str
    a: Side
    b: Side
    charges: tuple[Charge, ...]
    liability: bool  # a pao win: its payers are not the usual ones, so seat shares are not carried forward

    @property
    def changed(self) -> bool:
        return (self.a.ok, self.a.total, self.a.han, self.a.fu, self.a.yakuman, self.a.yaku) != (
            self.b.ok,
            self.b.total,
            self.b.han,
            self.b.fu,
            self.b.yakuman,
            self.b.yaku,
        )

    @property
    def illegal(self) -> bool:
        """B refuses the win (no yaku, say): the round could not have ended this way under B."""
        return self.a.ok and not self.b.ok

    @property
    def delta(self) -> int:
        """Points more (or fewer) the winner takes under B; for a win B refuses, the whole gain under A."""
        return self.b.total - self.a.total

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "round": self.round_label,
            "seat": self.seat,
            "from_seat": self.from_seat,
            "hand": self.hand,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "delta": self.delta,
            "illegal": self.illegal,
            "items": [{"item": c.item, "delta": c.delta, "alone": c.alone, "illegal": c.illegal} for c in self.charges],
        }


def describe(request: dict[str, Any]) -> str:
    """The hand as a reader types it into ``riichi score``: tiles, melds, the winning tile and how."""
    words = [request["hand"]]
    words += [f"{m['type']} {m['tiles']}" for m in request.get("melds", [])]
    words.append(f"win {request['win']} {'tsumo' if request.get('tsumo') else 'ron'} seat {request['seat_wind']}")
    return " ".join(words)


def seat_deltas(result: Outcome, request: dict[str, Any], who: int, from_who: int, players: int) -> tuple[int, ...]:
    """Each seat's point change from one win: the winner's total, the discarder's ron or each payer's tsumo share."""
    out = [0] * players
    if not result.ok:
        return tuple(out)
    payments = result.response.get("payments", {})
    dealer = (who - WINDS.index(request["seat_wind"])) % players
    for seat in range(players):
        if seat == who:
            continue
        if not request.get("tsumo"):
            out[seat] = -payments.get("ron", 0) if seat == from_who else 0
        else:
            out[seat] = -payments.get("dealer" if seat == dealer else "non_dealer", 0)
    out[who] = result.total
    return tuple(out)


def _side(result: Outcome, request: dict[str, Any], case: WinCase) -> Side:
    players = case.rules.players
    return Side(
        result.ok,
        result.han,
        result.fu,
        result.yakuman,
        result.limit,
        tuple(sorted(result.yaku)),
        result.total,
        seat_deltas(result, request, case.win.who, case.win.from_who, players),
        result.error,
    )


def reproduces(rules: Rules, case: WinCase) -> dict[str, Any] | None:
    """None when A scores the win exactly as the log recorded it; else what differs (the round is left out).

    A log that records no yaku (mjai gives only each seat's point change) is reproduced when A pays the winner
    exactly what the log did."""
    if case.win.yaku or case.win.yakuman:
        return compare_win(case, rules.a)
    deltas = case.expected.get("deltas") or []
    want = {"gain": deltas[case.win.who] if len(deltas) > case.win.who else None}
    got = score(rules.a, case.request)
    if not got.ok:
        return {"expected": want, "got": {"error": {"code": got.error}}}
    if want["gain"] is None or (case.win.pao_who is None and got.total != want["gain"]):
        return {"expected": want, "got": {"gain": got.total}}
    return None


def rescore(rules: Rules, case: WinCase) -> WinImpact:
    """The win under A and under B; a changed one charged to the items that move it."""
    request = case.request
    under_a, under_b = score(rules.a, request), score(rules.b, request)
    moved = under_a.key != under_b.key
    return WinImpact(
        file=case.file,
        round_label=case.round_label,
        seat=case.win.who,
        from_seat=case.win.from_who,
        hand=describe(request),
        a=_side(under_a, request, case),
        b=_side(under_b, request, case),
        charges=tuple(charges(rules, request, under_a, under_b)) if moved else (),
        liability=case.win.pao_who is not None,
    )
