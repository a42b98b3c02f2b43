"""The known kinds of disagreement between riichienv's self-play games and our rulebooks, each decided by one rule.

A disagreement is classified by the rule that decides it, never by its symptom alone: a round whose point changes
differ at an exhaustive draw is ``all_copies_held`` only if the seats whose tenpai differs are exactly the seats
waiting on a fifth copy, with the copies where the category says; otherwise it stays unexplained. Each category
names the rulebook item, the side we take and the source of that side, and whether a pending rulebook fix makes
it vanish (``vanishes``: the fix that, once in the rulebook, leaves riichienv and us agreeing).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.core.tiles import KIND_OF
from engine.replay.events import Call, Dahai, Win


class Known(NamedTuple):
    rule: str  # the rulebook item that decides it
    side: str  # who we think is right, and the source
    vanishes: str = ""  # the pending fix after which the category must not occur any more


KNOWN: dict[str, Known] = {
    "tenpai_yame": Known(
        "settings game tenpai_yame",
        "riichienv ends a game when the last dealer is tenpai at an exhaustive draw while leading with the target "
        "points; so does `tenhou` (its game clause: one of the 164 Phoenix games of tests/data/tenhou ends so); "
        "tenhou_sanma's clause keeps the rule for three players (not verified there). Not met in the corpus now",
    ),
    "three_riichi": Known(
        "abortive_draw suucha_riichi (three players: riichi_count == 3)",
        "tenhou_sanma aborts when all three players are in riichi, riichienv plays on. Unsourced: no Tenhou "
        "three-player record we hold has three riichi in one hand, and Tenhou's manual does not say; we keep ours "
        "(the Tenhou-sanma arena of github.com/Lawrencelea/Mortal_Sanma, libriichi/src/arena/board.rs, aborts too)",
    ),
    "riichi_wall": Known(
        "settings riichi min_wall (three players)",
        "riichienv lets a three-player declarer riichi with 3 tiles left in the live wall after his draw; "
        "tenhou_sanma needs 4 today. riichienv is right: ja.wikipedia 立直 「4枚(三人麻雀では3枚)以上」, Tenhou's "
        "manual 「ツモ巡がある場合に可能」",
        vanishes="tenhou_sanma riichi with 3 tiles left (min_wall 3)",
    ),
    "all_copies_held": Known(
        "draw/furiten karaten: a wait on a fifth copy whose other copies include the player's own melds",
        "riichienv counts as tenpai at an exhaustive draw a hand whose only wait is a tile it holds all four of, some "
        "in its own pon or kan; our tenhou rulebooks call it noten today. riichienv is right: Tenhou's manual "
        "「5枚目を待つ聴牌あり(…純手牌で４枚使用していなければ成立)」 (noten only when the four are in the concealed hand)",
        vanishes="karaten: concealed copies only (tenhou family and tenhou_sanma)",
    ),
    "all_copies_concealed": Known(
        "draw/furiten karaten: a wait on a fifth copy whose four copies are all in the concealed hand",
        "riichienv counts such a hand tenpai; ours does not, as Tenhou's manual says (「純手牌で４枚使用していなければ"
        "成立」): we keep ours",
    ),
    "kita_kan_dora": Known(
        "settings calls kan_dora, with a North set aside after an open or added kan",
        "riichienv reveals an added or open kan's pending indicator when the same player then sets a North aside "
        "(as for a second kan), ours only at the discard or at the next kan. Unsourced either way: no Tenhou "
        "three-player record we hold sets a North aside right after an open kan, and Tenhou's manual does not say; "
        "we keep ours until a Tenhou record settles that timing",
    ),
    "robbed_kan_dora": Known(
        "settings calls kan_dora (after_discard), with an added kan robbed right after the same player's open or "
        "added kan",
        "riichienv turns the earlier kan's pending indicator as soon as the added kan is declared, so the robbing "
        "ron counts it; ours turns it only once nobody robs the added kan (a robbed kan never happened, and the "
        "earlier kan's discard never came). We keep ours: Mortal's Tenhou arena does the same "
        "(github.com/Equim-chan/Mortal, libriichi/src/arena/board.rs: the pending indicator waits for the "
        "replacement draw, 'because chankan is possible until an actual tsumo'), and so does mahjax "
        "(github.com/nissymori/mahjax pull 101: such a robbing ron 'counts the first kan's indicator, which Tenhou "
        "would not'). Tenhou's manual does not say. No point effect met so far: where riichienv's games show it, "
        "the indicator points at no tile of the winner's and the round agrees in full once it is set aside",
    ),
}
FOLLOW_ON = frozenset(
    {"scores of the next round", "honba of the next round", "riichi sticks of the next round", "dealer of the next round",
     "final points", "end of the game", "next round", "game progression"}
)


def category_of_mismatch(m: dict[str, Any], record: dict[str, Any]) -> str | None:
    """The category a replay mismatch of one round falls into (``record``: the round as ``check_game`` saw it),
    or None when no known rule decides it (follow-on mismatches included: the caller decides those)."""
    what, want = m["what"], m["expected"]
    settlement = record["settlement"] or {}
    if what == "point changes" and settlement.get("kind") == "exhaustive":
        return karaten_category(want, settlement, record)
    if what == "draw" and settlement.get("abortive") == "suucha_riichi" and sum(record["riichi"]) == 3:
        return "three_riichi"
    if what == "illegal move" and str(want).startswith("reach") and record["players"] == 3 and record["wall"] == 3:
        return "riichi_wall"
    if what == "kan dora indicator" and any(isinstance(e, Call) and e.kind == "kita" for e in record["body"]):
        return "kita_kan_dora"
    at_kakan = m["got"] == "no indicator there" and " kakan " in str(want)
    if what == "kan dora indicator" and at_kakan and robbed_after_open_kan(record["body"]):
        return "robbed_kan_dora"
    return None


def robbed_after_open_kan(body: list[Any]) -> bool:
    """The round ends in a ron on an added kan that its maker declared after an open or added kan of his own, with
    no discard between the two: the one place where an earlier kan's indicator is pending while a kan is robbed."""
    at = next((i for i, e in enumerate(body) if isinstance(e, Win)), None)
    if at is None or body[at].tsumo:
        return False
    win: Win = body[at]
    calls = [i for i, e in enumerate(body[:at]) if isinstance(e, Call)]
    if len(calls) < 2:
        return False
    first, second = body[calls[-2]], body[calls[-1]]
    return (
        second.kind == "kakan" and second.seat == win.from_who and KIND_OF[second.called_tile] == KIND_OF[win.win_tile]
        and first.kind in ("kakan", "daiminkan") and first.seat == second.seat
        and not any(isinstance(e, Dahai) for e in body[calls[-2] : calls[-1]])
    )


