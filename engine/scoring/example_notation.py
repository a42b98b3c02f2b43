"""The example mini-notation of rulebook ``example`` lines, turned into contract score requests.

``"234p678p34s88m2s ankan 1111m win 2s tsumo seat S riichi dora 4s"``: the concealed tiles first (the winning
tile included), then melds as ``TYPE TILES``, ``win T``, ``ron``/``tsumo``, ``seat``/``round`` winds, flags such
as ``riichi``, and counters ``dora``, ``ura``, ``kita``, ``honba``, ``sticks``. The words themselves belong to the
rule language (``ruledsl.example_words``: rulebooks are written in them); they are re-exported here.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import InvalidRequest
from ruledsl.example_words import COUNT_WORDS, FLAG_WORDS, MELD_WORDS, VALUE_WORDS

__all__ = ["COUNT_WORDS", "FLAG_WORDS", "MELD_WORDS", "VALUE_WORDS", "request_from_example"]


def request_from_example(text: str) -> dict[str, Any]:
    words = text.split()
    if not words:
        raise InvalidRequest("an example needs at least the hand's tiles")
    request: dict[str, Any] = {"hand": words[0], "melds": []}
    i = 1
    while i < len(words):
        word = words[i]
        if word in MELD_WORDS or word in VALUE_WORDS or word in COUNT_WORDS:
            if i + 1 >= len(words):
                raise InvalidRequest(f"`{word}` needs a value after it")
            value = words[i + 1]
            if word in MELD_WORDS:
                request["melds"].append({"type": word, "tiles": value})
            elif word in VALUE_WORDS:
                request[VALUE_WORDS[word]] = value
            else:
                if not value.isdigit():
                    raise InvalidRequest(f"`{word}` needs a number, got `{value}`")
                request[COUNT_WORDS[word]] = int(value)
            i += 2
            continue
        if word in ("ron", "tsumo"):
            request["tsumo"] = word == "tsumo"
        elif word == "dealer":
            request["seat_wind"] = "E"
        elif word in FLAG_WORDS:
            request[word] = True
        else:
            raise InvalidRequest(f"unknown word `{word}` in example")
        i += 1
    if "win" not in request:
        raise InvalidRequest("an example needs `win TILE`")
    return request
