"""Bad input never escapes as a traceback: whatever a request holds, the scorer answers with the contract's codes.

Requests are drawn near the valid ones (tile notation with stray characters, melds of every shape, flags of every
JSON type), so that they reach deep into validation and scoring rather than failing at the first key.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import EngineError
from engine.core.situation import Situation
from engine.scoring.library import scorer

CODES = {"invalid_notation", "invalid_hand", "invalid_request", "invalid_situation", "not_a_win", "no_yaku", "unknown_rulebook"}
FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou")

notation = st.text(alphabet="0123456789mpsz ,x", max_size=24)
json_value = st.one_of(st.none(), st.booleans(), st.integers(-3, 2000), st.floats(allow_nan=False), notation, st.lists(st.integers(0, 40), max_size=5))
meld = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["chi", "pon", "daiminkan", "kakan", "ankan", "pung"]), "tiles": notation}),
    st.dictionaries(st.sampled_from(["type", "tiles", "extra"]), json_value, max_size=3),
    json_value,
)
request = st.fixed_dictionaries(
    {"hand": st.one_of(notation, json_value), "win": st.one_of(notation, json_value)},
    optional={
        "melds": st.one_of(st.lists(meld, max_size=5), json_value),
        **{flag: st.one_of(st.booleans(), json_value) for flag in FLAGS},
        "seat_wind": st.one_of(st.sampled_from("ESWNX"), json_value),
        "round_wind": st.one_of(st.sampled_from("ESWN"), json_value),
        "dora_indicators": st.one_of(notation, json_value),
        "ura_indicators": st.one_of(notation, json_value),
        "kita": json_value,
        "honba": json_value,
        "riichi_sticks": json_value,
        "rulebook": st.one_of(st.sampled_from(["house", "sanma", "tenhou_nored", "nonesuch"]), json_value),
    },
)


@settings(max_examples=150, deadline=None)
@given(request)
def test_any_request_gets_an_answer_with_a_contract_code(data):
    answer = scorer("house").score_json(data)
    assert answer["ok"] or answer["error"]["code"] in CODES, answer


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 36), min_size=0, max_size=15),
    st.integers(0, 36),
    st.lists(st.tuples(st.sampled_from(["chi", "pon", "daiminkan", "kakan", "ankan"]), st.lists(st.integers(0, 36), max_size=4)), max_size=4),
    st.lists(st.integers(0, 36), max_size=6),
    st.sampled_from(["house", "sanma", "tenhou_nored"]),
)
def test_tile_codes_in_any_arrangement_get_an_answer_with_a_contract_code(concealed, win, melds, dora, name):
    s = scorer(name)
    try:
        answer = s.score_hand(s.hand(concealed, win=win, melds=melds), Situation(tsumo=bool(win % 2)), tuple(dora))
    except EngineError as exc:
        assert exc.code in CODES
    else:
        assert answer["ok"]
