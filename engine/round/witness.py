"""A witness for a difference in round-level flow rules: a short scripted round (a wall arranged so that the rule
matters, a few moves) that two rulebooks settle differently, so that `riichi diff` can show an organiser what a
change of kan-dora timing, multiple ron, riichi conditions, an abortive draw, furiten, kuikae, liability, draw
payments or kita does, as a witness hand shows a scoring change.

The scripts know no rulebook: each is a wall and moves written in tiles; the rules come from the two rulebooks the
round is played under (through ``engine.round.Round``). A scripted move the rules refuse is skipped, and the refusal
(with the engine's own reason) is part of what happened; every other decision is the quietest one (discard the
drawn tile, pass, declare tenpai). A script whose tiles a rulebook's set lacks, or whose table size differs, is not
tried. Scores, when a script needs one low, come from the rulebook's own start points.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from engine.core import tiles as T
from engine.core.errors import EngineError
from engine.round.actions import Action
from engine.round.legal import dahai_action, is_legal, pass_action
from engine.round.round import IllegalAction, Round, RoundSetup
from engine.round.rules import ROUND_RULE_FIELDS, RoundRules, round_rules, round_rules_scored_by
from engine.round.wall import Wall, tile_set
from ruledsl import vocabulary as V
from ruledsl.arithmetic import RuleEvaluationError
from ruledsl.caches import ByIdentity, lru, register
from ruledsl.record import field, record

WIND_WORDS = ("East", "South", "West", "North")
OWN_VERBS = {"dahai", "reach", "open_reach", "ankan", "kakan", "nukidora", "ryukyoku", "tsumo"}
RESPONSE_VERBS = {"ron", "pon", "chi", "daiminkan"}
DECLARE_VERBS = {"tenpai", "noten"}
MELD_WORDS = {"chi": "chi", "pon": "pon", "daiminkan": "an open kan", "ankan": "a closed kan", "kakan": "an added kan"}
GUARD = 3000  # moves: a scripted round that has not ended by then is a script error, reported as no witness
# why a change has no scenario when the rulebook plays the same without it (a default written out, say)
ALIKE = "with or without this line the rulebook plays alike (the value is what it does anyway), so nothing can show it"


@record(slots=False)
class Script:
    """One scripted round: 13 tiles per seat (East deals), live draws per seat in turn order (or ``turns``: the seats
    that draw first, when a call skips a seat), indicators, replacement tiles, the last live tiles (``tail``), the
    counters on the table and the moves, ``"SEAT VERB [TILE] [TILES USED]"`` (verbs: dahai, reach, open_reach, ankan,
    kakan, nukidora, ryukyoku, tsumo; ron, pon, chi, daiminkan; tenpai, noten). ``draws[-1]`` instead gives every
    live draw in order, comma-separated, ``?`` for any tile. ``topics`` are the settings and item kinds it was built
    to show (tried first for a change of those). Seats are named by their wind in the words (East deals)."""

    key: str
    words: str
    hands: Mapping[int, str]
    steps: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    draws: Mapping[int, str] = field(default_factory=dict)
    turns: tuple[int, ...] = ()
    players: int = 4
    dora: str = ""
    ura: str = ""
    replacements: str = ""
    tail: str = ""
    honba: int = 0
    sticks: int = 0
    east_points: int | None = None  # East's score (the others keep the rulebook's start points)
    start_at: int | None = None  # the moves wait until the live wall holds at most this many tiles


def _calls(*keys: str) -> tuple[str, ...]:
    return tuple(f"calls {k}" for k in keys)


DRAW_HANDS = {0: "123m456p789s2355s", 1: "1357m2468p1357s1z", 2: "2468m1357p2468s2z", 3: "3579m3579p3579s3z"}
RIICHI_HANDS = {0: "123m456p789s2355s", 1: "2468m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
RON_HANDS = {0: "4m19m19p19s1234z56z", 1: "23m456p678s234s88p", 2: "56m345p678p567s22s", 3: "35m234p456s678s55p"}
NAGASHI_HANDS = {0: "123m456p789s2355s", 1: "2345m2345p2345s2z", 2: "2468m2468p2468s3z", 3: "3467m3467p3467s4z"}
CHI_HANDS = {0: "4m19m19p19s1234z56z", 1: "4567m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}
PAO_STEPS = ("0 dahai 5z", "1 pon 5z", "1 dahai 1p", "2 dahai 6z", "1 pon 6z", "1 dahai 2s", "3 dahai 7z")
PAO_OTHERS = {2: "6z2468m2468p35s79s", 3: "7z3579m3579p19s24s"}
LIABILITY = ("liability",)
ABORTIVE = ("abortive_draw", "game renchan", "game honba_increase", "game honba_reset")
SEQ = ("6s", "6s", "6s", "6s", "1s", "1s", "7s")  # pao scripts: the seats' draws before the completing call


def _pao(key: str, words: str, *, tsumo: bool = False, honba: int = 0, double: bool = False, kan: bool = False) -> Script:
    wait, win = ("1122z", "1z") if double else ("45m99p", "3m")
    hands = {0: "5z19m19p19s234z7p8s" + ("6p" if tsumo else win), 1: wait + ("1p2s5566777z" if kan else "1p23s556677z"), **PAO_OTHERS}
    steps = list(PAO_STEPS) + (["1 daiminkan 7z", "1 dahai 9m"] if kan else ["1 pon 7z", "1 dahai 3s"])
    steps += ["1 tsumo"] if tsumo else [f"0 dahai {win}", f"1 ron {win}"]
    order = ",".join(SEQ + ((win,) if tsumo else ()))
    return Script(key, words, hands, tuple(steps), LIABILITY, draws={-1: order}, honba=honba, replacements="9m")


SCRIPTS: tuple[Script, ...] = (
    Script("exhaustive", "everybody discards what they draw; at the exhaustive draw only East, the dealer, is tenpai", DRAW_HANDS,
           topics=("draw", "game renchan", "game honba_increase", "game honba_reset")),
    Script("noten", "everybody discards what they draw; East, the dealer, is tenpai at the exhaustive draw but declares noten", DRAW_HANDS,
           ("0 noten",), ("game voluntary_noten", "draw")),
    Script("all_copies", "East holds all four 1m and waits only on a fifth; everybody discards what they draw",
           {0: "1111m234p567p789s", 1: "2468m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"},
           topics=("tenpai karaten", "draw")),
    Script("karaten_pon", "East calls pon on South's 9m, the fourth, and waits on 9m alone beside his pon; everybody discards "
           "what they draw", {0: "999m234p567p789s1z", 1: "9m2468m2468p1357s", 2: "357m1357p2468s22z", 3: "2468m3579p3579s3z"},
           ("1 dahai 9m", "0 pon 9m", "0 dahai 1z"), ("tenpai karaten", "draw")),
    Script("nagashi", "South draws only terminals and honours and discards every one; East is tenpai at the draw; 2 honba on the table",
           NAGASHI_HANDS, topics=("draw",), draws={1: "999m1111p9999p111s5555z"}, honba=2),
    Script("nagashi_call", "South calls pon on East's first discard (East wind), then draws only terminals and honours and discards "
           "every one; East is tenpai at the draw", {**NAGASHI_HANDS, 1: "2345m2345p23s11z9s"},
           ("0 dahai 1z", "1 pon 1z", "1 dahai 9s"), ("draw",), draws={0: "1z", 1: "999m1111p999p111s5555z"}, turns=(0, 2)),
    Script("double_ron", "East discards 4m at once and South and West both call ron on it; 2 honba and 3 riichi sticks on the table",
           {**RON_HANDS, 3: "1379m1379p1379s5z"}, ("0 dahai 4m", "1 ron 4m", "2 ron 4m"),
           ("win multiple_ron", "win sticks_to", "win honba_to", *ABORTIVE), honba=2, sticks=3),
    Script("triple_ron", "East discards 4m at once and South, West and North all call ron on it", RON_HANDS,
           ("0 dahai 4m", "1 ron 4m", "2 ron 4m", "3 ron 4m"), ("win triple_ron", "win multiple_ron", *ABORTIVE)),
    Script("kuikae_suji", "South calls chi on East's 4m with 56m and discards 7m, the other end of the same run", CHI_HANDS,
           ("0 dahai 4m", "1 chi 4m 56m", "1 dahai 7m"), _calls("kuikae", "chi")),
    Script("kuikae_same", "South calls chi on East's 4m with 56m and discards the other 4m at once", CHI_HANDS,
           ("0 dahai 4m", "1 chi 4m 56m", "1 dahai 4m"), _calls("kuikae", "chi")),
    Script("precedence", "East discards 4m; South asks to call chi on it and West to call pon",
           {0: "4m19m19p19s1234z56z", 1: "56m2468p1357s134z", 2: "44m3579p2468s23z7m", 3: "2468m3579p3579s3z"},
           ("0 dahai 4m", "1 chi 4m 56m", "2 pon 4m"), _calls("precedence", "chi")),
    Script("last_discard", "South draws the last tile of the wall (7z) and discards it; West, holding two, calls pon",
           {0: "123m456p789s2355s", 1: "1357m2468p1357s1z", 2: "2468m1357p246s77z", 3: "3579m3579p3579s7z"},
           ("2 pon 7z",), _calls("last_discard_callable"), tail="7z", start_at=0),
    Script("first_kan", "East declares a closed kan of 1m on his first turn, then discards what he draws",
           {0: "1111m456p789s235s", 1: "2468m2468p357s1z4z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"},
           ("0 ankan 1m",), (*_calls("max_kans"), "abortive_draw"), draws={0: "7z"}),
    Script("kan_dora", "South calls an open kan on East's 4m and wins on the replacement tile, 9p; the kan's new dora indicator "
           "(4s) makes South's 5s pair dora",
           {0: "4m19m19p19s1234z56z", 1: "444m234p678s55s99p", 2: "3579m1357p2468s2z", 3: "2368m3578p3479s3z"},
           ("0 dahai 4m", "1 daiminkan 4m", "1 tsumo"), _calls("kan_dora"), dora="1z4s", replacements="9p"),
    Script("robbed_kan", "East declares a closed kan of 9s; South holds thirteen orphans waiting on 9s and calls ron on it",
           {0: "999s2468m2468p35s", 1: "119m19p1s1234567z", 2: "3579m1357p2467s2z", 3: "2368m3579p368s34z"},
           ("0 ankan 9s", "1 ron 9s"), _calls("thirteen_orphans_robs_closed_kan"), draws={0: "9s"}),
    Script("riichi", "East, tenpai at once, declares riichi on his first discard; then everybody discards what they draw",
           RIICHI_HANDS, ("0 reach", "0 dahai 7z"), ("riichi min_wall", "riichi min_points", "abortive_draw"), draws={0: "7z"}),
    Script("open_riichi", "East, tenpai at once, declares an open riichi (his hand shown) on his first discard",
           RIICHI_HANDS, ("0 open_reach", "0 dahai 7z"), ("riichi open_riichi",), draws={0: "7z"}),
    Script("riichi_1500", "East, with 1,500 points and tenpai at once, declares riichi on his first discard",
           RIICHI_HANDS, ("0 reach", "0 dahai 7z"), ("riichi min_points", "riichi below_zero"), draws={0: "7z"}, east_points=1500),
    Script("riichi_500", "East, with 500 points and tenpai at once, declares riichi on his first discard",
           RIICHI_HANDS, ("0 reach", "0 dahai 7z"), ("riichi min_points", "riichi below_zero"), draws={0: "7z"}, east_points=500),
    Script("riichi_late", "East, tenpai all along, declares riichi only with his last draw, one tile before the wall runs out",
           RIICHI_HANDS, ("0 reach", "0 dahai 7z"), ("riichi min_wall",), tail="7z6z", start_at=1),
    Script("riichi_furiten", "East, waiting on 1s-4s, discards a 1s he draws (furiten), then declares riichi with his next draw",
           RIICHI_HANDS, ("0 dahai 1s", "0 reach", "0 dahai 7z"), ("riichi allowed_while_furiten",), draws={0: "1s7z"}),
    Script("riichi_kan", "East declares riichi at once, then draws the fourth 1m for his concealed 111m and declares a closed kan",
           {**RIICHI_HANDS, 0: "111m456p789s2355s", 2: "579m1357p2468s22z"}, ("0 reach", "0 dahai 7z", "0 ankan 1m"),
           ("riichi closed_kan_after",), draws={0: "7z1m", 1: "7z", 2: "7z", 3: "7z"}),
    Script("riichi_kan_reading", "East declares riichi on 3334567899m555z, then draws the fourth 3m and declares a closed kan "
           "(his waits stay, the reading of his hand changes)",
           {**RIICHI_HANDS, 0: "3334567899m555z", 2: "579m1357p2468s22z"}, ("0 reach", "0 dahai 7z", "0 ankan 3m"),
           ("riichi closed_kan_after",), draws={0: "7z3m", 1: "7z", 2: "7z", 3: "7z"}),
    Script("ura", "East declares riichi, then wins by tsumo on 1s; the ura indicator is 1s", RIICHI_HANDS,
           ("0 reach", "0 dahai 7z", "0 tsumo 1s"), ("riichi ura_dora",), draws={0: "7z1s", 1: "7z", 2: "6z", 3: "6z"}, dora="9m", ura="1s"),
    Script("furiten_call", "West, tenpai on 1m-4m, lets East's 1m pass (furiten), calls pon on South's 6z and discards 5s; "
           "North then discards 4m and West calls ron",
           {0: "1m19p19s1234z5z789m", 1: "2468p1367s134z59m", 2: "23m456p789s555s66z", 3: "2468p1367s2z5678m"},
           ("0 dahai 1m", "1 dahai 6z", "2 pon 6z", "2 dahai 5s", "3 dahai 4m", "2 ron 4m"), ("furiten temporary_release",),
           draws={-1: "?,6z,4m"}),
    Script("furiten_draw", "West, tenpai on 1m-4m with a Green triplet, lets East's 1m pass (furiten), draws and discards 1p; "
           "North then discards 4m and West calls ron",
           {0: "1m19p19s1234z5z789m", 1: "2468p1367s134z59m", 2: "23m456p789s55s666z", 3: "2468p1367s2z5678m"},
           ("0 dahai 1m", "1 dahai 9p", "2 dahai 1p", "3 dahai 4m", "2 ron 4m"), ("furiten temporary_release",),
           draws={-1: "?,9p,1p,4m"}),
    Script("furiten_other_call", "West, tenpai on 1m-4m with a Green triplet, lets East's 1m pass (furiten); North calls pon "
           "on South's 7z and discards 4m before West draws again, and West calls ron",
           {0: "1m19p19s1234z5z789m", 1: "2468p1367s134z59m", 2: "23m456p789s55s666z", 3: "2468p1379s77z4m58m"},
           ("0 dahai 1m", "1 dahai 7z", "3 pon 7z", "3 dahai 4m", "2 ron 4m"), ("furiten temporary_release",),
           draws={-1: "?,7z"}),
    Script("dead_wall", "East, tenpai all along, draws 1s with his last draw of the wall and wins by tsumo",
           RIICHI_HANDS, ("0 tsumo 1s",), ("table dead_wall",), tail="1s7z", start_at=2),
    Script("nine_terminals", "East's first draw leaves him nine kinds of terminals and honours, and he calls the abortive draw",
           {0: "19m19p19s123z2345m", 1: "2468m2468p2468s4z", 2: "3579m3579p3579s5z", 3: "2368m3568p3568s6z"},
           ("0 ryukyoku",), ABORTIVE, draws={0: "6p"}),
    Script("four_winds", "each player's first discard is East wind", {
        0: "1z258m258p258s569m", 1: "1z369m369p369s147m", 2: "1z147p147s258m39s5z", 3: "1z2369p23s5z6z7z6s79m"},
           ("0 dahai 1z", "1 dahai 1z", "2 dahai 1z", "3 dahai 1z"), ABORTIVE),
    Script("four_riichi", "all four players are tenpai at once and each declares riichi on his first discard",
           {0: "123m456p789s2355s", 1: "45678m789p123s99p", 2: "789m123p456s111z2z", 3: "345p678p345s333z4z"},
           ("0 reach", "0 dahai 7z", "1 reach", "1 dahai 7z", "2 reach", "2 dahai 7z", "3 reach", "3 dahai 6z"), ABORTIVE,
           draws={0: "7z", 1: "7z", 2: "7z", 3: "6z"}),
    Script("four_kans", "East declares closed kans of 1m, 2m and 3m on his first turn; South declares a fourth, of 4p, on his",
           {0: "1111m2222m3333m9p", 1: "4444p2468s6789m1z", 2: "3579p3579s5678m2z", 3: "2368p2368s4599m3z"},
           ("0 ankan 1m", "0 ankan 2m", "0 ankan 3m", "1 ankan 4p"), ABORTIVE, draws={0: "9p", 1: "7z"}, replacements="5z5z5z6z"),
    _pao("pao_ron", "South calls pon on all three dragons, the last (Red) from North, then wins by ron on East's discard; "
         "1 honba on the table", honba=1),
    _pao("pao_tsumo", "South calls pon on all three dragons, the last (Red) from North, then wins by tsumo; 1 honba on the table",
         tsumo=True, honba=1),
    _pao("pao_double", "South calls pon on all three dragons, the last (Red) from North, then wins by tsumo on a hand of honours "
         "only (two yakuman)", tsumo=True, double=True),
    Script("pao_kans", "South declares closed kans of 1m, 2p and 3s, then calls an open kan on North's 9s (his fourth kan) and "
           "wins by tsumo on 5z", {0: "4567m4567p4567s1z", 1: "111m2222p333s999s", 2: "2468m3579p2468s2z", 3: "3789m1468p5678s3z"},
           ("1 ankan 1m", "1 ankan 2p", "1 dahai 7z", "1 ankan 3s", "1 dahai 7z", "1 daiminkan 9s", "1 dahai 6z", "1 tsumo 5z"), LIABILITY,
           draws={-1: "?,1m,?,?,?,3s,?,9s,?,?,?,5z"}, replacements="5z7z7z6z"),
    _pao("pao_kan", "South calls pon on two dragons and an open kan on the third (Red, from North), then wins by ron on "
         "East's discard", kan=True),
    Script("pao_winds", "South calls pon on East's East wind, West's South wind, North's West wind and then North's North "
           "wind (his fourth wind set, North's feed), then wins by ron on East's 9p",
           {0: "1z9p2468m2468p135s", 1: "11z22z33z44z9p1p2s3s4s", 2: "2z3579m3579p2468s", 3: "3z4z1368m1357p579s"},
           ("0 dahai 1z", "1 pon 1z", "1 dahai 1p", "2 dahai 2z", "1 pon 2z", "1 dahai 2s", "3 dahai 3z", "1 pon 3z",
            "1 dahai 3s", "3 dahai 4z", "1 pon 4z", "1 dahai 4s", "0 dahai 9p", "1 ron 9p"), LIABILITY,
           draws={-1: "7z,7z,7z,7z,6z,6z,6z,6z,5z"}),
    # three players
    Script("kita", "East sets a North aside on his first turn", {0: "4z19m19p19s123z567z", 1: "2468p2468s123z56z", 2: "3579p3579s12z567z"},
           ("0 nukidora 4z",), ("table kita",), draws={0: "5p"}, players=3),
    Script("kita_ron", "East sets a North aside; South holds seven pairs waiting on North and calls ron on it",
           {0: "4z19m19p19s123z567z", 1: "1199p1199s1177z4z", 2: "2468p2468s233z56z"}, ("0 nukidora 4z", "1 ron 4z"),
           ("table kita_ron",), draws={0: "6z"}, players=3),
    Script("kita_nine", "East sets a North aside; South then draws with nine kinds of terminals and honours and calls the abortive draw",
           {0: "4z2468p2468s5z6z7z3p", 1: "19m19p19s1237z357p", 2: "3579p3579s1z5z6z7z1p"}, ("0 nukidora 4z", "1 ryukyoku"),
           ("table kita_interrupts", "abortive_draw"), draws={0: "8p", 1: "6p"}, replacements="8s", players=3),
    Script("robbed_kan3", "East declares a closed kan of 9s; South holds thirteen orphans waiting on 9s and calls ron on it",
           {0: "999s2468p2468s35s", 1: "119m19p1s1234567z", 2: "3579p3467s2345z7p"}, ("0 ankan 9s", "1 ron 9s"),
           _calls("thirteen_orphans_robs_closed_kan"), draws={0: "9s"}, players=3),
    Script("riichi_late3", "East, tenpai all along, declares riichi with 3 tiles left in the live wall after his draw (one more "
           "draw of his own to come)", {0: "123p456p789s2355s", 1: "19m2468p1357s135z", 2: "3579p2468s9s2267z"},
           ("0 reach", "0 dahai 7z"), ("riichi min_wall",), tail="7z5z5z5z", start_at=3, players=3),
    Script("karaten_pon3", "East calls pon on South's 9m, the fourth, and waits on 9m alone beside his pon; everybody discards "
           "what they draw", {0: "999m234p567p789s1z", 1: "9m2468p13579s135z", 2: "3579p2468s9s2267z"},
           ("1 dahai 9m", "0 pon 9m", "0 dahai 1z"), ("tenpai karaten", "draw"), players=3),
    Script("nagashi3", "South draws only terminals and honours and discards every one; East is tenpai at the draw",
           {0: "123p456p789s2355s", 1: "2345p2345s678p8s2z", 2: "3467p3467s3z4z6z7z8s"}, (), ("draw",),
           draws={1: "9999m111m999p111s5555z"}, players=3),
    Script("nagashi3_call", "South calls pon on East's first discard (East wind), then draws only terminals and honours and "
           "discards every one; East is tenpai at the draw", {0: "123p456p789s2355s", 1: "2345p2345s67p11z9s", 2: "3467p3467s3z4z6z7z8s"},
           ("0 dahai 1z", "1 pon 1z", "1 dahai 9s"), ("draw",), draws={0: "1z", 1: "9999m111m999p111s5555z"}, turns=(0, 2), players=3),
    Script("pao3", "South calls pon on all three dragons, the last (Red) from West, then wins by ron on East's 3p; 1 honba on the table",
           {0: "5z3p19m19p19s234z7p8s", 1: "45p99s1p23s556677z", 2: "6z7z2468p2468s35s1z"},
           ("0 dahai 5z", "1 pon 5z", "1 dahai 1p", "2 dahai 6z", "1 pon 6z", "1 dahai 2s", "2 dahai 7z", "1 pon 7z", "1 dahai 3s",
            "0 dahai 3p", "1 ron 3p"), LIABILITY, honba=1, players=3),
    Script("kita_rinshan", "East sets a North aside and wins by tsumo on the tile drawn for it",
           {0: "4z123p456p789s556s", 1: "2468p2468s123z56z", 2: "3579p3579s12z567z"}, ("0 nukidora 4z", "0 tsumo 5s"),
           ("table kita_rinshan",), draws={0: "4s"}, replacements="5s", players=3),
)


class NotPlayable(Exception):
    """A script this rulebook cannot deal (its tile set lacks a tile, or the table has another size)."""


# ---- dealing a script ----------------------------------------------------------------------------------------------


class _Pool:
    """The rulebook's tiles not yet placed; a five the set has only as a red copy is taken red."""

    def __init__(self, rules: RoundRules) -> None:
        self.left = Counter(tile_set(rules))  # copies left by tile code: a look-up, not a scan of the set, per tile

    def take(self, text: str) -> list[int]:
        out = []
        left = self.left
        for code in T.tile_codes(text) if text else ():
            if not left[code] and code in T.RED_FIVE_KINDS:
                code = T.RED_BASE + T.RED_FIVE_KINDS.index(code)
            if not left[code]:
                raise NotPlayable(f"no {T.format_tiles([code])} left in the tile set")
            left[code] -= 1
            out.append(code)
        return out


