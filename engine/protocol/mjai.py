"""mjai, the JSON-lines protocol of Mortal, akochan and mjai.app: its tile names, its events and our ``Action``s.

mjai names tiles ``1m``..``9s``, ``5mr``/``5pr``/``5sr`` for red fives and ``E S W N P F C`` for the honours
(``P`` white, ``F`` green, ``C`` red); ``?`` is a tile hidden from the reader. Producers differ in small ways
(contract.md, "Round and game"): ``normalize`` folds every known variant onto one spelling, so that the rest of
the code reads one vocabulary, and ``write_lines`` writes that vocabulary back. Nothing here knows a rule: which
draw a ``ryukyoku`` reason means is a log fact, whether the rulebook allows it is the round engine's question.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from importlib import resources
from typing import IO, Any, assert_never

from engine.core import tiles as T
from engine.core.errors import InvalidRequest
from engine.protocol.log_bounds import MAX_EVENT_VALUES, check_json, json_values
from engine.round.actions import Action, sorted_tiles
from engine.round.events import (
    Ankan,
    Dahai,
    Dora,
    EndKyoku,
    Hora,
    Kakan,
    Meld,
    Nukidora,
    Reach,
    ReachAccepted,
    RoundEvent,
    Ryukyoku,
    StartKyoku,
    Tsumo,
    dealt_order,
)
from ruledsl.caches import once

HONOURS = "ESWNPFC"
HIDDEN = "?"
EVENT_TYPES = frozenset(
    {
        "start_game", "start_kyoku", "tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "nukidora",
        "reach", "reach_accepted", "dora", "hora", "ryukyoku", "end_kyoku", "end_game", "none",
    }
)
ACTION_TYPES = frozenset({"dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "nukidora", "reach", "hora", "ryukyoku", "none"})

# Producers' spellings of a ryukyoku reason -> the log kind of ``engine.replay.events`` ("exhaustive" for a draw
# at the end of the wall). Compared without underscores, case and hyphens.
_REASONS = {
    "exhaustive": ("exhaustive_draw", "exhaustive", "fanpai", "howanpai", "ryukyoku", "normal", "yama_end", "nm"),
    "nagashi_mangan": ("nagashi_mangan", "nagashimangan", "nagashi"),
    "nine_terminals": ("kyushukyuhai", "kyuushukyuuhai", "kyushu", "nine_terminals", "yao9", "kyuusyukyuuhai"),
    "four_winds": ("sufonrenda", "sufuurenta", "suufonrenda", "suufuurenda", "sufurenda", "four_winds", "kaze4"),
    "four_riichi": ("suchareach", "suuchariichi", "suucha_riichi", "sucha_riichi", "suuchareach", "four_riichi", "reach4"),
    "four_kans": ("sukaikan", "suukaikan", "suukansansen", "sukansansen", "sukantsu", "suukantsu_draw", "four_kans", "kan4"),
    "triple_ron": ("sanchaho", "sanchahou", "sanchaho_draw", "triple_ron", "ron3"),
}
REASON_KIND = {spelling.replace("_", ""): kind for kind, spellings in _REASONS.items() for spelling in spellings}
# the spelling ``write_lines`` uses for each kind (Mortal's)
REASON_OUT = {
    "exhaustive": "exhaustive_draw", "nagashi_mangan": "nagashi_mangan", "nine_terminals": "kyushukyuhai",
    "four_winds": "sufonrenda", "four_riichi": "suchareach", "four_kans": "sukaikan", "triple_ron": "sanchaho",
}
_TYPE_ALIASES = {"kita": "nukidora", "nukidora": "nukidora", "reach": "reach", "riichi": "reach"}
_FIELD_ALIASES = {"ura_markers": "uradora_markers", "uradora": "uradora_markers"}


class MjaiError(InvalidRequest):
    """An mjai line that is not an event we can read: says which line and why."""


def tile_from_mjai(name: object) -> int:
    """An mjai tile name to an ``engine.core.tiles`` code (``5mr`` -> the red five of man)."""
    if not isinstance(name, str):
        raise MjaiError(f"a tile must be an mjai tile name like `5m`, got {name!r}")
    if len(name) == 1 and name in HONOURS:
        return 27 + HONOURS.index(name)
    if len(name) in (2, 3) and name[0] in "123456789" and name[1] in "mps":
        kind = "mps".index(name[1]) * 9 + int(name[0]) - 1
        if len(name) == 2:
            return kind
        if name[2] == "r" and name[0] == "5":
            return T.RED_BASE + "mps".index(name[1])
    raise MjaiError(f"`{name}` is not an mjai tile name (`1m`..`9s`, `5mr` for a red five, `E S W N P F C`)")


def tile_to_mjai(code: int) -> str:
    """An ``engine.core.tiles`` code to its mjai name."""
    if code >= T.RED_BASE:
        return f"5{'mps'[code - T.RED_BASE]}r"
    if code >= 27:
        return HONOURS[code - 27]
    return f"{code % 9 + 1}{'mps'[code // 9]}"


def mpsz_to_mjai(text: str) -> str:
    """One tile in mpsz (``0m``, ``5z``) to its mjai name."""
    return tile_to_mjai(T.parse_tile(text))


def round_wind_index(start_kyoku: dict[str, Any]) -> int:
    """0..3 for East..North: the round wind of a ``start_kyoku`` event (mjai's ``bakaze``)."""
    wind = start_kyoku.get("bakaze")
    if not isinstance(wind, str) or wind not in "ESWN" or len(wind) != 1:
        raise MjaiError(f"start_kyoku: `bakaze` must be one of E S W N, got {wind!r}")
    return "ESWN".index(wind)


def reason_kind(reason: object) -> str:
    """The log kind of a ``ryukyoku`` reason in any producer's spelling; a missing reason is an exhaustive draw."""
    if reason is None:
        return "exhaustive"
    if not isinstance(reason, str):
        raise MjaiError(f"a ryukyoku reason must be a string, got {reason!r}")
    kind = REASON_KIND.get(reason.lower().replace("_", "").replace("-", ""))
    if kind is None:
        raise MjaiError(f"unknown ryukyoku reason `{reason}`")
    return kind


def normalize(event: object) -> dict[str, Any]:
    """One event in the single vocabulary the engine reads: ``kita`` -> ``nukidora``, ``ura_markers`` ->
    ``uradora_markers``, a ryukyoku ``reason`` -> its log kind in ``kind`` (the original reason is kept)."""
    if not isinstance(event, dict):
        raise MjaiError(f"an mjai event must be a JSON object, got {type(event).__name__}")
    kind = event.get("type")
    if not isinstance(kind, str):
        raise MjaiError("an mjai event needs a string `type`")
    out: dict[str, Any] = {_FIELD_ALIASES.get(str(k), str(k)): v for k, v in event.items()}
    out["type"] = _TYPE_ALIASES.get(kind, kind)
    if out["type"] not in EVENT_TYPES:
        raise MjaiError(f"unknown mjai event type `{kind}`")
    if out["type"] == "ryukyoku":
        out["kind"] = reason_kind(event.get("reason"))
    return out


def is_mjai_line(line: str) -> bool:
    """Whether a first line looks like an mjai event (how ``riichi replay`` tells an mjai ``.json`` from tenhou.net/6)."""
    if json_values(line) > MAX_EVENT_VALUES:  # not one event; and never build a bomb's objects to find out
        return False
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("type"), str) and (
        data["type"] in EVENT_TYPES or data["type"] in _TYPE_ALIASES
    )