def karaten_category(logged: list[int], settlement: dict[str, Any], record: dict[str, Any]) -> str | None:
    """``all_copies_held`` or ``all_copies_concealed`` when riichienv's tenpai seats (read from the logged point
    changes) are ours plus exactly the seats waiting only on a fifth copy; None otherwise."""
    ours = list(settlement.get("tenpai") or [])
    karaten: dict[int, list[tuple[int, int]]] = record["karaten"]  # seat -> [(concealed, melded) per wait]
    if not karaten or not ours:
        return None
    theirs = [t or seat in karaten for seat, t in enumerate(ours)]
    if not _deltas_fit(logged, theirs):
        return None
    if all(concealed == 4 for waits in karaten.values() for concealed, _ in waits):
        return "all_copies_concealed"
    if all(melded > 0 for waits in karaten.values() for _, melded in waits):
        return "all_copies_held"
    return None


def _deltas_fit(deltas: list[int], tenpai: list[bool]) -> bool:
    """Noten payments go from every noten seat to every tenpai seat; none when all or none are tenpai."""
    if all(tenpai) or not any(tenpai):
        return all(d == 0 for d in deltas)
    return all((d > 0) == t and d != 0 for d, t in zip(deltas, tenpai, strict=True))


def category_of_decision(d: dict[str, Any]) -> str | None:
    """The category of a legal set that differs at one decision, or None; ``"unplayed"`` for a decision after the
    round's first mismatch (the replay stopped there: that mismatch is classified instead)."""
    if d["only_ours"] == ["(not reached)"]:
        return "unplayed"
    if d["only_riichienv"] == ["r"] and not d["only_ours"] and d.get("players") == 3 and d.get("wall") == 3:
        return "riichi_wall"
    return None
