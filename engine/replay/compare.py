"""Score a logged win with our engine and say where it differs from what the site recorded.

The log's value excludes honba and riichi sticks, so the request is scored again without them for the value,
and with them for the winner's point change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.core.errors import EngineError
from engine.replay.events import GameStart
from engine.replay.tenhou_yaku import tenhou_table
from engine.replay.win_situations import WinCase
from engine.scoring.score import Scorer
from ruledsl.caches import once


@once
def _log_rules() -> dict[str, Any]:
    text = resources.files("rulebooks").joinpath("log_rules.json").read_text(encoding="utf-8")
    return json.loads(text)


# A Tenhou log id starts with the game's date and hour: 2010081709gm-00a9-0000-fe3371ad; a file name may carry it
# after a prefix of its own (sample-2022060107gm-...)
_LOG_ID_DATE = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})\d{2}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")


def log_date(log_id: str | None) -> str | None:
    """The date (YYYY-MM-DD) a Tenhou log id carries; None for a name that is no log id."""
    found = _LOG_ID_DATE.search(log_id or "")
    return "-".join(found.groups()) if found else None


def _date_matches(condition: dict[str, Any], date: str | None, undated: str | None) -> bool:
    """The generic date conditions of an entry (``log_date_before``, ``log_date_from``, ISO dates from the data);
    ``undated`` stands for the date of a log whose name carries none."""
    when = date or undated
    before, since = condition.get("log_date_before"), condition.get("log_date_from")
    if before is None and since is None:
        return True
    if when is None:
        return False
    return (before is None or when < before) and (since is None or when >= since)


DATE_KEYS = ("log_date_before", "log_date_from")


def rulebook_for(rules: GameStart, log_format: str = "tenhou", log_id: str | None = None) -> str:
    """The bundled rulebook that replays a log with these rule flags, and of this log id's date
    (data: ``rulebooks/log_rules.json``)."""
    flags = {"players": rules.players, "red_fives": rules.red_fives, "kuitan": rules.kuitan, "hanchan": rules.hanchan}
    data = _log_rules()
    # a Tenhou log renamed (no date in its name) is taken to be of `undated_logs_date`; a log of no site (None) is not
    date, undated = log_date(log_id), (data.get("undated_logs_date") if log_id is not None else None)
    for entry in data[log_format]:
        when = entry["when"]
        if all(flags.get(k) == v for k, v in when.items() if k not in DATE_KEYS) and _date_matches(when, date, undated):
            return entry["rulebook"]
    return next(e["rulebook"] for e in data[log_format] if not set(e["when"]) & set(DATE_KEYS))


def yaku_view(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A score response's yaku lines as a log records them: id with han, or yakuman 1; lines the log counts under
    another (``folded`` in ``rulebooks/tenhou_yaku.json``: a North set aside is dora there) added into that line."""
    folded = tenhou_table().get("folded", {}).get("lines", {})
    merged: dict[str, dict[str, Any]] = {}
    for line in result["yaku"]:
        if "yakuman" in line:
            merged.setdefault(line["id"], {"id": line["id"], "yakuman": 1})
            continue
        key = folded.get(line["id"], line["id"])
        entry = merged.setdefault(key, {"id": key, "han": 0})
        entry["han"] += line["han"]
    return sorted(merged.values(), key=lambda item: item["id"])


def compare_win(case: WinCase, scorer: Scorer) -> dict[str, Any] | None:
    """None when our score matches the log on han, fu, value, yaku and the winner's gain; else what differs."""
    expected = case.expected
    plain = dict(case.request, honba=0, riichi_sticks=0)
    try:
        value = scorer.score(plain)
        full = scorer.score(case.request)
    except EngineError as exc:
        return {"expected": expected, "got": {"error": exc.to_json()}}
    got = {
        "han": value["han"],
        "fu": value["fu"],
        "points": value["total"],
        "yaku": yaku_view(value),
        "yakuman": value["yakuman"],
    }
    want = {
        "han": expected["han"],
        "fu": expected["fu"],
        "points": expected["points"],
        "yaku": expected["yaku"],
        "yakuman": expected["yakuman"],
    }
    if want["yakuman"]:
        # a yakuman hand: the log gives no han; its fu are informative only
        got = {k: v for k, v in got.items() if k not in ("han", "fu")}
        want = {k: v for k, v in want.items() if k not in ("han", "fu")}
        got["yakuman"] = sum(1 for y in got["yaku"] if "yakuman" in y)
    if want.get("fu", 0) is None:  # tenhou.net/6 writes no fu for limit hands
        got.pop("fu")
        want.pop("fu")
    gain = expected.get("deltas", [0] * 4)[case.win.who] if expected.get("deltas") else None
    if gain is not None and case.win.pao_who is None:
        got["gain"] = full["total"]
        want["gain"] = gain
    if got != want:
        return {"expected": want, "got": got}
    return None