def _order(script: Script, players: int, pool: _Pool) -> list[int | None]:
    """The live draws in the order they happen: given outright (key -1, comma-separated, ``?`` for any tile), or
    per seat in turn order from the dealer (``turns`` first when a call skips a seat)."""
    if -1 in script.draws:
        return [None if t == "?" else pool.take(t)[0] for t in script.draws[-1].split(",")]
    per_seat = {seat: pool.take(text) for seat, text in script.draws.items()}
    out: list[int | None] = []
    seat = 0
    turns = list(script.turns)
    while any(per_seat.values()):
        if turns:
            seat = turns.pop(0)
        out.append(per_seat[seat].pop(0) if per_seat.get(seat) else None)
        seat = (seat + 1) % players
    return out


def deal(rules: RoundRules, script: Script) -> Round:
    """The scripted round under these rules, East (seat 0) dealing; ``NotPlayable`` when the rules cannot deal it."""
    if rules.players != script.players:
        raise NotPlayable(f"a {script.players}-player table")
    try:
        wall = _dealt(rules, script)
        start = int(rules.rulebook.setting("table", "start_points"))
        scores = () if script.east_points is None else (script.east_points,) + (start,) * (rules.players - 1)
        setup = RoundSetup(dealer=0, honba=script.honba, sticks=script.sticks, scores=scores)
        return Round(rules, setup, wall)
    except EngineError as e:
        raise NotPlayable(str(e)) from e


