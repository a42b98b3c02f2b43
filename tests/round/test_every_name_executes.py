"""Every name of the rule language that the round engine reads moves a round's outcome.

Each row of ``RULEBOOK_ROWS`` names a setting or item field, one scenario (a wall arranged per seat and a few
scripted moves; every other decision is the quietest: discard the drawn tile, pass) and two rulebooks that differ
only in that value: the scenario's observable outcome must differ. Each row of ``FACT_ROWS`` names a round fact,
a rulebook that reads it, and two scenarios in which only that fact differs. The tables are the review surface:
a name missing here is a name no test shows to be live.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine.core import tiles as T
from engine.round import Round
from engine.round.rules import RoundRules
from tests.round.scenario import make_round, play, rules

SANMA = "override settings table {\n red_fives = []\n}"  # scenarios name plain fives only


def plain(*more: str, table: str = "") -> str:
    """A house variant without red fives, plus items (``table`` adds lines to the table settings)."""
    return "\n".join((f"override settings table {{\n red_fives = []\n {table}\n}}", *more))


def order(*tiles: str | None) -> list[int | None]:
    return [None if t is None else T.tile_codes(t)[0] for t in tiles]


def legal_types(r: Round, seat: int) -> list[str]:
    return sorted({a.type for a in r.legal_actions(seat)})


# ---- scenarios (each returns what it observes) ----------------------------------------------------------------------
DRAW_HANDS = {0: "123m456p789s2355s", 1: "1357m2468p1357s1z", 2: "2468m1357p2468s2z", 3: "3579m3579p3579s3z"}


def exhaustive(R: RoundRules, honba: int = 0) -> tuple:
    """Everybody discards what they draw; seat 0 (the dealer) alone is tenpai."""
    r = play(make_round(R, DRAW_HANDS, honba=honba))
    s = r.settlement
    assert s is not None
    return (s["kind"], tuple(s["deltas"]), tuple(s["tenpai"]), s["renchan"], s["honba_next"])


def voluntary_noten(R: RoundRules) -> tuple:
    """As ``exhaustive``, but the tenpai dealer declares noten where the rulebook lets him."""
    r = play(make_round(R, DRAW_HANDS), until=lambda r: r.phase == "declare", finish=True)
    if not r.finished:
        play(r, "0 noten")
    return tuple(r.settlement["deltas"])  # type: ignore[index]


def karaten_in_melds(R: RoundRules) -> bool:
    """The dealer pons the fourth 9m and waits on 9m alone, his single 9m beside the pon: tenpai at the draw?"""
    hands = {0: "999m234p567p789s1z", 1: "9m2468m2468p1357s", 2: "357m1357p2468s22z", 3: "2468m3579p3579s3z"}
    r = play(make_round(R, hands), "1 dahai 9m", "0 pon 9m", "0 dahai 1z")
    return r.settlement["tenpai"][0]  # type: ignore[index]


def all_copies_held(R: RoundRules) -> bool:
    """The dealer waits only on a fifth 1m."""
    hands = {0: "1111m234p567p789s", 1: "2468m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    r = play(make_round(R, hands))
    return r.settlement["tenpai"][0]  # type: ignore[index]


NAGASHI_HANDS = {0: "123m456p789s2355s", 1: "2345m2345p2345s2z", 2: "2468m2468p2468s3z", 3: "3467m3467p3467s4z"}


def nagashi(R: RoundRules, honba: int = 0) -> tuple:
    """Seat 1 draws only terminals and honours and discards them all; the dealer is tenpai."""
    r = play(make_round(R, NAGASHI_HANDS, {1: "999m1111p9999p111s5555z"}, honba=honba))
    s = r.settlement
    return (tuple(s["nagashi"]), tuple(s["deltas"]), s["renchan"])  # type: ignore[index]


RON_HANDS = {
    0: "4m19m19p19s1234z56z",
    1: "23m456p678s234s88p",  # pinfu, waits 1m-4m
    2: "56m345p678p567s22s",  # pinfu, waits 4m-7m
    3: "35m234p456s678s55p",  # tanyao, waits 4m
}


def ron_on_4m(R: RoundRules, who: tuple[int, ...], honba: int = 0, sticks: int = 0, hands: dict | None = None) -> tuple:
    """The dealer discards 4m at once; the seats in ``who`` declare ron."""
    r = make_round(R, hands or RON_HANDS, honba=honba, sticks=sticks)
    play(r, "0 dahai 4m", *(f"{seat} hora" for seat in who))
    s = r.settlement
    return (s["kind"], s["abortive"], tuple(w["seat"] for w in s["wins"]), tuple(s["deltas"]), s["dealer_next"], s["honba_next"], s["sticks_next"])  # type: ignore[index]


DOUBLE_RON_HANDS = {**RON_HANDS, 3: "1379m1379p1379s5z"}


def double_ron(R: RoundRules, honba: int = 0, sticks: int = 0) -> tuple:
    return ron_on_4m(R, (1, 2), honba, sticks, DOUBLE_RON_HANDS)


def triple_ron(R: RoundRules) -> tuple:
    return ron_on_4m(R, (1, 2, 3))


CALL_HANDS = {0: "4m19m19p19s1234z56z", 1: "567m19m9p1s567z1z", 2: "44m7m1p9p9s2s3s4s5z6z7z", 3: "2468m2468p2468s1z"}


def after_call_discards(R: RoundRules) -> list[str]:
    """Seat 1 chi 4m with 56m (holding 4m and 7m too): the discards it may make next."""
    hands = {0: "4m19m19p19s1234z56z", 1: "4567m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    r = play(make_round(R, hands), "0 dahai 4m", "1 chi 4m 56m", finish=False)
    return sorted(T.format_tiles([a.pai]) for a in r.legal_actions(1) if a.type == "dahai")  # type: ignore[list-item]


def chi_offered(R: RoundRules) -> list[str]:
    hands = {0: "4m19m19p19s1234z56z", 1: "4567m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    r = play(make_round(R, hands), "0 dahai 4m", finish=False)
    return legal_types(r, 1)


def precedence(R: RoundRules) -> int:
    """Seat 1 may chi 4m and seat 2 may pon it; both ask: who gets it."""
    hands = {0: "4m19m19p19s1234z56z", 1: "56m2468p1357s134z", 2: "44m3579p2468s23z7m", 3: "2468m3579p3579s3z"}
    r = play(make_round(R, hands), "0 dahai 4m", "1 chi 4m 56m", "2 pon 4m", finish=False)
    return r.actor


def last_discard_pon(R: RoundRules) -> list[str]:
    """The last live tile (drawn by seat 1) is 7z, of which seat 2 holds two."""
    hands = {0: "123m456p789s2355s", 1: "1357m2468p1357s1z", 2: "2468m1357p246s77z", 3: "3579m3579p3579s3z"}
    r = make_round(R, hands, tail="7z")
    play(r, until=lambda r: r.wall.remaining == 0 and r.window is not None and r.window[1] == T.tile_codes("7z")[0] and r.phase == "respond", finish=True)
    return legal_types(r, 2)


def first_turn_kan(R: RoundRules) -> list[str]:
    hands = {0: "1111m456p789s235s", 1: "2468m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    r = make_round(R, hands, {0: "7z"})
    return legal_types(r, 0)


def kan_dora(R: RoundRules) -> int:
    """Seat 1 makes an open kan on the dealer's 4m: indicators shown before its discard."""
    hands = {0: "4m19m19p19s1234z56z", 1: "444m2468p1357s13z", 2: "3579m1357p2468s2z", 3: "2368m3579p3579s3z"}
    r = play(make_round(R, hands), "0 dahai 4m", "1 daiminkan 4m", finish=False)
    return len(r.wall.dora_indicators())


