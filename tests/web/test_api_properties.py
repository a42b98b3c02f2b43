"""Whatever JSON a client sends, every endpoint answers with the contract's shape and a status of the table in
``engine.web.errors``: never a server error, never another body."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.web.errors import STATUS
from tests.outcomes import CLEAN_CODES

FIELDS = ["hand", "win", "melds", "tsumo", "seat_wind", "riichi", "dora_indicators", "honba", "rulebook", "tiles"]
scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
tiles = st.from_regex(r"[0-9]{1,4}[mpsz]([0-9]{1,4}[mpsz]){0,4}", fullmatch=True)
values = st.recursive(scalars | tiles, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
requests = st.dictionaries(st.sampled_from(FIELDS), values, max_size=6) | values
ALLOWED = {200} | {status for code, status in STATUS.items() if code in CLEAN_CODES}


def _well_formed(answer: object) -> None:
    assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool)
    if "error" in answer:
        assert answer["ok"] is False and answer["error"]["code"] in CLEAN_CODES


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=requests)
def test_score_and_analyze_answer_any_json_in_the_contracts_shape(client, body):
    for path in ("/score", "/analyze"):
        # `json=None` would send no body, and no content type: a null body is sent as JSON text
        response = client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})
        assert response.status_code in ALLOWED
        answer = response.json()
        for one in answer if isinstance(answer, list) else [answer]:
            _well_formed(one)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=requests)
def test_explain_answers_any_json_in_the_contracts_shape(client, body):
    sent = body if not isinstance(body, dict) else {"rulebook": "house", **body}
    response = client.post("/explain", content=json.dumps(sent), headers={"content-type": "application/json"})
    assert response.status_code in ALLOWED
    _well_formed(response.json())