def _arranged(rules: RoundRules, script: Script) -> Wall:
    """The script's wall under these rules (its tiles taken from the rules' tile set)."""
    pool = _Pool(rules)
    hands = {seat: pool.take(text) for seat, text in script.hands.items()}
    dora, ura, replacements = pool.take(script.dora), pool.take(script.ura), pool.take(script.replacements)
    tail = pool.take(script.tail)
    order = _order(script, rules.players, pool)
    # None in the draws means any tile (what ``Wall.build`` does with it; its hint names the given tiles only)
    return Wall.build(rules, hands, order, dealer=0, dora=dora, ura=ura, replacements=replacements, tail=tail)  # type: ignore[arg-type]


def _dealt(rules: RoundRules, script: Script) -> Wall:
    """``_arranged``, kept per script with the rules it read (the table size, the tile set, the dead wall) and their
    values: the wall is a function of what it reads, so rules holding the same values get the same wall (an
    immutable value) without arranging it again, as A's mixes do for every script they play. The names are read
    again from ``rules`` on a hit, so a round noting its reads (``_Reading``) notes them as arranging would."""
    kept = _DEALT.get(script.key)
    for reads, wall in kept or ():
        if all(_same(getattr(rules, name), value) for name, value in reads):
            return wall
    probe = _reading(rules)
    wall = _arranged(probe, script)
    reads = tuple((name, getattr(rules, name)) for name in sorted(probe.__dict__["_reads"]))
    if kept is None or len(kept) >= _DEALT_PER_SCRIPT:
        if len(_DEALT) >= _DEALT_BOUND:
            _DEALT.clear()
        kept = _DEALT[script.key] = []
    kept.append((reads, wall))
    return wall


