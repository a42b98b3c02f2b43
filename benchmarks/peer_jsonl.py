"""The `mahjong` package behind a JSON-lines loop, as `riichi score --json` is: the peer's side of the process row
of ``benchmarks/score.py``.

Reads score requests (the contract's JSON, one per line) on stdin and writes one JSON line per request with what
our response carries too (han, fu, limit, yaku with han, fu items, payments, total) under the house options, or the
peer's error. The conversion from notation to the peer's arguments is
``tests.peer_oracle.peer_arguments``, the one the peer cross-check uses.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402

from tests.peer_oracle import peer_arguments  # noqa: E402


def answer(line: str) -> dict:
    try:
        request = json.loads(line)
        arguments = peer_arguments(request)
    except (ValueError, KeyError, TypeError) as exc:
        return {"ok": False, "error": str(exc)}
    result = HandCalculator.estimate_hand_value(**arguments)
    if result.error:
        return {"ok": False, "error": result.error}
    cost = result.cost
    opened = any(meld.opened for meld in arguments["melds"] or ())
    return {
        "ok": True,
        "han": result.han,
        "fu": result.fu,
        "limit": cost["yaku_level"] or None,
        "yaku": [{"id": y.name, "han": y.han_open if opened else y.han_closed} for y in result.yaku],
        "fu_items": [{"id": f["reason"], "fu": f["fu"]} for f in result.fu_details or ()],
        "payments": {"main": cost["main"], "additional": cost["additional"]},
        "total": cost["total"],
    }


def main() -> None:
    write = sys.stdout.write
    for line in sys.stdin:
        if line.strip():
            write(json.dumps(answer(line)) + "\n")


if __name__ == "__main__":
    main()
