"""The words of the example mini-notation that rulebook ``example`` lines are written in.

They belong to the rule language (rulebooks are written in them and its language reference lists them), so they
live here, below the engine: ``engine.scoring.example_notation`` reads example text with them and ``ruledsl.docgen`` documents
them, and the rule language never imports the engine. ``FLAG_WORDS`` are the engine's situation flags other than
``tsumo`` (``engine.core.situation.EXTRA_FLAGS``), read from ``ruledsl/situation_words.py``, which is generated from
``engine/core/situation.py``.
"""

from __future__ import annotations

from ruledsl import situation_words

MELD_WORDS = ("chi", "pon", "daiminkan", "kakan", "ankan")
# the situation's flags but ``tsumo`` (the way of winning, written ``ron`` or ``tsumo``), from its generated list
FLAG_WORDS = tuple(name for name, kind, *_words in situation_words.FIELDS if kind == "bool" and name != "tsumo")
VALUE_WORDS = {"win": "win", "seat": "seat_wind", "round": "round_wind", "dora": "dora_indicators", "ura": "ura_indicators"}
COUNT_WORDS = {"kita": "kita", "honba": "honba", "sticks": "riichi_sticks", "dealer_wins": "dealer_consecutive_wins"}