# the walls arranged, by script key: a few tile sets and table sizes each (a fresh list past that many)
_DEALT: dict[str, list[tuple[tuple[tuple[str, Any], ...], Wall]]] = {}
_DEALT_PER_SCRIPT = 8
_DEALT_BOUND = len(SCRIPTS) + 64
register("engine.round.witness.dealt", _DEALT.clear, _DEALT.__len__, _DEALT_BOUND)


# ---- playing it ---------------------------------------------------------------------------------------------------


def _seat(seat: int) -> str:
    return WIND_WORDS[seat]


@lru(512)
def _step(step: str) -> tuple[int, str, int | None, tuple[int, ...]]:
    """A scripted move as (seat, verb, tile, tiles used): read once per script line, asked at every turn it waits."""
    parts = step.split()
    tile = T.tile_codes(parts[2])[0] if len(parts) > 2 else None
    used = tuple(sorted(T.kind_of(c) for c in T.tile_codes(parts[3]))) if len(parts) > 3 else ()
    return int(parts[0]), parts[1], tile, used


def _engine_type(verb: str) -> str:
    return {"tsumo": "hora", "ron": "hora", "open_reach": "reach"}.get(verb, verb)


def _find(r: Round, seat: int, verb: str, tile: int | None, used: tuple[int, ...]) -> Action | None:
    kind = _engine_type(verb)
    offered = [a for a in r.legal_actions(seat) if a.type == kind and a.open == (verb == "open_reach")]
    for a in offered:
        if tile is not None and a.pai is not None and T.kind_of(a.pai) != T.kind_of(tile):
            continue
        if used and tuple(sorted(T.kind_of(c) for c in a.consumed)) != used:
            continue
        return a
    return None