def read_lines(lines: Iterable[str], *, source: str = "<mjai>") -> Iterator[dict[str, Any]]:
    """Parse JSON lines into normalized events; blank lines are skipped; a bad line names its number."""
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        check_json(text, f"{source}:{number}", values=MAX_EVENT_VALUES)  # before any object is made
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise MjaiError(f"{source}:{number}: not a JSON object ({exc.__class__.__name__})") from None
        try:
            yield normalize(data)
        except MjaiError as exc:
            raise MjaiError(f"{source}:{number}: {exc.message}") from None


def action_from_event(event: dict[str, Any]) -> Action:
    """The ``Action`` an mjai action event stands for (``hora`` from itself is a tsumo: ``target == actor``)."""
    kind = event["type"]
    if kind not in ACTION_TYPES:
        raise MjaiError(f"`{kind}` is an event, not an action")
    actor = _seat(event.get("actor"))
    pai = tile_from_mjai(event["pai"]) if event.get("pai") not in (None, HIDDEN) else None
    consumed = sorted_tiles(tile_from_mjai(t) for t in event.get("consumed", ()))
    target = event.get("target")
    if kind in ("chi", "pon", "daiminkan", "hora"):
        target = _seat(target if target is not None else actor)
    else:
        target = None
    if kind == "ankan" and pai is None and consumed:
        pai = consumed[-1]
    tsumogiri = bool(event.get("tsumogiri", False)) if kind == "dahai" else False
    return Action(kind, actor, pai, consumed, target, tsumogiri, open=kind == "reach" and event.get("open") is True)


