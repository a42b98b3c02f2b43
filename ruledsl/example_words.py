"""The words of the example mini-notation that rulebook ``example`` lines are written in.

They belong to the rule language (rulebooks are written in them and its language reference lists them), so they
live here, below the engine: ``engine.example_notation`` reads example text with them and ``ruledsl.docgen`` documents
them, and the rule language never imports the engine. ``FLAG_WORDS`` are the engine's situation flags other than
``tsumo`` (``engine.situation.FLAG_FIELDS``); a test holds the two equal, as this layer cannot import that one.
"""

from __future__ import annotations

MELD_WORDS = ("chi", "pon", "daiminkan", "kakan", "ankan")
FLAG_WORDS = (
    "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou",
    "open_riichi", "discarder_in_riichi",
)
VALUE_WORDS = {"win": "win", "seat": "seat_wind", "round": "round_wind", "dora": "dora_indicators", "ura": "ura_indicators"}
COUNT_WORDS = {"kita": "kita", "honba": "honba", "sticks": "riichi_sticks", "dealer_wins": "dealer_consecutive_wins"}