def _phase_of(verb: str) -> str:
    """The phase of the round in which a scripted verb is played: the seat's own turn, an answer to a discard (or a
    kan, or a North set aside), or the declarations at an exhaustive draw."""
    if verb in OWN_VERBS:
        return "own"
    if verb in RESPONSE_VERBS:
        return "respond"
    if verb in DECLARE_VERBS:
        return "declare"
    raise NotPlayable(f"unknown move `{verb}` in a script")


def quick_quiet_action(r: Round, seat: int) -> Action:
    """``quiet_action``, without listing every move where the quietest one is at hand: an answer to a discard
    passes, and a turn with a drawn tile discards it, when the round finds that move legal (``legal.is_legal``,
    the one question a replay asks of a logged move). Listing a turn's moves (riichi, kans, the player's abortive
    draws) was a quarter of a scripted round's work, and the turns of a script are mostly discards of the drawn
    tile. A round plays the same either way (``tests/round/test_witness_reads.py`` plays every script under
    every bundled rulebook both ways); it reads fewer rules, which only ever lets a change be told apart from it
    more often (``_reads_alike``)."""
    phase = r.phase
    if phase == "respond":
        action = pass_action(seat)
        if is_legal(r, seat, action):  # a move ``legal`` built is well-typed: no shape check (``built_move``)
            return action
    elif phase == "own" and r.drawn is not None:
        action = dahai_action(seat, r.drawn, True)
        if is_legal(r, seat, action):
            return action
    return quiet_action(r, seat)