def event_from_action(action: Action) -> dict[str, Any]:
    """An ``Action`` as the mjai event a client sends (tiles as mjai names)."""
    out: dict[str, Any] = {"type": action.type, "actor": action.actor}
    if action.type == "ankan":
        out["consumed"] = [tile_to_mjai(c) for c in action.consumed]
        return out
    if action.pai is not None and action.type not in ("reach", "none", "ryukyoku"):
        out["pai"] = tile_to_mjai(action.pai)
    if action.consumed:
        out["consumed"] = [tile_to_mjai(c) for c in action.consumed]
    if action.target is not None:
        out["target"] = action.target
    if action.type == "dahai":
        out["tsumogiri"] = action.tsumogiri
    if action.open:
        out["open"] = True  # an open riichi: mjai has none, so `reach` carries this extra field
    if action.type == "ryukyoku":
        out["reason"] = REASON_OUT["nine_terminals"]
    return out


@once
def _item_kinds() -> dict[str, str]:
    """Rulebook abortive-draw item ids -> log kinds (the reverse of ``rulebooks/log_rules.json``'s ``abortive``)."""
    data = json.loads(resources.files("rulebooks").joinpath("log_rules.json").read_text(encoding="utf-8"))
    return {item: kind for kind, item in data["abortive"].items() if kind != "about"}


def _reason(reason: str) -> str:
    """A round's draw reason (``exhaustive``, an abortive item's id, ``triple_ron``) in Mortal's spelling."""
    kind = _item_kinds().get(reason) or REASON_KIND.get(reason.lower().replace("_", ""))
    return REASON_OUT.get(kind or "", reason)


MJAI_NAME = tuple(tile_to_mjai(code) for code in range(len(T.KIND_OF)))  # mjai's name of each tile code


