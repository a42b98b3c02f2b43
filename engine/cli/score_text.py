"""The text breakdown of ``riichi score``: what a player checks by hand, in the words players use at the table.

The header says the situation the score depends on (sorted tiles, calls, seat and dealer, round wind, flags,
indicators, counters), since a player who left out ``--seat`` must see that the hand was scored as the dealer's.
Every line that adds han, fu or a limit names its clause, an inherited one marked "from NAME:"
(``ruledsl.clause_origin``); payments read as they are called ("500 all",
"1000/2000"). Nothing here knows a tier's name: a hand with a yakuman multiple is told by its response.
"""

from __future__ import annotations

from engine.core import tiles as T
from engine.core.situation import COUNTER_LABELS, EXTRA_FLAGS
from ruledsl.clause_origin import from_response
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
FLAGS = EXTRA_FLAGS  # the situation's flags but tsumo, in its order (a double riichi is said instead of riichi)


def render(result: dict[str, Any], request: dict[str, Any], players: int = 4, seat_given: bool = True) -> str:
    """The whole breakdown: header, situation, one line per yaku, fu, limit or formula, payments, total."""
    lines = [header(request, result["rulebook"]), "  " + situation(request, seat_given)]
    lines += _yaku_lines(result)
    lines += _value_lines(result)
    if result.get("liable"):
        lines.append(f"  payment: {liable_words(result, request)}")
        clause = from_response(result["liability_clause"], result.get("liability_clause_from"), result["rulebook"])
        lines.append(f"  [liability: {clause}]")
    else:
        lines.append(f"  payment: {payment_words(result['payments'])}")
    lines.append(f"  total: {_total_words(result, request, players)}")
    return "\n".join(lines)


def liable_words(result: dict[str, Any], request: dict[str, Any]) -> str:
    """Pao: each payer by seat, the liable one and the discarder said so (``South 16,000 (liable), North ...``)."""
    words = []
    for wind, amount in result["payments"].items():
        roles = [r for r, who in (("liable", result["liable"]), ("the discarder", request.get("from"))) if who == wind]
        words.append(f"{WIND_NAMES[wind]} {amount:,}" + (f" ({', '.join(roles)})" if roles else ""))
    return ", ".join(words)


def sorted_tiles(text: str) -> str:
    """Tiles in the contract's output notation: sorted m, p, s, z, red fives as 0."""
    return T.format_tiles(T.parse_tiles(text))


def header(request: dict[str, Any], rulebook: str) -> str:
    """``234m567m78899p456s + pon 555z, win 5s (ron) under myclub``: the hand as scored, calls included."""
    melds = "".join(f" + {m['type']} {sorted_tiles(m['tiles'])}" for m in request.get("melds", []))
    how = "tsumo" if request.get("tsumo") else "ron"
    return f"{sorted_tiles(request['hand'])}{melds}, win {sorted_tiles(request['win'])} ({how}) under {rulebook}"


def situation(request: dict[str, Any], seat_given: bool = True) -> str:
    """Seat, dealer or not, round wind, flags, indicators and counters, in that order."""
    seat = request.get("seat_wind", "E")
    role = "dealer" if seat == "E" else "non-dealer"
    if not seat_given:
        role += "; --seat not given"
    words = [f"seat {WIND_NAMES[seat]} ({role})", f"round {WIND_NAMES[request.get('round_wind', 'E')]}"]
    if request.get("from"):
        words.append(f"ron from {WIND_NAMES[request['from']]}")
    if request.get("liable"):
        words.append(f"{WIND_NAMES[request['liable']]} liable (pao)")
    flags = [f.replace("_", " ") for f in FLAGS if request.get(f)]
    if request.get("double_riichi") and "riichi" in flags:
        flags.remove("riichi")
    words += flags
    for key, label in (("dora_indicators", "dora indicators"), ("ura_indicators", "ura indicators")):
        if request.get(key):
            words.append(f"{label} {T.format_tiles(T.parse_tiles(request[key]), sort=False)}")
    for key, label in COUNTER_LABELS.items():
        if request.get(key):
            words.append(f"{label} {request[key]}")
    return ", ".join(words)


def _yaku_lines(result: dict[str, Any]) -> list[str]:
    width = max((len(y["name"]) for y in result["yaku"]), default=10)
    out = []
    for y in result["yaku"]:
        value = _multiple(y["yakuman"]) if "yakuman" in y else f"{y['han']} han"
        clause = from_response(y.get("clause"), y.get("clause_from"), result["rulebook"])
        out.append(f"  {y['name']:<{width}}  {value:<12} [{clause or 'no clause'}]")
    return out


def _multiple(k: int) -> str:
    return "yakuman" if k == 1 else f"yakuman x{k}"


def has_yakuman_pattern(result: dict[str, Any]) -> bool:
    """A hand scored by yakuman patterns (not han counted to a limit): its han and fu mean nothing."""
    return any("yakuman" in y for y in result["yaku"])


def _value_lines(result: dict[str, Any]) -> list[str]:
    """Fu (for a hand counted in han), then the limit reached with its item and clause, or the base formula."""
    base = result["base_points"]
    if has_yakuman_pattern(result):
        reached = f"{result['limit']} x{result['yakuman']}" if result["yakuman"] > 1 else str(result["limit"])
        return [f"  {reached}: base {base:,}{_limit_source(result)}"]
    out = []
    items = " + ".join(f"{f['id']} {f['fu']}" for f in result["fu_items"])
    raw = sum(f["fu"] for f in result["fu_items"])
    rounded = f" = {raw}, rounded up to {result['fu']} fu" if raw != result["fu"] else f" = {result['fu']} fu"
    out.append(f"  fu: {items}{rounded}")
    if result["limit"]:
        out.append(f"  {result['han']} han {result['fu']} fu: {result['limit']}, base {base:,}{_limit_source(result)}")
    else:
        out.append(f"  base = {result['fu']} x 2^({result['han']} + 2) = {base:,}")
    return out


def _limit_source(result: dict[str, Any]) -> str:
    item = result.get("limit_id")
    if not item:
        return ""
    clause = from_response(result.get("limit_clause"), result.get("limit_clause_from"), result["rulebook"])
    return f"  [limit {item}: {clause}]" if clause else f"  [limit {item}]"


def payment_words(payments: dict[str, int]) -> str:
    """As players call them: ``ron 2600``, ``500 all`` (dealer tsumo), ``1000/2000`` (non-dealers/dealer)."""
    if set(payments) == {"ron"}:
        return f"ron {payments['ron']:,} from the discarder"
    if set(payments) == {"non_dealer"}:
        return f"tsumo {payments['non_dealer']:,} all"
    if set(payments) == {"dealer", "non_dealer"}:
        return f"tsumo {payments['non_dealer']:,}/{payments['dealer']:,} (each non-dealer/the dealer)"
    return ", ".join(f"{who} {amount:,}" for who, amount in payments.items())


def _total_words(result: dict[str, Any], request: dict[str, Any], players: int) -> str:
    paid = _paid(result["payments"], request.get("seat_wind", "E") == "E", players)
    sticks = result["total"] - paid
    if sticks <= 0:
        return f"{result['total']:,}"
    return f"{paid:,} + {sticks:,} from riichi sticks = {result['total']:,}"


def _paid(payments: dict[str, int], dealer: bool, players: int) -> int:
    """Points the payers hand over (sticks excluded), counting one payment per paying player."""
    total = 0
    for who, amount in payments.items():
        if who == "non_dealer":
            total += amount * (players - 1 if dealer else players - 2)
        else:
            total += amount
    return total
