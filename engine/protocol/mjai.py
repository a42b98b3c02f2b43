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
from typing import IO, Any

from engine.core import tiles as T
from engine.core.errors import InvalidRequest
from engine.protocol.log_bounds import MAX_EVENT_VALUES, check_json, json_values
from engine.round.actions import Action, sorted_tiles
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
    """One tile in mpsz (``0m``, ``5z``) to its mjai name; round events write tiles in mpsz."""
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


def to_mjai(event: dict[str, Any]) -> dict[str, Any]:
    """A round event (tiles in mpsz, engine field names) as an mjai event (tiles as mjai names)."""
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
        elif key == "kind" and event.get("type") == "ryukyoku":
            out.setdefault("reason", REASON_OUT.get(value, value))
        else:
            out[key] = value
    return out


@once
def _item_kinds() -> dict[str, str]:
    """Rulebook abortive-draw item ids -> log kinds (the reverse of ``rulebooks/log_rules.json``'s ``abortive``)."""
    data = json.loads(resources.files("rulebooks").joinpath("log_rules.json").read_text(encoding="utf-8"))
    return {item: kind for kind, item in data["abortive"].items() if kind != "about"}


def round_events_to_mjai(events: Iterable[dict[str, Any]], riichi_deposit: int) -> list[dict[str, Any]]:
    """A round's events (``Round.events``: tiles in mpsz, hands as mpsz strings, abortive draws by rulebook item)
    as mjai events a reader of any producer takes. mjai's ``hora`` deltas include the riichi sticks the first
    winner collects (the round's own exclude them), hence ``riichi_deposit``, the value of one stick."""
    out = []
    sticks = 0
    for event in events:
        e = dict(event)
        if e.get("type") == "start_kyoku":
            sticks = int(e.get("kyotaku", 0))
        elif e.get("type") == "reach_accepted":
            sticks += 1
        elif e.get("type") == "hora" and isinstance(e.get("deltas"), list):
            deltas = list(e["deltas"])
            deltas[e["actor"]] += sticks * riichi_deposit
            e["deltas"] = deltas
            sticks = 0
        if e.get("type") == "start_kyoku" and isinstance(e.get("tehais"), list):
            e["tehais"] = [_mpsz_list(h) if isinstance(h, str) else h for h in e["tehais"]]
        for key in ("ura_markers", "uradora_markers"):
            if isinstance(e.get(key), str):
                e[key] = _mpsz_list(e[key])
        if e.get("type") == "ryukyoku" and isinstance(e.get("reason"), str):
            reason = e["reason"]
            kind = _item_kinds().get(reason) or REASON_KIND.get(reason.lower().replace("_", ""))
            e["reason"] = REASON_OUT.get(kind or "", reason)
        out.append(to_mjai(e))
    return out


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


def _mpsz_list(text: str) -> list[str]:
    """``"123m5z"`` -> ``["1m", "2m", "3m", "5z"]`` (one mpsz tile each, in the order written)."""
    return [T.format_tiles([c]) for c in T.parse_tiles(text)]


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