def quiet_action(r: Round, seat: int) -> Action:
    """The quietest move: pass, declare tenpai, discard the drawn tile (after a call, the first legal discard)."""
    actions = r.legal_actions(seat)
    for wanted in ("none", "tenpai"):
        for a in actions:
            if a.type == wanted:
                return a
    for a in actions:
        if a.type == "dahai" and a.tsumogiri:
            return a
    return next(a for a in actions if a.type == "dahai")


def _words_of(step: str) -> str:
    seat, verb, tile, used = _step(step)
    what = {"dahai": "discard", "reach": "declare riichi", "open_reach": "declare an open riichi", "ankan": "declare a closed kan of", "kakan": "add a kan of",
            "nukidora": "set aside", "ryukyoku": "call the abortive draw", "tsumo": "win by tsumo", "ron": "call ron on",
            "pon": "call pon on", "chi": "call chi on", "daiminkan": "call an open kan on", "noten": "declare noten",
            "tenpai": "declare tenpai"}[verb]
    tile_word = f" {T.format_tiles([tile])}" if tile is not None and verb != "tsumo" else ""
    return f"{_seat(seat)} may not {what}{tile_word}"


def _clauses(rules: RoundRules) -> list[str]:
    """Every clause of the rulebook, longest first: refusal messages end with one, which the diff already shows."""
    found = {item.clause for item in rules.rulebook.resolved.items.values() if item.clause}
    return sorted(found, key=len, reverse=True)


def _refusal(r: Round, step: str) -> str:
    """The move in words and the engine's own reason it is refused (its clause left out: the diff names clauses)."""
    seat, verb, tile, used = _step(step)
    try:
        r.apply(Action(_engine_type(verb), seat, tile, used, open=verb == "open_reach"))
    except IllegalAction as e:
        reason = str(e).split(" refused: ", 1)[-1]
        for clause in _clauses(r.rules):
            reason = reason.replace(f" ({clause})", "")
        reason = re.sub(r"\bseat (\d)\b", lambda m: _seat(int(m.group(1))), reason)
        return f"{_words_of(step)} ({reason})"
    except EngineError:
        pass
    return _words_of(step)


def _passed_by(r: Round, action: Action, step: str) -> bool:
    """Whether ``action`` put out the tile a scripted call or ron waits for, and the round did not ask that seat
    about it: the chance has gone (a later copy of the tile is another moment)."""
    seat, verb, tile, _used = _step(step)
    if verb not in RESPONSE_VERBS or tile is None or action.pai is None or action.actor == seat:
        return False
    if action.type not in ("dahai", "ankan", "kakan", "nukidora") or T.kind_of(action.pai) != T.kind_of(tile):
        return False
    return not (r.phase == "respond" and seat in r.waiting())


def _unoffered(r: Round, step: str) -> str:
    seat, verb, _tile, _used = _step(step)
    if verb == "ron" and r.seats[seat].furiten:
        return f"{_words_of(step)} (furiten)"
    return f"{_words_of(step)} (not offered)"


def play(rules: RoundRules, script: Script, quiet: Callable[[Round, int], Action] = quick_quiet_action) -> dict[str, Any]:
    """Play the script under these rules: what was refused, the calls made, and the settlement in words and numbers
    (``quiet``: how an unscripted move is chosen, ``quiet_action`` for the full listing)."""
    r = deal(rules, script)
    pending = list(script.steps)
    refused: list[str] = []
    started = script.start_at is None
    for _ in range(GUARD):
        if r.finished:
            break
        started = started or r.wall.remaining <= (script.start_at or 0)
        waiting = r.waiting()
        if pending and started:
            seat, verb, tile, used = _step(pending[0])
            if seat in waiting and _phase_of(verb) == r.phase:
                action = _find(r, seat, verb, tile, used)
                if action is not None:
                    pending.pop(0)
                    r.apply(action)
                    if pending and _passed_by(r, action, pending[0]):
                        refused.append(_unoffered(r, pending.pop(0)))
                    continue
                window = r.window[1] if r.window is not None else None
                waits_for_its_tile = r.phase == "respond" and tile is not None and window is not None and T.kind_of(window) != T.kind_of(tile)
                if not waits_for_its_tile:
                    refused.append(_refusal(r, pending.pop(0)))
                    continue
        action = quiet(r, waiting[0])
        r.apply(action)
        if pending and started and _passed_by(r, action, pending[0]):
            refused.append(_unoffered(r, pending.pop(0)))
    else:
        raise NotPlayable("the scripted round does not end")
    refused += [f"{_words_of(step)} (never offered the chance)" for step in pending]
    return _outcome(r, refused)


def _outcome(r: Round, refused: list[str]) -> dict[str, Any]:
    s = r.settlement
    assert s is not None
    calls = []
    for seat, st in enumerate(r.seats):
        for meld in st.melds:
            what = MELD_WORDS.get(meld.type, meld.type)
            tile = T.format_tiles([meld.called if meld.called is not None else meld.tiles[0]])
            if meld.source is not None and meld.type != "kakan":
                calls.append(f"{_seat(seat)} calls {what} on {_seat(meld.source)}'s {tile}")
            else:
                calls.append(f"{_seat(seat)} declares {what} of {tile}")
    return {
        "refused": refused,
        "calls": calls,
        "end": _end_words(r, s),
        "abortive": s["abortive"],
        "deltas": list(s["deltas"]),
        "next": _next_words(r, s),
    }


def _win_words(w: dict[str, Any]) -> str:
    how = "tsumo" if w.get("from") == w.get("seat") else f"ron from {_seat(w['from'])}"
    if w.get("yakuman"):
        value = f"{w['limit'] or 'yakuman'} x{w['yakuman']}"
    else:
        value = f"{w.get('han', 0)} han {w.get('fu', 0)} fu"
    return f"{_seat(w['seat'])} wins by {how} ({value})"


