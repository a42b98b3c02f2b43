"""How a hand ends: wins (multiple ron, the honba and sticks shares), abortive draws and the exhaustive draw
(tenpai, voluntary noten, nagashi, noten payments), each closed by ``finish``, which writes the settlement. The
payment arithmetic is ``engine.round.settle``'s; this module decides which payments the end of a hand makes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.round import scoring
from engine.round.actions import Action
from engine.round.events import END_KYOKU, Hora, Ryukyoku
from engine.round.facts import round_facts
from engine.round.karaten import is_tenpai
from engine.round.settle import next_counters, win_deltas
from engine.round.settlement import NextHand, Win, settlement
from engine.round.state import Seat
from engine.scoring.pao import WinClaim, field
from ruledsl.record import replace

if TYPE_CHECKING:
    from engine.round.state import RoundState


def finish(
    r: RoundState, kind: str, deltas: list[int], counters: NextHand, abortive: str | None, wins: list[Win], clauses: list[str],
    tenpai: list[bool] | None = None, nagashi: list[int] | None = None,
) -> None:
    """The hand is over: scores moved and the settlement written (deltas net of the riichi deposits paid this
    hand): the typed ``Round.settled``, from which ``Round.settlement`` writes the contract's object when read."""
    for seat, d in enumerate(deltas):
        r.scores[seat] += d
    total = tuple(deltas[i] - r.deposits[i] for i in range(len(deltas)))
    r.finished = True
    r.phase = "finished"
    r.pending = {}
    settled = settlement(
        kind, abortive, tuple(wins), total, counters, tuple(r.scores), tuple(clauses),
        None if tenpai is None else tuple(tenpai), None if nagashi is None else tuple(nagashi),
    )
    r.settled = settled
    r.log.append(END_KYOKU)


def end_wins(r: RoundState, claims: list[WinClaim]) -> None:
    """One or more wins: each scored with its honba and sticks share, paid (pao included), then the next
    counters."""
    rules = r.rules
    players = rules.players
    deltas = [0] * players
    wins: list[Win] = []
    clauses: list[str] = []
    nearest = claims[0].seat
    for claim in claims:
        honba_here = r.setup.honba if (rules.honba_to == "each" or claim.seat == nearest) else 0
        sticks_here = sticks_share(r, claims, claim.seat)
        result = claim.result
        if result.honba != honba_here or result.sticks != sticks_here:
            result = scoring.score(r, claim.seat, claim.tile, claim.source, "kakan" if claim.chankan else "dahai", honba=honba_here, sticks=sticks_here) or result
            claim = WinClaim(claim.seat, claim.source, claim.tile, result, claim.chankan)
        d, cl = win_deltas(r, claim)
        clauses += cl
        for i in range(players):
            deltas[i] += d[i]
        deltas[claim.seat] += sticks_here * rules.riichi_deposit
        wins.append(Win(claim.seat, claim.source, claim.tile, result, tuple(d)))
        r.log.append(Hora(claim.seat, claim.source, claim.tile, tuple(d), result.ura_indicators or ""))
    dealer_won = any(c.seat == r.setup.dealer for c in claims)
    tags = {"dealer_win"} if dealer_won else {"non_dealer_win"}
    counters = next_counters(r, tags, None, 0)
    finish(r, "win", deltas, counters, None, wins, clauses)


def sticks_share(r: RoundState, claims: list[WinClaim], seat: int) -> int:
    """Riichi sticks this winner takes (``win sticks_to``): all to the nearest, or split evenly."""
    nearest = claims[0].seat
    if r.rules.sticks_to == "split":
        each, extra = divmod(r.sticks, len(claims))
        return each + (extra if seat == nearest else 0)
    return r.sticks if seat == nearest else 0