def closed_kan_robbed(R: RoundRules) -> list[str]:
    """The dealer makes a closed kan of 9s; seat 1 holds thirteen orphans waiting on 9s."""
    hands = {0: "999s2468m2468p35s", 1: "119m19p1s1234567z", 2: "3579m1357p2467s2z", 3: "2368m3579p358s34z"}
    r = play(make_round(R, hands, {0: "9s"}), "0 ankan 9s", finish=False)
    return legal_types(r, 1)


RIICHI_HANDS = {0: "123m456p789s2355s", 1: "2468m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}


def riichi_offered(R: RoundRules, scores: tuple[int, ...] = ()) -> bool:
    """The dealer is tenpai after his first draw (7z): may he declare riichi?"""
    r = make_round(R, RIICHI_HANDS, {0: "7z"}, scores=scores)
    return "reach" in legal_types(r, 0)


def riichi_in_furiten(R: RoundRules) -> list[str]:
    """The dealer, tenpai on 1s-4s, discards a drawn 1s (furiten), then draws 7z: may he declare riichi?"""
    r = make_round(R, RIICHI_HANDS, {0: "1s7z"})
    play(r, "0 dahai 1s", until=lambda r: r.actor == 0 and r.wall.remaining < 66)
    return legal_types(r, 0)


def riichi_deposit(R: RoundRules) -> int:
    r = play(make_round(R, RIICHI_HANDS, {0: "7z"}), "0 reach", "0 dahai 7z", until=lambda r: r.actor == 1)
    return r.scores[0]


def riichi_kan(R: RoundRules, hand: str = "111m456p789s2355s", kan: str = "1m") -> list[str]:
    """The dealer declares riichi at once, then draws the fourth copy of a concealed triplet."""
    hands = {**RIICHI_HANDS, 0: hand, 2: "579m1357p2468s22z"}
    r = make_round(R, hands, {0: "7z" + kan, 1: "7z", 2: "7z", 3: "7z"})
    play(r, "0 reach", "0 dahai 7z", until=lambda r: r.actor == 0 and r.wall.remaining < 66)
    return legal_types(r, 0)


def ura(R: RoundRules) -> int:
    """The dealer declares riichi, then draws 1s for a tsumo; the ura indicator 1s makes 2s dora."""
    r = make_round(R, RIICHI_HANDS, {0: "7z1s", 1: "7z", 2: "6z", 3: "6z"}, dora="9m", ura="1s")
    play(r, "0 reach", "0 dahai 7z", "0 hora")
    return r.settlement["wins"][0]["han"]  # type: ignore[index]


def reach_offers(R: RoundRules) -> list[bool]:
    """The dealer is tenpai after his first draw: which riichi declarations (closed, open) are offered?"""
    return [a.open for a in make_round(R, RIICHI_HANDS, {0: "7z"}).legal_actions(0) if a.type == "reach"]


def riichi_tsumo_han(R: RoundRules, open_: bool, wins: int = 0) -> tuple:
    """The dealer declares riichi (open or not) on his first discard and wins on his next draw, 1s; ``wins``: his
    wins in a row before this hand, as the game hands them to the round."""
    from engine.round import Action, RoundSetup, Wall
    from tests.round.scenario import interleave

    wall = Wall.build(R, RIICHI_HANDS, interleave(4, 0, {0: "7z1s", 1: "9m", 2: "9m", 3: "9m"}), dealer=0)
    r = Round(R, RoundSetup(dealer=0, dealer_consecutive_wins=wins), wall)
    r.apply(Action("reach", 0, open=open_))
    play(r, "0 dahai 7z", "0 hora")
    win = r.settlement["wins"][0]  # type: ignore[index]
    return (win["han"], win["yakuman"], win["total"])


def ron_on_open_riichi(R: RoundRules, discarder_in_riichi: bool) -> tuple:
    """The dealer declares an open riichi waiting on 1s-4s; seat 1 (in riichi or not) then gives up 4s."""
    from engine.round import Action

    hands = {**RIICHI_HANDS, 1: "111m222p999p555z1z"}  # seat 1 waits on 1z alone
    r = make_round(R, hands, {0: "7z9m", 1: "2z4s", 2: "6z6z", 3: "6z6z"})
    r.apply(Action("reach", 0, open=True))
    play(r, "0 dahai 7z", *(("1 reach",) if discarder_in_riichi else ()), "1 dahai 2z", "1 dahai 4s", "0 hora")
    win = r.settlement["wins"][0]  # type: ignore[index]
    return (win["yakuman"], win["total"])


OPEN_RIICHI = (
    "override settings riichi { open_riichi = true }\n"
    '@clause("test")\nyaku open_riichi "Open riichi" {\n han = {closed: 1}\n when = open_riichi\n}\n'
    '@clause("test")\nyakuman open_riichi_deal_in "Open riichi dealt into" {\n when = open_riichi and ron and not discarder_in_riichi\n}'
)
PAARENCHAN = '@clause("test")\nlimit paarenchan "Paarenchan" {\n when = dealer and dealer_consecutive_wins >= 7\n base = 8000\n tier = "yakuman"\n yakuman = 1\n}'


def temporary_furiten(R: RoundRules) -> list[str]:
    """Seat 2 (tenpai on 1m-4m with a Green triplet) passes the dealer's 1m, then pons the fourth Green from seat 1
    and discards it; seat 3 discards 4m: may seat 2 ron?"""
    hands = {0: "1m19p19s1234z5z789m", 1: "2468p1357s134z59m", 2: "23m456p789s55s666z", 3: "2468p1357s2z5678m"}
    r = make_round(R, hands, order=order(None, "6z", "4m"))
    play(r, "0 dahai 1m", "1 dahai 6z", "2 pon 6z", "2 dahai 6z", "3 dahai 4m", finish=False)
    return legal_types(r, 2)


def furiten_after_a_draw(R: RoundRules) -> list[str]:
    """Seat 2 (as in ``temporary_furiten``) passes the dealer's 1m, then draws and discards 1p; seat 3 discards
    4m: may seat 2 ron?"""
    hands = {0: "1m19p19s1234z5z789m", 1: "2468p1357s134z59m", 2: "23m456p789s55s666z", 3: "2468p1357s2z5678m"}
    r = make_round(R, hands, order=order(None, "6z", "1p", "4m"))
    play(r, "0 dahai 1m", "1 dahai 6z", "2 dahai 1p", "3 dahai 4m", finish=False)
    return legal_types(r, 2)


def furiten_after_another_call(R: RoundRules) -> list[str]:
    """Seat 2 passes the dealer's 1m; before seat 2 draws again, seat 3 pons seat 1's Red and discards 4m: may
    seat 2 ron?"""
    hands = {0: "1m19p19s1234z5z789m", 1: "2468p1357s134z59m", 2: "23m456p789s55s666z", 3: "2468p1379s77z4m58m"}
    r = make_round(R, hands, order=order(None, "7z"))
    play(r, "0 dahai 1m", "1 dahai 7z", "3 pon 7z", "3 dahai 4m", finish=False)
    return legal_types(r, 2)


SANMA_HANDS = {0: "4z19m19p19s123z567z", 1: "1199p1199s1177z4z", 2: "2468p2468s23z5z5s"}


def kita_moves(R: RoundRules) -> list[str]:
    return legal_types(make_round(R, {0: "4z19m19p19s123z567z", 1: "2468p2468s123z56z", 2: "3579p3579s12z567z"}, {0: "5p"}), 0)


def kita_ron(R: RoundRules) -> list[str]:
    """The dealer sets a North aside; seat 1 holds seven pairs waiting on North."""
    hands = {0: "4z19m19p19s123z567z", 1: "1199p1199s1177z4z", 2: "2468p2468s233z56z"}
    r = play(make_round(R, hands, {0: "6z"}), "0 nukidora 4z", finish=False)
    return legal_types(r, 1)


def nine_terminals_after_kita(R: RoundRules) -> list[str]:
    """The dealer sets a North aside; seat 1 then draws with nine kinds of terminals and honours."""
    hands = {0: "4z2468p2468s5z6z7z3p", 1: "19m19p19s1237z357p", 2: "3579p3579s1z5z6z7z1p"}
    r = play(make_round(R, hands, {0: "8p", 1: "6p"}, replacements="8s"), "0 nukidora 4z", until=lambda r: r.actor == 1)
    return legal_types(r, 1)


def kita_replacement_win(R: RoundRules) -> tuple[str, ...]:
    """The dealer sets a North aside and wins on the replacement tile: the yaku scored."""
    hands = {0: "4z123p456p789s556s", 1: "2468p2468s123z56z", 2: "3579p3579s12z567z"}
    r = play(make_round(R, hands, {0: "4s"}, replacements="5s"), "0 nukidora 4z", "0 hora")
    return tuple(sorted(line["id"] for line in r.settlement["wins"][0]["yaku"]))  # type: ignore[index]


def seats_and_wall(R: RoundRules) -> tuple:
    r = Round(R, seed=7)
    return (len(r.seats), r.wall.remaining, sum(1 for c in r.tiles_in_play() if c >= T.RED_BASE), tuple(r.scores))


def pao(R: RoundRules, tsumo: bool = False, honba: int = 0, double: bool = False, kan: bool = False) -> tuple[int, ...]:
    """Seat 1 pons White from the dealer, Green from seat 2 and Red from seat 3 (the completing call; with ``kan``
    an open kan instead), then wins big three dragons (with ``double``, all honours too) by ron on the dealer's
    discard or by tsumo."""
    wait, win = ("1122z", "1z") if double else ("45m99p", "3m")
    hands = {
        0: "5z19m19p19s234z7p8s" + ("6p" if tsumo else win),
        1: wait + ("1p2s5566777z" if kan else "1p23s556677z"),
        2: "6z2468m2468p35s79s",
        3: "7z3579m3579p19s24s",
    }
    live = ["6s", "6s", "6s", "6s", "1s", "1s", "7s"] + ([win] if tsumo else [])
    r = make_round(R, hands, order=order(*live), honba=honba, replacements="9m")
    steps = ["0 dahai 5z", "1 pon 5z", "1 dahai 1p", "2 dahai 6z", "1 pon 6z", "1 dahai 2s", "3 dahai 7z"]
    steps += ["1 daiminkan 7z", "1 dahai 9m"] if kan else ["1 pon 7z", "1 dahai 3s"]
    steps += ["1 hora"] if tsumo else [f"0 dahai {win}", "1 hora"]
    play(r, *steps)
    return tuple(r.settlement["deltas"])  # type: ignore[index]


NINE_KINDS = {0: "19m19p19s123z2345m", 1: "2468m2468p2468s", 2: "3579m3579p3579s", 3: "2368m3578p3578s"}


def nine_terminals(R: RoundRules) -> list[str]:
    """The dealer's first draw: nine kinds of terminals and honours."""
    hands = {0: "19m19p19s123z2345m", 1: "2468m2468p2468s4z", 2: "3579m3579p3579s5z", 3: "2368m3568p3568s6z"}
    return legal_types(make_round(R, hands, {0: "6p"}), 0)


def nine_terminals_second_draw(R: RoundRules) -> list[str]:
    """The dealer reaches nine kinds only with his second draw (7z)."""
    hands = {0: "19m19p19s12z23456m", 1: "2468m2468p2468s4z", 2: "3579m3579p3579s5z", 3: "2368m3568p3568s6z"}
    r = make_round(R, hands, {0: "7p7z"})
    play(r, "0 dahai 7p", until=lambda r: r.actor == 0 and r.wall.remaining < 66)
    return legal_types(r, 0)


def nine_terminals_after_call(R: RoundRules) -> list[str]:
    """Seat 2 pons the dealer's first discard; seat 3 then draws with nine kinds."""
    hands = {0: "4m27m27p27s1234z56z", 1: "2568m2568p2568s7z", 2: "44m3579p3579s25z8p", 3: "19m19p19s1237z367m"}
    r = make_round(R, hands, order=order(None, "2s"))
    play(r, "0 dahai 4m", "2 pon 4m", "2 dahai 2z", until=lambda r: r.actor == 3 and r.drawn is not None)
    return legal_types(r, 3)


def settled(r: Round) -> tuple:
    s = r.settlement
    assert s is not None
    return (s["kind"], s["abortive"], tuple(s["deltas"]), s["dealer_next"], s["honba_next"], s["sticks_next"], r.actor)


def first_riichi(R: RoundRules) -> tuple:
    """The dealer declares riichi on his first discard; then everybody discards what they draw."""
    return settled(play(make_round(R, RIICHI_HANDS, {0: "7z"}), "0 reach", "0 dahai 7z"))


def first_closed_kan(R: RoundRules) -> tuple:
    """The dealer makes a closed kan of 1m on his first turn, then discards what he draws."""
    hands = {0: "1111m456p789s235s", 1: "2468m2468p357s1z4z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    return settled(play(make_round(R, hands, {0: "7z"}), "0 ankan 1m"))


def first_discards(R: RoundRules, winds: str = "1111") -> tuple:
    """Each seat's first discard is the given wind (1z East ... 4z North)."""
    hands = {
        0: f"{winds[0]}z258m258p258s569m",
        1: f"{winds[1]}z369m369p369s147m",
        2: f"{winds[2]}z147p147s258m39s5z",
        3: f"{winds[3]}z2369p23s5z6z7z6s79m",
    }
    r = make_round(R, hands)
    return settled(play(r, *(f"{seat} dahai {w}z" for seat, w in enumerate(winds))))


def call_or_not(R: RoundRules, call: bool) -> tuple:
    """Seat 2 pons the dealer's first discard (4m), or lets it pass; then everybody discards what they draw."""
    hands = {0: "4m27m27p27s1234z56z", 1: "2568m2568p2568s7z", 2: "44m3579p3579s25z8p", 3: "19m19p19s1237z367m"}
    steps = ("0 dahai 4m", "2 pon 4m", "2 dahai 2z") if call else ("0 dahai 4m",)
    return settled(play(make_round(R, hands), *steps))


def first_discard(R: RoundRules, tile: str) -> tuple:
    return settled(play(make_round(R, NINE_KINDS | {1: "2468m2468p2468s4z", 2: "3579m3579p3579s5z", 3: "2368m3568p3568s6z"}, {0: "6p"}), f"0 dahai {tile}"))


def kan_or_not(R: RoundRules, kan: bool) -> tuple:
    hands = {0: "1111m456p789s235s", 1: "2468m2468p357s1z4z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
    return settled(play(make_round(R, hands, {0: "7z"}), "0 ankan 1m" if kan else "0 dahai 7z"))


def riichi_or_not(R: RoundRules, riichi: bool) -> tuple:
    return settled(play(make_round(R, RIICHI_HANDS, {0: "7z"}), *(("0 reach",) if riichi else ()), "0 dahai 7z"))


def nine_or_eight(R: RoundRules, kinds: int) -> list[str]:
    hand = "19m19p19s123z2345m" if kinds == 9 else "19m19p19s12z23456m"
    hands = {0: hand, 1: "2468m2468p2468s4z", 2: "3579m3579p3579s5z", 3: "2368m3568p3568s6z"}
    return legal_types(make_round(R, hands, {0: "6p"}), 0)


def probe(when: str) -> str:
    """A variant of house with an abortive draw that fires when the discarder's fact holds as its discard passes."""
    return plain(f'@clause("test probe")\nabortive_draw probe "Probe" {{\n when = {when}\n at = "discard_passed"\n}}')


# ---- the tables -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    name: str  # the setting (`group key`) or item field (`kind.field`)
    scenario: Callable[[RoundRules], object]
    base: str  # house variant text (see ``plain``)
    variant: str  # the same with only that value changed


def _calls(body: str) -> str:
    return f"override settings calls {{ {body} }}"


RULEBOOK_ROWS = [
    # table
    Row("table players", seats_and_wall, plain(), plain(table="players = 3")),
    Row("table tiles", seats_and_wall, plain(), plain(table="tiles = 19m123456789p123456789s1234567z")),
    Row("table copies", seats_and_wall, plain(), plain(table="copies = 3")),
    Row("table red_fives", seats_and_wall, "", plain()),
    Row("table start_points", seats_and_wall, plain(), plain(table="start_points = 30000")),
    Row("table dead_wall", seats_and_wall, plain(), plain(table="dead_wall = 16")),
    Row("table riichi_deposit", riichi_deposit, plain(), plain(table="riichi_deposit = 2000")),
    # calls
    Row("calls chi", chi_offered, plain(), plain(_calls("chi = false"))),
    Row("calls precedence", precedence, plain(), plain(_calls('precedence = ["ron", "chi", "pon", "kan"]'))),
    Row("calls kuikae (suji)", after_call_discards, plain(), plain(_calls('kuikae = ["same_tile"]'))),
    Row("calls kuikae (same_tile)", after_call_discards, plain(_calls('kuikae = ["suji"]')), plain(_calls("kuikae = []"))),
    Row("calls last_discard_callable", last_discard_pon, plain(), plain(_calls("last_discard_callable = true"))),
    Row("calls max_kans", first_turn_kan, plain(), plain(_calls("max_kans = 0"))),
    Row("calls kan_dora", kan_dora, plain(), plain(_calls('kan_dora = "immediately"'))),
    Row("calls thirteen_orphans_robs_closed_kan", closed_kan_robbed, plain(), plain(_calls("thirteen_orphans_robs_closed_kan = false"))),
    # riichi
    Row("riichi min_points", lambda R: riichi_offered(R, (1500, 25000, 25000, 25000)), plain(), plain("override settings riichi { min_points = 2000 }")),
    Row("riichi below_zero", lambda R: riichi_offered(R, (500, 25000, 25000, 25000)), plain("override settings riichi { min_points = 0 }"), plain("override settings riichi { min_points = 0\n below_zero = false }")),
    Row("riichi min_wall", riichi_offered, plain(), plain("override settings riichi { min_wall = 80 }")),
    Row("riichi allowed_while_furiten", riichi_in_furiten, plain(), plain("override settings riichi { allowed_while_furiten = false }")),
    Row("riichi closed_kan_after", riichi_kan, plain(), plain('override settings riichi { closed_kan_after = "never" }')),
    Row("riichi closed_kan_after (reading)", lambda R: riichi_kan(R, "3334567899m555z", "3m"), plain(), plain('override settings riichi { closed_kan_after = "reading_unchanged" }')),
    Row("riichi ura_dora", ura, plain(), plain("override settings riichi { ura_dora = false }")),
    Row("riichi open_riichi", reach_offers, plain(), plain("override settings riichi { open_riichi = true }")),
    # furiten
    Row("furiten temporary_release", temporary_furiten, plain(_calls("kuikae = []")), plain(_calls("kuikae = []"), 'override settings furiten { temporary_release = ["draw", "call"] }')),
    # tenpai
    Row("tenpai karaten", karaten_in_melds, plain(), plain('override settings tenpai { karaten = "concealed" }')),
    Row("tenpai karaten (never)", all_copies_held, plain('override settings tenpai { karaten = "concealed" }'),
        plain('override settings tenpai { karaten = "never" }')),
    Row("furiten temporary_release (draw)", furiten_after_a_draw, plain(), plain("override settings furiten { temporary_release = [] }")),
    Row("furiten temporary_release (discard)", temporary_furiten, plain(_calls("kuikae = []")), plain(_calls("kuikae = []"), 'override settings furiten { temporary_release = ["discard"] }')),
    Row("furiten temporary_release (any_call)", furiten_after_another_call, plain(), plain('override settings furiten { temporary_release = ["draw", "any_call"] }')),
    # win
    Row("win multiple_ron", double_ron, plain(), plain("override settings win { multiple_ron = 1 }")),
    Row("win triple_ron", triple_ron, plain("remove abortive_draw sanchahou"), plain("remove abortive_draw sanchahou", 'override settings win { triple_ron = "head_bump" }')),
    Row("win sticks_to", lambda R: double_ron(R, sticks=3), plain(), plain('override settings win { sticks_to = "split" }')),
    Row("win honba_to", lambda R: double_ron(R, honba=2), plain(), plain('override settings win { honba_to = "each" }')),
    # game: what the round itself settles
    Row("game voluntary_noten", voluntary_noten, plain(), plain("override settings game { voluntary_noten = true }")),
    Row("game renchan", exhaustive, plain(), plain('override settings game { renchan = ["dealer_win"] }')),
    Row("game honba_increase", exhaustive, plain(), plain('override settings game { honba_increase = ["dealer_win"] }')),
    Row("game honba_reset", lambda R: double_ron(R, honba=1), plain(), plain('override settings game { honba_reset = [] }')),
    # three-player table settings
    Row("table kita", kita_moves, "sanma:" + SANMA, "sanma:" + SANMA.replace("}", "kita = false\n}")),
    Row("table kita_interrupts", nine_terminals_after_kita, "sanma:" + SANMA, "sanma:" + SANMA.replace("}", "kita_interrupts = false\n}")),
    Row("table kita_rinshan", kita_replacement_win, "sanma:" + SANMA, "sanma:" + SANMA.replace("}", "kita_rinshan = true\n}")),
    Row("table kita_ron", kita_ron, "sanma:" + SANMA.replace("}", 'kita_ron = "nobody"\n}'), "sanma:" + SANMA.replace("}", 'kita_ron = "anyone"\n}')),
    Row("table kita_ron (thirteen_orphans)", kita_ron, "sanma:" + SANMA.replace("}", 'kita_ron = "anyone"\n}'), "sanma:" + SANMA),
    # draw items
    Row("draw.when", exhaustive, plain(), plain("override draw noten_payment { when = riichi_count > 0 }")),
    Row("draw.total", exhaustive, plain(), plain("override draw noten_payment { total = 6000 }")),
    Row("draw.pays_as", nagashi, plain(), plain('override draw nagashi_mangan { pays_as = "haneman" }')),
    Row("draw.honba_bonus", lambda R: nagashi(R, honba=2), plain(), plain("override draw nagashi_mangan { honba_bonus = true }")),
    Row("draw.noten_payments", nagashi, plain(), plain("override draw nagashi_mangan { noten_payments = true }")),
    Row("draw.dealer_continues", nagashi, plain(), plain('override draw nagashi_mangan { dealer_continues = "never" }')),
    Row("draw.dealer_continues (if_dealer_nagashi)", nagashi, plain(), plain('override draw nagashi_mangan { dealer_continues = "if_dealer_nagashi" }')),
    # abortive draw items
    Row("abortive_draw.when", double_ron, plain(), plain("override abortive_draw sanchahou { when = ron_count >= 2 }")),
    Row("abortive_draw.at", triple_ron, plain(), plain('override abortive_draw sanchahou { at = "discard_passed" }')),
    Row("abortive_draw.dealer", triple_ron, plain(), plain('override abortive_draw sanchahou { dealer = "passes" }')),
    Row("abortive_draw.honba", triple_ron, plain(), plain("override abortive_draw sanchahou { honba = 3 }")),
    Row("abortive_draw.sticks", first_riichi, plain("override abortive_draw suucha_riichi { when = riichi_count == 1 }"), plain('override abortive_draw suucha_riichi { when = riichi_count == 1\n sticks = "return" }')),
    # liability items
    Row("liability.affects", pao, plain(), plain("override liability pao { affects = [daisuushii] }")),
    Row("liability.when", pao, plain(), plain('override liability pao { when = completing_call == "daiminkan" }')),
    Row("liability.tsumo_liable", lambda R: pao(R, tsumo=True), plain(), plain("override liability pao { tsumo_liable = 50 }")),
    Row("liability.ron_liable", pao, plain(), plain("override liability pao { ron_liable = 100\n ron_discarder = 0 }")),
    Row("liability.ron_discarder", pao, plain("override liability pao { ron_liable = 0\n ron_discarder = 100 }"), plain("override liability pao { ron_liable = 0\n ron_discarder = 50 }")),
    Row("liability.honba_payer", lambda R: pao(R, honba=1), plain(), plain('override liability pao { honba_payer = "liable" }')),
    Row("liability.covers", lambda R: pao(R, tsumo=True, double=True), plain(), plain('override liability pao { covers = "completed" }')),
]


@dataclass(frozen=True)
class FactRow:
    fact: str
    rulebook: str  # house variant text whose items read the fact
    holds: Callable[[RoundRules], object]  # a scenario in which the fact is true where it is read
    fails: Callable[[RoundRules], object]  # the same scenario with the fact false


FACT_ROWS = [
    FactRow("first_go_around", plain(), nine_terminals, nine_terminals_second_draw),
    FactRow("any_call", probe("any_call"), lambda R: call_or_not(R, True), lambda R: call_or_not(R, False)),
    FactRow("riichi_count", probe("riichi_count == 1"), lambda R: riichi_or_not(R, True), lambda R: riichi_or_not(R, False)),
    FactRow("kan_count", probe("kan_count == 1"), lambda R: kan_or_not(R, True), lambda R: kan_or_not(R, False)),
    FactRow("kan_makers", probe("kan_makers == 1"), lambda R: kan_or_not(R, True), lambda R: kan_or_not(R, False)),
    FactRow("first_discards_same_wind", plain(), lambda R: first_discards(R, "1111"), lambda R: first_discards(R, "1112")),
    FactRow("terminal_kinds", plain(), lambda R: nine_or_eight(R, 9), lambda R: nine_or_eight(R, 8)),
    FactRow("ron_count", plain(), triple_ron, double_ron),
    FactRow("all_discards_yaochuu", probe("all_discards_yaochuu"), lambda R: first_discard(R, "1z"), lambda R: first_discard(R, "2m")),
    FactRow("discards_called", probe("discards_called"), lambda R: call_or_not(R, True), lambda R: call_or_not(R, False)),
    FactRow("made_calls", probe("made_calls"), lambda R: call_or_not(R, True), lambda R: call_or_not(R, False)),
    # hand facts the round fills in for the scorer (the scorer's own tests move the others)
    FactRow("open_riichi", plain(OPEN_RIICHI), lambda R: riichi_tsumo_han(R, True), lambda R: riichi_tsumo_han(R, False)),
    FactRow("discarder_in_riichi", plain(OPEN_RIICHI), lambda R: ron_on_open_riichi(R, True), lambda R: ron_on_open_riichi(R, False)),
    FactRow("dealer_consecutive_wins", plain(PAARENCHAN), lambda R: riichi_tsumo_han(R, False, 7), lambda R: riichi_tsumo_han(R, False, 6)),
    FactRow("completing_call", plain('override liability pao { when = completing_call == "pon" }'), pao, lambda R: pao(R, kan=True)),
]


def row_rules(text: str) -> RoundRules:
    """``sanma:`` texts extend the three-player rulebook, the others house."""
    if text.startswith("sanma:"):
        return rules("sanma", text.removeprefix("sanma:"))
    return rules("house", text)


@pytest.mark.parametrize("row", RULEBOOK_ROWS, ids=lambda row: row.name)
def test_the_value_moves_the_outcome(row: Row) -> None:
    assert row.scenario(row_rules(row.base)) != row.scenario(row_rules(row.variant))


@pytest.mark.parametrize("row", FACT_ROWS, ids=lambda row: row.fact)
def test_the_fact_moves_the_outcome(row: FactRow) -> None:
    R = row_rules(row.rulebook)
    assert row.holds(R) != row.fails(R)


def test_every_round_name_is_in_a_table() -> None:
    """Every setting of the round's groups, every field of the round's item kinds and every round fact has a row."""
    from ruledsl import vocabulary as V

    named = {row.name.split(" (")[0] for row in RULEBOOK_ROWS} | {f.fact for f in FACT_ROWS}
    wanted = {f"{group} {key}" for group in ("table", "calls", "riichi", "furiten", "tenpai", "win") for key in V.SETTINGS[group]}
    wanted -= {"table rounds"}  # the game's: which hands are played, not how one is
    wanted |= {"game voluntary_noten"}
    wanted |= {f"{kind}.{name}" for kind in ("draw", "abortive_draw", "liability") for name in V.ITEM_KINDS[kind].fields}
    wanted |= {name for name, fact in V.FACTS.items() if fact.scope == V.ROUND}
    assert sorted(wanted - named) == []