def _end_words(r: Round, s: dict[str, Any]) -> str:
    if s["kind"] == "win":
        words = " and ".join(_win_words(w) for w in s["wins"])
        if s.get("clauses"):
            words += ", a liability rule deciding who pays"
        return words
    if s["abortive"] or s["kind"] == "abortive":
        name = s["abortive"]
        return f"abortive draw ({name})" if name else "abortive draw (by the `win triple_ron` setting, no abortive item)"
    tenpai = [_seat(i) for i, t in enumerate(s.get("tenpai", ())) if t]
    words = "exhaustive draw, " + (f"tenpai: {', '.join(tenpai)}" if tenpai else "nobody tenpai")
    nagashi = [_seat(i) for i in s.get("nagashi", ())]
    if nagashi:
        words += f"; draw payment for discarding only terminals and honours: {', '.join(nagashi)}"
    return words


def _next_words(r: Round, s: dict[str, Any]) -> str:
    who = "East deals again" if s["dealer_next"] == r.setup.dealer else f"{_seat(s['dealer_next'])} deals"
    sticks = s["sticks_next"]
    return f"{who}, {s['honba_next']} honba, {sticks} riichi stick{'' if sticks == 1 else 's'} on the table"


def describe(outcome: dict[str, Any]) -> str:
    """One side's round in words: refused moves, calls, the end, the points and the next hand."""
    parts = [*outcome["calls"], *outcome["refused"], outcome["end"]]
    points = " ".join(f"{d:+,}" if d else "0" for d in outcome["deltas"])
    parts.append(f"points {points}")
    parts.append(f"next: {outcome['next']}")
    return "; ".join(parts)


# ---- the witness --------------------------------------------------------------------------------------------------


def _ordered(topic: str, kind: str) -> Iterator[Script]:
    """The scripts built for this setting or item kind first, then all the others."""
    first = [s for s in SCRIPTS if topic in s.topics or kind in s.topics]
    yield from first
    yield from (s for s in SCRIPTS if s not in first)


# The settings a round reads from its rulebook by name, beside the fields of ``RoundRules`` and what its scorer reads
# (the points each seat starts a round with, when a script or a setup gives none)
READ_BY_NAME = frozenset({"start_points"})
_READ_BY_NAME_GROUPS = tuple((group, name) for group, keys in V.SETTINGS.items() for name in keys if name in READ_BY_NAME)

Cache = dict[tuple[int, str], Any]


class _Reading(RoundRules):
    """A rulebook's ``RoundRules`` that notes which of them a scripted round reads. Its fields start unset: the first
    read of one lands in ``__getattr__``, which notes the name and copies the value in, so every later read is a
    plain slot read at full speed. (A property or method reads the fields it needs through the same way.)"""

    def __getattr__(self, name: str) -> Any:
        own = self.__dict__
        value = getattr(own["_source"], name)
        own["_reads"].add(name)
        object.__setattr__(self, name, value)  # the frozen record's own ``__setattr__`` refuses
        return value


def _reading(rules: RoundRules) -> _Reading:
    reader = object.__new__(_Reading)
    reader.__dict__.update(_source=rules, _reads=set())
    return reader


def _play(rules: RoundRules, script: Script) -> tuple[dict[str, Any] | None, frozenset[str]]:
    """``play``, None when the rules cannot deal the script; with the names of the rules the round read."""
    reader = _reading(rules)
    try:
        out: dict[str, Any] | None = play(reader, script)
    except (NotPlayable, EngineError, RuleEvaluationError):  # these rules cannot deal the script (its tiles, its
        out = None  # table), refuse its wall or a move, or a rule fails on it: no witness; anything else is a bug
    return out, frozenset(reader.__dict__["_reads"])


def _played(rules: RoundRules, script: Script, cache: Cache | None) -> tuple[dict[str, Any] | None, frozenset[str]]:
    key = (id(rules), script.key)
    if cache is not None and key in cache:
        return cache[key][1], cache[key][2]
    out, reads = _play(rules, script)
    if cache is not None:
        cache[key] = (rules, out, reads)  # the rules kept alive with their entry, so their id is not reused
    return out, reads


def played(rules: RoundRules, script: Script, cache: Cache | None) -> dict[str, Any] | None:
    """``play``, None when the rules cannot deal the script; kept in ``cache`` (by rules object, while the caller
    holds the rules: one diff's A is played once per script)."""
    return _played(rules, script, cache)[0]


def _same(x: Any, y: Any) -> bool:
    """Whether two values a round reads make it play alike: the same object, or equal plain values (numbers,
    words, and tuples and dicts of them); any other object (a compiled rule, a closure) only as itself."""
    if x is y:
        return True
    if type(x) is not type(y):
        return False
    if isinstance(x, (bool, int, float, str)):
        return bool(x == y)
    if isinstance(x, tuple):
        return len(x) == len(y) and all(map(_same, x, y))
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(_same(v, y[k]) for k, v in x.items())
    return False


def _moment_items(rules: RoundRules) -> dict[str, tuple[Any, ...]]:
    """The abortive items by moment, without their conditions' closures: ``round_rules`` makes each closure from
    its item's own condition, so the same item gives a closure that answers alike."""
    return {moment: tuple(item for item, _when in pairs) for moment, pairs in rules.abortives_at.items()}


def _rulebook_reads(rules: RoundRules) -> tuple[Any, ...]:
    """What a round reads of its rulebook beside ``RoundRules``: the settings of ``READ_BY_NAME`` and the clauses
    (messages name the clause refusing a move). Kept per rulebook object: A's are compared with each mix's for
    every script that read them."""
    rb = rules.rulebook
    found = _RULEBOOK_READS.get(rb)
    if found is None:
        settings = tuple(rb.setting(group, name) for group, name in _READ_BY_NAME_GROUPS)
        clauses = tuple((key, item.clause) for key, item in rb.resolved.items.items())
        found = _RULEBOOK_READS.put(rb, (rb.name, settings, clauses))
    return found


_RULEBOOK_READS: ByIdentity[tuple[Any, ...]] = ByIdentity("engine.round.witness.rulebook_reads", 64)


