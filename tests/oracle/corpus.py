"""The compact text form of the riichienv corpus, and reading it back as mjai events and legal-action sets.

A stored game is one JSON line: ``{"seed", "mode", "players", "events": [...], "legal": [[index, seat, "tok tok"], ...]}``.
Frequent events are short tokens (``"0t5mr"`` = seat 0 draws a red 5m, ``"2c6s/7s8s>1"`` = seat 2 chis 6s from
seat 1 with 7s8s); rare ones (start_kyoku, hora, ryukyoku, ...) stay mjai dicts. ``legal`` lists, for each
decision riichienv offered, the event index the decision follows (the number of events already played), the
seat, and the set of actions as tokens without the actor (``d5m``, ``r``, ``h``, ``p5m/5m5mr``, ``-`` for pass).
The codec lives with the tests, not in ``engine/``: it is a storage format of this corpus, not a protocol.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "riichienv"

_CODE = {
    "tsumo": "t", "dahai": "d", "chi": "c", "pon": "p", "daiminkan": "m", "kakan": "k", "ankan": "a",
    "nukidora": "n", "kita": "n", "reach": "r", "reach_accepted": "R", "dora": "D", "hora": "h", "ryukyoku": "y",
    "none": "-",
}
_TYPE = {"t": "tsumo", "d": "dahai", "c": "chi", "p": "pon", "m": "daiminkan", "k": "kakan", "a": "ankan",
         "n": "nukidora", "r": "reach", "R": "reach_accepted", "h": "hora", "y": "ryukyoku", "-": "none"}
_TILE = re.compile(r"[1-9][mps]r?|[ESWNPFC]|\?")
_EVENT = re.compile(r"^(?P<actor>\d)(?P<code>[tdcpmkanrR])(?P<pai>[^/>*]*)(?:/(?P<cons>[^>*]*))?(?:>(?P<target>\d))?(?P<tg>\*)?$")


def tiles_of(text: str) -> list[str]:
    return _TILE.findall(text)


def encode_event(event: dict[str, Any]) -> str | dict[str, Any]:
    """A token for a frequent event whose fields the token keeps exactly; anything else stays a dict."""
    kind = event["type"]
    keys = set(event) - {"type"}
    if kind == "dora" and keys == {"dora_marker"}:
        return "D" + event["dora_marker"]
    allowed = {
        "tsumo": {"actor", "pai"}, "dahai": {"actor", "pai", "tsumogiri"}, "reach": {"actor"},
        "chi": {"actor", "pai", "consumed", "target"}, "pon": {"actor", "pai", "consumed", "target"},
        "daiminkan": {"actor", "pai", "consumed", "target"}, "kakan": {"actor", "pai", "consumed"},
        "ankan": {"actor", "consumed"},
    }
    if kind not in allowed or keys != allowed[kind]:
        return event
    token = f"{event['actor']}{_CODE[kind]}{event.get('pai', '')}"
    if "consumed" in event:
        token += "/" + "".join(event["consumed"])
    if "target" in event:
        token += f">{event['target']}"
    if event.get("tsumogiri"):
        token += "*"
    return token


def decode_event(item: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    if item.startswith("D"):
        return {"type": "dora", "dora_marker": item[1:]}
    match = _EVENT.match(item)
    if match is None:
        raise ValueError(f"bad corpus token {item!r}")
    kind = _TYPE[match["code"]]
    event: dict[str, Any] = {"type": kind, "actor": int(match["actor"])}
    if match["pai"]:
        event["pai"] = match["pai"]
    if match["cons"] is not None:
        event["consumed"] = tiles_of(match["cons"])
    if match["target"] is not None:
        event["target"] = int(match["target"])
    if kind == "dahai":
        event["tsumogiri"] = bool(match["tg"])
    return event


def action_token(action: dict[str, Any]) -> str:
    """An offered (or taken) action without its actor: the unit both legal sets are compared in."""
    kind = action["type"]
    token = _CODE[kind]
    if kind in ("hora", "none", "reach", "ryukyoku"):
        return token
    token += action.get("pai", "")
    if action.get("consumed"):
        token += "/" + "".join(sorted(action["consumed"]))
    return token


def write_games(path: Path, games: list[dict[str, Any]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as out:
        for game in games:
            out.write(json.dumps(game, separators=(",", ":")) + "\n")


def read_games(path: Path, limit: int | None = None) -> Iterator[dict[str, Any]]:
    """Games of one corpus file with events decoded to mjai dicts."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for count, line in enumerate(lines):
            if limit is not None and count >= limit:
                return
            game = json.loads(line)
            game["events"] = [decode_event(e) for e in game["events"]]
            yield game


def hands_at(events: list[dict[str, Any]], indexes: set[int]) -> dict[int, list[list[str]]]:
    """Each seat's concealed tiles (mjai names) after ``events[:i]`` for every ``i`` in ``indexes``."""
    hands: list[list[str]] = []
    out: dict[int, list[list[str]]] = {}
    for i, event in enumerate([*events, {"type": "end"}]):
        if i in indexes:
            out[i] = [list(h) for h in hands]
        kind = event["type"]
        if kind == "start_kyoku":
            hands = [list(t) for t in event["tehais"]]
        elif kind == "tsumo":
            hands[event["actor"]].append(event["pai"])
        elif kind in ("dahai", "kakan", "nukidora", "kita"):
            hands[event["actor"]].remove(event["pai"])
        elif kind in ("chi", "pon", "daiminkan", "ankan"):
            for tile in event["consumed"]:
                hands[event["actor"]].remove(tile)
    return out


def _after_draw(events: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(index, seat) of every decision that follows a draw: the drawer's own turn."""
    return [(i + 1, e["actor"]) for i, e in enumerate(events) if e["type"] == "tsumo"]


def compress_legal(events: list[dict[str, Any]], legal: list[list[Any]]) -> list[list[Any]]:
    """Store less: a discard set that is "any tile of the hand" becomes ``d*``, and a decision after a draw whose
    whole set is ``d*`` (the common case) is left out; indexes are stored as the step from the previous entry."""
    hands = hands_at(events, {index for index, _, _ in legal})
    implied = set(_after_draw(events))
    out = []
    last = 0
    for index, seat, text in legal:
        tokens = text.split()
        discards = {t for t in tokens if t.startswith("d")}
        if discards and discards == {"d" + t for t in hands[index][seat]}:
            tokens = sorted([t for t in tokens if t not in discards] + ["d*"])
        if tokens == ["d*"] and (index, seat) in implied:
            continue
        out.append([index - last, seat, " ".join(tokens)])
        last = index
    return out


def expand_legal(events: list[dict[str, Any]], legal: list[list[Any]]) -> list[tuple[int, int, frozenset[str]]]:
    """The inverse of ``compress_legal``: every decision's full token set, in order."""
    explicit: dict[tuple[int, int], str] = {}
    index = 0
    for step, seat, text in legal:
        index += step
        explicit[(index, seat)] = text
    entries = dict(explicit)
    for key in _after_draw(events):
        entries.setdefault(key, "d*")
    hands = hands_at(events, {index for index, _ in entries})
    out = []
    for (index, seat), text in sorted(entries.items()):
        tokens = set(text.split())
        if "d*" in tokens:
            tokens.discard("d*")
            tokens |= {"d" + t for t in hands[index][seat]}
        out.append((index, seat, frozenset(tokens)))
    return out