class MjaiWriter:
    """Writes a round's records (``Round.log``) as the mjai events every producer writes, one record at a time,
    as the round makes them: the one step from the engine's typed events to mjai.

    mjai's ``hora`` deltas include the riichi sticks the first winner collects (the round's own exclude them), so
    the writer counts the sticks on the table from the deal on; ``riichi_deposit`` is the value of one stick."""

    def __init__(self, riichi_deposit: int) -> None:
        self.deposit = riichi_deposit
        self.sticks = 0

    def write(self, event: RoundEvent) -> dict[str, Any]:
        name = MJAI_NAME
        match event:
            case Tsumo():
                return {"type": "tsumo", "actor": event.actor, "pai": name[event.pai]}
            case Dahai():
                return {"type": "dahai", "actor": event.actor, "pai": name[event.pai], "tsumogiri": event.tsumogiri}
            case Meld():
                consumed = [name[c] for c in event.consumed]
                return {"type": event.type, "actor": event.actor, "target": event.target, "pai": name[event.pai], "consumed": consumed}
            case Ankan():
                return {"type": "ankan", "actor": event.actor, "consumed": [name[c] for c in event.consumed]}
            case Kakan():
                return {"type": "kakan", "actor": event.actor, "pai": name[event.pai], "consumed": [name[c] for c in event.consumed]}
            case Nukidora():
                return {"type": "nukidora", "actor": event.actor, "pai": name[event.pai]}
            case Reach():
                return event.json()  # no tile in it: the round's dict is mjai's
            case ReachAccepted():
                self.sticks += 1
                return event.json()
            case Dora():
                return {"type": "dora", "dora_marker": name[event.marker]}
            case StartKyoku():
                return self._start(event)
            case Hora():
                return self._hora(event)
            case Ryukyoku():
                out: dict[str, Any] = {"type": "ryukyoku", "reason": _reason(event.reason)}
                if event.tenpais is not None:
                    out["tenpais"] = list(event.tenpais)
                out["deltas"] = list(event.deltas)
                return out
            case EndKyoku():
                return {"type": "end_kyoku"}
            case _:
                assert_never(event)

    def _start(self, event: StartKyoku) -> dict[str, Any]:
        self.sticks = event.kyotaku
        name = MJAI_NAME
        return {
            "type": "start_kyoku", "bakaze": event.bakaze if event.bakaze in HONOURS else mpsz_to_mjai(event.bakaze),
            "kyoku": event.kyoku, "honba": event.honba, "kyotaku": event.kyotaku, "oya": event.oya,
            "dora_marker": name[event.dora_marker], "scores": list(event.scores),
            "tehais": [[name[c] for c in dealt_order(hand)] for hand in event.hands],
        }

    def _hora(self, event: Hora) -> dict[str, Any]:
        deltas = list(event.deltas)
        deltas[event.actor] += self.sticks * self.deposit  # the first winner takes the sticks; a second, none
        self.sticks = 0
        return {
            "type": "hora", "actor": event.actor, "target": event.target, "pai": MJAI_NAME[event.pai], "deltas": deltas,
            "uradora_markers": [MJAI_NAME[c] for c in T.parse_tiles(event.ura_markers)] if event.ura_markers else [],
        }


def round_to_mjai(log: Iterable[RoundEvent], riichi_deposit: int) -> list[dict[str, Any]]:
    """A round's records (``Round.log``; several rounds' one after the other) as mjai events a reader of any
    producer takes (``MjaiWriter``)."""
    write = MjaiWriter(riichi_deposit).write
    return [write(event) for event in log]


def masked_for(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """An mjai event as ``seat`` sees it at the table, as mjai servers send it: another seat's draw is ``?`` and
    a ``start_kyoku`` shows only ``seat``'s own hand (each other hand as thirteen ``?``). Everything else a
    seat sees in the open (discards, calls, an ankan's tiles, indicators, wins) is kept. The event itself is
    returned when nothing in it is hidden from ``seat``, a changed copy otherwise."""
    kind = event.get("type")
    if kind == "tsumo" and event.get("actor") != seat and event.get("pai") != HIDDEN:
        return {**event, "pai": HIDDEN}
    if kind == "start_kyoku" and isinstance(event.get("tehais"), list):
        hands = [hand if i == seat else [HIDDEN] * len(hand) for i, hand in enumerate(event["tehais"])]
        return {**event, "tehais": hands}
    return event


def masked_stream(events: Iterable[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """A whole mjai stream (``Game.mjai_events``) as ``seat``'s client receives it (``masked_for`` each event):
    what a bot playing that seat may read, and what ``riichi play --mjai-seat`` writes."""
    return [masked_for(event, seat) for event in events]


def write_lines(events: Iterable[dict[str, Any]], stream: IO[str]) -> int:
    """Write events as mjai JSON lines (compact, one per line); returns how many were written."""
    count = 0
    for event in events:
        stream.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
    return count


def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 4:
        raise MjaiError(f"a seat must be 0..3, got {value!r}")
    return value