def _reads_alike(a: RoundRules, b: RoundRules, reads: frozenset[str], scorer_alike: bool) -> bool:
    """Whether every name a round read under ``a`` has the same value under ``b``: then that round, a function of
    what it reads, plays under ``b`` as under ``a``. ``scorer_alike``: the caller knows that ``b``'s scorer answers
    every hand as ``a``'s does."""
    for name in reads:
        if name == "scorer":
            same = scorer_alike or a.scorer is b.scorer
        elif name == "rulebook":
            same = a.rulebook is b.rulebook or _rulebook_reads(a) == _rulebook_reads(b)
        elif name == "abortives_at":
            same = _same(_moment_items(a), _moment_items(b))
        else:
            same = _same(getattr(a, name), getattr(b, name))
        if not same:
            return False
    return True


def round_witness(
    a: RoundRules,
    b: RoundRules,
    topic: str = "",
    kind: str = "",
    cache: Cache | None = None,
    whole: RoundRules | None = None,
    *,
    skip_alike: bool = False,
    scorer_alike: bool = False,
) -> dict[str, Any] | None:
    """The first scripted round that the two rules settle differently (``topic``: the setting, ``"group key"``, or
    ``kind``: the item kind, whose scripts are tried first); None when every script agrees or none can be dealt.
    With ``whole`` (the whole other rulebook, ``b`` being ``a`` with one change), the round also carries ``whole``:
    how ``a`` and ``whole`` settle it (``b`` None when that rulebook cannot deal it). ``skip_alike``: a script whose
    round under ``a`` read nothing that ``b`` holds otherwise is not played under ``b`` (``_reads_alike``; with
    ``scorer_alike``, ``b``'s scorer counts as ``a``'s)."""
    for script in _ordered(topic, kind):
        out_a, reads = _played(a, script, cache)
        out_b = out_a if skip_alike and _reads_alike(a, b, reads, scorer_alike) else played(b, script, cache)
        if out_a is None or out_b is None:
            continue
        if out_a != out_b:
            return {
                "kind": "round",
                "situation": script.words,
                "script": script.key,
                "setup": {
                    "dealer": 0,
                    "honba": script.honba,
                    "sticks": script.sticks,
                    "hands": {_seat(seat): text for seat, text in script.hands.items()},
                    "moves": list(script.steps),
                },
                "a": {**out_a, "words": describe(out_a)},
                "b": {**out_b, "words": describe(out_b)},
                **({"whole": _whole(out_a, whole, script, cache)} if whole is not None else {}),
            }
    return None


def _whole(out_a: dict[str, Any], whole: RoundRules, script: Script, cache: Cache | None) -> dict[str, Any]:
    other = played(whole, script, cache)
    return {"a": {**out_a, "words": describe(out_a)}, "b": {**other, "words": describe(other)} if other is not None else None}


def topic_of(kind: str, name: str, group: str | None) -> tuple[str, str]:
    """(topic, item kind) of a change, as the scripts name them."""
    return (f"{group} {name}", "") if kind == "settings" else ("", kind)




def witness_for(
    a: Any,
    b: Any,
    topic: str = "",
    kind: str = "",
    cache: Cache | None = None,
    whole: Any = None,
    *,
    unread: bool = False,
    skip_alike: bool = False,
    scorer_alike: bool = False,
    scored_by: Any = None,
) -> dict[str, Any] | str:
    """``round_witness`` of two compiled rulebooks (or scorers); a sentence saying why when there is none. ``whole``:
    the whole other rulebook (or scorer), whose settlement of the same round the witness also carries. ``unread``:
    the caller knows that ``b`` is ``a`` with settings that no round reads (not a field of ``RoundRules``, not in
    ``READ_BY_NAME``, none its scorer reads): every script settles alike under both, so none is played under ``b``.
    ``skip_alike`` and ``scorer_alike``: as ``round_witness`` takes them. ``scored_by``: a scorer that answers every
    hand as ``b``'s own would (``b`` then a compiled rulebook), which scores ``b``'s wins."""
    try:
        ra = round_rules(a)
        rb = round_rules(b) if scored_by is None else round_rules_scored_by(b, scored_by)
    except EngineError as e:
        return f"no round can be played with this change alone: {e}"
    try:
        rw = round_rules(whole) if whole is not None else None
    except EngineError:
        rw = None
    setting = topic.split(" ")[-1] if topic else ""
    if setting and setting in ROUND_RULE_FIELDS and getattr(ra, setting) == getattr(rb, setting):
        return ALIKE
    found = None if unread else round_witness(ra, rb, topic, kind, cache, rw, skip_alike=skip_alike, scorer_alike=scorer_alike)
    if found is not None:
        if whole is not None and "whole" not in found:
            found["whole"] = {"a": found["a"], "b": None}
        return found
    for script in SCRIPTS:  # where the value would matter, an abortive draw of the rulebook's may settle the round first
        out = played(ra, script, cache) if topic and topic in script.topics else None
        if out is not None and out["abortive"]:
            return (
                f"where it would matter ({script.words}), the rulebook's abortive draw `{out['abortive']}` settles the "
                "round by its own fields, whatever this value: it matters only together with other rules"
            )
    return (
        f"none of the {len(SCRIPTS)} scripted rounds (exhaustive and abortive draws, multiple ron, riichi, calls, kans, "
        "furiten, liability, kita) settles differently with this change alone: it matters only together with other rules"
    )


def render(witness: dict[str, Any], a: str = "A", b: str = "B", whole: str | None = None) -> list[str]:
    """The witness in words for an organiser: the situation, then what happens under each rulebook (and, with
    ``whole``, the other rulebook's name, under the whole of it)."""
    lines = [f"East deals: {witness['situation']}", f"{a}: {witness['a']['words']}", f"{b}: {witness['b']['words']}"]
    if whole is not None and "whole" in witness:
        other = witness["whole"]["b"]
        if other == witness["b"]:
            lines.append(f"{whole}: the same as with this change alone")
        else:
            lines.append(f"{whole}: " + (other["words"] if other is not None else "this round cannot be dealt under it (another table size or tile set)"))
    return lines


__all__ = ["ALIKE", "READ_BY_NAME", "SCRIPTS", "Script", "NotPlayable", "deal", "play", "round_witness", "witness_for", "render", "describe", "topic_of", "quiet_action", "quick_quiet_action", "played", "Cache"]
