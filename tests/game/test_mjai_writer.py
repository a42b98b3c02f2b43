"""mjai written in one step from the round's typed records (``engine.protocol.mjai.round_to_mjai``) is exactly what
the former two steps wrote: each record as the round's mpsz dict (``engine.round.events.write``), then that dict
converted to mjai. The two-step conversion is kept here as the reference; every event of whole self-played games
under several rulebooks (riichi, calls, kans, kita, wins with sticks on the table, draws) is held equal to it, and
a bot's view of the table (``TableViews``, which writes as it follows) to the whole game written at once.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import tiles as T
from engine.game.selfplay import Game
from engine.protocol.mjai import (
    HIDDEN,
    HONOURS,
    REASON_KIND,
    REASON_OUT,
    _item_kinds,
    masked_stream,
    mpsz_to_mjai,
    round_to_mjai,
)
from engine.round.events import write
from engine.scoring import library


def _mpsz_list(text: str) -> list[str]:
    return [T.format_tiles([c]) for c in T.parse_tiles(text)]


def _to_mjai(event: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in event.items():
        if key in ("pai", "dora_marker") and isinstance(value, str) and value != HIDDEN:
            out[key] = mpsz_to_mjai(value)
        elif key in ("consumed", "uradora_markers", "ura_markers", "hora_tehais") and isinstance(value, list):
            out["uradora_markers" if key == "ura_markers" else key] = [mpsz_to_mjai(v) for v in value]
        elif key == "tehais" and isinstance(value, list):
            out[key] = [[mpsz_to_mjai(t) if t != HIDDEN else t for t in hand] for hand in value]
        elif key == "bakaze" and isinstance(value, str) and value not in HONOURS:
            out[key] = mpsz_to_mjai(value)
        else:
            out[key] = value
    return out


def two_steps(events: list[dict[str, Any]], riichi_deposit: int) -> list[dict[str, Any]]:
    """The reference: the round's mpsz dicts (``Round.events``) converted to mjai, as it was done before."""
    out = []
    sticks = 0
    for event in events:
        e = dict(event)
        if e["type"] == "start_kyoku":
            sticks = int(e["kyotaku"])
            e["tehais"] = [_mpsz_list(h) for h in e["tehais"]]
        elif e["type"] == "reach_accepted":
            sticks += 1
        elif e["type"] == "hora":
            deltas = list(e["deltas"])
            deltas[e["actor"]] += sticks * riichi_deposit
            e["deltas"] = deltas
            sticks = 0
            e["ura_markers"] = _mpsz_list(e["ura_markers"])
        elif e["type"] == "ryukyoku":
            reason = e["reason"]
            kind = _item_kinds().get(reason) or REASON_KIND.get(reason.lower().replace("_", ""))
            e["reason"] = REASON_OUT.get(kind or "", reason)
        out.append(_to_mjai(e))
    return out


def _text(events: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(e, separators=(",", ":")) for e in events)


@pytest.mark.parametrize("book", ["tenhou", "tenhou_sanma", "mleague", "wrc2025", "house", "mahjchina"])
def test_one_step_writes_what_two_steps_wrote(book: str) -> None:
    rb = library.rulebook(book)
    for seed in range(2):
        game = Game(rb, seed, "shanten" if seed else "random")
        game.play()
        rounds = game.round_logs()
        assert sum(map(len, rounds)) == len(game.log) - 1  # every record after the game's start is in a round
        records = [e for log in rounds for e in log]
        deposit = game.rules.riichi_deposit
        assert _text(round_to_mjai(records, deposit)) == _text(two_steps([write(e) for e in records], deposit))
        assert game.mjai_events()[1:-1] == round_to_mjai(records, deposit)


def test_a_bots_view_is_the_game_written_at_once() -> None:
    """``TableViews`` writes each record as it follows the round; a seat's stream equals the whole game written
    afterwards and masked for it (a win's deltas with the sticks its winner took included)."""
    game = Game(library.rulebook("tenhou"), 4, "shanten")
    views = game.watch()
    game.play()
    for seat in range(game.rules.players):
        assert views.history(seat) == masked_stream(game.mjai_events(), seat)