def end_abortive(r: RoundState, item: Any) -> None:
    """An abortive draw (or a triple ron that aborts): sticks returned where the item says, the next counters."""
    env = round_facts(r, r.actor)
    deltas = [0] * r.rules.players
    kept = r.sticks
    if item is not None and field(item, "sticks", env, "stay") == "return":
        for seat, paid in enumerate(r.deposits):
            deltas[seat] += paid
            kept -= paid // r.rules.riichi_deposit if r.rules.riichi_deposit else 0
    name = item.name if item is not None else None
    r.log.append(Ryukyoku(name or "triple_ron", tuple(deltas)))
    counters = next_counters(r, {"abortive"}, item, kept)
    finish(r, "abortive", deltas, counters, name, [], [item.clause or item.name] if item is not None else [])


def exhaustive(r: RoundState) -> None:
    """The live wall is empty and the last discard passed: tenpai, nagashi and noten payments."""
    rules = r.rules
    tenpai = [tenpai_at_draw(r, s) for s in r.seats]
    r.tenpai = tenpai
    if rules.voluntary_noten:
        r.pending = {i: (Action("tenpai", i), Action("noten", i)) for i, s in enumerate(r.seats) if tenpai[i] and not s.riichi}
        r.answers = {}
        if r.pending:
            r.phase = "declare"
            return
    end_exhaustive(r)


def tenpai_at_draw(r: RoundState, s: Seat) -> bool:
    """Whether the hand is tenpai at the exhaustive draw, under `settings tenpai karaten`."""
    return is_tenpai(r.rules.karaten, s.counts, s.melds, s.waits)


def end_exhaustive(r: RoundState) -> None:
    """The exhaustive draw settled: nagashi payments, then noten payments (unless a nagashi item forbids
    them), the next counters."""
    rules = r.rules
    players = rules.players
    tenpai = list(r.tenpai)
    for seat, a in r.answers.items():
        if a.type == "noten":
            tenpai[seat] = False
    r.pending = {}
    deltas = [0] * players
    clauses: list[str] = []
    nagashi: list[tuple[int, Any]] = []
    for item in rules.draws:
        if "pays_as" not in item.fields:
            continue
        for seat in range(players):
            if item.when(round_facts(r, seat)):
                nagashi.append((seat, item))
    dealer = r.setup.dealer
    for seat, item in nagashi:
        env = round_facts(r, seat)
        honba = r.setup.honba if field(item, "honba_bonus", env, False) else 0
        paid = rules.scorer.pay_tier(field(item, "pays_as", env), dealer=seat == dealer, honba=honba)["payments"]
        for other in range(players):
            if other != seat:
                amount = paid.get("dealer" if other == dealer else "non_dealer", 0)
                deltas[other] -= amount
                deltas[seat] += amount
        clauses.append(item.clause or item.name)
    noten_ok = all(field(item, "noten_payments", round_facts(r, seat), False) for seat, item in nagashi)
    if noten_ok:
        for item in rules.draws:
            if "total" not in item.fields or not item.when(round_facts(r, dealer)):
                continue
            k = sum(tenpai)
            if 0 < k < players:
                total = field(item, "total", round_facts(r, dealer), 0)
                pay = total // (players - k)
                pot = pay * (players - k)
                gains = [pot // k + (1 if i < pot % k else 0) for i in range(k)]
                winners = [i for i in range(players) if tenpai[i]]
                for i in range(players):
                    if not tenpai[i]:
                        deltas[i] -= pay
                for i, g in zip(winners, gains, strict=True):
                    deltas[i] += g
                clauses.append(item.clause or item.name)
    tags = {"exhaustive", "dealer_tenpai" if tenpai[dealer] else "dealer_noten"}
    counters = next_counters(r, tags, None, r.sticks)
    makers = {seat for seat, _ in nagashi}
    for seat, item in nagashi:
        cont = field(item, "dealer_continues", round_facts(r, seat), None)
        if cont == "if_dealer_nagashi":  # the tenpai hands are not shown: the dealer stays if he made it himself
            cont = "always" if dealer in makers else "never"
        if cont in ("always", "never"):
            counters = replace(counters, renchan=cont == "always", dealer_next=dealer if cont == "always" else (dealer + 1) % players)
    r.log.append(Ryukyoku("exhaustive", tuple(deltas), tuple(tenpai)))
    finish(r, "exhaustive", deltas, counters, None, [], clauses, tenpai, [seat for seat, _ in nagashi])
